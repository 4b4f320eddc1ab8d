"""The players' proposals in the battle panel: the attacks their phones sent ("Anna: Archer 1
shoots at Grunt 1 (Bow), dice 5 4"), waiting for the organizer.

A proposal never takes the keyboard focus and never moves what the organizer is typing into:
the list shows itself above the table and waits. F8 turns to it; then Enter accepts the
proposal chosen (recorded through the app's own path, one undo step, as the quick form records
it), Q opens it in the quick attack form to correct, Delete rejects it, Escape goes back to the
table. Each answer goes to the player's page; one opened to correct waits again when its form
closes without recording. What records and what opens the form are the app
shell's (``record``, ``correct``): the panels do not import the forms.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QFrame, QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from brikdesk.domain.ids import BattleId
from brikdesk.share import ACCEPTED, CORRECTING, REJECTED
from brikdesk.share.proposals import Proposal
from ui.models.proposals import ProposalInbox
from ui.panels.keys import make_action

#: The key that turns to the proposals.
KEY = "F8"
HINT = (
    f"Players' proposals ({KEY}): Enter accepts and records · Q corrects it in the quick form "
    "· Delete rejects · Esc back to the table"
)
#: The proposal's id on its row.
ID_ROLE = Qt.ItemDataRole.UserRole

#: Records a proposal through the app's own path; why it was not (``None``: recorded).
Record = Callable[[Proposal], str | None]
#: Opens a proposal in the quick attack form to correct; why it could not (``None``: opened).
Correct = Callable[[Proposal], str | None]


class ProposalRows(QListWidget):
    """The proposals, one row each; the keys act on the current row."""

    def __init__(self, owner: ProposalList) -> None:
        super().__init__(owner)
        self.owner = owner

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.owner.accept_current()
        elif key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self.owner.reject_current()
        elif key == Qt.Key.Key_Q and not event.modifiers():
            self.owner.correct_current()
        elif key == Qt.Key.Key_Escape:
            self.owner.leave()
        else:
            super().keyPressEvent(event)
            return
        event.accept()


class ProposalList(QFrame):
    """The battle's waiting proposals; hidden while there are none."""

    def __init__(
        self,
        inbox: ProposalInbox,
        battle_id: BattleId,
        *,
        record: Record,
        correct: Correct,
        back: Callable[[], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("proposalList")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.inbox = inbox
        self.battle_id = battle_id
        self._record = record
        self._correct = correct
        self._back = back
        self.hint = QLabel(HINT, self)
        self.hint.setWordWrap(True)
        self.rows = ProposalRows(self)
        self.rows.setObjectName("proposalRows")
        self.rows.setAccessibleName("Players' proposals")
        # Only F8 or a click turns to it: Tab never lands in it by surprise.
        self.rows.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.problem = QLabel(self)
        self.problem.setObjectName("proposalProblem")
        self.problem.setWordWrap(True)
        self.problem.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(2)
        layout.addWidget(self.hint)
        layout.addWidget(self.rows)
        layout.addWidget(self.problem)
        self.turn_action = make_action(
            self, "Players' &proposals", "proposalsAction", self.turn_to, (KEY,), window=True
        )
        inbox.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Show the waiting proposals; the row chosen stays chosen; the focus stays where it
        is (it leaves the list only when the list empties while the organizer is in it)."""
        waiting = self.inbox.for_battle(self.battle_id)
        current = self.current_id()
        had_focus = self.rows.hasFocus()
        self.rows.clear()
        for p in waiting:
            item = QListWidgetItem(p.text)
            item.setData(ID_ROLE, p.id)
            self.rows.addItem(item)
            if p.id == current:
                self.rows.setCurrentItem(item)
        if self.rows.currentItem() is None and self.rows.count():
            self.rows.setCurrentRow(0)
        if waiting:  # as tall as its rows (five at most): the table keeps the rest
            row = max(self.rows.sizeHintForRow(0), self.rows.fontMetrics().height())
            self.rows.setFixedHeight(min(len(waiting), 5) * row + 2 * self.rows.frameWidth())
        self.setVisible(bool(waiting))
        if not waiting:
            self.problem.hide()
            if had_focus:
                self._back()

    def current_id(self) -> str | None:
        item = self.rows.currentItem()
        return None if item is None else str(item.data(ID_ROLE))

    def _current(self) -> Proposal | None:
        pid = self.current_id()
        return None if pid is None else self.inbox.get(pid)

    def turn_to(self) -> None:
        """F8: the organizer turns to the proposals."""
        if self.rows.count():
            self.rows.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def leave(self) -> None:
        self._back()

    def accept_current(self) -> None:
        """Record the proposal through the app's own path; say why not when it was not."""
        self._answer_after(self._record, "Not recorded", ACCEPTED)

    def reject_current(self) -> None:
        p = self._current()
        if p is not None:
            self.problem.hide()
            self.inbox.answer(p.id, REJECTED)

    def correct_current(self) -> None:
        """Open the proposal in the quick form to correct (its player is told); say why not
        when it cannot be (the battle moved on: it stays listed until the share drops it)."""
        self._answer_after(self._correct, "Not opened", CORRECTING)

    def _answer_after(self, act: Record | Correct, failed: str, status: str) -> None:
        """``act`` on the current proposal, then answer ``status``; or say why it could not be
        done (``failed``: what was not) and leave the proposal waiting."""
        p = self._current()
        if p is None:
            return
        why = act(p)
        if why is not None:
            self.problem.setText(f"{failed}: {why}")
            self.problem.show()
            return
        self.problem.hide()
        self.inbox.answer(p.id, status)
