"""Benchmark: the history of a long campaign.

Run: ``.venv/bin/python benchmarks/bench_history.py [--battles 100] [--units 2000]
[--repeat 5] [--check]``.

Builds a campaign of ``--battles`` finished battles over ``--units`` units
(``benchmarks/big_campaign.py``: imported, then every battle ended through the post-battle
update, so each has its stored result) and measures, as medians of ``--repeat`` runs:

- the History view: ``HistoryService.history`` (one transaction), the window's tables filled
  and the four charts built and painted (``QWidget.grab`` forces a paint), in CPU time of this
  process (target: under 300 ms);
- ``brikdesk history --json`` as a user runs it (a new process each time), wall time, against
  ``python -c pass`` (target: under 4x);
- the campaign report as a PDF (read + lay out + paint, in this process), wall time.

Also the peak resident memory of this process (``resource.getrusage``; Qt and pyqtgraph
included). ``--check`` exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from speed_rule import quick

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

VIEW_TARGET_MS = 300.0
COMMAND_TARGET_RATIO = 4.0


def cpu() -> float:
    return time.process_time()


def median_of(fn, repeat: int) -> float:
    return statistics.median(fn() for _ in range(repeat))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--battles", type=int, default=quick(100, 2))
    p.add_argument("--units", type=int, default=quick(2000, 20))
    p.add_argument("--repeat", type=int, default=quick(5, 1))
    p.add_argument("--check", action="store_true")
    args = p.parse_args()

    from big_campaign import build

    folder = Path(tempfile.mkdtemp(prefix="bench-history-"))
    url = f"sqlite:///{folder / 'long.sqlite3'}"
    t0 = time.perf_counter()
    campaign_id = build(url, args.battles, args.units)
    print(
        f"Campaign: {args.battles} finished battles, {args.units} units "
        f"(built in {time.perf_counter() - t0:.1f} s)"
    )

    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    from brikdesk.persistence.db import open_database
    from brikdesk.services import Services
    from ui.bus import Bus
    from ui.plots.history_charts import HistoryCharts  # pyqtgraph loaded before timing
    from ui.windows.history import HistoryWindow

    db = open_database(url)
    sv = Services.open(db)
    sv.history.history(campaign_id)  # the catalog and the code paths warmed once

    def read() -> float:
        c = cpu()
        sv.history.history(campaign_id)
        return (cpu() - c) * 1000

    read_ms = median_of(read, args.repeat)

    window = HistoryWindow(sv, Bus(), campaign_id)
    window.resize(1300, 840)
    window.show()
    while window.history is None:  # the first read runs on a worker
        app.processEvents()
        time.sleep(0.005)

    def view() -> float:
        c = cpu()
        history = sv.history.history(campaign_id)
        window.charts = None
        window.show_history(history)
        charts = window.show_charts()
        assert isinstance(charts, HistoryCharts)
        charts.grab()  # paints every chart
        window.grab()
        app.processEvents()
        return (cpu() - c) * 1000

    view()  # the first one builds the widgets' caches
    view_ms = median_of(view, args.repeat)

    env = dict(os.environ, BRIKDESK_HOME=str(folder))

    def run(cmd: list[str]) -> float:
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        return time.perf_counter() - t

    py = sys.executable
    base_s = median_of(lambda: run([py, "-c", "pass"]), args.repeat)
    cmd_s = median_of(
        lambda: run([py, "-m", "brikdesk", "--db", url, "history", "--json"]), args.repeat
    )
    list_s = median_of(lambda: run([py, "-m", "brikdesk", "--db", url, "list"]), args.repeat)

    from ui.printing.campaign_report import export_campaign_pdf

    pdf = folder / "report.pdf"

    def report() -> float:
        t = time.perf_counter()
        result = export_campaign_pdf(sv.history.history(campaign_id), pdf)
        report.pages = result.pages  # type: ignore[attr-defined]
        return time.perf_counter() - t

    report_s = median_of(report, args.repeat)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    window.close()
    db.close()

    ratio = cmd_s / base_s
    print(f"History read (HistoryService.history), CPU:         {read_ms:7.1f} ms")
    print(
        f"History view opened and charts painted, CPU:        {view_ms:7.1f} ms  "
        f"(target < {VIEW_TARGET_MS:.0f} ms)"
    )
    print(f"python -c pass:                                     {base_s * 1000:7.1f} ms")
    print(
        f"brikdesk history --json:                            {cmd_s * 1000:7.1f} ms  "
        f"({ratio:.2f}x python -c pass; target < {COMMAND_TARGET_RATIO:.0f}x)"
    )
    print(
        f"brikdesk list (the same start-up: SQLAlchemy, models): {list_s * 1000:7.1f} ms  "
        f"({list_s / base_s:.2f}x)"
    )
    print(
        f"Campaign report PDF ({report.pages} pages):                    "  # type: ignore
        f"{report_s * 1000:7.1f} ms"
    )
    print(f"Peak resident memory of this process:               {peak_mb:7.1f} MB")
    missed = view_ms > VIEW_TARGET_MS or ratio > COMMAND_TARGET_RATIO
    if args.check and missed:
        print("A target was missed.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
