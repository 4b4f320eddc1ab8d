"""The battle panel's keys as actions: single keys on the unit table act on the current unit;
End Turn, table mode, undo and redo work anywhere in the window."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

from ui.panels.battle_commands import BattleCommands
from ui.panels.unit_buttons import UnitButtons


def make_action(owner: QWidget, text: str, name: str, slot: Callable[[], Any],
                keys: Sequence[str] = (), *, window: bool = False, tip: str = "") -> QAction:
    """An action on ``owner`` (its keys work while it has focus, or anywhere in the window)."""
    a = QAction(text, owner)
    a.setObjectName(name)
    if keys:
        a.setShortcuts([QKeySequence(k) for k in keys])
    a.setShortcutContext(Qt.ShortcutContext.WindowShortcut if window
                         else Qt.ShortcutContext.WidgetShortcut)
    if tip:
        a.setToolTip(tip)
        a.setStatusTip(tip)
    a.triggered.connect(slot)
    owner.addAction(a)
    return a


def unit_keys(table: QWidget, commands: BattleCommands, buttons: UnitButtons
              ) -> list[QAction]:
    """A attack, S Sprint, B Bail (Shift+B Over the Top), P Parry, O other, F Close Combat,
    C Counter, R respond, T status: on the table's current unit."""
    c = commands
    return [
        make_action(table, "Attack", "attackAction", c.attack_current, ("A",)),
        make_action(table, "Sprint", "sprintAction", c.sprint_current, ("S",)),
        make_action(table, "Bail (ends Disrupted)", "bailAction", c.bail_current, ("B",)),
        make_action(table, "Bail, Over the Top (lands on its feet)", "bailOverTheTopAction",
                    c.bail_over_the_top_current, ("Shift+B",)),
        make_action(table, "Parry", "parryAction", c.parry_current, ("P",)),
        make_action(table, "Other…", "otherAction", c.other_current, ("O",)),
        make_action(table, "Close Combat attack…", "fightAction", c.fight_current, ("F",)),
        make_action(table, "Use a Counter…", "counterAction", buttons.popup_counter, ("C",)),
        make_action(table, "Respond…", "respondAction", buttons.popup_act, ("R",)),
        make_action(table, "Status…", "statusAction", buttons.popup_status, ("T",))]
