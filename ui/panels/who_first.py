"""Who Acts First (4.3): a response meets the active player's Action; who goes first and why.

The dialog asks only the facts the battle's edition needs (``RuleSet.who_acts_first``):

- 2005 (Skill Roll minus Use): whether the response answers movement (then the responder is
  fast enough), the Use of what each attempts, whether both can happen at once on a tie;
- 2010 (inch, simultaneous, speed, Skill Roll): whether the enemy is still an inch or more from
  acting, whether both can happen at once, who moves at Half Speed;
- 2020 (inch, simultaneous, Action Roll): the inch and the simultaneous question.

Dice are rolled by the app or typed from the table. The domain's ``who_acts_first`` decides;
"Record" puts its ``FirstToAct`` event in the battle log.
"""

from __future__ import annotations

import re

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.battle.first import Contender, FirstToActResult, who_acts_first
from brikdesk.domain.ids import BattleUnitId
from brikdesk.domain.rolling import DiceSource, RandomDice, TypedDice
from brikdesk.domain.rulesets import RULE_SETS, FirstRule, edition_table
from brikdesk.errors import UserError
from brikdesk.services.tracker import BattleView
from ui import colours
from ui.wheel import guard_wheel
from ui.widgets.dialogs import answer_of, enter_accepts, placeholder_room

#: The "no Use" value of a Use box (a Bail: nothing to subtract).
NO_USE = -1


def first_rule_text(view: BattleView) -> str:
    """The edition's Who Acts First rule in words (the Rules reference's cell)."""
    column = RULE_SETS.index(view.setup.rules)
    return next(
        cells[column] for label, _section, cells in edition_table() if label == "Who Acts First"
    )


