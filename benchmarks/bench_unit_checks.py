"""Benchmark: the battle panel's rule checks at 60 and at 500 units (prints numbers; not a test).

Selecting a unit computes the key legend (``ui.panels.keys.keys_legend``: every key's move
tried on the rules); opening the Act menu checks each entry the same way. Both run on the GUI
thread, inside a step the organizer feels (a command: within 100 ms, "The speed rule" in
CONTRIBUTING.md). Per battle size, the 99th percentile over units of both players, on the first
player's turn, CPU time scaled to the rule's machine (``speed_rule``; ``raw_ms`` unscaled).

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_unit_checks.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import cast

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import bench_battle_panel
from PySide6.QtWidgets import QApplication, QMenu
from speed_rule import QUICK, SIZES, Loop, p99, quick

from brikdesk.services.tracker import BattleView
from ui.panels.keys import keys_legend
from ui.panels.unit_menus import UnitActions, fill_act


class NoActions:
    """The menus' actions (and the commands they record through), never triggered here."""

    def __getattr__(self, name: str) -> Callable[..., bool]:
        return lambda *args, **kwargs: False

    @property
    def commands(self) -> NoActions:
        return self


def cpu_ms(fn: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append((time.process_time() - start) * 1000)
    return times


def act_menu(view: BattleView, unit: int, actions: UnitActions) -> None:
    menu = QMenu()
    fill_act(menu, view, unit, actions)
    menu.deleteLater()


def main() -> None:
    loop = Loop()
    print(loop.line(), flush=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    actions = cast(UnitActions, NoActions())  # a stand-in, never called
    runs = quick(5, 1)
    for units in [20] if QUICK else SIZES:
        bench_battle_panel.UNITS = units
        with tempfile.TemporaryDirectory() as folder:
            sv, battle_id = bench_battle_panel.build(Path(folder))
            view: BattleView = sv.tracker.view(battle_id)
            ids = [u.id for u in view.units]
            sample = ids[:10] + ids[-10:]
            legend = [
                ms for u in sample for ms in cpu_ms(lambda u=u, v=view: keys_legend(v, u), runs)
            ]
            menus = [
                ms
                for u in sample
                for ms in cpu_ms(lambda u=u, v=view: act_menu(v, u, actions), runs)
            ]
            for what, values in (("key_legend", legend), ("act_menu", menus)):
                print(
                    f"CHECK {what} units={units} p99_ms={loop.scaled(p99(values)):.1f} "
                    f"raw_ms={p99(values):.1f} samples={len(values)}",
                    flush=True,
                )
        app.processEvents()


if __name__ == "__main__":
    main()
