"""Writes as background operations (``ui.operation``): a user action's database work runs off
the GUI thread, the window keeps repainting, its input waits and is applied in order
afterwards; on a server that stops answering a notice offers Cancel and nothing is lost.

The stalled-server test stops only the server processes of the app's own connections
(``SIGSTOP`` on their ``pg_backend_pid``, found by the ``application_name`` the test gives the
app), so other test workers on the same server are not stalled, and always resumes them.

The window asks to repaint every 10 ms; the longest time between two paints while the write
waits is printed (measured at 27 ms on an idle machine, against a 100 ms target). The tests
allow ``FROZEN_S`` so that a loaded machine running other tests does not fail them: a window
that waited on the server would show the whole wait (over a second) as one gap.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QLineEdit,
    QMainWindow,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool

from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from tests.databases import POSTGRESQL, fresh_url, server_url, using
from ui import operation
from ui.operation import ServerNotice, run_write

#: Writes wait in place only as long as in the app (tests/ui/conftest.py).
pytestmark = pytest.mark.usefixtures("background_writes")

#: The longest a window may go without a paint while its write waits, in these tests.
FROZEN_S = 0.25


class PaintClock(QObject):
    """Records when ``widget`` paints, asking it to repaint every 10 ms."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.widget = widget
        self.times: list[float] = []
        widget.installEventFilter(self)
        self.timer = QTimer()
        self.timer.timeout.connect(widget.update)
        self.timer.start(10)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.widget and event.type() == QEvent.Type.Paint:
            self.times.append(time.monotonic())
        return False

    def longest_gap(self, start: float, end: float) -> float:
        """The longest time (seconds) between ``start``, the paints in between and ``end``."""
        marks = [start, *[t for t in self.times if start < t < end], end]
        return max(b - a for a, b in zip(marks, marks[1:], strict=False))

    def stop(self) -> None:
        self.timer.stop()
        self.widget.removeEventFilter(self)


def test_a_quick_write_is_waited_for_in_place(qtbot) -> None:
    """A write of a few milliseconds (SQLite's) is simply waited for: nothing else runs in
    between, as if it had run on the GUI thread."""
    ran: list[str] = []
    QTimer.singleShot(0, lambda: ran.append("timer"))
    assert run_write(lambda: 41 + 1) == 42
    assert ran == []  # no event loop ran during it
    assert not operation.busy()


def test_input_during_a_slow_write_is_held_and_applied_in_order(qtbot) -> None:
    """The window repaints while a slow write runs; what is typed into it meanwhile is not
    lost, and arrives after the write's result, in order. Another window takes its keys at
    once."""
    window = QWidget()
    layout = QVBoxLayout(window)
    edit = QLineEdit(window)
    edit.setAccessibleName("Name")
    layout.addWidget(edit)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    edit.setFocus()
    other = QLineEdit()
    other.setAccessibleName("Notes")
    qtbot.addWidget(other)
    other.show()
    qtbot.waitExposed(other)
    clock = PaintClock(window)
    seen_during: list[str] = []

    def type_keys() -> None:
        QTest.keyClicks(edit, "ab")
        QTest.keyClicks(other, "cd")
        seen_during.extend([edit.text(), other.text()])

    QTimer.singleShot(150, type_keys)
    start = time.monotonic()
    try:
        result = run_write(lambda: time.sleep(0.5) or "written", window=window)
    finally:
        clock.stop()
    end = time.monotonic()
    assert result == "written"
    assert seen_during == ["", "cd"]  # held while the write ran; the other window took its own
    assert edit.text() == ""
    qtbot.waitUntil(lambda: edit.text() == "ab", timeout=1000)
    assert clock.longest_gap(start, end) < FROZEN_S


