"""Benchmark: several BrikDesk processes writing one campaign at once (prints numbers; not a test).

    .venv/bin/python benchmarks/bench_concurrency.py [--edits 500] [--procs 2 4]
        [--scenario own same increment adds] [--pg URL | --no-pg] [--versions auto|yes|no]

Real processes (not threads), each with its own engine and ``Services``, call the services'
public API at the same moment (a barrier), ``--edits`` calls each, in four scenarios:

- ``own``: each process renames its own five units, from its view (read the row, then write);
- ``same``: every process renames the same unit, from its view;
- ``increment``: every process adds 1 to the same unit's kills (read kills, write kills + 1);
- ``adds``: every process adds units to the same army.

Per run it prints the calls made, how many were applied, refused as conflicts
(``ConflictError``: the view was stale), refused as busy (``BusyError``, or a ``StorageError``
saying busy/locked), other errors, the lost updates, and the median and p95 latency of one
write call, refused calls included (the read of the view is not timed; a SQLite "busy" that
comes without waiting returns at once and pulls the median down). Lost updates are computed from the final
database against the applied calls and must be 0:

- a rename or an increment is lost when another applied write replaced it without having read
  it: every applied rename must be read by a later applied rename or be the final name; for
  kills, ``applied - (final - initial)``;
- an add is lost when its unit is not in the army at the end; duplicate names and positions
  among the army's units are printed beside it (``dup n/p``).

Once the services take the version of what the view showed (``edit_unit(..., version=...)``
and a ``version`` on the rows), the renames and increments pass it, so that a stale view is
refused instead of overwriting (``--versions auto`` detects it; ``yes`` requires it).

After the table, per backend, the cases of a shared campaign that are not about throughput
(``--cases``, on by default; ``--rounds`` of each):

- stale End battle: another process ends the turn while this one's End battle dialog is open;
  finishing from the dialog's basis must be refused every time (``refused n of N``);
- missed refreshes: another process renames a unit, then this app saves something in the same
  campaign within the same poll; the next poll must say "changed elsewhere" (``missed n of N``;
  and ``needless`` reloads after this app's own writes alone);
- reads during a write (SQLite): another process holds ``BEGIN IMMEDIATE``; the history, the End
  battle dialog's reading, its promotion preview and the export each run and are timed (a read
  that waited for the lock would take the 5 s busy timeout).

Backends: SQLite (a fresh file per run in a temporary folder) always; PostgreSQL with ``--pg URL``
or ``BRIKDESK_TEST_DB_URL`` (a database the benchmark may write to: each run makes its own
campaign in it and deletes it afterwards).
"""

from __future__ import annotations

import argparse
import inspect
import multiprocessing as mp
import os
import statistics
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from speed_rule import QUICK, quick

from brikdesk.errors import BusyError, ConflictError, StorageError
from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from brikdesk.services.roster import RosterService, UnitPatch

SCENARIOS = ("own", "same", "increment", "adds")
OWN_UNITS = 5  # units per process in the "own" scenario
UNIT_TYPE = "minifig"


@dataclass
class Plan:
    """What one run's processes work on (ids made by the parent before they start)."""

    url: str
    scenario: str
    edits: int
    versions: bool
    army_id: int
    units: dict[int, list[int]]  # process -> the units it renames / increments


@dataclass
class Outcome:
    """One process's calls: (seconds, kind) per call, and what each applied write read."""

    proc: int
    timings: list[tuple[float, str]] = field(default_factory=list)
    writes: list[tuple[int, Any, Any]] = field(default_factory=list)  # (unit, read, written)
    added: list[int] = field(default_factory=list)
    samples: dict[str, str] = field(default_factory=dict)  # kind -> first message
    crash: str = ""


def _kind(exc: BaseException) -> str:
    if isinstance(exc, ConflictError):
        return "conflict"
    if isinstance(exc, BusyError):
        return "busy"
    if isinstance(exc, StorageError) and any(w in str(exc).lower() for w in ("busy", "locked")):
        return "busy"
    return "other"


def takes_version() -> bool:
    """True when ``edit_unit`` accepts the version of the row the view showed."""
    return "version" in inspect.signature(RosterService.edit_unit).parameters


