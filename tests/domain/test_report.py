"""The battle report's content: the account round by round, the dice and modifiers as rolled,
the casualties per player and per round, and the Markdown a player posts on a forum."""

from __future__ import annotations

from typing import Any

import pytest

from brikdesk.domain.battle import (
    AttackResolved,
    Participant,
    Status,
    StatusChange,
    StatusCleared,
    StatusSet,
    TurnEnded,
    UnitKilled,
    Use,
)
from brikdesk.domain.report import (
    BattleFacts,
    ReportPlayer,
    ReportUnit,
    build_battle_report,
    md_escape,
    report_markdown,
)
from brikdesk.errors import UserError
from tests.domain.ford import (
    BLUE,
    FACTS,
    FORD,
    PLAYERS,
    RED,
    UNITS,
    die,
    ford,
    log,
)

# --------------------------------------------------------------------------- the account


def test_rounds_and_turns_follow_the_end_turn_events():
    r = ford()
    assert [(rnd.number, [(t.player, len(t.entries)) for t in rnd.turns]) for rnd in r.rounds] == [
        (1, [("Margo", 1), ("Tobias", 2)]),
        (2, [("Margo", 2), ("Tobias", 1)]),
    ]
    assert [t.title for t in r.rounds[0].turns] == ["Margo's turn", "Tobias's turn"]
    assert [e.seq for e in r.entries] == [1, 3, 4, 6, 7, 9]  # End Turn events are the turns
    assert r.finished and r.result == "Tobias falls back across the ford."


def test_an_attack_says_who_attacked_whom_with_what_the_dice_and_the_result():
    kate = ford().entries[0]
    assert kate.headline == (
        "Crossbow Kate (Margo) attacks Cactus Pete (Tobias) with a Long-Ranged Weapon"
    )
    # 5 - 1 = 4 hits Use 3; 3 on the d6, +1 (the rifle's 1d6+1), -1 Out of Range = 3
    assert kate.rolls == (
        "Action Roll: d6 5, -1 = 4 against Use 3: hit",
        "Damage: d6 3, +1, -1 = 3 against Armor 0",
    )
    assert kate.modifiers == (
        "-1 Action Roll: 1 inch beyond Range (5.1 Out of Range)",
        "-1 Damage: 1 inch beyond Range (5.1 Out of Range)",
    )
    assert kate.result == "Cactus Pete (Tobias) is killed."
    assert kate.deaths == (5,)
    assert kate.note == "Kate drops the cactus man from 11 inches"


def test_bonus_benny_and_armour_dice_are_told_and_a_tie_does_not_kill():
    dusty = ford().entries[2]
    assert dusty.rolls == (
        "Action Roll: d10 7 against Use 3: hit (Over the Top: a Benny)",
        "Damage: d6 6 + bonus d6 2 + Benny d6 3 = 11 against Armor 11",
        "Armor roll: d6 5 + d6 4, +2 = 11",
    )  # 2d6 Hero + 2 Body Armor
    assert dusty.result == "11 Damage does not beat Armor 11: no effect."
    assert dusty.deaths == ()


def test_misses_critical_failures_and_close_combat():
    entries = ford().entries
    assert entries[1].rolls == ("Action Roll: d6 3, -1 = 2 against Use 3: missed by 1",)
    assert entries[1].result == ""
    assert entries[3].headline == (
        "Sir Reginald (Margo) strikes Rusty (Tobias) in Close Combat with a Heavy Weapon"
    )
    assert entries[3].rolls[1] == "Damage: d10 8, +2 = 10 against Armor 4"
    assert entries[4].headline.endswith("with an Explosive")
    assert entries[4].rolls == ("Action Roll: d6 1 against Use 1: a natural 1, critical failure",)
    assert entries[5].kind == "finish" and entries[5].result == r_note()


def r_note() -> str:
    return "Tobias falls back across the ford."


def test_combined_attacks_and_effects_use_the_battle_engines_words():
    shove = AttackResolved(
        1,
        4,
        (Participant(1), Participant(2)),
        True,
        "shove",
        (StatusChange(4, Status.DISRUPTED),),
        (),
        {"weapon": "Bare Hands"},
    )
    r = build_battle_report(FACTS, PLAYERS, UNITS, log(shove))
    e = r.entries[0]
    assert e.headline == (
        "Sir Reginald (Margo) and Crossbow Kate (Margo) Shove "
        "Marshal Dusty (Tobias) together in Close Combat with Bare Hands"
    )
    assert e.result == "Marshal Dusty (Tobias) is Disrupted."
    assert e.rolls == ()


