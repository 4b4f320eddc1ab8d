"""The battle panel's header: the round and whose turn it is in large type, the battle's name,
the rules edition it plays ("BrikWars 2005 rules"), the table-mode switch and the End Turn
button; and the bar offering to start a planned battle.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QWidget,
)

from brikdesk.domain.statuses import BattleStatus
from brikdesk.services.tracker import BattleView
from ui import colours
from ui.panels.theme import TABLE, Theme, muted, readable_on, scaled
from ui.tooltips import set_tooltip

#: Qt's largest widget size (QWIDGETSIZE_MAX).
QWIDGETSIZE_MAX = (1 << 24) - 1


def widest(widget: QLabel | QAbstractButton, texts: Sequence[str]) -> int:
    """The width ``widget`` asks for with the longest of ``texts`` (its padding, border and
    style as they are now); its text stays."""
    widget.ensurePolished()  # a new style sheet's padding and border count
    shown = widget.text()
    widths = [widget.sizeHint().width()]
    for text in texts:
        widget.setText(text)
        widths.append(widget.sizeHint().width())
    widget.setText(shown)
    return max(widths)


class FixedWidths(QObject):
    """Holds widgets whose text changes (End Turn's player, Act or Respond) as wide as their
    longest text, and as high as they are: a new text then repaints the widget alone, and
    since its size cannot change, Qt does not lay out the window again for it. Sizes are
    worked out again when a widget's font or style changes, or its texts do."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.texts: dict[QLabel | QAbstractButton, tuple[str, ...]] = {}
        self.floors: dict[QLabel | QAbstractButton, int] = {}  # each one's own least height
        self.room: dict[QLabel | QAbstractButton, QSize] = {}  # more than the style gives

    def set_texts(self, widget: QLabel | QAbstractButton, texts: Sequence[str]) -> None:
        """Make ``widget`` as wide as the widest of ``texts`` (with its room, if it has one)."""
        new = widget not in self.texts
        if new or self.texts[widget] != tuple(texts):
            self.texts[widget] = tuple(texts)
            if new:
                self.floors[widget] = widget.minimumHeight()
                widget.installEventFilter(self)
            self.fit(widget)

    def set_room(self, widget: QLabel | QAbstractButton, room: QSize) -> None:
        """Give ``widget`` ``room`` more around its text (width and height) than its style
        gives it."""
        if self.room.get(widget) != room:
            self.room[widget] = QSize(room)
            if widget in self.texts:
                self.fit(widget)

    def fit(self, widget: QLabel | QAbstractButton) -> None:
        # A size hint asked under a fixed size follows that size: let go of it first.
        widget.setMinimumSize(0, self.floors[widget])
        widget.setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX)
        room = self.room.get(widget, QSize(0, 0))
        width = widest(widget, self.texts[widget]) + room.width()
        widget.setFixedSize(
            width, max(widget.sizeHint().height() + room.height(), self.floors[widget])
        )

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange)
            and watched in self.texts
        ):
            # After the widget has seen the change itself (its size hint is cached till then).
            QTimer.singleShot(0, self, self._fit_all)
        return False

    def _fit_all(self) -> None:
        for widget in self.texts:
            self.fit(widget)


class TurnBadge(QWidget):
    """Whose turn it is, on the player's colour: a rounded band painted here, as wide as the
    longest text it is given (every player's turn), as high as the header's row. A new turn
    repaints the badge alone: no style sheet to polish again, no size to lay out again."""

    PAD_X = 14  # around the text, as the band's padding was
    PAD_Y = 2
    RADIUS = 6.0

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self._band = colours.SWATCH_FALLBACK.q()
        self._ink = QColor(readable_on(self._band.name()))
        self._texts: tuple[str, ...] = ()
        self._shown: tuple[str, str] = ("", "")  # the text and band last asked for
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)

    def text(self) -> str:
        return self._text

    def band(self) -> QColor:
        """The colour behind the text (the player's)."""
        return QColor(self._band)

    def show_turn(self, text: str, band: str, texts: Sequence[str]) -> None:
        """Show ``text`` on ``band`` (with a readable ink); ``texts``: every text it may
        show, the widest of which sets its width."""
        if tuple(texts) != self._texts:
            self._texts = tuple(texts)
            self.updateGeometry()
        if (text, band) != self._shown:
            self._shown = (text, band)
            self._text = text
            self._band = QColor(band)
            self._ink = QColor(readable_on(band))
            self.update()

    def sizeHint(self) -> QSize:
        fm = self.fontMetrics()
        widest = max((fm.horizontalAdvance(t) for t in (*self._texts, self._text)), default=0)
        return QSize(widest + 2 * self.PAD_X, fm.height() + 2 * self.PAD_Y)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:
            self.updateGeometry()
        super().changeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._band)
        rect = self.rect()
        painter.drawRoundedRect(QRectF(rect), self.RADIUS, self.RADIUS)
        painter.setPen(self._ink)
        painter.setFont(self.font())
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), self._text)
        painter.end()


#: The End Turn button's room around its text beyond the style's own margins (the normal
#: style): what a padding of 6 by 18 pixels gave it in Qt's Fusion style.
END_TURN_ROOM = QSize(24, 6)


class GivingWayLabel(QLabel):
    """A one-line label that gives way in a narrow header: what does not fit ends in "…"
    (its tooltip holds the whole text), and with no room for a word and "…" it shows nothing
    rather than a letter cut in half."""

    def shown_text(self) -> str:
        """The text as drawn in the label's width."""
        width = self.contentsRect().width()
        shown = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, width)
        return "" if shown in ("", "…") else shown

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(), int(Qt.AlignmentFlag.AlignVCenter), self.shown_text())


