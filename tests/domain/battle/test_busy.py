"""When a long Action is done (4.2 Long Actions): the turn the panel's Busy chip names."""

from __future__ import annotations

from brikdesk.domain.battle import (
    BattleSetup,
    LongActionStarted,
    PlayerSetup,
    UnitSetup,
    apply,
    end_turn,
    initial_state,
)
from brikdesk.domain.battle.busy import BusyEnd, busy_text, busy_until


def _setup() -> BattleSetup:
    return BattleSetup(
        (PlayerSetup(1, "Hal"), PlayerSetup(2, "Ines"), PlayerSetup(3, "Jo")),
        (UnitSetup(10, 1, "Digger"), UnitSetup(20, 2, "Rower"), UnitSetup(30, 3, "Pilot")),
    )


def _turns(setup: BattleSetup, state, n: int):
    for _ in range(n):
        _event, state = end_turn(setup, state)
    return state


def test_a_full_turn_action_is_done_when_the_next_player_starts():
    # 2020 4.2: "Once engaged in a full-turn Action, a minifig is Stopped and can't engage in
    # any other type of Action or movement of his own for the rest of the turn"
    setup = _setup()
    state = apply(setup, initial_state(setup), LongActionStarted(10, "digging a trench"))
    assert busy_until(state, 10) == BusyEnd(1, 2, "Ines")
    assert busy_text(state, 10) == ("Busy: digging a trench (done at the start of Ines's turn 1)")
    assert busy_until(_turns(setup, state, 1), 10) is None


def test_an_extended_action_ends_after_its_last_own_turn():
    # 2020 4.2: "A full-turn Action that extends over multiple turns is an extended Action."
    setup = _setup()
    state = apply(setup, initial_state(setup), LongActionStarted(10, "digging a trench", 3))
    expected = BusyEnd(3, 2, "Ines")
    assert busy_until(state, 10) == expected
    for n in range(1, 7):  # the same answer on every turn until it is done
        later = _turns(setup, state, n)
        assert busy_until(later, 10) == expected, n
    assert busy_until(_turns(setup, state, 7), 10) is None


def test_the_last_players_unit_is_done_at_the_next_round():
    setup = _setup()
    state = _turns(setup, initial_state(setup), 2)  # Jo's turn, round 1
    state = apply(setup, state, LongActionStarted(30, "piloting the gunship", 2))
    assert busy_text(state, 30) == (
        "Busy: piloting the gunship (done at the start of Hal's turn 3)"
    )
    for n in range(1, 4):
        assert busy_until(_turns(setup, state, n), 30) == BusyEnd(3, 1, "Hal"), n
    assert busy_until(_turns(setup, state, 4), 30) is None


def test_a_unit_not_busy_has_no_end():
    setup = _setup()
    assert busy_until(initial_state(setup), 20) is None
    assert busy_text(initial_state(setup), 20) == ""
