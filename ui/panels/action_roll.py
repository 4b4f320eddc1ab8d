"""The Action Roll of an Action that is not an attack (Act > Other…, the O key): the die typed
from the table, what the unit attempts and its Use (3 unless the players agree on another,
4.2 Use Ratings), success or failure, and the Benny of a natural 6. Enter records it as the
unit's Action, in the log's words (``brikdesk.domain.combat.action_roll``).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QSpinBox, QVBoxLayout, QWidget

from brikdesk.domain.combat.action_roll import (
    DEFAULT_USE,
    TaskStage,
    resolve_task,
    task_benny_options,
    task_text,
)
from brikdesk.domain.rolling import BennyUse
from brikdesk.domain.rulesets import RuleSet
from ui.widgets.combat_style import label
from ui.widgets.dialogs import FormDialog
from ui.widgets.dice import BennyChooser, DiceEntry


class ActionRollDialog(FormDialog):
    """One unit's non-attack Action: its die, what it attempts, the Use, the Benny; OK (Enter)
    once the roll is in. :meth:`value` is the log's words."""

    def __init__(
        self,
        parent: QWidget | None,
        unit_name: str,
        action_die: int,
        rules: RuleSet,
        *,
        can_go_over_the_top: bool = True,
    ) -> None:
        super().__init__(
            parent,
            f"Action — {unit_name}",
            f"What does {unit_name} attempt? Type the Action die; Use {DEFAULT_USE} unless "
            "the players agree on another (4.2 Use Ratings).",
            ok_text="&Record the Action",
        )
        self.setObjectName("actionRollDialog")
        self.unit_name = unit_name
        self.action_die = action_die
        self.rules = rules
        self.can_go_over_the_top = can_go_over_the_top
        self.faces: tuple[int, ...] = ()
        self.benny: BennyUse | None = None
        self.entry = DiceEntry(self)
        self.entry.setObjectName("actionRollDice")
        self.entry.setAccessibleName("The Action die")
        self.form.addRow(self.entry)
        self.what = QLineEdit(self)
        self.what.setObjectName("actionRollWhat")
        self.what.setAccessibleName("What the unit attempts")
        self.what.setPlaceholderText("picks the lock (optional, for the log)")
        self.form.addRow("&What:", self.what)
        self.use = QSpinBox(self)
        self.use.setObjectName("actionRollUse")
        self.use.setAccessibleName("The Action's Use rating")
        self.use.setRange(1, 30)
        self.use.setValue(DEFAULT_USE)
        self.form.addRow("&Use:", self.use)
        self.chooser = BennyChooser(self)
        self.chooser.setObjectName("actionRollBenny")
        self.chooser.setAccessibleName("How the Benny is spent")
        self.form.addRow(self.chooser)
        self.outcome = label("", "prompt", self)
        self.outcome.setObjectName("actionRollOutcome")
        self.form.addRow(self.outcome)
        outer = self.layout()
        if isinstance(outer, QVBoxLayout):
            outer.insertStretch(outer.indexOf(self.buttons), 1)
        self.entry.face.connect(self._face)
        self.entry.undo.connect(self._undo)
        self.entry.clear.connect(self._clear)
        self.chooser.picked.connect(self._picked)
        self.use.valueChanged.connect(self.refresh)
        self.what.textChanged.connect(self.refresh)
        self.entry.roll_button.hide()  # the table's die: typed, never rolled here
        self.refresh()

    def stage(self) -> TaskStage:
        return resolve_task(
            self.action_die,
            self.use.value(),
            self.faces,
            self.benny,
            self.rules,
            can_go_over_the_top=self.can_go_over_the_top,
        )

    def _face(self, face: int) -> None:
        self.faces = (*self.faces, face)
        self.refresh()

    def _undo(self) -> None:
        self.faces = self.faces[:-1]
        self.benny = None
        self.refresh()

    def _clear(self) -> None:
        self.faces, self.benny = (), None
        self.refresh()

    def _picked(self, use: BennyUse) -> None:
        self.benny = use
        self.refresh()

    def refresh(self, *_args: object) -> None:
        stage = self.stage()
        otd = self.rules.over_the_top
        self.entry.ask(
            stage.need,
            stage.dice,
            waiting=f"{otd}! How is the Benny spent? Press its letter." if stage.pending else "",
        )
        self.entry.roll_button.hide()
        offer = stage.pending or self.benny is not None
        self.chooser.setVisible(offer)
        if offer:
            self.chooser.offer(f"{otd}: how is the Benny spent? (4.2)", task_benny_options())
        text = self.value() if stage.complete else ""
        self.outcome.setText(html.escape(text, quote=False))
        self.outcome.setVisible(bool(text))
        self.ok_button.setEnabled(stage.complete)
        if stage.pending:
            self.chooser.setFocus()
        elif stage.complete and (self.focusWidget() in (None, self.entry.edit, self.chooser)):
            self.ok_button.setFocus()  # the die is in: Enter records

    def value(self) -> str:
        """The log's words for the Action as rolled."""
        stage = self.stage()
        assert stage.roll is not None
        roll = stage.roll if stage.complete else replace(stage.roll, benny_dice=())
        return task_text(self.what.text().strip(), roll, self.benny, self.rules)

    @classmethod
    def start(
        cls,
        parent: QWidget | None,
        unit_name: str,
        action_die: int,
        rules: RuleSet,
        done: Callable[[str], object],
        *,
        can_go_over_the_top: bool = True,
    ) -> ActionRollDialog:
        """Open the dialog over ``parent`` (window-modal, not blocking); ``done(words)`` once
        it is recorded with Enter (nothing when cancelled). Tests replace this."""
        dialog = cls(parent, unit_name, action_die, rules, can_go_over_the_top=can_go_over_the_top)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.accepted.connect(lambda: done(dialog.value()))
        dialog.show()
        return dialog
