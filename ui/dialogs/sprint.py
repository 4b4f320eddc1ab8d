"""The Sprint dialog (4.1): roll a unit's Sprint under the battle's edition and record it.

The dice are typed from the table or rolled virtually (the dice entry of ``ui.widgets.dice``); the
bonus chains, the Over the Top Benny and the runaway warning ("must run the full 14\"") are
what ``brikdesk.domain.combat.sprint`` computes. Recording stores one ``ActionSpent`` (a
Sprint, its roll in the note) through the tracker, one transaction and one undo step.

Entry point: :func:`open_sprint`. The dialog opens ready to type the first die.
"""

from __future__ import annotations

import html
import logging
from dataclasses import replace
from typing import TypeVar

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from brikdesk.domain.combat.sprint import (
    SprintDraft,
    SprintStage,
    bonus_chains,
    group_candidates,
    resolve_sprint,
    runaway_warning,
    sprint_benny_options,
    sprint_events,
    sprint_outcome,
    sprint_problem,
    sprint_rule_text,
)
from brikdesk.domain.ids import BattleId, BattleUnitId
from brikdesk.domain.rolling import BennyUse, DiceSource, RandomDice
from brikdesk.errors import StorageError, UserError
from ui.bus import Bus
from ui.operation import run_write
from ui.screen import fit_to_screen, grow_to_fit
from ui.undo import perform
from ui.widgets.battle_context import CombatServices
from ui.widgets.combat_context import context_for
from ui.widgets.combat_style import apply_style, label, set_problem, show_readings
from ui.widgets.dialogs import FormDialog
from ui.widgets.dice import BennyChooser, DiceEntry

log = logging.getLogger(__name__)
W = TypeVar("W", bound=QWidget)

#: Rows of the group Sprint's list shown at once (it scrolls for more).
GROUP_ROWS = 3
#: At most this many virtual dice for one press of Roll (a bonus chain is finite).
MAX_VIRTUAL_DICE = 50


