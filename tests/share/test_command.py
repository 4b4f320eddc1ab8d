"""``brikdesk share``: one line with the whole address, the page served, a clean stop on SIGTERM
and on Ctrl-C (SIGINT). Listens on 127.0.0.1 only; every wait is bounded."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest


def _serve(db: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "brikdesk",
            "--db",
            f"sqlite:///{db}",
            "share",
            "--bind",
            "127.0.0.1",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    return proc, line


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
def test_share_prints_the_address_serves_the_page_and_stops_cleanly(
    demo_template: Path,
    tmp_path: Path,
    how: signal.Signals,
) -> None:
    db = tmp_path / "demo.sqlite3"
    db.write_bytes(demo_template.read_bytes())
    proc, line = _serve(db, "--battle", "Raid")
    try:
        m = re.fullmatch(
            r"Serving Demo: Battle for Baseplate Valley at "
            r"(http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]{24}/)\n",
            line,
        )
        assert m, line
        with urllib.request.urlopen(m.group(1) + "state.json", timeout=5) as r:
            assert b"Raid on Bilge Cove" in r.read()
        proc.send_signal(how)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)


def test_share_names_an_unknown_battle(demo_template: Path, tmp_path: Path) -> None:
    db = tmp_path / "demo.sqlite3"
    db.write_bytes(demo_template.read_bytes())
    proc, line = _serve(db, "--battle", "Nowhere")
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert "there is no battle called 'Nowhere'" in err