def test_events_the_tracker_refuses_are_not_counted():
    """An imported log may hold events the battle rules refuse: the report tells them as the
    tracker marks them ("Not counted") and counts nothing from them."""
    own_turn_response = AttackResolved(
        1,
        4,
        (Participant(1), Participant(2, Use.RESPONSE)),
        True,
        "shove",
        (StatusChange(4, Status.DISRUPTED),),
        (),
        {"weapon": "Bare Hands"},
    )
    himself = AttackResolved(2, 2, (Participant(2),), False, "attack", (), (2,), {})
    again = UnitKilled(5, actor=2)  # Kate, Ready, kills Cactus Pete: counted
    r = build_battle_report(FACTS, PLAYERS, UNITS, log(own_turn_response, himself, again))
    first, second, third = r.entries
    assert first.result == (
        "Not counted: It is Margo's turn: Crossbow Kate acts normally, not "
        "in response. (4.3 Enemy Response)"
    )
    assert second.result.startswith("Not counted: ") and second.deaths == ()
    assert third.deaths == (5,)
    margo, tobias = r.casualties
    assert (margo.lost, margo.kills, margo.fallen) == (0, 1, ())
    assert (tobias.lost, tobias.fallen) == (1, ("Cactus Pete",))
    assert r.tally.attacks == 0 and r.tally.kills == 0


def test_a_planned_battle_counts_nothing_from_its_log():
    planned = BattleFacts("Raid", "Winter War", "planned")
    r = build_battle_report(
        planned,
        PLAYERS,
        UNITS,
        log(
            AttackResolved(1, 5, (Participant(1),), False, "attack", (), (5,), {}),
            TurnEnded(RED, 1),
        ),
    )
    assert [e.result for e in r.entries] == ["Not counted: the battle has not started"] * 2
    assert r.tally.attacks == 0 and all(row.lost == 0 for row in r.casualties)


def test_other_engine_events_are_told_with_describe():
    events = log(
        StatusSet(3, Status.HALF_SPEED),
        TurnEnded(RED, 1),
        UnitKilled(3, actor=4, cause="thrown off the bridge"),
    )
    r = build_battle_report(FACTS, PLAYERS, UNITS, events)
    assert [e.headline for e in r.entries] == [
        "Pikeman Hobb (Margo) moves at Half Speed",
        "Pikeman Hobb (Margo) is killed by Marshal Dusty (Tobias) (thrown off the bridge)",
    ]
    assert r.entries[1].deaths == (3,)
    assert r.entries[1].round == 1 and r.entries[1].player_id == BLUE


def test_an_unfinished_battle_marks_the_turn_it_is_in():
    r = build_battle_report(BattleFacts("Raid", status="in_progress"), PLAYERS, UNITS, FORD[:5])
    assert not r.finished and r.result == ""
    assert [t.title for rnd in r.rounds for t in rnd.turns] == [
        "Margo's turn",
        "Tobias's turn",
        "Margo's turn (in progress)",
    ]
    assert r.rounds[-1].turns[-1].entries == ()


# --------------------------------------------------------------------------- casualties


def test_casualties_per_player_and_per_round():
    r = ford()
    rows = {c.player: (c.mustered, c.lost, c.standing, c.kills, c.fallen) for c in r.casualties}
    assert rows == {
        "Margo": (3, 0, 3, 2, ()),
        "Tobias": (3, 2, 1, 0, ("Cactus Pete", "Rusty")),
    }  # in the order they fell
    assert [(rc.round, rc.lost) for rc in r.per_round] == [(1, (0, 1)), (2, (0, 1))]
    assert r.total_lost == 2
    assert r.tally.text == "5 attacks: 3 hits, 2 kills; 1 Over the Top, 1 critical failure"


def test_dead_set_by_hand_counts_without_a_kill_and_clearing_it_takes_it_back():
    events = log(
        StatusSet(4, Status.DEAD),
        TurnEnded(RED, 1),
        StatusSet(5, Status.DEAD),
        StatusCleared(4, Status.DEAD),
        TurnEnded(BLUE, 1),
        UnitKilled(5, actor=1),
    )
    r = build_battle_report(FACTS, PLAYERS, UNITS, events)
    tobias = r.casualties[1]
    assert (tobias.lost, tobias.fallen) == (1, ("Cactus Pete",))
    assert r.casualties[0].kills == 0  # Cactus Pete was already dead when "killed" again
    assert [rc.lost for rc in r.per_round] == [(0, 1), (0, 0)]


def test_events_of_other_kinds_are_told_with_their_own_text_and_outcome():
    generic = (
        "attack",
        2,
        6,
        {
            "text": "Kate shoots Rusty",
            "outcome": {"killed": True},
            "dice": [die(6, 6, "Action die")],
        },
    )
    wound = ("attack", 1, 4, {"outcome": {"wounded": True}})
    r = build_battle_report(FACTS, PLAYERS, UNITS, log(generic, wound))
    a, b = r.entries
    assert (a.headline, a.result, a.deaths) == (
        "Kate shoots Rusty",
        "Rusty (Tobias) is killed.",
        (6,),
    )
    assert a.rolls == ("Action Roll: d6 6",)
    assert (b.headline, b.result) == ("Attack", "Marshal Dusty (Tobias) is wounded.")
    assert r.casualties[0].kills == 1


def test_a_report_needs_players():
    with pytest.raises(UserError, match="players"):
        build_battle_report(FACTS, (), UNITS, FORD)


# --------------------------------------------------------------------------- Markdown


