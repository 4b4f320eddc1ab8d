"""Crashes leave a trace: a hard crash's stacks in crash.log (faulthandler), Qt's own messages in
the app's log (a Qt message handler), both beside the log Help > About names."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from PySide6.QtCore import qInfo

import brikdesk
from ui.crash import CRASH_NAME, LOG_NAME, QtMessages

#: The app's logging set up as at start, a Qt warning, then a segmentation fault in a thread
#: the stack of which must be in the trace.
CRASHING = textwrap.dedent(
    """
    import faulthandler, threading
    from PySide6.QtCore import qWarning
    from PySide6.QtWidgets import QApplication
    from ui.app import setup_logging

    setup_logging()
    app = QApplication([])
    qWarning("a Qt warning before the crash")

    def a_frame_to_find():
        faulthandler._sigsegv()

    worker = threading.Thread(target=a_frame_to_find)
    worker.start()
    worker.join(10)
    """
)


def test_a_hard_crash_and_qt_warnings_are_in_the_log_folder(tmp_path: Path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", BRIKDESK_HOME=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-c", CRASHING],
        capture_output=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == -signal.SIGSEGV, done.stderr
    crash = (tmp_path / "logs" / CRASH_NAME).read_text(encoding="utf-8")
    assert f"BrikDesk {brikdesk.__version__} started" in crash
    assert "Fatal Python error: Segmentation fault" in crash
    assert "a_frame_to_find" in crash  # every thread's stack, the crashing one included
    log = (tmp_path / "logs" / LOG_NAME).read_text(encoding="utf-8")
    assert "WARNING qt: a Qt warning before the crash" in log


def test_qt_messages_are_logged_and_the_previous_handler_still_called(caplog) -> None:
    messages = QtMessages()
    messages.install()
    try:
        with caplog.at_level(logging.INFO, logger="qt"):
            qInfo("the palette changed")
    finally:
        messages.uninstall()
    assert [(r.name, r.levelno, r.getMessage()) for r in caplog.records] == [
        ("qt", logging.INFO, "the palette changed")
    ]
    caplog.clear()
    qInfo("after uninstall")  # no longer ours
    assert not [r for r in caplog.records if r.name == "qt"]
