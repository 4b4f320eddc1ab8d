"""Every benchmark in benchmarks/ still runs: each script once in its quick mode
(``BENCH_QUICK=1``: small sizes, one run, see ``benchmarks/speed_rule.py``). A script that
crashes fails here; its numbers are not judged (they are read from the full runs)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The scripts (``big_campaign.py`` and ``speed_rule.py`` are modules the scripts use).
SCRIPTS = sorted((ROOT / "benchmarks").glob("bench_*.py"))


def test_every_script_is_found() -> None:
    assert {p.name for p in SCRIPTS} >= {"bench_table_flow.py", "bench_windows.py"}


@pytest.mark.slow
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_the_benchmark_runs_in_its_quick_mode(script: Path, tmp_path: Path) -> None:
    env = dict(
        os.environ,
        BENCH_QUICK="1",
        QT_QPA_PLATFORM="offscreen",
        BRIKDESK_HOME=str(tmp_path),
        TMPDIR=str(tmp_path),
    )
    env.pop("BRIKDESK_DB", None)
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, (
        f"{script.name} crashed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    )
