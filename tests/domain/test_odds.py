"""Exact attack odds: every rule of 1.2 Numbers, 4.2 and the modifiers of 5.1 checked with hand-computed fractions,
properties with hypothesis, and a cross-check against brute-force enumeration of the rolling code
in brikdesk/domain/rolling.py (typed dice, every face sequence up to a number of dice)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brikdesk.domain.dice import parse
from brikdesk.domain.distributions import (
    dice_sum,
    die_distribution,
    sum_distribution,
    tail_cap,
)
from brikdesk.domain.odds import (
    BENNY_POLICY,
    READINGS,
    attack_odds,
    clear_odds_cache,
    expr_distribution,
)
from brikdesk.domain.rolling import NeedDie, TypedDice, roll_action, roll_benny, roll_expr
from brikdesk.errors import UserError

SIXTH = F(1, 6)


def auto(damage: str, armor: int | str, **kw: object):
    """Damage against Armor on a hit, no Action Roll (so no Benny)."""
    return attack_odds(6, 3, damage, armor, automatic_hit=True, **kw)


# --- the Action Roll -------------------------------------------------------------------------


def test_d6_against_use_3():
    odds = attack_odds(6, 3, "1d6+1", 4)
    assert odds.critical_failure == SIXTH
    assert odds.over_the_top == SIXTH
    assert odds.hit == F(4, 6)  # naturals 3, 4, 5, 6
    assert odds.benny_damage == SIXTH  # the natural 6 already hits: Benny goes to Damage
    assert odds.benny_rescue == 0


def test_natural_1_fails_whatever_the_modifiers():
    odds = attack_odds(6, 3, "1d6", 4, action_mod=10)
    assert odds.critical_failure == SIXTH
    assert odds.hit == F(5, 6)


@pytest.mark.parametrize(
    ("sides", "ott"), [(4, F(0)), (6, F(1, 6)), (8, F(3, 8)), (10, F(1, 2)), (12, F(7, 12))]
)
def test_over_the_top_on_a_natural_6_or_more_whether_or_not_it_hits(sides, ott):
    odds = attack_odds(sides, 50, "1d6", 4)  # nothing can hit Use 50 without a long chain
    assert odds.over_the_top == ott
    assert odds.critical_failure == F(1, sides)


def test_cannon_fodder_never_goes_over_the_top():
    odds = attack_odds(6, 3, "1d6+1", 4, can_go_over_the_top=False)
    assert odds.over_the_top == 0
    assert odds.hit == F(4, 6)
    assert odds.kill == F(4, 6) * F(1, 2)  # no Benny: d6+1 > 4 needs a 4, 5 or 6


def test_d4_natural_4_adds_a_chaining_bonus_d4():
    # Use 5: only a natural 4 (4 + at least 1) gets there.
    assert attack_odds(4, 5, "1d6", 4).hit == F(1, 4)
    # Use 9: natural 4, bonus 4, then anything: 1/16.
    assert attack_odds(4, 9, "1d6", 4).hit == F(1, 16)
    # Use 10: natural 4, bonus 4, then 2, 3 or 4 (which chains on): 1/16 * 3/4.
    assert attack_odds(4, 10, "1d6", 4).hit == F(3, 64)
    d4 = attack_odds(4, 5, "1d6", 4)
    assert d4.over_the_top == 0 and d4.critical_failure == F(1, 4)
    totals = dict(d4.action_totals)
    assert totals[1] == totals[2] == totals[3] == F(1, 4)
    assert 4 not in totals  # a natural 4 always adds a bonus d4
    assert totals[5] == F(1, 16) and totals[9] == F(1, 64)


def test_d4_natural_1_still_fails_with_a_big_modifier():
    assert attack_odds(4, 3, "1d6", 4, action_mod=5).hit == F(3, 4)


def test_trivial_use_and_automatic_hits_roll_nothing():
    for odds in (attack_odds(6, None, "1d6+1", 4), auto("1d6+1", 4)):
        assert (odds.critical_failure, odds.over_the_top, odds.hit) == (0, 0, 1)
        assert odds.kill == F(1, 2)
        assert odds.action_totals == ()


def test_action_totals_of_a_d6_include_the_modifier():
    odds = attack_odds(6, 3, "1d6", 4, action_mod=-2)
    assert odds.action_totals == tuple((n - 2, SIXTH) for n in range(1, 7))


# --- Damage and its bonus dice ---------------------------------------------------------------


def test_damage_bonus_chain_of_one_d6():
    odds = auto("1d6", 0)
    for t in range(1, 6):
        assert odds.damage_exactly(t) == SIXTH
    assert odds.damage_exactly(6) == 0  # a 6 always brings a bonus d6
    assert odds.damage_exactly(7) == odds.damage_exactly(11) == F(1, 36)
    assert odds.damage_exactly(12) == 0
    assert odds.damage_exactly(13) == F(1, 216)
    assert odds.damage_at_least(7) == SIXTH
    assert odds.damage_at_least(13) == F(1, 36)


def test_kill_given_hit_rifle_against_a_minifig():
    # 1d6+1 > 4 needs the d6 to show 4 or more: 1/2 exactly, bonus chain and all.
    assert auto("1d6+1", 4).kill == F(1, 2)
    assert auto("1d6+1", 4).kill_given_hit == F(1, 2)


def test_benny_adds_a_damage_die_when_the_roll_already_hits():
    # d6 vs Use 3: naturals 3-5 hit plainly (kill 1/2); a natural 6 hits and the Benny makes it
    # 2d6+1 > 4, i.e. 2d6 >= 4: only 1+1, 1+2, 2+1 fall short (a 6 with its bonus is >= 7).
    odds = attack_odds(6, 3, "1d6+1", 4)
    assert odds.kill == F(3, 6) * F(1, 2) + SIXTH * (1 - F(3, 36))
    assert odds.kill == F(29, 72)
    assert odds.kill_given_hit == F(29, 72) / F(4, 6)


def test_benny_is_one_more_of_the_largest_damage_die():
    # A Hero (d10) with 1dA+1d6 against Use 2: naturals 2-5 hit plainly, 6-10 hit with a Benny.
    odds = attack_odds(10, 2, "1dA+1d6", 8)
    plain = auto("1d10+1d6", 8).kill
    with_d10 = auto("2d10+1d6", 8).kill
    with_d6 = auto("1d10+2d6", 8).kill
    assert with_d10 != with_d6
    assert odds.kill == F(4, 10) * plain + F(5, 10) * with_d10


def test_benny_is_a_d6_for_a_weapon_without_dice():
    # Damage 3 against Armor 3 never destroys, unless the Benny adds 1d6 (natural 6 of 1/6).
    odds = attack_odds(6, 2, "3", 3)
    assert odds.hit == F(5, 6)
    assert odds.kill == SIXTH


def test_benny_rescues_a_roll_that_would_miss():
    # Use 8 on a d6: only a natural 6 (Over the Top) can hit, with the Benny's +1d6 >= 2.
    odds = attack_odds(6, 8, "1d6", 3)
    assert odds.benny_rescue == SIXTH * F(5, 6)
    assert odds.hit == F(5, 36)
    assert odds.benny_damage == 0
    assert odds.kill == F(5, 36) * F(1, 2)  # the Benny is spent: plain 1d6 > 3
    # Use 13: 6 + a Benny d6 showing 6 (7 or more with its bonus die).
    assert attack_odds(6, 13, "1d6", 3).hit == F(1, 36)
    # Use 14: the Benny's 6 and its bonus d6 showing at least 2.
    assert attack_odds(6, 14, "1d6", 3).hit == F(1, 36) * F(5, 6)


def test_hero_benny_rescue_with_a_penalty():
    # d10 at -3 vs Use 8: a natural n >= 6 needs the Benny d6 to show 11 - n or more.
    odds = attack_odds(10, 8, "1d6", 0, action_mod=-3)
    assert odds.hit == F(1, 10) * F(6 + 5 + 4 + 3 + 2, 6)
    assert odds.over_the_top == F(1, 2)


def test_hero_armor_is_2d6_with_bonus_dice():
    # Damage 8 beats 2d6 Armor of 7 or less: 19 of the 36 faces without a 6 (a 6 and its bonus
    # die already make 7, and the other die adds at least 1).
    assert auto("8", "2d6").kill == F(19, 36)
    # Damage 7 beats 6 or less: 15 of 36.
    assert auto("7", "2d6").kill == F(15, 36)


def test_deflection_removes_one_die_of_each_kind():
    assert auto("2d6", 3, deflection=1).kill == auto("1d6", 3).kill == F(1, 2)
    stripped = auto("2d6+1", 0, deflection=2)
    assert stripped.damage == ((1, F(1)),)
    assert auto("1d10 Exp", 0, deflection=1).kill == 0


def test_deflection_also_removes_the_bennys_die():
    # Reading: the Benny's die joins the Damage roll before Deflection. d6 vs Use 2 with 1d6
    # against Armor 5 and Deflection 1: without a Benny nothing is left; with one, 2d6 - 1 die.
    odds = attack_odds(6, 2, "1d6", 5, deflection=1)
    assert odds.kill == SIXTH * SIXTH
    # Two levels take both the weapon's d6 and the Benny's: nothing gets through.
    assert attack_odds(6, 2, "1d6", 0, deflection=2).kill == 0
    # A Hero's 2dA against two levels: only a Benny's third d10 gets through (naturals 6-10).
    assert (
        attack_odds(10, 2, "2dA", "2d6", deflection=2).kill == F(5, 10) * auto("1d10", "2d6").kill
    )
    assert "Deflection" in READINGS["benny_and_deflection"]


def test_damage_is_floored_at_zero():
    odds = auto("1d6", 0, damage_mod=-3)
    assert odds.damage_exactly(0) == F(1, 2)  # faces 1-3
    assert min(t for t, _ in odds.damage) == 0
    assert odds.kill == F(1, 2)  # Damage > 0 needs a 4 or more
    assert auto("1d6", -1, damage_mod=-10).kill == 1  # 0 still beats Armor -1


def test_damage_modifier_shifts_the_totals():
    assert auto("1d6", 4, damage_mod=1).kill == auto("1d6+1", 4).kill == F(1, 2)


def test_distributions_sum_exactly_to_one():
    odds = attack_odds(10, 3, "2dA", "2d6")
    assert sum(p for _, p in odds.damage) == 1
    assert sum(p for _, p in odds.action_totals) == 1
    assert 0 < odds.error_bound < 1e-12


def test_floats_and_policy_for_display():
    odds = attack_odds(6, 3, "1d6+1", 4)
    assert odds.to_floats() == {
        "critical_failure": 1 / 6,
        "over_the_top": 1 / 6,
        "hit": 2 / 3,
        "kill": 29 / 72,
    }
    assert dict(odds.damage_floats())[2] == pytest.approx(1 / 6)
    assert BENNY_POLICY.startswith("If the natural roll with modifiers already hits")


def test_answers_are_cached_and_the_cache_can_be_cleared():
    first = attack_odds(10, 3, "2dA", "2d6")
    assert attack_odds(10, 3, "2dA", "2d6") is first
    clear_odds_cache()
    again = attack_odds(10, 3, "2dA", "2d6")
    assert again is not first and again == first


def test_dice_expressions_and_strings_give_the_same_odds():
    assert attack_odds(6, 3, parse("1d6+1"), parse("2d6")) == attack_odds(6, 3, "1d6+1", "2d6")
    assert attack_odds(6, 3, "1d6", "4") == attack_odds(6, 3, "1d6", 4)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"action_die": 7}, "action"),
        ({"damage": "2d"}, "damage"),
        ({"armor": "2dA"}, "armor"),
        ({"armor": "x"}, "armor"),
        ({"deflection": -1}, "deflection"),
        ({"damage": "30d10", "armor": "2d6"}, "damage"),
        ({"damage": "1d6", "armor": "21d6"}, "armor"),
    ],
)
def test_bad_input_is_a_user_error_naming_the_field(kwargs, field):
    args = {"action_die": 6, "use": 3, "damage": "1d6", "armor": 4} | kwargs
    with pytest.raises(UserError) as exc:
        attack_odds(
            args.pop("action_die"), args.pop("use"), args.pop("damage"), args.pop("armor"), **args
        )
    assert exc.value.field == field


# --- distributions ---------------------------------------------------------------------------


def test_die_distribution_lumps_the_cut_chain():
    d6 = die_distribution(6, 1)  # one bonus die, whose 6 is read as a plain 6
    assert d6.items() == tuple((t, SIXTH) for t in range(1, 6)) + tuple(
        (t, F(1, 36)) for t in range(7, 13)
    )
    assert d6.at_least(7) == SIXTH


def test_capped_sum_is_exact_below_the_cap():
    capped = dice_sum((6, 6), 16, 9)
    full = dice_sum((6, 6), 16, 300)
    for t in range(2, 9):
        assert capped.probability(t) == full.probability(t)
    assert capped.probability(9) == full.at_least(9)
    assert capped.hi == 9


def test_tail_cap_leaves_less_than_1e12():
    for dice in [(6,), (10,), (6, 6), (10, 10, 10)]:
        cap = tail_cap(dice)
        deep = dice_sum(dice, 40, cap + 200)
        assert 0 < deep.at_least(cap) <= F(1, 10**12)


def test_expr_distribution_resolves_da():
    assert expr_distribution("1dA+2", 10) == sum_distribution((10,), 2)
    with pytest.raises(UserError):
        expr_distribution("1dA")


# --- properties ------------------------------------------------------------------------------

DAMAGE = st.sampled_from(
    ["1d6", "1d6+1", "2d6", "1dA", "1dA-2", "2dA", "1d10 Exp", "1dA+2", "3", "1d4+1d8"]
)
ARMOR = st.one_of(st.integers(-1, 14), st.sampled_from(["2d6", "1d6+2", "1d4"]))
ACTION = st.sampled_from([4, 6, 8, 10, 12])


@settings(max_examples=60, deadline=None)
@given(
    ACTION,
    st.one_of(st.none(), st.integers(-2, 16)),
    DAMAGE,
    ARMOR,
    st.integers(-4, 4),
    st.integers(-4, 4),
    st.integers(0, 2),
    st.booleans(),
)
def test_probabilities_are_consistent(action, use, damage, armor, mod, dmg_mod, deflection, ott):
    odds = attack_odds(
        action,
        use,
        damage,
        armor,
        action_mod=mod,
        damage_mod=dmg_mod,
        deflection=deflection,
        can_go_over_the_top=ott,
    )
    assert sum(p for _, p in odds.damage) == 1
    assert all(t >= 0 and p > 0 for t, p in odds.damage)
    if odds.action_totals:
        assert sum(p for _, p in odds.action_totals) == 1
    assert 0 <= odds.kill <= odds.hit <= 1 - odds.critical_failure
    assert odds.benny_damage + odds.benny_rescue <= odds.over_the_top


@settings(max_examples=60, deadline=None)
@given(ACTION, st.integers(-2, 20), DAMAGE, st.integers(-3, 3), st.booleans())
def test_hit_never_rises_with_use(action, use, damage, mod, ott):
    easier = attack_odds(action, use, damage, 4, action_mod=mod, can_go_over_the_top=ott)
    harder = attack_odds(action, use + 1, damage, 4, action_mod=mod, can_go_over_the_top=ott)
    assert harder.hit <= easier.hit


@settings(max_examples=60, deadline=None)
@given(ACTION, st.integers(-1, 10), DAMAGE, st.integers(-1, 20), st.integers(-3, 3))
def test_kill_never_rises_with_armor(action, use, damage, armor, dmg_mod):
    weaker = attack_odds(action, use, damage, armor, damage_mod=dmg_mod)
    stronger = attack_odds(action, use, damage, armor + 1, damage_mod=dmg_mod)
    assert stronger.kill <= weaker.kill


# --- brute force: every face sequence through the rolling code --------------------------------

Outcome = object


def enumerate_rolls(
    play: Callable[[TypedDice], Outcome], max_dice: int
) -> tuple[dict[Outcome, F], F]:
    """Run ``play`` on every sequence of typed faces it asks for, up to ``max_dice`` dice.

    Returns the exact probability of each outcome over the sequences that finished, and the
    probability of those cut off at ``max_dice`` dice.
    """
    outcomes: dict[Outcome, F] = defaultdict(F)
    unfinished = F(0)
    stack: list[tuple[tuple[int, ...], F]] = [((), F(1))]
    while stack:
        faces, p = stack.pop()
        try:
            outcomes[play(TypedDice(faces))] += p
        except NeedDie as need:
            if len(faces) >= max_dice:
                unfinished += p
                continue
            for face in range(1, need.sides + 1):
                stack.append(((*faces, face), p / need.sides))
    return outcomes, unfinished


def play_attack(action: int, use: int, damage: str, armor: int | str, mod: int):
    """One attack by the rolling code, with the Benny spent as BENNY_POLICY says."""
    weapon = parse(damage).resolve(action)

    def play(dice: TypedDice) -> tuple[bool, bool]:
        roll = roll_action(action, use, dice)
        natural_hits = not roll.critical_failure and roll.total + mod >= use
        expr = weapon
        if roll.over_the_top and natural_hits:
            expr = weapon.plus_dice(1, weapon.largest_die() or 6)
        elif roll.over_the_top:
            bonus = sum(d.face for d in roll_benny(dice))
            natural_hits = roll.total + bonus + mod >= use
        if not natural_hits:
            return False, False
        dealt = max(roll_expr(expr, dice, action).total, 0)
        target = armor if isinstance(armor, int) else roll_expr(parse(armor), dice).total
        return True, dealt > target

    return play


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from([4, 6]),
    st.integers(0, 9),
    st.sampled_from(["1d4", "1d6", "1dA+1", "3"]),
    st.one_of(st.integers(0, 8), st.just("1d6")),
    st.integers(-2, 2),
)
def test_attack_matches_brute_force_enumeration(action, use, damage, armor, mod):
    max_dice = 5
    outcomes, unfinished = enumerate_rolls(play_attack(action, use, damage, armor, mod), max_dice)
    odds = attack_odds(action, use, damage, armor, action_mod=mod)
    hit = sum(p for (h, _), p in outcomes.items() if h)
    kill = sum(p for (_, k), p in outcomes.items() if k)
    slack = unfinished + F(odds.error_bound)
    assert hit <= odds.hit <= hit + slack
    assert kill <= odds.kill + F(odds.error_bound)
    assert odds.kill <= kill + slack


@pytest.mark.parametrize(("damage", "action"), [("1d6", 6), ("2d4", 6), ("1dA+1d4-2", 8)])
def test_damage_distribution_matches_brute_force(damage, action):
    expr = parse(damage)
    outcomes, unfinished = enumerate_rolls(
        lambda dice: max(roll_expr(expr, dice, action).total, 0), 7
    )
    odds = attack_odds(action, 3, damage, 0, automatic_hit=True)
    assert unfinished < F(1, 1000)
    for total, p in outcomes.items():
        assert p <= odds.damage_exactly(total) <= p + unfinished