def _worker(proc: int, plan: Plan, start: Any, results: Any) -> None:
    out = Outcome(proc)
    db = None
    try:
        db = open_database(plan.url)
        sv = Services.open(db)
        mine = plan.units.get(proc, [])
        if mine:
            sv.roster.unit_rows(mine)  # connect and warm up before the start
        start.wait()
        for i in range(plan.edits):
            uid, read, written, patch = 0, None, None, UnitPatch()
            kwargs: dict[str, Any] = {}
            if plan.scenario != "adds":
                uid = mine[i % len(mine)]
                [row] = sv.roster.unit_rows([uid])  # the view the user edits from
                if plan.versions:
                    kwargs["version"] = row.version  # type: ignore[attr-defined]
                if plan.scenario == "increment":
                    read, written = row.kills, row.kills + 1
                    patch = UnitPatch(kills=written)
                else:
                    read, written = row.name, f"p{proc}-{i}"
                    patch = UnitPatch(name=written)
            t0 = time.perf_counter()
            try:
                if plan.scenario == "adds":
                    done: Any = sv.roster.add_unit(plan.army_id, UNIT_TYPE)
                else:
                    done = sv.roster.edit_unit(uid, patch, **kwargs)
            except Exception as exc:  # counted by kind; nothing is assumed applied
                kind = _kind(exc)
                out.samples.setdefault(kind, f"{type(exc).__name__}: {exc}"[:300])
            else:
                kind = "applied"
                if plan.scenario == "adds":
                    out.added.extend(done.value)
                else:
                    out.writes.append((uid, read, written))
            out.timings.append((time.perf_counter() - t0, kind))
    except Exception:
        out.crash = traceback.format_exc()
    finally:
        if db is not None:
            db.close()
        results.put(out)


# -- one run -------------------------------------------------------------------------------------


def prepare(url: str, scenario: str, procs: int, edits: int, versions: bool) -> tuple[Plan, int]:
    """A campaign with one army and the units the run needs; returns the plan and the
    campaign's id."""
    db = open_database(url)
    try:
        sv = Services.open(db)
        name = f"Concurrency bench {os.getpid()}-{time.time_ns()}"
        campaign = sv.campaigns.create_campaign(name).value
        player = sv.campaigns.add_player(campaign.id, "Bench").value
        army = sv.campaigns.add_army(player.id, "Shared army").value
        units: dict[int, list[int]] = {}
        if scenario == "own":
            ids = sv.roster.add_units(army.id, UNIT_TYPE, OWN_UNITS * procs).value
            units = {p: list(ids[p * OWN_UNITS : (p + 1) * OWN_UNITS]) for p in range(procs)}
        elif scenario in ("same", "increment"):
            [uid] = sv.roster.add_unit(army.id, UNIT_TYPE).value
            units = {p: [uid] for p in range(procs)}
        return Plan(url, scenario, edits, versions, army.id, units), campaign.id
    finally:
        db.close()


def lost_renames(writes: list[tuple[int, Any, Any]], final: dict[int, Any]) -> int:
    """Applied renames that no later applied rename read and that are not the final name."""
    seen = {(uid, read) for uid, read, _ in writes} | set(final.items())
    return sum((uid, written) not in seen for uid, _, written in writes)


def check(url: str, plan: Plan, outs: list[Outcome]) -> tuple[int, str]:
    """Lost updates (and, for adds, the duplicate names/positions) from the final database."""
    db = open_database(url)
    try:
        sv = Services.open(db)
        writes = [w for o in outs for w in o.writes]
        if plan.scenario == "adds":
            rows = sv.roster.roster(plan.army_id).units
            present = {r.id for r in rows}
            added = [i for o in outs for i in o.added]
            names = Counter(r.name for r in rows)
            positions = Counter(r.position for r in rows)
            dup_names = sum(n - 1 for n in names.values() if n > 1)
            dup_positions = sum(n - 1 for n in positions.values() if n > 1)
            return sum(i not in present for i in added), f"{dup_names}/{dup_positions}"
        ids = sorted({u for us in plan.units.values() for u in us})
        rows = {r.id: r for r in sv.roster.unit_rows(ids)}
        if plan.scenario == "increment":
            [uid] = ids
            return len(writes) - rows[uid].kills, ""
        return lost_renames(writes, {u: rows[u].name for u in ids}), ""
    finally:
        db.close()


