"""The battle panel's delegate (unit table, log): a cell from its row's record.

Qt's delegate asks the model for about seven roles per cell on every paint (display, font,
colours, alignment, check state, decoration...). This one asks once per cell for
:data:`~ui.panels.battle_model.RowRole` (the row's record, made by the model when the row
changes) and fills the style option from it; the style then draws the cell as it draws any
item (selection, focus, elision). A model without records gets Qt's own questions.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex
from PySide6.QtGui import QFontMetrics, QPalette
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

from ui.panels.battle_model import LineRow, RowRole, UnitRow

Index = QModelIndex | QPersistentModelIndex

_HAS_DISPLAY = QStyleOptionViewItem.ViewItemFeature.HasDisplay


class RowDelegate(QStyledItemDelegate):
    """Fills a cell's style option from its row's record (:class:`UnitRow`,
    :class:`LineRow`); see the module docstring."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:
        row = index.data(RowRole)
        if isinstance(row, UnitRow):
            c = index.column()
            text, font, colour, align = (
                row.texts[c],
                row.fonts[c],
                row.colours[c],
                row.align_flags[c],
            )
        elif isinstance(row, LineRow):
            text, font, colour, align = row.text, row.font, row.foreground, row.align_flag
        else:
            super().initStyleOption(option, index)
            return
        if isinstance(index, QModelIndex):  # as Qt's delegate sets it (views pass these)
            option.index = index
        if font is not None:  # the model's fonts are whole fonts (the panel's, changed)
            option.font = font
            option.fontMetrics = QFontMetrics(font)
        option.displayAlignment = align
        option.palette.setColor(QPalette.ColorRole.Text, colour)
        if text:
            option.features |= _HAS_DISPLAY
            option.text = text
        if row.background_brush is not None:
            option.backgroundBrush = row.background_brush
