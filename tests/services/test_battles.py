"""Battles: mustering, reading the event log (the tracker writes it), the campaign record."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brikdesk.domain.battle import Status, StatusSet, UnitKilled
from brikdesk.errors import UserError
from brikdesk.services import Services
from brikdesk.services.events import check_kind, check_payload
from brikdesk.services.roster import UnitPatch
from brikdesk.services.summaries import Muster, UnitOutcome
from tests.services.conftest import Camp


@pytest.fixture
def duel(sv: Services, camp: Camp):
    reds = sv.roster.add_units(camp.red_army.id, "minifig", 3).value
    blues = sv.roster.add_units(camp.blue_army.id, "minifig", 2).value
    b = sv.battles.create_battle(
        camp.campaign.id, "Duel at Dawn", [Muster(camp.red.id, reds), Muster(camp.blue.id, blues)]
    ).value
    units = sv.battles.battle(b.id).units
    return b, reds, blues, [u.id for u in units]


def test_mustering_copies_units_and_leaves_the_pool_intact(sv: Services, camp: Camp, duel) -> None:
    b, reds, blues, _bu = duel
    detail = sv.battles.battle(b.id)
    assert detail.battle.status == "planned" and detail.battle.players == ("Red", "Blue")
    assert [(p.name, p.turn_order) for p in detail.players] == [("Red", 0), ("Blue", 1)]
    assert [u.unit_id for u in detail.units] == [*reds, *blues]
    assert detail.units[0].spec["type"] == "minifig" and detail.units[0].spec["army"] == "Red Army"
    assert len(sv.roster.roster(camp.red_army.id).units) == 3
    # Editing the campaign unit later does not rewrite the battle's copy.
    sv.roster.edit_unit(reds[0], UnitPatch(name="Renamed"))
    assert sv.battles.battle(b.id).units[0].name == "Minifig 1"


def test_bad_musters_are_refused(sv: Services, camp: Camp) -> None:
    reds = sv.roster.add_units(camp.red_army.id, "minifig", 2).value
    blues = sv.roster.add_units(camp.blue_army.id, "minifig", 1).value
    cid = camp.campaign.id
    with pytest.raises(UserError, match="at least two players"):
        sv.battles.create_battle(cid, "Alone", [Muster(camp.red.id, reds)])
    with pytest.raises(UserError, match="not one of Red's units"):
        sv.battles.create_battle(
            cid, "Theft", [Muster(camp.red.id, blues), Muster(camp.blue.id, reds)]
        )
    with pytest.raises(UserError, match="only once"):
        sv.battles.create_battle(
            cid, "Twice", [Muster(camp.red.id, [reds[0], reds[0]]), Muster(camp.blue.id, blues)]
        )
    sv.roster.edit_unit(reds[1], UnitPatch(status="dead"))
    with pytest.raises(UserError, match="Minifig 2 is dead"):
        sv.battles.create_battle(
            cid, "Zombies", [Muster(camp.red.id, reds), Muster(camp.blue.id, blues)]
        )
    assert sv.battles.list_battles(cid) == ()


def test_the_log_is_read_in_order_with_undone_events_marked(sv: Services, duel) -> None:
    """The tracker writes the log (its only writer); the battle service reads it."""
    b, _r, _b, bu = duel
    sv.tracker.start(b.id, [p.player_id for p in sv.battles.battle(b.id).players])
    first = sv.tracker.record(b.id, [UnitKilled(bu[3], bu[0], "an axe")])
    sv.tracker.record(b.id, [UnitKilled(bu[4], bu[1]), UnitKilled(bu[2], bu[4])])
    log = sv.battles.events(b.id)
    assert [(e.seq, e.kind, e.actor_id, e.target_id) for e in log] == [
        (1, "unit_killed", bu[0], bu[3]),
        (2, "unit_killed", bu[1], bu[4]),
        (3, "unit_killed", bu[4], bu[2]),
    ]
    assert log[0].payload == {"cause": "an axe"} and not any(e.reverted for e in log)
    sv.tracker.undo(b.id)  # the group of two
    assert [e.reverted for e in sv.battles.events(b.id)] == [False, True, True]
    assert [e.seq for e in sv.battles.events(b.id, include_reverted=False)] == [1]
    first.undo()
    assert sv.battles.events(b.id, include_reverted=False) == ()
    assert sv.battles.list_battles(b.campaign_id)[0].events == 0


def test_the_battle_service_has_no_log_writer() -> None:
    """One writer per aggregate ("One undo path" in docs/conventions.md): only the tracker writes
    the log."""
    from brikdesk.services.battles import BattleService

    for name in (
        "append_event",
        "append_events",
        "revert_events",
        "unrevert_events",
        "revert_last_event",
        "unrevert_next_event",
        "save_state",
    ):
        assert not hasattr(BattleService, name), name


@pytest.mark.parametrize(
    "kind, payload, message",
    [
        ("Attack!", {}, "not an event kind"),
        ("attack", {"dice": [{"sides": 6, "face": 7}]}, "a d6 cannot show 7"),
        ("attack", {"dice": [{"sides": 6, "face": 2, "role": "luck"}]}, "is not one of"),
        (
            "attack",
            {"modifiers": [{"value": 1, "applies_to": "Mood", "reason": "", "rule": ""}]},
            "is not one of",
        ),
        ("attack", {"x": float("nan")}, "not a finite number"),
        ("attack", {"x": "y" * 70_000}, "is too long"),
        ("attack", {"outcome": {"killed": "yes"}}, "true or false"),
    ],
)
def test_bad_stored_events_are_refused_by_the_checks_imports_use(kind, payload, message) -> None:
    with pytest.raises(UserError, match=message):
        check_kind(kind)
        check_payload(payload)


def test_hostile_nesting_is_refused() -> None:
    deep: dict = {}
    node = deep
    for _ in range(5000):
        node["x"] = {}
        node = node["x"]
    with pytest.raises(UserError, match="nested more than"):
        check_payload(deep)


def test_finishing_writes_the_campaign_record_and_undo_takes_it_back(
    sv: Services, camp: Camp, duel
) -> None:
    b, reds, blues, bu = duel
    sv.roster.edit_unit(reds[2], UnitPatch(status="wounded", kills=5, battles_fought=1))
    sv.tracker.start(b.id, [camp.red.id, camp.blue.id])
    sv.tracker.record(b.id, [UnitKilled(bu[3], bu[0])])
    sv.tracker.record(b.id, [UnitKilled(bu[1], bu[4])])
    sv.tracker.record(b.id, [UnitKilled(bu[4], bu[0])])
    sv.tracker.undo(b.id)  # that kill was undone: it does not count
    done = sv.battles.finish_battle(b.id)
    rows = {u.id: u for u in sv.roster.unit_rows([*reds, *blues])}
    assert [(rows[i].status, rows[i].kills, rows[i].battles_fought) for i in reds] == [
        ("alive", 1, 1),
        ("dead", 0, 1),
        ("wounded", 5, 2),
    ]
    assert [(rows[i].status, rows[i].kills) for i in blues] == [("dead", 0), ("alive", 1)]
    summary = sv.battles.battle(b.id).battle
    assert summary.status == "finished" and summary.finished_at is not None
    with pytest.raises(UserError, match="finished; its log can't change"):
        sv.tracker.end_turn(b.id)
    done.undo()
    rows = {u.id: u for u in sv.roster.unit_rows([*reds, *blues])}
    assert [(rows[i].status, rows[i].kills, rows[i].battles_fought) for i in reds] == [
        ("alive", 0, 0),
        ("alive", 0, 0),
        ("wounded", 5, 1),
    ]
    assert sv.battles.battle(b.id).battle.status == "in_progress"
    done.redo()
    assert sv.roster.unit_rows([reds[1]])[0].status == "dead"


def test_outcomes_can_be_set_by_hand(sv: Services, duel) -> None:
    b, reds, _blues, bu = duel
    assert sv.battles.outcomes_from_log(b.id)[bu[0]] == UnitOutcome("alive", 0)
    sv.battles.finish_battle(b.id, {bu[0]: UnitOutcome("wounded", 2)})
    row = sv.roster.unit_rows([reds[0]])[0]
    assert (row.status, row.kills, row.battles_fought) == ("wounded", 2, 1)


def test_the_tracker_kinds_feed_the_record(sv: Services, camp: Camp, duel) -> None:
    b, reds, blues, bu = duel
    sv.tracker.start(b.id, [camp.red.id, camp.blue.id])
    sv.tracker.record(
        b.id,
        [
            UnitKilled(bu[3], bu[0]),
            UnitKilled(bu[2], bu[4], "pushed off the bridge"),
            StatusSet(bu[1], Status.DEAD),
        ],
    )
    sv.battles.finish_battle(b.id)
    rows = {u.id: u for u in sv.roster.unit_rows([*reds, *blues])}
    assert [(rows[i].status, rows[i].kills) for i in (*reds, *blues)] == [
        ("alive", 1),
        ("dead", 0),
        ("dead", 0),
        ("dead", 0),
        ("alive", 1),
    ]


def test_turn_order_and_battle_deletion_are_reversible(sv: Services, camp: Camp, duel) -> None:
    b = duel[0]
    done = sv.battles.set_turn_order(b.id, [camp.blue.id, camp.red.id])
    assert [p.name for p in sv.battles.battle(b.id).players] == ["Blue", "Red"]
    done.undo()
    assert [p.name for p in sv.battles.battle(b.id).players] == ["Red", "Blue"]
    sv.tracker.start(b.id, [camp.red.id, camp.blue.id])
    sv.tracker.end_turn(b.id)
    gone = sv.battles.delete_battle(b.id)
    assert sv.battles.list_battles(camp.campaign.id) == ()
    gone.undo()
    assert [e.kind for e in sv.battles.events(b.id)] == ["turn_ended"]


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.text(max_size=20)
    | st.floats(allow_nan=True, allow_infinity=True),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
    max_leaves=10,
)
PAYLOADS = st.dictionaries(
    st.sampled_from(["dice", "modifiers", "outcome", "text", "killed", "other"]), JSON, max_size=4
)


@settings(max_examples=60, deadline=None)
@given(payload=PAYLOADS)
def test_any_payload_is_kept_as_given_or_refused_cleanly(payload) -> None:
    """What an import may store in a log: kept exactly, or refused with a UserError."""
    try:
        checked = check_payload(payload)
    except UserError:
        return
    assert checked == payload
