"""Benchmark: the battle panel on a battle of 500 units (prints numbers; not a test).

The speed rule ("The speed rule" in CONTRIBUTING.md): a command within 100 ms, a key's echo
within 50 ms (p99, at 60 and at 500 units, scaled to the rule's machine: ``speed_rule``); below
those lines simpler code wins.

End Turn through the panel, and Undo of one event through the panel (the battle's undo
history: an attack, which changes one row, and the End Turn, which changes every row), each
followed by the paint Qt does for what they changed (``processEvents``); median of many runs.
Each prints its whole total and whether it is within a command's 100 ms, then the same run's
split: the tracker's part (time spent inside the tracker service's methods: store, read the new
state) and the UI's part (the rest: the panel, the models, the views and Qt's paint, shown
apart). Then, in a few extra untimed runs, the paint and layout events Qt sends per widget
during each (what repaints or lays out twice, or at all, on End Turn and Undo).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_battle_panel.py
"""

from __future__ import annotations

import functools
import gc
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QObject, QSettings
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QApplication, QWidget
from speed_rule import quick

from brikdesk.domain.battle import ActionUse, spend_action
from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from brikdesk.services.summaries import Muster
from ui.app import collect_on_gui_thread, create_application
from ui.bus import Bus
from ui.main_window import combat_forms
from ui.panels import BattlePanel

UNITS = quick(500, 20)
TURNS = quick(40, 1)
SPENT_PER_TURN = quick(24, 2)  # with the End Turns: about 1,000 events in the log at the end
FRAME_MS = 100.0  # a command (End Turn, Undo): within it
#: The tracker's methods the panel calls (directly, or through the undo history's steps).
TRACKER_CALLS = ("view", "record", "end_turn", "undo", "redo", "revert_events", "unrevert_events")