class SprintDialog(FormDialog):
    """One unit's Sprint, or a group's on his one roll (4.1, where the edition allows it):
    dice, Benny, what it gives, Record. ``recorded(text)`` after it is stored."""

    recorded = Signal(str)

    def __init__(
        self,
        parent: QWidget | None,
        services: CombatServices,
        battle_id: BattleId,
        unit_id: BattleUnitId,
        *,
        bus: Bus | None = None,
        undo_stack: QUndoStack | None = None,
        dice: DiceSource | None = None,
    ) -> None:
        self.services = services
        self.battle_id = battle_id
        self.bus = bus
        self.undo_stack = undo_stack
        self.dice: DiceSource = dice if dice is not None else RandomDice()
        self.ctx = context_for(services.tracker.view(battle_id))  # the battle as it stands
        super().__init__(
            parent,
            "Sprint",
            sprint_rule_text(self.ctx, unit_id),
            ok_text="&Record the Sprint",
        )
        self.setObjectName("sprintDialog")
        apply_style(self)
        show_readings(
            self,
            "4.1 Sprinting (the Sprint dialog)",
            "4.1 Sprinting",
            "4.1 Sprinting in a group",
            "4.1 Half Speed",
            "2005 4.1/4.3 Sprint and Bail",
        )
        #: 4.1 group Sprint (2010, 2020): the runner's side's units that may run on his roll,
        #: a list of boxes a few rows high (a big battle offers hundreds).
        self.group: dict[BattleUnitId, QListWidgetItem] = {}
        mates = group_candidates(self.ctx, unit_id)
        self.group_list: QListWidget | None = None
        if mates:
            self._row(
                label(
                    "Sprinting with him on this one roll (4.1; Shift+Tab, Space):", "prompt", self
                ),
                "sprintGroupLabel",
            )
            box = self.group_list = self._row(QListWidget(self), "sprintGroup")
            box.setAccessibleName("Units Sprinting with him on the same roll")
            for uid in mates:
                item = QListWidgetItem(self.ctx.fighter(uid).name, box)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Unchecked)
                self.group[uid] = item
            box.setCurrentRow(0)
            rows = min(len(mates), GROUP_ROWS)
            box.setFixedHeight(rows * box.sizeHintForRow(0) + 2 * box.frameWidth() + 2)
            box.itemChanged.connect(self._group_changed)
        self.entry = self._row(DiceEntry(self), "sprintDice")
        self.chains = self._row(label("", "event", self), "sprintChains")
        self.benny = self._row(BennyChooser(self), "sprintBenny")
        self.outcome = self._row(label("", "prompt", self), "sprintOutcome")
        self.runaway = self._row(label("", "problem", self), "sprintRunaway")
        self.entry.face.connect(self._face)
        self.entry.undo.connect(self._undo_face)
        self.entry.roll.connect(self._roll)
        self.entry.clear.connect(self._clear)
        self.benny.picked.connect(self._benny)
        outer = self.layout()
        if isinstance(outer, QVBoxLayout):  # the rows at the top, the buttons at the bottom
            outer.insertStretch(outer.indexOf(self.buttons), 1)
        self.draft = SprintDraft(unit_id)
        self.setWindowTitle(f"Sprint — {self.ctx.fighter(unit_id).name}")
        self.refresh()
        self.entry.edit.setFocus()
        # Sized to what it shows (one die, a line or two), wide enough for the Benny's
        # choices and the runaway warning when they come; it grows with them.
        self.setMinimumWidth(min(760, self.sizeHint().width()))
        fit_to_screen(self)

    def setVisible(self, visible: bool) -> None:
        """Opens on the die, what the organizer types first: the group's boxes above it are
        the choice made now and then (Shift+Tab, Space)."""
        super().setVisible(visible)
        if visible and self.entry.edit.isVisible():
            self.entry.edit.setFocus()

    def _row(self, widget: W, name: str) -> W:
        widget.setObjectName(name)
        self.form.addRow(widget)
        return widget

    # -- the draft -----------------------------------------------------------------------------

    def stage(self) -> SprintStage:
        return resolve_sprint(self.draft, self.ctx)

    def set_draft(self, draft: SprintDraft) -> None:
        self.draft = draft
        self.refresh()

    def _face(self, face: int) -> None:
        self.set_draft(self.draft.with_face(face))

    def _undo_face(self) -> None:
        self.set_draft(self.draft.without_last_face())

    def _clear(self) -> None:
        self.set_draft(SprintDraft(self.draft.unit_id, group=self.draft.group))

    def _group_changed(self, _item: QListWidgetItem | None = None) -> None:
        checked = Qt.CheckState.Checked
        group = tuple(uid for uid, item in self.group.items() if item.checkState() == checked)
        self.set_draft(replace(self.draft, group=group))

    def _roll(self) -> None:
        """Roll every die still needed with virtual dice (up to the Benny's decision)."""
        d = self.draft
        for _ in range(MAX_VIRTUAL_DICE):
            need = resolve_sprint(d, self.ctx).need
            if need is None:
                break
            d = d.with_face(self.dice.roll(need.sides, need.why))
        self.set_draft(d)

    def _benny(self, use: BennyUse) -> None:
        self.set_draft(replace(self.draft, benny=use))

    # -- what it shows -------------------------------------------------------------------------

    def refresh(self) -> None:
        stage = self.stage()
        rules = self.ctx.rules
        waiting = (
            f"{rules.over_the_top}! How is the Benny spent? Choose below." if stage.pending else ""
        )
        self.entry.ask(stage.need, stage.dice, waiting=waiting)
        chains = bonus_chains(stage.dice)
        self.chains.setText("<br>".join(html.escape(c, quote=False) for c in chains))
        self.chains.setVisible(any("bonus" in c for c in chains))
        offer = stage.pending or self.draft.benny is not None
        self.benny.setVisible(bool(offer))
        if offer:
            self.benny.offer(
                f"{rules.over_the_top}: how is the Benny spent? (4.2)", sprint_benny_options()
            )
        result = stage.result if stage.complete else None
        self.outcome.setText(
            html.escape(sprint_outcome(self.draft, self.ctx, result), quote=False)
            if result is not None
            else ""
        )
        self.outcome.setVisible(result is not None)
        set_problem(self.runaway, runaway_warning(result) if result is not None else None)
        self.set_problem(self._problem(stage))
        if stage.pending:
            self.benny.setFocus()
        elif stage.complete and self.ok_button.isEnabled() and self.entry.edit.isHidden():
            focus = self.focusWidget()
            if (
                focus is None
                or focus in (self.entry.edit, self.benny)
                or focus.parent() is self.buttons  # Cancel, where a hidden die field left it
                or not focus.isVisible()
            ):
                self.ok_button.setFocus()  # the dice are in: Enter records
        QTimer.singleShot(0, self, self._grow)

    def _grow(self) -> None:
        grow_to_fit(self)

    def _problem(self, stage: SprintStage) -> str | None:
        rules = sprint_problem(self.draft, self.ctx)
        if rules:
            return rules
        if stage.error:
            return stage.error
        if stage.extra_faces:
            return f"{stage.extra_faces} more face(s) typed than the Sprint needs"
        if not stage.complete:
            return "" if stage.need is not None or stage.pending else None
        return None

    def set_problem(self, text: str | None) -> None:
        """OK (Record) is enabled only when the Sprint is rolled and allowed; an empty text
        disables it without a message (dice still to roll)."""
        if text == "":
            self.ok_button.setEnabled(False)
            self.problem.hide()
            return
        super().set_problem(text)

    # -- Record --------------------------------------------------------------------------------

    def accept(self) -> None:
        """Record the Sprint (one transaction, one undo step when an undo stack is given)."""
        stage = self.stage()
        try:
            events = sprint_events(self.draft, self.ctx, stage)
        except UserError as exc:
            super().set_problem(str(exc))
            return
        assert stage.result is not None
        text = sprint_outcome(self.draft, self.ctx, stage.result)
        tracker, battle_id = self.services.tracker, self.battle_id
        try:
            if self.bus is not None and self.undo_stack is not None:
                perform(
                    self.undo_stack,
                    self.bus,
                    lambda: tracker.record(battle_id, events, text=text),
                    text=text,
                )
            else:
                run_write(lambda: tracker.record(battle_id, events, text=text), window=self)
        except (UserError, StorageError) as exc:
            log.info("Sprint not recorded: %s", exc)
            super().set_problem(f"Not recorded: {exc}")
            return
        if self.bus is not None:
            self.bus.say(text)
        self.recorded.emit(text)
        super().accept()


def open_sprint(
    parent: QWidget | None,
    services: CombatServices,
    battle_id: BattleId,
    unit_id: BattleUnitId,
    *,
    bus: Bus | None = None,
    undo_stack: QUndoStack | None = None,
    dice: DiceSource | None = None,
) -> SprintDialog:
    """Open the Sprint dialog for ``unit_id`` (window-modal, not blocking; deleted when
    closed). Give the battle's ``bus`` and ``undo_stack`` so that the Sprint is one step of
    the battle's Undo and the views refresh, as for the combat wizard."""
    dialog = SprintDialog(
        parent, services, battle_id, unit_id, bus=bus, undo_stack=undo_stack, dice=dice
    )
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.show()
    dialog.entry.edit.setFocus()
    return dialog


__all__ = ["SprintDialog", "open_sprint"]
