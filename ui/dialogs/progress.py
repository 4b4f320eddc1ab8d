"""Long transfers (import, export) on a worker, with a progress bar and Cancel.

``ProgressJob.start(parent, title, work, on_done=..., on_error=...)`` runs ``work(progress)`` off
the GUI thread (``ui.workers.start_job``) and shows a window-modal progress dialog: the window
stays painted and responsive, but takes no other action meanwhile (one writer at a time).
``progress(stage, done, total)`` is the services' callback (``brikdesk.services.transfer``):
it moves the bar and, once Cancel was pressed, raises ``Cancelled``, so that the service stops
and writes nothing (an import's transaction is rolled back; an export's temporary file is
removed). ``on_done(result)`` / ``on_error(exc)`` run on the GUI thread; a cancelled job calls
neither and reports itself through ``cancelled``.

The work runs as an abandonable attempt (``brikdesk.persistence.attempts``), as a window's
writes do (``ui.operation``): on a database server that stopped answering, Cancel cuts the
work's connection at once instead of waiting for a progress report that never comes, and
nothing is written. Once the import's commit was sent, Cancel can no longer take it back: the
dialog says that the outcome is not known yet and the job ends as the server answers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

from brikdesk.errors import StorageError
from brikdesk.persistence.attempts import Attempt, attempting
from brikdesk.services.progress import Cancelled, Progress
from ui.workers import start_job

#: The bar's resolution (QProgressDialog takes ints; totals may be byte counts of 64 MB).
_STEPS = 1000


def _ignore(_value: object) -> None:
    """Nothing to do (a job not started through ``ProgressJob.start``)."""


class ProgressJob(QObject):
    """One transfer under way; ``done`` once it ended (``result``, ``error`` or
    ``cancelled``)."""

    moved = Signal(str, int)  # stage, permille: emitted from the worker, shown on the GUI thread

    def __init__(self, parent: QWidget, title: str) -> None:
        super().__init__(parent)
        self._cancel = threading.Event()
        self._attempt = Attempt()
        self.done = False
        self.cancelled = False
        self.result: Any = None
        self.error: BaseException | None = None
        #: The job that took over (an import asked for another name and started again).
        self.retry: ProgressJob | None = None
        # What to call when it ends (given by ``start``).
        self._on_done: Callable[[Any], None] = _ignore
        self._on_error: Callable[[BaseException], None] = _ignore
        self._on_cancelled: Callable[[], None] | None = None
        dialog = QProgressDialog(f"{title}…", "Cancel", 0, _STEPS, parent)
        dialog.setObjectName("transferProgress")
        dialog.setWindowTitle(title)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(300)  # quick transfers never flash a dialog
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.canceled.connect(self.cancel)
        self.dialog = dialog
        self._title = title
        self.moved.connect(self._show)

    @classmethod
    def start(
        cls,
        parent: QWidget,
        title: str,
        work: Callable[[Progress], Any],
        *,
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException], None],
        on_cancelled: Callable[[], None] | None = None,
    ) -> ProgressJob:
        job = cls(parent, title)
        job._on_done, job._on_error, job._on_cancelled = on_done, on_error, on_cancelled
        job.dialog.setValue(0)
        start_job(job, lambda _unused: job._run(work), on_done=job._finished, on_error=job._failed)
        return job

    def _run(self, work: Callable[[Progress], Any]) -> Any:  # the worker thread
        with attempting(self._attempt):
            return work(self.progress)

    # -- worker thread ------------------------------------------------------------------------

    def progress(self, stage: str, done: int, total: int) -> None:
        """The services' callback (worker thread): report, or stop if Cancel was pressed."""
        if self._cancel.is_set():
            raise Cancelled
        self.moved.emit(stage, _STEPS * done // total if total > 0 else 0)

    # -- GUI thread ---------------------------------------------------------------------------

    def cancel(self) -> None:
        """Stop at the next progress report; nothing is written."""
        self._cancel.set()
        if self._attempt.abandon():
            self.dialog.setLabelText(f"{self._title}: cancelling…")
        else:
            self.dialog.setLabelText(
                f"{self._title}: the database server has not answered its commit; whether "
                "it was saved is not known yet…"
            )

    def _show(self, stage: str, permille: int) -> None:
        if not self._cancel.is_set():
            self.dialog.setLabelText(f"{self._title}: {stage.lower()}…")
        self.dialog.setValue(min(permille, _STEPS - 1))

    def _end(self) -> None:
        self.done = True
        self.dialog.canceled.disconnect(self.cancel)
        self.dialog.close()
        self.dialog.deleteLater()

    def _finished(self, result: Any) -> None:
        self.result = result
        self._end()
        self._on_done(result)

    def _failed(self, exc: BaseException, _details: str) -> None:
        # A cut connection (Cancel on a server that did not answer) fails the work: nothing
        # was written, as after a Cancel at a progress report.
        cut = self._attempt.abandoned and isinstance(exc, StorageError)
        if isinstance(exc, Cancelled) or cut:
            self.cancelled = True
            self._end()
            if self._on_cancelled is not None:
                self._on_cancelled()
            return
        self.error = exc
        self._end()
        self._on_error(exc)
