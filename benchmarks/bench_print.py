"""Benchmark: a 1,000-unit roster sheet to PDF (issue 7: under 5 s and 400 MB peak RSS).

Run: ``.venv/bin/python benchmarks/bench_print.py [--units 1000] [--fold] [--check]``.

Times building the sheet (domain), laying it out and painting it to a PDF with QPdfWriter,
offscreen, and reports the peak resident memory of the whole process (``resource.getrusage``;
it includes the interpreter and Qt). The roster gives every unit its own name and cycles
through 15 loadouts, so without ``--fold`` it prints 1,000 cards (the worst case); with
``--fold`` identical units share a card, so a few very large folded cards continue across
pages. ``--check`` exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

TARGET_SECONDS = 5.0
TARGET_MB = 400.0

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
    ("heavy", ("heavy-weapon", "shield"), ("body-armor",), ()),
    ("minifig", (), (), ()),
)


def make_units(n: int):
    from brikdesk.domain.roster import Loadout, UnitSpec

    units = []
    for i in range(n):
        kind, hands, worn, carried = LOADOUTS[i % len(LOADOUTS)]
        units.append(UnitSpec(f"Trooper {i + 1:04d}", kind, Loadout(hands, worn, carried),
                              notes="Veteran of the river crossing." if i % 7 == 0 else ""))
    return units


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", type=int, default=1000)
    ap.add_argument("--fold", action="store_true", help="fold identical units into one card")
    ap.add_argument("--paper", default="a4", choices=("a4", "letter"))
    ap.add_argument("--out", help="keep the PDF here (default: a temporary file)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    from brikdesk.domain.catalog import load_default_catalog
    from brikdesk.domain.sheets import RosterSheetOptions, SheetHeader, build_roster_sheet
    from ui.printing import ensure_gui_application, export_pdf

    ensure_gui_application()
    t_import = time.perf_counter() - t0

    catalog = load_default_catalog("2020")
    units = make_units(args.units)
    header = SheetHeader(army="Benchmark Legion", player="Bench", campaign="Benchmarks",
                         budget=args.units * 10, date=dt.date(2025, 1, 1), colour="#1f77b4")
    options = RosterSheetOptions(paper=args.paper, fold_identical=args.fold)
    t1 = time.perf_counter()
    sheet = build_roster_sheet(header, units, catalog, options)
    t_build = time.perf_counter() - t1

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.out) if args.out else Path(tmp) / "bench.pdf"
        pages_seen: list[int] = []
        t2 = time.perf_counter()
        result = export_pdf(sheet, out, progress=lambda done, total: pages_seen.append(done))
        t_export = time.perf_counter() - t2
        size_mb = out.stat().st_size / 1e6

    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux
    total = t_build + t_export
    print(f"units            {args.units}  (cards {len(sheet.cards)}, fold {args.fold})")
    print(f"pages            {result.pages}  ({args.paper}, PDF {size_mb:.1f} MB)")
    print(f"import + app     {t_import:.2f} s (not counted)")
    print(f"build sheet      {t_build:.3f} s")
    print(f"layout + PDF     {t_export:.3f} s")
    print(f"total            {total:.3f} s   (target < {TARGET_SECONDS:g} s)")
    print(f"peak RSS         {peak_mb:.0f} MB  (target < {TARGET_MB:g} MB)")
    ok = total < TARGET_SECONDS and peak_mb < TARGET_MB
    print("result           " + ("within targets" if ok else "TARGET MISSED"))
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
