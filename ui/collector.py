"""Python's cyclic garbage collector, run by the GUI thread between Qt's events.

Automatic collection stays off for the whole session (``brikdesk.cli`` turns it off before Qt
is imported). Left on, a collection runs wherever an allocation happens to trigger it: on a
worker thread in the middle of a read, or inside a Python ``paintEvent``, where a window whose
wrapper only a cycle held was deleted in the middle of its own paint (a crash). Here the GUI
thread collects from its event loop, never inside another event's handling:

- the young generations when they are due (as Python's own thresholds would have it) and the
  loop is about to sleep: what the last events made is looked at once they are painted, so
  each look is small (a fraction of a millisecond after a key) and no command waits for one.
  Looked at only once a second instead, the young generation held a whole closed battle (55,000
  objects at 500 units, 55 ms to collect) and the look landed inside the next command: opening
  a 500-unit battle measured 106 ms instead of 46 ms;
- the whole heap only when the loop has just slept a moment (the organizer is not typing) and
  a window has closed since the last full collection, or the old generation is due. A full
  collection was measured at 84 ms inside a key press; here no key waits for one;
- a loop that never sleeps (a stream of events) still has its young generations collected
  once a second when they have grown far past their threshold (``BACKLOG``).

What start-up made stays for the session: it is frozen (``gc.freeze``) out of every later
collection's sight once the first window shows.
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QAbstractEventDispatcher, QObject, QTimer
from PySide6.QtGui import QGuiApplication
from shiboken6 import getCppPointer

#: How often the young generations are looked at (ms).
TICK_MS = 1000
#: How long the event loop must have slept just before a tick for a full collection (s).
IDLE_S = 0.25
#: How many times its threshold the young generation may grow in a loop that never sleeps
#: before a tick collects it anyway.
BACKLOG = 100


def collect(generation: int = 2) -> int:
    """Collect ``generation`` and the younger ones now; the GUI thread calls this between
    events (the collector's tick, the tests between tests). Returns what was found."""
    return gc.collect(generation)


class GuiCollector(QObject):
    """The collector of the GUI thread (see the module docstring); made on that thread."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        gc.disable()
        self.young, self.middle, self.old = gc.get_threshold()
        #: A window closed since the last full collection.
        self.window_closed = False
        #: How long the loop must have slept just before a tick for a full collection (s).
        self.idle_s = IDLE_S
        self._blocked_at: float | None = None
        self._slept = 0.0
        #: The top-level windows on screen at the last tick (a window shown and closed
        #: between two ticks leaves its garbage to the next full collection).
        self.shown = shown_windows()
        dispatcher = QAbstractEventDispatcher.instance()
        if dispatcher is not None:
            dispatcher.aboutToBlock.connect(self._about_to_block)
            dispatcher.awake.connect(self._awake)
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.tick)
        self.timer.start(TICK_MS)

    def _about_to_block(self) -> None:
        self._blocked_at = time.monotonic()
        self.collect_young()

    def collect_young(self) -> None:
        """The young generations, when they are due: the loop is about to sleep."""
        young, middle, _old = gc.get_count()
        if middle > self.middle:
            collect(1)
        elif young > self.young:
            collect(0)

    def _awake(self) -> None:
        """How long the loop slept before this wake (0: it was not asleep)."""
        blocked, self._blocked_at = self._blocked_at, None
        self._slept = time.monotonic() - blocked if blocked is not None else 0.0

    def tick(self) -> None:
        shown = shown_windows()
        if self.shown - shown:  # a window shown at the last tick has closed since
            self.window_closed = True
        self.shown = shown
        young, middle, old = gc.get_count()
        if self._slept >= self.idle_s and (self.window_closed or old > self.old):
            self.window_closed = False
            collect(2)
        elif young > self.young * BACKLOG:
            collect(1)


def shown_windows() -> set[int]:
    """The top-level windows on screen now (their addresses)."""
    return {getCppPointer(w)[0] for w in QGuiApplication.topLevelWindows() if w.isVisible()}


def start_collecting(parent: QObject) -> GuiCollector:
    """Freeze what start-up made and collect from the GUI thread from now on."""
    gc.disable()
    gc.freeze()
    return GuiCollector(parent)
