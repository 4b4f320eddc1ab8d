"""The battle panel's end-of-battle bar.

In a battle in progress where only one player still has units standing (alive and on the
table), it says so and offers End battle…; in a finished battle it says who won and offers the
battle report in one click (the panel is read-only then: the tracker refuses changes to a
finished battle's log). Hidden otherwise. It asks through signals; the main window answers.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from brikdesk.domain.ids import BattleId
from brikdesk.domain.statuses import BattleStatus
from brikdesk.services.tracker import BattleView


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
        #: Set by the main window: a finished battle's result in words (" — Ines won").
        self.result_text: Callable[[int], str] | None = None
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
        if view.status is BattleStatus.FINISHED:
            result_text = self.result_text(view.id) if self.result_text else ""
            self.label.setText(
                f"This battle is finished{result_text}; it is read-only "
                "(Edit > Undo right after ending it reopens it)."
            )
            self.end_button.hide()
            self.report_button.show()
            self.show()
            return
        sides = sides_standing(view)
        if view.in_progress and len(sides) <= 1:
            who = f"Only {sides[0]} has" if sides else "No one has"
            self.label.setText(f"{who} units standing: is the battle over?")
            self.end_button.show()
            self.report_button.hide()
            self.show()
            return
        self.hide()

    def _end(self) -> None:
        if self.battle_id is not None:
            self.end_requested.emit(self.battle_id)

    def _report(self) -> None:
        if self.battle_id is not None:
            self.report_requested.emit(self.battle_id)
