"""The End battle dialog and the finished battle's bar read on a worker: while the read is held
up (a slow or locked database), the window keeps answering, the dialog is open saying it is
reading (End battle disabled) and fills in when the read arrives; the bar says the battle is
finished at once and adds who won when read."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QWidget

from brikdesk.domain.ids import BattleId
from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from ui.dialogs.end_battle import EndBattleDialog

HELD = 3.0  # seconds the read is held up


class Ticks:
    """A timer on the GUI thread every 20 ms; ``longest`` is the longest wait between two of
    its ticks (what a user would feel as a frozen window)."""

    def __init__(self, parent) -> None:
        self.last = time.perf_counter()
        self.longest = 0.0
        self.timer = QTimer(parent)
        self.timer.setInterval(20)
        self.timer.timeout.connect(self.tick)
        self.timer.start()

    def tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self.last)
        self.last = now


class HeldUp:
    """Wraps a read so that it waits until ``release()`` (at most 10 s) and notes the thread
    it ran on."""

    def __init__(self, read: Callable[..., Any]) -> None:
        self.read = read
        self.go = threading.Event()
        self.threads: list[threading.Thread] = []

    def __call__(self, *args: Any) -> Any:
        self.threads.append(threading.current_thread())
        assert self.go.wait(10)
        return self.read(*args)

    def release(self) -> None:
        self.go.set()


def hold_then_release(qtbot, parent, held: HeldUp, ready: Callable[[], bool]) -> None:
    """Keep the read waiting ``HELD`` s: meanwhile the window answers (no tick of a 20 ms timer
    waits half that time, as it would for a read on the GUI thread, with room for a machine
    busy with other work) and ``ready()`` stays false; then let it go and wait for ``ready``.
    The read ran on a worker thread."""
    ticks = Ticks(parent)
    qtbot.wait(int(HELD * 1000))
    ticks.timer.stop()
    assert not ready()
    held.release()
    qtbot.waitUntil(ready, timeout=10_000)
    assert ticks.longest < HELD / 2
    assert held.threads and threading.main_thread() not in held.threads


@pytest.fixture
def services(demo_db: str) -> Iterator[Services]:
    db = open_database(demo_db)
    yield Services.open(db)
    db.close()


@pytest.fixture
def window(qtbot) -> QWidget:
    """A window for the dialog to open over (as over the main window, which deletes it)."""
    w = QWidget()
    qtbot.addWidget(w)
    return w


def open_dialog(window: QWidget, sv: Services) -> EndBattleDialog:
    dialog = EndBattleDialog(window, sv, in_progress(sv))
    dialog.show()
    return dialog


def in_progress(sv: Services) -> BattleId:
    campaign = sv.campaigns.list_campaigns()[0]
    return next(b.id for b in sv.battles.list_battles(campaign.id) if b.status == "in_progress")


def test_the_end_battle_dialog_reads_off_the_gui_thread(
    qtbot, window: QWidget, services: Services, monkeypatch
) -> None:
    held = HeldUp(services.aftermath.aftermath)
    monkeypatch.setattr(services.aftermath, "aftermath", held)
    start = time.perf_counter()
    dialog = open_dialog(window, services)
    opened = time.perf_counter() - start
    # Open at once, saying it is reading; nothing to end yet.
    assert dialog.reading.isVisible() and dialog.reading.text() == "Reading the battle…"
    assert not dialog.end_button.isEnabled()
    assert dialog.table.rowCount() == 0
    hold_then_release(qtbot, dialog, held, dialog.loaded)
    assert opened < 1.0
    assert not dialog.reading.isVisible()
    assert dialog.windowTitle() == f"End battle: {dialog.aftermath.name}"
    assert dialog.table.rowCount() == len(dialog.aftermath.units) == 9
    assert dialog.end_button.isEnabled()
    assert dialog.focusWidget() is dialog.status_boxes[0]
    assert "holds the field" in dialog.suggestion.text()


def test_a_refresh_reads_again_off_the_gui_thread(
    qtbot, window: QWidget, services: Services, monkeypatch
) -> None:
    dialog = open_dialog(window, services)
    qtbot.waitUntil(dialog.loaded)
    dialog.notes.setPlainText("Ended at dusk")
    held = HeldUp(services.aftermath.aftermath)
    monkeypatch.setattr(services.aftermath, "aftermath", held)
    dialog.refresh("Someone else changed the battle.")
    assert dialog.reading.text() == "Reading the battle again…"
    assert not dialog.end_button.isEnabled() and not dialog.table.isEnabled()
    hold_then_release(qtbot, dialog, held, dialog.loaded)
    assert dialog.notice.isVisible() and dialog.notice.text() == "Someone else changed the battle."
    assert dialog.end_button.isEnabled() and dialog.table.isEnabled()
    assert dialog.notes.toPlainText() == "Ended at dusk"


def test_the_finished_battle_bar_reads_who_won_off_the_gui_thread(
    qtbot, open_main, demo_db, monkeypatch
) -> None:
    main = open_main(demo_db)
    finished = next(b for b in main.nav.battles if b.status == "finished")
    held = HeldUp(main.services.aftermath.aftermath)
    monkeypatch.setattr(main.services.aftermath, "aftermath", held)
    main.open_battle(finished.id)
    bar = main.battle_panel.aftermath_bar
    # At once: finished and read-only; who won follows.
    qtbot.waitUntil(bar.isVisible)
    qtbot.wait(300)  # the window's own start-up work settles
    assert bar.label.text().startswith("This battle is finished; it is read-only")
    hold_then_release(qtbot, main, held, bar.result_ready)
    text = bar.label.text()
    assert text.startswith("This battle is finished (") and " won); it is read-only" in text
