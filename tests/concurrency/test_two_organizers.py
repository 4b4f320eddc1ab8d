"""Two organizers on one campaign, as real processes (``spawn``), writing through the services.

Each test runs on SQLite, and on PostgreSQL when ``BRIKDESK_TEST_DB_URL`` is set
(``tests/databases.py``). What must hold, whatever the interleaving: no busy error under
ordinary contention, no lost update (every applied edit is in the database; an edit from a
stale view is refused as a conflict, never silently overwritten), no duplicate position or
name, and a battle log whose events are in one order, each valid by the rules, ``seq`` unique.
Each test prints its numbers (``pytest -s`` shows them).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from brikdesk.domain.battle import replay
from brikdesk.persistence.db import Database, open_database
from brikdesk.persistence.models import BattleEvent, Unit
from brikdesk.services import Services
from brikdesk.services.summaries import Muster
from tests.concurrency import workers
from tests.concurrency.workers import Tally, run_all
from tests.databases import fresh_url

CALLS = 60  # per process


@pytest.fixture
def campaign(tmp_path: Path):
    """A database (SQLite file or server schema) with a campaign of two players and armies."""
    url = fresh_url(tmp_path, "shared")
    db = open_database(url)
    sv = Services.open(db)
    c = sv.campaigns.create_campaign("Shared").value
    red = sv.campaigns.add_player(c.id, "Red").value
    blue = sv.campaigns.add_player(c.id, "Blue").value
    red_army = sv.campaigns.add_army(red.id, "Red Army").value
    blue_army = sv.campaigns.add_army(blue.id, "Blue Army").value
    yield url, db, sv, (red, blue, red_army, blue_army)
    db.close()


def total(tallies: list[Tally], label: str, lost: int = 0) -> Tally:
    out = Tally()
    for t in tallies:
        out.add(t)
    print(
        f"\n{label}: {len(tallies)} processes, calls {out.calls}, applied {out.applied}, "
        f"conflicts {out.conflicts}, refused {out.refused}, busy {out.busy}, "
        f"lost {lost}, {out.seconds:.2f} s"
    )
    assert out.errors == [], out.errors[0]
    assert out.calls == out.applied + out.conflicts + out.refused + out.busy
    return out


def unit_row(db: Database, unit_id: int) -> Unit:
    with db.sessions() as s:
        u = s.get(Unit, unit_id)
        assert u is not None
        s.expunge(u)
        return u


def test_each_editing_their_own_units_never_waits_into_an_error(campaign) -> None:
    url, db, sv, (_red, _blue, red_army, blue_army) = campaign
    [a] = sv.roster.add_unit(red_army.id, "minifig", name="Ann").value
    [b] = sv.roster.add_unit(blue_army.id, "minifig", name="Bob").value
    tallies = run_all(
        url, [(workers.edit_own_unit, (a, CALLS)), (workers.edit_own_unit, (b, CALLS))]
    )
    out = total(tallies, "own units")
    assert (out.applied, out.conflicts, out.busy) == (2 * CALLS, 0, 0)
    for uid, name in ((a, "Ann"), (b, "Bob")):
        row = unit_row(db, uid)
        assert (row.name, row.kills, row.version) == (f"{name} #{CALLS - 1}", CALLS - 1, 1 + CALLS)


def test_editing_the_same_unit_refuses_conflicts_and_loses_none(campaign) -> None:
    url, db, sv, (_red, _blue, red_army, _ba) = campaign
    [uid] = sv.roster.add_unit(red_army.id, "minifig", name="Contested").value
    tallies = run_all(
        url,
        [
            (workers.edit_same_unit, (uid, CALLS, "Ann")),
            (workers.edit_same_unit, (uid, CALLS, "Bob")),
        ],
    )
    row = unit_row(db, uid)
    # Every applied edit raised the version once: none was overwritten unseen.
    lost = sum(t.applied for t in tallies) - (row.version - 1)
    out = total(tallies, "same unit", lost)
    assert lost == 0 and out.busy == 0
    # A write refuses at most the other process's one call in flight: conflicts <= applied.
    assert out.applied >= CALLS
    assert all("changed by someone else since you opened it" in m for m in out.messages)


def test_read_then_write_counts_every_applied_increment(campaign) -> None:
    """Kills + 1 from two processes: the final count is exactly the increments applied."""
    url, db, sv, (_red, _blue, red_army, _ba) = campaign
    [uid] = sv.roster.add_unit(red_army.id, "minifig", name="Counter").value
    tallies = run_all(
        url, [(workers.add_one_kill, (uid, CALLS)), (workers.add_one_kill, (uid, CALLS))]
    )
    kills = unit_row(db, uid).kills
    applied = sum(t.applied for t in tallies)
    out = total(tallies, "read-then-write", applied - kills)
    assert kills == out.applied and out.busy == 0


def test_adding_units_at_once_gives_distinct_positions_and_names(campaign) -> None:
    url, db, sv, (_red, _blue, red_army, _ba) = campaign
    tallies = run_all(
        url, [(workers.add_units, (red_army.id, CALLS)), (workers.add_units, (red_army.id, CALLS))]
    )
    out = total(tallies, "adds")
    assert out.applied == 2 * CALLS and out.busy == 0
    units = sv.roster.roster(red_army.id).units
    added = sum(t.extra["units"] for t in tallies)
    assert len(units) == added
    positions = [u.position for u in units]
    names = [u.name for u in units]
    assert sorted(positions) == list(range(1, added + 1))
    # Named as one app would: "Trooper 1" ... "Trooper N", each once.
    assert sorted(names, key=lambda n: int(n.split()[-1])) == [
        f"Trooper {i}" for i in range(1, added + 1)
    ]


def test_adding_players_of_the_same_names_at_once_keeps_each_name_once(campaign) -> None:
    url, db, sv, (red, _blue, _ra, _ba) = campaign
    names = [f"Player {i}" for i in range(30)]
    tallies = run_all(
        url,
        [
            (workers.add_players, (red.campaign_id, names)),
            (workers.add_players, (red.campaign_id, names)),
        ],
    )
    out = total(tallies, "players")
    assert (out.applied, out.refused, out.busy) == (30, 30, 0)
    refusals = [m for t in tallies for m in t.extra.get("refusals", [])]
    assert all(m.startswith("this campaign already has a player called") for m in refusals)
    players = [p.name for p in sv.campaigns.list_players(red.campaign_id)]
    assert sorted(players) == sorted(["Red", "Blue", *names])


def test_custom_items_of_one_name_added_at_once_get_distinct_keys(campaign) -> None:
    url, db, sv, (red, _blue, _ra, _ba) = campaign
    tallies = run_all(
        url,
        [
            (workers.add_custom_items, (red.campaign_id, 15)),
            (workers.add_custom_items, (red.campaign_id, 15)),
        ],
    )
    out = total(tallies, "custom items")
    assert (out.applied, out.busy) == (30, 0)
    keys = [e.key for e in sv.catalog.view(red.campaign_id).items if e.custom]
    assert len(keys) == len(set(keys)) == 30


def test_an_undo_after_anothers_rename_is_refused_every_time(campaign) -> None:
    url, db, sv, (_red, _blue, red_army, _ba) = campaign
    [uid] = sv.roster.add_unit(red_army.id, "minifig", name="Sir Brickley").value
    rounds = 10
    barrier = workers.CONTEXT.Barrier(2)
    tallies = run_all(
        url,
        [
            (workers.rename_then_undo, (uid, rounds, "Ann", True, barrier)),
            (workers.rename_then_undo, (uid, rounds, "Bob", False, barrier)),
        ],
    )
    out = total(tallies, "undo after another's edit")
    assert (out.calls, out.conflicts, out.applied) == (rounds, rounds, 0)
    assert out.messages[0] == (
        "Ann 0 was renamed to 'Bob 0' by someone else since you changed it; nothing was changed"
    )
    assert unit_row(db, uid).name == f"Bob {rounds - 1}"


def test_two_tables_recording_one_battle_land_in_one_valid_order(campaign) -> None:
    url, db, sv, (red, blue, red_army, blue_army) = campaign
    reds = sv.roster.add_units(red_army.id, "minifig", 4).value
    blues = sv.roster.add_units(blue_army.id, "minifig", 4).value
    battle = sv.tracker.begin(
        red.campaign_id, "Crossfire", [Muster(red.id, reds), Muster(blue.id, blues)]
    ).value
    tallies = run_all(
        url,
        [
            (workers.record_events, (battle.id, CALLS, 1)),
            (workers.record_events, (battle.id, CALLS, 2)),
        ],
    )
    out = total(tallies, "battle events")
    assert out.busy == 0
    with db.sessions() as s:
        seqs = s.scalars(
            select(BattleEvent.seq)
            .where(BattleEvent.battle_id == battle.id)
            .order_by(BattleEvent.seq)
        ).all()
    assert len(seqs) == len(set(seqs)), "a seq was given twice"
    # The stored log, read afresh by a new tracker, is valid by the rules in its one order.
    fresh = Services.open(db)
    view = fresh.tracker.view(battle.id)
    assert all(e.problem is None for e in view.events), [e.problem for e in view.events]
    standing = [e.event for e in view.standing_events]
    assert replay(view.setup, standing) == view.state
    # Every applied record and end of turn added one event; every applied undo took one back.
    undone = sum(t.extra["undone"] for t in tallies)
    assert len(standing) == out.applied - 2 * undone


@pytest.mark.sqlite_only  # SQLite's write lock and busy timeout
def test_a_write_waits_for_another_writer_instead_of_failing(tmp_path: Path) -> None:
    """Another program holds the write lock for half a second: the action waits it out."""
    url = f"sqlite:///{tmp_path / 'wait.sqlite3'}"
    db = open_database(url)
    sv = Services.open(db)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sqlite3, sys, time\n"
                f"c = sqlite3.connect({str(tmp_path / 'wait.sqlite3')!r}, isolation_level=None)\n"
                "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True)\n"
                "time.sleep(0.5); c.execute('COMMIT')\n"
            ),
        ],
        stdout=subprocess.PIPE,
        encoding="utf-8",
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        start = time.perf_counter()
        done = sv.campaigns.create_campaign("Patient")
        waited = time.perf_counter() - start
    finally:
        holder.wait(timeout=10)
        db.close()
    assert done.value.name == "Patient" and waited > 0.2
