"""Benchmark: the battle panel on a battle of 500 units (prints numbers; not a test).

End Turn through the panel (store the event, read the new state, update the table and the log
in place) followed by a synchronous repaint of the whole panel, and Undo of one event the same
way; median of many runs. Target for both: under 16 ms (one frame at 60 Hz).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_battle_panel.py
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtGui import QUndoStack  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from brikdesk.domain.battle import ActionUse, spend_action  # noqa: E402
from brikdesk.persistence.db import open_database  # noqa: E402
from brikdesk.services import Services  # noqa: E402
from brikdesk.services.summaries import Muster  # noqa: E402
from ui.bus import Bus  # noqa: E402
from ui.panels import BattlePanel  # noqa: E402

UNITS = 500
TURNS = 40
SPENT_PER_TURN = 24  # with the End Turns: about 1,000 events in the log at the end


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
    ready = [u.unit_id for u in state.units
             if u.player_id == state.active and u.action_available][:count]
    for i in range(0, len(ready), 100):
        sv.tracker.record(battle_id, [spend_action(state, uid, ActionUse.ATTACK)
                                      for uid in ready[i:i + 100]])


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp:
        sv, battle_id = build(Path(tmp))
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
        panel = BattlePanel(sv, Bus(), QUndoStack(), battle_id, settings=settings)
        panel.resize(1400, 900)
        panel.show()
        app.processEvents()

        end_turn, service, undo, end_cpu, undo_cpu = [], [], [], [], []
        for turn in range(TURNS):
            spend_some(sv, battle_id, SPENT_PER_TURN)
            panel.refresh()
            panel.repaint()
            app.processEvents()
            start, cpu = time.perf_counter(), time.process_time()
            panel.end_turn()
            panel.repaint()
            end_turn.append(time.perf_counter() - start)
            end_cpu.append(time.process_time() - cpu)
            # The tracker alone (store + new view), for the split.
            if turn % 2:
                start = time.perf_counter()
                sv.tracker.undo(battle_id)
                sv.tracker.view(battle_id)
                service.append(time.perf_counter() - start)
                sv.tracker.redo(battle_id)
                panel.refresh()
            # Undo one event through the panel (the app's undo stack), then redo it untimed.
            start, cpu = time.perf_counter(), time.process_time()
            panel.undo()
            panel.repaint()
            undo.append(time.perf_counter() - start)
            undo_cpu.append(time.process_time() - cpu)
            panel.redo()
            app.processEvents()
        events = len(sv.tracker.view(battle_id).events)
        panel.close()

    def ms(values: list[float]) -> str:
        return (f"median {statistics.median(values) * 1000:.1f} ms, "
                f"90th percentile {sorted(values)[int(len(values) * 0.9)] * 1000:.1f} ms")

    print(f"battle of {UNITS} units, {events} events in the log at the end")
    print(f"End Turn through the panel + repaint: {ms(end_turn)} (target: 16 ms)")
    print(f"  CPU time of this process:            {ms(end_cpu)}")
    print(f"Undo of one event + repaint:          {ms(undo)} (target: 16 ms)")
    print(f"  CPU time of this process:            {ms(undo_cpu)}")
    print(f"the tracker alone (undo + view):      {ms(service)}")
    print(f"machine load while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
