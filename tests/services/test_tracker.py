"""The battle tracker service: views from the log, validated recording, undo groups, reopening."""

from __future__ import annotations

import random
from datetime import datetime
from pathlib import Path

import pytest

from brikdesk.domain.battle import (
    ActionState,
    ActionUse,
    BattleState,
    CloseCombatAttack,
    CounterUsed,
    RuleViolation,
    Status,
    StatusSet,
    UnitKilled,
    from_payload,
    replay,
    spend_action,
)
from brikdesk.domain.rolling import TypedDice
from brikdesk.domain.roster import Loadout
from brikdesk.errors import ConflictError, UserError
from brikdesk.persistence.db import Database, open_database
from brikdesk.services import Changes, Services
from brikdesk.services.summaries import Muster
from brikdesk.services.tracker import TrackerService
from brikdesk.services.tracker_reader import LogReader
from tests.databases import fresh_url
from tests.services.conftest import Camp, TickingClock


@pytest.fixture
def war(sv: Services, camp: Camp):
    """Red (3 units: a sword-and-shield minifig, a rifleman, a horse) against Blue (2
    minifigs), started with Red first."""
    red = [
        *sv.roster.add_unit(
            camp.red_army.id,
            "minifig",
            name="Sir Shield",
            loadout=Loadout(("hand-weapon", "shield")),
        ).value,
        *sv.roster.add_unit(
            camp.red_army.id, "minifig", name="Rifleman", loadout=Loadout(("long-ranged-weapon",))
        ).value,
        *sv.roster.add_unit(camp.red_army.id, "horse", name="Dobbin").value,
    ]
    blue = sv.roster.add_units(camp.blue_army.id, "minifig", 2, "Blue {n}").value
    done = sv.tracker.begin(
        camp.campaign.id, "Bridge Fight", [Muster(camp.red.id, red), Muster(camp.blue.id, blue)]
    )
    return done


def ids(view) -> dict[str, int]:
    return {u.name: u.id for u in view.units}


def standing_replay(sv: Services, battle_id: int) -> BattleState:
    """The state a plain replay of the stored, standing events gives (no tracker cache)."""
    view = sv.tracker.view(battle_id)
    events = [
        from_payload(e.kind, e.actor_id, e.target_id, e.payload)
        for e in sv.battles.events(battle_id, include_reverted=False)
    ]
    return replay(view.setup, events)


def test_begin_musters_and_starts_one_undo_step(sv: Services, camp: Camp, war) -> None:
    view = war.value
    assert view.status == "in_progress" and view.name == "Bridge Fight"
    assert [p.name for p in view.players] == ["Red", "Blue"]
    assert view.state.round == 1 and view.active_player.name == "Red"
    by_name = {u.name: u for u in view.units}
    shield, rifle, horse = by_name["Sir Shield"], by_name["Rifleman"], by_name["Dobbin"]
    # Counters from the loadout (5.2): sword and shield 2, a two-handed rifle 1, a horse 0.
    assert [view.setup.unit(u.id).counters for u in (shield, rifle, horse)] == [2, 1, 0]
    assert (horse.minifig, shield.minifig) == (False, True)
    assert shield.player_colour == "#ff0000" and shield.type_name == "Minifig"
    assert shield.stats.action_die == 6 and shield.spec.loadout.hands == ("hand-weapon", "shield")
    assert view.catalog.get_item("shield") is not None
    # Red's units are Ready, Blue's hold their Action (reading first_round).
    assert {view.state.unit(u.id).action for u in view.units if u.player_id == camp.red.id} == {
        ActionState.READY
    }
    assert {view.state.unit(u.id).action for u in view.units if u.player_id == camp.blue.id} == {
        ActionState.HELD
    }
    assert war.text == "Start battle Bridge Fight"
    # The campaign pool is intact; undo removes the battle, redo brings it back.
    assert len(sv.roster.roster(camp.red_army.id).units) == 3
    war.undo()
    assert sv.battles.list_battles(camp.campaign.id) == ()
    assert len(sv.roster.roster(camp.red_army.id).units) == 3
    war.redo()
    again = sv.tracker.view(view.id)
    assert again.status == "in_progress" and [p.name for p in again.players] == ["Red", "Blue"]


