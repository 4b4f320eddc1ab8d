"""Parry (5.2), Bail (4.3), Sprint (4.1), Collision, KnockBack, Shove and Grab (5.2, 5.4)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brikdesk.domain.actions import (
    BARE_HANDS_PARRY,
    READINGS,
    Incoming,
    ParryItem,
    apply_bail_benny,
    apply_parry_benny,
    apply_sprint_benny,
    collide,
    grab,
    knockback,
    parry_use,
    roll_bail,
    roll_parry,
    roll_sprint,
    shove,
)
from brikdesk.domain.attack import (
    Attack,
    Attacker,
    Target,
    Weapon,
    apply_damage,
    damage_roll,
    roll_attack_action,
)
from brikdesk.domain.catalog import CatalogItem, Category
from brikdesk.domain.rolling import BennyUse, Role, TypedDice
from brikdesk.errors import UserError

BOB = Attacker("Bob")
HERO = Attacker("Hero", 10)
SHIELD = ParryItem("shield", 2, shield=True)
SWORD = ParryItem("sword", 2)
PISTOL = ParryItem("pistol", 3, ranged=True)


# ---- Parry ----------------------------------------------------------------------------------


class TestParry:
    def test_use_of_each_kind_of_item(self):
        assert parry_use(BARE_HANDS_PARRY)[0] == 0
        assert parry_use(PISTOL)[0] == 3
        assert parry_use(ParryItem("rifle", 5, ranged=True))[0] == 3
        assert parry_use(SHIELD)[0] == 2
        with pytest.raises(UserError, match="can't be used to Parry"):
            parry_use(ParryItem("body armor", None))

    def test_ranged_catalog_item_parries_as_a_minifig_tool(self):
        item = CatalogItem(
            "long_ranged", "Long-Ranged Weapon", Category.WEAPON, 5, 3, 10, False, "1d6+1", 2
        )
        assert parry_use(ParryItem.from_item(item))[0] == 3

    @pytest.mark.parametrize("against", [Incoming.STRIKE, Incoming.DAMAGE, Incoming.CHARGE])
    def test_only_a_shield_parries_damage(self, against):
        with pytest.raises(UserError, match="only a Shield"):
            roll_parry(BOB, SWORD, against, TypedDice([6]))
        result = roll_parry(BOB, SHIELD, against, TypedDice([3]))
        assert result.success and len(result.deflections) == 1

    @pytest.mark.parametrize("item", [SWORD, PISTOL, BARE_HANDS_PARRY])
    @pytest.mark.parametrize("against", [Incoming.GRAB, Incoming.SHOVE])
    def test_anything_parries_a_grab_or_shove(self, item, against):
        result = roll_parry(BOB, item, against, TypedDice([4]))
        assert result.cancelled and result.deflections == ()

    def test_plus_one_against_a_two_handed_attack_or_shove_not_a_grab(self):
        strike = roll_parry(BOB, SHIELD, Incoming.STRIKE, TypedDice([2]), two_handed_weapon=True)
        assert [m.value for m in strike.roll.modifiers] == [1]
        assert strike.roll.total == 3
        grab_parry = roll_parry(BOB, SWORD, Incoming.GRAB, TypedDice([2]), two_handed_weapon=True)
        assert grab_parry.roll.modifiers == ()

    def test_outnumbered_parry(self):
        result = roll_parry(BOB, SHIELD, Incoming.STRIKE, TypedDice([2]), outnumbered=True)
        assert result.roll.total == 1 and not result.success
        assert result.deflections == ()

    def test_bare_hands_fail_only_on_a_critical_failure(self):
        assert roll_parry(BOB, BARE_HANDS_PARRY, Incoming.SHOVE, TypedDice([2])).success
        crit = roll_parry(BOB, BARE_HANDS_PARRY, Incoming.SHOVE, TypedDice([1]))
        assert not crit.success and crit.knocked_away is None

    def test_critical_failure_knocks_the_item_away_by_the_attackers_roll(self):
        result = roll_parry(BOB, SHIELD, Incoming.STRIKE, TypedDice([1]), attacker_roll=5)
        assert result.knocked_away == 5
        assert result.describe().endswith(
            "natural 1, a critical failure; the shield is knocked out of Bob's hands, 5\" "
            "directly away from the attacker (the attacker's Action Roll, 5.2)"
        )

    def test_after_an_automatic_hit_the_attacker_rolls_for_the_distance(self):
        result = roll_parry(BOB, SWORD, Incoming.GRAB, TypedDice([1, 4]), attacker=HERO)
        assert result.knocked_away == 4
        assert result.knock_dice[0].sides == 10
        assert "4\" directly away from Hero (a roll of Hero's Action die, 5.2)" in result.describe()

    def test_critical_failure_needs_the_attackers_roll(self):
        with pytest.raises(UserError, match="attacker's Action"):
            roll_parry(BOB, SWORD, Incoming.GRAB, TypedDice([1]))

    def test_over_the_top_buys_one_more_level_of_deflection(self):
        result = roll_parry(BOB, SHIELD, Incoming.STRIKE, TypedDice([6]))
        assert result.over_the_top
        result = apply_parry_benny(result, BennyUse.EMBELLISH, TypedDice([]))
        assert len(result.deflections) == 2
        with pytest.raises(UserError, match="already spent"):
            apply_parry_benny(result, BennyUse.ACTION, TypedDice([3]))

    def test_benny_plus_one_d6_can_save_a_failed_parry(self):
        result = roll_parry(
            HERO, ParryItem("tower shield", 8, shield=True), Incoming.STRIKE, TypedDice([6])
        )
        assert not result.success
        with pytest.raises(UserError, match="no Deflection to add to"):
            apply_parry_benny(result, BennyUse.EMBELLISH, TypedDice([]))
        result = apply_parry_benny(result, BennyUse.ACTION, TypedDice([2]))
        assert result.roll.total == 8 and result.success

    def test_no_benny_without_over_the_top(self):
        result = roll_parry(BOB, SHIELD, Incoming.STRIKE, TypedDice([5]))
        with pytest.raises(UserError) as caught:
            apply_parry_benny(result, BennyUse.ACTION, TypedDice([2]))
        assert str(caught.value) == (
            "no Benny to spend: the Parry's Action die showed 5; Over "
            "the Top needs a natural 6 or more (4.2 Over the Top)"
        )

    def test_cannon_fodder_earns_no_benny_even_on_a_six(self):
        fodder = Attacker("Fodder Fred", over_the_top=False)
        result = roll_parry(fodder, SHIELD, Incoming.STRIKE, TypedDice([6]))
        assert result.success and not result.over_the_top
        with pytest.raises(UserError) as caught:
            apply_parry_benny(result, BennyUse.EMBELLISH, TypedDice([]))
        assert str(caught.value) == (
            "no Benny to spend: Fodder Fred never goes Over the Top (4.2 Over the Top)"
        )

    def test_shield_parry_deflects_the_strike(self):
        halberd = Weapon("halberd", 4, "2dA", two_handed=True)
        dice = TypedDice([5])
        state = roll_attack_action(
            Attack(Attacker("orc"), halberd, Target("Bob"), in_reach=True), dice
        )
        parry = roll_parry(
            BOB,
            SHIELD,
            Incoming.STRIKE,
            TypedDice([2]),
            two_handed_weapon=True,
            attacker_roll=state.roll.total,
        )
        assert parry.success
        dice = TypedDice([6, 2])
        part = damage_roll(state, dice, deflections=parry.deflections)
        assert str(part.expr) == "1d6" and part.total == 8
        assert not apply_damage(part, Target("Bob", armor=9), TypedDice([])).destroyed


# ---- Bail -----------------------------------------------------------------------------------


class TestBail:
    def test_dives_the_roll_and_ends_disrupted(self):
        result = roll_bail(BOB, TypedDice([4]))
        assert result.distance == 4 and result.disrupted
        assert result.describe() == 'Bob Bails: rolls 4, dives up to 4"; ends prone and Disrupted'

    def test_natural_one_falls_where_he_stands(self):
        result = roll_bail(BOB, TypedDice([1]))
        assert result.critical_failure and result.distance == 0 and result.disrupted

    def test_half_speed_keeps_the_half_inch(self):
        result = roll_bail(BOB, TypedDice([5]), half_speed=True)
        assert result.distance == Fraction(5, 2)
        assert '2½"' in result.describe()

    def test_an_action_roll_earns_no_bonus_dice(self):
        # 4.2: "An Action Roll doesn't score Critical Successes the same way as other die
        # rolls." The 6 goes Over the Top instead (tests/domain/test_rulesets.py).
        result = roll_bail(BOB, TypedDice([6]))
        assert result.bail_inches == 6
        assert [d.role for d in result.dice] == [Role.NATURAL]

    def test_over_the_top_lands_on_his_feet(self):
        result = apply_bail_benny(
            roll_bail(HERO, TypedDice([7])), BennyUse.EMBELLISH, TypedDice([])
        )
        assert result.landed_on_feet and not result.disrupted
        assert result.distance == 7

    def test_over_the_top_or_more_inches(self):
        result = apply_bail_benny(roll_bail(HERO, TypedDice([7])), BennyUse.STAT, TypedDice([3]))
        assert result.distance == 10 and result.disrupted

    def test_no_benny_without_over_the_top(self):
        with pytest.raises(UserError, match="no Benny to spend: the Action die showed 5;"):
            apply_bail_benny(roll_bail(BOB, TypedDice([5])), BennyUse.EMBELLISH, TypedDice([]))

    def test_cannon_fodder_bailing_on_a_six_earns_no_benny(self):
        result = roll_bail(Attacker("Fodder Fred", over_the_top=False), TypedDice([6]))
        assert result.bail_inches == 6 and not result.over_the_top
        with pytest.raises(UserError, match="Fodder Fred never goes Over the Top"):
            apply_bail_benny(result, BennyUse.EMBELLISH, TypedDice([]))
        assert "Benny" not in result.describe()


# ---- Sprint ---------------------------------------------------------------------------------


class TestSprint:
    def test_extra_inches(self):
        result = roll_sprint(BOB, TypedDice([4]))
        assert result.distance == 4 and not result.must_run_full

    def test_action_die_top_face_chains_bonus_dice(self):
        result = roll_sprint(BOB, TypedDice([6, 6, 2]))
        assert result.sprint_inches == 14 and not result.must_run_full

    def test_a_chain_ending_in_one_cannot_stop_short(self):
        result = roll_sprint(BOB, TypedDice([6, 6, 1]))
        assert result.sprint_inches == 13 and result.must_run_full
        assert "can't stop" in result.describe()

    def test_a_natural_one_alone_is_just_one_inch(self):
        result = roll_sprint(BOB, TypedDice([1]))
        assert result.distance == 1 and not result.must_run_full

    def test_half_speed(self):
        assert roll_sprint(BOB, TypedDice([3]), half_speed=True).distance == Fraction(3, 2)

    def test_benny_adds_a_d6_of_inches(self):
        result = apply_sprint_benny(
            roll_sprint(HERO, TypedDice([8])), BennyUse.STAT, TypedDice([6, 1])
        )
        assert result.sprint_inches == 15 and result.must_run_full

    def test_benny_cannot_buy_damage(self):
        with pytest.raises(UserError, match="no Damage"):
            apply_sprint_benny(roll_sprint(HERO, TypedDice([8])), BennyUse.DAMAGE, TypedDice([3]))

    def test_incompetent_d4_never_goes_over_the_top(self):
        zombie = Attacker("zombie", 4)
        result = roll_sprint(zombie, TypedDice([4, 2]))
        assert result.sprint_inches == 6 and not result.over_the_top

    def test_a_one_die_sprint_reads_as_its_inches(self):
        """A single die needs no sum ("Bob Sprints: 4\" more Move", not "4 = 4\""); a bonus
        chain shows its dice."""
        assert roll_sprint(BOB, TypedDice([4])).describe().startswith('Bob Sprints: 4" more')
        assert (
            roll_sprint(BOB, TypedDice([6, 2])).describe().startswith('Bob Sprints: 6+2 = 8" more')
        )

    @given(st.lists(st.integers(1, 6), min_size=1, max_size=8))
    def test_sprint_inches_are_the_sum_of_the_dice_rolled(self, faces):
        dice = TypedDice(faces + [1] * 10)
        result = roll_sprint(BOB, dice)
        assert result.sprint_inches == sum(d.face for d in result.dice) >= 1
        assert result.distance == result.sprint_inches


# ---- Collision, KnockBack, Shove, Grab -------------------------------------------------------


class TestCollision:
    def test_knockback_left_sends_the_target_flying(self):
        result = collide("knight", "orc", TypedDice([5, 2]))
        assert result.remaining == 3 and not result.resisted
        assert result.knockback.inches == 3 and result.knockback.disrupted
        assert [d.role for d in (*result.mom_dice, *result.pop_dice)] == [Role.MOM, Role.POP]

    @pytest.mark.parametrize("mom, pop", [(3, 3), (2, 5)])
    def test_resisted_collision_locks_both_in_close_combat(self, mom, pop):
        result = collide("knight", "orc", TypedDice([mom, pop]))
        assert result.resisted and result.knockback is None
        assert "locked in Close Combat" in result.describe()

    def test_obstacle_turns_knockback_into_smash_damage(self):
        result = collide("knight", "orc", TypedDice([6, 3, 1]), blocked_after=Fraction(1, 2))
        kb = result.knockback
        assert kb.inches == 8 and kb.flown == Fraction(1, 2) and kb.smash == 8
        smash = kb.smash_damage("knight")
        assert apply_damage(smash, Target("orc"), TypedDice([])).destroyed

    def test_combined_charges_add_their_moms_against_one_pop(self):
        result = collide("knights", "troll", TypedDice([2, 3, 4]), moms=2)
        assert (result.mom_total, result.pop_total, result.remaining) == (5, 4, 1)

    def test_knockback_without_obstacle_has_no_smash(self):
        kb = knockback("Bob", 2, reason="test", rule="test", blocked_after=5)
        assert kb.smash == 0 and kb.smash_damage() is None

    @given(st.integers(0, 20), st.fractions(min_value=0, max_value=30))
    def test_smash_never_exceeds_the_knockback(self, inches, blocked):
        kb = knockback("Bob", inches, reason="t", rule="t", blocked_after=blocked)
        assert 0 <= kb.smash <= inches
        assert kb.flown + kb.prevented == inches


class TestShoveAndGrab:
    def test_shove_knocks_back_two_inches_and_disrupts(self):
        result = shove("Bob", "Al")
        assert result.knockback.inches == 2 and result.knockback.disrupted

    def test_parried_shove_is_cancelled(self):
        parry = roll_parry(Attacker("Al"), BARE_HANDS_PARRY, Incoming.SHOVE, TypedDice([3]))
        assert shove("Bob", "Al", parry=parry).knockback is None

    def test_failed_parry_does_not_stop_the_shove(self):
        parry = roll_parry(Attacker("Al"), SWORD, Incoming.SHOVE, TypedDice([1]), attacker_roll=0)
        assert shove("Bob", "Al", parry=parry).knockback.inches == 2

    def test_bailing_dodges_the_shove(self):
        assert shove("Bob", "Al", bailed=True).avoided == "dodged by Bailing"

    def test_grab(self):
        assert grab("Bob", "Al").held
        parry = roll_parry(Attacker("Al"), SWORD, Incoming.GRAB, TypedDice([5]))
        assert not grab("Bob", "Al", parry=parry).held
        with pytest.raises(UserError, match="not a Grab"):
            grab(
                "Bob", "Al", parry=roll_parry(Attacker("Al"), SWORD, Incoming.SHOVE, TypedDice([5]))
            )


def test_readings_are_shown_text():
    assert {"4.1 Sprinting", "4.3 Bailing", "5.2 Parrying", "5.4 Collisions"} <= set(READINGS)
