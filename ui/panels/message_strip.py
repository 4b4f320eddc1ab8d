"""The strip above the unit table: what the last action said, a refusal with its reason and
rule, or (when there is nothing to say, outside table mode) the keys that work on the current
unit now."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QEnterEvent, QPainter, QPaintEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from brikdesk.domain.battle import RuleViolation
from ui.glyphs import refusal_sign
from ui.panels.theme import NORMAL, TABLE, Theme


def error_text(error: BaseException | str) -> str:
    """A refusal as the strip shows it: the reason, and the rule when it names one (after a
    refusal sign the application's font has)."""
    mark = refusal_sign()
    if isinstance(error, RuleViolation):
        return f"{mark} {error.reason}" + (f"  ({error.rule})" if error.rule else "")
    return f"{mark} {error}"


class MessageStrip(QLabel):
    """Always there with room for two lines, so a message never moves the table. Its colours
    are painted here (a style sheet per kind of message would polish the strip again at every
    message), and its text can be selected while the pointer is over it (a selectable label
    builds a text document at every new text)."""

    RADIUS = 6.0

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("battleMessage")
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.kind = ""  # "info", "error" or "" (the keys)
        self.message = ""
        self._band: QColor | None = None  # behind the text (None: the panel's own)
        self._ink = QColor()
        self._theme: Theme = NORMAL
        self.keys = ""  # the keys that work on the current unit (``keys.keys_legend``)

    def show_message(self, text: str, kind: str) -> None:
        self.kind = kind
        self.message = text
        self._restyle()
        self.setText(text)

    def clear_message(self) -> None:
        if self.kind or self.message:
            self.kind = ""
            self.message = ""
            self._restyle()

    def set_keys(self, text: str) -> None:
        """The keys legend, shown when there is no message."""
        if text != self.keys:
            self.keys = text
            if not self.kind:
                self._restyle()

    def set_theme(self, theme: Theme) -> None:
        self._theme = theme
        self._ink = QColor()  # the palette follows the new theme
        self._restyle()
        fm = self.fontMetrics()
        side = 10 + fm.horizontalAdvance("x") // 2  # a framed label's padding and indent
        self.setContentsMargins(side, 4, side, 4)
        self.setFixedHeight(fm.lineSpacing() * 2 + 12)

    def band(self) -> QColor | None:
        """The colour behind the text (``None``: none, the keys legend)."""
        return None if self._band is None else QColor(self._band)

    def _restyle(self) -> None:
        theme = self._theme
        if self.kind:
            bg, fg = theme.banner_error if self.kind == "error" else theme.banner_info
            band: QColor | None = QColor(bg)
        else:
            band, fg = None, theme.muted
        ink = QColor(fg)
        if ink != self._ink:
            self._ink = ink
            palette = self.palette()
            palette.setColor(QPalette.ColorRole.WindowText, ink)
            self.setPalette(palette)
        if band != self._band:
            self._band = band
            self.update()
        if not self.kind:
            self.setText("" if theme is TABLE or not self.keys else "Keys: " + self.keys)

    def paintEvent(self, event: QPaintEvent) -> None:
        if self._band is not None:
            painter = QPainter(self)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(self._band)
            painter.drawRoundedRect(QRectF(self.rect()), self.RADIUS, self.RADIUS)
            painter.end()
        super().paintEvent(event)

    def enterEvent(self, event: QEnterEvent) -> None:
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        super().enterEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        if not self.hasSelectedText():
            self.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        super().leaveEvent(event)


class StillBox(QWidget):
    """Holds one widget whose text changes often (the message strip) at the box's own size,
    without a layout: the widget's new text repaints it, and does not ask the window to lay
    itself out again (a label's new text asks its parent's layout to, and up to the window).
    The box is as high as the widget wants and takes the width its own layout gives it."""

    def __init__(self, child: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.child = child
        child.setParent(self)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:
        return QSize(self.child.minimumSizeHint().width(), self.child.height())

    def minimumSizeHint(self) -> QSize:
        return QSize(0, self.child.height())

    def follow_height(self) -> None:
        """The child's height changed (its font did): the box takes it."""
        self.setFixedHeight(self.child.height())
        self.updateGeometry()

    def resizeEvent(self, event: QResizeEvent) -> None:
        self.child.setGeometry(0, 0, self.width(), self.child.height())
        super().resizeEvent(event)
