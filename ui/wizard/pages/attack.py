"""Page 1 of the combat wizard: who attacks, with what, how, and at whom."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
)

from brikdesk.domain.attack import SizeClass
from brikdesk.domain.battle import READINGS as BATTLE_READINGS
from brikdesk.domain.battle import Use
from brikdesk.domain.combat import (
    AttackDraft,
    AttackKind,
    Choice,
    CombatContext,
    Joiner,
    ObjectTarget,
    Reaction,
    attack_problem,
    attacker_options,
    brawl_options,
    default_draft,
    default_use,
    joiner_options,
    kind_options,
    passing_by_possible,
    prose,
    target_name,
    target_options,
    unit_facts,
    use_options,
    weapon_options,
)
from brikdesk.domain.ids import BattleUnitId
from brikdesk.errors import UserError
from ui.widgets.combat_style import (
    label,
    set_problem,
    show_readings,
)
from ui.wizard.first import FirstToActBox
from ui.wizard.pages.base import Page, Wizard, aimed_at, form_row, inches_or_none, mnemonic
from ui.wizard.widgets import (
    ChoiceCombo,
    card,
)

OBJECT = "object"


class AttackPage(Page):
    def __init__(self, wizard: Wizard) -> None:
        super().__init__(wizard, "1 · Attack", "Who attacks, with what, how, and at whom.")
        self.ensure_built()  # the first page: shown at once

    def build(self) -> None:
        grid = QGridLayout()
        grid.setHorizontalSpacing(18)
        grid.setVerticalSpacing(8)
        self.attacker = ChoiceCombo(self)
        self.attacker.setObjectName("attacker")
        self.weapon = ChoiceCombo(self)
        self.weapon.setObjectName("weapon")
        self.improvised = QCheckBox("&Improvised: any catalog item", self)
        self.kind = ChoiceCombo(self)
        self.kind.setObjectName("kind")
        self.target = ChoiceCombo(self)
        self.target.setObjectName("target")
        self.use = ChoiceCombo(self)
        self.use.setObjectName("use")
        form_row(grid, 0, "&Attacker", self.attacker)
        form_row(grid, 1, "&Weapon or item", self.weapon, self.improvised)
        form_row(grid, 2, "&Kind of attack", self.kind)
        form_row(grid, 3, "&Target", self.target)
        self.brawl = ChoiceCombo(self)
        self.brawl.setObjectName("brawl")
        self.brawl.setToolTip(BATTLE_READINGS["brawl"])
        self.brawl_label = form_row(grid, 4, "Braw&l", self.brawl)
        form_row(grid, 5, "&Pays with", self.use)
        self.passing_by = QCheckBox(mnemonic(prose.PASSING_BY, "passing"), self)
        self.passing_by.setObjectName("passingBy")
        show_readings(self.passing_by, "4.1 Movement")
        grid.addWidget(self.passing_by, 6, 1, 1, 2)  # under Improvised too: nothing cut
        grid.setColumnStretch(1, 1)
        self.body.addLayout(grid)
        self.first = FirstToActBox(self, self._first_changed)
        self.first.setObjectName("firstToAct")
        self.body.addWidget(self.first)

        self.summary_box, sl = card(self)
        self.summary = label("", "paragraph")
        self.summary.setObjectName("attackSummary")
        self.facts = label("", "event")
        self.facts.setObjectName("attackFacts")
        sl.addWidget(self.summary)
        sl.addWidget(self.facts)
        self.body.addWidget(self.summary_box)

        self.object_box, obj = card(self)
        obj_grid = QGridLayout()
        self.object_name = QLineEdit(self)
        self.object_name.setObjectName("objectName")
        self.object_armor = QLineEdit(self)
        self.object_armor.setObjectName("objectArmor")
        self.object_armor.setMaximumWidth(160)
        self.object_size = ChoiceCombo(self)
        self.object_size.setObjectName("objectSize")
        self.object_inches = QLineEdit(self)
        self.object_inches.setObjectName("objectInches")
        self.object_inches.setMaximumWidth(120)
        self.object_inches.setPlaceholderText('Size "')
        form_row(obj_grid, 0, "Object's &name", self.object_name)
        form_row(obj_grid, 1, "Its A&rmor", self.object_armor)
        form_row(obj_grid, 2, "Its &Size", self.object_size, self.object_inches)
        obj_grid.setColumnStretch(1, 1)
        obj.addWidget(label("An inanimate object", "section"))
        obj.addLayout(obj_grid)
        self.object_problem = label("", "problem")
        self.object_problem.hide()
        obj.addWidget(self.object_problem)
        self.body.addWidget(self.object_box)

        self.joiners_box, jl = card(self)
        show_readings(self.joiners_box, "5.1 Combined Attacks", "5.2 Hands")
        jl.addWidget(label(prose.JOINERS_HEADING, "section"))
        self.joiners = QListWidget(self)
        self.joiners.setObjectName("joiners")
        self.joiners.setAccessibleName("Others joining a Combined Attack")
        #: Each row's text and flags as last set (``_fill_joiners``).
        self._joiner_rows: list[tuple[str, Qt.ItemFlag] | None] = []
        #: The battle state and attacker the attackers and targets were made for (``_options``).
        self._made_options: (
            tuple[
                CombatContext,
                BattleUnitId,
                tuple[Choice[BattleUnitId], ...],
                list[Choice[int | str]],
            ]
            | None
        ) = None
        jl.addWidget(self.joiners)
        self.body.addWidget(self.joiners_box)
        self.problem = label("", "problem")
        self.problem.setObjectName("attackProblem")
        self.body.addWidget(self.problem)
        self.body.addStretch(1)

        self.attacker.chosen.connect(self._attacker)
        self.weapon.chosen.connect(self._weapon)
        self.improvised.toggled.connect(self._improvised)
        self.kind.chosen.connect(self._kind)
        self.target.chosen.connect(self._target)
        self.use.chosen.connect(self._use)
        self.brawl.chosen.connect(self._brawl)
        self.passing_by.toggled.connect(self._passing_by)
        self.object_name.textEdited.connect(self._object)
        self.object_armor.textEdited.connect(self._object)
        self.object_inches.textEdited.connect(self._object)
        self.object_size.chosen.connect(self._object)
        self.joiners.itemChanged.connect(self._joiner)

    # -- showing ---------------------------------------------------------------------------

    def _options(self) -> tuple[tuple[Choice[BattleUnitId], ...], list[Choice[int | str]]]:
        """The attackers and the targets (an object last): remade for a new battle state or
        attacker only, not for every judgement (500 units: ~7 ms)."""
        d, ctx = self.w.draft, self.w.ctx
        made = self._made_options
        if made is None or made[0] is not ctx or made[1] != d.attacker_id:
            targets: list[Choice[int | str]] = list(target_options(ctx, d))
            targets.append(Choice(OBJECT, "An inanimate object (name its Size and Armor)"))
            made = (ctx, d.attacker_id, attacker_options(ctx), targets)
            self._made_options = made
        return made[2], made[3]

    def refresh(self) -> None:
        d, ctx = self.w.draft, self.w.ctx
        attackers, targets = self._options()
        self.attacker.set_choices(attackers, d.attacker_id)
        self.weapon.set_choices(weapon_options(ctx, d), d.item_key)
        self.improvised.blockSignals(True)
        self.improvised.setChecked(d.improvised)
        self.improvised.blockSignals(False)
        self.kind.set_choices(kind_options(ctx, d), d.kind)
        self.target.set_choices(targets, d.target_id if d.target_id is not None else OBJECT)
        self.use.set_choices(use_options(ctx, d), d.use or default_use(ctx, d.attacker_id))
        self.passing_by.setVisible(passing_by_possible(d, ctx))
        brawls = brawl_options(d, ctx)
        self.brawl.set_choices(brawls, d.brawl)
        self.brawl.setVisible(bool(brawls))
        self.brawl_label.setVisible(bool(brawls))
        self.first.show_draft(d, ctx)
        self.passing_by.blockSignals(True)
        self.passing_by.setChecked(d.passing_by)
        self.passing_by.blockSignals(False)
        obj = d.target_object
        self.object_box.setVisible(d.target_id is None)
        if obj is not None and d.target_id is None:
            if not self.object_name.hasFocus():
                self.object_name.setText(obj.name)
            if not self.object_armor.hasFocus():
                self.object_armor.setText(obj.armor)
            self.object_size.set_choices(
                [Choice(s, str(s)) for s in SizeClass if s is not SizeClass.MINIFIG], obj.size
            )
            self.object_inches.setVisible(obj.size is SizeClass.LARGE)
            if not self.object_inches.hasFocus():
                self.object_inches.setText(str(obj.size_inches) if obj.size_inches else "")
        self._fill_joiners()
        self._summarize()
        set_problem(self.problem, attack_problem(ctx, d))
        self.complete_changed()

    def _summarize(self) -> None:
        """The attack in one sentence, and the numbers of who is in it."""
        d, ctx = self.w.draft, self.w.ctx
        me = ctx.fighter(d.attacker_id)
        item = ctx.item(d.item_key)
        weapon = item.name if item is not None else "bare hands"
        target = target_name(self.w.draft, self.w.ctx)
        others = [ctx.fighter(j.unit_id).name for j in d.joiners]
        who = me.name + (" with " + ", ".join(others) if others else "")
        self.summary.setText(
            f"<b>{who}</b> {d.kind.verb} <b>{target}</b>"
            + ("" if d.kind in (AttackKind.SHOVE, AttackKind.GRAB) else f" with the {weapon}")
        )
        facts = [unit_facts(ctx, me.unit_id)]
        if d.target_id is not None:
            facts.append(unit_facts(ctx, d.target_id))
        else:
            obj = d.target_object or ObjectTarget()
            facts.append(f"{obj.name}: an inanimate object, Armor {obj.armor}, {obj.size}")
        self.facts.setText("<br>".join(facts))

    def _fill_joiners(self) -> None:
        """The list of possible joiners; rows are updated in place (a check box's own signal
        may be what called this, so its item must live on)."""
        d, ctx = self.w.draft, self.w.ctx
        joined = {j.unit_id for j in d.joiners}
        weapons = {j.unit_id: ctx.item(j.item_key) for j in d.joiners}
        options = joiner_options(ctx, d)
        lw = self.joiners
        lw.blockSignals(True)
        ids = [lw.item(i).data(Qt.ItemDataRole.UserRole) for i in range(lw.count())]
        values = [c.value for c in options]
        if ids != values:
            # Another attacker or other units: the rows there are reused, the list only grows
            # or shrinks at its end (making 250 rows anew took ~1.5 ms of the A key).
            while lw.count() > len(values):
                lw.takeItem(lw.count() - 1)
            while lw.count() < len(values):
                QListWidgetItem(lw).setCheckState(Qt.CheckState.Unchecked)  # Space ticks it
            for i, value in enumerate(values):
                if i >= len(ids) or ids[i] != value:
                    lw.item(i).setData(Qt.ItemDataRole.UserRole, value)
            self._joiner_rows = [None] * len(options)
        for i, c in enumerate(options):
            text = c.label
            if c.value in weapons:
                it = weapons[c.value]
                text += f": {it.name if it is not None else 'bare hands'}"
            if c.problem:
                why = c.problem if c.value in joined else f"can't: {c.problem}"
                text += f"  —  {why}"
            flags = Qt.ItemFlag.ItemIsUserCheckable
            if c.allowed or c.value in joined:
                flags |= Qt.ItemFlag.ItemIsEnabled
            check = Qt.CheckState.Checked if c.value in joined else Qt.CheckState.Unchecked
            item = lw.item(i)
            if item.checkState() != check:  # a click the draft did not take is undone too
                item.setCheckState(check)
            row = (text, flags)
            if self._joiner_rows[i] == row:  # as shown: 250 rows are not set again
                continue
            self._joiner_rows[i] = row
            item.setText(text)
            item.setFlags(flags)
        lw.blockSignals(False)
        self.joiners_box.setVisible(lw.count() > 0)
        rows = min(max(lw.count(), 1), 6)
        lw.setFixedHeight(rows * lw.sizeHintForRow(0) + 8 if lw.count() else 40)

    def isComplete(self) -> bool:
        return (
            attack_problem(self.w.ctx, self.w.draft) is None and not self.object_problem.isVisible()
        )

    def initial_focus(self) -> None:
        self.target.setFocus()

    # -- changes ---------------------------------------------------------------------------

    def _attacker(self, uid: BattleUnitId) -> None:
        if uid != self.w.draft.attacker_id:
            self.w.replace_draft(default_draft(self.w.ctx, uid))

    def _weapon(self, key: str | None) -> None:
        d = replace(self.w.draft, item_key=key)
        allowed = [c.value for c in kind_options(self.w.ctx, d) if c.allowed]
        if d.kind not in allowed and allowed:
            d = replace(d, kind=allowed[0])
        self.w.change("attack", d)

    def _improvised(self, on: bool) -> None:
        self.w.change("attack", replace(self.w.draft, improvised=on))

    def _kind(self, kind: AttackKind) -> None:
        self.w.change("attack", replace(self.w.draft, kind=kind, reaction=Reaction.NONE))

    def _target(self, value: BattleUnitId | str) -> None:
        d = self.w.draft
        if isinstance(value, str):  # OBJECT: an inanimate target
            self.w.change(
                "attack",
                replace(
                    self.w.draft,
                    target_id=None,
                    target_object=d.target_object or ObjectTarget(),
                    size=None,
                    visible_size=None,
                    reaction=Reaction.NONE,
                ),
            )
            self.object_name.setFocus()
            self.object_name.selectAll()
        else:
            self.w.change("attack", aimed_at(self.w.draft, self.w.ctx, value))

    def _use(self, use: Use | None) -> None:
        self.w.change("attack", replace(self.w.draft, use=use))

    def _first_changed(self, d: AttackDraft) -> None:
        self.w.change("attack", d)

    def _brawl(self, anchor: BattleUnitId | None) -> None:
        self.w.change("attack", replace(self.w.draft, brawl=anchor))

    def _passing_by(self, on: bool) -> None:
        self.w.change("attack", replace(self.w.draft, passing_by=on))

    def _object(self, *_args: object) -> None:
        size = self.object_size.value() or SizeClass.STUD_1X1
        inches, err = inches_or_none(self.object_inches.text(), "Size")
        try:
            obj = ObjectTarget(
                self.object_name.text().strip() or "the object",
                self.object_armor.text().strip() or "0",
                size,
                inches or Fraction(0),
            )
        except UserError as exc:
            set_problem(self.object_problem, str(exc))
            self.complete_changed()
            return
        set_problem(self.object_problem, err)
        self.w.change(
            "attack", replace(self.w.draft, target_object=obj, size=None, visible_size=None)
        )

    def _joiner(self, item: QListWidgetItem) -> None:
        uid = item.data(Qt.ItemDataRole.UserRole)
        d = self.w.draft
        rest = tuple(j for j in d.joiners if j.unit_id != uid)
        if item.checkState() == Qt.CheckState.Checked:
            f = self.w.ctx.fighter(uid)
            key = next((it.key for it in f.items if it.deals_damage), None)
            for c in weapon_options(self.w.ctx, replace(d, attacker_id=uid)):
                if c.allowed and c.value is not None:
                    key = c.value
                    break
            rest = rest + (Joiner(uid, key),)
        self.w.change("attack", replace(self.w.draft, joiners=rest))
