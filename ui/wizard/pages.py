"""The combat wizard's five pages: Attack, Range, Action Roll, Damage, Result.

Each page reads the wizard's draft (``wizard.draft``) and the battle (``wizard.ctx``), shows
the preview the domain computes from them (``brikdesk.domain.combat``: numbers, rule prose,
verdicts; the pages add no rules of their own), and hands every change back to the wizard as a
new draft (``wizard.change(step, dataclasses.replace(draft, ...))``), which refreshes the
page. Nothing here writes anything: Finish does, once (``CombatWizard.accept``).
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Literal, Protocol

from PySide6.QtCore import QRect, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractButton,
    QCheckBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from brikdesk.domain.attack import SizeClass, Target, inches_text, to_inches
from brikdesk.domain.battle import READINGS as BATTLE_READINGS
from brikdesk.domain.battle import AttackResolved, Use
from brikdesk.domain.combat import (
    ActionPreview,
    ActionStage,
    AttackDraft,
    AttackKind,
    Choice,
    CombatContext,
    DamagePreview,
    DamageStage,
    Joiner,
    ModifierRow,
    ObjectTarget,
    RangePreview,
    Reaction,
    ResultSummary,
    StrikerPreview,
    TargetChance,
    Tone,
    Verdict,
    action_preview,
    action_verdict,
    attack_problem,
    attacker_options,
    benny_options,
    best_use,
    blast_candidates,
    blast_section_rows,
    brawl_options,
    damage_preview,
    damage_verdict,
    default_draft,
    default_use,
    has_mom,
    joiner_options,
    judgement_values,
    kind_options,
    parry_preview,
    passing_by_possible,
    prose,
    range_preview,
    reaction_options,
    result_verdict,
    size_options,
    target_name,
    target_of,
    target_options,
    unit_facts,
    use_options,
    weapon_options,
)
from brikdesk.domain.ids import BattleUnitId
from brikdesk.domain.rolling import BennyUse
from brikdesk.errors import UserError
from ui import colours
from ui.screen import usable_size
from ui.settings import DiceMode
from ui.wheel import guard_wheel
from ui.widgets.combat_style import (
    BASE_PT,
    label,
    percent,
    set_colour,
    set_problem,
    set_text_style,
    show_readings,
)
from ui.widgets.dice import BennyChooser, DiceEntry
from ui.wizard.blast import BlastSections
from ui.wizard.first import FirstToActBox
from ui.wizard.widgets import (
    ChartSlot,
    ChoiceCombo,
    ModifierText,
    ModifierValue,
    OddsPanel,
    card,
    fix_size,
    lay_out_now,
    on_card,
)

OBJECT = "object"
#: A screen less tall than this (pixels free for a window) is a laptop's: the Action Roll
#: page squeezes its chart to show the modifiers and the dice together.
SHORT_SCREEN = 900
#: The number needed on the die, the figure the whole table looks for.
NEED_PT = 40


#: The wizard's steps whose changes drop the dice typed for later steps (see ``change``).
Step = Literal["attack", "range", "action", "reaction", "damage", "note"]
#: The steps that roll dice.
DiceStep = Literal["action", "damage"]


class Wizard(Protocol):
    """What the pages use of the combat wizard (``ui.wizard.wizard.CombatWizard``): its draft
    and battle, the steps that change the draft, the stages it resolves, and its window (the
    pages' parent)."""

    ctx: CombatContext
    draft: AttackDraft
    dice_mode: DiceMode

    def window(self) -> QWidget: ...

    def button(self, which: QWizard.WizardButton) -> QAbstractButton: ...

    def currentPage(self) -> QWizardPage: ...

    def change(self, step: Step, draft: AttackDraft) -> None: ...

    def replace_draft(self, draft: AttackDraft) -> None: ...

    def add_face(self, step: DiceStep, face: int) -> None: ...

    def drop_face(self, step: DiceStep) -> None: ...

    def clear_faces(self, step: DiceStep) -> None: ...

    def roll_virtual(self, step: DiceStep) -> None: ...

    def pick_benny(self, key: str, use: BennyUse) -> None: ...

    def action_stage(self) -> ActionStage: ...

    def damage_stage(self) -> DamageStage: ...

    def summary(self) -> ResultSummary: ...

    def accept(self) -> None: ...


def _make_action_chart(parent: QWidget) -> QWidget:
    from ui.wizard.charts import make_action_chart

    return make_action_chart(parent)


def _make_damage_chart(parent: QWidget) -> QWidget:
    from ui.wizard.charts import make_damage_chart

    return make_damage_chart(parent)


def inches_or_none(text: str, what: str) -> tuple[Fraction | None, str | None]:
    text = text.strip()
    if not text:
        return None, None
    try:
        return to_inches(text, what), None
    except UserError as exc:
        return None, str(exc)


def aimed_at(draft: AttackDraft, ctx: CombatContext, target: BattleUnitId) -> AttackDraft:
    """The attack at ``target``, its judgements of the last target dropped: the target's own
    Size, a reaction and a blast start afresh; it pays the way that suits this target."""
    d = replace(draft, target_id=target, target_object=None, use=None)
    return replace(
        d,
        size=None,
        sections_visible=3,
        visible_size=None,
        target_disrupted=None,
        reaction=Reaction.NONE,
        blast_ids=(),
        use=best_use(ctx, d),
    )


def of_kind(draft: AttackDraft, ctx: CombatContext, kind: AttackKind) -> AttackDraft:
    """The attack as a ``kind`` (a Strike, a Grab...), when its weapon allows it."""
    allowed = [c.value for c in kind_options(ctx, draft) if c.allowed]
    return replace(draft, kind=kind, reaction=Reaction.NONE) if kind in allowed else draft


class _Page(QWizardPage):
    """A page with a scrollable body; ``build()`` makes its content the first time the page is
    shown (opening the wizard makes only its frame: the Attack page is all the organizer sees
    then), ``refresh()`` shows the draft."""

    def __init__(self, wizard: Wizard, title: str, subtitle: str) -> None:
        super().__init__(wizard.window())
        self.w = wizard
        colours.follow_theme(
            self,
            lambda: self.setTitle(
                f"<span style='font-size:{BASE_PT + 8}pt; "
                f"color:{colours.ACCENT.hex()}'>{title}</span>"
            ),
        )
        # On a laptop's screen the page's room goes to its content, not to the subtitle (a
        # line saying what the page is for).
        if usable_size(wizard.window()).height() >= SHORT_SCREEN:
            self.setSubTitle(subtitle)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # The vertical bar always there: a page that grows past the window's height (the
        # last die's verdict) keeps its width, instead of every text wrapping again and the
        # chart being drawn anew under the organizer's eyes.
        scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        body = QWidget(scroll)
        body.setAutoFillBackground(True)
        self.body = QVBoxLayout(body)
        self.body.setContentsMargins(4, 4, 4, 4)
        self.body.setSpacing(10)
        scroll.setWidget(body)
        outer.addWidget(scroll)
        self.scroller = scroll
        self._told_complete: bool | None = None
        #: Between initializePage and the wizard's open_focus: the page opens at its top.
        self._opening = False
        self._acted = False  # the organizer acted on the page while it opened
        self._stick_to_end = False
        self._unstick = QTimer(self)
        self._unstick.setSingleShot(True)
        self._unstick.setInterval(400)
        self._unstick.timeout.connect(self._release_end)
        scroll.verticalScrollBar().rangeChanged.connect(self._range_changed)
        self._built = False

    def build(self) -> None:  # pragma: no cover - every page overrides it
        raise NotImplementedError

    def ensure_built(self) -> None:
        """Make the page's content, once."""
        if not self._built:
            self._built = True
            self.build()
            # Styled before the first refresh measures its texts (the wizard's large fonts):
            # the page itself was styled when the wizard was shown, its new content was not.
            for child in self.findChildren(QWidget):
                child.ensurePolished()
            guard_wheel(self.w.window())  # its boxes too: no value changes under a passing wheel

    def refresh(self) -> None:  # pragma: no cover - every page overrides it
        raise NotImplementedError

    def complete_changed(self) -> None:
        """Enable Next (or Finish) when the page's completeness changes, and only then.

        Not through ``completeChanged``: QWizard answers it by hiding and showing all its
        contents around the buttons' update (against a flicker), which repaints the whole
        window, the last die of a step included (5-8 ms). What it updates is set here: Next
        enabled and the default button while the page is complete, else Finish on the last
        page. QWizard reads ``isComplete`` itself when it shows a page."""
        complete = self.isComplete()
        if complete == self._told_complete:
            return
        self._told_complete = complete
        if self.w.currentPage() is not self:
            return
        wiz = self.w
        finish = wiz.button(QWizard.WizardButton.FinishButton)
        if self.isFinalPage():
            finish.setEnabled(complete)
            return
        following = wiz.button(QWizard.WizardButton.NextButton)
        following.setEnabled(complete)
        if isinstance(following, QPushButton) and isinstance(finish, QPushButton):
            following.setDefault(complete)
            finish.setDefault(not complete)

    def forget_completeness(self, shown: bool = False) -> None:
        """The wizard reads the shown page's completeness itself when it shows the page: it
        knows it then; the other pages tell it afresh when they are shown again."""
        self._told_complete = self.isComplete() if shown else None

    def initializePage(self) -> None:
        self.ensure_built()
        self.forget_completeness()
        self.refresh()
        # QWizard gives the focus to the page's first child after this: the wizard takes it
        # back when the page is shown (open_focus, before the page's first paint, so that a
        # key typed at once reaches the die box).
        self._acted = False
        self._opening = True
        self.scroll_to_top()

    def scroll_to_top(self) -> None:
        """A page opens at its top: the modifiers first, never scrolled sideways."""
        self._stick_to_end = False
        self.scroller.verticalScrollBar().setValue(0)
        self.scroller.horizontalScrollBar().setValue(0)

    def open_focus(self) -> None:
        """Give the opening page its focus (once): the dice, or Next."""
        if not self._opening:
            return
        if not self._acted:
            self.initial_focus()
        self._opening = False
        self.scroll_to_top()

    def acted(self) -> None:
        """The organizer did something here: the page's opening focus must not steal it."""
        self._acted = True

    def initial_focus(self) -> None:
        self.focus_next_button()

    def show_widget(self, widget: QWidget) -> None:
        """Scroll so that ``widget`` is in view once the layout has settled (the dice follow
        the focus)."""
        if self._opening:
            return  # the page opens at its top (it is sized to show the dice there too)
        self._visible_target = widget
        # Laid out and scrolled now, before the paint: scrolling after it would paint the
        # page twice.
        lay_out_now()
        self._scroll_to_target()

    def _range_changed(self, _low: int, high: int) -> None:
        if self._stick_to_end:
            self.scroller.verticalScrollBar().setValue(high)

    def _release_end(self) -> None:
        self._stick_to_end = False

    def _scroll_to_target(self) -> None:
        widget = getattr(self, "_visible_target", None)
        if widget is None or not widget.isVisible():
            return
        if widget in (
            getattr(self, "outcome", None),
            getattr(self, "dice", None),
            getattr(self, "benny", None),
        ):
            # The dice card is last: show all of it, also once the layout has grown.
            bar = self.scroller.verticalScrollBar()
            bar.setValue(bar.maximum())
            self._stick_to_end = True
            self._unstick.start()
        else:
            self.scroller.ensureWidgetVisible(widget, 20, 20)

    def focus_next_button(self) -> None:
        wiz = self.w
        which = (
            QWizard.WizardButton.FinishButton
            if self.isFinalPage()
            else QWizard.WizardButton.NextButton
        )
        button = wiz.button(which)
        if button.isEnabled():
            button.setFocus()


def _form_row(
    grid: QGridLayout, row: int, text: str, widget: QWidget, extra: QWidget | None = None
) -> QLabel:
    lab = QLabel(text)
    lab.setBuddy(widget)
    # The label fills its cell and aligns its text itself: a cell aligned on the label's
    # size hint can clip it when the hint was taken before the wizard's large font applied.
    lab.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    grid.addWidget(lab, row, 0)
    grid.addWidget(widget, row, 1)
    if extra is not None:
        grid.addWidget(extra, row, 2)
    return lab


class DicePage(_Page):
    """A page that ends with the dice card of one stage of the attack: the faces typed or
    rolled, the verdict, the outcome and the problem. ``STAGE`` is the wizard's name of the
    stage ("action", "damage"), ``_stage()`` its resolution now."""

    STAGE: DiceStep = "action"

    def _stage(self) -> ActionStage | DamageStage:  # pragma: no cover - overridden
        raise NotImplementedError

    def _add_dice_card(self, extra: Callable[[QVBoxLayout], None] | None = None) -> None:
        """Add the dice card at the end of the page; ``extra(layout)`` adds the page's own
        rows between the outcome and the problem. Object names start with ``STAGE``."""
        self.dice_box, dl = card(self)
        self.dice = DiceEntry(self)
        if usable_size(self.w.window()).height() >= SHORT_SCREEN:
            dl.addWidget(_dice_heading())
        else:  # on a laptop the room goes to the die box (in view as the page opens)
            show_readings(self.dice.prompt, "Dice")
        self.dice.setObjectName(f"{self.STAGE}Dice")
        dl.addWidget(self.dice)
        self.verdict = label("", "big")
        self.verdict.setObjectName(f"{self.STAGE}Verdict")
        dl.addWidget(self.verdict)
        self.outcome = label("", "event")
        self.outcome.setObjectName(f"{self.STAGE}Outcome")
        dl.addWidget(self.outcome)
        if extra is not None:
            extra(dl)
        self.problem = label("", "problem")
        self.problem.setObjectName(f"{self.STAGE}Problem")
        dl.addWidget(self.problem)
        self.body.addWidget(self.dice_box)
        self.body.addStretch(1)
        self.dice.face.connect(self._face)
        self.dice.undo.connect(self._undo_face)
        self.dice.roll.connect(self._roll)
        self.dice.clear.connect(self._clear)

    def _show_problem(self, stage: ActionStage | DamageStage) -> None:
        problem = stage.error
        if stage.extra_faces:
            problem = (
                f"{stage.extra_faces} face(s) typed beyond the dice the rules need: "
                "Backspace takes the last one back"
            )
        set_problem(self.problem, problem)

    def isComplete(self) -> bool:
        return self._stage().complete

    def initial_focus(self) -> None:
        self.focus_input()

    def focus_input(self) -> None:
        """The focus to the dice while the stage needs one, else to Next (or Finish)."""
        if self._stage().need is not None:
            if self.w.dice_mode is DiceMode.VIRTUAL:
                self.dice.roll_button.setFocus()
            else:
                self.dice.edit.setFocus()
            self.show_widget(self.dice)
        else:
            self.focus_next_button()
            self.show_widget(self.outcome)

    def _face(self, face: int) -> None:
        self.w.add_face(self.STAGE, face)
        self.focus_input()

    def _undo_face(self) -> None:
        self.w.drop_face(self.STAGE)
        self.focus_input()

    def take_back(self) -> None:
        """Backspace outside the box: the last die typed here is asked again."""
        self.acted()
        self._undo_face()

    def _roll(self) -> None:
        self.w.roll_virtual(self.STAGE)
        self.focus_input()

    def _clear(self) -> None:
        self.w.clear_faces(self.STAGE)
        self.focus_input()


# --------------------------------------------------------------------------------------------
# 1. Attack


class AttackPage(_Page):
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
        _form_row(grid, 0, "&Attacker", self.attacker)
        _form_row(grid, 1, "&Weapon or item", self.weapon, self.improvised)
        _form_row(grid, 2, "&Kind of attack", self.kind)
        _form_row(grid, 3, "&Target", self.target)
        self.brawl = ChoiceCombo(self)
        self.brawl.setObjectName("brawl")
        self.brawl.setToolTip(BATTLE_READINGS["brawl"])
        self.brawl_label = _form_row(grid, 4, "Braw&l", self.brawl)
        _form_row(grid, 5, "&Pays with", self.use)
        self.passing_by = QCheckBox(_mnemonic(prose.PASSING_BY, "passing"), self)
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
        _form_row(obj_grid, 0, "Object's &name", self.object_name)
        _form_row(obj_grid, 1, "Its A&rmor", self.object_armor)
        _form_row(obj_grid, 2, "Its &Size", self.object_size, self.object_inches)
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


# --------------------------------------------------------------------------------------------
# 2. Range


class RangePage(_Page):
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
        _form_row(grid, 0, "&Distance to the target", self.distance)
        _form_row(grid, 1, "&Height above the target", self.altitude)
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
        self.mom = QCheckBox(_mnemonic(prose.HAS_MOM, "4"), self)
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
            self.distance.setText("" if d.distance is None else _num(d.distance))
        if not self.altitude.hasFocus():
            self.altitude.setText("" if not d.altitude else _num(d.altitude))
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
                _form_row(
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
                field.setText("" if j.distance is None else _num(j.distance))

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


#: The readings the Damage page's lines add for some kinds of attack.
_KIND_READINGS = {
    AttackKind.COLLISION: ("5.4 Collisions (the wizard)", "5.4 Collisions", "KnockBack"),
    AttackKind.SHOVE: ("5.2 Shoving", "KnockBack"),
    AttackKind.THROWN: ("5.1 Explosions", "3.2 Explosives"),
}


def _mnemonic(text: str, key: str) -> str:
    """``text`` with a keyboard mnemonic (``&``) before the first ``key`` in it."""
    return text.replace(key, "&" + key, 1)


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


# --------------------------------------------------------------------------------------------
# 3. Action Roll


class ActionPage(DicePage):
    STAGE: DiceStep = "action"
    NEED_TEXT_SLACK = 20  # pixels under the sentence below the number needed

    def __init__(self, wizard: Wizard) -> None:
        super().__init__(
            wizard,
            "3 · Action Roll",
            "Every modifier with its rule; tick the "
            "judgements; then roll or type the faces the dice showed.",
        )

    def build(self) -> None:
        top = QHBoxLayout()
        top.setSpacing(12)
        self.mods_box, ml = card(self)
        ml.addWidget(label("Modifiers to the Action Roll", "section"))
        self.mods_error = label("", "problem")
        self.mods_error.hide()
        ml.addWidget(self.mods_error)
        self.mods = QGridLayout()
        self.mods.setHorizontalSpacing(14)
        self.mods.setColumnStretch(1, 1)  # once: setting it lays the list out again
        ml.addLayout(self.mods)
        self.visible_problem = label("", "problem")
        self.visible_problem.setObjectName("visibleProblem")
        self.visible_problem.hide()
        ml.addWidget(self.visible_problem)
        self.row_widgets: list[tuple[ModifierValue, ModifierText]] = []
        self._order: dict[str, int] = {}
        self.placed: dict[QWidget, tuple[int, int]] = {}
        ml.addStretch(1)
        top.addWidget(self.mods_box, 1)
        right_column = QWidget(self)
        right_width = 580
        right_column.setFixedWidth(right_width)
        right = QVBoxLayout(right_column)
        right.setContentsMargins(0, 0, 0, 0)
        self.need_box, nl = card(self)
        self.need_head = label("Needs on the die", "note")
        self.need = label("-", None, wrap=False, selectable=False)
        self.need.setObjectName("needed")
        set_text_style(self.need, NEED_PT, 800, colours.ACCENT)
        fix_size(self.need, "no roll", NEED_PT)
        self.need_text = label("", "event", selectable=False)
        self.need_text.setObjectName("neededText")
        # A fixed size in this column (its width less the card's margins and 1px border): its
        # size never depends on word wrapping, and a new text repaints the label alone. One
        # line, the usual sentence; a longer one makes it taller (_show_need_text).
        self.need_text.setFixedSize(
            right_width - 2 * 12 - 2,
            self.need_text.fontMetrics().lineSpacing() + self.NEED_TEXT_SLACK,
        )
        # A Combined Attack's other attackers, a line each beside the number needed (the
        # room there is empty): the page is no taller for up to three attackers.
        self.joiner_text = label("", "event")
        self.joiner_text.hide()
        on_card(self.need_head, self.need, self.need_text, self.joiner_text)
        nl.addWidget(self.need_head)
        need_row = QHBoxLayout()
        need_row.setSpacing(10)
        need_row.addWidget(self.need)
        need_row.addWidget(self.joiner_text, 1, Qt.AlignmentFlag.AlignVCenter)
        nl.addLayout(need_row)
        nl.addWidget(self.need_text)
        right.addWidget(self.need_box)
        self.odds = OddsPanel(self)
        self.odds.name_bonus(self.w.ctx.rules.over_the_top)
        right.addWidget(self.odds)
        # On a laptop's screen the page shows the modifiers and the dice at once: a lower
        # chart, and the chart's explanation as its tooltip instead of a paragraph.
        room = usable_size(self.w.window()).height()
        short = room < SHORT_SCREEN
        chart_height = 185 if not short else 130 if room >= 700 else 115  # 1366x768; 1280x720
        self.chart = ChartSlot(_make_action_chart, self, height=chart_height)
        right.addWidget(self.chart)
        right.addStretch(1)
        top.addWidget(right_column)
        self.body.addLayout(top)
        self._policy_text = prose.chart_policy(self.w.ctx.rules)
        self.policy = label(self._policy_text, "note")
        self.policy.setObjectName("bennyPolicy")
        self.policy.setVisible(not short)
        self.body.addWidget(self.policy)

        # judgement widgets, made once and reused across refreshes
        self.judge_size = ChoiceCombo(self)
        self.judge_size.setObjectName("judgeSize")
        self.judge_size.setMinimumContentsLength(13)
        self.visible = QLineEdit(self)
        self.visible.setObjectName("visibleInches")
        self.visible.setPlaceholderText('visible "')
        self.visible.setMaximumWidth(130)
        self.disrupted = QCheckBox("&Disrupted", self)
        self.disrupted.setObjectName("judgeDisrupted")
        self.outnumbered = QCheckBox("O&utnumbered", self)
        self.outnumbered.setObjectName("judgeOutnumbered")
        self.engaged = QCheckBox("Attacker is &engaged", self)
        self.engaged.setObjectName("judgeEngaged")
        for w in (self.judge_size, self.visible, self.disrupted, self.outnumbered, self.engaged):
            w.setParent(self.mods_box)
            w.hide()
        on_card(self.judge_size, self.disrupted, self.outnumbered, self.engaged)

        self.react_box, rl = card(self)
        row = QHBoxLayout()
        react_label = label("The target's &reaction", "section", wrap=False)
        row.addWidget(react_label)
        self.reaction = ChoiceCombo(self)
        self.reaction.setObjectName("reaction")
        react_label.setBuddy(self.reaction)
        row.addWidget(self.reaction, 1)
        rl.addLayout(row)
        self.reaction_text = label("", "event")
        self.reaction_text.setObjectName("reactionText")
        rl.addWidget(self.reaction_text)
        self.bail_clears = QCheckBox(
            "The dive takes him out of the attack (the attack is avoided)", self
        )
        self.bail_clears.setObjectName("bailClears")
        rl.addWidget(self.bail_clears)
        self.body.addWidget(self.react_box)

        self._add_dice_card(self._benny_rows)

        self.judge_size.chosen.connect(self._size)
        self.visible.textEdited.connect(self._visible)
        self.disrupted.toggled.connect(self._disrupted)
        self.outnumbered.toggled.connect(self._outnumbered)
        self.engaged.toggled.connect(self._engaged)
        self.reaction.chosen.connect(self._reaction)
        self.bail_clears.toggled.connect(self._bail_clears)
        self.benny.picked.connect(self._benny)
        self.embellishment.textEdited.connect(self._embellishment)

    def _benny_rows(self, dl: QVBoxLayout) -> None:
        """The dice card's Benny choice and embellishment, under the outcome."""
        self.benny = BennyChooser(self)
        show_readings(self.benny, "4.2 Over the Top")
        self.benny.setObjectName("bennyChooser")
        self.benny.hide()
        dl.addWidget(self.benny)
        self.embellish_row = QWidget(self)
        er = QHBoxLayout(self.embellish_row)
        er.setContentsMargins(0, 0, 0, 0)
        embellish_label = QLabel("The embellishment the players agree on:", self)
        self.embellishment = QLineEdit(self)
        self.embellishment.setObjectName("embellishment")
        self.embellishment.setPlaceholderText("e.g. the arrow pins his hat to the door")
        embellish_label.setBuddy(self.embellishment)
        er.addWidget(embellish_label)
        er.addWidget(self.embellishment, 1)
        self.embellish_row.hide()
        dl.addWidget(self.embellish_row)

    # -- showing ---------------------------------------------------------------------------

    def _stage(self) -> ActionStage:
        return self.w.action_stage()

    def initializePage(self) -> None:
        # A new attack: its modifiers in the domain's order, each row the height of its text;
        # then the rows stay in their places at their heights, so that a judgement moves nothing.
        self.ensure_built()
        self._order.clear()
        super().initializePage()
        for _value, what in self.row_widgets:
            what.forget()

    def _steady(self, rows: Sequence[ModifierRow]) -> list[ModifierRow]:
        """``rows`` in the order their modifiers first appeared since the page was opened: a
        judgement that gives a modifier (or takes it away) leaves its row, and the check box
        the organizer just clicked, where they were. A modifier is known by its judgement, or
        by its rule section (and how many rows before it cite that section)."""
        keys = []
        cited: Counter[str] = Counter()
        for r in rows:
            rule = r.modifier.rule
            keys.append(r.judgement or f"{rule}#{cited[rule]}")
            cited[rule] += 1
        for key in keys:
            self._order.setdefault(key, len(self._order))
        return [
            r for _key, r in sorted(zip(keys, rows, strict=True), key=lambda kr: self._order[kr[0]])
        ]

    def refresh(self) -> None:
        d, ctx = self.w.draft, self.w.ctx
        preview = action_preview(d, ctx)
        self._show_rows(preview)
        first = preview.first
        if first is not None:
            self.need.setText(_needed_figure(first))
            self.need_head.setText(
                f"{first.name}: {first.weapon}, Use "
                f"{first.use if first.use is not None else '-'}, "
                f"Action die d{first.action_die}"
            )
            self._show_need_text(first.needed_text)
            policy = (
                f"{preview.missed_radius_text[0].upper()}{preview.missed_radius_text[1:]}. "
                if preview.missed_radius_text
                else ""
            ) + self._policy_text
            if policy != self.policy.text():
                self.policy.setText(policy)
                self.chart.setToolTip(policy)
                self.odds.setToolTip(policy)
            odds = first.odds
            values: dict[str, Fraction | float | None] = {"kill": preview.kill}
            if odds is not None:
                values.update(
                    critical_failure=odds.critical_failure,
                    over_the_top=odds.over_the_top,
                    hit=odds.hit,
                )
            elif first.automatic is not None:
                values.update(critical_failure=0, over_the_top=0, hit=1)
            self.odds.show_odds(values)
            if odds is not None and odds.action_totals:
                from ui.wizard import charts

                totals = [(t, float(p)) for t, p in odds.action_totals]
                bars = charts.action_bars(totals, first.action_mod, first.use)
                ott = charts.over_the_top_faces(first.action_die, odds.over_the_top > 0)
                need = first.needed
                self.chart.show()
                self.chart.draw(
                    "show_bars",
                    bars,
                    need - 0.5 if need is not None else None,
                    f"needs {need}",
                    ott,
                )
            else:
                self.chart.hide()
        else:
            self.need.setText("-")
            self._show_need_text("")
            self.odds.show_odds({})
        others = preview.strikers[1:]
        text, tip = _others_text(preview.strikers)
        if text != self.joiner_text.text():
            self.joiner_text.setText(text)
            self.joiner_text.setToolTip(tip)
        self.joiner_text.setVisible(bool(others))
        together = bool(others) and preview.kill is not None
        self.odds.name_kill(
            ("Both destroy" if len(others) == 1 else "All destroy") if together else "Destroy",
            prose.together_destroy(target_name(self.w.draft, self.w.ctx), percent(preview.kill))
            if together
            else "",
        )
        self._show_reaction()
        self._show_stage()
        self.complete_changed()
        lay_out_now()  # one paint of the final geometry

    def _show_need_text(self, text: str) -> None:
        """The sentence under the number needed. Its box holds its height (a new sentence
        repaints it alone) and grows when a sentence needs more lines (an Automatic Hit
        explains itself at length): no sentence is cut."""
        lab = self.need_text
        if text == lab.text():
            return
        lab.setText(text)
        lines = (
            lab.fontMetrics()
            .boundingRect(
                QRect(0, 0, lab.contentsRect().width(), 100_000), Qt.TextFlag.TextWordWrap, text
            )
            .height()
        )
        height = lines + self.NEED_TEXT_SLACK
        if height > lab.height():
            lab.setFixedHeight(height)

    def _row(self, i: int) -> tuple[ModifierValue, ModifierText]:
        """The value and text of row ``i`` of the modifier list (made once, reused)."""
        while len(self.row_widgets) <= i:
            n = len(self.row_widgets)
            value = ModifierValue(self.mods_box)
            what = ModifierText(self.mods_box)
            what.setObjectName("modifierRow")
            on_card(what)
            self.mods.addWidget(value, n, 0, Qt.AlignmentFlag.AlignRight)
            self.mods.addWidget(what, n, 1)
            self.row_widgets.append((value, what))
        return self.row_widgets[i]

    def _place(self, widget: QWidget, row: int, col: int) -> None:
        if self.placed.get(widget) != (row, col):
            self.mods.removeWidget(widget)
            self.mods.addWidget(widget, row, col)
            self.placed[widget] = (row, col)
        widget.show()

    def _show_rows(self, preview: ActionPreview) -> None:
        first = preview.first
        set_problem(self.mods_error, preview.error)
        rows = [] if preview.error or first is None else self._steady(first.rows)
        used: set[QWidget] = set()
        d, ctx = self.w.draft, self.w.ctx
        target = target_of(d, ctx) if rows else None
        for i, r in enumerate(rows):
            m = r.modifier
            value, what = self._row(i)
            value.show_value(
                f"{m.value:+d}" if m.value else "0",
                colours.GOOD if m.value > 0 else colours.ERROR if m.value < 0 else colours.NOTE,
            )
            read = show_readings(what, m.rule)
            what.set_texts(m.reason, m.rule + (" · BrikDesk's reading (hover)" if read else ""))
            value.show()
            what.show()
            widget = self._judgement(r.judgement, target) if target is not None else None
            if widget is not None:
                self._place(widget, i, 2)
                used.add(widget)
                if r.judgement == "size" and target is not None and target.size is SizeClass.LARGE:
                    self._place(self.visible, i, 3)
                    used.add(self.visible)
        if rows and first is not None:
            value, what = self._row(len(rows))
            value.show_value(
                f"{first.action_mod:+d}" if first.action_mod else "0", None, total=True
            )
            what.set_texts("all Action Roll modifiers together")
            value.show()
            what.show()
        for value, what in self.row_widgets[len(rows) + (1 if rows else 0) :]:
            value.hide()
            what.hide()
        for widget in (
            self.judge_size,
            self.visible,
            self.disrupted,
            self.outnumbered,
            self.engaged,
        ):
            if widget not in used:
                widget.hide()
        if self.visible not in used:
            self.visible_problem.hide()

    def _judgement(self, key: str | None, target: Target) -> QWidget | None:
        if key == "size":
            current = (target.size, target.sections_visible if target.is_minifig else 3)
            self.judge_size.set_choices(size_options(target), current)
            if not self.visible.hasFocus():
                self.visible.setText(_num(target.visible_size) if target.visible_size else "")
            return self.judge_size
        box = {
            "disrupted": self.disrupted,
            "outnumbered": self.outnumbered,
            "engaged": self.engaged,
        }.get(key or "")
        if box is None:
            return None
        judged = judgement_values(self.w.draft, self.w.ctx)
        value = {
            "disrupted": judged.disrupted,
            "outnumbered": judged.outnumbered,
            "engaged": judged.engaged,
        }[key or ""]
        box.blockSignals(True)
        box.setChecked(bool(value))
        box.blockSignals(False)
        return box

    def _show_reaction(self) -> None:
        d, ctx = self.w.draft, self.w.ctx
        options = reaction_options(d, ctx)
        self.reaction.set_choices(
            options, (d.reaction, d.parry_item if d.reaction is Reaction.PARRY else None)
        )
        self.react_box.setVisible(True)
        text = ""
        if d.reaction is Reaction.PARRY:
            words, chance = parry_preview(d, ctx)
            text = words + (f"; succeeds {percent(chance)}" if chance is not None else "")
            if d.kind.incoming.is_damage:
                text += "<br>" + prose.SHIELD_PARRY_DEFLECTS
            else:
                text += "<br>" + prose.parry_cancels(d.kind.label)
        elif d.reaction is Reaction.BAIL and d.target_id is not None:
            f = ctx.fighter(d.target_id)
            text = prose.bail_note(f.name, f.action_die, ctx.rules)
        self.reaction_text.setText(text)
        self.reaction_text.setVisible(bool(text))
        show_readings(
            self.reaction_text,
            *{Reaction.PARRY: ("5.2 Parrying",), Reaction.BAIL: ("4.3 Bailing",)}.get(
                d.reaction, ()
            ),
        )
        self.bail_clears.setVisible(d.reaction is Reaction.BAIL)
        self.bail_clears.blockSignals(True)
        self.bail_clears.setChecked(d.bail_clears)
        self.bail_clears.blockSignals(False)

    def _show_stage(self) -> None:
        stage = self.w.action_stage()
        self.dice.ask(
            stage.need,
            stage.dice,
            waiting="How is the Benny spent? Choose below." if stage.pending is not None else "",
        )
        lines = list(stage.messages())
        first = stage.first
        if first is not None and first.automatic is not None:
            lines.insert(0, f"<b>{first.automatic.describe()}</b>")
        self.outcome.setText("<br>".join(lines))
        self.outcome.setVisible(bool(lines))
        _show_verdict(self.verdict, action_verdict(stage))
        if stage.pending is not None:
            who = {"bail": "the Bail", "parry": "the Parry"}.get(stage.pending, "the attack")
            self.benny.offer(
                f"{self.w.ctx.rules.over_the_top} on {who}: a natural 6 or more "
                "earns a Benny. How "
                "is it spent? (press its letter)",
                benny_options(self.w.draft, self.w.ctx, stage.pending, stage),
                "The first choice is the one the odds above assume."
                if stage.pending.startswith("attack")
                else "",
            )
            self.benny.show()
        else:
            self.benny.hide()
        d = self.w.draft
        embellished = any(
            use is BennyUse.EMBELLISH and key.startswith("attack") for key, use in d.bennies
        )
        self.embellish_row.setVisible(embellished)
        if not self.embellishment.hasFocus():
            self.embellishment.setText(d.embellishment)
        self._show_problem(stage)

    def focus_input(self) -> None:
        if self.w.action_stage().pending is not None:
            self.benny.setFocus()
            self.show_widget(self.benny)
        else:
            super().focus_input()

    # -- changes ---------------------------------------------------------------------------

    def _size(self, value: tuple[SizeClass, int]) -> None:
        size, n = value
        self.w.change("action", replace(self.w.draft, size=size, sections_visible=n))

    def _visible(self, text: str) -> None:
        """The visible Size of a large target: a bad entry is explained under the modifiers
        and leaves the draft as it was (it never silently becomes 0)."""
        value, err = inches_or_none(text, "visible Size")
        set_problem(self.visible_problem, err)
        if err is None:
            self.w.change("action", replace(self.w.draft, visible_size=value or Fraction(0)))

    def _disrupted(self, on: bool) -> None:
        self.w.change("action", replace(self.w.draft, target_disrupted=on))

    def _outnumbered(self, on: bool) -> None:
        self.w.change("action", replace(self.w.draft, outnumbered=on))

    def _engaged(self, on: bool) -> None:
        self.w.change("action", replace(self.w.draft, attacker_engaged=on))

    def _reaction(self, value: tuple[Reaction, str | None]) -> None:
        reaction, item = value
        self.w.change("reaction", replace(self.w.draft, reaction=reaction, parry_item=item))

    def _bail_clears(self, on: bool) -> None:
        self.w.change("action", replace(self.w.draft, bail_clears=on))

    def _embellishment(self, text: str) -> None:
        self.w.change("action", replace(self.w.draft, embellishment=text))

    def _benny(self, use: BennyUse) -> None:
        stage = self.w.action_stage()
        if stage.pending is not None:
            key = stage.pending
            self.w.pick_benny(key, use)
            if (
                use is BennyUse.EMBELLISH
                and key.startswith("attack")
                and self.w.action_stage().need is None
            ):
                self.embellishment.setFocus()
                self.embellishment.selectAll()
            else:
                self.focus_input()


def _others_text(strikers: Sequence[StrikerPreview]) -> tuple[str, str]:
    """A Combined Attack's other attackers (those after the first), a line each beside the
    first one's number needed ("Little John: 4+, hit 50.0%"; "on the d10" when its die is not
    the first one's), and the tooltip with their weapons and whole sentences; nothing for one
    attacker. Short, and the Destroy figure named as the attackers' together ("Both destroy", 5.1) instead of a line of its own: the Action Roll
    page of three attackers opens with its die box in view at 1280x720."""
    if len(strikers) < 2:
        return "", ""
    first, *others = strikers
    lines = [
        f"{s.name}: "
        + (_needed_short(s) if s.action_die != first.action_die else _needed_figure(s))
        + (f", hit {percent(s.odds.hit)}" if s.odds is not None else "")
        for s in others
    ]
    tip = "<br>".join(f"{s.name} ({s.weapon}): needs {s.needed_text}" for s in others)
    return "<br>".join(lines), tip


def _needed_figure(s: StrikerPreview) -> str:
    """The number an attacker needs on its Action die: "2+" ("12" beyond the die: a bonus die
    must add to it), or "no roll"."""
    if s.needed is None:
        return "no roll"
    return f"{s.needed}+" if s.needed <= s.action_die else f"{s.needed}"


def _needed_short(s: StrikerPreview) -> str:
    """What an attacker needs, as the number needed shows it: "2+ on the d6"."""
    figure = _needed_figure(s)
    return figure if s.needed is None else f"{figure} on the d{s.action_die}"


def _targets_text(targets: Sequence[TargetChance]) -> str:
    """Every target of a blast with its Armor and its own chance to be destroyed."""
    if not targets:
        return ""
    rows = [
        f"• <b>{t.name}</b>: Armor {t.armor}{t.note} — destroyed <b>{percent(t.kill)}</b>"
        for t in targets
    ]
    return "Each target in the blast (one Damage roll):<br>" + "<br>".join(rows)


def _dice_heading() -> QLabel:
    heading = label("Roll: virtual dice, or type the faces the dice showed", "section")
    show_readings(heading, "Dice")
    return heading


#: The colour of each kind of verdict.
_TONES: dict[Tone, colours.Named | None] = {
    Tone.NONE: None,
    Tone.HIT: colours.GOOD,
    Tone.MISS: colours.NOTE,
    Tone.CRITICAL: colours.CRITICAL,
    Tone.DESTROYED: colours.ERROR,
    Tone.DAMAGE: colours.ACCENT,
    Tone.MOVED: colours.MOVED,
}


def _show_verdict(lab: QLabel, verdict: Verdict) -> None:
    lab.setVisible(bool(verdict.text))
    if verdict.text:
        set_colour(lab, _TONES[verdict.tone])
        lab.setText(verdict.text)


# --------------------------------------------------------------------------------------------
# 4. Damage


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
        self.mom = QCheckBox(_mnemonic(prose.SPEND_MOM, "MOM"), self)
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
        self.chart = ChartSlot(_make_damage_chart, self, height=200)
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
        self.mom.setText(_mnemonic(prose.SPEND_MOM_SHOVE if shove_mom else prose.SPEND_MOM, "MOM"))
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
            self.obstacle.setText("" if d.obstacle is None else _num(d.obstacle))
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
            self.missed_distance.setText("" if dist is None else _num(dist))

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
        _show_verdict(self.verdict, damage_verdict(stage))
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


# --------------------------------------------------------------------------------------------
# 5. Result


class ResultPage(_Page):
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
        _show_verdict(self.verdict, Verdict() if s.problem else result_verdict(action, damage))
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
