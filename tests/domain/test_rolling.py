"""Rolling by the 2020 rules (1.2 Numbers): bonus dice, the Action Roll, typed-in dice."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brikdesk.domain.dice import parse
from brikdesk.domain.modifiers import Modifier, Stat
from brikdesk.domain.rolling import (
    DieRoll,
    NeedDie,
    RandomDice,
    Role,
    TypedDice,
    roll_action,
    roll_benny,
    roll_expr,
)
from brikdesk.errors import UserError


def action_mod(value: int) -> Modifier:
    return Modifier(value, Stat.ACTION, "test modifier", "5.1 Test")


def faces(dice) -> list[int]:
    return [d.face for d in dice]


def roles(dice) -> list[Role]:
    return [d.role for d in dice]


# -- typed dice: exactly the dice the rules need ------------------------------------------------


def test_typed_dice_are_asked_for_exactly_the_dice_of_the_expression() -> None:
    typed = TypedDice([3, 4])
    result = roll_expr(parse("2d6+1"), typed)
    assert faces(result.dice) == [3, 4]
    assert result.total == 8
    assert result.describe() == "3+4+1 = 8"
    assert typed.asked == [(6, "the roll 2d6+1"), (6, "the roll 2d6+1")]
    typed.check_all_used()  # nothing left over


def test_dA_asks_for_the_wielders_action_die() -> None:
    typed = TypedDice([7])
    result = roll_expr(parse("1dA-2"), typed, action_sides=10)
    assert [(d.sides, d.face) for d in result.dice] == [(10, 7)]
    assert result.total == 5


def test_a_six_on_a_d6_asks_for_a_bonus_d6() -> None:
    with pytest.raises(NeedDie) as caught:
        roll_expr(parse("1d6"), TypedDice([6]))
    need = caught.value
    assert (need.sides, need.index) == (6, 1)
    assert str(need) == (
        "type the face of die 2: a d6 (bonus die for the 6 on the d6, the roll 1d6)"
    )


def test_a_six_on_the_bonus_d6_asks_for_another() -> None:
    with pytest.raises(NeedDie) as caught:
        roll_expr(parse("1d6"), TypedDice([6, 6]))
    assert (caught.value.sides, caught.value.index) == (6, 2)
    result = roll_expr(parse("1d6+1"), TypedDice([6, 6, 2]))
    assert faces(result.dice) == [6, 6, 2]
    assert roles(result.dice) == [Role.NATURAL, Role.BONUS, Role.BONUS]
    assert result.total == 15


def test_the_highest_face_of_any_die_earns_a_bonus_d6_not_another_of_that_die() -> None:
    with pytest.raises(NeedDie) as caught:
        roll_expr(parse("1d10"), TypedDice([10]))
    assert caught.value.sides == 6
    assert "bonus die for the 10 on the d10" in str(caught.value)
    result = roll_expr(parse("1d10 Exp"), TypedDice([10, 4]))
    assert [(d.sides, d.face, d.role) for d in result.dice] == [
        (10, 10, Role.NATURAL),
        (6, 4, Role.BONUS),
    ]
    assert result.total == 14


def test_bonus_dice_come_right_after_the_die_that_earned_them() -> None:
    typed = TypedDice([6, 1, 3])
    result = roll_expr(parse("2d6"), typed)
    assert roles(result.dice) == [Role.NATURAL, Role.BONUS, Role.NATURAL]
    assert [sides for sides, _why in typed.asked] == [6, 6, 6]
    assert result.total == 10


def test_need_die_names_the_next_die_of_the_expression() -> None:
    with pytest.raises(NeedDie) as caught:
        roll_expr(parse("1d10+1d6"), TypedDice([3]))
    assert str(caught.value) == "type the face of die 2: a d6 (the roll 1d10+1d6)"
    assert caught.value.field == "dice"


def test_each_die_says_what_it_is_for_and_not_its_size_again() -> None:
    with pytest.raises(NeedDie) as caught:
        roll_expr(parse("1d6+1"), TypedDice([6]), what="Damage of Robin's bow")
    assert str(caught.value) == (
        "type the face of die 2: a d6 (bonus die for the 6 on the d6, Damage of Robin's bow)"
    )
    with pytest.raises(NeedDie) as caught:
        roll_action(10, 3, TypedDice([]), what="Robin's bow at the rope")
    assert str(caught.value) == (
        "type the face of die 1: a d10 (Action die for Robin's bow at the rope)"
    )
    with pytest.raises(NeedDie) as caught:
        roll_benny(TypedDice([]), 6, "+1d6 Range")
    assert str(caught.value) == "type the face of die 1: a d6 (Benny die: +1d6 Range)"
    result = roll_expr(parse("2d6"), TypedDice([6, 2, 3]), what="Armor of the Hero")
    assert [d.why for d in result.dice] == [
        "Armor of the Hero",
        "bonus die for the 6 on the d6, Armor of the Hero",
        "Armor of the Hero",
    ]


def test_a_need_die_is_a_user_error_so_the_interface_can_ask() -> None:
    with pytest.raises(UserError):
        roll_expr(parse("1d6"), TypedDice([]))


@pytest.mark.parametrize(("face", "sides"), [(7, 6), (0, 6), (-1, 4), (11, 10)])
def test_impossible_faces_are_refused(face: int, sides: int) -> None:
    typed = TypedDice([face])
    with pytest.raises(UserError) as caught:
        roll_expr(parse(f"1d{sides}"), typed)
    assert not isinstance(caught.value, NeedDie)
    assert str(caught.value) == (
        f"die 1 is a d{sides} (the roll 1d{sides}): it cannot show {face}; type 1 to {sides}"
    )
    assert typed.used == 0


def test_an_impossible_face_is_refused_naming_what_the_die_is_for() -> None:
    with pytest.raises(UserError) as caught:
        roll_expr(parse("1d6+1"), TypedDice([7]), what="Damage of Robin's bow")
    assert str(caught.value) == (
        "die 1 is a d6 (Damage of Robin's bow): it cannot show 7; type 1 to 6"
    )
    with pytest.raises(UserError) as caught:
        roll_action(6, 3, TypedDice([0]), what="Wayne's pistol at Shaun")
    assert str(caught.value) == (
        "die 1 is a d6 (Action die for Wayne's pistol at Shaun): it cannot show 0; type 1 to 6"
    )


def test_an_impossible_bonus_die_is_refused_as_a_d6() -> None:
    with pytest.raises(UserError, match="die 2 is a d6 .*it cannot show 8; type 1 to 6"):
        roll_expr(parse("1d10"), TypedDice([10, 8]))


def test_extra_typed_faces_are_refused() -> None:
    typed = TypedDice([3, 4, 5])
    roll_expr(parse("2d6"), typed)
    with pytest.raises(UserError, match="3 faces typed but only 2 dice were needed"):
        typed.check_all_used()


def test_a_benny_die_earns_bonus_dice_too() -> None:
    dice = roll_benny(TypedDice([6, 2]))
    assert [(d.sides, d.face, d.role) for d in dice] == [(6, 6, Role.BENNY), (6, 2, Role.BONUS)]


# -- the Action Roll (4.2) ----------------------------------------------------------------------


def test_success_when_the_total_reaches_use() -> None:
    roll = roll_action(6, 3, TypedDice([3]))
    assert roll.success and roll.margin == 0
    assert roll.describe() == "3 = 3 vs Use 3: success"


def test_failure_below_use_with_its_margin() -> None:
    roll = roll_action(6, 4, TypedDice([2]), [action_mod(-1)])
    assert roll.total == 1
    assert not roll.success
    assert roll.margin == -3
    assert roll.describe() == "2-1 = 1 vs Use 4: failure"


def test_natural_1_is_a_critical_failure_even_with_plus_10() -> None:
    roll = roll_action(6, 3, TypedDice([1]), [action_mod(10)])
    assert roll.total == 11
    assert roll.critical_failure
    assert not roll.success
    assert roll.describe() == "1+10 = 11 vs Use 3: critical failure"


def test_use_0_fails_only_on_a_natural_1_or_penalties() -> None:
    assert roll_action(6, 0, TypedDice([2])).success
    assert not roll_action(6, 0, TypedDice([1])).success
    assert not roll_action(6, 0, TypedDice([2]), [action_mod(-3)]).success


def test_only_action_modifiers_count_towards_the_roll() -> None:
    damage = Modifier(5, Stat.DAMAGE, "not for the Action Roll", "5.1 Test")
    roll = roll_action(6, 5, TypedDice([3]), [damage, action_mod(1)])
    assert roll.total == 4
    assert not roll.success


@pytest.mark.parametrize(
    ("sides", "natural", "over"),
    [
        (6, 6, True),
        (6, 5, False),
        (8, 6, True),
        (8, 8, True),
        (8, 5, False),
        (10, 6, True),
        (10, 7, True),
        (10, 10, True),
        (10, 5, False),
        (12, 12, True),
        (12, 1, False),
    ],
)
def test_over_the_top_on_a_natural_6_or_more(sides: int, natural: int, over: bool) -> None:
    typed = TypedDice([natural])
    roll = roll_action(sides, 3, typed)
    assert roll.over_the_top is over
    assert typed.used == 1  # the Action die never earns bonus dice


def test_over_the_top_counts_the_natural_face_even_on_a_failed_roll() -> None:
    roll = roll_action(6, 3, TypedDice([6]), [action_mod(-4)])
    assert not roll.success
    assert roll.over_the_top


def test_modifiers_do_not_make_over_the_top() -> None:
    assert not roll_action(6, 3, TypedDice([5]), [action_mod(3)]).over_the_top


def test_a_d4_natural_4_asks_for_a_bonus_d4() -> None:
    with pytest.raises(NeedDie) as caught:
        roll_action(4, 3, TypedDice([4]))
    assert caught.value.sides == 4
    assert str(caught.value) == (
        "type the face of die 2: a d4 (bonus die for a natural 4 on "
        "the d4 Action die, an Action Roll)"
    )


def test_the_bonus_d4_chains_on_4_and_never_goes_over_the_top() -> None:
    roll = roll_action(4, 9, TypedDice([4, 4, 2]))
    assert [(d.sides, d.face) for d in roll.dice] == [(4, 4), (4, 4), (4, 2)]
    assert roles(roll.dice) == [Role.NATURAL, Role.BONUS, Role.BONUS]
    assert roll.total == 10
    assert roll.success
    assert not roll.over_the_top


@pytest.mark.parametrize("natural", [1, 2, 3, 4])
def test_a_d4_never_goes_over_the_top(natural: int) -> None:
    typed = TypedDice([natural, 3] if natural == 4 else [natural])
    assert not roll_action(4, 2, typed).over_the_top


def test_a_d4_natural_1_is_still_a_critical_failure() -> None:
    roll = roll_action(4, 0, TypedDice([1]), [action_mod(5)])
    assert roll.critical_failure and not roll.success


def test_a_trivial_action_rolls_nothing_and_succeeds() -> None:
    typed = TypedDice([])
    roll = roll_action(6, None, typed, [action_mod(-5)])
    assert roll.success
    assert not roll.rolled and not roll.critical_failure and not roll.over_the_top
    assert roll.margin == 0
    assert typed.used == 0
    assert roll.describe() == "no roll needed"


def test_a_benny_spent_on_the_roll_adds_its_dice() -> None:
    roll = roll_action(6, 5, TypedDice([3]))
    assert not roll.success
    boosted = roll.with_benny([DieRoll(6, 4, Role.BENNY)])
    assert boosted.total == 7
    assert boosted.success
    assert boosted.describe() == "3+4 = 7 vs Use 5: success"


# -- random dice --------------------------------------------------------------------------------


def test_random_dice_with_a_seed_repeat() -> None:
    a, b = RandomDice(1234), RandomDice(1234)
    first = [a.roll(s) for s in (4, 6, 8, 10, 12, 20, 100) * 10]
    assert first == [b.roll(s) for s in (4, 6, 8, 10, 12, 20, 100) * 10]
    other = RandomDice(4321)
    assert first != [other.roll(s) for s in (4, 6, 8, 10, 12, 20, 100) * 10]


def test_a_seeded_roll_of_an_expression_repeats() -> None:
    once = roll_expr(parse("3d6+1d10+2"), RandomDice(7))
    again = roll_expr(parse("3d6+1d10+2"), RandomDice(7))
    assert once == again


def test_random_dice_show_every_face_and_only_those() -> None:
    dice = RandomDice(99)
    seen = {dice.roll(6) for _ in range(600)}
    assert seen == {1, 2, 3, 4, 5, 6}


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    text=st.sampled_from(["1d6+1", "2dA", "1d10", "1dA-2", "1d6+1d10+2", "3d4", "1d10 Exp", "2d2"]),
    action=st.sampled_from([4, 6, 8, 10, 12]),
)
def test_random_rolls_follow_the_bonus_rule(seed: int, text: str, action: int) -> None:
    expr = parse(text)
    result = roll_expr(expr, RandomDice(seed), action)
    naturals = [d for d in result.dice if d.role is Role.NATURAL]
    assert len(naturals) == expr.dice_count
    for before, after in zip(result.dice, result.dice[1:] + (None,), strict=True):
        assert 1 <= before.face <= before.sides
        earned = before.face == before.sides
        assert (after is not None and after.role is Role.BONUS) is earned
        if earned:
            assert after.sides == 6
    assert result.total == sum(faces(result.dice)) + expr.flat
