"""The combat wizard: a QWizard that walks the organizer through one attack.

It edits a draft and commits once ("Wizards edit a draft and commit once",
docs/conventions.md): the pages change
``CombatWizard.draft`` (a frozen ``AttackDraft``) through :meth:`CombatWizard.change`, handing
it the new draft made with ``dataclasses.replace`` (a type checker checks its fields), and
show what the domain computes from it; Back changes nothing; Cancel leaves no trace; Finish
records every event of the attack with ``services.tracker.record`` in one transaction, pushed
on the application's undo stack as one step (``ui.undo.perform``; the battle's own history, as the panel's).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Protocol

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QUndoStack
from PySide6.QtWidgets import QPushButton, QWidget, QWizard

from brikdesk.domain.combat import (
    ActionStage,
    AttackDraft,
    AttackKind,
    CombatContext,
    DamageStage,
    Reaction,
    ResultSummary,
    event_text,
    overruled_text,
    resolve_action,
    resolve_damage,
    result_summary,
)
from brikdesk.domain.ids import BattleId, BattleUnitId
from brikdesk.domain.rolling import BennyUse, NeedDie
from brikdesk.errors import StorageError, UserError
from ui.bus import Bus
from ui.screen import fit_to_screen
from ui.settings import DiceMode
from ui.undo import perform
from ui.wheel import guard_wheel
from ui.widgets.battle_context import CombatServices
from ui.widgets.combat_style import apply_style
from ui.widgets.common import report_to_active_window
from ui.wizard.attack_form import AttackForm
from ui.wizard.pages import (
    ActionPage,
    AttackPage,
    DamagePage,
    DicePage,
    DiceStep,
    RangePage,
    ResultPage,
    Step,
    aimed_at,
    of_kind,
)
from ui.wizard.widgets import ChartSlot

log = logging.getLogger(__name__)

#: At most this many virtual dice for one press of Roll (bonus chains are long but finite).
MAX_VIRTUAL_DICE = 200


def faces_of(draft: AttackDraft, step: DiceStep) -> tuple[int, ...]:
    """The faces typed so far for a step's dice."""
    return draft.action_faces if step == "action" else draft.damage_faces


def with_faces(draft: AttackDraft, step: DiceStep, faces: tuple[int, ...]) -> AttackDraft:
    """The draft with a step's faces replaced; new Action faces drop the Damage faces (they no
    longer fit)."""
    if step == "action":
        return replace(draft, action_faces=faces, damage_faces=())
    return replace(draft, damage_faces=faces)


