"""A MOM at the end of its owner's turn (5.4).

2020, 5.4 Momentum: "The moment he turns to the right or left from his straight-line path ...,
or ends a turn without using up all of his Move inches, his MOM abandons him." BrikDesk does not
measure Move, so End turn asks: :func:`moms_at_turn_end` names the ending player's units that
hold a MOM, the organizer says which of them did not use up their Move, and
:func:`moms_lost` gives the events that clear those MOMs, recorded with the turn's end as one
step. Units of the other players keep theirs: their turn is not ending. The 2005 and 2010 texts
BrikDesk follows have no Charge chapter: there a MOM is kept, and End turn says why
(:meth:`MomAtTurnEnd.kept_text`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from brikdesk.domain.battle.events import StatusCleared
from brikdesk.domain.battle.model import BattleSetup, BattleState, Status
from brikdesk.domain.ids import BattleUnitId
from brikdesk.errors import UserError

__all__ = ["MOM_RULE", "MomAtTurnEnd", "mom_words", "moms_at_turn_end", "moms_lost"]

#: The sentence End turn enforces, for the question and the Rules reference.
MOM_RULE = "A MOM abandons a minifig who ends a turn without using up all of his Move inches (5.4)."


@dataclass(frozen=True)
class MomAtTurnEnd:
    """The ending player's units holding a MOM: ``units`` as (id, name shown), and whether
    the battle's edition takes a MOM away at the end of a turn (``lost_by_rule``)."""

    units: tuple[tuple[BattleUnitId, str], ...]
    lost_by_rule: bool
    edition: str

    def kept_text(self) -> str:
        """Why each keeps his MOM where the edition has no such rule."""
        names = ", ".join(name for _uid, name in self.units)
        return (
            f"{names} keep{'s' if len(self.units) == 1 else ''} the MOM: the {self.edition} "
            "rules BrikDesk follows have no Charge chapter, so nothing ends a MOM with the turn "
            "(5.4)"
        )


def moms_at_turn_end(setup: BattleSetup, state: BattleState) -> MomAtTurnEnd | None:
    """The units of the player whose turn ends that hold a MOM, or ``None`` when none does."""
    units = tuple(
        (u.unit_id, setup.name(u.unit_id))
        for u in state.units
        if u.player_id == state.active and u.in_battle and u.mom
    )
    if not units:
        return None
    rules = setup.rules
    return MomAtTurnEnd(units, rules.mom_lost_at_turn_end, rules.edition.value)


def moms_lost(
    setup: BattleSetup, state: BattleState, lost: Sequence[BattleUnitId]
) -> tuple[StatusCleared, ...]:
    """The events clearing the MOM of each unit in ``lost`` (he did not use up his Move);
    refused for a unit that is not the ending player's or holds no MOM, or in an edition
    whose rules take no MOM away at the end of a turn."""
    if not lost:
        return ()
    asked = moms_at_turn_end(setup, state)
    holders = {uid for uid, _name in asked.units} if asked is not None else set()
    for uid in lost:
        if uid not in holders:
            raise UserError(f"{setup.name(uid)} holds no MOM at the end of this turn.", field="mom")
    if asked is None or not asked.lost_by_rule:
        raise UserError(
            f"The {setup.rules.edition.value} rules take no MOM away at the end of a turn.",
            field="mom",
        )
    return tuple(StatusCleared(uid, Status.MOM) for uid in dict.fromkeys(lost))


def mom_words(setup: BattleSetup, asked: MomAtTurnEnd, lost: Sequence[BattleUnitId]) -> str:
    """What became of the MOMs at the end of the turn, for the panel's message."""
    if not asked.lost_by_rule:
        return asked.kept_text()
    gone = [name for uid, name in asked.units if uid in lost]
    kept = [name for uid, name in asked.units if uid not in lost]
    parts = []
    if gone:
        parts.append(f"MOM lost, Move not used up (5.4): {', '.join(gone)}")
    if kept:
        parts.append(f"MOM kept, Move used up in a straight line (5.4): {', '.join(kept)}")
    return "; ".join(parts)
