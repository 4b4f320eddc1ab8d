"""Benchmark: what the organizer does at the table, in key presses and milliseconds.

On a battle of 500 units, the real battle panel in a real main window's place (a shown
``BattlePanel``), driven only by key events (QTest) sent to whatever has the keyboard focus,
as the organizer types them:

- ``ranged``: the plain ranged attack with typed dice, from the panel with the attacker
  selected (Q, a few letters of the target, Tab, the range, Tab, the dice, Enter);
- ``strike_parry``: a Strike answered by a Parry (Alt+P declares it) through the quick form;
- ``combined``: a combined attack of two through the full wizard (A), from the keyboard;
- ``combined_again``: the same, as the next attack in the same panel (the first undone);
- ``sprint``: a Sprint (S, the die, Enter);
- ``end_turn``: End Turn (Ctrl+E).

Each flow runs ``RUNS`` times on a fresh copy of the battle; per flow it prints

    FLOW name keys=N clicks=M ui_ms=X max_step_ms=Y

``keys`` the key presses, ``clicks`` the mouse clicks (none: every flow is typed), ``ui_ms``
the median over the runs of the whole flow's cost (every key's handling and the paint it
causes, the services' work included), ``max_step_ms`` the median over the runs of its slowest
key. Targets: ranged at most 10 keys and no click; strike_parry at most 14; every step within
one 16 ms frame.

With ``BENCH_STEPS=1`` it also prints, per flow, each key's median over the runs in the order
typed (``STEPS name key:ms key:ms ...``): which step crosses the frame. ``BENCH_ONLY=name`` runs one
flow.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_table_flow.py
"""

from __future__ import annotations

import gc
import importlib
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget
from shiboken6 import isValid

from brikdesk.domain.roster import Loadout
from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from brikdesk.services.summaries import Muster
from ui.app import COMBAT_MODULES, collect_on_gui_thread, create_application
from ui.bus import Bus
from ui.main_window import combat_forms
from ui.panels import BattlePanel
from ui.screen import pretend_screen
from ui.settings import KEY_DICE_MODE

UNITS = 500
RUNS = 5
#: The screen the forms size themselves to: the issue's laptop (Qt's offscreen screen is
#: 800x800, which squeezes the wizard into a page that scrolls sideways).
SCREEN = (1366, 768)
#: How long the panel shows before the first key of a flow.
LOOK_MS = 500
NAMED = {  # name: side, hands (the rest of each side are plain minifigs)
    "Thieven Hood": ("red", ("long-ranged-weapon",)),
    "Will Scarlet": ("red", ("hand-weapon", None)),
    "Little John": ("red", ("hand-weapon", None)),
    "Guy of Gisbourne": ("blue", ("hand-weapon", "shield")),
}


def build(path: Path) -> tuple[int, dict[str, int]]:
    db = open_database(f"sqlite:///{path}")
    sv = Services.open(db)
    c = sv.campaigns.create_campaign("Bench").value
    musters = []
    for side in ("red", "blue"):
        p = sv.campaigns.add_player(c.id, side.title()).value
        army = sv.campaigns.add_army(p.id, f"{side.title()} horde").value
        ids = [
            sv.roster.add_unit(army.id, "minifig", name=name, loadout=Loadout(hands)).value[0]
            for name, (s, hands) in NAMED.items()
            if s == side
        ]
        plain = UNITS // 2 - len(ids)
        ids += list(sv.roster.add_units(army.id, "minifig", plain).value)
        musters.append(Muster(p.id, tuple(ids)))
    view = sv.tracker.begin(c.id, "Big battle", musters).value
    names = {u.name: u.id for u in view.units}
    db.close()
    return view.id, names


class Flow:
    """One run of a flow: keys typed where the focus is, each timed to the end of its paint."""

    def __init__(self, app: QApplication) -> None:
        self.app = app
        self.keys = 0
        self.clicks = 0
        self.steps: list[float] = []
        self.names: list[str] = []

    def settle(self) -> None:
        for _ in range(3):
            self.app.processEvents()

    def key(
        self, key: Qt.Key | str, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
    ) -> None:
        target = QApplication.focusWidget() or QApplication.activeWindow()
        assert target is not None, "nothing has the keyboard focus"
        start = time.perf_counter()
        if isinstance(key, str):
            QTest.keyClicks(target, key, modifier)
        else:
            QTest.keyClick(target, key, modifier)
        self.settle()
        self.steps.append((time.perf_counter() - start) * 1000)
        self.names.append(key_name(key, modifier))
        self.keys += 1

    def type(self, text: str) -> None:
        for ch in text:
            self.key(ch)

    def dice(self, entry_of: Callable[[], object], face: str = "3", most: int = 12) -> None:
        """Type ``face`` for every die asked, while a die is asked."""
        for _ in range(most):
            entry = entry_of()
            if entry is None or getattr(entry, "need", None) is None:
                return
            self.key(face)


