"""Benchmark: the battle panel's rule checks on a battle of 500 units (prints numbers; not a
test).

The speed rule: an interaction's whole cost (domain and UI together) stays within one 16 ms
frame on the 500-unit benchmarks; a change made for speed goes in only when it moves a total a
user can perceive across that line.

Selecting a unit computes the key legend (``ui.panels.keys.keys_legend``: every key's move tried on
the rules); opening the Act menu checks each entry the same way. Both run on the GUI thread, so each
should stay well under 50 ms ("Never block the GUI thread" in docs/conventions.md). Median and worst
over units of both players, on the first player's turn.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_unit_checks.py
"""

from __future__ import annotations

import functools
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import cast

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtWidgets import QApplication, QMenu

from benchmarks.bench_battle_panel import UNITS, build
from brikdesk.services.tracker import BattleView
from ui.panels.keys import keys_legend
from ui.panels.unit_menus import UnitActions, fill_act


class NoActions:
    """The menus' actions, never triggered here."""

    def __getattr__(self, name: str) -> Callable[..., bool]:
        return lambda *args, **kwargs: False


def timed(fn: Callable[[], object], runs: int = 5) -> float:
    best = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best.append(time.perf_counter() - start)
    return statistics.median(best) * 1000


def main() -> None:
    app = QApplication.instance() or QApplication(sys.argv)
    with tempfile.TemporaryDirectory() as folder:
        sv, battle_id = build(Path(folder))
        view: BattleView = sv.tracker.view(battle_id)
        ids = [u.id for u in view.units]
        sample = ids[:10] + ids[-10:]
        actions = cast(UnitActions, NoActions())  # a stand-in, never called
        legend = [timed(functools.partial(keys_legend, view, u)) for u in sample]

        def act_menu(u: int) -> None:
            menu = QMenu()
            fill_act(menu, view, u, actions)
            menu.deleteLater()

        menus = [timed(functools.partial(act_menu, u)) for u in sample]
        for what, values in (
            ("key legend on selecting a unit", legend),
            ("Act menu filled with its checks", menus),
        ):
            print(
                f"{what}: median {statistics.median(values):.1f} ms, "
                f"worst {max(values):.1f} ms ({UNITS} units)"
            )
        print(f"machine load while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        app.processEvents()


if __name__ == "__main__":
    main()