def test_a_slow_write_shows_itself_and_holds_shortcuts_in_order(qtbot) -> None:
    """After a moment the window says what it is saving (busy cursor, status bar); a shortcut
    pressed between two keys meanwhile runs between them, after the write."""
    window = QMainWindow()
    edit = QLineEdit(window)
    edit.setAccessibleName("Name")
    window.setCentralWidget(edit)
    order: list[str] = []
    edit.textChanged.connect(order.append)
    action = QAction("Mark", window)
    action.setShortcut(QKeySequence("Ctrl+K"))
    action.triggered.connect(lambda: order.append("Ctrl+K"))
    window.addAction(action)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    edit.setFocus()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2000)
    during: dict[str, object] = {}

    def keys() -> None:
        QTest.keyClick(edit, Qt.Key.Key_A)
        QTest.keyClick(edit, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClick(edit, Qt.Key.Key_B)
        during["order"] = list(order)

    def look() -> None:
        during["cursor"] = window.cursor().shape()
        during["status"] = window.statusBar().currentMessage()

    QTimer.singleShot(100, keys)
    QTimer.singleShot(operation.BUSY_MS + 150, look)
    assert run_write(lambda: time.sleep(0.8) or 1, window=window, text="Rename unit") == 1
    assert during["order"] == []  # nothing reached the window during the write
    assert during["cursor"] == Qt.CursorShape.BusyCursor
    assert during["status"] == "Saving Rename unit…"
    assert window.cursor().shape() != Qt.CursorShape.BusyCursor
    qtbot.waitUntil(lambda: edit.text() == "ab", timeout=1000)
    assert order == ["a", "Ctrl+K", "ab"]


def test_closing_the_window_during_a_write_closes_it_after_the_write(qtbot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    during: list[bool] = []

    def close() -> None:
        window.close()
        during.append(window.isVisible())

    QTimer.singleShot(100, close)
    assert run_write(lambda: time.sleep(0.4) or 1, window=window) == 1
    assert during == [True]  # still open while its write ran
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=1000)


def test_a_refused_slow_write_raises_its_error_on_the_gui_thread(qtbot) -> None:
    window = QWidget()
    qtbot.addWidget(window)

    def refused() -> None:
        time.sleep(0.2)
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        run_write(refused, window=window)


# -- a stalled PostgreSQL server --------------------------------------------------------------

needs_server = pytest.mark.skipif(
    server_url() is None, reason="needs BRIKDESK_TEST_DB_URL (.ci/run starts a server)"
)


def backends(admin_url: str, app_name: str) -> set[int]:
    """The server processes of the connections named ``app_name``."""
    admin = create_engine(admin_url, poolclass=NullPool)
    try:
        with admin.connect() as conn:
            return set(
                conn.execute(
                    text("SELECT pid FROM pg_stat_activity WHERE application_name = :n"),
                    {"n": app_name},
                ).scalars()
            )
    finally:
        admin.dispose()


@contextmanager
def stopped(admin_url: str, app_name: str) -> Iterator[list[int]]:
    """SIGSTOP the server processes of the connections named ``app_name``; SIGCONT always."""
    pids = sorted(backends(admin_url, app_name))
    assert pids, "the app has no connection to stop"
    try:
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        yield pids
    finally:
        for pid in pids:
            os.kill(pid, signal.SIGCONT)


def campaign_names(url: str) -> list[str]:
    db = open_database(url, migrate=False)
    try:
        return sorted(c.name for c in Services.open(db).campaigns.list_campaigns())
    finally:
        db.close()


@pytest.fixture
def stall_app(open_main, tmp_path: Path) -> tuple:
    """The main window on a fresh PostgreSQL database holding campaigns "Before" and "Warm"
    (the second made through the window); its connections carry their own application name.
    Returns (window, the app's URL, an admin URL, that application name)."""
    with using(POSTGRESQL):
        base = fresh_url(tmp_path, "stalled")
    app_name = f"brikdesk_stall_{os.getpid()}"
    url = make_url(base).update_query_dict({"application_name": app_name})
    app_url = url.render_as_string(hide_password=False)
    seeded = open_database(app_url)
    Services.open(seeded).campaigns.create_campaign("Before")
    seeded.close()
    window = open_main(app_url)
    assert window.runner.perform(lambda: window.services.campaigns.create_campaign("Warm"))
    admin_url = make_url(base).update_query_dict({"options": ""}).render_as_string(False)
    return window, app_url, admin_url, app_name


@needs_server
def test_a_stalled_server_leaves_the_window_responsive_and_cancel_loses_nothing(
    stall_app: tuple, qtbot
) -> None:
    window, app_url, admin_url, app_name = stall_app
    runner = window.runner
    clock = PaintClock(window)
    times: dict[str, float] = {}
    said: list[str] = []

    def watch_for_notice() -> None:
        notice = window.findChild(ServerNotice, "serverNotice")
        if notice is not None and notice.isVisible():
            times["notice"] = time.monotonic()
            said.append(notice.label.text())
            poll.stop()

            def click() -> None:
                times["cancel"] = time.monotonic()
                notice.cancel.click()

            QTimer.singleShot(200, click)

    poll = QTimer()
    poll.timeout.connect(watch_for_notice)
    try:
        with stopped(admin_url, app_name) as pids:
            poll.start(20)
            start = time.monotonic()
            result = runner.perform(lambda: window.services.campaigns.create_campaign("Stalled"))
            end = time.monotonic()
            poll.stop()
            assert result is None  # given up
            assert "notice" in times, "no notice that the server is not answering"
            assert "not answering" in said[0]
            assert "Cancelled" in window.banner.text()
            gap = clock.longest_gap(start, end)
            print(
                f"\nstalled write: longest frozen {gap * 1000:.0f} ms, notice after "
                f"{(times['notice'] - start) * 1000:.0f} ms, Cancel took "
                f"{(end - times['cancel']) * 1000:.0f} ms"
            )
            assert gap < FROZEN_S
            assert 0.9 <= times["notice"] - start < 3.0
            assert end - times["cancel"] < 1.0
    finally:
        clock.stop()
        poll.stop()
    # The write's connection was abandoned, not taken back: its server process, resumed, sees
    # it closed and ends.
    qtbot.waitUntil(lambda: not set(pids) <= backends(admin_url, app_name), timeout=10_000)
    # Nothing was written, nothing was lost; the next action succeeds.
    assert campaign_names(app_url) == ["Before", "Warm"]
    after = runner.perform(lambda: window.services.campaigns.create_campaign("After"))
    assert after is not None
    assert campaign_names(app_url) == ["After", "Before", "Warm"]
    QApplication.processEvents()


@needs_server
def test_a_commit_the_server_has_not_answered_is_said_unknown_then_read_again(
    stall_app: tuple, qtbot
) -> None:
    """The server stops just as the action's COMMIT goes out: the notice says the outcome is
    not known yet; Stop waiting gives the window back; when the server answers, the status
    bar says the change was saved and every view reads the database again."""
    window, app_url, _admin_url, _app_name = stall_app
    engine = window.services._sessions.kw["bind"]
    paused: list[int] = []

    def stop_at_commit(conn) -> None:  # runs on the write's thread, just before its COMMIT
        if threading.current_thread().name == "brikdesk-write" and not paused:
            pid = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
            paused.append(pid)
            os.kill(pid, signal.SIGSTOP)

    said: list[str] = []
    window.bus.status.connect(said.append)
    shown: list[str] = []

    def watch_for_notice() -> None:
        notice = window.findChild(ServerNotice, "serverNotice")
        if notice is not None and notice.isVisible():
            shown.append(notice.label.text())
            poll.stop()
            QTimer.singleShot(100, notice.cancel.click)

    poll = QTimer()
    poll.timeout.connect(watch_for_notice)
    event.listen(engine, "commit", stop_at_commit)
    try:
        poll.start(20)
        result = window.runner.perform(lambda: window.services.campaigns.create_campaign("Sent"))
        assert result is None  # not waited for any more
        assert paused, "the server was not stopped at the commit"
        assert "not known yet" in shown[0]
        assert "not known yet" in window.banner.text()
        assert not any("answered" in text for text in said)
    finally:
        poll.stop()
        event.remove(engine, "commit", stop_at_commit)
        for pid in paused:
            os.kill(pid, signal.SIGCONT)
    qtbot.waitUntil(lambda: any("answered" in text for text in said), timeout=10_000)
    assert "The database server answered: the change was saved." in said
    assert campaign_names(app_url) == ["Before", "Sent", "Warm"]
    # The next action works.
    assert window.runner.perform(lambda: window.services.campaigns.create_campaign("Next"))


@needs_server
def test_cancelling_an_import_on_a_stalled_server_imports_nothing(
    stall_app: tuple, qtbot, tmp_path: Path
) -> None:
    """The import's progress dialog cancels a transfer stuck on a server that stopped
    answering at once (its connection is cut), and nothing is imported."""
    window, app_url, admin_url, app_name = stall_app
    source = tmp_path / "warm.json"
    warm = next(c for c in window.services.campaigns.list_campaigns() if c.name == "Warm")
    window.services.transfer.write_export(warm.id, source)
    with stopped(admin_url, app_name):
        job = window.import_campaign(source, "Copy")
        qtbot.waitUntil(lambda: job.dialog.isVisible(), timeout=5_000)
        qtbot.wait(300)  # stuck on the server
        assert not job.done
        cancelled = time.monotonic()
        job.dialog.findChild(QPushButton).click()  # Cancel
        qtbot.waitUntil(lambda: job.done, timeout=5_000)
        took = time.monotonic() - cancelled
    assert job.cancelled and job.result is None
    assert took < 1.0
    assert "cancelled; nothing was imported" in window.banner.text()
    assert campaign_names(app_url) == ["Before", "Warm"]
    # The next import works once the server answers.
    again = window.import_campaign(source, "Copy")
    qtbot.waitUntil(lambda: again.done, timeout=20_000)
    assert campaign_names(app_url) == ["Before", "Copy", "Warm"]


def test_a_server_that_does_not_answer_is_said_to_be_the_server(qtbot) -> None:
    """The error box names the server, not the disk, when the server is what failed; a
    file's error still points at the disk."""
    from brikdesk.errors import ServerError, StorageError
    from brikdesk.services.common import storage_errors
    from ui.widgets.common import show_storage_error

    @storage_errors
    def refused() -> None:
        raise OperationalError(
            "SELECT 1",
            {},
            Exception(
                'connection failed: connection to server at "127.0.0.1", port 5432 failed: '
                "Connection refused\n\tIs the server running on that host?"
            ),
        )

    with pytest.raises(ServerError) as caught:
        refused()
    box = show_storage_error(None, caught.value)
    qtbot.addWidget(box)
    assert box.windowTitle() == "BrikDesk: the database server did not answer"
    assert "Check that the database server is running" in box.informativeText()
    assert "disk" not in box.informativeText()
    disk = show_storage_error(None, StorageError("database or disk is full"))
    qtbot.addWidget(disk)
    assert "Check the disk" in disk.informativeText()