def test_record_refuses_illegal_events_and_stores_nothing(sv: Services, war) -> None:
    view = war.value
    u = ids(view)
    done = sv.tracker.record(view.id, [spend_action(view.state, u["Sir Shield"], ActionUse.SPRINT)])
    assert done.changes & Changes.EVENTS and done.text == "Sir Shield (Red) Sprints"
    assert done.value.state.unit(u["Sir Shield"]).action is ActionState.SPENT_OWN_TURN
    assert done.value.can_undo == "Sir Shield (Red) Sprints" and done.value.can_redo is None
    with pytest.raises(RuleViolation) as err:
        sv.tracker.record(
            view.id, [spend_action(done.value.state, u["Sir Shield"], ActionUse.ATTACK)]
        )
    assert err.value.reason == "Sir Shield has already spent its Action this turn."
    assert err.value.rule == "4.2 Action"
    # A legal event followed by an illegal one: neither is stored.
    state = done.value.state
    with pytest.raises(RuleViolation, match="Sprint as a response"):
        sv.tracker.record(
            view.id,
            [
                spend_action(state, u["Rifleman"], ActionUse.ATTACK),
                spend_action(state, u["Blue 1"], ActionUse.SPRINT),
            ],
        )
    assert len(sv.battles.events(view.id)) == 1
    assert sv.tracker.view(view.id).state.unit(u["Rifleman"]).action is ActionState.READY


def test_the_fourth_close_combat_attacker_is_refused(sv: Services, camp: Camp) -> None:
    reds = sv.roster.add_units(camp.red_army.id, "minifig", 4, "Red {n}").value
    blues = sv.roster.add_units(camp.blue_army.id, "minifig", 1, "Blue {n}").value
    view = sv.tracker.begin(
        camp.campaign.id, "Mob", [Muster(camp.red.id, reds), Muster(camp.blue.id, blues)]
    ).value
    u = ids(view)
    for n in (1, 2, 3):
        sv.tracker.record(view.id, [CloseCombatAttack(u[f"Red {n}"], u["Blue 1"])])
    with pytest.raises(RuleViolation) as err:
        sv.tracker.record(view.id, [CloseCombatAttack(u["Red 4"], u["Blue 1"])])
    assert (
        "already has three Close Combat attackers this turn (Red 1, Red 2, Red 3)"
        in err.value.reason
    )
    assert err.value.rule == "5.2 Close Combat"
    assert len(sv.battles.events(view.id)) == 3


def test_one_record_is_one_undo_group(sv: Services, war) -> None:
    view = war.value
    u = ids(view)
    sv.tracker.record(view.id, [spend_action(view.state, u["Rifleman"], ActionUse.ATTACK)])
    attack = sv.tracker.record(
        view.id,
        [
            CloseCombatAttack(u["Sir Shield"], u["Blue 1"]),
            StatusSet(u["Blue 2"], Status.DISRUPTED),
            UnitKilled(u["Blue 1"], u["Sir Shield"], "cut down"),
        ],
        text="Sir Shield's charge",
    )
    assert attack.text == "Sir Shield's charge"
    assert attack.value.can_undo.endswith("(+2 more)")
    undone = sv.tracker.undo(view.id)
    assert undone.text.startswith("Undo: Sir Shield (Red) Strikes Blue 1 (Blue)")
    after = undone.value
    assert [e.reverted for e in after.events] == [False, True, True, True]
    assert not after.state.unit(u["Blue 1"]).dead and not after.state.unit(u["Blue 2"]).disrupted
    assert after.can_undo == "Rifleman (Red) attacks" and after.can_redo.endswith("(+2 more)")
    redone = sv.tracker.redo(view.id).value
    assert redone.state.unit(u["Blue 1"]).dead and redone.state.unit(u["Blue 2"]).disrupted
    # The Done's own steps do the same, and say what to refresh.
    assert attack.undo() & Changes.EVENTS
    assert sv.tracker.view(view.id).state.unit(u["Blue 1"]).dead is False
    attack.redo()
    assert sv.tracker.view(view.id).state.unit(u["Blue 1"]).dead is True
    # Undoing an Undo brings the group back.
    again = sv.tracker.undo(view.id)
    assert sv.tracker.view(view.id).state.unit(u["Blue 1"]).dead is False
    again.undo()
    assert sv.tracker.view(view.id).state.unit(u["Blue 1"]).dead is True
    assert sv.tracker.view(view.id).state == standing_replay(sv, view.id)


