"""The quick attack form: the common attack on one compact page, from the keyboard.

With a unit selected in the battle panel, Q opens it: the attacker filled in, its weapon (the
first in hand; Alt+W takes the next), the target found by typing a few letters of its name
(enemies first), the range in inches, the target's reaction (Alt+P: none, a Parry, a Bail,
declared before the Action Roll), the judgements that apply as toggles with their values
and rule sections, the dice, a live odds line and the result. Enter records the attack; Ctrl+F
(or the button) opens the full combat wizard with everything carried over, for the unusual
attack. The form edits the same ``AttackDraft`` as the wizard and records through the same
call (:func:`ui.wizard.wizard.record_attack`): the same inputs give the same events.

The focus walks on by itself: a target taken (Enter or Tab on the letters) gives the focus to
the range, the range to the dice, the last die to Record.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.battle import READINGS as BATTLE_READINGS
from brikdesk.domain.battle import Use
from brikdesk.domain.combat import (
    AttackDraft,
    AttackKind,
    CombatContext,
    Reaction,
    ResultSummary,
    action_preview,
    benny_options,
    brawl_options,
    judgement_values,
    reaction_options,
    resolve_action,
    resolve_damage,
    result_summary,
    target_options,
    weapon_options,
    with_weapon,
)
from brikdesk.domain.ids import BattleId, BattleUnitId
from brikdesk.domain.odds import percent
from brikdesk.domain.rolling import BennyUse, NeedDie
from ui.bus import Bus
from ui.screen import fit_to_screen, grow_to_fit, usable_size
from ui.wheel import guard_wheel
from ui.widgets.battle_context import CombatServices
from ui.widgets.combat_style import apply_style, label, set_problem
from ui.widgets.dialogs import enter_accepts
from ui.widgets.dice import BennyChooser, DiceEntry
from ui.wizard.attack_form import AttackForm
from ui.wizard.pages import aimed_at, inches_or_none, of_kind
from ui.wizard.wizard import record_attack

#: The judgements the form offers as toggles: key, the box's words.
JUDGEMENTS = (
    ("disrupted", "Target Disrupted"),
    ("outnumbered", "Outnumbered"),
    ("engaged", "Attacker engaged"),
)


def matches(text: str, names: list[tuple[BattleUnitId, str]]) -> list[BattleUnitId]:
    """The units whose name has ``text`` in it (any case), those whose name or a word of it
    starts with it first, in the order given (enemies first)."""
    typed = text.strip().lower()
    if not typed:
        return [uid for uid, _ in names]
    starts = [
        uid
        for uid, name in names
        if any(word.startswith(typed) for word in [name.lower(), *name.lower().split()])
    ]
    inside = [uid for uid, name in names if typed in name.lower() and uid not in starts]
    return starts + inside


class StepEdit(QLineEdit):
    """A line that hands the focus on with Enter or Tab (``done``), and holds Enter back from
    the dialog's default button while it does."""

    done = Signal()

    def event(self, event: QEvent) -> bool:
        if (
            isinstance(event, QKeyEvent)
            and event.type() == QEvent.Type.KeyPress
            and event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Return, Qt.Key.Key_Enter)
        ):
            self.done.emit()
            event.accept()
            return True
        return super().event(event)


