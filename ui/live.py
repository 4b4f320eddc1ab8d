"""Live refresh: what another BrikDesk or the command line writes shows here within ~2 s.

``LiveRefresh`` polls the services' ``ChangeWatch`` once a second on a worker thread (a poll is
one PRAGMA on an idle SQLite file, one tiny read otherwise; never on the GUI thread, so a slow
server cannot freeze the window). When someone else committed a change, it publishes every kind
of change on the bus: each open view reads the database again and restores its selection (by id)
and scroll, and the status bar says so. Polls never overlap; a failed poll is logged and the
next one tries again.

A database that does not answer is said once, not every second: the first failed (or stuck)
poll logs one line and says in the status bar that the database server (or, on SQLite, the
database) is not answering; the polls after it stay quiet until one succeeds, which is said
once too. A poll still waiting after ``STUCK_S`` (a server that stopped answering cannot end it
itself) has its connection cut, and the next poll starts on a fresh one. No poll runs while a write is in flight (``ui.operation``): what it would make the
views read can wait for the write to end.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QThreadPool, QTimer

from brikdesk.persistence.attempts import Attempt, attempting
from ui import operation
from ui.bus import Bus
from ui.undo import ALL_CHANGES
from ui.workers import start_job

if TYPE_CHECKING:
    from brikdesk.services.watch import ChangeWatch

log = logging.getLogger(__name__)

#: How often the database is asked (milliseconds): changes show within about twice this.
POLL_MS = 1000
#: A poll still running after this long (seconds) means the database is not answering.
STUCK_S = 5.0


class LiveRefresh(QObject):
    """Polls ``watch`` every ``interval`` ms while started; ``changed_elsewhere`` counts hits."""

    def __init__(
        self,
        watch: ChangeWatch,
        bus: Bus,
        parent: QObject | None = None,
        *,
        interval: int = POLL_MS,
    ) -> None:
        super().__init__(parent)
        self.watch = watch
        self.bus = bus
        self.changed_elsewhere = 0
        #: Why the database is not answering (the first failed poll's reason), or "".
        self.down = ""
        self._busy = False
        self._since = 0.0
        self._attempt = Attempt(reading=True)
        self._closed = False
        self._timer = QTimer(self)
        self._timer.setInterval(interval)
        self._timer.timeout.connect(self.poll)
        self._pool = QThreadPool(self)  # its own, so stopping can wait for a running poll
        self._pool.setMaxThreadCount(1)

    def start(self) -> None:
        self._timer.start()
        self.poll()  # the first poll: what there is now

    def stop(self) -> None:
        """Stop polling and close the watch (once no poll is running)."""
        if self._closed:
            return
        self._timer.stop()
        self._closed = True
        self._attempt.abandon()  # a poll waiting on a server that does not answer ends now
        self._pool.waitForDone(5000)
        self._busy = False
        self.watch.close()

    def poll(self) -> None:
        if self._closed:
            return
        if self._busy:
            if time.monotonic() - self._since > STUCK_S:
                # A server that stopped answering never ends the poll itself: cut its
                # connection, and the next poll starts on a fresh one.
                self._attempt.abandon()
                if not self.down:
                    self._went_down(f"no answer for {STUCK_S:.0f} s")
            return
        if operation.busy():
            return
        self._busy = True
        self._since = time.monotonic()
        attempt = self._attempt = Attempt(reading=True)
        start_job(
            self,
            lambda _progress: self._poll_in(attempt),
            on_done=self._polled,
            on_error=self._failed,
            pool=self._pool,
        )

    def _poll_in(self, attempt: Attempt) -> bool:  # the worker thread
        with attempting(attempt):
            return self.watch.poll()

    def _polled(self, changed: object) -> None:
        self._busy = False
        if self._closed:
            return
        if self.down:
            self.down = ""
            log.warning("live refresh: the database answers again")
            self.bus.say(f"The {self._what()} answers again.")
        if changed:
            self.changed_elsewhere += 1
            self.bus.publish(ALL_CHANGES)
            self.bus.say("Updated: the campaign was changed in another BrikDesk or by a command.")

    def _failed(self, exc: BaseException, _trace: str) -> None:
        self._busy = False
        if self._closed:
            return
        if self.down:
            log.debug("live refresh: still no answer: %s", exc)
        else:
            self._went_down(_first_line(exc))

    def _what(self) -> str:
        return "database server" if self.watch.on_server else "database"

    def _went_down(self, reason: str) -> None:
        self.down = reason or "no answer"
        log.warning("live refresh: the %s is not answering: %s", self._what(), self.down)
        self.bus.say(
            f"The {self._what()} is not answering; changes made elsewhere show once it does."
        )


def _first_line(exc: BaseException) -> str:
    """The driver's own message, first line only (a server's error runs over several)."""
    orig = getattr(exc, "orig", None)
    lines = [ln.strip() for ln in str(orig if orig is not None else exc).splitlines()]
    return next((ln for ln in lines if ln), type(exc).__name__)
