"""Work off the GUI thread (``ui.workers``): a window closed while its job still reports back
neither crashes the app nor hears the answer.

The End battle dialog reads its promotion preview on a worker; closing it while the preview was
being sent once freed the relay under the worker's ``emit`` and the process died (a segfault seen
in CI). The race needs many tries, so it runs in its own process: a crash there fails this test
instead of taking a test worker down.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from PySide6.QtCore import QThreadPool
from PySide6.QtWidgets import QDialog

from ui.workers import start_job

ROOT = Path(__file__).resolve().parents[2]

CLOSE_WHILE_REPORTING = textwrap.dedent(
    """
    import threading
    from PySide6.QtCore import QThreadPool
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QDialog
    from ui.workers import start_job

    app = QApplication([])
    late = []
    for _ in range(1000):
        owner = QDialog()
        go = threading.Event()
        gone = []

        def work(progress, go=go):
            go.wait(5)
            for i in range(300):
                progress(i, 300)
            return "done"

        start_job(
            owner,
            work,
            on_done=lambda r, gone=gone: late.append(r) if gone else None,
            on_progress=lambda d, t, gone=gone: late.append(d) if gone else None,
        )
        go.set()
        del owner  # the window is freed while its worker is sending
        gone.append(True)
        QTest.qWait(1)
    QThreadPool.globalInstance().waitForDone(10000)
    QTest.qWait(50)
    print("late answers:", len(late))
    """
)


def test_closing_a_window_while_its_job_reports_neither_crashes_nor_calls_back() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CLOSE_WHILE_REPORTING],
        capture_output=True,
        encoding="utf-8",
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "late answers: 0"


def test_a_job_reports_its_progress_and_result_to_a_living_window(qtbot) -> None:
    owner = QDialog()
    qtbot.addWidget(owner)
    seen: list[object] = []

    def work(progress):
        progress(1, 2)
        progress(2, 2)
        return 42

    start_job(owner, work, on_done=seen.append, on_progress=lambda d, t: seen.append((d, t)))
    qtbot.waitUntil(lambda: 42 in seen, timeout=5000)
    assert seen == [(1, 2), (2, 2), 42]


def test_a_failing_job_reports_its_error_with_the_trace(qtbot) -> None:
    owner = QDialog()
    qtbot.addWidget(owner)
    errors: list[tuple[BaseException, str]] = []

    def work(_progress):
        raise ValueError("the battle is gone")

    start_job(owner, work, on_error=lambda exc, trace: errors.append((exc, trace)))
    qtbot.waitUntil(lambda: bool(errors), timeout=5000)
    ((exc, trace),) = errors
    assert str(exc) == "the battle is gone" and "ValueError" in trace
    QThreadPool.globalInstance().waitForDone(5000)


def test_a_tracer_set_for_pythons_threads_follows_a_job_too(qtbot) -> None:
    # A debugger's breakpoint (or coverage) is set for every Python thread; the pool's threads
    # are Qt's, and a job's code was never traced: a breakpoint in it was never reached.
    import threading

    traced: list[str] = []

    def tracer(frame, event, _arg):
        if event == "call":
            traced.append(frame.f_code.co_name)
        return None

    def looked_at_by_the_debugger(_progress) -> int:
        return 7

    before = threading.gettrace()
    pool = QThreadPool()  # threads of its own: none traced yet
    owner = QDialog()
    done: list[int] = []
    threading.settrace(tracer)
    try:
        start_job(owner, looked_at_by_the_debugger, on_done=done.append, pool=pool)
        qtbot.waitUntil(lambda: done == [7], timeout=5000)
    finally:
        threading.settrace(before)  # type: ignore[arg-type]  (None: no tracer before)
        pool.waitForDone()
    assert "looked_at_by_the_debugger" in traced