def drop_campaign(url: str, campaign_id: int) -> None:
    db = open_database(url)
    try:
        Services.open(db).campaigns.delete_campaign(campaign_id)
    finally:
        db.close()


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(
    url: str, backend: str, scenario: str, procs: int, edits: int, versions: bool
) -> dict[str, Any]:
    plan, campaign_id = prepare(url, scenario, procs, edits, versions)
    ctx = mp.get_context("spawn")
    start = ctx.Barrier(procs + 1)
    results = ctx.Queue()
    workers = [ctx.Process(target=_worker, args=(p, plan, start, results)) for p in range(procs)]
    for w in workers:
        w.start()
    start.wait(timeout=120)
    t0 = time.perf_counter()
    outs = [results.get(timeout=1800) for _ in workers]
    wall = time.perf_counter() - t0
    for w in workers:
        w.join()
    for o in outs:
        if o.crash:
            print(f"process {o.proc} crashed:\n{o.crash}", file=sys.stderr)
    lost, dups = check(url, plan, outs)
    if backend == "postgresql":
        drop_campaign(url, campaign_id)
    kinds = Counter(k for o in outs for _, k in o.timings)
    seconds = [s for o in outs for s, _ in o.timings]
    samples: dict[str, str] = {}
    for o in outs:
        for k, text in o.samples.items():
            samples.setdefault(k, text)
    return dict(
        backend=backend,
        scenario=scenario,
        procs=procs,
        calls=len(seconds),
        applied=kinds["applied"],
        conflicts=kinds["conflict"],
        busy=kinds["busy"],
        other=kinds["other"],
        lost=lost,
        dups=dups,
        median=statistics.median(seconds) * 1000 if seconds else float("nan"),
        p95=pct(seconds, 0.95) * 1000,
        wall=wall,
        samples=samples,
    )


HEADER = (
    f"{'backend':<10} {'scenario':<9} {'procs':>5} {'calls':>6} {'applied':>7} "
    f"{'conflict':>8} {'busy':>5} {'other':>5} {'lost':>5} {'dup n/p':>8} "
    f"{'median ms':>9} {'p95 ms':>8} {'wall s':>7}"
)


def line(r: dict[str, Any]) -> str:
    return (
        f"{r['backend']:<10} {r['scenario']:<9} {r['procs']:>5} {r['calls']:>6} "
        f"{r['applied']:>7} {r['conflicts']:>8} {r['busy']:>5} {r['other']:>5} "
        f"{r['lost']:>5} {r['dups'] or '-':>8} {r['median']:>9.1f} {r['p95']:>8.1f} "
        f"{r['wall']:>7.1f}"
    )


