"""Editions as rule sets (chapter 4 of 2005, 2010, 2020): Sprint and Bail by edition.

Each test quotes the sentence of the seed it enforces (001 = 2005, 002 = 2010, 003 = 2020).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from brikdesk.domain.actions import apply_bail_benny, apply_sprint_benny, roll_bail, roll_sprint
from brikdesk.domain.attack import (
    Attack,
    Attacker,
    SizeClass,
    Target,
    Weapon,
    apply_benny,
    roll_attack_action,
    roll_attack_damage,
)
from brikdesk.domain.catalog import Edition
from brikdesk.domain.rolling import BennyUse, NeedDie, Role, TypedDice
from brikdesk.domain.rulesets import (
    EDITION_ROWS,
    RULE_SETS,
    RULES_2005,
    RULES_2010,
    RULES_2020,
    Recovery,
    edition_table,
    rules_for,
    ruleset_fields,
)
from brikdesk.errors import UserError

BOB = Attacker("Bob")
HERO = Attacker("Hero Hal", 10)
ZOMBIE = Attacker("Zombie", 4)


def test_the_campaign_edition_chooses_the_rule_set():
    assert rules_for(Edition.E2005) is RULES_2005
    assert rules_for("2010") is RULES_2010
    assert rules_for(None) is RULES_2020
    with pytest.raises(ValueError, match="no rule set for edition '1999'"):
        rules_for("1999")


class TestBail2020:
    def test_over_the_top_is_one_benny_not_bonus_dice_as_well(self):
        # 4.3 (2020): "A Bailing minifig can spend an Action to dive to any spot within an
        # Action Roll's worth of inches"; 4.2: "An Action Roll doesn't score Critical Successes
        # the same way as other die rolls. Instead ... he can take the Action Over the Top."
        dice = TypedDice([6, 3])
        result = roll_bail(BOB, dice)
        assert result.bail_inches == 6 and result.over_the_top
        assert dice.used == 1  # the 3 is not asked for: no bonus d6
        more = apply_bail_benny(result, BennyUse.STAT, dice)
        assert more.distance == 9 and more.disrupted
        with pytest.raises(UserError, match="already spent"):
            apply_bail_benny(more, BennyUse.EMBELLISH, TypedDice([]))

    def test_or_lands_on_his_feet_at_six_inches(self):
        # 4.3 (2020): "A minifig who rolls Over the Top on a Bailing roll can use it to land on
        # his feet and avoid Disruption."
        result = apply_bail_benny(roll_bail(BOB, TypedDice([6])), BennyUse.EMBELLISH, TypedDice([]))
        assert result.distance == 6 and result.landed_on_feet and not result.disrupted

    def test_a_d4_natural_four_adds_a_bonus_d4(self):
        # 4.2 (2020): "Incompetent units ... are allowed to earn Critical Successes on their
        # Action Rolls, gaining a Bonus [d4] on a natural roll of 4."
        dice = TypedDice([4, 4, 2])
        result = roll_bail(ZOMBIE, dice)
        assert [(d.sides, d.role) for d in result.dice] == [
            (4, Role.NATURAL),
            (4, Role.BONUS),
            (4, Role.BONUS),
        ]
        assert result.bail_inches == 10 and not result.over_the_top

    def test_hero_bails_on_his_d10(self):
        with pytest.raises(NeedDie) as need:
            roll_bail(HERO, TypedDice([]))
        assert need.value.sides == 10


class TestBail2005:
    def test_every_unit_bails_on_1d6(self):
        # 4.3 (2005): "A Bailing unit can dive to any spot within 1d6\" of its current
        # position, ending up lying on the ground in a prone position."
        with pytest.raises(NeedDie) as need:
            roll_bail(HERO, TypedDice([]), rules=RULES_2005)
        assert need.value.sides == 6

    def test_no_over_the_top_in_2005(self):
        result = roll_bail(HERO, TypedDice([6, 2]), rules=RULES_2005)
        assert not result.over_the_top and result.disrupted
        assert result.bail_inches == 8  # a plain d6 distance roll keeps its bonus die (1.2)
        with pytest.raises(
            UserError, match="BrikWars 2005's chapter 4 gives this roll no Over the Top"
        ):
            apply_bail_benny(result, BennyUse.EMBELLISH, TypedDice([]))

    def test_critical_failure_falls_on_his_face(self):
        # 4.3 (2005): "a Critical Failure means he just falls on his face right where he's
        # standing."
        result = roll_bail(BOB, TypedDice([1]), rules=RULES_2005)
        assert result.critical_failure and result.distance == 0


class TestBail2010:
    def test_overskill_lands_on_his_feet(self):
        # 4.3 (2010): "A minifig who rolls an Overskill Benny on the Skill roll for Bailing
        # distance may choose to land on his feet and avoid being Disrupted."
        result = roll_bail(HERO, TypedDice([7]), rules=RULES_2010)
        assert result.over_the_top
        assert not apply_bail_benny(
            result,
            BennyUse.EMBELLISH,
            TypedDice([]),
        ).disrupted

    def test_half_speed_bail(self):
        # 4.3 (2010): "A minifig who is reduced to Half Speed also Bails at Half Speed, diving
        # only one real inch for every two Bail inches."
        assert roll_bail(
            BOB, TypedDice([5]), half_speed=True, rules=RULES_2010
        ).distance == Fraction(5, 2)


class TestSprintByEdition:
    def test_2020_sprint_keeps_bonus_dice_and_the_runaway(self):
        # 4.1 (2020): "The die roll for Sprinting can benefit from Bonus Dice like any other
        # roll"; "if a series of Critical Successes in a Sprint roll ends with a roll of one ...
        # must run the full distance".
        result = roll_sprint(BOB, TypedDice([6, 6, 1]))
        assert result.sprint_inches == 13 and result.must_run_full and result.over_the_top
        assert 'must run the full 13"' in result.describe()

    def test_runaway_at_half_speed_names_the_real_distance(self):
        result = roll_sprint(BOB, TypedDice([6, 6, 2, 6, 1]), half_speed=True)
        result = apply_sprint_benny(result, BennyUse.STAT, TypedDice([1]))
        assert result.sprint_inches == 15 and not result.must_run_full

    def test_hero_2005_sprints_on_1d6_with_no_benny(self):
        # 4.1 (2005): "a minifig (or any living unit) can Sprint, giving itself 1d6 extra
        # inches of Move for the turn".
        dice = TypedDice([6, 6, 1])
        result = roll_sprint(HERO, dice, rules=RULES_2005)
        assert [d.sides for d in result.dice] == [6, 6, 6]
        assert result.sprint_inches == 13 and not result.over_the_top
        assert not result.must_run_full  # the runaway tradition is 2010's
        with pytest.raises(UserError, match="no Over the Top"):
            apply_sprint_benny(result, BennyUse.STAT, TypedDice([3]))

    def test_hero_2010_sprints_on_his_skill_die(self):
        # 4.1 (2010): "giving himself extra inches of Move for the turn equal to his Skill
        # Roll".
        result = roll_sprint(HERO, TypedDice([10, 1]), rules=RULES_2010)
        assert result.sprint_inches == 11 and result.must_run_full and result.over_the_top


class TestEditionTable:
    def test_every_rule_set_field_has_one_row(self):
        assert sorted(name for name, _label, _s in EDITION_ROWS) == sorted(ruleset_fields())

    def test_the_table_shows_the_rule_sets_values(self):
        table = {label: cells for label, _section, cells in edition_table()}
        assert [r.edition.value for r in RULE_SETS] == ["2005", "2010", "2020"]
        assert table["Die for Sprint and Bail inches"] == (
            "d6",
            "the unit's Action die",
            "the unit's Action die",
        )
        assert table["A natural 6+ on the Action die earns"] == (
            "none",
            "Overskill",
            "Over the Top",
        )
        assert table["Move spent standing up"] == ('2"', '0"', '0"')
        assert table["Heavy Armor: recovering takes the whole turn"] == ("no", "yes", "no")

    def test_recovery_differs_in_2005(self):
        # 4.3 (2005): "On its following turn, the unit recovers (spending 2\" of Move to stand
        # up)"; 4.1 (2020): "minifigs recover from Disruption, getting up and moving at Half
        # Speed for their full turn".
        assert RULES_2005.recovery is Recovery.STAND_UP and RULES_2005.recovery_move_cost == 2
        assert RULES_2020.recovery is Recovery.HALF_SPEED_TURN


def test_the_2010_hangmans_gallows_replays_under_2010():
    # 4.2 (2010): "Thieven Hood makes his Attack Roll and rolls his d10 Skill die. An eight!
    # Because it's a six or greater, it gives him an Overskill Benny to spend on the shot."

    rules = rules_for("2010")
    assert rules.over_the_top == "Overskill" and rules.action_roll == "Skill Roll"
    longbow = Weapon("longbow", 3, "1d6+1", 10, two_handed=True)
    rope = Target("the rope", armor=1, size=SizeClass.STUD_1X1, inanimate=True)
    dice = TypedDice([8, 2, 2])
    state = roll_attack_action(
        Attack(Attacker("Thieven Hood", 10), longbow, rope, distance=15), dice
    )
    assert state.over_the_top and rules.has_over_the_top and not state.hit
    state = apply_benny(state, BennyUse.STAT, dice)  # +1d6 Range: 2, the longbow reaches 12"
    assert state.hit and state.range.effective_range == 12
    damage = roll_attack_damage(state, dice)
    assert damage.total == 0 and not damage.destroyed  # "it bounces off without effect"


def test_2005_quick_actions_cost_move():
    # 4.1 (2005): "More involved actions, such as picking up a heavy object ..., opening a door,
    # or holstering a weapon, cost 1" of Move"; "Standing up from a prone position -2"".
    assert RULES_2005.quick_action_cost("Opening or closing a door") == 1
    assert RULES_2005.quick_action_cost("Standing up from a prone position") == 2
    assert RULES_2005.quick_action_cost("Talking") == 0
    assert RULES_2020.quick_action_cost("Opening or closing a door") is None
    table = {label: cells for label, _s, cells in edition_table()}
    assert 'Opening or closing a door -1"' in table["Quick Actions that cost Move"][0]
    assert table["Quick Actions that cost Move"][1:] == ("none", "none")
    assert table["Defending against a Close Combat attack is called"] == (
        "Counter",
        "Counter",
        "Parry",
    )


def test_2005_large_actions_take_a_turn_per_inch_for_a_lone_minifig():
    # 4.2 (2005): "the number of minifigs required (or turns required for a single minifig) to
    # perform a Large Action is equal to the Size in inches of the object being used."
    from brikdesk.domain.rulesets import large_action_turns

    assert large_action_turns(4) == 4
    assert large_action_turns(4, minifigs=4) == 1
    assert large_action_turns(5, minifigs=2) == 3
    with pytest.raises(ValueError):
        large_action_turns(0)
