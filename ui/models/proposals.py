"""The players' proposals waiting for the organizer: what their phones sent through the share
(``brikdesk.share.proposals``), kept in the app until the organizer answers.

``ProposalInbox`` is filled by the Share dialog's process (a line from the share process: a
proposal, or one the battle moved on from) and read by the battle panel's proposal list.
Answering a proposal (accepted, rejected, opened in the quick form) takes it out and tells the
share, so the player's page shows the answer. One opened in the quick form is kept aside until
the form ends: recorded from it, the player is told it was ``corrected`` (``corrected``); the
form closed without recording, it waits in the list again and on the player's page
(``put_back``), unless the battle moved on meanwhile. Nothing here records anything: accepting
goes through the app's own recording path, which the battle panel is given.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from brikdesk.domain.ids import BattleId
from brikdesk.share import CORRECTED, CORRECTING, DROPPED, WAITING

if TYPE_CHECKING:  # the proposals' module brings the combat rules: not at start-up
    from brikdesk.share.proposals import Proposal

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
        #: Opened in the quick form to correct, until it is recorded or closed.
        self._correcting: dict[str, Proposal] = {}
        #: When each proposal listed or set aside arrived: one put back keeps its place.
        self._arrived: dict[str, int] = {}
        self._arrivals = itertools.count()
        #: Where answers go (the share running now); ``None``: nowhere.
        self.answerer: Answerer | None = None

    def add(self, proposal: Proposal) -> None:
        if proposal.id in self._waiting or len(self._waiting) >= MAX_WAITING:
            return
        self._waiting[proposal.id] = proposal
        self._arrived.setdefault(proposal.id, next(self._arrivals))
        self.changed.emit()

    def for_battle(self, battle_id: BattleId) -> list[Proposal]:
        return [p for p in self._waiting.values() if p.battle_id == battle_id]

    def get(self, proposal_id: str) -> Proposal | None:
        return self._waiting.get(proposal_id)

    def answer(self, proposal_id: str, status: str, note: str = "") -> None:
        """The organizer's answer: the proposal leaves the list and its player is told
        (``correcting``: kept aside until the quick form ends, ``corrected``/``put_back``)."""
        proposal = self._waiting.pop(proposal_id, None)
        if proposal is None:
            return
        if status == CORRECTING:
            self._correcting[proposal_id] = proposal
        else:
            del self._arrived[proposal_id]
        self._tell(proposal_id, status, note)
        self.changed.emit()

    def _tell(self, proposal_id: str, status: str, note: str) -> None:
        if self.answerer is not None and status != DROPPED:
            self.answerer(proposal_id, status, note)

    def corrected(self, proposal_id: str, note: str = "") -> None:
        """The proposal opened to correct was recorded from the quick form (``note``: what
        was recorded): its player is told."""
        if self._correcting.pop(proposal_id, None) is not None:
            del self._arrived[proposal_id]
            self._tell(proposal_id, CORRECTED, note)

    def put_back(self, proposal_id: str, *, moved_on: bool = False) -> None:
        """The quick form opened to correct it closed without recording: the proposal waits
        again on its player's page and in the list, where it was (before those that arrived
        after it); ``moved_on`` (the battle moved on since it was sent): it is not listed, and
        the share drops it as any other."""
        proposal = self._correcting.pop(proposal_id, None)
        if proposal is None:
            return
        self._tell(proposal_id, WAITING, "")
        if moved_on or len(self._waiting) >= MAX_WAITING:
            del self._arrived[proposal_id]
            return
        self._waiting[proposal_id] = proposal
        self._waiting = dict(sorted(self._waiting.items(), key=lambda kv: self._arrived[kv[0]]))
        self.changed.emit()

    def drop(self, proposal_id: str) -> None:
        """The battle moved on before an answer (the share said so)."""
        self.answer(proposal_id, DROPPED)

    def clear(self) -> None:
        """Sharing stopped: nothing can be answered any more."""
        self._correcting.clear()
        self._arrived.clear()
        if self._waiting:
            self._waiting.clear()
            self.changed.emit()
