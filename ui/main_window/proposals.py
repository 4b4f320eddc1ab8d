"""The players' proposals on the battle page: the battle panel's proposal list
(``ui.panels.proposals``) with what accepts a proposal and what opens it to correct.

Accepting records the proposal through the app's own path, the one the quick attack form
records through (``ui.wizard.wizard.record_attack``: one transaction, one undo step on the
battle's history, the paragraph said on the bus), on the draft the quick form makes of the same
choices (``brikdesk.domain.combat.proposed_draft``), judged on the battle as it stands now: a
proposal the battle has moved on from, or that the rules refuse now, is not recorded, and the
list says why. Correcting opens that draft in the quick form, and ``Correction`` follows the
form (and the full wizard, if the form hands the attack over) until it ends: recorded, the
player is told ``corrected`` with the result; closed without recording (Esc, Cancel, the
window's close), the proposal waits again in the list and on the player's page, unless the
battle moved on meanwhile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QVBoxLayout

from brikdesk.domain.combat import (
    AttackDraft,
    CombatContext,
    ResultSummary,
    proposed_draft,
    result_summary,
)
from brikdesk.errors import StorageError, UserError
from brikdesk.share.proposals import Proposal, turn_key
from ui.models.proposals import ProposalInbox
from ui.panels.proposals import ProposalList
from ui.widgets.combat_context import context_for

if TYPE_CHECKING:
    from ui.panels import BattlePanel
    from ui.wizard import CombatWizard, QuickAttack


def _draft_now(panel: BattlePanel, p: Proposal) -> tuple[CombatContext, AttackDraft] | str:
    try:
        view = panel.services.tracker.view(panel.battle_id)
    except (UserError, StorageError) as exc:
        return str(exc)
    if turn_key(view) != p.turn:
        return f"the battle moved on since {p.player} sent it"
    ctx = context_for(view)
    try:
        draft = proposed_draft(ctx, p.choice)
    except UserError as exc:
        return str(exc)
    return ctx, draft


def record_proposal(panel: BattlePanel, p: Proposal) -> str | None:
    """Record ``p`` as the quick form would record the same attack; why not (``None``: it is
    recorded, one undo step)."""
    from ui.wizard.wizard import record_attack

    made = _draft_now(panel, p)
    if isinstance(made, str):
        return made
    ctx, draft = made
    why = record_attack(panel, draft, result_summary(draft, ctx), ctx)
    return None if why is None else why.removeprefix("Not recorded: ")


def correct_proposal(panel: BattlePanel, inbox: ProposalInbox, p: Proposal) -> str | None:
    """Open ``p`` in the quick attack form, ready to change and record, its end followed
    (``Correction``); why it cannot be (``None``: opened)."""
    from ui.wizard import open_quick_attack

    made = _draft_now(panel, p)
    if isinstance(made, str):
        return made
    ctx, draft = made
    form = open_quick_attack(
        panel,
        panel.services,
        panel.bus,
        panel.undo_stack,
        panel.battle_id,
        p.choice.attacker_id,
        ctx,
    )
    Correction(panel, inbox, p, form)
    form.set_draft(draft)
    if form.draft.target_id is not None:
        form.show_target(ctx.fighter(form.draft.target_id).name)
    form.focus_next()
    return None


class Correction(QObject):
    """A proposal opened to correct, followed until its form ends (parented to the panel:
    the form is deleted when it closes)."""

    def __init__(
        self, panel: BattlePanel, inbox: ProposalInbox, p: Proposal, form: QuickAttack
    ) -> None:
        super().__init__(panel)
        self.panel = panel
        self.inbox = inbox
        self.proposal = p
        self.form: QuickAttack | CombatWizard = form
        self.recorded = False
        form.handed_over.connect(self._handed_over)
        self._follow(form)

    def _follow(self, form: QuickAttack | CombatWizard) -> None:
        self.form = form
        form.recorded.connect(self._recorded)
        form.finished.connect(self._closed)

    def _handed_over(self, wizard: CombatWizard) -> None:
        """The full wizard took the attack over: its end is the correction's."""
        self.form.finished.disconnect(self._closed)
        self._follow(wizard)

    def _recorded(self, summary: ResultSummary) -> None:
        self.recorded = True
        self.inbox.corrected(self.proposal.id, summary.paragraph)

    def _closed(self) -> None:
        """The form closed: not recorded, the proposal waits again unless the battle moved on
        since it was sent (a battle that cannot be read now: the share judges by the turn it
        has read)."""
        self.deleteLater()
        if self.recorded:
            return
        panel, p = self.panel, self.proposal
        try:
            moved_on = turn_key(panel.services.tracker.view(panel.battle_id)) != p.turn
        except (UserError, StorageError):
            moved_on = False
        self.inbox.put_back(p.id, moved_on=moved_on)


def proposal_list(panel: BattlePanel, inbox: ProposalInbox) -> ProposalList:
    """The panel's proposal list for its battle, shown above its table."""
    rows = ProposalList(
        inbox,
        panel.battle_id,
        record=lambda p: record_proposal(panel, p),
        correct=lambda p: correct_proposal(panel, inbox, p),
        back=panel.table.setFocus,
        parent=panel,
    )
    layout = panel.layout()
    assert isinstance(layout, QVBoxLayout)  # the panel's own: header, bars, then the splitter
    layout.insertWidget(layout.indexOf(panel.splitter), rows)
    return rows
