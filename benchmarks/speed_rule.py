"""What the benchmarks share to state the speed rule's numbers (CONTRIBUTING.md, "The speed
rule"): the reference loop, the 99th percentile, times scaled to the rule's machine, and the
quick mode the test suite runs every benchmark in.

A command (End Turn, record, undo, opening a form or a window) within ``COMMAND_MS``; a key's
echo (a typed die, a letter) within ``ECHO_MS``; both the 99th percentile of each step,
collections included, at 60 and at 500 units, on a machine where ``sum(range(10**6))`` takes
``LOOP_REFERENCE_MS``. A benchmark times that loop here and scales its times by it.

``BENCH_QUICK=1`` (the test suite sets it: ``tests/test_benchmarks.py``) asks every benchmark
for small sizes and one run: it only shows that the script still runs.
"""

from __future__ import annotations

import gc
import math
import os
import statistics
import threading
import time
from collections.abc import Sequence

COMMAND_MS = 100.0
ECHO_MS = 50.0
LOOP_REFERENCE_MS = 12.0
#: The battle sizes every table benchmark runs at.
SIZES = (60, 500)

#: Small sizes, one run (``BENCH_QUICK=1``): the script runs, its numbers mean nothing.
QUICK = os.environ.get("BENCH_QUICK") == "1"


def quick(normal: int, small: int) -> int:
    """``small`` in the quick mode, else ``normal``."""
    return small if QUICK else normal


class Loop:
    """The reference loop's time here (the median of a few runs), wall and CPU (ms)."""

    def __init__(self, runs: int = 9) -> None:
        wall, cpu = [], []
        for _ in range(runs):
            w, c = time.perf_counter(), time.process_time()
            sum(range(10**6))
            cpu.append((time.process_time() - c) * 1000)
            wall.append((time.perf_counter() - w) * 1000)
        self.wall_ms = statistics.median(wall)
        self.cpu_ms = statistics.median(cpu)

    def line(self) -> str:
        """The first line a benchmark prints."""
        return (
            f"LOOP ms={self.cpu_ms:.1f} wall_ms={self.wall_ms:.1f} "
            f"(sum(range(10**6)); the rule's machine: {LOOP_REFERENCE_MS:.0f} ms; "
            f"times below scaled by {LOOP_REFERENCE_MS / self.cpu_ms:.2f})"
        )

    def scaled(self, cpu_ms: float) -> float:
        """A CPU time measured here, as the rule's machine would take it."""
        return cpu_ms * LOOP_REFERENCE_MS / self.cpu_ms


def pause(ms: int) -> None:
    """The organizer pauses ``ms`` (looks at the screen): Qt's event loop runs and sleeps as it
    does in the app between two keys, so what the app does when idle (the collector's look at
    the young generations, ``ui.collector``) happens here too, outside any timed step. (A
    ``QTest.qWait`` never lets the loop sleep.)"""
    if ms <= 0:
        return
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def p99(values: Sequence[float]) -> float:
    """The 99th percentile (nearest rank): with fewer than 100 values, the largest."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]


class Timer:
    """Times steps in wall and CPU time, and notes any full collection that ran in one."""

    def __init__(self) -> None:
        self.full_collections = 0
        self.off_thread_collections = 0
        self._in_step = False
        gc.callbacks.append(self._collection)

    def close(self) -> None:
        gc.callbacks.remove(self._collection)

    def _collection(self, phase: str, info: dict[str, int]) -> None:
        if phase != "start":
            return
        if threading.current_thread() is not threading.main_thread():
            self.off_thread_collections += 1
        if self._in_step and info["generation"] == 2:
            self.full_collections += 1

    def start(self) -> tuple[float, float]:
        self._in_step = True
        return time.perf_counter(), time.process_time()

    def stop(self, started: tuple[float, float]) -> tuple[float, float]:
        """The step's (wall, CPU) milliseconds since ``started``."""
        self._in_step = False
        wall, cpu = started
        return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000
