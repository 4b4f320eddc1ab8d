"""The unit table's delegate: paints a cell from its row's one display record.

Qt's default delegate asks the model for about seven roles per cell on every paint (display,
font, colours, alignment, check state, decoration...) and lays the text out with a
``QTextLayout``; on a table of 30 visible rows that is most of a repaint. This delegate asks
once per cell for :data:`~ui.panels.battle_model.RowRole` (the row's record, kept by the model
until that row changes), fills the background and draws the text with the cell's font,
colour and alignment, elided as Qt's delegate elides it (the elided texts are kept until the
theme or a column width changes). A selected or focused cell, and any cell of a model without
records, is painted by Qt's delegate, so selection and focus look as they always did.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRect, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QTextLayout, QTextOption
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from ui.panels.battle_model import GroupRow, RowRole, UnitRow

Index = QModelIndex | QPersistentModelIndex

#: States painted by Qt's own delegate (the selection's colours, the focus frame).
#: As plain ints: a test of flags costs no enum objects (this runs for every cell painted).
_QT_PAINTS = (QStyle.StateFlag.State_Selected | QStyle.StateFlag.State_HasFocus).value
_ENABLED = QStyle.StateFlag.State_Enabled.value
#: More laid out texts than this (many resizes) and the memory starts again.
_LAID_KEPT = 4096


class RowDelegate(QStyledItemDelegate):
    """Paints unit and player rows from their records; see the module docstring."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._laid: dict[tuple[str, int, int, int, int], tuple[QTextLayout, int, int]] = {}
        self._margin: int | None = None

    def forget(self) -> None:
        """The fonts or the style changed: measure again."""
        self._laid.clear()
        self._margin = None

    def record(self, option: QStyleOptionViewItem, index: Index) -> UnitRow | GroupRow | None:
        """The row's record when this delegate paints the cell itself, else ``None``."""
        state = option.state.value
        if state & _QT_PAINTS or not state & _ENABLED:
            return None
        row = index.data(RowRole)
        return row if isinstance(row, (UnitRow, GroupRow)) else None

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        row = self.record(option, index)
        if row is None:
            super().paint(painter, option, index)
            return
        rect: QRect = option.rect
        if isinstance(row, GroupRow):
            painter.fillRect(rect, row.background)
            self.draw_text(painter, option, rect, row.text, row.font, row.foreground,
                           int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter))
            return
        if row.background is not None:
            painter.fillRect(rect, row.background)
        c = index.column()
        text = row.texts[c]
        if text:
            self.draw_text(painter, option, rect, text, row.fonts[c], row.colours[c],
                           row.aligns[c])

    def draw_text(self, painter: QPainter, option: QStyleOptionViewItem, rect: QRect,
                  text: str, font: QFont | None, colour: QColor, align: int) -> None:
        """``text`` in ``rect`` as Qt's delegate draws it: within the style's text margins,
        elided at the right, laid out once and kept (``font`` ``None``: the view's font)."""
        # The record's fonts live as long as the model's theme, and the view's font is the
        # same for every cell: ``forget`` comes with a new theme.
        key = (text, 0 if font is None else id(font), rect.width(), rect.height(), align)
        laid = self._laid.get(key)
        if laid is None:
            if len(self._laid) >= _LAID_KEPT:
                self._laid.clear()
            view_font = option.font
            laid = self._laid[key] = self._lay_out(
                option, text, view_font if font is None else font.resolve(view_font), rect,
                align)
        layout, dx, dy = laid
        painter.setPen(colour)
        layout.draw(painter, QPointF(rect.x() + dx, rect.y() + dy))

    def _lay_out(self, option: QStyleOptionViewItem, text: str, font: QFont, rect: QRect,
                 align: int) -> tuple[QTextLayout, int, int]:
        """The text laid out as ``QCommonStyle`` lays out an item's text (one line, elided at
        the right when too wide, centred vertically on its rounded height), with its offset
        from the cell's top left corner."""
        if self._margin is None:
            widget = option.widget
            style = widget.style() if widget is not None else None
            self._margin = (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None,
                                              widget) + 1) if style is not None else 3
        box = rect.adjusted(self._margin, 0, -self._margin, 0)
        text_option = QTextOption()
        text_option.setWrapMode(QTextOption.WrapMode.ManualWrap)
        text_option.setTextDirection(Qt.LayoutDirection.LeftToRight)
        text_option.setAlignment(Qt.AlignmentFlag(align))
        layout = _one_line(text, font, text_option, box.width())
        # Centred on the height of the whole text, also when it is drawn cut short.
        height = layout.boundingRect().size().toSize().height()
        if layout.lineAt(0).naturalTextWidth() > box.width():
            shown = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight,
                                                  box.width())
            layout = _one_line(shown, font, text_option, box.width())
        return layout, self._margin, (box.height() - height) // 2


def _one_line(text: str, font: QFont, option: QTextOption, width: int) -> QTextLayout:
    layout = QTextLayout(text, font)
    layout.setTextOption(option)
    layout.beginLayout()
    line = layout.createLine()
    if line.isValid():
        line.setLineWidth(width)
        line.setPosition(QPointF(0, 0))
    layout.endLayout()
    return layout
