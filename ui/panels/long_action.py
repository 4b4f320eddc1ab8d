"""Start a long Action (4.2 Long Actions): what the unit is busy with and for how many turns.

The choices follow the battle's edition (``RuleSet``): a full-turn Action (2005 "Extended
Action", 2010 "Full-Round Action") or one over several turns; 2005 adds Large Actions (as many
turns as the object's Size in inches for a lone minifig, ``large_action_turns``) and lists its
Quick Actions, which cost Move rather than the Action and so are not recorded here.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.rulesets import RuleSet, large_action_turns
from ui import colours
from ui.wheel import guard_wheel
from ui.widgets.dialogs import answer_of, enter_accepts

#: The longest extended Action the dialog offers (the turns box's maximum).
MAX_TURNS = 99


@dataclass(frozen=True)
class LongActionRequest:
    """What the unit is busy with and how many of its turns it takes (1: a full-turn Action)."""

    what: str
    turns: int


class LongActionDialog(QDialog):
    """Asks what and how long; ``request()`` is the answer (``None`` while the input is bad)."""

    def __init__(self, parent: QWidget | None, unit_name: str, rules: RuleSet) -> None:
        super().__init__(parent)
        self.setObjectName("longActionDialog")
        self.setWindowTitle(f"Long action — {unit_name}")
        self.rules = rules
        layout = QVBoxLayout(self)
        intro = QLabel(
            f"{unit_name} spends its Action and is Stopped for the whole turn "
            f"({rules.name}, 4.2 Long Actions). A Busy unit can't respond.",
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.what = QLineEdit(self)
        self.what.setObjectName("longActionWhat")
        self.what.setPlaceholderText("digging a trench, rowing the boat, putting on armor…")
        form.addRow("&What:", self.what)
        self.what_error = QLabel(self)
        self.what_error.setObjectName("longActionError")
        colours.text_style(self.what_error, colours.ERROR)
        self.what_error.hide()
        form.addRow("", self.what_error)
        self.kinds = QButtonGroup(self)
        self.full_turn = QRadioButton(_first_cap(rules.full_turn_action), self)
        self.extended = QRadioButton(_first_cap(rules.extended_action.split(";")[0]), self)
        self.full_turn.setChecked(True)
        self.kinds.addButton(self.full_turn)
        self.kinds.addButton(self.extended)
        form.addRow("&How long:", self.full_turn)
        form.addRow("", self.extended)
        self.turns = QSpinBox(self)
        self.turns.setObjectName("longActionTurns")
        self.turns.setRange(2, MAX_TURNS)
        self.turns.setSuffix(" of its turns")
        form.addRow("&Turns:", self.turns)
        self.large: QRadioButton | None = None
        self.size_box = QSpinBox(self)
        self.minifigs = QSpinBox(self)
        if rules.quick_action_costs:  # 2005: Large Actions and Quick Actions
            self.large = QRadioButton(
                "Large Action: one turn per inch of the object's Size for a lone minifig", self
            )
            self.kinds.addButton(self.large)
            form.addRow("", self.large)
            self.size_box.setRange(1, MAX_TURNS)
            self.size_box.setSuffix('" Size')
            self.minifigs.setRange(1, MAX_TURNS)
            self.minifigs.setSuffix(" minifig(s) sharing it")
            form.addRow("&Object:", self.size_box)
            form.addRow("&Working:", self.minifigs)
        else:
            self.size_box.hide()
            self.minifigs.hide()
        layout.addLayout(form)
        self.summary = QLabel(self)
        self.summary.setObjectName("longActionSummary")
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        if rules.quick_action_costs:
            costs = "; ".join(
                f"{what} {'-' + str(cost) + chr(34) if cost else 'free'}"
                for what, cost in rules.quick_action_costs
            )
            quick = QLabel(f"Quick Actions cost Move, not the Action (4.1): {costs}.", self)
            quick.setObjectName("quickActions")
            quick.setWordWrap(True)
            layout.addWidget(quick)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Start")
        ok.setDefault(True)
        enter_accepts(self.buttons)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        for box in (self.turns, self.size_box, self.minifigs):
            box.valueChanged.connect(self._update)
        self.kinds.buttonToggled.connect(self._update)
        self.what.textChanged.connect(self._what_changed)
        self._update()
        guard_wheel(self)
        self.what.setFocus()

    def chosen_turns(self) -> int:
        if self.large is not None and self.large.isChecked():
            return large_action_turns(self.size_box.value(), self.minifigs.value())
        if self.extended.isChecked():
            return self.turns.value()
        return 1

    def _update(self, *_args: object) -> None:
        self.turns.setEnabled(self.extended.isChecked())
        large = self.large is not None and self.large.isChecked()
        self.size_box.setEnabled(large)
        self.minifigs.setEnabled(large)
        n = self.chosen_turns()
        span = "the rest of this turn" if n == 1 else f"this turn and its next {n - 1}"
        self.summary.setText(f"Busy for {span}: Stopped, no other Action, can't respond.")

    def _what_changed(self, _text: str) -> None:
        self.what_error.hide()

    def request(self) -> LongActionRequest | None:
        what = self.what.text().strip()
        if not what:
            self.what_error.setText("Say what the unit is busy with (for the chip and the log).")
            self.what_error.show()
            self.what.setFocus()
            return None
        return LongActionRequest(what, self.chosen_turns())

    def _accept(self) -> None:
        if self.request() is not None:
            self.accept()

    @classmethod
    def ask(
        cls, parent: QWidget | None, unit_name: str, rules: RuleSet
    ) -> LongActionRequest | None:
        dialog = cls(parent, unit_name, rules)
        return answer_of(dialog, dialog.request)


def _first_cap(text: str) -> str:
    return text[:1].upper() + text[1:]
