"""How the app stops its share process: by closing the process's standard input (what works
on every system; Windows has no SIGTERM for a console process), and by killing it only once
it has not ended within ``STOP_MS``. Stand-in processes tell which happened."""

from __future__ import annotations

import sys
import time

import pytest
from PySide6.QtCore import QProcess

from brikdesk.domain.ids import CampaignId
from brikdesk.share import Shared
from ui.dialogs import share_process
from ui.dialogs.share_process import ShareProcess

#: Serves nothing: says it serves, then exits 0 when its input ends, 3 on SIGTERM.
POLITE = """
import signal, sys, time
signal.signal(signal.SIGTERM, lambda *_: sys.exit(3))
sys.stdin.readline()
print("Serving Demo at http://127.0.0.1:1/tok/", flush=True)
while sys.stdin.buffer.read(1):
    pass
time.sleep(0.2)
sys.exit(0)
"""

#: Ignores both the end of its input and SIGTERM, as a hung server would.
HUNG = """
import signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
sys.stdin.readline()
print("Serving Demo at http://127.0.0.1:1/tok/", flush=True)
time.sleep(60)
"""


def _started(monkeypatch: pytest.MonkeyPatch, qtbot, script: str) -> ShareProcess:
    monkeypatch.setattr(share_process, "share_command", lambda: [sys.executable, "-c", script])
    proc = ShareProcess(
        Shared(CampaignId(1)), "sqlite://", host="127.0.0.1", port=0, token="t" * 24
    )
    proc.start()
    qtbot.waitUntil(lambda: proc.url == "http://127.0.0.1:1/tok/", timeout=10_000)
    return proc


def test_stop_closes_the_input_and_sends_no_signal(monkeypatch: pytest.MonkeyPatch, qtbot) -> None:
    proc = _started(monkeypatch, qtbot, POLITE)
    proc.stop()
    assert proc.process.waitForFinished(5_000)
    assert proc.process.exitStatus() is QProcess.ExitStatus.NormalExit
    assert proc.process.exitCode() == 0  # 3 had it been sent SIGTERM
    assert proc.problem == ""


def test_a_server_that_does_not_stop_is_killed_after_the_timeout(
    monkeypatch: pytest.MonkeyPatch, qtbot
) -> None:
    monkeypatch.setattr(share_process, "STOP_MS", 600)
    proc = _started(monkeypatch, qtbot, HUNG)
    start = time.monotonic()
    proc.stop()
    qtbot.waitUntil(lambda: proc.process.state() == QProcess.ProcessState.NotRunning, timeout=5_000)
    took = time.monotonic() - start
    assert 0.5 <= took < 3  # not at once: only after STOP_MS
    assert proc.process.exitStatus() is QProcess.ExitStatus.CrashExit


def test_wait_kills_a_hung_server_too(monkeypatch: pytest.MonkeyPatch, qtbot) -> None:
    proc = _started(monkeypatch, qtbot, HUNG)
    start = time.monotonic()
    proc.wait(500)
    assert proc.process.state() == QProcess.ProcessState.NotRunning
    assert time.monotonic() - start < 3
