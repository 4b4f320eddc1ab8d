"""Battles: mustering, the event log with undo and redo, the campaign record at the end."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brikdesk.domain.modifiers import Modifier, Stat
from brikdesk.domain.rolling import TypedDice, roll_action
from brikdesk.errors import UserError
from brikdesk.services import Changes, Services
from brikdesk.services.events import dice_payload, modifiers_payload
from brikdesk.services.roster import UnitPatch
from brikdesk.services.summaries import Muster, NewEvent, UnitOutcome
from tests.services.conftest import Camp


@pytest.fixture
def duel(sv: Services, camp: Camp):
    reds = sv.roster.add_units(camp.red_army.id, "minifig", 3).value
    blues = sv.roster.add_units(camp.blue_army.id, "minifig", 2).value
    b = sv.battles.create_battle(camp.campaign.id, "Duel at Dawn",
                                 [Muster(camp.red.id, reds), Muster(camp.blue.id, blues)]).value
    units = sv.battles.battle(b.id).units
    return b, reds, blues, [u.id for u in units]


def test_mustering_copies_units_and_leaves_the_pool_intact(sv: Services, camp: Camp,
                                                           duel) -> None:
    b, reds, blues, _bu = duel
    detail = sv.battles.battle(b.id)
    assert detail.battle.status == "planned" and detail.battle.players == ("Red", "Blue")
    assert [(p.name, p.turn_order) for p in detail.players] == [("Red", 0), ("Blue", 1)]
    assert [u.unit_id for u in detail.units] == [*reds, *blues]
    assert detail.units[0].spec["type"] == "minifig" and detail.units[0].spec["army"] == \
        "Red Army"
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
        sv.battles.create_battle(cid, "Theft", [Muster(camp.red.id, blues),
                                                Muster(camp.blue.id, reds)])
    with pytest.raises(UserError, match="only once"):
        sv.battles.create_battle(cid, "Twice", [Muster(camp.red.id, [reds[0], reds[0]]),
                                                Muster(camp.blue.id, blues)])
    sv.roster.edit_unit(reds[1], UnitPatch(status="dead"))
    with pytest.raises(UserError, match="Minifig 2 is dead"):
        sv.battles.create_battle(cid, "Zombies", [Muster(camp.red.id, reds),
                                                  Muster(camp.blue.id, blues)])
    assert sv.battles.list_battles(cid) == ()


def attack(actor: int, target: int, faces: list[int], killed: bool) -> NewEvent:
    mods = (Modifier(-1, Stat.ACTION, "1 inch beyond Range", "5.1 Out of Range"),)
    roll = roll_action(6, 3, TypedDice(faces), mods)
    return NewEvent("attack", actor, target, {
        "dice": dice_payload(roll.dice), "modifiers": modifiers_payload(mods),
        "outcome": {"hit": roll.success, "killed": killed}, "text": "bang"})


def test_events_are_appended_reverted_and_unreverted(sv: Services, duel) -> None:
    b, _r, _b, bu = duel
    first = sv.battles.append_event(b.id, attack(bu[0], bu[3], [5], killed=False))
    assert first.changes & Changes.EVENTS and first.value.seq == 1
    ev = first.value
    assert [(d.sides, d.face, d.role.value) for d in ev.dice] == [(6, 5, "natural")]
    assert ev.modifiers[0].rule == "5.1 Out of Range" and ev.outcome["hit"] is True
    second = sv.battles.append_event(b.id, NewEvent("turn_ended", payload={"round": 1}))
    with pytest.raises(UserError, match="only the last events"):
        sv.battles.revert_events(b.id, [ev.id])
    second.undo()
    first.undo()
    assert [e.reverted for e in sv.battles.events(b.id)] == [True, True]
    assert sv.battles.events(b.id, include_reverted=False) == ()
    with pytest.raises(UserError, match="only the next undone events"):
        sv.battles.unrevert_events(b.id, [second.value.id])
    first.redo()
    assert [e.reverted for e in sv.battles.events(b.id)] == [False, True]
    # A new event drops the undone tail, as an undo stack drops its redo branch.
    sv.battles.append_event(b.id, NewEvent("turn_ended", payload={"round": 1}))
    assert [(e.seq, e.reverted) for e in sv.battles.events(b.id)] == [(1, False), (2, False)]
    with pytest.raises(UserError, match="nothing to redo"):
        sv.battles.unrevert_next_event(b.id)
    sv.battles.revert_last_event(b.id)
    sv.battles.unrevert_next_event(b.id)
    assert [e.reverted for e in sv.battles.events(b.id)] == [False, False]


def test_a_macro_of_events_is_one_undo(sv: Services, duel) -> None:
    b, _r, _b, bu = duel
    done = sv.battles.append_events(b.id, [
        attack(bu[0], bu[3], [6], killed=True),
        NewEvent("action", bu[0], None, {"text": "spends the Action"})])
    assert [e.seq for e in done.value] == [1, 2]
    done.undo()
    assert all(e.reverted for e in sv.battles.events(b.id))
    done.redo()
    assert not any(e.reverted for e in sv.battles.events(b.id))


@pytest.mark.parametrize("event, message", [
    (NewEvent("Attack!"), "not an event kind"),
    (NewEvent("attack", payload={"dice": [{"sides": 6, "face": 7}]}), "a d6 cannot show 7"),
    (NewEvent("attack", payload={"dice": [{"sides": 6, "face": 2, "role": "luck"}]}),
     "is not one of"),
    (NewEvent("attack", payload={"modifiers": [{"value": 1, "applies_to": "Mood",
                                                "reason": "", "rule": ""}]}), "is not one of"),
    (NewEvent("attack", payload={"x": float("nan")}), "not a finite number"),
    (NewEvent("attack", payload={"x": "y" * 70_000}), "is too long"),
    (NewEvent("attack", payload={"outcome": {"killed": "yes"}}), "true or false"),
    (NewEvent("attack", actor_id=999_999), "not a unit of this battle"),
])
def test_bad_events_are_refused_and_the_log_is_unchanged(sv: Services, duel, event,
                                                         message) -> None:
    b = duel[0]
    with pytest.raises(UserError, match=message):
        sv.battles.append_event(b.id, event)
    assert sv.battles.events(b.id) == ()


def test_hostile_nesting_is_refused(sv: Services, duel) -> None:
    deep: dict = {}
    node = deep
    for _ in range(5000):
        node["x"] = {}
        node = node["x"]
    with pytest.raises(UserError, match="nested more than"):
        sv.battles.append_event(duel[0].id, NewEvent("attack", payload=deep))


def test_finishing_writes_the_campaign_record_and_undo_takes_it_back(sv: Services, camp: Camp,
                                                                    duel) -> None:
    b, reds, blues, bu = duel
    sv.roster.edit_unit(reds[2], UnitPatch(status="wounded", kills=5, battles_fought=1))
    sv.battles.start_battle(b.id)
    sv.battles.append_event(b.id, attack(bu[0], bu[3], [6], killed=True))
    sv.battles.append_event(b.id, attack(bu[4], bu[1], [5], killed=True))
    sv.battles.append_event(b.id, attack(bu[0], bu[4], [4], killed=True))
    sv.battles.revert_last_event(b.id)  # that kill was undone: it does not count
    sv.battles.append_event(b.id, NewEvent("status", bu[2], payload={
        "outcome": {"wounded": True}}))
    done = sv.battles.finish_battle(b.id)
    rows = {u.id: u for u in sv.roster.unit_rows([*reds, *blues])}
    assert [(rows[i].status, rows[i].kills, rows[i].battles_fought) for i in reds] == [
        ("alive", 1, 1), ("dead", 0, 1), ("wounded", 5, 2)]
    assert [(rows[i].status, rows[i].kills) for i in blues] == [("dead", 0), ("alive", 1)]
    summary = sv.battles.battle(b.id).battle
    assert summary.status == "finished" and summary.finished_at is not None
    with pytest.raises(UserError, match="finished; its log can't change"):
        sv.battles.append_event(b.id, NewEvent("turn_ended"))
    done.undo()
    rows = {u.id: u for u in sv.roster.unit_rows([*reds, *blues])}
    assert [(rows[i].status, rows[i].kills, rows[i].battles_fought) for i in reds] == [
        ("alive", 0, 0), ("alive", 0, 0), ("wounded", 5, 1)]
    assert sv.battles.battle(b.id).battle.status == "in_progress"
    done.redo()
    assert sv.roster.unit_rows([reds[1]])[0].status == "dead"


def test_outcomes_can_be_set_by_hand(sv: Services, duel) -> None:
    b, reds, _blues, bu = duel
    assert sv.battles.outcomes_from_log(b.id)[bu[0]] == UnitOutcome("alive", 0)
    sv.battles.finish_battle(b.id, {bu[0]: UnitOutcome("wounded", 2)})
    row = sv.roster.unit_rows([reds[0]])[0]
    assert (row.status, row.kills, row.battles_fought) == ("wounded", 2, 1)


def test_the_tracker_kinds_feed_the_record(sv: Services, duel) -> None:
    b, reds, blues, bu = duel
    sv.battles.append_events(b.id, [
        NewEvent("attack_resolved", bu[0], bu[3], {
            "participants": [{"unit": bu[0], "use": "action", "hands": 1}],
            "close_combat": False, "maneuver": "attack", "effects": [], "killed": [bu[3]]}),
        NewEvent("unit_killed", bu[4], bu[2], {"cause": "pushed off the bridge"}),
        NewEvent("status_set", bu[1], None, {"status": "dead", "with": []}),
    ])
    sv.battles.finish_battle(b.id)
    rows = {u.id: u for u in sv.roster.unit_rows([*reds, *blues])}
    assert [(rows[i].status, rows[i].kills) for i in (*reds, *blues)] == [
        ("alive", 1), ("dead", 0), ("dead", 0), ("dead", 0), ("alive", 1)]


def test_turn_order_and_battle_deletion_are_reversible(sv: Services, camp: Camp, duel) -> None:
    b = duel[0]
    done = sv.battles.set_turn_order(b.id, [camp.blue.id, camp.red.id])
    assert [p.name for p in sv.battles.battle(b.id).players] == ["Blue", "Red"]
    done.undo()
    assert [p.name for p in sv.battles.battle(b.id).players] == ["Red", "Blue"]
    sv.battles.append_event(b.id, NewEvent("turn_ended", payload={"round": 1}))
    gone = sv.battles.delete_battle(b.id)
    assert sv.battles.list_battles(camp.campaign.id) == ()
    gone.undo()
    assert [e.kind for e in sv.battles.events(b.id)] == ["turn_ended"]


def test_the_state_cache_is_stored_as_given(sv: Services, duel) -> None:
    b, _r, _b, bu = duel
    sv.battles.save_state(b.id, {"round": 2, "active": 1}, {bu[0]: {"action": "spent"}})
    detail = sv.battles.battle(b.id)
    assert detail.state == {"round": 2, "active": 1}
    assert detail.units[0].state == {"action": "spent"} and detail.units[1].state == {}


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=20)
    | st.floats(allow_nan=True, allow_infinity=True),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
    max_leaves=10)
PAYLOADS = st.dictionaries(
    st.sampled_from(["dice", "modifiers", "outcome", "text", "killed", "other"]), JSON,
    max_size=4)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["attack", "turn_ended", "Bad Kind", ""]) | st.text(max_size=5),
       payload=PAYLOADS)
def test_any_payload_is_stored_as_given_or_refused_cleanly(sv: Services, duel, kind,
                                                          payload) -> None:
    b = duel[0]
    before = sv.battles.events(b.id)
    try:
        done = sv.battles.append_event(b.id, NewEvent(kind, payload=payload))
    except UserError:
        assert sv.battles.events(b.id) == before
        return
    assert done.value.payload == payload and done.value.kind == kind
    done.undo()
