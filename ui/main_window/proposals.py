"""The players' proposals on the battle page: the battle panel's proposal list
(``ui.panels.proposals``) with what accepts a proposal and what opens it to correct.

Accepting records the proposal through the app's own path, the one the quick attack form
records through (``ui.wizard.wizard.record_attack``: one transaction, one undo step on the
battle's history, the paragraph said on the bus), on the draft the quick form makes of the same
choices (``brikdesk.domain.combat.proposed_draft``), judged on the battle as it stands now: a
proposal the battle has moved on from, or that the rules refuse now, is not recorded, and the
list says why. Correcting opens that draft in the quick form.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QVBoxLayout

from brikdesk.domain.combat import AttackDraft, CombatContext, proposed_draft, result_summary
from brikdesk.errors import StorageError, UserError
from brikdesk.share.proposals import Proposal, turn_key
from ui.models.proposals import ProposalInbox
from ui.panels.proposals import ProposalList
from ui.widgets.combat_context import context_for

if TYPE_CHECKING:
    from ui.panels import BattlePanel


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


def correct_proposal(panel: BattlePanel, p: Proposal) -> None:
    """Open ``p`` in the quick attack form, ready to change and record."""
    from ui.wizard import open_quick_attack

    made = _draft_now(panel, p)
    if isinstance(made, str):
        panel.show_error(f"{p.text}: {made}")
        return
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
    form.set_draft(draft)
    if form.draft.target_id is not None:
        form.show_target(ctx.fighter(form.draft.target_id).name)
    form.focus_next()


def proposal_list(panel: BattlePanel, inbox: ProposalInbox) -> ProposalList:
    """The panel's proposal list for its battle, shown above its table."""
    rows = ProposalList(
        inbox,
        panel.battle_id,
        record=lambda p: record_proposal(panel, p),
        correct=lambda p: correct_proposal(panel, p),
        back=panel.table.setFocus,
        parent=panel,
    )
    layout = panel.layout()
    assert isinstance(layout, QVBoxLayout)  # the panel's own: header, bars, then the splitter
    layout.insertWidget(layout.indexOf(panel.splitter), rows)
    return rows
