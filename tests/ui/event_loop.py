"""Waiting in the scripts that run BrikDesk in a process of their own (``atspi_app.py``,
``screen_check.py``) for what a window still has to do, never for a fixed time: the jobs on
the worker pool (windows read their data there) and the events they and the layouts post;
or a condition, with the event loop running meanwhile."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def run_until(app: Any, done: Callable[[], object], seconds: float) -> bool:
    """Run the event loop (it sleeps until a window, a timer or a socket has something for it,
    and answers at once) until ``done()`` holds: whether it did within ``seconds``."""
    from PySide6.QtCore import QEventLoop, QTimer

    tick = QTimer()
    tick.start(10)  # wakes the wait below to look at ``done`` again
    end = time.monotonic() + seconds
    try:
        while not done():
            if time.monotonic() > end:
                return False
            app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        return True
    finally:
        tick.stop()


def settle(app: Any, seconds: float = 30.0) -> None:
    """Until the jobs on the worker pool are done and the writes in flight (``ui.operation``),
    their answers shown, and the events they posted handled (layouts, zero timers); raises
    ``SystemExit`` after ``seconds``."""
    from PySide6.QtCore import QThreadPool

    from ui.operation import busy

    pool = QThreadPool.globalInstance()
    end = time.monotonic() + seconds
    while True:
        for _ in range(3):  # posted layouts, zero timers, the answers of finished jobs
            app.processEvents()
        if pool.activeThreadCount() == 0 and not busy():
            return
        if time.monotonic() > end:
            raise SystemExit(f"the worker pool did not finish within {seconds:.0f} s")
        pool.waitForDone(20)
