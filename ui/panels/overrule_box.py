"""Warnings the organizer may overrule (``rule_warnings``): shown before an action is recorded.

Where a rule depends on what only the table shows (a second weapon in hand, a minifig moving
past, a MOM), the tracker does not refuse: the panel shows the warnings with "Overrule and
record" and "Cancel" (the safe default). Overruled, the action is recorded together with one
``WarningOverruled`` event per warning, so the log says so (one undo step). Where marking a
response Close Combat attack "passing by" answers the warning (4.1 Movement: the minifig moving
past can ignore it unless he Parries), the box offers that too, and the attack is recorded so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from enum import Enum
from html import escape

from PySide6.QtWidgets import QGridLayout, QMessageBox, QSizePolicy, QSpacerItem, QWidget

from brikdesk.domain.battle import (
    BattleState,
    CloseCombatAttack,
    Event,
    RuleWarning,
    WarningOverruled,
    apply,
    rule_warnings,
)
from brikdesk.domain.ids import BattleUnitId
from brikdesk.errors import UserError


def warnings_for(
    state: BattleState, events: Sequence[Event]
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


class Choice(Enum):
    """What the organizer answers the warnings."""

    CANCEL = "cancel"
    OVERRULE = "overrule"  # record anyway; the log says so
    PASSING_BY = "passing_by"  # record the response attack as at a minifig moving past


def as_passing_by(events: Sequence[Event]) -> list[Event]:
    """``events`` with every response Close Combat attack marked "passing by" (4.1)."""
    return [
        replace(e, passing_by=True) if isinstance(e, CloseCombatAttack) and e.as_response else e
        for e in events
    ]


class OverruleBox:
    """The question; tests replace ``ask``."""

    @classmethod
    def ask(
        cls, parent: QWidget | None, warnings: Sequence[RuleWarning], passing_by: bool = False
    ) -> Choice:
        """Overrule (record anyway), mark the response "passing by" (offered when
        ``passing_by``) or cancel."""
        box = QMessageBox(parent)
        box.setObjectName("overruleBox")
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle("Check at the table")
        box.setText("<b>Check at the table before recording:</b>")
        box.setInformativeText(
            "<br>".join(f"• {escape(w.text)} <i>({escape(w.rule)})</i>" for w in warnings)
            + "<br><br>Overrule to record it anyway; the log will say so."
        )
        record = box.addButton("Overrule and record", QMessageBox.ButtonRole.AcceptRole)
        passing = (
            box.addButton(
                "He is moving past: record 'passing by'", QMessageBox.ButtonRole.AcceptRole
            )
            if passing_by
            else None
        )
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        grid = box.layout()
        if isinstance(grid, QGridLayout):  # room for the warnings: fewer, longer lines
            grid.addItem(
                QSpacerItem(460, 0, QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Expanding),
                grid.rowCount(),
                0,
                1,
                grid.columnCount(),
            )
        box.setEscapeButton(cancel)
        try:
            box.exec()
            clicked = box.clickedButton()
            if clicked is record:
                return Choice.OVERRULE
            if passing is not None and clicked is passing:
                return Choice.PASSING_BY
            return Choice.CANCEL
        finally:
            box.deleteLater()


def confirm_overrule(
    parent: QWidget | None, state: BattleState, events: Sequence[Event]
) -> list[Event] | None:
    """``events`` to record: as given when nothing warns, with a ``WarningOverruled`` per
    warning when the organizer overrules, the response attack marked "passing by" when that
    answers the warning, ``None`` when they cancel."""
    found = warnings_for(state, events)
    if not found:
        return list(events)
    passing = as_passing_by(events)
    left = warnings_for(state, passing) if passing != list(events) else found
    choice = OverruleBox.ask(parent, [w for _unit, w in found], len(left) < len(found))
    if choice is Choice.CANCEL:
        return None
    if choice is Choice.PASSING_BY:
        events, found = passing, left
    return [*events, *(WarningOverruled(unit, w.text, w.rule) for unit, w in found)]