class BattleHeader(QFrame):
    """Round, active player (on the player's colour), name, table mode, End Turn."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("battleHeader")
        head = QHBoxLayout(self)
        head.setContentsMargins(14, 8, 14, 8)
        head.setSpacing(16)
        self.round_label = QLabel(self)
        self.round_label.setObjectName("roundLabel")
        self.turn_label = TurnBadge(self)
        self.turn_label.setObjectName("turnLabel")
        self.widths = FixedWidths(self)
        self.name_label = GivingWayLabel(self)
        self.name_label.setObjectName("battleNameLabel")
        self.name_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        head.addWidget(self.round_label)
        head.addWidget(self.turn_label)
        head.addWidget(self.name_label, 1)
        self.edition_label = GivingWayLabel(self)
        self.edition_label.setObjectName("editionLabel")
        # Gives way first in a narrow window (the tooltip holds the whole text): the panel must
        # not grow wider than the turn, the table-mode switch and End Turn need.
        self.edition_label.setMinimumWidth(1)
        head.addWidget(self.edition_label)
        self.table_mode_button = QToolButton(self)
        self.table_mode_button.setObjectName("tableModeButton")
        head.addWidget(self.table_mode_button)
        self.end_turn_button = QPushButton(self)
        self.end_turn_button.setObjectName("endTurnButton")
        self.end_turn_button.setMinimumHeight(40)
        head.addWidget(self.end_turn_button)
        self.widths.set_room(self.end_turn_button, END_TURN_ROOM)

    def show_view(self, view: BattleView, end_turn_tip: str) -> None:
        state = view.state
        player = view.active_player
        self.round_label.setText(f"Round {state.round}")
        names = [p.name for p in view.players]
        if view.status is BattleStatus.PLANNED:
            turn = [f"{n} will start" for n in names]
        elif view.status is BattleStatus.FINISHED or state.finished:
            turn = []
        else:
            turn = [f"{n}'s turn" for n in names]
        shown = turn[view.setup.player_index[player.id]] if turn else "Battle over"
        self.turn_label.show_turn(shown, player.colour, turn or [shown])  # as wide for all
        status = "" if view.in_progress else f" — {view.status_text}"
        name = f"{view.name}{status}"
        self.name_label.setText(name)  # its accessible name too: whole when cut
        set_tooltip(self.name_label, f"{name}\n{view.notes}" if view.notes else name)
        rules = view.setup.rules
        self.edition_label.setText(f"{rules.name} rules")
        set_tooltip(
            self.edition_label,
            f"This battle plays the {rules.name} rules (the campaign's edition): "
            f"{rules.action_roll}s, {rules.parry_name}s, {rules.full_turn_action}. "
            "Help > Rules reference lists every difference between the editions.",
        )
        self.end_turn_button.setText(f"End {player.name}'s turn")
        set_tooltip(self.end_turn_button, end_turn_tip + "  (Ctrl+E or F12)")
        self.widths.set_texts(self.end_turn_button, [f"End {n}'s turn" for n in names])
        # No turn to end once the battle is over (nor before it starts): no stale button.
        self.end_turn_button.setVisible(bool(turn) and view.in_progress)

    def set_theme(self, theme: Theme, font: QFont) -> None:
        """Fonts and colours for ``theme`` (``font``: the panel's font)."""
        big = scaled(font, theme.header_pt_scale, bold=True)
        self.round_label.setFont(big)
        self.turn_label.setFont(big)
        self.end_turn_button.setFont(scaled(font, 1.2, bold=True))
        self.name_label.setFont(scaled(font, 0.9))
        self.name_label.setPalette(muted(self.palette(), theme))
        self.edition_label.setFont(scaled(font, 0.9))
        self.edition_label.setPalette(muted(self.palette(), theme))
        # Across the table the players need the round and the turn: the battle's name is in
        # the window title.
        self.name_label.setVisible(theme is not TABLE)
        # Across the table, a yellow button. Otherwise the style's own, wider than its text
        # needs (as a padding of 6 by 18 pixels would make it): without a style sheet, its
        # repaint after each End Turn and Undo costs a third.
        self.end_turn_button.setStyleSheet(
            (
                "QPushButton#endTurnButton {{ background: {bg}; color: {text}; "
                "border: 2px solid {bg}; border-radius: 6px; padding: 6px 18px; }}"
                "QPushButton#endTurnButton:disabled {{ background: {off_bg}; color: {off_text}; }}"
            ).format(**colours.TABLE_END_TURN)
            if theme is TABLE
            else ""
        )
        self.widths.set_room(self.end_turn_button, QSize(0, 0) if theme is TABLE else END_TURN_ROOM)


class StartBar(QFrame):
    """ "This battle has not started yet" with a button to set the turn order and start."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("startBar")
        bar = QHBoxLayout(self)
        bar.setContentsMargins(10, 6, 10, 6)
        self.text = QLabel("This battle has not started yet.", self)
        bar.addWidget(self.text, 1)
        self.button = QPushButton("Set turn order and &start…", self)
        self.button.setObjectName("startButton")
        bar.addWidget(self.button)

    def set_theme(self, theme: Theme) -> None:
        bg, fg = theme.banner_info
        self.setStyleSheet(
            f"QFrame#startBar {{ background: {bg}; border-radius: 6px; }}"
            f"QFrame#startBar QLabel {{ color: {fg}; }}"
        )
