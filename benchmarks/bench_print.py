"""Benchmark: a 1,000-unit roster sheet to PDF (under 5 s and 400 MB peak RSS).

Run: ``.venv/bin/python benchmarks/bench_print.py [--units 1000] [--fold] [--repeat 5]
[--check]``.

Times, as medians of ``--repeat`` runs: reading the army from a database through the print
service (``PrintService.roster_sheet``, one transaction: what the app and ``brikdesk print``
do), building the sheet from the units in memory (the domain alone), laying it out, and laying
out + painting it to a PDF with QPdfWriter, offscreen. The total a user waits is read + layout +
PDF. Also the preview's replay of a layout made beforehand on a QPrinter in preview mode (what
the app's print preview paints on the GUI thread). Reports the peak resident memory of the
whole process (``resource.getrusage``; interpreter and Qt included). The roster gives every
unit its own name and cycles through 15 loadouts, so without ``--fold`` it prints 1,000 cards
(the worst case); with ``--fold`` identical units share a card, so a few very large folded
cards continue across pages. ``--check`` exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from speed_rule import quick

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
        units.append(
            UnitSpec(
                f"Trooper {i + 1:04d}",
                kind,
                Loadout(hands, worn, carried),
                notes="Veteran of the river crossing." if i % 7 == 0 else "",
            )
        )
    return units


def store_army(folder: Path, units) -> tuple[object, int]:
    """A SQLite database in ``folder`` holding one army of ``units`` (stored in one
    transaction, as an import would); its services and the army's id."""
    from sqlalchemy import insert

    from brikdesk.domain.roster import UnitOverrides
    from brikdesk.persistence.db import open_database
    from brikdesk.persistence.models import Unit
    from brikdesk.services import Services
    from brikdesk.services.roster import overrides_to_json

    db = open_database(f"sqlite:///{folder / 'bench.sqlite3'}")
    sv = Services.open(db)
    campaign = sv.campaigns.create_campaign("Benchmarks").value
    player = sv.campaigns.add_player(campaign.id, "Bench", colour="#1f77b4").value
    army = sv.campaigns.add_army(player.id, "Benchmark Legion", budget=len(units) * 10).value
    none = overrides_to_json(UnitOverrides())
    rows = [
        dict(
            army_id=army.id,
            name=u.name,
            type_key=u.unit_type,
            overrides=none,
            hands=list(u.loadout.hands),
            worn=list(u.loadout.worn),
            carried=list(u.loadout.carried),
            notes=u.notes,
            status="alive",
            battles_fought=0,
            kills=0,
            position=i,
        )
        for i, u in enumerate(units, 1)
    ]
    with db.sessions.begin() as s:
        s.execute(insert(Unit), rows)
    return sv, army.id


def timed(fn, repeat: int):
    times, result = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times), result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--units", type=int, default=quick(1000, 10))
    ap.add_argument("--fold", action="store_true", help="fold identical units into one card")
    ap.add_argument("--paper", default="a4", choices=("a4", "letter"))
    ap.add_argument("--repeat", type=int, default=quick(5, 1), help="runs per step (medians)")
    ap.add_argument("--out", help="keep the PDF here (default: a temporary file)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    from PySide6.QtPrintSupport import QPrinter, QPrintPreviewWidget
    from PySide6.QtWidgets import QApplication

    from brikdesk.domain.catalog import load_default_catalog
    from brikdesk.domain.sheets import RosterSheetOptions, SheetHeader, build_roster_sheet
    from ui.printing import (
        configure_page,
        ensure_gui_application,
        export_pdf,
        layout_roster_sheet,
        print_roster_sheet,
    )
    from ui.printing.image import MeasuringDevice

    app = QApplication.instance() or QApplication(sys.argv[:1])  # the preview is a widget
    ensure_gui_application()
    t_import = time.perf_counter() - t0

    catalog = load_default_catalog("2020")
    units = make_units(args.units)
    header = SheetHeader(
        army="Benchmark Legion",
        player="Bench",
        campaign="Benchmarks",
        budget=args.units * 10,
        date=dt.date(2025, 1, 1),
        colour="#1f77b4",
    )
    options = RosterSheetOptions(paper=args.paper, fold_identical=args.fold)
    n = args.repeat

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sv, army_id = store_army(folder, units)
        t_read, t_read_min, job = timed(lambda: sv.printing.roster_sheet(army_id, options), n)
        t_build, _, sheet = timed(lambda: build_roster_sheet(header, units, catalog, options), n)
        assert job.sheet.unit_count == sheet.unit_count == args.units
        device = MeasuringDevice(args.paper)
        t_layout, _, layout = timed(lambda: layout_roster_sheet(job.sheet, device.writer), n)

        out = Path(args.out) if args.out else folder / "bench.pdf"
        t_export, t_export_min, result = timed(lambda: export_pdf(job.sheet, out), n)
        size_mb = out.stat().st_size / 1e6

        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        configure_page(printer, args.paper)
        preview = QPrintPreviewWidget(printer)
        preview.paintRequested.connect(lambda p: print_roster_sheet(p, job.sheet, layout=layout))
        t_preview, _, _ = timed(preview.updatePreview, n)

    del app
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux
    total = t_read + t_export  # export_pdf lays out and paints
    print(f"units            {args.units}  (cards {len(job.sheet.cards)}, fold {args.fold})")
    print(f"pages            {result.pages}  ({args.paper}, PDF {size_mb:.1f} MB)")
    print(f"medians of {n} runs (min in brackets)")
    print(f"import + app     {t_import:.2f} s (once, not counted)")
    print(f"read (service)   {t_read:.3f} s  [{t_read_min:.3f}]  one transaction")
    print(f"build (domain)   {t_build:.3f} s  (the same sheet from units in memory)")
    print(f"layout           {t_layout:.3f} s")
    print(f"layout + PDF     {t_export:.3f} s  [{t_export_min:.3f}]")
    print(f"preview replay   {t_preview:.3f} s  (GUI thread, layout made beforehand)")
    print(f"total            {total:.3f} s   read + layout + PDF (target < {TARGET_SECONDS:g} s)")
    print(f"peak RSS         {peak_mb:.0f} MB  (target < {TARGET_MB:g} MB)")
    ok = total < TARGET_SECONDS and peak_mb < TARGET_MB
    print("result           " + ("within targets" if ok else "TARGET MISSED"))
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
