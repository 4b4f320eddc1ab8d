"""Page 4 of the combat wizard: the Damage roll and what it moves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.attack import inches_text
from brikdesk.domain.combat import (
    AttackKind,
    Choice,
    DamagePreview,
    DamageStage,
    TargetChance,
    blast_candidates,
    blast_section_rows,
    damage_preview,
    damage_verdict,
    has_mom,
    prose,
    target_name,
    target_of,
)
from brikdesk.domain.ids import BattleUnitId
from brikdesk.domain.odds import percent
from ui import colours
from ui.widgets.combat_style import (
    label,
    set_colour,
    set_problem,
    show_readings,
)
from ui.wizard.blast import BlastSections
from ui.wizard.pages.base import (
    DiceStep,
    Wizard,
    chart_maker,
    inches_or_none,
    mnemonic,
    number_text,
    show_verdict,
)
from ui.wizard.pages.dice import DicePage
from ui.wizard.widgets import (
    ChartSlot,
    ChoiceCombo,
    card,
    lay_out_now,
)

#: The readings the Damage page's lines add for some kinds of attack.
_KIND_READINGS = {
    AttackKind.COLLISION: ("5.4 Collisions (the wizard)", "5.4 Collisions", "KnockBack"),
    AttackKind.SHOVE: ("5.2 Shoving", "KnockBack"),
    AttackKind.THROWN: ("5.1 Explosions", "3.2 Explosives"),
}


def _targets_text(targets: Sequence[TargetChance]) -> str:
    """Every target of a blast with its Armor and its own chance to be destroyed."""
    if not targets:
        return ""
    rows = [
        f"• <b>{t.name}</b>: Armor {t.armor}{t.note} — destroyed <b>{percent(t.kill)}</b>"
        for t in targets
    ]
    return "Each target in the blast (one Damage roll):<br>" + "<br>".join(rows)


class DamagePage(DicePage):
    STAGE: DiceStep = "damage"

    def __init__(self, wizard: Wizard) -> None:
        super().__init__(
            wizard,
            "4 · Damage",
            "Damage greater than the Armor destroys; equal or less glances off: ka-ping!",
        )

    def build(self) -> None:
        top = QHBoxLayout()
        self.lines_box, ll = card(self)
        ll.addWidget(label("Damage dice and modifiers", "section"))
        self.lines = label("", "event")
        self.lines.setObjectName("damageLines")
        show_readings(
            self.lines, "3.3 Deflection", "5.1 Action and Damage Rolls", "5.1 Combined Attacks"
        )
        ll.addWidget(self.lines)
        self.targets = label("", "event")
        self.targets.setObjectName("blastTargets")
        self.targets.hide()
        ll.addWidget(self.targets)
        self.mom = QCheckBox(mnemonic(prose.SPEND_MOM, "MOM"), self)
        self.mom.setObjectName("spendMom")
        ll.addWidget(self.mom)
        self.mom_text = label("", "note")
        ll.addWidget(self.mom_text)
        self.options_box = QWidget(self)
        ol = QVBoxLayout(self.options_box)
        ol.setContentsMargins(0, 6, 0, 0)
        ll.addWidget(self.options_box)
        ll.addStretch(1)
        top.addWidget(self.lines_box, 3)
        right = QVBoxLayout()
        self.armor_box, al = card(self)
        grid = QGridLayout()
        grid.addWidget(label("Armor to beat", "note", wrap=False), 0, 0)
        self.kill_head = label("Chance to destroy", "note", wrap=False)
        grid.addWidget(self.kill_head, 0, 1)
        self.armor = label("-", "big", wrap=False)
        self.armor.setObjectName("armorToBeat")
        self.kill = label("-", "big", wrap=False)
        self.kill.setObjectName("killChance")
        set_colour(self.kill, colours.ERROR)
        grid.addWidget(self.armor, 1, 0)
        grid.addWidget(self.kill, 1, 1)
        al.addLayout(grid)
        self.armor_text = label("", "note")
        show_readings(self.armor_text, "5.1 Action and Damage Rolls")
        al.addWidget(self.armor_text)
        al.addStretch(1)
        right.addWidget(self.armor_box)
        self.chart = ChartSlot(chart_maker("damage"), self, height=200)
        right.addWidget(self.chart)
        top.addLayout(right, 2)
        self.body.addLayout(top)

        self.blast_label = label(
            "Also inside the blast (each takes the same Damage roll)", "section"
        )
        ol.addWidget(self.blast_label)
        self.blast = QListWidget(self)
        self.blast.setObjectName("blast")
        show_readings(self.blast_label, "3.2 Explosives")
        show_readings(self.blast, "3.2 Explosives")
        ol.addWidget(self.blast)
        self.blast_sections = BlastSections(self)
        self.blast_sections.setObjectName("blastSections")
        ol.addWidget(self.blast_sections)
        self.missed_label = label("", "section")
        show_readings(self.missed_label, "5.3 Missed Shots")
        ol.addWidget(self.missed_label)
        row = QHBoxLayout()
        self.missed = ChoiceCombo(self)
        self.missed.setObjectName("missedStrikes")
        self.missed_distance = QLineEdit(self)
        self.missed_distance.setObjectName("missedDistance")
        self.missed_distance.setPlaceholderText("inches")
        self.missed_distance.setMaximumWidth(110)
        self.missed_at = label("", None, wrap=False)
        self.missed_at.setBuddy(self.missed_distance)
        self.missed_from = label("", None, wrap=False)
        row.addWidget(self.missed, 1)
        row.addWidget(self.missed_at)
        row.addWidget(self.missed_distance)
        row.addWidget(self.missed_from)
        self.missed_row = QWidget(self)
        self.missed_row.setLayout(row)
        ol.addWidget(self.missed_row)
        self.collide = QCheckBox(
            "The target is directly in his path: they &Collide (MOM against POP, 5.4)", self
        )
        self.collide.setObjectName("collide")
        show_readings(self.collide, "5.4 Collisions", "KnockBack", "5.4 Charge")
        ol.addWidget(self.collide)
        row2 = QHBoxLayout()
        obstacle_label = label("KnockBack stopped by an &obstacle after", None, wrap=False)
        row2.addWidget(obstacle_label)
        self.obstacle = QLineEdit(self)
        obstacle_label.setBuddy(self.obstacle)
        self.obstacle.setObjectName("obstacle")
        self.obstacle.setPlaceholderText("nothing in the way")
        self.obstacle.setMaximumWidth(260)
        row2.addWidget(self.obstacle)
        row2.addStretch(1)
        self.obstacle_row = QWidget(self)
        self.obstacle_row.setLayout(row2)
        ol.addWidget(self.obstacle_row)

        self._add_dice_card()

        self.mom.toggled.connect(self._mom)
        self.blast.itemChanged.connect(self._blast)
        self.blast_sections.changed.connect(self._blast_sections)
        self.missed.chosen.connect(self._missed)
        self.missed_distance.textEdited.connect(self._missed_distance)
        self.collide.toggled.connect(self._collide)
        self.obstacle.textEdited.connect(self._obstacle)

    def _stage(self) -> DamageStage:
        return self.w.damage_stage()

    def refresh(self) -> None:
        d, ctx = self.w.draft, self.w.ctx
        action = self.w.action_stage()
        p = damage_preview(d, ctx, action)
        lines = list(p.lines)
        if p.nothing:
            lines.insert(0, p.nothing)
        self.lines.setText("<br>".join(lines))
        show_readings(
            self.lines,
            "3.3 Deflection",
            "5.1 Action and Damage Rolls",
            "5.1 Combined Attacks",
            *_KIND_READINGS.get(d.kind, ()),
        )
        self.armor.setText(p.armor or str(target_of(d, ctx).armor))
        self.armor_text.setText(p.armor_text)
        if p.collision_chance is not None:
            self.kill_head.setText("Chance of KnockBack")
            self.kill.setText(percent(p.collision_chance))
            set_colour(self.kill, colours.MOVED)
        else:
            self.kill_head.setText("Chance to destroy")
            self.kill.setText(percent(p.kill) if p.kill is not None else "-")
            set_colour(self.kill, colours.ERROR)
        self.targets.setText(_targets_text(p.targets))
        self.targets.setVisible(bool(p.targets))
        if p.distribution:
            from ui.wizard import charts

            self.chart.show()
            self.chart.draw(
                "show_bars",
                charts.damage_bars(p.distribution),
                p.armor_line + 0.5 if p.armor_line is not None else None,
                f"Armor {p.armor_line}",
            )
        else:
            self.chart.hide()
        charge_hit = d.kind is AttackKind.CHARGE and action.hit
        shove_mom = (
            d.kind is AttackKind.SHOVE
            and has_mom(d, ctx)
            and action.complete
            and not action.avoided
        )
        self.mom.setText(mnemonic(prose.SPEND_MOM_SHOVE if shove_mom else prose.SPEND_MOM, "MOM"))
        self.mom.setVisible(charge_hit or shove_mom)
        self.mom.blockSignals(True)
        self.mom.setChecked(d.spend_mom)
        self.mom.blockSignals(False)
        self.mom_text.setText(p.mom_text)
        self.mom_text.setVisible(bool(p.mom_text))
        self._show_blast(p.blast)
        self._show_missed(p)
        self.collide.setVisible(p.collision_possible and d.kind is not AttackKind.COLLISION)
        self.collide.blockSignals(True)
        self.collide.setChecked(d.collide)
        self.collide.blockSignals(False)
        knock = p.shove or (p.collision_possible and d.collide)
        self.obstacle_row.setVisible(knock)
        if not self.obstacle.hasFocus():
            self.obstacle.setText("" if d.obstacle is None else number_text(d.obstacle))
        self.options_box.setVisible(
            p.blast or p.missed is not None or p.collision_possible or p.shove
        )
        self._show_stage()
        self.complete_changed()
        lay_out_now()  # one paint of the final geometry

    def _show_blast(self, blast: bool) -> None:
        d, ctx = self.w.draft, self.w.ctx
        self.blast.setVisible(blast)
        self.blast_label.setVisible(blast)
        self.blast_label.setText(
            "Also inside the blast (each takes the same Damage roll)"
            if self.w.action_stage().hit
            else "Inside the blast where it lands: tick each unit it catches"
        )
        self.blast_sections.show_rows(
            blast_section_rows(d, ctx, self.w.action_stage().hit) if blast else ()
        )
        if not blast:
            return
        hit = self.w.action_stage().hit
        rows_wanted = blast_candidates(d, ctx, hit)
        lw = self.blast
        lw.blockSignals(True)
        ids = [lw.item(i).data(Qt.ItemDataRole.UserRole) for i in range(lw.count())]
        if ids != [f.unit_id for f in rows_wanted]:  # rebuilt only when the units change
            lw.clear()
            for f in rows_wanted:
                item = QListWidgetItem(
                    f"{f.name} ({ctx.setup.player(f.player_id).name}), Armor {f.armor}", lw
                )
                item.setData(Qt.ItemDataRole.UserRole, f.unit_id)
                item.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled)
        for i, f in enumerate(rows_wanted):
            lw.item(i).setCheckState(
                Qt.CheckState.Checked if f.unit_id in d.blast_ids else Qt.CheckState.Unchecked
            )
        lw.blockSignals(False)
        rows = min(max(self.blast.count(), 1), 8)
        self.blast.setFixedHeight(rows * max(self.blast.sizeHintForRow(0), 20) + 8)

    def _show_missed(self, p: DamagePreview) -> None:
        d, ctx = self.w.draft, self.w.ctx
        show = p.missed is not None and not p.blast
        self.missed_label.setVisible(p.missed is not None and not p.blast)
        self.missed_row.setVisible(show)
        if p.missed is None:
            return
        radius = inches_text(p.missed.radius)
        self.missed_label.setText(
            prose.missed_shot_lands(radius, p.missed.state.attack.target.name, p.blast)
        )
        choices: list[Choice[int | None]] = [Choice(None, "nothing that matters")]
        for f in ctx.fighters:
            if f.unit_id == d.attacker_id or not ctx.state.unit(f.unit_id).in_battle:
                continue
            choices.append(
                Choice(
                    f.unit_id, f"{f.name} ({ctx.setup.player(f.player_id).name}), Armor {f.armor}"
                )
            )
        self.missed.set_choices(choices, d.missed_strikes)
        struck = d.missed_strikes is not None
        self.missed_distance.setVisible(struck)
        self.missed_at.setVisible(struck)
        self.missed_from.setVisible(struck)
        self.missed_at.setText("&at")
        self.missed_from.setText(f'" from {ctx.fighter(d.attacker_id).name}')
        if not self.missed_distance.hasFocus():
            dist = d.missed_distance if d.missed_distance is not None else d.distance
            self.missed_distance.setText("" if dist is None else number_text(dist))

    def _show_stage(self) -> None:
        stage = self.w.damage_stage()
        self.dice.ask(stage.need, stage.dice)
        self.dice.setVisible(stage.rolls_dice)
        lines = []
        if stage.damage is not None:
            lines.append(f"<b>{stage.damage.describe()}</b>")
        if stage.explosion is not None:
            lines.extend(h.describe() for h in stage.explosion.hits)
        if stage.missed_damage is not None:
            lines.append(f"Missed Shot: {stage.missed_damage.describe()}")
        for res in (stage.shove, stage.grab, stage.collision):
            if res is not None:
                lines.append(res.describe())
        if stage.weapon_knockback:
            lines.append(
                prose.weapon_knockback(
                    target_name(self.w.draft, self.w.ctx), inches_text(stage.weapon_knockback)
                )
            )
        if not stage.rolls_dice and stage.complete and not lines:
            lines.append("Nothing to roll here.")
        self.outcome.setText("<br>".join(lines))
        self.outcome.setVisible(bool(lines))
        show_verdict(self.verdict, damage_verdict(stage))
        self._show_problem(stage)

    def _mom(self, on: bool) -> None:
        self.w.change("damage", replace(self.w.draft, spend_mom=on))

    def _blast(self, item: QListWidgetItem) -> None:
        uid = item.data(Qt.ItemDataRole.UserRole)
        ids = tuple(u for u in self.w.draft.blast_ids if u != uid)
        if item.checkState() == Qt.CheckState.Checked:
            ids += (uid,)
        self.w.change("damage", replace(self.w.draft, blast_ids=ids))

    def _blast_sections(self, uid: BattleUnitId, sections: int) -> None:
        self.w.change("damage", self.w.draft.with_sections_in_blast(uid, sections))

    def _missed(self, uid: BattleUnitId | None) -> None:
        self.w.change("damage", replace(self.w.draft, missed_strikes=uid))

    def _missed_distance(self, text: str) -> None:
        value, err = inches_or_none(text, "distance")
        set_problem(self.problem, err)
        self.w.change("damage", replace(self.w.draft, missed_distance=value))

    def _collide(self, on: bool) -> None:
        self.w.change("damage", replace(self.w.draft, collide=on))

    def _obstacle(self, text: str) -> None:
        value, err = inches_or_none(text, "obstacle distance")
        set_problem(self.problem, err)
        self.w.change("damage", replace(self.w.draft, obstacle=value))
