"""The Status column's delegate: each status a rounded, coloured chip with its label."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem, QWidget

from ui.panels.battle_model import ChipsRole, RowRole, UnitRow
from ui.panels.row_delegate import RowDelegate
from ui.panels.theme import NORMAL, Theme

Index = QModelIndex | QPersistentModelIndex


def chip_spacing(fm: QFontMetrics) -> tuple[int, int]:
    """A chip's padding on each side of its label, and the gap between chips (and at the
    cell's edges), in the font of ``fm``."""
    return max(4, fm.height() // 3), max(3, fm.height() // 4)


def chips_width(fm: QFontMetrics, labels: Iterable[str]) -> int:
    """The width a cell needs to show chips of ``labels`` whole, gaps included."""
    pad, gap = chip_spacing(fm)
    return gap + sum(fm.horizontalAdvance(label) + 2 * pad + gap for label in labels)


def chip_boxes(
    fm: QFontMetrics, cell: QRect, chips: Iterable[tuple[str, str]]
) -> list[tuple[QRectF, str, str]]:
    """Where each of ``chips`` (key, label) is drawn in ``cell``, left to right, with the
    label as shown: the last that does not fit whole ends in "…", and those after it (or one
    with no room for a letter and "…") are not drawn."""
    pad_x, gap = chip_spacing(fm)
    rect = cell.adjusted(gap, 3, -gap, -3)
    h = min(rect.height(), fm.height() + 6)
    y = rect.top() + (rect.height() - h) / 2
    x = float(rect.left())
    boxes: list[tuple[QRectF, str, str]] = []
    for key, label in chips:
        width = fm.horizontalAdvance(label) + 2 * pad_x
        shown = label
        if x + width > rect.right() + 1:
            remaining = rect.right() - x
            if remaining < fm.horizontalAdvance("…") + 2 * pad_x:
                break
            shown = fm.elidedText(label, Qt.TextElideMode.ElideRight, int(remaining - 2 * pad_x))
            width = int(remaining)
        boxes.append((QRectF(x, y, width, h), key, shown))
        x += width + gap
        if x >= rect.right():
            break
    return boxes


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
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if font.strikeOut():
            font.setStrikeOut(False)
        painter.setFont(font)
        text_colour = QColor(theme.chip_text)
        for box, key, label in chip_boxes(fm, cell, chips):
            h = box.height()
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(theme.chips.get(key, theme.muted)))
            painter.drawRoundedRect(box, h / 2.5, h / 2.5)
            painter.setPen(text_colour)
            painter.drawText(box, int(Qt.AlignmentFlag.AlignCenter), label)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        size = super().sizeHint(option, index)
        chips = index.data(ChipsRole) or ()
        if chips:
            width = chips_width(QFontMetrics(option.font), (label for _k, label in chips))
            size.setWidth(max(size.width(), width))
        return size
