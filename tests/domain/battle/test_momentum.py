"""5.4 Momentum: "or ends a turn without using up all of his Move inches, his MOM abandons him":
who is asked about at End turn, and what is refused."""

from __future__ import annotations

import pytest

from brikdesk.domain.battle import BattleSetup, PlayerSetup, Status, StatusSet, UnitSetup, apply
from brikdesk.domain.battle.momentum import MOM_RULE, mom_words, moms_at_turn_end, moms_lost
from brikdesk.domain.battle.rules import initial_state
from brikdesk.domain.rulesets import RULES_2010, RULES_2020
from brikdesk.errors import UserError


def table(rules=RULES_2020):
    setup = BattleSetup(
        (PlayerSetup(1, "Red"), PlayerSetup(2, "Blue")),
        (UnitSetup(1, 1, "Ann"), UnitSetup(2, 1, "Bob"), UnitSetup(3, 2, "Cy")),
        rules,
    )
    state = initial_state(setup)
    for uid in (1, 3):
        state = apply(setup, state, StatusSet(uid, Status.MOM))
    return setup, state


def test_only_the_ending_players_moms_are_asked_about() -> None:
    assert "ends a turn without using up all of his Move inches" in MOM_RULE
    setup, state = table()
    asked = moms_at_turn_end(setup, state)
    assert asked is not None and asked.units == ((1, "Ann"),) and asked.lost_by_rule
    [cleared] = moms_lost(setup, state, [1])
    assert not apply(setup, state, cleared).unit(1).mom
    assert mom_words(setup, asked, [1]) == "MOM lost, Move not used up (5.4): Ann"
    assert mom_words(setup, asked, []) == "MOM kept, Move used up in a straight line (5.4): Ann"


def test_a_unit_without_a_mom_or_of_another_player_is_refused() -> None:
    setup, state = table()
    with pytest.raises(UserError, match="Bob holds no MOM"):
        moms_lost(setup, state, [2])
    with pytest.raises(UserError, match="Cy holds no MOM"):
        moms_lost(setup, state, [3])  # Blue's turn is not ending


def test_2010_takes_no_mom_away_and_says_why() -> None:
    setup, state = table(RULES_2010)
    asked = moms_at_turn_end(setup, state)
    assert asked is not None and not asked.lost_by_rule
    assert asked.kept_text().startswith("Ann keeps the MOM: the 2010 rules")
    with pytest.raises(UserError, match="2010 rules take no MOM away"):
        moms_lost(setup, state, [1])
