"""The battle panel's end-of-battle bar.

In a battle in progress where only one player still has units standing (alive and on the
table), it says so and offers End battle…; in a finished battle it says who won and offers the
battle report in one click (the panel is read-only then: the tracker refuses changes to a
finished battle's log). Hidden otherwise. It asks through signals; the main window answers.

Who won is read on a worker (it reads the whole battle): the bar says the battle is finished
at once and adds the winner when the read arrives, so a slow or locked database never freezes
the window.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from brikdesk.domain.ids import BattleId
from brikdesk.domain.statuses import BattleStatus
from brikdesk.services.tracker import BattleView
from ui.workers import start_job

log = logging.getLogger(__name__)

FINISHED = (
    "This battle is finished{}; it is read-only (Edit > Undo right after ending it reopens it)."
)


def sides_standing(view: BattleView) -> tuple[str, ...]:
    """Names of the players with units standing, in turn order."""
    standing = {u.player_id for u in view.state.units if u.in_battle}
    return tuple(p.name for p in view.players if p.id in standing)


class AftermathBar(QFrame):
    """``end_requested(battle_id)``, ``report_requested(battle_id)``."""

    end_requested = Signal(int)
    report_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("aftermathBar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.battle_id: BattleId | None = None
        #: Set by the main window: a finished battle's result in words (" (Ines won)"); called
        #: on a worker thread.
        self.result_text: Callable[[int], str] | None = None
        self._reads_wanted = self.reads_shown = 0
        self._result: tuple[BattleId | None, str] = (None, "")  # as last read, kept meanwhile
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 4, 10, 4)
        self.label = QLabel(self)
        self.label.setObjectName("aftermathText")
        self.label.setWordWrap(True)
        row.addWidget(self.label, 1)
        self.end_button = QPushButton("&End battle…", self)
        self.end_button.setObjectName("promptEndBattle")
        self.end_button.clicked.connect(self._end)
        row.addWidget(self.end_button)
        self.report_button = QPushButton("Battle &report…", self)
        self.report_button.setObjectName("finishedReport")
        self.report_button.clicked.connect(self._report)
        row.addWidget(self.report_button)
        self.hide()

    def show_view(self, view: BattleView) -> None:
        self.battle_id = view.id
        self._reads_wanted += 1  # an answer still on its way is for an older view
        self.reads_shown = self._reads_wanted - 1
        if view.status is BattleStatus.FINISHED:
            kept = self._result[1] if self._result[0] == view.id else ""
            self.label.setText(FINISHED.format(kept))
            self._read_result(view.id)  # who won, when read
            self.end_button.hide()
            self.report_button.show()
            self.show()
            return
        self.reads_shown = self._reads_wanted  # nothing to read
        sides = sides_standing(view)
        if view.in_progress and len(sides) <= 1:
            who = f"Only {sides[0]} has" if sides else "No one has"
            self.label.setText(f"{who} units standing: is the battle over?")
            self.end_button.show()
            self.report_button.hide()
            self.show()
            return
        self.hide()

    def _read_result(self, battle_id: BattleId) -> None:
        reader = self.result_text
        if reader is None:
            self.reads_shown = self._reads_wanted
            return
        wanted = self._reads_wanted
        start_job(
            self,
            lambda _progress: reader(battle_id),
            on_done=lambda text: self._show_result(wanted, battle_id, text),
            on_error=lambda exc, _trace: self._show_result(wanted, battle_id, "", exc),
        )

    def _show_result(
        self, wanted: int, battle_id: BattleId, text: str, exc: BaseException | None = None
    ) -> None:
        if wanted != self._reads_wanted:
            return
        self.reads_shown = wanted
        if exc is not None:  # the bar still says the battle is finished; the rest can wait
            log.warning("who won the battle could not be read: %s", exc)
            return
        self._result = (battle_id, text)
        self.label.setText(FINISHED.format(text))

    def result_ready(self) -> bool:
        """Whether the bar shows the newest read of who won (tests wait for it)."""
        return self.reads_shown == self._reads_wanted

    def _end(self) -> None:
        if self.battle_id is not None:
            self.end_requested.emit(self.battle_id)

    def _report(self) -> None:
        if self.battle_id is not None:
            self.report_requested.emit(self.battle_id)
