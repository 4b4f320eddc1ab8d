"""Storage benchmark: a campaign with 10,000 units (prints numbers; not a timed test).

    .venv/bin/python benchmarks/bench_storage.py [--units 10000] [--db URL]

Reports, for one army of ``--units`` units with varied loadouts:

- the time to load the army's roster summaries (rows with stats, cost and warnings, the roster
  window's data; target under 300 ms) and the peak memory of that load (tracemalloc: what the
  load allocates), with the process's peak resident memory for scale;
- the median time of a single-unit edit transaction (``edit_unit``, target under 10 ms), and
  of a few other single actions (add one unit, undo of a delete of one unit);
- creating the units, exporting and checking the campaign file, for scale.

By default it uses a fresh SQLite file in a temporary folder (deleted afterwards).
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from speed_rule import quick

from brikdesk.domain.roster import Loadout
from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from brikdesk.services.roster import UnitPatch

KINDS = [
    ("minifig", Loadout(("hand-weapon", "shield"), ("body-armor",))),
    ("minifig", Loadout(("long-ranged-weapon",))),
    ("minifig", Loadout(("short-ranged-weapon", "hand-weapon"))),
    ("minifig", Loadout(("two-handed-weapon",), ("body-armor",))),
    ("minifig", Loadout(("explosive", "explosive"), (), ("explosive",))),
    ("hero", Loadout(("heavy-weapon", "shield"), ("heavy-armor",))),
    ("heavy", Loadout(("heavy-weapon",), ("body-armor", "heavy-armor"))),
    ("skirmisher", Loadout(("short-ranged-weapon",))),
    ("cannon-fodder", Loadout(("random-object",))),
    ("incompetent", Loadout()),
    ("horse", Loadout((), ("body-armor",))),
    ("minifig", Loadout(("long-ranged-weapon", "shield"))),  # a warning: too many hands
]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def timed(call, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        call()
        out.append(time.perf_counter() - t)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", type=int, default=quick(10_000, 50))
    ap.add_argument("--db", help="database URL (default: a temporary SQLite file)")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    url = args.db or f"sqlite:///{Path(tmp.name) / 'bench.sqlite3'}"
    db = open_database(url)
    sv = Services.open(db)
    print(f"Database: {db.display_name}")
    print(f"Python {sys.version.split()[0]}, {args.units} units in one army\n")

    c = sv.campaigns.create_campaign(f"Benchmark {time.time():.0f}", default_budget=100_000).value
    p = sv.campaigns.add_player(c.id, "Organizer").value
    army = sv.campaigns.add_army(p.id, "The Horde").value
    small = sv.campaigns.add_army(p.id, "The Patrol").value
    t = time.perf_counter()
    per_kind = args.units // len(KINDS)
    for i, (type_key, lo) in enumerate(KINDS):
        n = per_kind if i < len(KINDS) - 1 else args.units - per_kind * (len(KINDS) - 1)
        sv.roster.add_units(army.id, type_key, n, loadout=lo)
    create = time.perf_counter() - t
    sv.roster.add_units(small.id, "minifig", 12, loadout=KINDS[0][1])

    # Roster load: the first (cold caches) and the median of the next ones.
    gc.collect()
    t = time.perf_counter()
    roster = sv.roster.roster(army.id)
    first = time.perf_counter() - t
    loads = timed(lambda: sv.roster.roster(army.id), 7)
    small_loads = timed(lambda: sv.roster.roster(small.id), 21)
    assert len(roster.units) == args.units
    warned = sum(1 for u in roster.units if u.warnings)
    del roster
    gc.collect()
    tracemalloc.start()
    roster = sv.roster.roster(army.id)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    ids = [u.id for u in roster.units]
    edits = []
    for i in range(200):
        uid = ids[(i * 37) % len(ids)]
        t = time.perf_counter()
        sv.roster.edit_unit(uid, UnitPatch(name=f"Edited {i}"))
        edits.append(time.perf_counter() - t)
    loadout_edits = []
    for i in range(100):
        uid = ids[(i * 53) % len(ids)]
        t = time.perf_counter()
        sv.roster.edit_unit(uid, UnitPatch(loadout=KINDS[i % 5][1]))
        loadout_edits.append(time.perf_counter() - t)
    adds = timed(lambda: sv.roster.add_unit(army.id, "minifig"), 50)
    undo_delete = []
    for i in range(50):
        done = sv.roster.delete_units([ids[(i * 7) % len(ids)]])
        t = time.perf_counter()
        done.undo()
        undo_delete.append(time.perf_counter() - t)

    t = time.perf_counter()
    text = sv.transfer.export_json(c.id)
    export = time.perf_counter() - t
    t = time.perf_counter()
    sv.transfer.check(text)
    check = time.perf_counter() - t

    med = statistics.median
    print(f"Create {args.units} units (bulk add)          {ms(create)}")
    print(f"Roster of {args.units} units: first load       {ms(first)}")
    print(f"Roster of {args.units} units: median of 7      {ms(med(loads))}   target < 300 ms")
    print(f"Roster of 12 units: median of 21            {ms(med(small_loads))}")
    print(
        f"Roster load peak memory (tracemalloc)       {peak / 1e6:8.1f} MB "
        f"({len(roster.units)} rows, {warned} with warnings)"
    )
    print(
        f"Process peak resident memory (whole run)    "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:8.1f} MB"
    )
    print(
        f"Single-unit edit (rename): median of 200    {ms(med(edits))}   target < 10 ms"
        f"   (95th percentile {ms(sorted(edits)[int(0.95 * len(edits))]).strip()})"
    )
    print(f"Single-unit edit (loadout): median of 100   {ms(med(loadout_edits))}")
    print(f"Add one unit: median of 50                  {ms(med(adds))}")
    print(f"Undo a one-unit delete: median of 50        {ms(med(undo_delete))}")
    print(f"Export the campaign ({len(text) / 1e6:.1f} MB)            {ms(export)}")
    print(f"Check the export for import                 {ms(check)}")
    db.close()
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