def test_recording_after_undo_drops_the_redo_branch(sv: Services, war) -> None:
    view = war.value
    u = ids(view)
    sv.tracker.record(
        view.id,
        [
            spend_action(view.state, u["Rifleman"], ActionUse.ATTACK),
            spend_action(view.state, u["Sir Shield"], ActionUse.ATTACK),
        ],
    )
    sv.tracker.undo(view.id)
    after = sv.tracker.record(
        view.id, [spend_action(view.state, u["Dobbin"], ActionUse.SPRINT)]
    ).value
    assert [(e.seq, e.text, e.reverted) for e in after.events] == [
        (1, "Dobbin (Red) Sprints", False)
    ]
    assert after.can_redo is None and after.can_undo == "Dobbin (Red) Sprints"
    sv.tracker.undo(view.id)
    # The old two-event group is gone: its boundary does not swallow new events.
    assert sv.tracker.view(view.id).can_redo == "Dobbin (Red) Sprints"


def test_end_turn_says_what_changed(sv: Services, war) -> None:
    view = war.value
    u = ids(view)
    sv.tracker.record(view.id, [spend_action(view.state, u["Sir Shield"], ActionUse.ATTACK)])
    done = sv.tracker.end_turn(view.id)
    assert done.text == "End Red's turn"
    assert done.value.ended == "Red" and done.value.started == "Blue"
    assert done.value.holding == 2  # the Rifleman and the horse saved their Action
    blue = sv.tracker.view(view.id)
    assert blue.active_player.name == "Blue" and blue.state.round == 1
    assert blue.events[-1].text == "Red ends their turn (round 1)"
    assert (blue.events[-1].round, blue.events[-1].player) == (1, "Red")
    state = blue.state
    sv.tracker.record(view.id, [spend_action(state, u["Blue 1"], ActionUse.ATTACK)])
    second = sv.tracker.end_turn(view.id).value
    assert second.new_round and second.recharged == 1
    assert second.headline == "Red: 1 Action recharged"
    assert sv.tracker.view(view.id).state.round == 2


def test_planned_and_finished_battles_refuse_events(sv: Services, camp: Camp) -> None:
    reds = sv.roster.add_units(camp.red_army.id, "minifig", 1).value
    blues = sv.roster.add_units(camp.blue_army.id, "minifig", 1).value
    b = sv.battles.create_battle(
        camp.campaign.id, "Later", [Muster(camp.red.id, reds), Muster(camp.blue.id, blues)]
    ).value
    view = sv.tracker.view(b.id)
    assert view.status == "planned" and view.state.round == 1
    with pytest.raises(UserError, match="has not started yet"):
        sv.tracker.end_turn(b.id)
    with pytest.raises(UserError, match="every player of the battle once"):
        sv.tracker.start(b.id, [camp.red.id])
    started = sv.tracker.start(b.id, [camp.blue.id, camp.red.id])
    assert started.value.active_player.name == "Blue"
    with pytest.raises(UserError, match="already in progress"):
        sv.tracker.start(b.id, [camp.blue.id, camp.red.id])
    started.undo()
    planned = sv.tracker.view(b.id)
    assert planned.status == "planned" and [p.name for p in planned.players] == ["Red", "Blue"]
    started.redo()
    sv.tracker.end_turn(b.id)
    sv.battles.finish_battle(b.id)
    with pytest.raises(UserError, match="finished; its log can't change"):
        sv.tracker.end_turn(b.id)
    with pytest.raises(UserError, match="finished"):
        sv.tracker.undo(b.id)
    assert sv.tracker.view(b.id).can_undo is None


