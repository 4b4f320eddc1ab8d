"""What the combat forms (the combat wizard, the quick attack form, the Sprint dialog) read of
a battle: the services they use, and the combat context made from the tracker's view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from brikdesk.domain.combat import CombatContext, context_from

if TYPE_CHECKING:
    from brikdesk.services.tracker import BattleView, TrackerService


class CombatServices(Protocol):
    """What the combat forms use of the application's services: the battle tracker (its view
    of the battle, and ``record`` for Finish)."""

    @property
    def tracker(self) -> TrackerService: ...


def context_from_view(view: BattleView) -> CombatContext:
    """The combat forms' battle from the tracker's ``BattleView`` (its standing events tell
    which items a fumbled Parry knocked away earlier)."""
    return context_from(
        view.setup,
        view.state,
        view.catalog,
        [
            (u.id, view.setup.name(u.id), u.player_id, u.spec, u.stats, u.minifig)
            for u in view.units
        ],
        events=[e.event for e in view.standing_events],
    )
