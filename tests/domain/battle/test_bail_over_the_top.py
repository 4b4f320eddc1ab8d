"""The panel's moves: a Bail lands on its feet only by an Over the Top
Benny, so the battle rules refuse one where the edition or the unit has no Over the Top; the
panel offers what the rules allow. Each test quotes the sentence it enforces (the 2005 and
2020 editions' chapter 4)."""

from __future__ import annotations

import pytest

from brikdesk.domain.battle import (
    ActionSpent,
    ActionUse,
    BattleSetup,
    PlayerSetup,
    RuleViolation,
    UnitSetup,
    apply,
    initial_state,
)
from brikdesk.domain.battle.rules import READINGS
from brikdesk.domain.rulesets import RULES_2005, RULES_2020, RuleSet
from ui.dialogs.rules_reference import reference_html

GRUNT, PEASANT, ARCHER = 1, 2, 3


def _setup(rules: RuleSet) -> BattleSetup:
    return BattleSetup(
        (PlayerSetup(1, "Red"), PlayerSetup(2, "Blue")),
        (
            UnitSetup(GRUNT, 1, "Grunt"),
            UnitSetup(PEASANT, 1, "Peasant", over_the_top=False),
            UnitSetup(ARCHER, 2, "Archer"),
        ),
        rules=rules,
    )


def _bail(rules: RuleSet, unit: int, over_the_top: bool):
    setup = _setup(rules)
    return apply(
        setup, initial_state(setup), ActionSpent(unit, ActionUse.BAIL, False, None, over_the_top)
    )


def test_2005_has_no_over_the_top_bail():
    """2005, 4.3: "After Bailing, a unit is Disrupted, meaning he may not attempt any further
    action until his next turn, not even to Counter a Close Combat attack." """
    with pytest.raises(RuleViolation, match="BrikWars 2005 has no Over the Top"):
        _bail(RULES_2005, GRUNT, True)
    state = _bail(RULES_2005, GRUNT, False)
    assert state.unit(GRUNT).disrupted


def test_a_unit_that_never_goes_over_the_top_cannot_land_on_its_feet():
    """2020, 4.2: "Incompetent units ... can never roll high enough to go Over the Top." """
    with pytest.raises(RuleViolation, match="Peasant can never go Over the Top"):
        _bail(RULES_2020, PEASANT, True)
    assert _bail(RULES_2020, PEASANT, False).unit(PEASANT).disrupted
    assert not _bail(RULES_2020, GRUNT, True).unit(GRUNT).disrupted


def test_the_reading_is_in_the_rules_reference():
    reading = READINGS["bail_over_the_top"]
    assert '"After Bailing, a unit is Disrupted"' in reading
    assert '"can never roll high enough to go Over the Top"' in reading
    assert "After Bailing, a unit is Disrupted" in reference_html("Over the Top").replace(
        "&quot;", '"'
    )