def test_reopening_the_database_shows_the_same_battle(
    backend: str, tmp_path: Path, clock: TickingClock
) -> None:
    url = fresh_url(tmp_path, "reopen")
    db = open_database(url)
    sv = Services.open(db, clock)
    camp = Camp(sv)
    reds = sv.roster.add_units(camp.red_army.id, "minifig", 2).value
    blues = sv.roster.add_units(camp.blue_army.id, "minifig", 2).value
    view = sv.tracker.begin(
        camp.campaign.id, "Night", [Muster(camp.red.id, reds), Muster(camp.blue.id, blues)]
    ).value
    u = [x.id for x in view.units]
    sv.tracker.record(view.id, [CloseCombatAttack(u[0], u[2])])
    sv.tracker.end_turn(view.id)
    sv.tracker.record(view.id, [CounterUsed(u[0], u[2])])
    sv.tracker.record(view.id, [StatusSet(u[3], Status.STOPPED)])
    sv.tracker.undo(view.id)  # an undone event stays undone after reopening
    before = sv.tracker.view(view.id)
    db.close()

    db = open_database(url)
    try:
        fresh = Services.open(db, clock).tracker.view(view.id)
    finally:
        db.close()
    assert fresh.state == before.state
    assert (fresh.state.round, fresh.active_player.name) == (1, "Blue")
    assert fresh.state.unit(u[0]).counters_used == 1
    assert [(e.text, e.reverted) for e in fresh.events] == [
        (e.text, e.reverted) for e in before.events
    ]
    assert fresh.can_undo == before.can_undo and fresh.can_redo == before.can_redo


def test_the_cache_follows_changes_made_elsewhere(sv: Services, db: Database, war) -> None:
    """Another tracker over the same database (another BrikDesk, in effect) undoes, redoes and
    records; this one's cache follows each change at its next call."""
    view = war.value
    u = ids(view)
    other = TrackerService(db.sessions, TickingClock())
    sv.tracker.record(view.id, [spend_action(view.state, u["Rifleman"], ActionUse.ATTACK)])
    sv.tracker.end_turn(view.id)
    assert sv.tracker.view(view.id).active_player.name == "Blue"
    other.undo(view.id)
    assert sv.tracker.view(view.id).active_player.name == "Red"
    other.redo(view.id)
    assert sv.tracker.view(view.id).active_player.name == "Blue"
    state = other.view(view.id).state
    other.record(view.id, [spend_action(state, u["Blue 1"], ActionUse.SPRINT)])
    assert sv.tracker.view(view.id).events[-1].text == "Blue 1 (Blue) Sprints"
    # An undo of the end of turn this table saw as the last action is refused: the other
    # table recorded after it.
    with pytest.raises(ConflictError, match=r"someone else recorded 'Blue 1 \(Blue\) Sprints'"):
        sv.tracker.undo(view.id, seen=view_last(sv.tracker.view(view.id), before=1))
    # A renamed player shows in the log at once.
    sv.campaigns.update_player(view.players[0].id, _patch(name="Crimson"))
    assert sv.tracker.view(view.id).events[-2].text == "Crimson ends their turn (round 1)"


def view_last(view, before: int = 0) -> int:
    """The id of a standing event counted from the end (``before=1``: the one before last)."""
    return view.standing_events[-1 - before].id


