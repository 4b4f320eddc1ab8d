"""What each process of a concurrency test does: real processes (``spawn``), each opening the
database itself and writing through the services, as two BrikDesks (or a BrikDesk and the
command line) on one campaign would.

A worker gets the database URL, a start barrier (so the processes really overlap) and a queue
for its result: a :class:`Tally` of calls made, applied, refused as conflicts, refused by the
rules, busy errors, and anything else (which the tests require to be none).
"""

from __future__ import annotations

import multiprocessing
import random
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The start method of every concurrency test: a fresh interpreter, as a second app would be.
CONTEXT = multiprocessing.get_context("spawn")


@dataclass
class Tally:
    calls: int = 0
    applied: int = 0
    conflicts: int = 0
    refused: int = 0  # by the rules (a RuleViolation) or a name/position rule
    busy: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    messages: list[str] = field(default_factory=list)  # a few conflict messages, to check
    extra: dict[str, Any] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        for name in ("calls", "applied", "conflicts", "refused", "busy"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.errors += other.errors
        self.messages += other.messages
        self.seconds = max(self.seconds, other.seconds)


def _services(url: str):
    from brikdesk.persistence.db import open_database
    from brikdesk.services import Services

    db = open_database(url)
    return db, Services.open(db)


def _call(tally: Tally, action: Callable[[], Any]) -> Any:
    """Run one service call and count how it ended."""
    from brikdesk.domain.battle import RuleViolation
    from brikdesk.errors import BusyError, ConflictError, UserError

    tally.calls += 1
    try:
        out = action()
    except ConflictError as exc:
        tally.conflicts += 1
        if len(tally.messages) < 5:
            tally.messages.append(str(exc))
        return None
    except RuleViolation:
        tally.refused += 1
        return None
    except BusyError:
        tally.busy += 1
        return None
    except UserError as exc:
        tally.errors.append(f"UserError: {exc}")
        return None
    tally.applied += 1
    return out


def run(worker: Callable[..., Tally], url: str, barrier, queue, *args: Any) -> None:
    """Process entry point: run ``worker`` and put its tally (or the traceback) on ``queue``."""
    try:
        db, sv = _services(url)
        try:
            barrier.wait(timeout=60)
            start = time.perf_counter()
            tally = worker(sv, *args)
            tally.seconds = time.perf_counter() - start
        finally:
            db.close()
        queue.put(tally)
    except BaseException:  # the test reports it
        queue.put(Tally(errors=[traceback.format_exc()]))


def run_all(
    url: str, jobs: list[tuple[Callable[..., Tally], tuple[Any, ...]]], timeout: float = 120
) -> list[Tally]:
    """Start one process per job at once (a barrier lines them up) and collect their tallies."""
    barrier = CONTEXT.Barrier(len(jobs))
    queue = CONTEXT.Queue()
    procs = [
        CONTEXT.Process(target=run, args=(worker, url, barrier, queue, *args))
        for worker, args in jobs
    ]
    for p in procs:
        p.start()
    tallies = [queue.get(timeout=timeout) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    return tallies


# -- the workers ---------------------------------------------------------------------------------


def edit_own_unit(sv, unit_id: int, n: int) -> Tally:
    """Edit one's own unit ``n`` times (the name and the kills), each from a fresh read."""
    from brikdesk.services.roster import UnitPatch

    tally = Tally()
    for i in range(n):
        row = sv.roster.unit_rows([unit_id])[0]
        _call(
            tally,
            lambda row=row, i=i: sv.roster.edit_unit(
                unit_id,
                UnitPatch(name=f"{row.name.split(' #')[0]} #{i}", kills=i),
                version=row.version,
            ),
        )
    return tally


def edit_same_unit(sv, unit_id: int, n: int, me: str) -> Tally:
    """Rename the unit everyone edits, each time from a fresh read of it."""
    from brikdesk.services.roster import UnitPatch

    tally = Tally()
    for i in range(n):
        row = sv.roster.unit_rows([unit_id])[0]
        if random.random() < 0.5:
            time.sleep(0.001)  # a user looks at the row before typing
        _call(
            tally,
            lambda row=row, i=i: sv.roster.edit_unit(
                unit_id, UnitPatch(name=f"{me} {i}"), version=row.version
            ),
        )
    return tally


def add_one_kill(sv, unit_id: int, n: int) -> Tally:
    """Read the unit's kills, write kills + 1 (with the version read)."""
    from brikdesk.services.roster import UnitPatch

    tally = Tally()
    for _ in range(n):
        row = sv.roster.unit_rows([unit_id])[0]
        _call(
            tally,
            lambda row=row: sv.roster.edit_unit(
                unit_id, UnitPatch(kills=row.kills + 1), version=row.version
            ),
        )
    return tally


def add_units(sv, army_id: int, n: int) -> Tally:
    """Add units to the army everyone adds to: one by name pattern, sometimes two at once."""
    tally = Tally()
    added = 0
    for i in range(n):
        count = 2 if i % 5 == 0 else 1
        done = _call(
            tally, lambda count=count: sv.roster.add_units(army_id, "minifig", count, "Trooper {n}")
        )
        if done is not None:
            added += len(done.value)
    tally.extra["units"] = added
    return tally


def add_players(sv, campaign_id: int, names: list[str]) -> Tally:
    """Add players by name; a name the other process took first is refused (counted as
    ``refused``, with the message kept in ``extra``)."""
    from brikdesk.errors import UserError

    tally = Tally()
    for name in names:
        tally.calls += 1
        try:
            sv.campaigns.add_player(campaign_id, name)
        except UserError as exc:
            tally.refused += 1
            tally.extra.setdefault("refusals", []).append(str(exc))
            continue
        tally.applied += 1
    return tally


def add_custom_items(sv, campaign_id: int, n: int) -> Tally:
    """Add custom items all called "Laser Pike": each gets its own key."""
    tally = Tally()
    for _ in range(n):
        _call(tally, lambda: sv.catalog.add_custom_item(campaign_id, "Laser Pike"))
    return tally


def rename_then_undo(sv, unit_id: int, rounds: int, me: str, first: bool, barrier) -> Tally:
    """Round by round: the first process renames, the second renames after it, then the first
    undoes its rename (which must be refused: it would wipe the second's name)."""
    from brikdesk.services.roster import UnitPatch

    tally = Tally()
    for r in range(rounds):
        if first:
            done = sv.roster.edit_unit(unit_id, UnitPatch(name=f"{me} {r}"))
        barrier.wait(timeout=30)
        if not first:
            sv.roster.edit_unit(unit_id, UnitPatch(name=f"{me} {r}"))
        barrier.wait(timeout=30)
        if first:
            _call(tally, done.undo)
        barrier.wait(timeout=30)
    return tally


def record_events(sv, battle_id: int, n: int, seed: int) -> Tally:
    """A table recording for a battle another table records for too: mostly Sprints of the
    active player's units that are still ready (as this table's view, maybe stale, shows
    them), the end of the turn when none is left, now and then an undo of what this table saw
    as the last action."""
    from brikdesk.domain.battle import ActionState, ActionUse, spend_action

    rng = random.Random(seed)
    tally = Tally()
    undone = 0
    for _ in range(n):
        view = sv.tracker.view(battle_id)
        state = view.state
        ready = [
            u.unit_id
            for u in state.units
            if u.player_id == state.active and u.in_battle and u.action is ActionState.READY
        ]
        pick = rng.random()
        if pick < 0.1 and view.standing_events:
            last = view.standing_events[-1].id
            if _call(tally, lambda last=last: sv.tracker.undo(battle_id, seen=last)):
                undone += 1
        elif ready and pick < 0.85:
            unit = rng.choice(ready)
            event = spend_action(state, unit, ActionUse.SPRINT)
            _call(tally, lambda event=event: sv.tracker.record(battle_id, [event]))
        else:
            _call(tally, lambda: sv.tracker.end_turn(battle_id))
    tally.extra["undone"] = undone
    return tally


# -- one-shot actions of "the other organizer" (End battle tests) --------------------------------


def other_organizer(url: str, action: str, args: tuple[Any, ...], queue) -> None:
    """Process entry point: open the database and do one thing another organizer does while
    this one's End battle dialog is open; put "ok" or the traceback on ``queue``."""
    try:
        db, sv = _services(url)
        try:
            if action == "kill":  # the tracker records a kill
                from brikdesk.domain.battle import UnitKilled

                battle_id, target, killer = args
                sv.tracker.record(battle_id, [UnitKilled(target, killer)])
            elif action == "dead":  # the roster marks a campaign unit dead
                from brikdesk.domain.statuses import UnitStatus
                from brikdesk.services.roster import UnitPatch

                (unit_id,) = args
                sv.roster.edit_unit(unit_id, UnitPatch(status=UnitStatus.DEAD))
            elif action == "notes":  # the roster writes in a campaign unit's notes
                from brikdesk.services.roster import UnitPatch

                unit_id, notes = args
                sv.roster.edit_unit(unit_id, UnitPatch(notes=notes))
            elif action == "end_turn":  # the tracker ends the turn
                (battle_id,) = args
                sv.tracker.end_turn(battle_id)
            elif action == "undo":  # the tracker undoes the last event
                (battle_id,) = args
                sv.tracker.undo(battle_id)
            else:
                raise ValueError(action)
        finally:
            db.close()
        queue.put("ok")
    except BaseException:
        queue.put(traceback.format_exc())


def as_other_organizer(url: str, action: str, *args: Any, timeout: float = 60) -> None:
    """Run :func:`other_organizer` in a new process and wait for it (bounded)."""
    queue = CONTEXT.Queue()
    proc = CONTEXT.Process(target=other_organizer, args=(url, action, args, queue))
    proc.start()
    try:
        answer = queue.get(timeout=timeout)
    finally:
        proc.join(timeout=30)
        if proc.is_alive():
            proc.kill()
    assert answer == "ok", answer


def renamer(url: str, unit_id: int, orders, answers) -> None:
    """Process entry point: another BrikDesk that renames ``unit_id`` on each order ("rename
    N") and answers "ok N"; "stop" ends it. Bounded: it waits at most a minute for an order."""
    try:
        from brikdesk.services.roster import UnitPatch

        db, sv = _services(url)
        try:
            answers.put("ready")
            while True:
                order = orders.get(timeout=60)
                if order == "stop":
                    break
                n = int(order.split()[1])
                sv.roster.edit_unit(unit_id, UnitPatch(name=f"Renamed elsewhere {n}"))
                answers.put(f"ok {n}")
        finally:
            db.close()
    except BaseException:
        answers.put(traceback.format_exc())


@contextmanager
def sqlite_lock_held(
    path: Path, begin: str = "BEGIN IMMEDIATE", seconds: float = 30
) -> Iterator[None]:
    """Another program (a real process) holds ``begin``'s lock on the SQLite file ``path``
    inside the block (at most ``seconds``)."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sqlite3, sys, time\n"
                "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                "c.execute(sys.argv[2]); print('locked', flush=True)\n"
                "time.sleep(float(sys.argv[3]))\n"
            ),
            str(path),
            begin,
            str(seconds),
        ],
        stdout=subprocess.PIPE,
        encoding="utf-8",
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        yield
    finally:
        holder.kill()
        holder.wait(timeout=10)


def missed_refreshes(url: str, sv, theirs: int, mine: int, rounds: int) -> tuple[int, int]:
    """Round by round, another process (:func:`renamer`) renames ``theirs``, then this app
    (``sv``, watched) edits ``mine`` in the same campaign before it polls: (how many of those
    polls missed the rename, how many polls after this app's own edit alone said changed)."""
    from brikdesk.services.roster import UnitPatch

    watch = sv.change_watch()
    orders, answers = CONTEXT.Queue(), CONTEXT.Queue()
    other = CONTEXT.Process(target=renamer, args=(url, theirs, orders, answers))
    other.start()
    missed = needless = 0
    try:
        assert answers.get(timeout=60) == "ready"
        watch.poll()
        for n in range(rounds):
            orders.put(f"rename {n}")
            assert answers.get(timeout=30) == f"ok {n}"
            sv.roster.edit_unit(mine, UnitPatch(notes=f"note {n}"))  # this app, just after
            missed += watch.poll() is False
            sv.roster.edit_unit(mine, UnitPatch(notes=f"again {n}"))  # this app alone
            needless += watch.poll() is True
        orders.put("stop")
    finally:
        other.join(timeout=30)
        if other.is_alive():
            other.kill()
        watch.close()
    return missed, needless
