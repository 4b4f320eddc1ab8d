"""The campaign history from plain records: timeline, standings, series, leaders."""

from __future__ import annotations

from brikdesk.domain.aftermath import BattleResult, UnitFate, suggest_winner
from brikdesk.domain.history import (
    BattleRecord,
    PoolUnit,
    RecordUnit,
    build_history,
    history_to_json,
    history_to_text,
)
from tests.domain.history_players import ANN, ARMIES, BO, PLAYERS, t


def record(
    bid: int, fates: list[UnitFate], winner: int | None, units: list[RecordUnit]
) -> BattleRecord:
    return BattleRecord(
        bid,
        f"Battle {bid}",
        t(bid),
        ((ANN, "Ann"), (BO, "Bo")),
        tuple(units),
        BattleResult(tuple(fates), winner),
    )


def test_two_battles_make_the_timeline_standings_series_and_leaders() -> None:
    pool = [
        PoolUnit(1, "Hoot", 10, "alive", 10),
        PoolUnit(2, "Talon", 10, "dead", 5),
        PoolUnit(3, "Fang", 20, "alive", 8),
        PoolUnit(4, "Wing", 20, "alive", 4),
    ]
    b1_units = [
        RecordUnit(101, "Hoot", ANN, 1),
        RecordUnit(102, "Talon", ANN, 2),
        RecordUnit(103, "Fang", BO, 3),
        RecordUnit(104, "Wing", BO, 4),
    ]
    # Battle 1: Fang kills Talon and Wing falls to Hoot; Ann wins.
    b1 = record(
        1,
        [UnitFate(101), UnitFate(102, "dead", 103), UnitFate(103), UnitFate(104, "dead", 101)],
        ANN,
        b1_units,
    )
    # Wing is brought back and fights battle 2, a draw in which Hoot kills nobody.
    b2_units = [RecordUnit(201, "Hoot", ANN, 1), RecordUnit(204, "Wing", BO, 4)]
    b2 = record(2, [UnitFate(201, "wounded"), UnitFate(204)], None, b2_units)
    h = build_history(7, "C", "CP", PLAYERS, ARMIES, pool, [b1, b2])

    first, second = h.timeline
    assert (first.winner, first.casualties) == ("Ann", (("Ann", 1), ("Bo", 1)))
    assert first.top is not None and first.top.kills == 1 and first.top.name == "Hoot"
    assert (second.winner_text, second.top) == ("draw", None)

    ann, bo = sorted(h.standings, key=lambda s: s.player_id)
    assert (ann.fought, ann.won, ann.drawn, ann.lost) == (2, 1, 1, 0)
    assert (bo.fought, bo.won, bo.drawn, bo.lost) == (2, 0, 1, 1)
    assert (ann.value, ann.budget, ann.alive, ann.casualties, ann.kills) == (10, 30, 1, 1, 1)
    assert (bo.value, bo.budget, bo.alive, bo.casualties, bo.kills) == (12, None, 2, 1, 1)
    assert h.standings[0].name == "Ann"

    owls, bats = h.series
    assert h.labels == ("Start", "Battle 1", "Battle 2")
    assert owls.alive == (2, 1, 1) and owls.value == (15, 10, 10)
    assert owls.casualties == (0, 1, 1) and owls.kills == (0, 1, 1)
    # Wing fell in battle 1 and counts again from battle 2, which it fought in.
    assert bats.alive == (2, 1, 2) and bats.value == (12, 8, 12)

    assert [(u.name, u.kills) for u in h.unit_leaders] == [("Fang", 1), ("Hoot", 1)]
    assert {p.name: p.kills for p in h.player_leaders} == {"Ann": 1, "Bo": 1}

    data = history_to_json(h)
    assert data["timeline"][0]["casualties"] == {"Ann": 1, "Bo": 1}
    assert data["series"]["armies"][1]["units_alive"] == [2, 1, 2]
    text = history_to_text(h)
    assert "Battle 2" in text and "draw" in text and "Fang (Bo): 1 kill in 1 battle" in text


def test_no_battles_yet() -> None:
    h = build_history(7, "C", "CP", PLAYERS, ARMIES, [PoolUnit(1, "Hoot", 10, "alive", 10)], [])
    assert h.timeline == () and h.series[0].alive == (1,)
    assert "No finished battles yet." in history_to_text(h)


def test_who_holds_the_field() -> None:
    players = [(1, "Ann"), (2, "Bo")]
    assert suggest_winner(players, {1: (2, 10)}).winner == 1
    assert suggest_winner(players, {}).winner is None
    most = suggest_winner(players, {1: (3, 9), 2: (1, 12)})
    assert most.winner == 2 and "Bo 1 unit standing (12 CP)" in most.reason
    tie = suggest_winner(players, {1: (3, 9), 2: (1, 9)})
    assert tie.winner is None and "draw" in tie.reason
