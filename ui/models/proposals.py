"""The players' proposals waiting for the organizer: what their phones sent through the share
(``brikdesk.share.proposals``), kept in the app until the organizer answers.

``ProposalInbox`` is filled by the Share dialog's process (a line from the share process: a
proposal, or one the battle moved on from) and read by the battle panel's proposal list.
Answering a proposal (accepted, rejected, opened in the quick form) takes it out and tells the
share, so the player's page shows the answer. Nothing here records anything: accepting goes
through the app's own recording path, which the battle panel is given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from brikdesk.domain.ids import BattleId

if TYPE_CHECKING:  # the proposals' module brings the combat rules: not at start-up
    from brikdesk.share.proposals import Proposal

#: The answers a player's page understands.
ACCEPTED, REJECTED, CORRECTING, DROPPED = "accepted", "rejected", "correcting", "dropped"
#: At most this many proposals wait in the app (the share lets each player have two waiting).
MAX_WAITING = 64

#: Tells the share an answer: (proposal id, status, note).
Answerer = Callable[[str, str, str], None]


class ProposalInbox(QObject):
    """The proposals waiting, oldest first; ``changed`` whenever one comes or goes."""

    changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._waiting: dict[str, Proposal] = {}
        #: Where answers go (the share running now); ``None``: nowhere.
        self.answerer: Answerer | None = None

    def add(self, proposal: Proposal) -> None:
        if proposal.id in self._waiting or len(self._waiting) >= MAX_WAITING:
            return
        self._waiting[proposal.id] = proposal
        self.changed.emit()

    def for_battle(self, battle_id: BattleId) -> list[Proposal]:
        return [p for p in self._waiting.values() if p.battle_id == battle_id]

    def get(self, proposal_id: str) -> Proposal | None:
        return self._waiting.get(proposal_id)

    def answer(self, proposal_id: str, status: str, note: str = "") -> None:
        """The organizer's answer: the proposal leaves the list and its player is told."""
        if self._waiting.pop(proposal_id, None) is None:
            return
        if self.answerer is not None and status != DROPPED:
            self.answerer(proposal_id, status, note)
        self.changed.emit()

    def drop(self, proposal_id: str) -> None:
        """The battle moved on before an answer (the share said so)."""
        self.answer(proposal_id, DROPPED)

    def clear(self) -> None:
        """Sharing stopped: nothing can be answered any more."""
        if self._waiting:
            self._waiting.clear()
            self.changed.emit()