def key_name(key: Qt.Key | str, modifier: Qt.KeyboardModifier) -> str:
    """A key as the STEPS line names it: ``5``, ``Tab``, ``Alt+P``."""
    name = key if isinstance(key, str) else key.name.removeprefix("Key_")
    for mod, word in (
        (Qt.KeyboardModifier.ControlModifier, "Ctrl+"),
        (Qt.KeyboardModifier.AltModifier, "Alt+"),
    ):
        if modifier & mod:
            name = word + name
    return name


def closed(window: QWidget) -> bool:
    """Whether a form closed (recorded): gone, or hidden."""
    return not isValid(window) or not window.isVisible()


def open_panel(app: QApplication, path: Path, battle_id: int, folder: Path) -> BattlePanel:
    sv = Services.open(open_database(f"sqlite:///{path}"))
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue(KEY_DICE_MODE, "typed")  # the organizer types the dice rolled
    panel = BattlePanel(sv, Bus(), QUndoStack(), battle_id, settings=settings, forms=combat_forms())
    panel.resize(1300, 740)
    panel.show()
    panel.activateWindow()
    # The organizer looks at the battle before the first key: the panel's work after its
    # first paint (the quick attack form made ahead) is done by then, as at the table.
    QTest.qWait(LOOK_MS)
    return panel


def select(panel: BattlePanel, unit: int, app: QApplication) -> None:
    panel.select_unit(unit)
    panel.table.setFocus()
    for _ in range(3):
        app.processEvents()


def ranged(f: Flow, panel: BattlePanel, ids: dict[str, int]) -> None:
    from ui.wizard.quick import QuickAttack

    select(panel, ids["Thieven Hood"], f.app)
    f.key(Qt.Key.Key_Q)
    form = panel.findChild(QuickAttack)
    assert form is not None, panel.message_text
    f.type("guy")
    f.key(Qt.Key.Key_Tab)
    f.type("6")
    f.key(Qt.Key.Key_Tab)
    f.key("5")  # the Action die: a hit, not Over the Top
    f.dice(lambda: form.dice_entry)
    f.key(Qt.Key.Key_Return)
    assert closed(form), form.problem.text()


def strike_parry(f: Flow, panel: BattlePanel, ids: dict[str, int]) -> None:
    from ui.wizard.quick import QuickAttack

    select(panel, ids["Will Scarlet"], f.app)
    f.key(Qt.Key.Key_Q)
    form = panel.findChild(QuickAttack)
    assert form is not None, panel.message_text
    f.type("guy")
    f.key(Qt.Key.Key_Tab)
    f.key(Qt.Key.Key_P, Qt.KeyboardModifier.AltModifier)  # Guy Parries with his shield
    assert "Parr" in form.reaction.text(), form.reaction.text()
    f.key("5")  # the Action die
    f.dice(lambda: form.dice_entry)  # the Parry die, the Damage
    f.key(Qt.Key.Key_Return)
    assert closed(form), form.problem.text()


def combined(f: Flow, panel: BattlePanel, ids: dict[str, int]) -> None:
    from PySide6.QtWidgets import QListWidget

    from ui.wizard import CombatWizard

    select(panel, ids["Will Scarlet"], f.app)
    f.key(Qt.Key.Key_A)
    w = panel.findChild(CombatWizard)
    assert w is not None, panel.message_text
    f.key("g")  # the target box has the focus: Guy of Gisbourne
    for _ in range(12):  # Tab to the list of those who join
        if isinstance(QApplication.focusWidget(), QListWidget):
            break
        f.key(Qt.Key.Key_Tab)
    joiners = QApplication.focusWidget()
    assert isinstance(joiners, QListWidget), QApplication.focusWidget()
    while joiners.currentItem() is None or "Little John" not in joiners.currentItem().text():
        f.key(Qt.Key.Key_Down)
    f.key(Qt.Key.Key_Space)
    assert len(w.draft.joiners) == 1
    f.key(Qt.Key.Key_Return)  # Next: Range (Close Combat: nothing to measure)
    f.key(Qt.Key.Key_Return)  # Next: Action Roll
    f.dice(lambda: w.pages[CombatWizard.ACTION].dice, "5")
    stage = w.action_stage()
    assert stage.complete, (
        w.currentId(),
        stage.need,
        stage.pending,
        stage.error,
        QApplication.focusWidget(),
    )
    f.key(Qt.Key.Key_Return)  # Next: Damage
    f.dice(lambda: w.pages[CombatWizard.DAMAGE].dice)
    f.key(Qt.Key.Key_Return)  # Next: Result
    f.key(Qt.Key.Key_Return)  # Finish
    assert closed(w), (w.currentId(), w.summary().problem, w.summary().warnings)


