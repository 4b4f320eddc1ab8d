"""The Attack page's Who Acts First box (4.3): asked when the attack is a response at a unit of
the player whose turn it is; the organizer ticks that the two Actions collide and gives the
facts the battle's edition needs (``first_facts``). The contest itself is rolled on the Action
Roll page (``resolve_action``) and recorded with the attack."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtWidgets import QCheckBox, QFrame, QHBoxLayout, QLineEdit, QVBoxLayout, QWidget

from brikdesk.domain.combat import AttackDraft, CombatContext, prose
from brikdesk.domain.combat.first import FirstFact, first_contest_possible, first_facts
from ui.widgets.combat_style import label, set_problem, show_readings
from ui.wizard.widgets import card


class FirstToActBox(QWidget):
    """The question and the edition's facts; ``change(draft)`` is called with each change."""

    def __init__(self, parent: QWidget, change: Callable[[AttackDraft], None]) -> None:
        super().__init__(parent)
        self._change = change
        self._draft: AttackDraft | None = None
        self.frame, lay = card(self)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.frame)
        self.ask = QCheckBox(prose.FIRST_ASK.replace("acting", "&acting", 1), self.frame)
        self.ask.setObjectName("whoActsFirst")
        show_readings(
            self.ask,
            "4.3 Who Acts First (the wizard)",
            "4.3 Who Acts First (2005)",
            "4.3 Who Acts First (2010, 2020)",
        )
        lay.addWidget(self.ask)
        self.facts = QFrame(self.frame)
        fl = QHBoxLayout(self.facts)
        fl.setContentsMargins(24, 0, 0, 0)
        col = QWidget(self.facts)
        cl = QVBoxLayout(col)
        cl.setContentsMargins(0, 0, 0, 0)
        fl.addWidget(col, 1)
        self.to_movement = QCheckBox(prose.FIRST_FACTS[FirstFact.TO_MOVEMENT.value], col)
        self.inch_away = QCheckBox(prose.FIRST_FACTS[FirstFact.INCH_AWAY.value], col)
        self.simultaneous = QCheckBox(prose.FIRST_FACTS[FirstFact.SIMULTANEOUS.value], col)
        self.use_row = QWidget(col)
        ul = QHBoxLayout(self.use_row)
        ul.setContentsMargins(0, 0, 0, 0)
        use_label = label(
            prose.FIRST_FACTS[FirstFact.TARGET_USE.value], None, self.use_row, wrap=False
        )
        self.target_use = QLineEdit(self.use_row)
        self.target_use.setObjectName("firstTargetUse")
        self.target_use.setMaximumWidth(90)
        use_label.setBuddy(self.target_use)
        ul.addWidget(use_label)
        ul.addWidget(self.target_use)
        ul.addStretch(1)
        for w in (self.to_movement, self.use_row, self.inch_away, self.simultaneous):
            cl.addWidget(w)
        self.note = label(prose.FIRST_NOTE, "note", col)
        cl.addWidget(self.note)
        self.problem = label("", "problem", col)
        self.problem.hide()
        cl.addWidget(self.problem)
        lay.addWidget(self.facts)
        self.ask.toggled.connect(self._ask)
        self.to_movement.toggled.connect(self._to_movement)
        self.inch_away.toggled.connect(self._inch_away)
        self.simultaneous.toggled.connect(self._simultaneous)
        self.target_use.textEdited.connect(self._target_use)

    def show_draft(self, d: AttackDraft, ctx: CombatContext) -> None:
        """Show the box when Who Acts First may matter, with the edition's questions."""
        self._draft = d
        possible = first_contest_possible(d, ctx)
        self.setVisible(possible)
        if not possible:
            return
        wanted = first_facts(ctx)
        for box, value in (
            (self.ask, d.who_first),
            (self.to_movement, d.first_to_movement),
            (self.inch_away, d.first_inch_away),
            (self.simultaneous, d.first_simultaneous),
        ):
            box.blockSignals(True)
            box.setChecked(value)
            box.blockSignals(False)
        self.facts.setVisible(d.who_first)
        self.to_movement.setVisible(FirstFact.TO_MOVEMENT in wanted)
        self.use_row.setVisible(FirstFact.TARGET_USE in wanted and not d.first_to_movement)
        self.inch_away.setVisible(FirstFact.INCH_AWAY in wanted)
        self.simultaneous.setVisible(not d.first_to_movement)
        if not self.target_use.hasFocus():
            self.target_use.setText("" if d.first_target_use is None else str(d.first_target_use))

    def _send(self, d: AttackDraft | None) -> None:
        if d is not None:
            self._change(d)

    def _ask(self, on: bool) -> None:
        d = self._draft
        self._send(replace(d, who_first=on) if d else None)

    def _to_movement(self, on: bool) -> None:
        d = self._draft
        self._send(replace(d, first_to_movement=on) if d else None)

    def _inch_away(self, on: bool) -> None:
        d = self._draft
        self._send(replace(d, first_inch_away=on) if d else None)

    def _simultaneous(self, on: bool) -> None:
        d = self._draft
        self._send(replace(d, first_simultaneous=on) if d else None)

    def _target_use(self, text: str) -> None:
        text = text.strip()
        if text and not (text.isdigit() and int(text) <= 20):
            set_problem(self.problem, f"The Use is a number from 0 to 20, not '{text}'")
            return
        set_problem(self.problem, None)
        d = self._draft
        self._send(replace(d, first_target_use=int(text) if text else None) if d else None)
