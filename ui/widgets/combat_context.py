"""The combat context of a battle as it stands (``brikdesk.domain.combat.CombatContext``), for
the battle panel's checks and the combat forms alike: the panel hands the context it made to
the form it opens, used while it is the battle as it stands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from brikdesk.domain.combat import CombatContext
from ui.widgets.battle_context import context_from_view

if TYPE_CHECKING:
    from brikdesk.services.tracker import BattleView


def combat_context(view: BattleView) -> CombatContext:
    """The combat wizard's context of the battle as ``view`` has it (its fighters: 500 units,
    about 2 ms)."""
    return context_from_view(view)


def context_for(view: BattleView, ctx: CombatContext | None = None) -> CombatContext:
    """The combat forms' battle as ``view`` has it now: ``ctx`` (the battle panel's) when it is
    that battle, else one made from ``view``. A form never resolves an attack against a
    battle that has moved on (an End Turn, an Undo, a death recorded since ``ctx`` was made)."""
    if (
        ctx is not None
        and ctx.setup is view.setup
        and ctx.catalog is view.catalog
        and ctx.state == view.state
    ):
        return ctx
    return context_from_view(view)
