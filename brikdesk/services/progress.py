"""Progress of long service calls (import, export), without SQLAlchemy (the app's window
imports it before the database layer loads).

A ``Progress`` callback ``progress(stage, done, total)`` is called as the work goes on, from
whatever thread runs it; it may raise ``Cancelled`` to stop the work, which then writes
nothing.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[str, int, int], None]


class Cancelled(Exception):
    """Work stopped by its progress callback; nothing was written."""


def no_progress(stage: str, done: int, total: int) -> None:
    """The callback of work nobody watches."""
    return None
