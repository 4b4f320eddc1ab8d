"""When a unit's long Action is done (4.2 Long Actions), for the panel's chip and tooltip.

A full-turn or extended Action (``LongActionStarted``) keeps the unit Busy through the end of
its last own turn (``rules``: reading ``long_actions``); it is free again when the next player's
turn starts. ``busy_until`` says which turn that is; ``busy_text`` says it in words:
"Busy: digging a trench (done at the start of Ines's turn 3)", the number being the round.
"""

from __future__ import annotations

from dataclasses import dataclass

from brikdesk.domain.battle.model import BattleState
from brikdesk.domain.ids import BattleUnitId, PlayerId

__all__ = ["READINGS", "BusyEnd", "busy_text", "busy_until"]

READINGS: dict[str, str] = {
    "4.2 When a long Action is done": (
        "A full-turn Action takes 'the rest of the turn': the unit is free again when the "
        "next player's turn starts. An extended Action of N turns also takes the unit's next "
        "N-1 own turns, so it is done when the player after its owner starts a turn after the "
        "last of them. The Busy chip names that turn ('done at the start of Ines's turn 3', "
        "3 being the round)."
    ),
}


@dataclass(frozen=True)
class BusyEnd:
    """The turn at whose start the unit is free again: ``player_id``'s turn in ``round``."""

    round: int
    player_id: PlayerId
    player_name: str


def busy_until(state: BattleState, unit_id: BattleUnitId) -> BusyEnd | None:
    """When ``unit_id``'s long Action is done (``None``: it is not Busy). 4.2 Long Actions:
    the unit is Busy through its last own turn; ``busy_turns`` counts the own turns it still
    takes after the current one (on its owner's turn) or after the next one (off it)."""
    u = state.unit(unit_id)
    if not u.busy:
        return None
    players = state.setup.players
    owner = state.setup.player_index[u.player_id]
    active = state.setup.player_index[state.active]
    if u.player_id == state.active:
        last = state.round + max(u.busy_turns, 0)
    else:
        next_own = state.round if owner > active else state.round + 1
        if u.busy_turns <= 0:  # set on another player's turn: free when its owner's turn starts
            return BusyEnd(next_own, u.player_id, players[owner].name)
        last = next_own + u.busy_turns - 1
    if owner + 1 < len(players):
        after = players[owner + 1]
        return BusyEnd(last, after.player_id, after.name)
    return BusyEnd(last + 1, players[0].player_id, players[0].name)


def busy_text(state: BattleState, unit_id: BattleUnitId) -> str:
    """ "Busy: digging a trench (done at the start of Ines's turn 3)"; "" when not Busy."""
    end = busy_until(state, unit_id)
    if end is None:
        return ""
    what = state.unit(unit_id).busy
    return f"Busy: {what} (done at the start of {end.player_name}'s turn {end.round})"
