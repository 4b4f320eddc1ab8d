"""Benchmark: what the organizer feels at the table, step by step, at 60 and at 500 units.

Each flow starts from the battle just opened: a fresh copy of the battle, its panel shown as in
the main window, looked at for a moment; then it is driven only by key events (QTest) sent to
whatever has the keyboard focus, as the organizer types them. Every key is a step, timed from
the key to the end of the paint it causes (the services' work and any garbage collection in
it included):

- ``ranged``: the plain ranged attack with typed dice (Q, a few letters of the target, Tab,
  the range, Tab, the dice, Enter);
- ``strike_parry``: a Strike answered by a Parry (Alt+P) through the quick form;
- ``combined``: a combined attack of two through the full wizard (A), from the keyboard;
- ``sprint``: a Sprint (S, the die, Enter), found in the log;
- ``group_sprint``: a group Sprint on one die (S, Shift+Tab to the units offered, Space on the
  first, Tab back to the die, the die, Enter), both Sprints found in the log;
- ``brawl``: a response Strike that joins the brawl beside it through the quick form (Q, a
  few letters, Tab, Alt+L, the dice, Enter), as in 5.2's Hank and Butch example;
- ``counterstrike``: a Counterstrike through the dice (C, the menu's entry, the dice, Enter),
  found in the log;
- ``action``: an Action that is not an attack, with its Action Roll (O, the die, Enter),
  found in the log;
- ``end_turn``: End Turn (Ctrl+E);
- ``undo``: an attack recorded (not measured), then the log's Undo button clicked.

It prints the reference loop first, then per battle size and flow::

    LOOP ms=Z ...
    OPEN battle units=U p99_ms=X ...
    FLOW name units=U keys=N clicks=M p99_step_ms=X ...
    ECHO name.dieK units=U p99_ms=Y ...

``p99_step_ms`` is the 99th percentile of all the flow's steps over the runs; ``ECHO`` the
99th percentile of the K-th die typed in the flow (a key's echo). The times are CPU time of
the process, scaled to the rule's machine (``speed_rule``: times x 12 / LOOP ms); ``raw_ms`` is
the same unscaled, ``wall_ms`` the wall time unscaled (on a busy shared machine it includes
the wait for a core). Targets: a command within 100 ms, an echo within 50 ms.
``full_gcs`` counts full garbage collections that ran inside a step (the app's collector, as
in the app: never in a step). With fewer than 100 values a p99 is the largest.

Adding a flow: a function ``def name(t: Table) -> None`` decorated ``@flow`` that selects a
unit (``t.select``), types (``t.key``, ``t.type``, ``t.die``, ``t.dice``) and clicks
(``t.click``); it starts with the
battle just opened and the unit table focused, and may assert what the organizer sees.

``--runs N`` (default 12) runs of each flow at each size; ``--only name``; ``--steps`` prints
each step's p99 (``STEPS``); ``BENCH_QUICK=1``: 20 units, one run.

Run: QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_table_flow.py
"""

from __future__ import annotations

import argparse
import importlib
import os
import shutil
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QListWidget, QWidget
from shiboken6 import isValid
from speed_rule import QUICK, SIZES, Loop, Timer, p99, pause, quick

from brikdesk.domain.roster import Loadout
from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from brikdesk.services.summaries import Muster
from ui.app import AFTER_START_MODULES, collect_on_gui_thread, create_application
from ui.bus import Bus
from ui.main_window import combat_forms
from ui.main_window.proposals import proposal_list
from ui.models.proposals import ProposalInbox
from ui.panels import BattlePanel
from ui.screen import pretend_screen
from ui.settings import KEY_DICE_MODE

if TYPE_CHECKING:
    from ui.wizard.quick import QuickAttack

#: The screen the forms size themselves to: a laptop's (Qt's offscreen screen is 800x800).
SCREEN = (1366, 768)
#: The players' proposals waiting (none: the list shows nothing, as at most tables).
INBOX = ProposalInbox()
#: How long the organizer looks at the battle before the first key (ms).
LOOK_MS = quick(500, 0)
NAMED = {  # name: side, hands (the rest of each side are plain minifigs)
    "Thieven Hood": ("red", ("long-ranged-weapon",)),
    "Will Scarlet": ("red", ("hand-weapon", None)),
    "Little John": ("red", ("hand-weapon", None)),
    "Guy of Gisbourne": ("blue", ("hand-weapon", "shield")),
    "Guard Bert": ("blue", ("hand-weapon", "shield")),
}


