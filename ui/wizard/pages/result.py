"""Page 5 of the combat wizard: what happened, and what Finish will record."""

from __future__ import annotations

import html
from dataclasses import replace

from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QPushButton,
)

from brikdesk.domain.battle import AttackResolved
from brikdesk.domain.combat import (
    ActionStage,
    Verdict,
    prose,
    result_verdict,
)
from ui import colours
from ui.widgets.combat_style import (
    label,
    set_problem,
    show_readings,
)
from ui.wizard.pages.base import Page, Wizard, show_verdict
from ui.wizard.widgets import (
    card,
)


class ResultPage(Page):
    def __init__(self, wizard: Wizard) -> None:
        super().__init__(
            wizard,
            "5 · Result",
            "What happened, and what Finish will record (one step on the battle's Undo).",
        )
        self.setFinalPage(True)

    def build(self) -> None:
        self.paragraph = label("", "paragraph")
        self.paragraph.setObjectName("resultParagraph")
        box, bl = card(self)
        self.verdict = label("", "big")
        self.verdict.setObjectName("resultVerdict")
        bl.addWidget(self.verdict)
        bl.addWidget(self.paragraph)
        self.body.addWidget(box)
        self.changes_box, cl = card(self)
        show_readings(self.changes_box, "Parting", "5.2 Parrying")
        cl.addWidget(label("What will change", "section"))
        self.changes = label("", "event")
        self.changes.setObjectName("resultChanges")
        cl.addWidget(self.changes)
        self.knocked = QCheckBox(self)
        self.knocked.setObjectName("recordKnockedAway")
        self.knocked.toggled.connect(self._knocked)
        self.knocked.hide()
        cl.addWidget(self.knocked)
        self.body.addWidget(self.changes_box)
        self.details_box, dl = card(self)
        dl.addWidget(label("Every step, die and modifier", "section"))
        self.details = label("", "note")
        self.details.setObjectName("resultDetails")
        dl.addWidget(self.details)
        self.body.addWidget(self.details_box)
        self.warnings_box, wl = card(self)
        self.warnings_box.setObjectName("ruleWarnings")
        self.warnings_box.set_colours(colours.CAUTION_BG, colours.CAUTION_BORDER, 2)
        show_readings(self.warnings_box, "Rule warnings")
        wl.addWidget(label(prose.WARNINGS_HEADING, "section"))
        self.warnings = label("", "event")
        self.warnings.setObjectName("ruleWarningList")
        wl.addWidget(self.warnings)
        wl.addWidget(label(prose.WARNINGS_NOTE, "note"))
        row = QHBoxLayout()
        self.overrule = QPushButton("&Overrule and record", self)
        self.overrule.setObjectName("overruleAndRecord")
        self.overrule.setAutoDefault(False)
        self.overrule.clicked.connect(self._overrule)
        row.addWidget(self.overrule)
        row.addStretch(1)
        wl.addLayout(row)
        self.body.insertWidget(0, self.warnings_box)
        self.problem = label("", "problem")
        self.problem.setObjectName("resultProblem")
        self.body.addWidget(self.problem)
        self.body.addStretch(1)

    def refresh(self) -> None:
        s = self.w.summary()
        self.paragraph.setText(s.paragraph)
        action = self.w.action_stage()
        damage = self.w.damage_stage() if action.complete else None
        show_verdict(self.verdict, Verdict() if s.problem else result_verdict(action, damage))
        self._show_knocked(action)
        self.changes.setText("<br>".join(f"• {c}" for c in s.changes))
        self.details.setText("<br>".join(_html(x) for x in s.details))
        self.changes_box.setVisible(bool(s.changes))
        self.details_box.setVisible(bool(s.details))
        self.warnings_box.setVisible(s.needs_decision)
        self.warnings.setText("<br>".join(f"⚠ {html.escape(w, quote=False)}" for w in s.warnings))
        set_problem(self.problem, s.problem)
        self.complete_changed()

    def _show_knocked(self, action: ActionStage) -> None:
        """Offer to note in the battle log the item a fumbled Parry knocked away (5.2)."""
        d, ctx = self.w.draft, self.w.ctx
        parry = action.parry if action.complete else None
        alive = d.target_id is not None and not any(
            isinstance(e, AttackResolved) and d.target_id in e.killed
            for e in self.w.summary().events
        )
        show = parry is not None and parry.knocked_away is not None and alive
        self.knocked.setVisible(show)
        if not show or parry is None or d.target_id is None:
            return
        who = ctx.fighter(d.target_id).name
        self.knocked.setText(
            f"&Note in the battle log that {who}'s {parry.item.name} is knocked away"
        )
        self.knocked.blockSignals(True)
        self.knocked.setChecked(d.record_knocked_away)
        self.knocked.blockSignals(False)

    def _knocked(self, on: bool) -> None:
        self.w.change("note", replace(self.w.draft, record_knocked_away=on))

    def show_problem(self, text: str) -> None:
        set_problem(self.problem, text)

    def isComplete(self) -> bool:
        s = self.w.summary()
        return s.problem is None and not s.needs_decision

    def _overrule(self) -> None:
        """Record the attack anyway, with the warnings noted (READINGS "Rule warnings")."""
        self.w.change("note", replace(self.w.draft, overruled=self.w.summary().warnings))
        self.w.accept()


def _html(text: str) -> str:
    """A detail line as rich text: escaped, its leading spaces shown as an indent."""
    body = text.lstrip(" ")
    return "&nbsp;" * (2 * (len(text) - len(body))) + html.escape(body, quote=False)