def _store_raw(db: Database, battle_id: int, kind: str, actor, target, payload) -> None:
    """An event stored by something other than the tracker (an old BrikDesk, a hand-edited
    import): the tracker must show it and skip what the rules cannot read."""
    from sqlalchemy import func, insert, select

    from brikdesk.persistence.models import BattleEvent

    with db.sessions.begin() as s:
        seq = (
            s.scalar(select(func.max(BattleEvent.seq)).where(BattleEvent.battle_id == battle_id))
            or 0
        ) + 1
        s.execute(
            insert(BattleEvent).values(
                battle_id=battle_id,
                seq=seq,
                kind=kind,
                actor_id=actor,
                target_id=target,
                payload=payload,
                created_at=datetime(2026, 5, 1, 12, 0),
                reverted=False,
            )
        )


def _patch(**kw):
    from brikdesk.services.summaries import PlayerPatch

    return PlayerPatch(**kw)


def test_events_the_rules_cannot_read_are_shown_not_counted(
    sv: Services, db: Database, war
) -> None:
    view = war.value
    u = ids(view)
    _store_raw(db, view.id, "attack", u["Rifleman"], u["Blue 1"], {"text": "Rifleman shoots wide"})
    _store_raw(db, view.id, "turn_ended", None, None, {"player": 999, "round": 1})
    sv.tracker.end_turn(view.id)
    after = sv.tracker.view(view.id)
    assert [e.text for e in after.events][:1] == ["Rifleman shoots wide"]
    assert after.events[0].problem.startswith("not counted: unknown event kind")
    assert "The turn to end is Red's in round 1" in after.events[1].problem
    assert after.events[2].problem is None and after.active_player.name == "Blue"


