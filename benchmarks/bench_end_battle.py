"""Benchmark: End battle on a battle of 500 units, and its Undo and Redo.

The battle of ``bench_table_flow`` (500 minifigs, two players) after six End Turns; the post-
battle update as the End battle dialog proposes it (``AftermathService.finish``: the units'
fates, kills and battles fought, each army's numbers before and after), then its Undo (the
battle reopened) and Redo. Each runs on the GUI thread when the organizer ends the battle,
so each is a wait the organizer sees. Medians of ``RUNS`` fresh copies, in ms:

    END_BATTLE finish_ms=X undo_ms=Y redo_ms=Z

Run: .venv/bin/python benchmarks/bench_end_battle.py
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_table_flow import build
from speed_rule import quick

from brikdesk.persistence.db import open_database
from brikdesk.services import Services

RUNS = quick(5, 1)
TURNS = quick(6, 2)
UNITS = quick(500, 20)


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    template = folder / "template.sqlite3"
    battle_id, _names = build(template, UNITS)
    finish, undo, redo = [], [], []
    for i in range(RUNS):
        copy = folder / f"run{i}.sqlite3"
        shutil.copyfile(template, copy)
        db = open_database(f"sqlite:///{copy}")
        sv = Services.open(db)
        for _ in range(TURNS):
            sv.tracker.end_turn(battle_id)
        am = sv.aftermath.aftermath(battle_id)
        t0 = time.perf_counter()
        done = sv.aftermath.finish(battle_id, am.proposal, am.basis)
        t1 = time.perf_counter()
        done.undo()
        t2 = time.perf_counter()
        done.redo()
        t3 = time.perf_counter()
        finish.append((t1 - t0) * 1000)
        undo.append((t2 - t1) * 1000)
        redo.append((t3 - t2) * 1000)
        db.close()
    shutil.rmtree(folder, ignore_errors=True)
    print(
        f"END_BATTLE finish_ms={statistics.median(finish):.0f} "
        f"undo_ms={statistics.median(undo):.0f} redo_ms={statistics.median(redo):.0f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