def build(folder: Path) -> tuple[Services, int]:
    db = open_database(f"sqlite:///{folder / 'bench.sqlite3'}")
    sv = Services.open(db)
    c = sv.campaigns.create_campaign("Bench").value
    musters = []
    for name in ("Red", "Blue"):
        p = sv.campaigns.add_player(c.id, name).value
        army = sv.campaigns.add_army(p.id, f"{name} horde").value
        ids = sv.roster.add_units(army.id, "minifig", UNITS // 2).value
        musters.append(Muster(p.id, ids))
    battle = sv.tracker.begin(c.id, "Big battle", musters).value
    return sv, battle.id


def spend_some(sv: Services, battle_id: int, count: int) -> None:
    """Untimed: the active player's first ``count`` ready units attack (in groups of 100)."""
    state = sv.tracker.view(battle_id).state
    ready = [u.unit_id for u in state.units if u.player_id == state.active and u.action_available][
        :count
    ]
    for i in range(0, len(ready), 100):
        sv.tracker.record(
            battle_id, [spend_action(state, uid, ActionUse.ATTACK) for uid in ready[i : i + 100]]
        )


def settle(app: QApplication) -> None:
    """Let Qt finish what it deferred: item views lay out on a 0 ms timer, then paint."""
    for _ in range(3):
        app.processEvents()


class TrackerClock:
    """Adds up the time spent inside the tracker's methods (wrapped on the instance)."""

    def __init__(self, tracker: Any) -> None:
        self.spent = 0.0
        for name in TRACKER_CALLS:
            setattr(tracker, name, self._timed(getattr(tracker, name)))

    def _timed(self, method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def run(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                self.spent += time.perf_counter() - start

        return run


class QtEvents(QObject):
    """Counts the paint and layout events Qt sends, per widget (its object name, else its
    class and its parent's name), while ``counting``; installed on the application."""

    KINDS = {QEvent.Type.Paint: "paint", QEvent.Type.LayoutRequest: "layout"}

    def __init__(self) -> None:
        super().__init__()
        self.counting = False
        self.seen: dict[tuple[str, str], int] = {}

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = self.KINDS.get(event.type()) if self.counting else None
        if kind is not None and isinstance(watched, QWidget):
            key = (kind, self.name(watched))
            self.seen[key] = self.seen.get(key, 0) + 1
        return False

    @staticmethod
    def name(w: QWidget) -> str:
        own = w.objectName()
        if own and not own.startswith("qt_"):
            return own
        parent = w.parentWidget()
        above = parent.objectName() if parent is not None else ""
        return f"{type(w).__name__}{' ' + own if own else ''} in {above or '?'}"

    def lines(self, what: str, runs: int) -> list[str]:
        total = {
            k: sum(n for (kind, _w), n in self.seen.items() if kind == k)
            for k in ("paint", "layout")
        }
        out = [
            f"{what}: per run {total['paint'] / runs:.1f} paint and "
            f"{total['layout'] / runs:.1f} layout events"
        ]
        for (kind, widget), n in sorted(self.seen.items(), key=lambda kv: -kv[1]):
            out.append(f"    {n / runs:4.1f} {kind:6} {widget}")
        return out


class Split:
    """Totals, tracker parts and UI parts of one kind of action."""

    def __init__(self) -> None:
        self.total: list[float] = []
        self.tracker: list[float] = []
        self.paint: list[float] = []

    def measure(self, clock: TrackerClock, app: QApplication, action: Callable[[], Any]) -> None:
        clock.spent = 0.0
        start = time.perf_counter()
        action()
        acted = time.perf_counter()
        settle(app)  # the paint of what changed
        end = time.perf_counter()
        self.total.append(end - start)
        self.tracker.append(clock.spent)
        self.paint.append(end - acted)

    def lines(self, what: str) -> list[str]:
        ui = [t - s for t, s in zip(self.total, self.tracker, strict=True)]
        update = [u - p for u, p in zip(ui, self.paint, strict=True)]

        def ms(values: list[float]) -> str:
            return f"{statistics.median(values) * 1000:5.1f} ms"

        total = statistics.median(self.total) * 1000
        verdict = "within" if total <= FRAME_MS else "OVER"
        return [
            f"{what}: total {total:5.1f} ms (median; {verdict} a command, {FRAME_MS:g} ms)",
            f"  the tracker's part: {ms(self.tracker)}",
            f"  the UI's part:      {ms(ui)}",
            f"    of which the panel's update: {ms(update)}, Qt's paint: {ms(self.paint)}",
        ]


def one_more_attack(sv: Services, battle_id: int, panel: BattlePanel, app: QApplication) -> None:
    """The turn's units spend their Actions (through the tracker), then one more attack goes
    through the panel (untimed): what the Undo that follows takes back."""
    spend_some(sv, battle_id, SPENT_PER_TURN)
    panel.refresh()
    settle(app)
    state = sv.tracker.view(battle_id).state
    ready = next(
        u.unit_id for u in state.units if u.player_id == state.active and u.action_available
    )
    panel.commands.spend(ready, ActionUse.ATTACK)
    settle(app)


def count_events(
    app: QApplication, panel: BattlePanel, sv: Services, battle_id: int, runs: int = 5
) -> list[str]:
    """Paint and layout events per widget during Undo of an attack, End Turn and its Undo."""
    out = []
    kinds: dict[str, QtEvents] = {}
    for what in ("End Turn", "Undo of an attack", "Undo of the End Turn"):
        kinds[what] = QtEvents()
    for _run in range(runs):
        one_more_attack(sv, battle_id, panel, app)
        for what, action in (
            ("Undo of an attack", panel.undo),
            ("redo", panel.redo),
            ("End Turn", panel.end_turn),
            ("Undo of the End Turn", panel.undo),
            ("redo", panel.redo),
        ):
            counter = kinds.get(what)
            if counter is not None:
                app.installEventFilter(counter)
                counter.counting = True
            action()
            settle(app)
            if counter is not None:
                counter.counting = False
                app.removeEventFilter(counter)
    for what, counter in kinds.items():
        out += counter.lines(what, runs)
    return out


def main() -> None:
    gc.disable()  # as the app starts: no collections while it starts (brikdesk.cli)
    app = create_application()  # Qt set up as the app runs it
    with tempfile.TemporaryDirectory() as tmp:
        sv, battle_id = build(Path(tmp))
        collect_on_gui_thread()  # what start-up made is frozen, as in the app
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
        panel = BattlePanel(
            sv, Bus(), QUndoStack(), battle_id, settings=settings, forms=combat_forms()
        )
        panel.resize(1400, 900)
        panel.show()
        settle(app)
        clock = TrackerClock(sv.tracker)
        end_turn, undo, undo_end = Split(), Split(), Split()
        for _turn in range(TURNS):
            # One more attack through the panel (untimed), then Undo of it and Redo.
            one_more_attack(sv, battle_id, panel, app)
            undo.measure(clock, app, panel.undo)
            panel.redo()
            settle(app)
            end_turn.measure(clock, app, panel.end_turn)
            # Undo of the End Turn: every row changes (the active player, who can respond).
            undo_end.measure(clock, app, panel.undo)
            panel.redo()
            settle(app)
        events = len(sv.tracker.view(battle_id).events)
        counts = count_events(app, panel, sv, battle_id)
        panel.close()

    print(f"battle of {UNITS} units, {events} events in the log at the end, {TURNS} runs of each")
    print("\n".join(end_turn.lines("End Turn through the panel")))
    print("\n".join(undo.lines("Undo of one event (an attack) through the panel")))
    print("\n".join(undo_end.lines("Undo of one event (the End Turn) through the panel")))
    print("Qt's events (counted in extra runs, not timed):")
    for line in counts:
        print("  " + line)
    print(f"machine load while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"this machine's speed: a plain Python loop, sum(range(10**6)), takes {loop_ms():.1f} ms")


def loop_ms() -> float:
    """The median of 5 runs of a plain Python loop, to compare the totals across machines."""
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        sum(range(10**6))
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs)


if __name__ == "__main__":
    main()
