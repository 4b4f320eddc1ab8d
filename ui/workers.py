"""Slow work off the GUI thread ("Never block the GUI thread" in docs/conventions.md).

``start_job(parent, fn, ...)`` runs ``fn(progress)`` on the global ``QThreadPool``; results,
errors and progress come back through signals of a relay ``QObject`` that lives on the GUI
thread, so the callbacks run there. ``progress(done, total)`` may be called from the worker.

The relay has no Qt parent: were it the owner's child, closing the owner (an End battle dialog
whose preview is still being worked out) would free the relay on the GUI thread while the worker
is inside its ``emit``, and the process would crash. It is held here until its last answer has
been delivered; the callbacks run only while the owner still exists (its ``destroyed`` signal
says when it is gone), so an answer for a closed window is dropped, as before.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

log = logging.getLogger(__name__)


#: Relays whose job has not yet delivered its last answer, held on the GUI thread.
_running: set[JobRelay] = set()


class JobRelay(QObject):
    """Lives on the GUI thread; the worker emits through it; calls back while the owner lives."""

    progress = Signal(int, int)
    finished = Signal(object)
    failed = Signal(object, str)

    def __init__(
        self,
        owner: QObject,
        on_done: Callable[[Any], None] | None,
        on_error: Callable[[BaseException, str], None] | None,
        on_progress: Callable[[int, int], None] | None,
    ) -> None:
        super().__init__()
        self._on_done, self._on_error, self._on_progress = on_done, on_error, on_progress
        owner.destroyed.connect(self._owner_gone)
        self.progress.connect(self._deliver_progress)
        self.finished.connect(self._deliver_done)
        self.failed.connect(self._deliver_error)
        _running.add(self)

    def _owner_gone(self) -> None:
        self._on_done = self._on_error = self._on_progress = None

    def _deliver_progress(self, done: int, total: int) -> None:
        if self._on_progress is not None:
            self._on_progress(done, total)

    def _deliver_done(self, result: object) -> None:
        on_done = self._on_done
        self._release()
        if on_done is not None:
            on_done(result)

    def _deliver_error(self, exc: BaseException, trace: str) -> None:
        on_error = self._on_error
        self._release()
        if on_error is not None:
            on_error(exc, trace)

    def _release(self) -> None:
        """The last answer is in: drop the callbacks and let Python free the relay."""
        self._owner_gone()
        _running.discard(self)


def follow_python_threads() -> None:
    """Qt's pool threads are not Python's: a tracer set for every Python thread (coverage
    measuring the tests, a debugger's breakpoints) is set on this one too, once. Without a
    tracer, nothing is done."""
    tracer = threading.gettrace()
    if tracer is not None and sys.gettrace() is None:
        sys.settrace(tracer)


class _Job(QRunnable):
    def __init__(self, fn: Callable[[Callable[[int, int], None]], Any], relay: JobRelay) -> None:
        super().__init__()
        self._fn = fn
        self._relay = relay
        self.setAutoDelete(True)

    def run(self) -> None:  # worker thread
        follow_python_threads()
        relay = self._relay
        try:
            try:
                result = self._fn(relay.progress.emit)
            except Exception as exc:  # reported to the GUI thread, never swallowed
                log.debug("job failed", exc_info=True)
                relay.failed.emit(exc, traceback.format_exc())
            else:
                relay.finished.emit(result)
        except RuntimeError:  # the application is being torn down: nobody to tell
            log.debug("job finished after the application was gone", exc_info=True)


def start_job(
    parent: QObject,
    fn: Callable[[Callable[[int, int], None]], Any],
    *,
    on_done: Callable[[Any], None] | None = None,
    on_error: Callable[[BaseException, str], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    pool: QThreadPool | None = None,
) -> JobRelay:
    """Run ``fn(progress)`` off the GUI thread; callbacks run on the GUI thread while
    ``parent`` exists."""
    relay = JobRelay(parent, on_done, on_error, on_progress)
    (pool or QThreadPool.globalInstance()).start(_Job(fn, relay))
    return relay
