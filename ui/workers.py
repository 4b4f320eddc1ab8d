"""Slow work off the GUI thread ("Never block the GUI thread" in docs/conventions.md).

``start_job(parent, fn, ...)`` runs ``fn(progress)`` on the global ``QThreadPool``; results,
errors and progress come back through signals of a relay ``QObject`` parented to ``parent`` and
therefore delivered on the GUI thread. ``progress(done, total)`` may be called from the worker.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

log = logging.getLogger(__name__)


class JobRelay(QObject):
    """Lives on the GUI thread; the worker emits through it."""

    progress = Signal(int, int)
    finished = Signal(object)
    failed = Signal(object, str)


class _Job(QRunnable):
    def __init__(self, fn: Callable[[Callable[[int, int], None]], Any], relay: JobRelay) -> None:
        super().__init__()
        self._fn = fn
        self._relay = relay
        self.setAutoDelete(True)

    def run(self) -> None:  # worker thread
        relay = self._relay
        try:
            try:
                result = self._fn(relay.progress.emit)
            except Exception as exc:  # reported to the GUI thread, never swallowed
                log.debug("job failed", exc_info=True)
                relay.failed.emit(exc, traceback.format_exc())
            else:
                relay.finished.emit(result)
        except RuntimeError:  # the relay's window was deleted meanwhile: nobody to tell
            log.debug("job finished after its window was gone", exc_info=True)


def start_job(
    parent: QObject,
    fn: Callable[[Callable[[int, int], None]], Any],
    *,
    on_done: Callable[[Any], None] | None = None,
    on_error: Callable[[BaseException, str], None] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    pool: QThreadPool | None = None,
) -> JobRelay:
    """Run ``fn(progress)`` off the GUI thread; callbacks run on the GUI thread."""
    relay = JobRelay(parent)
    if on_done is not None:
        relay.finished.connect(on_done)
    if on_error is not None:
        relay.failed.connect(on_error)
    if on_progress is not None:
        relay.progress.connect(on_progress)
    relay.finished.connect(relay.deleteLater)
    relay.failed.connect(relay.deleteLater)
    (pool or QThreadPool.globalInstance()).start(_Job(fn, relay))
    return relay
