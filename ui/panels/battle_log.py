"""The battle log beside the unit table: its title, Undo and Redo, one line per event (newest
first) and the picked event (or the newest) in full below."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.ids import BattleId
from brikdesk.services.tracker import LoggedEvent
from ui.panels.battle_model import LogModel, log_tooltip
from ui.panels.row_paint import RowDelegate
from ui.panels.theme import TABLE, Theme, muted

#: The log's title, longest first: the longest that fits beside Undo and Redo is shown.
TITLES = (("<b>Battle log</b> (newest first)", "Battle log (newest first)"),
          ("<b>Battle log</b>", "Battle log"))
SHORT_TITLE = "<b>Log</b>"


#: Lines of the selected log line's detail shown under the log (more scroll).
DETAIL_LINES = 7


class BattleLogPane(QWidget):
    """The log with its Undo and Redo buttons (their clicks are the panel's to connect)."""

    def __init__(self, theme: Callable[[], Theme], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = LogModel(self, theme=theme)
        rv = QVBoxLayout(self)
        rv.setContentsMargins(0, 0, 0, 0)
        title = QHBoxLayout()
        self.title = QLabel(TITLES[0][0], self)
        self.title.setObjectName("logTitle")
        self.title.setToolTip("The battle log, newest first")
        # The title gives way to the buttons, down to its short form (set_title_room).
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.title.setMinimumWidth(40)
        title.addWidget(self.title, 1)
        self.undo_button = QPushButton("Undo", self)
        self.undo_button.setObjectName("logUndo")
        self.redo_button = QPushButton("Redo", self)
        self.redo_button.setObjectName("logRedo")
        title.addWidget(self.undo_button)
        title.addWidget(self.redo_button)
        rv.addLayout(title)
        # A one-column table, one line per event: unlike a list view it never lays out every
        # row again when an event is added at the top.
        self.view = QTableView(self)
        self.view.setObjectName("battleLog")
        self.view.setModel(self.model)
        self.lines = RowDelegate(self.view)  # lines painted from the model's row records
        self.view.setItemDelegate(self.lines)
        self.view.horizontalHeader().hide()
        self.view.verticalHeader().hide()
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.view.setShowGrid(False)
        self.view.setWordWrap(False)
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.selectionModel().currentChanged.connect(self._current_changed)
        rv.addWidget(self.view, 1)
        self.detail = QLabel(self)
        self.detail.setObjectName("logDetail")
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        # The detail sits in a box of fixed height (it scrolls when longer): a new text never
        # changes the pane's layout, so an action repaints the detail, not the whole panel.
        self.detail_box = QScrollArea(self)
        self.detail_box.setObjectName("logDetailBox")
        self.detail_box.setFrameShape(QFrame.Shape.NoFrame)
        self.detail_box.setWidgetResizable(True)
        self.detail_box.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.detail_box.setWidget(self.detail)
        self.detail_box.viewport().setAutoFillBackground(False)
        self.detail.setAutoFillBackground(False)
        self._fit_detail()
        rv.addWidget(self.detail_box)
        self._short = False

    def show_events(self, battle_id: BattleId, events: Sequence[LoggedEvent]) -> None:
        self.model.set_events(battle_id, events)
        self._show_detail()

    def set_history(self, undo: str | None, redo: str | None) -> None:
        """Enable Undo and Redo; their tooltips name what they would take back or redo."""
        for button, text, what in ((self.undo_button, undo, "Undo"),
                                   (self.redo_button, redo, "Redo")):
            button.setEnabled(bool(text))
            button.setToolTip(f"{what}: {text}" if text else f"Nothing to {what.lower()}")

    def set_theme(self, theme: Theme, font: QFont) -> None:
        self.lines.forget()
        self._short = theme is TABLE
        self._fit_title()
        rows = self.view.fontMetrics().height() + 6
        self.view.verticalHeader().setMinimumSectionSize(rows)
        self.view.verticalHeader().setDefaultSectionSize(rows)
        self.detail.setPalette(muted(self.palette(), theme))
        self._fit_detail()

    def _fit_detail(self) -> None:
        """Room for seven lines of the detail in the pane's font."""
        self.detail_box.setFixedHeight(self.detail.fontMetrics().lineSpacing() * DETAIL_LINES + 4)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt name)
        super().resizeEvent(event)
        self._fit_title()

    def _fit_title(self) -> None:
        """The longest title that fits beside the buttons (never a cut one); table mode has
        the short one."""
        room = self.width() - self.undo_button.sizeHint().width() \
            - self.redo_button.sizeHint().width() - 24
        bold = QFont(self.title.font())
        bold.setBold(True)
        fm = QFontMetrics(bold)
        text = SHORT_TITLE
        if not self._short:
            text = next((rich for rich, plain in TITLES if fm.horizontalAdvance(plain) + 8 <= room),
                        SHORT_TITLE)
        if text != self.title.text():
            self.title.setText(text)

    def _current_changed(self, *_args: object) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        index = self.view.currentIndex()
        events = self.model.events()
        if not events:
            self.detail.clear()
            return
        row = index.row() if index.isValid() else 0
        self.detail.setText(log_tooltip(events[min(row, len(events) - 1)]))
