"""The battle log beside the unit table: its title, Undo and Redo, one line per event (newest
first) and the picked event (or the newest) in full below."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QPalette,
    QResizeEvent,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.ids import BattleId
from brikdesk.services.tracker import LoggedEvent
from ui.panels.battle_model import LineRow, LogModel, RowRole, log_tooltip
from ui.panels.row_delegate import RowDelegate
from ui.panels.theme import TABLE, Theme
from ui.tooltips import set_tooltip

#: The log's title, longest first: the longest that fits beside Undo and Redo is shown.
TITLES = (
    ("<b>Battle log</b> (newest first)", "Battle log (newest first)"),
    ("<b>Battle log</b>", "Battle log"),
)
SHORT_TITLE = "<b>Log</b>"


#: Lines of the selected log line's detail shown under the log (more scroll).
DETAIL_LINES = 7

#: A log line wraps onto as many lines as the pane's width asks, up to this many; a longer one
#: ends in "…" (its tooltip and the detail below have it whole).
MOST_LINES = 3
#: The newest lines wrap (more than a pane ever shows at once); older ones keep one line, cut
#: with "…", so that no change measures a long battle's whole log.
WRAPPED = 60


def wrapped_lines(text: str, font: QFont, width: int) -> list[str]:
    """``text`` broken at word boundaries into lines of ``width`` pixels, as an item view's
    style breaks a cell's text when it wraps (the pieces joined are ``text``)."""
    layout = QTextLayout(text, font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    lines: list[str] = []
    layout.beginLayout()
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(max(width, 1))
        lines.append(text[line.textStart() : line.textStart() + line.textLength()])
    layout.endLayout()
    return lines or [text]


class LogView(QTableView):
    """The log's lines, newest first: each of the newest :data:`WRAPPED` as high as its text
    needs at the pane's width (up to :data:`MOST_LINES` lines), measured again when a line
    comes, changes or the pane's width does; the rest one line high."""

    def __init__(self, model: LogModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(model)
        self.setWordWrap(True)
        model.modelReset.connect(self.fit_all)
        model.rowsInserted.connect(self._rows_inserted)
        model.rowsRemoved.connect(self._rows_removed)
        model.dataChanged.connect(self._data_changed)
        #: The column's width (the header tells it before it answers it when it stretches).
        self.column = 0
        self.horizontalHeader().sectionResized.connect(self._width_changed)

    def text_width(self) -> int:
        """The width a line's text has: the column less the style's margins."""
        margin = self.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self)
        return self.column - 2 * (margin + 1)

    def lines_of(self, row: int) -> list[str]:
        """The text of log line ``row`` as it breaks at the pane's width, every line of it."""
        line = self.model().index(row, 0).data(RowRole)
        if not isinstance(line, LineRow):
            return []
        font = line.font if line.font is not None else self.font()
        return wrapped_lines(line.text, font, self.text_width())

    def shown_text(self, row: int) -> str:
        """Log line ``row`` as drawn in its height: whole, or its last shown line ending in
        "…"."""
        lines = self.lines_of(row)
        spacing = self.fontMetrics().lineSpacing()
        room = 1 + max(0, self.rowHeight(row) - self.one_line()) // spacing
        if len(lines) <= room:
            return "".join(lines)
        rest = "".join(lines[room - 1 :])
        last = self.fontMetrics().elidedText(rest, Qt.TextElideMode.ElideRight, self.text_width())
        return "".join(lines[: room - 1]) + last

    def one_line(self) -> int:
        return self.verticalHeader().defaultSectionSize()

    def fit_rows(self, first: int, last: int) -> None:
        """Rows ``first`` to ``last`` (those among the newest) as high as their text needs."""
        if self.column <= 0:
            return  # not laid out yet: its first width fits them
        one, spacing = self.one_line(), self.fontMetrics().lineSpacing()
        for row in range(max(first, 0), min(last, WRAPPED - 1, self.model().rowCount() - 1) + 1):
            lines = min(len(self.lines_of(row)), MOST_LINES)
            height = one + (lines - 1) * spacing
            if self.rowHeight(row) != height:
                self.setRowHeight(row, height)

    def fit_all(self) -> None:
        """The newest lines as high as their text needs."""
        self.fit_rows(0, WRAPPED - 1)

    def _rows_inserted(self, _parent: QModelIndex, first: int, last: int) -> None:
        self.fit_rows(first, last)
        # The lines pushed past the newest go back to one line.
        one = self.one_line()
        count = self.model().rowCount()
        for row in range(WRAPPED, min(WRAPPED + last - first + 1, count)):
            if self.rowHeight(row) != one:
                self.setRowHeight(row, one)

    def _rows_removed(self, _parent: QModelIndex, first: int, last: int) -> None:
        self.fit_rows(WRAPPED - (last - first + 1), WRAPPED - 1)  # come up among the newest

    def _data_changed(self, top: QModelIndex, bottom: QModelIndex, *_args: object) -> None:
        self.fit_rows(top.row(), bottom.row())

    def _width_changed(self, _section: int, old: int, new: int) -> None:
        if old != new:
            self.column = new
            self.fit_all()


class LogDetail(QPlainTextEdit):
    """The selected log line in full, to read and to select and copy, in a box of fixed
    height (it scrolls when longer), on the pane's own background. A new text lays out these
    few lines and nothing else: the pane and the panel hold their layout."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("logDetail")
        self.setAccessibleName("The chosen log entry in full")
        self.setReadOnly(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.document().setDocumentMargin(0)
        self.viewport().setAutoFillBackground(False)  # the pane's background shows through
        self.viewport().setCursor(Qt.CursorShape.IBeamCursor)

    def text(self) -> str:
        return self.toPlainText()

    def setText(self, text: str) -> None:
        if text != self.toPlainText():
            self.setPlainText(text)

    def set_ink(self, colour: QColor) -> None:
        """The text's colour (the theme's muted one), on no background of its own."""
        palette = self.palette()
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
            palette.setColor(group, QPalette.ColorRole.Text, colour)
            palette.setColor(group, QPalette.ColorRole.Base, QColor(Qt.GlobalColor.transparent))
        self.setPalette(palette)


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
        self.view = LogView(self.model, self)
        self.view.setObjectName("battleLog")
        self.view.setAccessibleName("Battle log")
        self.lines = RowDelegate(self.view)  # lines painted from the model's row records
        self.view.setItemDelegate(self.lines)
        self.view.horizontalHeader().hide()
        self.view.verticalHeader().hide()
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.view.setShowGrid(False)
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.view.setAlternatingRowColors(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.selectionModel().currentChanged.connect(self._current_changed)
        rv.addWidget(self.view, 1)
        self.detail = LogDetail(self)
        self.detail_box = self.detail  # its own box: it scrolls when longer
        self._fit_detail()
        rv.addWidget(self.detail_box)
        self._short = False

    def show_events(self, battle_id: BattleId, events: Sequence[LoggedEvent]) -> None:
        self.model.set_events(battle_id, events)
        self._show_detail()

    def set_history(self, undo: str | None, redo: str | None) -> None:
        """Enable Undo and Redo; their tooltips name what they would take back or redo."""
        for button, text, what in (
            (self.undo_button, undo, "Undo"),
            (self.redo_button, redo, "Redo"),
        ):
            button.setEnabled(bool(text))
            set_tooltip(button, f"{what}: {text}" if text else f"Nothing to {what.lower()}")

    def set_theme(self, theme: Theme, font: QFont) -> None:
        self._short = theme is TABLE
        self._fit_title()
        rows = self.view.fontMetrics().height() + 6
        self.view.verticalHeader().setMinimumSectionSize(rows)
        self.view.verticalHeader().setDefaultSectionSize(rows)
        self.view.fit_all()
        self.detail.set_ink(QColor(theme.muted))
        self._fit_detail()

    def _fit_detail(self) -> None:
        """Room for seven lines of the detail in the pane's font."""
        self.detail.setFixedHeight(self.detail.fontMetrics().lineSpacing() * DETAIL_LINES + 4)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_title()

    def _fit_title(self) -> None:
        """The longest title that fits beside the buttons (never a cut one); table mode has
        the short one."""
        room = (
            self.width()
            - self.undo_button.sizeHint().width()
            - self.redo_button.sizeHint().width()
            - 24
        )
        bold = QFont(self.title.font())
        bold.setBold(True)
        fm = QFontMetrics(bold)
        text = SHORT_TITLE
        if not self._short:
            text = next(
                (rich for rich, plain in TITLES if fm.horizontalAdvance(plain) + 8 <= room),
                SHORT_TITLE,
            )
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