def issue_cases(url: str, backend: str, rounds: int, tmp: Path) -> list[str]:
    """The shared-campaign cases (see the module docstring), one line each."""
    from brikdesk.services.demo import create_demo
    from tests.concurrency.workers import as_other_organizer, missed_refreshes, sqlite_lock_held

    db = open_database(url)
    out = []
    try:
        demo = create_demo(db)
        sv = Services.open(db)
        battle = next(b for b in sv.battles.list_battles(demo.id) if b.status == "in_progress")
        refused = 0
        for _ in range(rounds):
            am = sv.aftermath.aftermath(battle.id)
            as_other_organizer(url, "end_turn", battle.id)
            try:
                sv.aftermath.finish(battle.id, am.proposal, am.basis)
            except ConflictError:
                refused += 1
            else:
                break
        out.append(f"{backend}: stale End battle refused {refused} of {rounds}")

        army_id = sv.campaigns.list_armies(demo.id)[0].id
        theirs, mine = sv.roster.add_units(army_id, "minifig", 2, "Bench {n}").value
        missed, needless = missed_refreshes(url, sv, theirs, mine, rounds)
        out.append(
            f"{backend}: live refresh missed {missed} of {rounds}, needless reloads "
            f"{needless} of {rounds}"
        )

        path = db.engine.url.database
        if backend == "sqlite" and path:
            am = sv.aftermath.aftermath(battle.id)
            survivor = next(f.unit for f in am.proposal.fates if not f.fell)
            reads = {
                "history": lambda: sv.history.history(demo.id),
                "End battle": lambda: sv.aftermath.aftermath(battle.id),
                "promotion preview": lambda: sv.aftermath.promotion_preview(
                    battle.id, {survivor: "hero"}
                ),
                "export": lambda: sv.transfer.export_json(demo.id),
            }
            took = {}
            with sqlite_lock_held(Path(path), "BEGIN IMMEDIATE"):
                for name, read in reads.items():
                    start = time.perf_counter()
                    try:
                        read()
                        took[name] = f"{(time.perf_counter() - start) * 1e3:.0f} ms"
                    except (BusyError, StorageError):
                        took[name] = f"busy after {time.perf_counter() - start:.1f} s"
            out.append(
                f"{backend}: reads during another's write: "
                + ", ".join(f"{k} {v}" for k, v in took.items())
            )
        sv.campaigns.delete_campaign(demo.id)
    finally:
        db.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edits", type=int, default=quick(500, 5), help="calls per process (500)")
    ap.add_argument(
        "--procs",
        type=int,
        nargs="+",
        default=[2] if QUICK else [2, 4],
        help="process counts (2 4)",
    )
    ap.add_argument(
        "--scenario",
        nargs="+",
        choices=SCENARIOS,
        default=list(SCENARIOS[:1] if QUICK else SCENARIOS),
    )
    ap.add_argument(
        "--pg",
        metavar="URL",
        help="a PostgreSQL database to write to (default: $BRIKDESK_TEST_DB_URL)",
    )
    ap.add_argument("--no-pg", action="store_true", help="SQLite only")
    ap.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")
    ap.add_argument("--rounds", type=int, default=quick(50, 1), help="rounds of each case (50)")
    ap.add_argument(
        "--no-cases", action="store_true", default=QUICK, help="the throughput table only"
    )
    ap.add_argument(
        "--versions",
        choices=("auto", "yes", "no"),
        default="auto",
        help="pass the row's version to edits (auto: when the services take it)",
    )
    args = ap.parse_args(argv)

    pg = None if args.no_pg else (args.pg or os.environ.get("BRIKDESK_TEST_DB_URL") or None)
    supported = takes_version()
    if args.versions == "yes" and not supported:
        print("--versions yes: RosterService.edit_unit takes no version= yet", file=sys.stderr)
        return 2
    versions = supported if args.versions == "auto" else args.versions == "yes"
    print(
        f"{os.cpu_count()} CPUs; {args.edits} calls per process; edits pass the version: "
        f"{'yes' if versions else 'no'}" + ("" if supported else " (not supported yet)")
    )
    if pg is None and not args.no_pg:
        print("no PostgreSQL URL (--pg or BRIKDESK_TEST_DB_URL): SQLite only")
    print(HEADER)
    samples: dict[tuple[str, str], str] = {}
    with tempfile.TemporaryDirectory(prefix="brikdesk-bench-") as tmp:
        targets = [] if args.no_sqlite else [("sqlite", None)]
        if pg:
            targets.append(("postgresql", pg))
        n = 0
        for backend, server in targets:
            for scenario in args.scenario:
                for procs in args.procs:
                    n += 1
                    url = server or f"sqlite:///{Path(tmp) / f'run{n}.sqlite3'}"
                    r = run(url, backend, scenario, procs, args.edits, versions)
                    print(line(r), flush=True)
                    for kind, text in r["samples"].items():
                        samples.setdefault((backend, kind), text)
        for (backend, kind), text in samples.items():
            print(f"first {kind} error on {backend}: {text}")
        if not args.no_cases:
            for backend, server in targets:
                url = server or f"sqlite:///{Path(tmp) / 'cases.sqlite3'}"
                for text in issue_cases(url, backend, args.rounds, Path(tmp)):
                    print(text, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