def test_a_failed_write_leaves_no_trace_in_the_cache(
    sv: Services, war, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = war.value
    u = ids(view)
    tracker = sv.tracker

    def broken(*_a, **_k):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(TrackerService, "_touch", broken)
    with pytest.raises(RuntimeError):
        tracker.record(view.id, [spend_action(view.state, u["Rifleman"], ActionUse.ATTACK)])
    monkeypatch.undo()
    assert sv.battles.events(view.id) == ()
    assert tracker.view(view.id).state.unit(u["Rifleman"]).action is ActionState.READY
    done = tracker.record(view.id, [spend_action(view.state, u["Sir Shield"], ActionUse.SPRINT)])
    assert [e.text for e in done.value.events] == ["Sir Shield (Red) Sprints"]


def _random_events(rng: random.Random, state: BattleState) -> list:
    """One plausible action: mostly legal, sometimes not (those must be refused cleanly)."""
    alive = [u for u in state.units if u.in_battle]
    own = [u for u in alive if u.player_id == state.active]
    others = [u for u in alive if u.player_id != state.active]
    pick = rng.random()
    if pick < 0.35 and own:
        unit = rng.choice(own)
        return [spend_action(state, unit.unit_id, rng.choice(list(ActionUse)))]
    if pick < 0.55 and others:
        unit = rng.choice(others)
        how = rng.choice([ActionUse.ATTACK, ActionUse.BAIL, ActionUse.PARRY, ActionUse.OTHER])
        target = rng.choice(own).unit_id if own and rng.random() < 0.7 else None
        return [spend_action(state, unit.unit_id, how, target=target)]
    if pick < 0.75 and own and others:
        return [CloseCombatAttack(rng.choice(own).unit_id, rng.choice(others).unit_id)]
    fighting = [u for u in alive if u.close_combat]
    if pick < 0.85 and fighting:
        unit = rng.choice(fighting)
        return [CounterUsed(unit.unit_id, rng.choice(sorted(unit.close_combat)))]
    unit = rng.choice(alive or state.units)
    status = rng.choice([Status.STOPPED, Status.DISRUPTED, Status.HALF_SPEED, Status.MOM])
    events: list = [StatusSet(unit.unit_id, status)]
    if rng.random() < 0.05:
        events.append(UnitKilled(unit.unit_id))
    return events


def test_random_play_with_undo_always_equals_a_replay(sv: Services, war) -> None:
    """Property: after any sequence of records, End Turns, undos and redos, the tracker's state
    is the replay of the stored events that stand, and a tracker with no cache agrees."""
    view = war.value
    rng = random.Random(20260501)
    tracker = sv.tracker
    done = {"record": 0, "refused": 0, "undo": 0, "redo": 0, "end": 0}
    for step in range(200):
        state = tracker.view(view.id).state
        roll = rng.random()
        try:
            if roll < 0.12:
                tracker.undo(view.id)
                done["undo"] += 1
            elif roll < 0.2:
                tracker.redo(view.id)
                done["redo"] += 1
            elif roll < 0.32:
                tracker.end_turn(view.id)
                done["end"] += 1
            else:
                tracker.record(view.id, _random_events(rng, state))
                done["record"] += 1
        except UserError:
            done["refused"] += 1
        if step % 10 == 0:
            # The service's own writes keep its summary of the log exact (no re-reading).
            cache = tracker._reader.caches[view.id]
            before = cache.token
            with tracker._sessions() as s:
                tracker._reader.sync_events(s, view.id, cache)
            assert cache.token == before
            current = tracker.view(view.id)
            assert current.state == standing_replay(sv, view.id)
            cold = TrackerService(sv.tracker._sessions).view(view.id)
            assert cold.state == current.state and cold.can_undo == current.can_undo
            assert cold.can_redo == current.can_redo
    assert min(done.values()) >= 5 and done["record"] >= 50, done
    assert tracker.view(view.id).state == standing_replay(sv, view.id)


def test_roll_off_shows_every_die(sv: Services, camp: Camp, war) -> None:
    result = sv.tracker.roll_off(war.value.id, TypedDice([4, 4, 2, 5]))
    assert result.order == (camp.blue.id, camp.red.id)
    assert result.lines() == ("Roll: Red 4, Blue 4", "Tie-break: Red 2, Blue 5", "Order: Blue, Red")


def test_an_undo_or_redo_step_refuses_when_another_table_recorded_since(
    sv: Services, db: Database, war
) -> None:
    """Two tables on one battle: the undo of one's action is refused once the other recorded
    after it (it is no longer the log's last); the redo of an undone action is refused once
    the other recorded over it. Each message names what happened, and nothing changes."""
    view = war.value
    u = ids(view)
    other = TrackerService(db.sessions, TickingClock())
    mine = sv.tracker.record(view.id, [spend_action(view.state, u["Sir Shield"], ActionUse.SPRINT)])
    state = other.view(view.id).state
    other.record(view.id, [spend_action(state, u["Rifleman"], ActionUse.SPRINT)])
    with pytest.raises(
        ConflictError,
        match=r"Can't undo 'Sir Shield \(Red\) Sprints': someone "
        r"else recorded 'Rifleman \(Red\) Sprints' after "
        r"it; nothing was changed",
    ):
        mine.undo()
    assert len(sv.battles.events(view.id, include_reverted=False)) == 2
    # The view's undo_seen names what its Undo takes back; stale, it is refused too.
    stale = mine.value
    assert stale.undo_seen == stale.standing_events[-1].id
    with pytest.raises(ConflictError, match="someone else recorded"):
        sv.tracker.undo(view.id, seen=stale.undo_seen)
    # Redo after the other table recorded over the undone action.
    theirs = other.undo(view.id)
    assert theirs.value.redo_seen is not None
    sv.tracker.undo(view.id)  # Sir Shield's Sprint, now the last
    redo_mine = sv.tracker.view(view.id).redo_seen
    state = other.view(view.id).state
    other.record(view.id, [spend_action(state, u["Dobbin"], ActionUse.SPRINT)])
    with pytest.raises(ConflictError, match="someone else recorded new events since"):
        sv.tracker.redo(view.id, seen=redo_mine)
    with pytest.raises(ConflictError, match=r"Can't redo 'Sir Shield \(Red\) Sprints'"):
        mine.redo()
    assert [e.text for e in sv.tracker.view(view.id).events] == ["Dobbin (Red) Sprints"]


def test_a_view_says_which_units_changed_since_another(sv: Services, war) -> None:
    view = war.value
    u = ids(view)
    after = sv.tracker.record(
        view.id,
        [
            spend_action(view.state, u["Rifleman"], ActionUse.ATTACK),
            StatusSet(u["Blue 2"], Status.DISRUPTED),
        ],
    ).value
    assert after.changed_units(view) == (u["Rifleman"], u["Blue 2"])
    assert after.changed_units(after) == ()
    # A new turn changes what every row says (the active player, who can respond).
    sv.tracker.end_turn(view.id)
    assert sv.tracker.view(view.id).changed_units(after) is None


def test_who_acts_first_and_an_overruled_warning_stay_in_the_log(
    sv: Services, db: Database, war
) -> None:
    # 4.3 Who Acts First and the warnings the organizer may overrule change no state: they
    # are stored, read back by another tracker (a reopened database) and undone as one step.
    from brikdesk.domain.battle import CounterUse, FirstToAct, WarningOverruled

    bid, u = war.value.id, ids(war.value)
    knight, blue = u["Sir Shield"], u["Blue 1"]
    sv.tracker.record(bid, [CloseCombatAttack(knight, blue)])
    sv.tracker.record(
        bid, [FirstToAct(blue, knight, reason="the enemy is still an inch or more from acting")]
    )
    before = sv.tracker.state(bid)
    done = sv.tracker.record(
        bid,
        [
            CounterUsed(blue, knight, CounterUse.PARRY),
            WarningOverruled(blue, "Check the shield", "5.2 Parrying"),
        ],
    )
    assert done.text.startswith("Blue 1 (Blue) uses a Counter")
    other = TrackerService(db.sessions, TickingClock())
    texts = [e.text for e in other.view(bid).standing_events]
    assert texts[-3:] == [
        "Who acts first: Blue 1 (Blue) acts before Sir Shield (Red) (the enemy is still an "
        "inch or more from acting)",
        "Blue 1 (Blue) uses a Counter: Parries Sir Shield (Red)",
        "Warning overruled by the organizer for Blue 1 (Blue): Check the shield (5.2 Parrying)",
    ]
    sv.tracker.undo(bid)
    assert sv.tracker.state(bid) == before
    assert [e.text for e in sv.tracker.view(bid).standing_events][-1].startswith("Who acts")


def test_an_event_gone_between_two_reads_of_the_log_is_read_again(
    sv: Services, db: Database, war, monkeypatch
) -> None:
    """On PostgreSQL each read sees what was committed before it: the log's order can list an
    undone event that another table's new action dropped by the time its details are read
    (the two-organizer test once saw the view fail there). The view reads the log again."""
    view = war.value
    u = ids(view)
    other = TrackerService(db.sessions, TickingClock())
    other.record(view.id, [spend_action(view.state, u["Rifleman"], ActionUse.ATTACK)])
    other.record(view.id, [spend_action(view.state, u["Sir Shield"], ActionUse.ATTACK)])
    other.undo(view.id)
    real = LogReader.read_rows
    reads: list[list[int]] = []

    def gone_once(self, s, cache, wanted):
        reads.append(list(wanted))
        if len(reads) == 1:  # the undone event's row is not there any more
            wanted = wanted[:-1]
        real(self, s, cache, wanted)

    monkeypatch.setattr(LogReader, "read_rows", gone_once)
    seen = sv.tracker.view(view.id)
    assert len(reads) == 2 and reads[1][-1] == reads[0][-1]  # read again, all of it
    assert [(e.text, e.reverted) for e in seen.events] == [
        ("Rifleman (Red) attacks", False),
        ("Sir Shield (Red) attacks", True),
    ]