class WhoFirstDialog(QDialog):
    """Asks the facts, decides with the battle's rules, shows who goes first and why."""

    def __init__(
        self,
        parent: QWidget | None,
        view: BattleView,
        active_id: BattleUnitId,
        responder_id: BattleUnitId,
        dice: DiceSource | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("whoFirstDialog")
        self.setWindowTitle("Who acts first?")
        self.view = view
        self.rules = view.setup.rules
        self._dice = dice
        self.decision: FirstToActResult | None = None
        state = view.state
        a, r = view.unit(active_id), view.unit(responder_id)
        self.active = Contender(
            a.id, a.name, a.stats.action_die, half_speed=state.unit(a.id).moves_at_half_speed
        )
        self.responder = Contender(
            r.id, r.name, r.stats.action_die, half_speed=state.unit(r.id).moves_at_half_speed
        )
        layout = QVBoxLayout(self)
        head = QLabel(
            f"<b>{a.name}</b> acts on {a.player_name}'s turn; <b>{r.name}</b> "
            f"({r.player_name}) responds.",
            self,
        )
        layout.addWidget(head)
        rule = QLabel(f"{self.rules.name}, 4.3 Who Acts First: {first_rule_text(view)}.", self)
        rule.setObjectName("whoFirstRule")
        rule.setWordWrap(True)
        layout.addWidget(rule)
        form = QFormLayout()
        how = self.rules.who_acts_first
        self.to_movement = QCheckBox(f"{r.name} responds to movement, not to an Action", self)
        self.inch = QCheckBox(f"{a.name} is still an inch or more from acting", self)
        self.at_once = QCheckBox("Both Actions can happen at the same time", self)
        self.at_once.setChecked(True)
        self.active_use = self._use_box(a.name)
        self.responder_use = self._use_box(r.name)
        self.active_half = QCheckBox(f"{a.name} moves at Half Speed", self)
        self.active_half.setChecked(self.active.half_speed)
        self.responder_half = QCheckBox(f"{r.name} moves at Half Speed", self)
        self.responder_half.setChecked(self.responder.half_speed)
        asked: list[QWidget]
        if how is FirstRule.SKILL_CONTEST:
            form.addRow(self.to_movement)
            form.addRow(f"Use of {a.name}'s Action:", self.active_use)
            form.addRow(f"Use of {r.name}'s Action:", self.responder_use)
            self.at_once.setText("On a tie, both Actions can happen at the same time")
            form.addRow(self.at_once)
            asked = [self.to_movement, self.active_use, self.responder_use, self.at_once]
        else:
            form.addRow(self.inch)
            form.addRow(self.at_once)
            asked = [self.inch, self.at_once]
            if how is FirstRule.SPEED_THEN_SKILL:
                form.addRow(self.active_half)
                form.addRow(self.responder_half)
                asked += [self.active_half, self.responder_half]
        for field in (
            self.to_movement,
            self.inch,
            self.at_once,
            self.active_use,
            self.responder_use,
            self.active_half,
            self.responder_half,
        ):
            if field not in asked:  # not a fact this edition asks
                field.hide()
        self.virtual = QRadioButton("Roll the dice here", self)
        self.typed = QRadioButton("Type the dice rolled at the table:", self)
        self.virtual.setChecked(True)
        self.faces = QLineEdit(self)
        self.faces.setObjectName("whoFirstDice")
        self.faces.setAccessibleName("Dice rolled at the table")
        self.faces.setPlaceholderText(f"{a.name}'s die, then {r.name}'s (e.g. 4 2)")
        form.addRow(self.virtual)
        form.addRow(self.typed, self.faces)
        self.dice_error = QLabel(self)
        self.dice_error.setObjectName("whoFirstError")
        colours.text_style(self.dice_error, colours.ERROR)
        self.dice_error.setWordWrap(True)
        self.dice_error.hide()
        form.addRow(self.dice_error)
        layout.addLayout(form)
        self.outcome = QLabel("", self)
        self.outcome.setObjectName("whoFirstOutcome")
        self.outcome.setWordWrap(True)
        layout.addWidget(self.outcome)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.decide_button = QPushButton("&Decide", self)
        self.decide_button.setObjectName("whoFirstDecide")
        self.record_button = QPushButton("&Record in the log", self)
        self.record_button.setObjectName("whoFirstRecord")
        self.record_button.setEnabled(False)
        self.buttons.addButton(self.decide_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.addButton(self.record_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.decide_button.setDefault(True)
        self.decide_button.clicked.connect(self.decide)
        enter_accepts(self.buttons)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        for box in (
            self.to_movement,
            self.inch,
            self.at_once,
            self.active_half,
            self.responder_half,
            self.virtual,
            self.typed,
        ):
            box.toggled.connect(self._facts_changed)
        for spin in (self.active_use, self.responder_use):
            spin.valueChanged.connect(self._facts_changed)
        self.faces.textEdited.connect(self._faces_edited)
        self.setMinimumWidth(520)
        placeholder_room(self)
        self._facts_changed()
        guard_wheel(self)
        first = self.to_movement if how is FirstRule.SKILL_CONTEST else self.inch
        first.setFocus()

    def _use_box(self, name: str) -> QSpinBox:
        box = QSpinBox(self)
        box.setRange(NO_USE, 12)
        box.setSpecialValueText("no Use (a Bail)")
        box.setValue(3)
        box.setToolTip(
            f"The Use rating of what {name} attempts; it is subtracted from the Skill Roll"
        )
        return box

    def _faces_edited(self, _text: str) -> None:
        self.typed.setChecked(True)
        self._facts_changed()

    def needs_dice(self) -> bool:
        """Whether the facts leave the decision to the dice (else the dice rows rest)."""
        if self.rules.who_acts_first is FirstRule.SKILL_CONTEST:
            return not self.to_movement.isChecked()
        if self.inch.isChecked() or self.at_once.isChecked():
            return False
        return not (
            self.rules.who_acts_first is FirstRule.SPEED_THEN_SKILL
            and self.active_half.isChecked() != self.responder_half.isChecked()
        )

    def _facts_changed(self, *_args: object) -> None:
        """A changed fact makes the decision stale: decide again before recording."""
        dice = self.needs_dice()
        for field in (self.virtual, self.typed, self.faces):
            field.setEnabled(dice)
        self.decision = None
        self.outcome.clear()
        self.dice_error.hide()
        self.record_button.setEnabled(False)
        self.decide_button.setDefault(True)

    def _source(self) -> DiceSource:
        if not self.typed.isChecked() or not self.needs_dice():
            return self._dice if self._dice is not None else RandomDice()
        words = [w for w in re.split(r"[\s,;]+", self.faces.text().strip()) if w]
        if not words:
            raise UserError("Type the faces of the dice rolled, separated by spaces.", field="dice")
        bad = [w for w in words if not w.isdigit()]
        if bad:
            raise UserError(
                f"{bad[0]!r} is not a die's face: type whole numbers like 4 2.", field="dice"
            )
        return TypedDice(int(w) for w in words)

    def _contender(self, c: Contender, use: QSpinBox, half: QCheckBox) -> Contender:
        return Contender(
            c.unit_id,
            c.name,
            c.action_die,
            None if use.value() == NO_USE else use.value(),
            half.isChecked(),
        )

    def decide(self) -> FirstToActResult | None:
        """Decide with the facts shown; the outcome appears, Record becomes the default."""
        self._facts_changed()
        try:
            source = self._source()
            result = who_acts_first(
                self._contender(self.active, self.active_use, self.active_half),
                self._contender(self.responder, self.responder_use, self.responder_half),
                source,
                rules=self.rules,
                to_movement=self.to_movement.isChecked(),
                inch_or_more_away=self.inch.isChecked(),
                simultaneous_possible=self.at_once.isChecked(),
            )
            if isinstance(source, TypedDice):
                source.check_all_used()
        except UserError as exc:
            self.dice_error.setText(str(exc))
            self.dice_error.show()
            self.faces.setFocus()
            return None
        self.decision = result
        self.outcome.setText(f"<b>{result.describe()}</b>")
        self.record_button.setEnabled(True)
        self.record_button.setDefault(True)
        self.record_button.setFocus()
        return result

    def _accept(self) -> None:
        if self.decision is not None:
            self.accept()

    @classmethod
    def ask(
        cls,
        parent: QWidget | None,
        view: BattleView,
        active_id: BattleUnitId,
        responder_id: BattleUnitId,
    ) -> FirstToActResult | None:
        """The decision to record, or ``None`` if cancelled."""
        dialog = cls(parent, view, active_id, responder_id)
        return answer_of(dialog, lambda: dialog.decision)