class QuickAttack(AttackForm, QDialog):
    """One page for the common attack; see the module docstring. ``recorded(summary)``;
    ``handed_over(wizard)`` when the full wizard takes the attack over (the form then
    closes)."""

    recorded = Signal(object)
    handed_over = Signal(object)

    def build(self, attacker_id: BattleUnitId) -> None:
        """The form's one page (``AttackForm`` opened the battle)."""
        self.setObjectName("quickAttack")
        outer = QVBoxLayout(self)
        form = QFormLayout()
        outer.addLayout(form)
        self.attacker = label("", None, self)
        form.addRow("Attacker", self.attacker)
        self.weapon = QPushButton(self)
        self.weapon.setObjectName("quickWeapon")
        self.weapon.setAutoDefault(False)
        self.weapon.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.weapon.clicked.connect(self.next_weapon)
        form.addRow("Weapon", self.weapon)
        self.target = StepEdit(self)
        self.target.setObjectName("quickTarget")
        self.target.setAccessibleName("Target")
        self.target.setPlaceholderText("type a few letters of its name")
        self.target_hint = label("", "note", self)
        self.target_hint.hide()  # shown once letters are typed: the form opens compact
        # The box has the whole width of the form (the hint goes under it): a long name shows.
        target_row = QWidget(self)  # a widget, not a layout: its label is sized as the others
        row = QVBoxLayout(target_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        row.addWidget(self.target)
        row.addWidget(self.target_hint)
        target_label = QLabel("&Target", self)
        target_label.setBuddy(self.target)
        form.addRow(target_label, target_row)
        self.distance = StepEdit(self)
        self.distance.setObjectName("quickDistance")
        self.distance.setPlaceholderText("inches, e.g. 7.5")
        self.distance.setMaximumWidth(200)
        self.distance_label = QLabel("&Range", self)
        self.distance_label.setBuddy(self.distance)
        form.addRow(self.distance_label, self.distance)
        self.reaction = QPushButton(self)
        self.reaction.setObjectName("quickReaction")
        self.reaction.setAutoDefault(False)
        self.reaction.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.reaction.clicked.connect(self.next_reaction)
        form.addRow("Reaction", self.reaction)
        # 5.2 (the Hank and Butch brawl): the fight may join a brawl going on beside it.
        self.brawl = QPushButton(self)
        self.brawl.setObjectName("quickBrawl")
        self.brawl.setAutoDefault(False)
        self.brawl.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.brawl.setToolTip(BATTLE_READINGS["brawl"])
        self.brawl.clicked.connect(self.next_brawl)
        self.brawl_label = QLabel("Brawl", self)
        form.addRow(self.brawl_label, self.brawl)
        self.judgements: dict[str, QCheckBox] = {}
        judge_row = QHBoxLayout()
        for key, words in JUDGEMENTS:
            box = QCheckBox(words, self)
            box.setObjectName(f"quick_{key}")
            box.toggled.connect(self._judged)
            judge_row.addWidget(box)
            self.judgements[key] = box
        judge_row.addStretch(1)
        form.addRow("Judgements", judge_row)
        self.dice_entry = DiceEntry(self)
        self.dice_entry.setObjectName("quickDice")
        outer.addWidget(self.dice_entry)
        self.benny = BennyChooser(self)
        self.benny.setObjectName("quickBenny")
        self.benny.hide()
        self.benny.picked.connect(self._benny)
        outer.addWidget(self.benny)
        self.odds = label("", "event", self, selectable=False)
        self.odds.setObjectName("quickOdds")
        outer.addWidget(self.odds)
        self.outcome = label("", "event", self)
        self.outcome.setObjectName("quickResult")
        outer.addWidget(self.outcome)
        self.problem = label("", "problem", self)
        self.problem.setObjectName("quickProblem")
        self.problem.hide()
        outer.addWidget(self.problem)
        buttons = QDialogButtonBox(self)
        self.wizard_button = buttons.addButton(
            "Full wizard… (Ctrl+F)", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.wizard_button.setObjectName("quickWizard")
        self.wizard_button.setAutoDefault(False)
        self.record_button = buttons.addButton(
            "Record (Enter)", QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.record_button.setObjectName("quickRecord")
        self.record_button.setDefault(True)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        enter_accepts(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.wizard_button.clicked.connect(self.open_wizard)
        outer.addWidget(buttons)
        QShortcut(QKeySequence("Ctrl+F"), self, self.open_wizard)
        QShortcut(QKeySequence("Alt+W"), self, self.next_weapon)
        QShortcut(QKeySequence("Alt+P"), self, self.next_reaction)
        QShortcut(QKeySequence("Alt+L"), self, self.next_brawl)
        self.target.textEdited.connect(self._target_typed)
        self.target.done.connect(self._target_done)
        self.distance.textEdited.connect(self._distance_typed)
        self.distance.done.connect(self.focus_next)
        self.dice_entry.face.connect(self._face)
        self.dice_entry.undo.connect(self._undo_face)
        self.dice_entry.roll.connect(self._roll)
        self.dice_entry.clear.connect(self._clear)
        self._summary: tuple[AttackDraft, ResultSummary] | None = None
        apply_style(self)
        me = self.ctx.fighter(attacker_id)
        self.setWindowTitle(f"Quick attack — {me.name}")
        self.attacker.setText(f"<b>{me.name}</b>")
        self.refresh()
        self.target.setFocus()
        self.target.selectAll()  # letters typed replace the first enemy's name
        guard_wheel(self)
        self.setMinimumWidth(720)
        fit_to_screen(self)

    def preset(self, target: BattleUnitId, *, use: Use | None = None) -> None:
        """Start on ``target``, paid by ``use`` (a Counterstrike from the Counter menu: a
        Close Combat Strike paid with a Counter, 5.2 Counters and Actions), ready for the
        first die: the attack, its dice and the Counter are then one record, one undo step."""
        d = aimed_at(self.draft, self.ctx, target)
        if use is Use.COUNTER:
            d = of_kind(d, self.ctx, AttackKind.STRIKE)
        if use is not None:
            d = replace(d, use=use)
        self._set_attack(d)
        self.show_target(self.ctx.fighter(target).name)
        self.focus_next()

    @functools.cached_property
    def target_names(self) -> list[tuple[BattleUnitId, str]]:
        """The units the attacker may aim at, enemies first, with their names: made when the
        first letter is typed (500 units' labels are not made for an attack that stays on the
        first enemy)."""
        return [(c.value, c.label) for c in target_options(self.ctx, self.draft) if c.allowed]

    # -- the draft -------------------------------------------------------------------------

    def set_draft(self, draft: AttackDraft) -> None:
        if draft != self.draft:
            self.draft = draft
            self.refresh()

    def _set_attack(self, draft: AttackDraft) -> None:
        """A change of weapon, target or range: the dice typed no longer fit."""
        self.set_draft(replace(draft, action_faces=(), damage_faces=(), bennies=()))

    def next_weapon(self) -> None:
        """The attacker's next weapon that can attack (round the list)."""
        keys = [c.value for c in weapon_options(self.ctx, self.draft) if c.allowed]
        if not keys:
            return
        i = keys.index(self.draft.item_key) + 1 if self.draft.item_key in keys else 0
        self._set_attack(with_weapon(self.draft, self.ctx, keys[i % len(keys)]))

    def next_reaction(self) -> None:
        """The target's next reaction the rules allow (none, Parry with..., Bail), round the
        list: declared before the Action Roll (5.2 Parrying), so the dice start again."""
        d = self.draft
        values = [c.value for c in reaction_options(d, self.ctx) if c.allowed]
        if not values:
            return
        current = (d.reaction, d.parry_item if d.reaction is Reaction.PARRY else None)
        i = values.index(current) + 1 if current in values else 0
        reaction, item = values[i % len(values)]
        self.set_draft(
            replace(
                d,
                reaction=reaction,
                parry_item=item,
                action_faces=(),
                damage_faces=(),
                bennies=(),
            )
        )
        self.focus_next()

    def next_brawl(self) -> None:
        """The next brawl the fight may join, or a fight of its own, round the list (5.2
        Counters and Actions; battle reading brawl)."""
        values = [c.value for c in brawl_options(self.draft, self.ctx)]
        if not values:
            return
        i = values.index(self.draft.brawl) + 1 if self.draft.brawl in values else 0
        self.set_draft(replace(self.draft, brawl=values[i % len(values)]))
        self.focus_next()

    def _target_typed(self, text: str) -> None:
        found = matches(text, self.target_names)
        names = dict(self.target_names)
        self.target_hint.show()
        self.target_hint.setText(
            "no unit by that name"
            if not found
            else "Enter: <b>"
            + names[found[0]]
            + "</b>"
            + (
                f" (also {', '.join(names[u].split(' (')[0] for u in found[1:3])})"
                if len(found) > 1
                else ""
            )
        )

    def _target_done(self) -> None:
        found = matches(self.target.text(), self.target_names)
        if not found:
            return
        if found[0] != self.draft.target_id:
            self._set_attack(aimed_at(self.draft, self.ctx, found[0]))
        self.focus_next()

    def _distance_typed(self, text: str) -> None:
        value, err = inches_or_none(text, "distance")
        set_problem(self.problem, err)
        self._set_attack(replace(self.draft, distance=value))

    def _judged(self) -> None:
        on = {key: box.isChecked() for key, box in self.judgements.items()}
        judged = judgement_values(self.draft, self.ctx)
        d = self.draft
        if on["disrupted"] != bool(judged.disrupted):
            d = replace(d, target_disrupted=on["disrupted"])
        if on["outnumbered"] != bool(judged.outnumbered):
            d = replace(d, outnumbered=on["outnumbered"])
        if on["engaged"] != bool(judged.engaged):
            d = replace(d, attacker_engaged=on["engaged"])
        self.set_draft(replace(d, damage_faces=()))

    def _stage(self) -> tuple[str, NeedDie | None]:
        action = resolve_action(self.draft, self.ctx)
        if action.need is not None or not action.complete:
            return "action", action.need
        return "damage", resolve_damage(self.draft, self.ctx, action).need

    def _face(self, face: int) -> None:
        step, _need = self._stage()
        d = self.draft
        if step == "action":
            self.set_draft(replace(d, action_faces=d.action_faces + (face,), damage_faces=()))
        else:
            self.set_draft(replace(d, damage_faces=d.damage_faces + (face,)))
        self.focus_next()

    def _benny(self, use: BennyUse) -> None:
        """An Over the Top Benny spent (4.2): its letter, as on the wizard's page."""
        pending = resolve_action(self.draft, self.ctx).pending
        if pending is not None:
            self.set_draft(replace(self.draft.with_benny(pending, use), damage_faces=()))
            self.focus_next()

    def _undo_face(self) -> None:
        d = self.draft
        if d.damage_faces:
            self.set_draft(replace(d, damage_faces=d.damage_faces[:-1]))
        elif d.action_faces:
            self.set_draft(replace(d, action_faces=d.action_faces[:-1]))
        self.focus_next()

    def _roll(self) -> None:
        for _ in range(200):
            step, need = self._stage()
            if need is None:
                break
            self._face(self.dice.roll(need.sides, need.why))

    def _clear(self) -> None:
        self.set_draft(replace(self.draft, action_faces=(), damage_faces=(), bennies=()))
        self.focus_next()

    def summary(self) -> ResultSummary:
        if self._summary is None or self._summary[0] != self.draft:
            self._summary = (self.draft, result_summary(self.draft, self.ctx))
        return self._summary[1]

    # -- showing ---------------------------------------------------------------------------

    def refresh(self) -> None:
        d, ctx = self.draft, self.ctx
        item = ctx.item(d.item_key)
        self.weapon.setText(
            f"{item.name if item is not None else 'bare hands'}: {d.kind.label}  (Alt+W: next)"
        )
        if d.target_id is not None and not self.target.hasFocus():
            self.show_target(ctx.fighter(d.target_id).name)
        chosen = (d.reaction, d.parry_item if d.reaction is Reaction.PARRY else None)
        words = next(
            (c.label for c in reaction_options(d, ctx) if c.value == chosen), str(d.reaction)
        )
        self.reaction.setText(f"{words}  (Alt+P: next)")
        brawls = brawl_options(d, ctx)
        self.brawl.setVisible(bool(brawls))
        self.brawl_label.setVisible(bool(brawls))
        if brawls:
            joined = next((c.label for c in brawls if c.value == d.brawl), brawls[0].label)
            self.brawl.setText(f"{joined}  (Alt+L: next)")
        ranged = not d.kind.close_combat
        self.distance.setVisible(ranged)
        self.distance_label.setVisible(ranged)
        preview = action_preview(d, ctx)
        first = preview.first
        rows = {r.judgement: r for r in (first.rows if first is not None else ()) if r.judgement}
        judged = judgement_values(d, ctx) if d.target_id is not None else None
        for key, words in JUDGEMENTS:
            box = self.judgements[key]
            row = rows.get(key)
            box.setVisible(row is not None)
            if row is not None and judged is not None:
                m = row.modifier
                box.setText(
                    f"{words} {m.value:+d} ({m.rule})" if m.value else f"{words} ({m.rule})"
                )
                box.blockSignals(True)
                box.setChecked(bool(getattr(judged, key)))
                box.blockSignals(False)
        if first is not None and first.odds is not None:
            needs = "no roll" if first.needed is None else f"{first.needed}+"
            self.odds.setText(
                f"Needs <b>{needs}</b> on d{first.action_die} · hit {percent(first.odds.hit)}"
                f" · destroy {percent(preview.kill)}"
            )
        else:
            self.odds.setText(preview.error or (first.needed_text if first is not None else ""))
        step, need = self._stage()
        stage = resolve_action(d, ctx)
        # Every die typed stays in sight until the record: the Action Roll's beside the damage's.
        dice = (
            stage.dice if step == "action" else (*stage.dice, *resolve_damage(d, ctx, stage).dice)
        )
        pending = stage.pending if step == "action" else None
        self.dice_entry.ask(
            need,
            dice,
            waiting=f"{ctx.rules.over_the_top}! How is the Benny spent?" if pending else "",
        )
        self.benny.setVisible(pending is not None)
        if pending is not None:
            self.benny.offer(
                f"{ctx.rules.over_the_top}: a Benny. How is it spent? (press its letter)",
                benny_options(d, ctx, pending, stage),
            )
        summary = self.summary()
        self.outcome.setText(summary.paragraph)
        self.outcome.setVisible(bool(summary.paragraph))
        why = None if need is not None or pending is not None else summary.problem
        if summary.needs_decision:
            why = "; ".join(summary.warnings) + " — open the full wizard (Ctrl+F) to decide"
        set_problem(self.problem, why)
        self.record_button.setEnabled(not summary.problem and not summary.needs_decision)
        QTimer.singleShot(0, self, self._grow)

    def show_target(self, name: str) -> None:
        """The chosen target's name in its box, wide enough for the whole name (the form grows
        to it, within the screen; beyond that, the name's beginning shows)."""
        self.target.setText(name)
        box = self.target
        margins = box.textMargins()
        room = (
            box.fontMetrics().horizontalAdvance(name)
            + margins.left()
            + margins.right()
            + 2 * box.style().pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth)
            + 8  # the text's own side padding inside a line edit
        )
        box.setMinimumWidth(min(room, usable_size(self).width() - 200))
        box.setCursorPosition(0)

    def _grow(self) -> None:
        grow_to_fit(self)

    def focus_next(self) -> None:
        """The focus to what is still to fill: the target, the range, the dice, Record."""
        d = self.draft
        if d.target_id is None:
            self.target.setFocus()
            self.target.selectAll()
        elif not d.kind.close_combat and d.distance is None:
            self.distance.setFocus()
        elif self.benny.isVisible():
            self.benny.setFocus()
        elif self._stage()[1] is not None:
            self.dice_entry.edit.setFocus()
        elif self.record_button.isEnabled():
            self.record_button.setFocus()

    # -- recording -------------------------------------------------------------------------

    def accept(self) -> None:
        """Record the attack (one transaction, one undo step), then close."""
        if self.focusWidget() in (self.target, self.distance):
            return  # their Enter moves on (StepEdit); never a half-typed attack
        summary = self.summary()
        why = record_attack(self, self.draft, summary, self.ctx)
        if why is not None:
            set_problem(self.problem, why)
            return
        self.recorded.emit(summary)
        super().accept()

    def open_wizard(self) -> None:
        """The full combat wizard with this attack carried over; the form closes."""
        from ui.wizard.wizard import combat_wizard

        wizard = combat_wizard(
            self.parentWidget(),
            self.services,
            self.bus,
            self.undo_stack,
            self.battle_id,
            self.draft.attacker_id,
            self.ctx,
        )
        wizard.dice = self.dice
        wizard.replace_draft(self.draft)
        self.wizard = wizard
        wizard.show()
        self.handed_over.emit(wizard)
        self.reject()


def open_quick_attack(
    parent: QWidget | None,
    services: CombatServices,
    bus: Bus,
    undo_stack: QUndoStack,
    battle_id: BattleId,
    attacker_id: BattleUnitId,
    ctx: CombatContext | None = None,
) -> QuickAttack:
    """Open the quick attack form for ``attacker_id`` (window-modal, not blocking; deleted
    when closed); ``ctx`` the battle as the caller has it."""
    form = QuickAttack(services, bus, undo_stack, battle_id, attacker_id, parent, ctx=ctx)
    form.setWindowModality(Qt.WindowModality.WindowModal)
    form.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    form.show()
    form.target.setFocus()
    form.target.selectAll()
    return form
