"""Benchmark: BrikDesk's start-up against the stack's floor, as whole processes.

Offscreen, on the demo database (the first, unmeasured start creates it), interleaved, the
medians of ``--runs`` (5) runs each:

- the floor: a script that creates a ``QApplication``, shows a 1200x800 ``QMainWindow`` with
  a ``QLabel``, runs ``import sqlalchemy.orm`` and quits from a zero timer (the least any
  PySide6 window over SQLAlchemy's ORM can take);
- ``brikdesk --check-start``: the main window shown with the last campaign, then it quits.

Prints each one's wall time from launch to the process's end and its CPU time (user and
system, its threads included), and the ratios. Target: BrikDesk at most ``TARGET``x the floor.
On a busy shared machine the CPU ratio is the steadier one (a wall time includes the wait for
a core). ``BENCH_QUICK=1``: one run each.

Run: .venv/bin/python benchmarks/bench_start.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from speed_rule import quick

TARGET = 1.4

FLOOR = textwrap.dedent("""
    import sys
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

    app = QApplication(sys.argv[:1])
    window = QMainWindow()
    window.setCentralWidget(QLabel("BrikDesk"))
    window.resize(1200, 800)
    window.show()
    import sqlalchemy.orm  # noqa: E402,F401
    QTimer.singleShot(0, app.quit)
    app.exec()
""")


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU milliseconds of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, encoding="utf-8", check=False)
    wall = (time.perf_counter() - t) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{cmd[-1]} failed ({done.returncode}): {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=quick(5, 1))
    args = ap.parse_args(argv)
    exe = str(Path(sys.executable).parent / "brikdesk")
    with tempfile.TemporaryDirectory(prefix="brikdesk-start-") as tmp:
        env = dict(os.environ, BRIKDESK_HOME=tmp, QT_QPA_PLATFORM="offscreen")
        env.pop("BRIKDESK_DB", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode cached
        ours_cmd = [exe, "--check-start"]
        floor_cmd = [sys.executable, "-c", FLOOR]
        timed(ours_cmd, env)  # creates the demo campaign; compiles and caches
        timed(floor_cmd, env)
        floor, ours = [], []
        for _ in range(args.runs):
            floor.append(timed(floor_cmd, env))
            ours.append(timed(ours_cmd, env))
    fw, fc = (statistics.median(x) for x in zip(*floor, strict=True))
    ow, oc = (statistics.median(x) for x in zip(*ours, strict=True))
    print(f"START floor wall_ms={fw:.0f} cpu_ms={fc:.0f} (medians of {args.runs})", flush=True)
    print(f"START brikdesk wall_ms={ow:.0f} cpu_ms={oc:.0f}", flush=True)
    print(
        f"START ratio wall={ow / fw:.2f} cpu={oc / fc:.2f} target={TARGET} "
        f"load={os.getloadavg()[0]:.1f}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
