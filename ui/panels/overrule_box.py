"""Warnings the organizer may overrule (``rule_warnings``): shown before an action is recorded.

Where a rule depends on what only the table shows (a second weapon in hand, a minifig moving
past, a MOM), the tracker does not refuse: the panel shows the warnings with "Overrule and
record" and "Cancel" (the safe default). Overruled, the action is recorded together with one
``WarningOverruled`` event per warning, so the log says so (one undo step).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from PySide6.QtWidgets import QGridLayout, QMessageBox, QSizePolicy, QSpacerItem, QWidget

from brikdesk.domain.battle import (
    BattleState,
    Event,
    RuleWarning,
    WarningOverruled,
    apply,
    rule_warnings,
)
from brikdesk.domain.ids import BattleUnitId
from brikdesk.errors import UserError


def warnings_for(state: BattleState, events: Sequence[Event]
                 ) -> list[tuple[BattleUnitId, RuleWarning]]:
    """The warnings of ``events`` recorded in order from ``state``: (the unit concerned, the
    warning). An event the rules refuse ends the check (recording will say why)."""
    out: list[tuple[BattleUnitId, RuleWarning]] = []
    for event in events:
        actor = event.actor
        if actor is not None:
            out.extend((actor, w) for w in rule_warnings(state, event))
        try:
            state = apply(state.setup, state, event)
        except UserError:
            break
    return out


class OverruleBox:
    """The question; tests replace ``ask``."""

    @classmethod
    def ask(cls, parent: QWidget | None, warnings: Sequence[RuleWarning]) -> bool:
        """True to overrule the warnings and record anyway."""
        box = QMessageBox(parent)
        box.setObjectName("overruleBox")
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Check at the table")
        box.setText("<b>The rules allow this only if:</b>")
        box.setInformativeText("<br>".join(f"• {escape(w.text)} <i>({escape(w.rule)})</i>"
                                           for w in warnings)
                               + "<br><br>Overrule to record it anyway; the log will say so.")
        record = box.addButton("Overrule and record", QMessageBox.ButtonRole.AcceptRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        grid = box.layout()
        if isinstance(grid, QGridLayout):  # room for the warnings: fewer, longer lines
            grid.addItem(QSpacerItem(460, 0, QSizePolicy.Policy.Minimum,
                                     QSizePolicy.Policy.Expanding),
                         grid.rowCount(), 0, 1, grid.columnCount())
        box.setEscapeButton(cancel)
        try:
            box.exec()
            return box.clickedButton() is record
        finally:
            box.deleteLater()


def confirm_overrule(parent: QWidget | None, state: BattleState,
                     events: Sequence[Event]) -> list[Event] | None:
    """``events`` to record: as given when nothing warns, with a ``WarningOverruled`` per
    warning when the organizer overrules, ``None`` when they cancel."""
    found = warnings_for(state, events)
    if not found:
        return list(events)
    if not OverruleBox.ask(parent, [w for _unit, w in found]):
        return None
    return [*events, *(WarningOverruled(unit, w.text, w.rule) for unit, w in found)]
