"""The roll-off for the turn order: highest first, ties roll again among themselves."""

from __future__ import annotations

import pytest

from brikdesk.domain.battle.rolloff import READING, roll_off
from brikdesk.domain.rolling import NeedDie, RandomDice, TypedDice
from brikdesk.errors import UserError

PLAYERS = [(1, "Red"), (2, "Blue"), (3, "Green"), (4, "Ines")]


def test_highest_goes_first_and_ties_roll_again_among_themselves() -> None:
    dice = TypedDice([5, 5, 2, 2, 3, 6, 4, 1])
    result = roll_off(PLAYERS, dice)
    assert result.order == (2, 1, 3, 4)
    assert result.lines() == (
        "Roll: Red 5, Blue 5, Green 2, Ines 2",
        "Tie-break: Red 3, Blue 6",
        "Tie-break: Green 4, Ines 1",
        "Order: Blue, Red, Green, Ines",
    )
    assert [why for _sides, why in dice.asked][:2] == ["Red's roll-off", "Blue's roll-off"]
    assert dice.asked[4] == (6, "Red's roll-off (tie-break)")
    assert result.rounds == 2 and len(result.dice) == 8


def test_a_tie_can_need_several_rounds() -> None:
    result = roll_off(PLAYERS[:2], TypedDice([3, 3, 6, 6, 1, 2]))
    assert result.order == (2, 1)
    assert [d.round for d in result.dice] == [1, 1, 2, 2, 3, 3]


def test_no_tie_needs_one_die_each() -> None:
    dice = TypedDice([1, 6, 4])
    assert roll_off(PLAYERS[:3], dice).order == (2, 3, 1)
    with pytest.raises(NeedDie):
        dice.roll(6, "nothing more was asked")


def test_random_roll_offs_order_every_player_once() -> None:
    for seed in range(50):
        result = roll_off(PLAYERS, RandomDice(seed))
        assert sorted(result.order) == [1, 2, 3, 4]
        first = [d for d in result.dice if d.round == 1]
        best = max(d.face for d in first)
        assert result.order[0] in {d.player_id for d in first if d.face == best}


def test_refusals() -> None:
    with pytest.raises(UserError, match="listed twice"):
        roll_off([(1, "Red"), (1, "Red")], RandomDice(1))

    class Stuck:
        def roll(self, sides: int, why: str) -> int:
            return 3

    with pytest.raises(UserError, match="still tied"):
        roll_off(PLAYERS[:2], Stuck())
    assert "highest goes first" in READING
