"""The Status column's delegate: each status a rounded, coloured chip with its label, left to
right; in a row made taller for them (``UnitTable.fit_rows``) the chips that do not fit on a
line go on the next."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem, QWidget

from ui.panels.battle_model import ChipsRole, RowRole, UnitRow
from ui.panels.row_delegate import RowDelegate
from ui.panels.theme import NORMAL, Theme

Index = QModelIndex | QPersistentModelIndex
#: A chip placed: its line, its left edge and width in the line, its label as shown.
_Placed = tuple[int, int, int, str]


def chip_spacing(fm: QFontMetrics) -> tuple[int, int]:
    """A chip's padding on each side of its label, and the gap between chips (and at the
    cell's edges), in the font of ``fm``."""
    return max(4, fm.height() // 3), max(3, fm.height() // 4)


def chips_width(fm: QFontMetrics, labels: Iterable[str]) -> int:
    """The width a cell needs to show chips of ``labels`` whole, gaps included."""
    pad, gap = chip_spacing(fm)
    return gap + sum(fm.horizontalAdvance(label) + 2 * pad + gap for label in labels)


def chip_height(fm: QFontMetrics, line: int) -> int:
    """A chip's height in a row of one line ``line`` pixels high: its text and a little air,
    within the row's margins (3 pixels above and below, and the grid line)."""
    return min(line - 7, fm.height() + 6)


def chips_row_height(fm: QFontMetrics, line: int, lines: int) -> int:
    """The height of a row whose chips take ``lines`` lines, one line's row being ``line``."""
    _pad, gap = chip_spacing(fm)
    return line + (lines - 1) * (chip_height(fm, line) + gap)


def _flow(fm: QFontMetrics, width: int, labels: Iterable[str], lines: int) -> list[_Placed]:
    """Where chips of ``labels`` go in ``width`` pixels (inside the cell's gaps) on at most
    ``lines`` lines: ``(line, x, width, label as shown)``. A chip that does not fit whole on
    its line starts the next; on the last line (or alone on its line) it ends in "…", and on
    the last line those after it are not drawn."""
    pad, gap = chip_spacing(fm)
    ellipsis = fm.horizontalAdvance("…") + 2 * pad
    placed: list[_Placed] = []
    line, x = 0, 0
    for label in labels:
        w = fm.horizontalAdvance(label) + 2 * pad
        if x > 0 and x + w > width and line + 1 < lines:
            line, x = line + 1, 0
        shown = label
        if x + w > width:
            remaining = width - x
            if remaining < ellipsis:
                break
            shown = fm.elidedText(label, Qt.TextElideMode.ElideRight, remaining - 2 * pad)
            w = remaining
        placed.append((line, x, w, shown))
        x += w + gap
        if x >= width and line + 1 >= lines:
            break
    return placed


def chip_lines(fm: QFontMetrics, width: int, labels: Sequence[str]) -> int:
    """How many lines chips of ``labels`` take in a cell ``width`` pixels wide, each whole
    (but one wider than the cell)."""
    _pad, gap = chip_spacing(fm)
    placed = _flow(fm, width - 2 * gap, labels, max(1, len(labels)))
    return placed[-1][0] + 1 if placed else 1


def chip_boxes(
    fm: QFontMetrics, cell: QRect, chips: Sequence[tuple[str, str]], line: int = 0
) -> list[tuple[QRectF, str, str]]:
    """Where each of ``chips`` (key, label) is drawn in ``cell``, with the label as shown:
    left to right on as many lines as the cell's height holds (``line``: the height of a
    row of one line; 0, the cell's), the lines centred upright in the cell. The last that
    does not fit whole ends in "…", and those after it (or one with no room for a letter and
    "…") are not drawn."""
    _pad, gap = chip_spacing(fm)
    line = line or cell.height() + 1
    rect = cell.adjusted(gap, 3, -gap, -3)
    h = max(1, min(rect.height(), chip_height(fm, line)))
    lines = 1 + max(0, (cell.height() + 1 - line) // (h + gap))
    placed = _flow(fm, rect.width(), (label for _key, label in chips), lines)
    used = placed[-1][0] + 1 if placed else 1
    top = rect.top() + (rect.height() - (used * (h + gap) - gap)) / 2
    keys = [key for key, _label in chips]
    return [
        (QRectF(rect.left() + x, top + n * (h + gap), w, h), keys[i], shown)
        for i, (n, x, w, shown) in enumerate(placed)
    ]


class StatusChipDelegate(RowDelegate):
    """Paints ``ChipsRole`` as chips over the cell the style draws (its background, the
    selection); the cell's text (``DisplayRole``) stays for tests, copy and accessibility."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.theme: Theme = NORMAL
        #: The height of a row of one line (the table's rows); a taller row's chips wrap.
        self.line = 0

    def set_theme(self, theme: Theme, line: int = 0) -> None:
        self.theme = theme
        self.line = line

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
        """The chips left to right in ``cell``, on as many lines as its row is tall for; the
        last that does not fit is elided."""
        theme = self.theme
        fm = QFontMetrics(font)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if font.strikeOut():
            font.setStrikeOut(False)
        painter.setFont(font)
        text_colour = QColor(theme.chip_text)
        for box, key, label in chip_boxes(fm, cell, chips, self.line):
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