def combined_again(f: Flow, panel: BattlePanel, ids: dict[str, int]) -> None:
    """The same combined attack as the evening's next one, in the same panel: the first is
    typed unmeasured and undone (Ctrl+Z), then the second is measured (the panel's wizard,
    kept between attacks, has its pages and charts made)."""
    combined(Flow(f.app), panel, ids)
    panel.undo_stack.undo()
    panel.activateWindow()
    QTest.qWait(LOOK_MS)
    combined(f, panel, ids)


def sprint(f: Flow, panel: BattlePanel, ids: dict[str, int]) -> None:
    from ui.dialogs.sprint import SprintDialog

    select(panel, ids["Little John"], f.app)
    f.key(Qt.Key.Key_S)
    d = panel.findChild(SprintDialog)
    assert d is not None, panel.message_text
    f.key("3")
    f.key(Qt.Key.Key_Return)
    assert closed(d), d.problem.text()


def end_turn(f: Flow, panel: BattlePanel, ids: dict[str, int]) -> None:
    select(panel, ids["Little John"], f.app)
    before = panel.view.state.active if panel.view is not None else None
    f.key(Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert panel.view is not None and panel.view.state.active != before


FLOWS_ALL: dict[str, Callable[[Flow, BattlePanel, dict[str, int]], None]] = {
    "ranged": ranged,
    "strike_parry": strike_parry,
    "combined": combined,
    "combined_again": combined_again,
    "sprint": sprint,
    "end_turn": end_turn,
}


def main() -> None:
    with pretend_screen(*SCREEN):
        run_flows()


def run_flows() -> None:
    gc.disable()  # as the app starts: no collections while it starts (brikdesk.cli)
    # Qt set up as the app runs it (ui.app.qt_environment: no painting thread pool, which
    # made each full paint of the wizard 2-3 ms longer here than in the app).
    app = create_application()
    # What the app imports on a worker once the campaign shows (ui.app.import_combat_forms),
    # before any battle panel opens.
    for name in COMBAT_MODULES:
        importlib.import_module(name)
    folder = Path(tempfile.mkdtemp())
    template = folder / "template.sqlite3"
    battle_id, ids = build(template)
    collect_on_gui_thread()  # what start-up made is frozen, as in the app
    only = os.environ.get("BENCH_ONLY")
    for name, run in FLOWS_ALL.items():
        if only and name != only:
            continue
        totals, slowest, counts = [], [], []
        steps: list[list[float]] = []
        names: list[str] = []
        for i in range(RUNS):
            copy = folder / f"{name}{i}.sqlite3"
            shutil.copyfile(template, copy)
            panel = open_panel(app, copy, battle_id, folder)
            flow = Flow(app)
            run(flow, panel, ids)
            steps.append(flow.steps)
            names = flow.names
            totals.append(sum(flow.steps))
            slowest.append(max(flow.steps))
            counts.append((flow.keys, flow.clicks))
            for top in QApplication.topLevelWidgets():
                if isinstance(top, QWidget) and top.isVisible():
                    top.close()
            panel.deleteLater()
            for _ in range(3):
                app.processEvents()
        keys, clicks = counts[0]
        print(
            f"FLOW {name} keys={keys} clicks={clicks} ui_ms={statistics.median(totals):.1f} "
            f"max_step_ms={statistics.median(slowest):.1f}",
            flush=True,
        )
        if os.environ.get("BENCH_STEPS"):  # each key's median over the runs, in order
            medians = [statistics.median(run[i] for run in steps) for i in range(len(steps[0]))]
            print(
                f"STEPS {name} "
                + " ".join(f"{k}:{ms:.1f}" for k, ms in zip(names, medians, strict=True)),
                flush=True,
            )


if __name__ == "__main__":
    main()
