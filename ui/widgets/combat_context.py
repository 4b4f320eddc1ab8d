"""The combat context of a battle as it stands (``brikdesk.domain.combat.CombatContext``), for
the battle panel's checks and the combat forms alike: one cache, so the forms opened from the
panel use the fighters the panel's checks already made (500 units: not made again).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from brikdesk.domain.battle import AttackResolved
from brikdesk.domain.combat import CombatContext
from brikdesk.domain.combat.draft import knocked_away_items
from ui.widgets.battle_context import context_from_view

if TYPE_CHECKING:
    from brikdesk.services.tracker import BattleView


#: A one-entry cache: the last context ``combat_context`` built, with the very objects its
#: fighters were made from (the tracker hands back the same objects while they stay; they are
#: compared, never hashed: hashing 500 units costs what building the fighters does).
_context_cache: list[tuple[tuple[object, ...], CombatContext]] = []


def combat_context(view: BattleView) -> CombatContext:
    """The combat wizard's context of the battle as it stands. Its fighters (500 units: 2 ms)
    depend on the units mustered, the catalog and the items knocked away, not on the state:
    while those stay, the last ones serve with the new state."""
    # Items are knocked away by resolved attacks only (their recorded outcome).
    knocked = knocked_away_items(
        e.event for e in view.events if e.kind == AttackResolved.kind and not e.reverted
    )
    if _context_cache:
        (units, catalog, setup, was_knocked), ctx = _context_cache[0]
        if (
            units is view.units
            and catalog is view.catalog
            and setup is view.setup
            and was_knocked == knocked
        ):
            return replace(ctx, state=view.state)
    ctx = context_from_view(view)
    _context_cache[:] = [((view.units, view.catalog, view.setup, knocked), ctx)]
    return ctx


def context_for(view: BattleView, ctx: CombatContext | None = None) -> CombatContext:
    """The combat forms' battle as ``view`` has it now: ``ctx`` (the battle panel's) when it is
    that battle, else the shared ``combat_context`` (its fighters are the ones the panel's
    checks made: 500 units' are not made again). A form never resolves an attack against a
    battle that has moved on (an End Turn, an Undo, a death recorded since ``ctx`` was made)."""
    if (
        ctx is not None
        and ctx.setup is view.setup
        and ctx.catalog is view.catalog
        and ctx.state == view.state
    ):
        return ctx
    return combat_context(view)