def test_markdown_for_a_forum_post():
    md = report_markdown(ford())
    lines = md.splitlines()
    assert lines[0] == "# Skirmish at the Ford"
    assert "*Winter War* · BrikWars 2020 · finished 2026-05-01" in lines
    assert "**Margo (Crimson Brickguard) vs Tobias**" in lines
    assert "**Result:** Tobias falls back across the ford." in lines
    assert "| Margo | 3 | 0 | 3 | 2 | - |" in lines
    assert "| Tobias | 3 | 2 | 1 | 0 | Cactus Pete, Rusty |" in lines
    # the chart as a small text table: one row per round, a bar of the total
    start = lines.index("### Casualties per round")
    assert lines[start + 2 : start + 6] == [
        "| Round | Margo | Tobias | Total |",
        "|---:|---:|---:|---|",
        "| 1 | 0 | 1 | █ 1 |",
        "| 2 | 0 | 1 | █ 1 |",
    ]
    assert "### Round 2" in lines and lines.count("**Margo's turn**") == 2
    kate = lines.index(
        "1. **Crossbow Kate (Margo) attacks Cactus Pete (Tobias) with a Long-Ranged Weapon.**"
    )
    assert lines[kate + 1 : kate + 7] == [
        "   - Action Roll: d6 5, -1 = 4 against Use 3: hit",
        "   - Damage: d6 3, +1, -1 = 3 against Armor 0",
        "   - Modifier -1 Action Roll: 1 inch beyond Range (5.1 Out of Range)",
        "   - Modifier -1 Damage: 1 inch beyond Range (5.1 Out of Range)",
        "   - **Cactus Pete (Tobias) is killed.**",
        "   - *Kate drops the cactus man from 11 inches*",
    ]
    assert md.endswith("1. **The battle is over**: Tobias falls back across the ford.\n")


def test_markdown_escapes_names_that_look_like_markup():
    players = (ReportPlayer(RED, "*Star* | Bar"), ReportPlayer(BLUE, "_Under_"))
    units = (ReportUnit(1, RED, "[Link](x)"), ReportUnit(2, BLUE, "B"))
    r = build_battle_report(BattleFacts("Battle #1"), players, units, log(UnitKilled(2, actor=1)))
    md = report_markdown(r)
    assert md.startswith("# Battle \\#1\n")
    assert "| \\*Star\\* \\| Bar | 1 | 0 | 1 | 1 | - |" in md
    assert "\\[Link\\](x)" in md and "*Star*" not in md.replace("\\*Star\\*", "")
    assert md_escape("a  b\nc") == "a b c"


def test_a_long_battle_charts_every_round_and_caps_the_bars():
    units = tuple(ReportUnit(i, BLUE if i > 50 else RED, f"U{i}") for i in range(1, 101))
    events: list[Any] = []
    for rnd in range(1, 13):
        events += [UnitKilled(50 + rnd * 4 - k) for k in range(rnd % 5)]
        events += [TurnEnded(RED, rnd), TurnEnded(BLUE, rnd)]
    r = build_battle_report(FACTS, PLAYERS, units, log(*events))
    assert [rc.lost for rc in r.per_round][:5] == [(0, 1), (0, 2), (0, 3), (0, 4), (0, 0)]
    # finished after the 12th round: the empty turn that began after it is not told
    assert len(r.per_round) == 12 and r.rounds[-1].turns[-1].title == "Margo's turn"
    going = build_battle_report(
        BattleFacts("War", status="in_progress"), PLAYERS, units, log(*events)
    )
    assert len(going.per_round) == 13
    assert going.rounds[-1].turns[-1].title == "Margo's turn (in progress)"
    md = report_markdown(r)
    assert "| 4 | 0 | 4 | ████ 4 |" in md
    assert "| 5 | 0 | 0 | 0 |" in md


def test_a_battle_not_begun_has_no_rounds():
    r = build_battle_report(BattleFacts("Lighthouse", status="planned"), PLAYERS, UNITS, [])
    assert r.rounds == () and r.per_round == () and not r.finished
    assert [(c.mustered, c.lost) for c in r.casualties] == [(3, 0), (3, 0)]
    md = report_markdown(r)
    assert "No rounds have been played yet.\n" in md
    assert md.endswith("## The battle, round by round\n\nNothing has happened yet.\n")
    assert "No attacks." in md


def test_an_older_files_combined_attack_tells_each_units_die_apart():
    """READINGS "older_dice": dice with no owner, one per attacker, are never summed across
    the units ("d6 5 + d6 2, -2 = 5" told nothing of whose was whose)."""
    combined = (
        "attack",
        1,
        6,
        {
            "text": "Kate and Dusty shoot Rusty",
            "outcome": {"hit": True, "use": 3, "action_total": 5},
            "dice": [
                die(6, 5, "Action die for Kate's rifle at Rusty"),
                die(10, 2, "Action die for Marshal Dusty's pistol at Rusty"),
            ],
        },
    )
    [entry] = build_battle_report(FACTS, PLAYERS, UNITS, log(combined)).entries
    assert entry.rolls == (
        "Action Roll: d6 5 (Action die for Kate's rifle at Rusty)",
        "Action Roll: d10 2 (Action die for Marshal Dusty's pistol at Rusty)",
        "Action Roll against Use 3: hit",
    )
