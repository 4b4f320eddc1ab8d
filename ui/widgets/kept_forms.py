"""Forms kept between uses: the battle panel's quick attack form and Sprint dialog are hidden,
not deleted, when they close, and started again for the next unit (a form already
made opens in about half the time of a new one, bench_table_flow)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtWidgets import QWidget

F = TypeVar("F", bound=QWidget)


def kept_form(parent: QWidget | None, kind: type[F], same: Callable[[F], bool]) -> F | None:
    """A hidden ``kind`` form of ``parent`` for which ``same`` holds (made for the same battle,
    services and undo history), to start again; ``None`` if there is none."""
    if parent is None:
        return None
    return next((f for f in parent.findChildren(kind) if not f.isVisible() and same(f)), None)


def same_battle(
    services: object, bus: object, undo_stack: object, battle_id: int
) -> Callable[[Any], bool]:
    """Whether a kept form was made for this battle, services, bus and undo history."""
    made_for = (services, bus, undo_stack, battle_id)
    return lambda f: (f.services, f.bus, f.undo_stack, f.battle_id) == made_for
