"""Python's garbage collector in the app (``ui.collector``): automatic collection is off, the GUI
thread collects between Qt's events, never a worker thread and never inside a paint; a closed
window's cycles are freed once the app is idle."""

from __future__ import annotations

import gc
import threading
import time
import weakref
from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication, QDialog, QLabel, QMainWindow

from ui.collector import GuiCollector
from ui.workers import start_job


class Collections:
    """Notes, for each collection, the thread it ran on and its generation."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, int]] = []

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.seen.append((threading.get_ident(), info["generation"]))


@pytest.fixture
def collections() -> Iterator[Collections]:
    watch = Collections()
    gc.callbacks.append(watch)
    try:
        yield watch
    finally:
        gc.callbacks.remove(watch)


@pytest.fixture
def collector(qapp: QApplication) -> Iterator[GuiCollector]:
    made = GuiCollector(qapp)
    made.timer.setInterval(20)  # ticks often: the test runs a second, not minutes
    made.idle_s = 0.005  # and a short sleep of the loop (qtbot's waits) counts as idle
    try:
        yield made
    finally:
        made.timer.stop()
        made.deleteLater()


def cycles(n: int) -> int:
    """Make ``n`` reference cycles and drop them (only a collection frees them)."""
    for _ in range(n):
        a: list[object] = []
        a.append([a, {"x": a}])
    return n


def test_worker_threads_never_collect_while_windows_are_painted(
    qtbot, collector: GuiCollector, collections: Collections
) -> None:
    """Workers make garbage by the thousand while three windows are painted again and again:
    every collection runs on the GUI thread (with Python's automatic collection on, a worker's
    allocations would start collections on that worker)."""
    windows = []
    for title in ("Roster", "Catalog", "History"):
        w = QMainWindow()
        w.setCentralWidget(QLabel(title * 40))
        w.resize(600, 400)
        qtbot.addWidget(w)
        w.show()
        windows.append(w)
    made: list[int] = []
    for _ in range(4):
        start_job(collector, lambda _progress: cycles(20_000), on_done=made.append)
    end = time.monotonic() + 10
    while (len(made) < 4 or not collections.seen) and time.monotonic() < end:
        for w in windows:
            w.centralWidget().repaint()
        qtbot.wait(5)
    assert len(made) == 4, "the workers did not finish"
    assert collections.seen, "nothing was collected"
    gui = threading.main_thread().ident
    assert {thread for thread, _generation in collections.seen} == {gui}


def test_a_closed_windows_cycles_are_freed_once_the_app_is_idle(
    qtbot, collector: GuiCollector, collections: Collections
) -> None:
    """A dialog held only by a cycle (a signal connected to its own method) is freed by a
    full collection on the GUI thread once it has closed and the app has been idle a moment."""
    main = QMainWindow()
    qtbot.addWidget(main)
    main.show()

    def open_dialog() -> weakref.ref[QDialog]:
        dialog = QDialog(main)
        dialog.finished.connect(dialog.deleteLater)
        dialog.cycle = dialog  # type: ignore[attr-defined]
        dialog.show()
        return weakref.ref(dialog)

    qtbot.waitUntil(lambda: len(collector.shown) > 0)  # a tick has seen the main window
    before = len(collector.shown)
    gone = open_dialog()
    qtbot.waitUntil(lambda: len(collector.shown) > before)  # and the dialog on screen
    gone().reject()
    qtbot.waitUntil(lambda: gone() is None, timeout=5000)
    assert any(generation == 2 for _thread, generation in collections.seen)
    assert {thread for thread, _generation in collections.seen} == {threading.main_thread().ident}


def test_what_a_command_left_is_collected_as_the_loop_goes_idle(
    qtbot, collector: GuiCollector, collections: Collections
) -> None:
    """A closed battle's cycles are looked at once the app goes idle after the command, not a
    second later inside whatever command comes next: with no tick at all, a moment of idle
    frees them (the young generations only, on the GUI thread)."""
    collector.timer.stop()  # no tick: only the loop's going idle collects

    class Held:
        pass

    def drop_a_cycle() -> weakref.ref[Held]:
        held = Held()
        held.cycle = [held, cycles(collector.young)]  # type: ignore[attr-defined]
        return weakref.ref(held)

    gone = drop_a_cycle()
    assert gone() is not None  # only a collection frees a cycle
    qtbot.waitUntil(lambda: gone() is None, timeout=2000)
    assert collections.seen
    assert {generation for _thread, generation in collections.seen} <= {0, 1}
    assert {thread for thread, _generation in collections.seen} == {threading.main_thread().ident}
