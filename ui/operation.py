"""Writes as background operations (docs/conventions.md, "Writes as background operations"):
a user action's database work runs off the GUI thread.

:func:`run_write` runs a service call on a worker thread of its own and returns its result
(or raises its error) on the GUI thread, so the caller applies it there (the undo step, the
changes to publish) as if the call had run in place:

- A call that ends within ``GRACE_MS`` (a SQLite write: a few milliseconds) is simply waited
  for: nothing shows, nothing else runs in between.
- A longer one is waited for in a local event loop: the window repaints, can be moved and
  resized; after ``BUSY_MS`` its cursor says it is busy and its status bar names the action.
  Keys and clicks on that window (and its shortcuts) are held and delivered in order once the
  result has been applied; closing it waits too. Other windows stay usable.
- On a database server, after ``NOTICE_MS`` a notice says the server is not answering, with
  Cancel. Before the commit was sent, Cancel abandons the action's connections (they are cut,
  not returned to the pool; ``brikdesk.persistence.attempts``) and nothing changes; the call
  raises ``Abandoned``. Once the commit was sent, the notice says that the outcome is not known
  yet; Cancel then stops waiting (``OutcomeUnknown``) and ``late`` is called on the GUI thread
  when the server answers (the app reads the database again and says what became of it).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QEventLoop,
    QObject,
    Qt,
    QThread,
    QTimer,
    Signal,
)
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from brikdesk.errors import Abandoned, OutcomeUnknown
from brikdesk.persistence.attempts import Attempt, attempting

log = logging.getLogger(__name__)

T = TypeVar("T")

#: A call that ends within this is waited for in place (milliseconds).
GRACE_MS = 60
#: After this, the window shows the action as in progress (milliseconds).
BUSY_MS = 300
#: After this, a notice says the server is not answering (milliseconds).
NOTICE_MS = 1000

#: What is held while a window waits for its write (delivered afterwards, in order).
_INPUT = frozenset(
    {
        QEvent.Type.KeyPress,
        QEvent.Type.KeyRelease,
        QEvent.Type.MouseButtonPress,
        QEvent.Type.MouseButtonRelease,
        QEvent.Type.MouseButtonDblClick,
        QEvent.Type.Wheel,
        QEvent.Type.ContextMenu,
        QEvent.Type.Close,
    }
)


class _Relay(QObject):
    """Lives on the GUI thread; the worker says through it that the call has ended."""

    ended = Signal()


class _Work:
    """The call on its worker thread, and what came of it."""

    def __init__(self, call: Callable[[], Any]) -> None:
        self.call = call
        self.attempt = Attempt()
        self.relay = _Relay()
        self.finished = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None
        self.late: Callable[[Any, BaseException | None], None] | None = None
        self.thread = threading.Thread(target=self._run, name="brikdesk-write", daemon=True)

    def _run(self) -> None:  # the worker thread
        try:
            with attempting(self.attempt):
                self.result = self.call()
        except BaseException as exc:  # handed to the GUI thread, never swallowed
            self.error = exc
        self.finished.set()
        try:
            self.relay.ended.emit()
        except RuntimeError:  # the relay is gone (the app is closing): nobody to tell
            log.debug("write ended after its relay was gone", exc_info=True)

    def outcome(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.result


_running: list[_Work] = []


def busy() -> bool:
    """True while a write is in flight (a poll of the database waits its turn)."""
    return bool(_running)


class _Holder(QObject):
    """Holds the input meant for ``window`` (and the shortcuts while it is active)."""

    def __init__(self, window: QWidget) -> None:
        super().__init__()
        self.window = window
        self.handle = window.windowHandle()
        self.held: list[tuple[QObject, QEvent]] = []

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.Shortcut:
            if QApplication.activeWindow() is self.window:
                self._hold(watched, event)
                return True
            return False
        if kind not in _INPUT:
            return False
        if watched is self.handle or (
            isinstance(watched, QWidget) and watched.window() is self.window
        ):
            self._hold(watched, event)
            return True
        return False

    def _hold(self, watched: QObject, event: QEvent) -> None:
        self.held.append((watched, event.clone()))
        if event.type() == QEvent.Type.Close:
            event.ignore()  # the window stays open until the write has ended
        else:
            event.accept()

    def deliver(self) -> None:
        """Post what was held, in order (it arrives after the caller applied the result);
        a close of the window held meanwhile closes it then."""
        for receiver, event in self.held:
            if not isValid(receiver):
                continue
            if event.type() == QEvent.Type.Close:
                QTimer.singleShot(0, self.window.close)
            else:
                QCoreApplication.postEvent(receiver, event)
        self.held.clear()


class ServerNotice(QDialog):
    """The notice that the database server is not answering, with Cancel."""

    def __init__(self, parent: QWidget | None, what: str) -> None:
        super().__init__(parent)
        self.setObjectName("serverNotice")
        self.setWindowTitle("BrikDesk: waiting for the database server")
        self.setAccessibleName("The database server is not answering")
        self._what = what
        layout = QVBoxLayout(self)
        self.label = QLabel(self)
        self.label.setObjectName("serverNoticeText")
        self.label.setWordWrap(True)
        self.label.setMinimumWidth(360)
        layout.addWidget(self.label)
        row = QHBoxLayout()
        row.addStretch(1)
        self.cancel = QPushButton("Cancel", self)
        self.cancel.setObjectName("serverNoticeCancel")
        self.cancel.setAccessibleName("Cancel the action")
        self.cancel.setDefault(True)
        row.addWidget(self.cancel)
        layout.addLayout(row)
        self.setFocusProxy(self.cancel)
        self.sent = False
        self.say(sent=False)

    def say(self, *, sent: bool) -> None:
        self.sent = sent
        name = f"“{self._what}”" if self._what else "The action"
        if sent:
            text = (
                f"The database server is not answering. {name} was sent to it; whether it "
                "was saved is not known yet. BrikDesk reads the database again when the "
                "server answers."
            )
            self.cancel.setText("Stop waiting")
            self.cancel.setAccessibleName("Stop waiting for the server")
        else:
            text = (
                f"The database server is not answering. {name} is waiting for it. "
                "Cancel gives it up: nothing is changed."
            )
        self.label.setText(text)

    def reject(self) -> None:  # Esc or the title bar's close: as Cancel
        self.cancel.click()


def _window_of(window: QWidget | None) -> QWidget | None:
    if window is not None:
        return window.window()
    active = QApplication.activeWindow()
    return active.window() if active is not None else None


def run_write(
    call: Callable[[], T],
    *,
    window: QWidget | None = None,
    text: str = "",
    late: Callable[[Any, BaseException | None], None] | None = None,
) -> T:
    """Run ``call`` off the GUI thread and return its result (or raise its error) on it; see
    the module's docstring. ``window``: whose input waits (default: the active window);
    ``text`` names the action; ``late(result, error)``: called on the GUI thread when a call
    that was stopped waiting for (``OutcomeUnknown``) ends after all."""
    app = QCoreApplication.instance()
    if app is None or QThread.currentThread() is not app.thread():
        return call()
    started = time.monotonic()
    work = _Work(call)
    work.late = late
    _running.append(work)
    try:
        work.thread.start()
        if work.finished.wait(GRACE_MS / 1000):
            return work.outcome()  # type: ignore[no-any-return]
        return _Waiting(work, _window_of(window), text, started).run()  # type: ignore[no-any-return]
    finally:
        if work in _running and (work.finished.is_set() or work.attempt.abandoned):
            _running.remove(work)


class _Waiting(QObject):
    """The slow path: a local event loop until the call ends or is given up."""

    def __init__(self, work: _Work, window: QWidget | None, text: str, started: float) -> None:
        super().__init__()
        self.work = work
        self.window = window
        self.text = text
        self.loop = QEventLoop()
        self.gave_up: BaseException | None = None
        self.holder = _Holder(window) if window is not None else None
        self.notice: ServerNotice | None = None
        self.bar = window.statusBar() if isinstance(window, QMainWindow) else None
        self.started = started
        work.relay.ended.connect(self.loop.quit, Qt.ConnectionType.QueuedConnection)
        self._busy = QTimer(self)
        self._busy.setSingleShot(True)
        self._busy.timeout.connect(self._show_busy)
        self._ticker = QTimer(self)
        self._ticker.timeout.connect(self._tick)
        self._notice_due = QTimer(self)
        self._notice_due.setSingleShot(True)
        self._notice_due.setTimerType(Qt.TimerType.PreciseTimer)
        self._notice_due.timeout.connect(self._tick)

    def run(self) -> Any:
        app = QCoreApplication.instance()
        assert app is not None
        if self.holder is not None:
            app.installEventFilter(self.holder)
        waited = (time.monotonic() - self.started) * 1000
        self._busy.start(max(0, int(BUSY_MS - waited)))
        self._notice_due.start(max(0, int(NOTICE_MS - waited)))
        self._ticker.start(100)
        try:
            if not self.work.finished.is_set():
                self.loop.exec()
        finally:
            self._end(app)
        if self.gave_up is None and not self.work.finished.is_set():
            # The loop was ended from outside (the app is quitting): give the write up.
            self.cancel()
        if self.holder is not None:
            self.holder.deliver()
        if self.gave_up is not None:
            if isinstance(self.gave_up, OutcomeUnknown):
                _after_all(self.work)
            raise self.gave_up
        return self.work.outcome()

    def _end(self, app: QCoreApplication) -> None:
        self._busy.stop()
        self._ticker.stop()
        self._notice_due.stop()
        if self.holder is not None:
            app.removeEventFilter(self.holder)
        if self.window is not None and isValid(self.window):
            self.window.unsetCursor()
        if self.bar is not None and isValid(self.bar):
            self.bar.clearMessage()
        if self.notice is not None:
            self.notice.close()
            self.notice.deleteLater()

    def _what(self) -> str:
        return self.text or "an action"

    def _show_busy(self) -> None:
        if self.window is not None:
            self.window.setCursor(Qt.CursorShape.BusyCursor)
        if self.bar is not None:
            self.bar.showMessage(f"Saving {self.text}…" if self.text else "Saving…")

    def _tick(self) -> None:
        elapsed = (time.monotonic() - self.started) * 1000
        attempt = self.work.attempt
        if self.notice is None and elapsed >= NOTICE_MS - 5 and attempt.on_server:
            log.warning("the database server is not answering (%s)", self._what())
            self.notice = ServerNotice(self.window, self.text)
            self.notice.cancel.clicked.connect(self.cancel)
            self.notice.say(sent=attempt.commit_sent)
            self.notice.show()
            if self.bar is not None:
                self.bar.showMessage("The database server is not answering.")
        elif self.notice is not None and attempt.commit_sent and not self.notice.sent:
            self.notice.say(sent=True)

    def cancel(self) -> None:
        waited = time.monotonic() - self.started
        if self.work.attempt.abandon():
            log.warning("%s given up after %.1f s: the server did not answer", self._what(), waited)
            self.gave_up = Abandoned("the database server did not answer; nothing was changed")
        else:
            log.warning(
                "stopped waiting for %s after %.1f s: the server has not answered its commit",
                self._what(),
                waited,
            )
            self.gave_up = OutcomeUnknown(
                "the database server has not answered; whether the change was saved is not "
                "known yet (BrikDesk reads the database again when it answers)"
            )
        self.loop.quit()


def _after_all(work: _Work) -> None:
    """Call ``work.late`` when a call nobody waits for any more ends."""

    def ended() -> None:
        if work in _running:
            _running.remove(work)
        if work.late is not None:
            work.late(work.result, work.error)

    if work.finished.is_set():
        QTimer.singleShot(0, ended)
    else:
        work.relay.ended.connect(ended, Qt.ConnectionType.QueuedConnection)
