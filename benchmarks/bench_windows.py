"""Benchmark: opening the main window's other windows, at 60 and at 500 units, and a roster of
10,000 units.

Run: ``.venv/bin/python benchmarks/bench_windows.py [--runs 12] [--big 10000] [--check]``.

Offscreen (``QT_QPA_PLATFORM=offscreen`` unless set), the reference loop first (``LOOP``), then
per battle size: the roster (of an army of that many units), the catalog and the history,
each opened ``--runs`` times from the main window (as the organizer does) until painted:

    WINDOW name units=U p99_ms=X raw_ms=... wall_ms=... runs=N full_gcs=0

``p99_ms`` the 99th percentile of the openings' CPU time scaled to the rule's machine
(``speed_rule``: opening a window is a command, 100 ms); ``raw_ms`` unscaled; ``wall_ms`` the
wall time (on a busy machine it includes the wait for a core). The combat modules and charts
are imported first, as the app does on a worker once the campaign shows.

Then the big roster (``--big`` units; 0 skips it): its first opening and the median of the next
ones (target under 500 ms), sorting by each column until repainted (100 ms, the slowest
column), the memory the open window adds (150 MB). The army cycles through 15 loadouts over
every unit type, as an organizer's would. ``--check`` exits 1 when the big roster misses a
target. Start-up against the stack's floor: ``bench_start.py``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from speed_rule import QUICK, SIZES, Loop, Timer, p99, quick

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

OPEN_MS = 500.0
SORT_MS = 100.0
MEMORY_MB = 150.0

LOADOUTS = (
    ("minifig", ("hand-weapon", "shield"), (), ()),
    ("minifig", ("long-ranged-weapon",), (), ("explosive",)),
    ("minifig", ("short-ranged-weapon", "hand-weapon"), ("body-armor",), ()),
    ("hero", ("heavy-weapon", "heavy-shield"), ("body-armor",), ()),
    ("heavy", ("two-handed-weapon",), ("heavy-armor",), ()),
    ("skirmisher", ("short-ranged-weapon",), (), ("explosive", "explosive")),
    ("minifig", ("explosive", "hand-weapon"), (), ()),
    ("incompetent", ("random-object",), (), ()),
    ("cannon-fodder", ("minifig-tool",), (), ()),
    ("minifig", ("long-ranged-weapon",), ("body-armor",), ()),
    ("hero", ("long-ranged-weapon",), ("heavy-armor",), ("hand-weapon",)),
    ("minifig", ("hand-weapon", "hand-weapon"), (), ()),
    ("skirmisher", ("two-handed-weapon",), (), ()),
    ("heavy", ("heavy-weapon", "shield"), ("body-armor",), ("body-armor",)),
    ("minifig", (), (), ()),
)


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def make_army(url: str, units: int) -> int:
    """A campaign with one army of ``units`` units; returns the army's id."""
    from brikdesk.domain.roster import Loadout
    from brikdesk.persistence.db import open_database
    from brikdesk.services import Services

    db = open_database(url)
    sv = Services.open(db)
    campaign = sv.campaigns.create_campaign("Benchmarks", default_budget=100_000).value
    player = sv.campaigns.add_player(campaign.id, "Bench").value
    army = sv.campaigns.add_army(player.id, "Benchmark Legion").value
    per = -(-units // len(LOADOUTS))
    left = units
    for kind, hands, worn, carried in LOADOUTS:
        n = min(per, left)
        if n <= 0:
            break
        sv.roster.add_units(army.id, kind, n, "Trooper {n}", loadout=Loadout(hands, worn, carried))
        left -= n
    db.close()
    return army.id


def wait_painted(app, widget, timeout: float = 30.0) -> None:
    """Process events until ``widget`` (or a child) has been painted."""
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QWidget

    class Watch(QObject):
        painted = False

        def eventFilter(self, obj, event):
            if (
                event.type() == QEvent.Type.Paint
                and isinstance(obj, QWidget)
                and (obj is widget or widget.isAncestorOf(obj))
            ):
                self.painted = True
            return False

    watch = Watch()
    app.installEventFilter(watch)
    end = time.perf_counter() + timeout
    try:
        while not watch.painted and time.perf_counter() < end:
            app.processEvents()
    finally:
        app.removeEventFilter(watch)


def bench_roster(units: int, runs: int) -> dict[str, float]:
    """Open the army's roster from the main window, as the organizer does, ``runs + 1``
    times; sort and filter the first one."""
    from PySide6.QtCore import Qt

    from ui.app import build_main_window, create_application
    from ui.settings import AppSettings

    with tempfile.TemporaryDirectory(prefix="brikdesk-bench-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        t = time.perf_counter()
        army_id = make_army(url, units)
        print(f"made an army of {units:,} units in {time.perf_counter() - t:.1f} s")
        app = create_application()
        main = build_main_window(
            argparse.Namespace(db=url), settings=AppSettings.at(Path(tmp) / "settings.ini")
        )
        main.show()
        wait_painted(app, main)

        opens = []
        memory = 0.0
        sorts: dict[str, float] = {}
        filter_ms = 0.0
        for i in range(runs + 1):
            app.processEvents()
            before = rss_mb()
            t = time.perf_counter()
            window = main.open_roster(army_id)
            wait_painted(app, window.table.viewport())
            opens.append((time.perf_counter() - t) * 1000)
            assert window.model.rowCount() == units, window.model.rowCount()
            if i == 0:
                memory = rss_mb() - before
                for col, column in enumerate(window.model.columns):
                    times = []
                    for order in (Qt.SortOrder.AscendingOrder, Qt.SortOrder.DescendingOrder):
                        t = time.perf_counter()
                        window.table.sortByColumn(col, order)
                        wait_painted(app, window.table.viewport())
                        times.append((time.perf_counter() - t) * 1000)
                    sorts[column.title] = max(times)
                t = time.perf_counter()
                window.filter.setText("Trooper 99")
                wait_painted(app, window.table.viewport())
                filter_ms = (time.perf_counter() - t) * 1000
                window.filter.clear()
            window.close()
            app.processEvents()
        main.close()
        app.processEvents()
        del main
    return {
        "first": opens[0],
        "median": statistics.median(opens[1:]) if runs else opens[0],
        "sorts": sorts,
        "memory": memory,
        "filter": filter_ms,
    }


def bench_windows(units: int, runs: int, loop: Loop) -> None:
    """Open the roster (of an army of ``units`` units), the catalog and the history from the
    main window, as the organizer does, ``runs`` times each, each until painted; print each
    window's 99th percentile (CPU time scaled to the rule's machine: a command, 100 ms)."""
    import importlib

    from ui.app import (
        AFTER_START_MODULES,
        build_main_window,
        collect_on_gui_thread,
        create_application,
    )
    from ui.settings import AppSettings

    with tempfile.TemporaryDirectory(prefix="brikdesk-bench-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        army_id = make_army(url, units)
        app = create_application()
        for name in AFTER_START_MODULES:  # what the app imports on a worker once the campaign shows
            importlib.import_module(name)
        main = build_main_window(
            argparse.Namespace(db=url), settings=AppSettings.at(Path(tmp) / "settings.ini")
        )
        main.show()
        wait_painted(app, main)
        collect_on_gui_thread()
        end = time.perf_counter() + 30
        while main.shown.campaign_id is None and time.perf_counter() < end:
            app.processEvents()
        timer = Timer()
        openers = {
            "roster": lambda: main.open_roster(army_id),
            "catalog": main.open_catalog,
            "history": main.open_history,
        }
        try:
            for name, opener in openers.items():
                cpu, wall = [], []
                for _ in range(runs):
                    app.processEvents()
                    started = timer.start()
                    window = opener()
                    assert window is not None, name
                    wait_painted(app, window)
                    w, c = timer.stop(started)
                    cpu.append(c)
                    wall.append(w)
                    window.close()
                    for _ in range(3):
                        app.processEvents()
                print(
                    f"WINDOW {name} units={units} p99_ms={loop.scaled(p99(cpu)):.1f} "
                    f"raw_ms={p99(cpu):.1f} wall_ms={p99(wall):.1f} runs={runs} "
                    f"full_gcs={timer.full_collections}",
                    flush=True,
                )
        finally:
            timer.close()
        main.close()
        app.processEvents()


def roster_report(args: argparse.Namespace) -> bool:
    """Benchmark the roster window, print the numbers; True when its targets are met."""
    r = bench_roster(args.units, max(1, args.runs // 2))
    worst_sort = max(r["sorts"], key=r["sorts"].get)
    print(
        f"roster window, {args.units:,} units, opened from the main window until painted: "
        f"first {r['first']:.0f} ms, then median {r['median']:.0f} ms "
        f"(target {OPEN_MS:.0f} ms)"
    )
    print(
        "sort until repainted, slowest of both orders per column: "
        + ", ".join(f"{k} {v:.0f}" for k, v in r["sorts"].items())
        + " ms"
    )
    print(f"slowest sort: {worst_sort} {r['sorts'][worst_sort]:.0f} ms (target {SORT_MS:.0f} ms)")
    print(f"filter 'Trooper 99' until repainted: {r['filter']:.0f} ms")
    print(f"memory added by the open window: {r['memory']:.0f} MB (target {MEMORY_MB:.0f} MB)")
    return r["first"] < OPEN_MS and r["sorts"][worst_sort] < SORT_MS and r["memory"] < MEMORY_MB


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=quick(12, 1), help="openings of each window")
    ap.add_argument(
        "--big", type=int, default=quick(10_000, 50), help="the big roster's units (0: skip)"
    )
    ap.add_argument("--check", action="store_true", help="exit 1 when the big roster misses")
    args = ap.parse_args(argv)
    loop = Loop()
    print(loop.line(), flush=True)
    for units in [20] if QUICK else SIZES:
        bench_windows(units, args.runs, loop)
    ok = True
    if args.big:
        args.units = args.big
        ok = roster_report(args)
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
