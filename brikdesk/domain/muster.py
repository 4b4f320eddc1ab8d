"""Mustering under a budget for one battle: what each side brings, and by how much it is over.

A warning, never a refusal: the organizer may let a side field more (a handicap, a scenario).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SideMuster:
    """One side of a muster: the player, how many units and what they cost together."""

    player: str
    units: int
    cost: int


def muster_summary(
    sides: Sequence[SideMuster], budget: int | None, cost_unit: str = "CP"
) -> tuple[str, tuple[str, ...]]:
    """The muster in one line and a warning per side over ``budget`` (``None`` or 0: no
    budget): ``("Margo: 5 units, 42 CP; Tobias: 3 units, 20 CP", ("Margo is over ..."))``."""
    line = "; ".join(
        f"{s.player}: {s.units} unit{'s' if s.units != 1 else ''}, {s.cost} {cost_unit}"
        for s in sides
    )
    warnings: tuple[str, ...] = ()
    if budget:
        warnings = tuple(
            f"{s.player} is over this battle's budget of {budget} {cost_unit} by "
            f"{s.cost - budget} {cost_unit} ({s.cost} {cost_unit})"
            for s in sides
            if s.cost > budget
        )
    return line, warnings