class CombatWizard(AttackForm, QWizard):
    """Attack, Range, Action Roll, Damage, Result. ``recorded(summary)`` after Finish."""

    draft_changed = Signal()
    recorded = Signal(object)

    ATTACK, RANGE, ACTION, DAMAGE, RESULT = range(5)

    def build(self, attacker_id: BattleUnitId) -> None:
        """The wizard's pages (``AttackForm`` opened the battle)."""
        self.setObjectName("combatWizard")
        apply_style(self)
        #: What a dice card offers first; both can always be used (Edit > Settings).
        self.dice_mode = DiceMode.TYPED
        self._action: tuple[AttackDraft, ActionStage] | None = None
        self._damage: tuple[AttackDraft, DamageStage] | None = None
        self._summary: tuple[AttackDraft, ResultSummary] | None = None
        state = self.view.state
        self.setWindowTitle(
            f"Attack — {self.view.name}, round {state.round}, {self.view.active_player.name}'s turn"
        )
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.setOption(QWizard.WizardOption.NoDefaultButton, False)
        self.result_page = ResultPage(self)
        self.pages = (
            AttackPage(self),
            RangePage(self),
            ActionPage(self),
            DamagePage(self),
            self.result_page,
        )
        for i, page in enumerate(self.pages):
            self.setPage(i, page)
        self.setStartId(self.ATTACK)
        self.currentIdChanged.connect(self._page_shown)
        for which in (QWizard.WizardButton.CancelButton, QWizard.WizardButton.BackButton):
            cancel = self.button(which)  # Enter on them goes on (Next, Finish) too
            if isinstance(cancel, QPushButton):
                cancel.setAutoDefault(False)
        guard_wheel(self)
        fit_to_screen(self, 1280, 900)

    def preset(self, target: BattleUnitId, kind: AttackKind | None = None) -> None:
        """Start on ``target`` with a ``kind`` of attack (the panel's Act menu named them)."""
        d = aimed_at(self.draft, self.ctx, target)
        self.replace_draft(of_kind(d, self.ctx, kind) if kind is not None else d)

    def set_dice_mode(self, mode: DiceMode) -> None:
        """Offer virtual dice (the Roll button has the focus) or typed faces first on the dice
        cards."""
        self.dice_mode = mode

    def _page_shown(self, _page_id: int) -> None:
        current = self.currentPage()
        for page in self.pages:
            page.forget_completeness(shown=page is current)
            if page is current:
                page.open_focus()  # after QWizard's own focus, before the page is painted

    # -- the draft ---------------------------------------------------------------------------

    def replace_draft(self, draft: AttackDraft) -> None:
        """Make ``draft`` the wizard's draft and show it on the current page."""
        if draft == self.draft:
            return
        self.draft = draft
        current = self.currentPage()
        page = next((p for p in self.pages if p is current), None)
        if page is not None:
            page.acted()
            page.refresh()
        self.draft_changed.emit()

    def change(self, step: Step, draft: AttackDraft) -> None:
        """Make ``draft`` (the current one changed on page ``step``) the wizard's draft. Dice
        typed for a later step no longer fit and are dropped: a change on the Attack or Range
        page drops every face; one on the Action Roll page drops the Damage faces (its own
        faces stay: they are what the dice showed), and so does a change of the reaction,
        which also drops the Action faces when a Bail comes or goes."""
        d = draft
        if d == self.draft:
            return
        if step in ("attack", "range"):
            d = replace(
                d,
                action_faces=(),
                bennies=(),
                damage_faces=(),
                missed_strikes=None,
                blast_ids=d.blast_ids if step == "range" else (),
            )
        elif step == "reaction":
            if Reaction.BAIL in (self.draft.reaction, d.reaction):
                d = replace(d, action_faces=(), bennies=())
            d = replace(d, damage_faces=())
        elif step == "action" and d.damage_faces:
            d = replace(d, damage_faces=())
        self.replace_draft(d)

    def add_face(self, step: DiceStep, face: int) -> None:
        self.replace_draft(with_faces(self.draft, step, faces_of(self.draft, step) + (face,)))

    def drop_face(self, step: DiceStep) -> None:
        faces = faces_of(self.draft, step)
        if faces:
            self.replace_draft(with_faces(self.draft, step, faces[:-1]))

    def clear_faces(self, step: DiceStep) -> None:
        d = with_faces(self.draft, step, ())
        if step == "action":
            d = replace(d, bennies=())
        self.replace_draft(d)

    def roll_virtual(self, step: DiceStep) -> None:
        """Roll every die the step needs now with virtual dice (stored as faces), up to the end
        of the step or the next Benny decision."""
        d = self.draft
        for _ in range(MAX_VIRTUAL_DICE):
            need = self._need(step, d)
            if need is None:
                break
            d = with_faces(d, step, faces_of(d, step) + (self.dice.roll(need.sides, need.why),))
        if step == "action":
            d = replace(d, damage_faces=())
        self.replace_draft(d)

    def pick_benny(self, key: str, use: BennyUse) -> None:
        self.replace_draft(replace(self.draft.with_benny(key, use), damage_faces=()))

    def _need(self, step: DiceStep, d: AttackDraft) -> NeedDie | None:
        """The die the step needs next with draft ``d`` (``None``: none)."""
        action = resolve_action(d, self.ctx)
        return action.need if step == "action" else resolve_damage(d, self.ctx, action).need

    # -- what the draft gives (cached per draft) --------------------------------------------

    def action_stage(self) -> ActionStage:
        if self._action is None or self._action[0] != self.draft:
            self._action = (self.draft, resolve_action(self.draft, self.ctx))
        return self._action[1]

    def damage_stage(self) -> DamageStage:
        if self._damage is None or self._damage[0] != self.draft:
            self._damage = (self.draft, resolve_damage(self.draft, self.ctx, self.action_stage()))
        return self._damage[1]

    def summary(self) -> ResultSummary:
        if self._summary is None or self._summary[0] != self.draft:
            self._summary = (
                self.draft,
                result_summary(self.draft, self.ctx, self.action_stage(), self.damage_stage()),
            )
        return self._summary[1]

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Backspace where no box takes it (the dice are in and Next has the focus): the last
        die typed on this page is taken back, and its box asks for it again."""
        page = self.currentPage()
        if event.key() == Qt.Key.Key_Backspace and isinstance(page, DicePage):
            page.take_back()
            event.accept()
            return
        super().keyPressEvent(event)

    # -- closing -----------------------------------------------------------------------------

    def done(self, result: int) -> None:
        """Finish, Cancel or closing the window: the charts go first (ChartSlot.release)."""
        super().done(result)
        for slot in self.findChildren(ChartSlot):
            slot.release()

    # -- Finish ------------------------------------------------------------------------------

    def accept(self) -> None:
        """Record the attack (one transaction, one undo step), then close."""
        summary = self.summary()
        why = record_attack(self, self.draft, summary, self.ctx)
        if why is not None:
            self.result_page.show_problem(why)
            return
        self.recorded.emit(summary)
        super().accept()


class Recorder(Protocol):
    """What records an attack in a battle: its services, bus, undo stack and id (the combat
    wizard, the quick attack form and the battle panel all have them)."""

    @property
    def services(self) -> CombatServices: ...
    @property
    def bus(self) -> Bus: ...
    @property
    def undo_stack(self) -> QUndoStack: ...
    @property
    def battle_id(self) -> BattleId: ...


def record_attack(
    by: Recorder, draft: AttackDraft, summary: ResultSummary, ctx: CombatContext
) -> str | None:
    """Record the attack ``draft`` resolved as ``summary`` (in the battle as ``ctx`` saw it):
    every event in one transaction, one undo step, the paragraph said on the bus. The one way
    an attack is recorded (the wizard's Finish, the quick form's Enter, a player's proposal
    accepted). Returns why it was not (``None``: recorded)."""
    if summary.problem:
        return summary.problem
    if summary.needs_decision:
        return "Check the warning above: go Back to change the attack, or Overrule and record."
    text = event_text(draft, ctx) + overruled_text(summary)
    tracker = by.services.tracker
    battle_id = by.battle_id
    events = summary.events
    try:
        perform(
            by.undo_stack,
            by.bus,
            lambda: tracker.record(battle_id, events, text=text),
            text=text,
            report=report_to_active_window(by.bus),
        )
    except (UserError, StorageError) as exc:
        log.info("attack not recorded: %s", exc)
        return f"Not recorded: {exc}"
    by.bus.say(summary.paragraph)
    return None


def combat_wizard(
    parent: QWidget | None,
    services: CombatServices,
    bus: Bus,
    undo_stack: QUndoStack,
    battle_id: BattleId,
    attacker_id: BattleUnitId,
    ctx: CombatContext | None = None,
) -> CombatWizard:
    """A new combat wizard for ``attacker_id``, window-modal, deleted when closed; not shown."""
    wizard = CombatWizard(services, bus, undo_stack, battle_id, attacker_id, parent, ctx=ctx)
    wizard.setWindowModality(Qt.WindowModality.WindowModal)
    wizard.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    return wizard


def open_combat_wizard(
    parent: QWidget | None,
    services: CombatServices,
    bus: Bus,
    undo_stack: QUndoStack,
    battle_id: BattleId,
    attacker_id: BattleUnitId,
    ctx: CombatContext | None = None,
) -> CombatWizard:
    """Open the combat wizard for ``attacker_id`` in a battle (window-modal, not blocking);
    ``ctx`` the battle as the caller has it (used while it is the battle as it stands)."""
    wizard = combat_wizard(parent, services, bus, undo_stack, battle_id, attacker_id, ctx)
    wizard.show()
    return wizard
