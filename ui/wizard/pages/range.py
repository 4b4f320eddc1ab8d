"""Page 2 of the combat wizard: the distance, the height and the close-combat judgements."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QLabel,
    QLineEdit,
)

from brikdesk.domain.attack import inches_text, to_inches
from brikdesk.domain.combat import (
    AttackKind,
    Joiner,
    RangePreview,
    has_mom,
    prose,
    range_preview,
)
from brikdesk.domain.ids import BattleUnitId
from brikdesk.errors import UserError
from ui import colours
from ui.widgets.combat_style import (
    label,
    set_colour,
    set_problem,
    show_readings,
)
from ui.wizard.pages.base import Page, Wizard, form_row, inches_or_none, mnemonic, number_text
from ui.wizard.widgets import (
    card,
)


class RangePage(Page):
    def __init__(self, wizard: Wizard) -> None:
        super().__init__(wizard, "2 · Range", prose.RANGE_SUBTITLE)

    def build(self) -> None:
        self.ranged_box, rl = card(self)
        grid = QGridLayout()
        self.distance = QLineEdit(self)
        self.distance.setObjectName("distance")
        self.distance.setPlaceholderText("inches, e.g. 7.5")
        self.distance.setMaximumWidth(200)
        self.altitude = QLineEdit(self)
        self.altitude.setObjectName("altitude")
        self.altitude.setPlaceholderText("0")
        self.altitude.setMaximumWidth(200)
        self.blind = QCheckBox('Firing &Blind at a target known to be within 1" (-5)', self)
        self.blind.setObjectName("firingBlind")
        form_row(grid, 0, "&Distance to the target", self.distance)
        form_row(grid, 1, "&Height above the target", self.altitude)
        grid.setColumnStretch(2, 1)
        rl.addLayout(grid)
        rl.addWidget(self.blind)
        self.input_problem = label("", "problem")
        self.input_problem.hide()
        rl.addWidget(self.input_problem)
        self.joiner_grid = QGridLayout()
        rl.addLayout(self.joiner_grid)
        self.joiner_edits: dict[BattleUnitId, QLineEdit] = {}
        self.joiner_problems: dict[BattleUnitId, QLabel] = {}
        self.body.addWidget(self.ranged_box)

        self.close_box, cl = card(self)
        self.reach = QCheckBox("The weapon's striking surface can &touch the target (reach)", self)
        self.reach.setObjectName("inReach")
        self.mom = QCheckBox(mnemonic(prose.HAS_MOM, "4"), self)
        self.mom.setObjectName("hasMom")
        self.both = QCheckBox("Weapon held in b&oth hands", self)
        self.above = QCheckBox(prose.FROM_ABOVE, self)
        for w in (self.reach, self.mom, self.both, self.above):
            cl.addWidget(w)
        self.body.addWidget(self.close_box)

        self.preview_box, pl = card(self)
        self.preview_grid = QGridLayout()
        self.preview_grid.setHorizontalSpacing(24)
        pl.addLayout(self.preview_grid)
        self.cells: dict[str, QLabel] = {}
        for col, (key, head) in enumerate(
            (
                ("range", "Weapon Range"),
                ("height", "Height Advantage"),
                ("effective", "Effective Range"),
                ("out", "Out of Range"),
            )
        ):
            self.preview_grid.addWidget(label(head, "note", wrap=False), 0, col)
            value = label("-", "big", wrap=False)
            value.setObjectName(f"range_{key}")
            self.cells[key] = value
            self.preview_grid.addWidget(value, 1, col)
        self.preview_text = label("", "event")
        self.preview_text.setObjectName("rangeText")
        pl.addWidget(self.preview_text)
        self.body.addWidget(self.preview_box)
        self.problem = label("", "problem")
        self.problem.setObjectName("rangeProblem")
        self.body.addWidget(self.problem)
        self.body.addStretch(1)

        self.distance.textEdited.connect(self._distance)
        self.altitude.textEdited.connect(self._altitude)
        self.blind.toggled.connect(self._blind)
        self.reach.toggled.connect(self._reach)
        self.mom.toggled.connect(self._mom)
        self.both.toggled.connect(self._both)
        self.above.toggled.connect(self._above)

    def refresh(self) -> None:
        d, ctx = self.w.draft, self.w.ctx
        close = d.kind.close_combat
        self.ranged_box.setVisible(not close)
        self.close_box.setVisible(close)
        for box, value in (
            (self.blind, d.firing_blind),
            (self.reach, d.in_reach),
            (self.both, d.both_hands),
            (self.above, d.from_above),
            (self.mom, has_mom(d, ctx)),
        ):
            box.blockSignals(True)
            box.setChecked(value)
            box.blockSignals(False)
        charge = d.kind is AttackKind.CHARGE
        for w in (self.both, self.above):
            w.setVisible(charge)
        self.mom.setVisible(charge or d.kind in (AttackKind.SHOVE, AttackKind.COLLISION))
        if not self.distance.hasFocus():
            self.distance.setText("" if d.distance is None else number_text(d.distance))
        if not self.altitude.hasFocus():
            self.altitude.setText("" if not d.altitude else number_text(d.altitude))
        self._joiner_fields()
        p = range_preview(d, ctx)
        for value_label in self.cells.values():
            value_label.setVisible(not close)
        for i in range(self.preview_grid.count()):
            item = self.preview_grid.itemAt(i)
            cell = item.widget() if item is not None else None
            if cell is not None:
                cell.setVisible(not close)
        if not close:
            self.cells["range"].setText(inches_text(p.weapon_range) if p.weapon_range else "-")
            self.cells["height"].setText(f'+{p.height.value}"' if p.height else '+0"')
            self.cells["effective"].setText(
                inches_text(p.effective_range) if p.effective_range is not None else "-"
            )
            self.cells["out"].setText(_out_of_range_text(p))
            set_colour(
                self.cells["out"],
                colours.ERROR
                if p.inches_out
                else colours.GOOD
                if p.effective_range is not None
                else None,
            )
            lines = []
            if p.text:
                lines.append(p.text)
            if p.height is not None:
                lines.append(p.height.describe())
            lines.extend(m.describe() for m in p.penalties)
            lines.extend(p.notes)
            if p.firing_blind is not None:
                lines.append(p.firing_blind.describe())
            for name, text in p.joiners:
                lines.append(f"{name}: {text}")
            self.preview_text.setText("<br>".join(lines))
        else:
            lines = [p.text, *p.notes]
            if d.kind is AttackKind.CHARGE:
                lines.append(prose.CHARGE_NOTE)
            self.preview_text.setText("<br>".join(lines))
        show_readings(
            self.preview_text,
            *(
                ("5.4 Charge", "5.4 Charging Weapons")
                if d.kind is AttackKind.CHARGE
                else ()
                if close
                else ("5.1 Out of Range", "5.1 Height Advantage", "Thrown weapons")
            ),
        )
        said = dict(p.joiner_problems)
        for uid, problem in self.joiner_problems.items():
            set_problem(problem, said.get(uid))
        set_problem(self.problem, p.error)
        self.complete_changed()

    def _joiner_fields(self) -> None:
        d = self.w.draft
        wanted = [] if d.kind.close_combat else [j.unit_id for j in d.joiners]
        if list(self.joiner_edits) != wanted:
            while self.joiner_grid.count():
                item = self.joiner_grid.takeAt(0)
                gone = item.widget() if item is not None else None
                if gone is not None:
                    gone.deleteLater()
            self.joiner_edits = {}
            self.joiner_problems = {}
            for row, uid in enumerate(wanted):
                edit = QLineEdit(self)
                edit.setObjectName(f"joinerDistance{uid}")
                edit.setMaximumWidth(200)
                edit.setPlaceholderText("inches")
                edit.textEdited.connect(self._joiner_distance)
                edit.setProperty("unit", uid)
                problem = label("", "problem")
                problem.setObjectName(f"joinerProblem{uid}")
                problem.hide()
                form_row(
                    self.joiner_grid,
                    row,
                    f"Distance for {self.w.ctx.fighter(uid).name}",
                    edit,
                    problem,
                )
                self.joiner_edits[uid] = edit
                self.joiner_problems[uid] = problem
        for j in d.joiners:
            field = self.joiner_edits.get(j.unit_id)
            if field is not None and not field.hasFocus():
                field.setText("" if j.distance is None else number_text(j.distance))

    def isComplete(self) -> bool:
        return (
            range_preview(self.w.draft, self.w.ctx).error is None
            and not self.input_problem.isVisible()
        )

    def initial_focus(self) -> None:
        if self.w.draft.kind.close_combat:
            self.focus_next_button()
        else:
            self.distance.setFocus()
            self.distance.selectAll()

    def _distance(self, text: str) -> None:
        value, err = inches_or_none(text, "distance")
        set_problem(self.input_problem, err)
        self.w.change("range", replace(self.w.draft, distance=value))

    def _altitude(self, text: str) -> None:
        text = text.strip()
        try:
            value = to_inches(text, "height", allow_negative=True) if text else Fraction(0)
            err = None
        except UserError as exc:
            value, err = Fraction(0), str(exc)
        set_problem(self.input_problem, err)
        self.w.change("range", replace(self.w.draft, altitude=value))

    def _joiner_distance(self, text: str) -> None:
        edit = self.sender()
        uid = edit.property("unit") if edit is not None else None
        value, err = inches_or_none(text, "distance")
        set_problem(self.input_problem, err)
        d = self.w.draft
        joiners = tuple(
            j if j.unit_id != uid else Joiner(j.unit_id, j.item_key, value, j.altitude, j.use)
            for j in d.joiners
        )
        self.w.change("range", replace(self.w.draft, joiners=joiners))

    def _blind(self, on: bool) -> None:
        self.w.change("range", replace(self.w.draft, firing_blind=on))

    def _reach(self, on: bool) -> None:
        self.w.change("range", replace(self.w.draft, in_reach=on))

    def _mom(self, on: bool) -> None:
        self.w.change("range", replace(self.w.draft, has_mom=on))

    def _both(self, on: bool) -> None:
        self.w.change("range", replace(self.w.draft, both_hands=on))

    def _above(self, on: bool) -> None:
        self.w.change("range", replace(self.w.draft, from_above=on))


def _out_of_range_text(p: RangePreview) -> str:
    """The Out of Range cell: ``in Range``, or the inches beyond and the penalty they imply
    (``2" → -2``; the penalty is the same on the Action Roll and the Damage, 5.1)."""
    if p.effective_range is None:
        return "-"
    if not p.inches_out:
        return "in Range"
    return f'{p.inches_out}" → -{p.inches_out}'