def build(path: Path, units: int) -> tuple[int, dict[str, int]]:
    """A battle of ``units`` units in a new database at ``path``: its id and the named units."""
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
        ids += list(sv.roster.add_units(army.id, "minifig", units // 2 - len(ids)).value)
        musters.append(Muster(p.id, tuple(ids)))
    view = sv.tracker.begin(c.id, "Big battle", musters).value
    names = {u.name: u.id for u in view.units}
    db.close()
    return view.id, names


class Table:
    """One run of a flow on a battle just opened: each key typed where the focus is is a step,
    timed to the end of its paint."""

    def __init__(self, app: QApplication, panel: BattlePanel, ids: dict[str, int]) -> None:
        self.app = app
        self.panel = panel
        self.ids = ids
        self.timer: Timer | None = None  # None: typed, not measured
        self.keys = 0
        self.clicks = 0
        self.dice_typed = 0
        #: Each step: its label, whether it is an echo (a letter or a die), wall and CPU ms.
        self.steps: list[tuple[str, bool, float, float]] = []

    def settle(self) -> None:
        for _ in range(3):
            self.app.processEvents()

    def select(self, name: str) -> None:
        """Select the unit ``name`` and give the table the focus (not a step)."""
        self.panel.select_unit(self.ids[name])
        self.panel.table.setFocus()
        self.settle()

    def key(
        self,
        key: Qt.Key | str,
        modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
        *,
        echo: bool = False,
        label: str | None = None,
    ) -> None:
        # An open menu (C's Counter menu) takes the keys, as on the organizer's keyboard.
        target = (
            QApplication.activePopupWidget()
            or QApplication.focusWidget()
            or QApplication.activeWindow()
        )
        assert target is not None, "nothing has the keyboard focus"
        started = self.timer.start() if self.timer is not None else None
        if isinstance(key, str):
            QTest.keyClicks(target, key, modifier)
        else:
            QTest.keyClick(target, key, modifier)
        self.settle()
        if self.timer is not None and started is not None:
            wall, cpu = self.timer.stop(started)
            self.steps.append((label or key_name(key, modifier), echo, wall, cpu))
            self.keys += 1

    def click(self, widget: QWidget, label: str) -> None:
        """A mouse click on ``widget`` (a button): a step."""
        started = self.timer.start() if self.timer is not None else None
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton)
        self.settle()
        if self.timer is not None and started is not None:
            wall, cpu = self.timer.stop(started)
            self.steps.append((label, False, wall, cpu))
            self.clicks += 1

    def type(self, text: str) -> None:
        """Letters typed: each one's echo is a step."""
        for ch in text:
            self.key(ch, echo=True)

    def die(self, face: str) -> None:
        """A die typed: its echo is a step (``ECHO name.dieK``)."""
        self.dice_typed += 1
        self.key(face, echo=True, label=f"die{self.dice_typed}")

    def dice(self, entry_of: Callable[[], object], face: str = "3", most: int = 12) -> None:
        """Type ``face`` for every die asked, while a die is asked."""
        for _ in range(most):
            entry = entry_of()
            if entry is None or getattr(entry, "need", None) is None:
                return
            self.die(face)


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


#: The flows, by name (``@flow``).
FLOWS: dict[str, Callable[[Table], None]] = {}


def flow(fn: Callable[[Table], None]) -> Callable[[Table], None]:
    FLOWS[fn.__name__] = fn
    return fn


def quick_form_on_guy(t: Table, attacker: str) -> QuickAttack:
    """Q on ``attacker``, then Guy of Gisbourne typed as the target and Tab."""
    from ui.wizard.quick import QuickAttack

    t.select(attacker)
    t.key(Qt.Key.Key_Q)
    form = t.panel.findChild(QuickAttack)
    assert form is not None, t.panel.message_text
    t.type("guy")
    t.key(Qt.Key.Key_Tab)
    return form


@flow
def ranged(t: Table) -> None:
    form = quick_form_on_guy(t, "Thieven Hood")
    t.type("6")
    t.key(Qt.Key.Key_Tab)
    t.die("5")  # the Action die: a hit, not Over the Top
    t.dice(lambda: form.dice_entry)
    t.key(Qt.Key.Key_Return)
    assert closed(form), form.problem.text()


@flow
def strike_parry(t: Table) -> None:
    form = quick_form_on_guy(t, "Will Scarlet")
    t.key(Qt.Key.Key_P, Qt.KeyboardModifier.AltModifier)  # Guy Parries with his shield
    assert "Parr" in form.reaction.text(), form.reaction.text()
    t.die("5")  # the Action die
    t.dice(lambda: form.dice_entry)  # the Parry die, the Damage
    t.key(Qt.Key.Key_Return)
    assert closed(form), form.problem.text()


@flow
def combined(t: Table) -> None:
    from ui.wizard import CombatWizard

    t.select("Will Scarlet")
    t.key(Qt.Key.Key_A)
    w = next(w for w in t.panel.findChildren(CombatWizard) if w.isVisible())
    t.type("g")  # the target box has the focus: Guy of Gisbourne
    for _ in range(12):  # Tab to the list of those who join
        if isinstance(QApplication.focusWidget(), QListWidget):
            break
        t.key(Qt.Key.Key_Tab)
    joiners = QApplication.focusWidget()
    assert isinstance(joiners, QListWidget), QApplication.focusWidget()
    while joiners.currentItem() is None or "Little John" not in joiners.currentItem().text():
        t.key(Qt.Key.Key_Down)
    t.key(Qt.Key.Key_Space)
    assert len(w.draft.joiners) == 1
    t.key(Qt.Key.Key_Return)  # Next: Range (Close Combat: nothing to measure)
    t.key(Qt.Key.Key_Return)  # Next: Action Roll
    t.dice(lambda: w.pages[CombatWizard.ACTION].dice, "5")
    assert w.action_stage().complete, (w.currentId(), QApplication.focusWidget())
    t.key(Qt.Key.Key_Return)  # Next: Damage
    t.dice(lambda: w.pages[CombatWizard.DAMAGE].dice)
    t.key(Qt.Key.Key_Return)  # Next: Result
    t.key(Qt.Key.Key_Return)  # Finish
    assert closed(w), (w.currentId(), w.summary().problem, w.summary().warnings)


@flow
def sprint(t: Table) -> None:
    from ui.dialogs.sprint import SprintDialog

    t.select("Little John")
    t.key(Qt.Key.Key_S)
    d = next(d for d in t.panel.findChildren(SprintDialog) if d.isVisible())
    t.die("3")
    t.key(Qt.Key.Key_Return)
    assert closed(d), d.problem.text()
    # Recorded, not only closed: Enter on Cancel once closed the dialog and lost the Sprint.
    assert "Little John (Red) Sprints" in last_log_line(t), last_log_line(t)


@flow
def group_sprint(t: Table) -> None:
    """4.1 group Sprint: Little John and the first of his side offered run on one die."""
    from ui.dialogs.sprint import SprintDialog

    t.select("Little John")
    t.key(Qt.Key.Key_S)
    d = next(d for d in t.panel.findChildren(SprintDialog) if d.isVisible())
    t.key(Qt.Key.Key_Tab, Qt.KeyboardModifier.ShiftModifier)  # up to the units offered
    assert QApplication.focusWidget() is d.group_list, QApplication.focusWidget()
    t.key(Qt.Key.Key_Space)  # the first one runs with him
    t.key(Qt.Key.Key_Tab)  # back to the die
    assert QApplication.focusWidget() is d.entry.edit, QApplication.focusWidget()
    t.die("3")
    t.key(Qt.Key.Key_Return)
    assert closed(d), d.problem.text()
    view = t.panel.view
    assert view is not None
    both = [e.text for e in view.events[-2:]]
    assert all("one roll for the group: Little John, " in line for line in both), both


def last_log_line(t: Table) -> str:
    """The newest line of the battle's log."""
    view = t.panel.view
    assert view is not None and view.events, "nothing in the log"
    return view.events[-1].text


@flow
def brawl(t: Table) -> None:
    """Guard Bert Strikes Little John in response and joins the brawl of Will Scarlet and
    Guy of Gisbourne (Will's Strike recorded first, not measured)."""
    from ui.wizard.quick import QuickAttack

    guy, will = t.ids["Guy of Gisbourne"], t.ids["Will Scarlet"]
    assert t.panel.commands.close_combat_attack(will, guy)
    t.select("Guard Bert")
    t.key(Qt.Key.Key_Q)
    form = next(f for f in t.panel.findChildren(QuickAttack) if f.isVisible())
    t.type("lit")
    t.key(Qt.Key.Key_Tab)
    t.key(Qt.Key.Key_L, Qt.KeyboardModifier.AltModifier)  # joins the brawl beside it
    assert form.draft.brawl in (guy, will), form.brawl.text()
    t.die("5")  # the Action die
    t.dice(lambda: form.dice_entry)
    t.key(Qt.Key.Key_Return)
    assert closed(form), form.problem.text()
    line = last_log_line(t)
    assert "joining the brawl of" in line, line


@flow
def counterstrike(t: Table) -> None:
    """Guy of Gisbourne Counterstrikes Will Scarlet, who Struck him (the Strike recorded first,
    not measured): C, the Counter menu's first entry, the dice, Enter."""
    from ui.wizard.quick import QuickAttack

    assert t.panel.commands.close_combat_attack(t.ids["Will Scarlet"], t.ids["Guy of Gisbourne"])
    t.select("Guy of Gisbourne")
    t.key(Qt.Key.Key_C)  # the Counter menu
    t.key(Qt.Key.Key_Down)  # its first entry: Counterstrike Will Scarlet
    t.key(Qt.Key.Key_Return)
    form = next(f for f in t.panel.findChildren(QuickAttack) if f.isVisible())
    assert form.draft.target_id == t.ids["Will Scarlet"], form.draft
    t.die("5")  # the Action die
    t.dice(lambda: form.dice_entry)  # the Damage
    t.key(Qt.Key.Key_Return)
    assert closed(form), form.problem.text()
    line = last_log_line(t)
    assert "Guy of Gisbourne (Blue) with a Counter: strike on Will Scarlet" in line, line


@flow
def action(t: Table) -> None:
    """A non-attack Action with its Action Roll (O, the die, Enter; Use 3 by default)."""
    from ui.panels.action_roll import ActionRollDialog

    t.select("Little John")
    t.key(Qt.Key.Key_O)
    d = next(d for d in t.panel.findChildren(ActionRollDialog) if d.isVisible())
    t.die("4")
    t.key(Qt.Key.Key_Return)
    assert closed(d)
    line = last_log_line(t)
    assert "Little John (Red) spends its Action: an Action, Action Roll d6 4 vs Use 3" in line


@flow
def end_turn(t: Table) -> None:
    t.select("Little John")
    before = t.panel.view.state.active if t.panel.view is not None else None
    t.key(Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert t.panel.view is not None and t.panel.view.state.active != before


@flow
def undo(t: Table) -> None:
    """A ranged attack recorded (typed, not measured), then undone with the log's Undo."""
    timer, t.timer = t.timer, None
    ranged(t)
    t.timer = timer
    t.click(t.panel.log_pane.undo_button, "Undo")
    assert t.panel.undo_stack.canRedo(), t.panel.message_text


def open_panel(path: Path, battle_id: int, folder: Path, timer: Timer) -> tuple[BattlePanel, float]:
    """The battle opened as the main window shows it (its proposal list included); returns the
    panel and the CPU ms it took to open and paint."""
    sv = Services.open(open_database(f"sqlite:///{path}"))
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue(KEY_DICE_MODE, "typed")  # the organizer types the dice rolled
    started = timer.start()
    panel = BattlePanel(sv, Bus(), QUndoStack(), battle_id, settings=settings, forms=combat_forms())
    proposal_list(panel, INBOX)  # the players' proposals, above the table as the main window has it
    panel.resize(1300, 740)
    panel.show()
    panel.activateWindow()
    for _ in range(3):
        QApplication.processEvents()
    _wall, cpu = timer.stop(started)
    pause(LOOK_MS)  # the organizer looks at the battle before the first key
    return panel, cpu


def close_all(app: QApplication, panel: BattlePanel) -> None:
    for top in QApplication.topLevelWidgets():
        if isinstance(top, QWidget) and top.isVisible():
            top.close()
    panel.deleteLater()
    for _ in range(3):
        app.processEvents()


def run_size(
    app: QApplication, units: int, folder: Path, args: argparse.Namespace, loop: Loop
) -> None:
    template = folder / f"template{units}.sqlite3"
    battle_id, ids = build(template, units)
    timer = Timer()
    opens: list[float] = []
    try:
        for name, run in FLOWS.items():
            if args.only and name != args.only:
                continue
            steps: list[list[tuple[str, bool, float, float]]] = []
            counts = (0, 0)
            for i in range(args.runs):
                copy = folder / f"{name}{units}-{i}.sqlite3"
                shutil.copyfile(template, copy)
                panel, opened = open_panel(copy, battle_id, folder, timer)
                opens.append(opened)
                t = Table(app, panel, ids)
                t.timer = timer
                run(t)
                steps.append(t.steps)
                counts = (t.keys, t.clicks)
                close_all(app, panel)
            report(name, units, counts, steps, loop, timer, args.steps)
    finally:
        timer.close()
    print(
        f"OPEN battle units={units} p99_ms={loop.scaled(p99(opens)):.1f} "
        f"raw_ms={p99(opens):.1f} runs={len(opens)}",
        flush=True,
    )


def report(
    name: str,
    units: int,
    counts: tuple[int, int],
    runs: list[list[tuple[str, bool, float, float]]],
    loop: Loop,
    timer: Timer,
    per_step: bool,
) -> None:
    every = [s for run in runs for s in run]
    cpu = [s[3] for s in every]
    wall = [s[2] for s in every]
    by_step: dict[str, list[float]] = {}
    for run in runs:
        for i, (label, _echo, _wall, ms) in enumerate(run):
            by_step.setdefault(f"{i:02d}:{label}", []).append(ms)
    worst = max(by_step, key=lambda k: p99(by_step[k]))
    keys, clicks = counts
    print(
        f"FLOW {name} units={units} keys={keys} clicks={clicks} "
        f"p99_step_ms={loop.scaled(p99(cpu)):.1f} raw_ms={p99(cpu):.1f} "
        f"wall_ms={p99(wall):.1f} worst={worst.split(':', 1)[1]} "
        f"steps={len(every)} full_gcs={timer.full_collections}",
        flush=True,
    )
    dice = sorted({label for run in runs for label, echo, _w, _c in run if label.startswith("die")})
    for die in dice:
        ms = [c for run in runs for label, _e, _w, c in run if label == die]
        walls = [w for run in runs for label, _e, w, _c in run if label == die]
        print(
            f"ECHO {name}.{die} units={units} p99_ms={loop.scaled(p99(ms)):.1f} "
            f"raw_ms={p99(ms):.1f} wall_ms={p99(walls):.1f} runs={len(ms)}",
            flush=True,
        )
    if per_step:
        print(
            f"STEPS {name} units={units} "
            + " ".join(
                f"{k.split(':', 1)[1]}:{loop.scaled(p99(v)):.1f}/{loop.scaled(statistics.median(v)):.1f}"
                for k, v in by_step.items()
            ),
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=quick(12, 1), help="runs of each flow (12)")
    ap.add_argument("--only", choices=sorted(FLOWS), help="run only this flow")
    ap.add_argument("--steps", action="store_true", help="print each step's p99/median (STEPS)")
    ap.add_argument(
        "--units", type=int, nargs="+", default=[20] if QUICK else list(SIZES), help="(60 500)"
    )
    args = ap.parse_args(argv)
    loop = Loop()
    print(loop.line(), flush=True)
    with pretend_screen(*SCREEN):
        # Qt set up as the app runs it (ui.app.qt_environment), with the modules the app
        # imports on a worker once the campaign shows (ui.app.import_after_start).
        app = create_application()
        for name in AFTER_START_MODULES:
            importlib.import_module(name)
        collect_on_gui_thread()  # start-up frozen; the GUI thread collects, as in the app
        folder = Path(tempfile.mkdtemp())
        try:
            for units in args.units:
                run_size(app, units, folder, args, loop)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
