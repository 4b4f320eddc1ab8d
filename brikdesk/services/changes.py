"""What a service action hands back, with nothing heavy to import: ``Changes`` and ``Done``.

The window and the undo machinery need these names when they are built, before the database
layer is loaded (the app paints its main window first and opens the database right after), so
this module imports neither SQLAlchemy nor the models. ``brikdesk.services.common`` re-exports
every name here; services keep importing them from there.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

T = TypeVar("T")

Clock = Callable[[], datetime]


class Changes(enum.Flag):
    """What a service call changed, so views reload only what they show."""

    NONE = 0
    CAMPAIGNS = enum.auto()
    PLAYERS = enum.auto()
    ARMIES = enum.auto()
    UNITS = enum.auto()
    CATALOG = enum.auto()
    BATTLES = enum.auto()
    EVENTS = enum.auto()


Step = Callable[[], Changes]


@dataclass(frozen=True)
class Done(Generic[T]):
    """A performed, reversible user action.

    ``value``: what the action produced; ``changes``: what to refresh; ``text``: a label for the
    Undo menu ("Rename unit"); ``redo``/``undo``: one transaction each, returning ``Changes``.
    """

    value: T
    changes: Changes
    text: str
    redo: Step
    undo: Step


def step(method: Callable[..., Done[Any]], *args: Any, **kwargs: Any) -> Step:
    """A ``Step`` that calls ``method(*args, **kwargs)`` and returns its ``changes``."""

    def run() -> Changes:
        return method(*args, **kwargs).changes

    run.__qualname__ = f"step({getattr(method, '__qualname__', method)})"
    return run


def utc_now() -> datetime:
    return datetime.now(UTC)
