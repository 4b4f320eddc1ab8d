"""The Status column's delegate: each status a rounded, coloured chip with its label."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem, QWidget

from ui.panels.battle_model import ChipsRole, RowRole, UnitRow
from ui.panels.row_delegate import RowDelegate
from ui.panels.theme import NORMAL, Theme

Index = QModelIndex | QPersistentModelIndex


class StatusChipDelegate(RowDelegate):
    """Paints ``ChipsRole`` as chips over the cell the style draws (its background, the
    selection); the cell's text (``DisplayRole``) stays for tests, copy and accessibility."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.theme: Theme = NORMAL

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        row = index.data(RowRole)
        chips = row.chips if isinstance(row, UnitRow) else index.data(ChipsRole)
        if not chips:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        self._draw_chips(painter, option.rect, QFont(opt.font), chips)

    def _draw_chips(
        self, painter: QPainter, cell: QRect, font: QFont, chips: list[tuple[str, str]]
    ) -> None:
        """The chips left to right in ``cell``; the last that does not fit is elided."""
        theme = self.theme
        fm = QFontMetrics(font)
        pad_x = max(4, fm.height() // 3)
        gap = max(3, fm.height() // 4)
        rect = cell.adjusted(gap, 3, -gap, -3)
        h = min(rect.height(), fm.height() + 6)
        y = rect.top() + (rect.height() - h) / 2
        x = float(rect.left())
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if font.strikeOut():
            font.setStrikeOut(False)
        painter.setFont(font)
        text_colour = QColor(theme.chip_text)
        for key, label in chips:
            width = fm.horizontalAdvance(label) + 2 * pad_x
            if x + width > rect.right() + 1:
                remaining = rect.right() - x
                if remaining < fm.horizontalAdvance("…") + 2 * pad_x:
                    break
                label = fm.elidedText(
                    label, Qt.TextElideMode.ElideRight, int(remaining - 2 * pad_x)
                )
                width = int(remaining)
            box = QRectF(x, y, width, h)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(theme.chips.get(key, theme.muted)))
            painter.drawRoundedRect(box, h / 2.5, h / 2.5)
            painter.setPen(text_colour)
            painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), label)
            x += width + gap
            if x >= rect.right():
                break
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        size = super().sizeHint(option, index)
        chips = index.data(ChipsRole) or ()
        if chips:
            fm = QFontMetrics(option.font)
            pad = max(4, fm.height() // 3)
            gap = max(3, fm.height() // 4)
            width = sum(fm.horizontalAdvance(label) + 2 * pad + gap for _k, label in chips)
            size.setWidth(max(size.width(), width + gap))
        return size
