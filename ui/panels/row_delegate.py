"""The battle panel's delegate (unit table, log): a cell from its row's record.

Qt's delegate asks the model for about seven roles per cell on every paint (display, font,
colours, alignment, check state, decoration...). This one asks the model once per cell for the
row's record (:class:`~ui.panels.battle_model.UnitRow` or :class:`LineRow`, made by the model
when the row changes), through the model's ``record(row)`` called directly, and fills the style
option from it; the style then draws the cell as it draws any item (selection, focus,
elision). A model without records gets Qt's own questions.

A cell's text colour comes with a palette shared by every cell of that colour (the view's
palette with that Text colour), so a cell does not copy the view's palette to change one
colour of it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex
from PySide6.QtGui import QColor, QFontMetrics, QPalette
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem, QWidget

from brikdesk.cache import LruCache
from ui.panels.battle_model import LineRow, UnitRow

Index = QModelIndex | QPersistentModelIndex
#: A model's ``record(row)``: the row's display record, or ``None``.
Records = Callable[[int], UnitRow | LineRow | None]

_HAS_DISPLAY = QStyleOptionViewItem.ViewItemFeature.HasDisplay
_TEXT = QPalette.ColorRole.Text
_Features = QStyleOptionViewItem.ViewItemFeature


@functools.lru_cache(maxsize=8)
def _with_display(features: _Features) -> _Features:
    """``features`` with HasDisplay (an enum's ``|`` is Python code: 2 us a cell)."""
    return features | _HAS_DISPLAY


class RowDelegate(QStyledItemDelegate):
    """Fills a cell's style option from its row's record (:class:`UnitRow`,
    :class:`LineRow`); see the module docstring."""

    def __init__(self, parent: QWidget | None = None, records: Records | None = None) -> None:
        super().__init__(parent)
        self.records = records
        #: The view's palette with one Text colour, by (palette, colour); a theme has a
        #: dozen colours.
        self._palettes: LruCache[tuple[int, int], QPalette] = LruCache(64)
        #: Metrics of the records' fonts (a few per theme), by font.
        self._metrics: LruCache[str, QFontMetrics] = LruCache(16)

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:
        records = self.records
        row = records(index.row()) if records is not None else None
        if type(row) is UnitRow:
            c = index.column()
            text, font, colour, align = (
                row.texts[c],
                row.fonts[c],
                row.colours[c],
                row.align_flags[c],
            )
        elif type(row) is LineRow:
            text, font, colour, align = row.text, row.font, row.foreground, row.align_flag
        else:
            super().initStyleOption(option, index)
            return
        if isinstance(index, QModelIndex):  # as Qt's delegate sets it (views pass these)
            option.index = index
        if font is not None:  # the model's fonts are whole fonts (the panel's, changed)
            option.font = font
            option.fontMetrics = self._metrics.get(font.key(), lambda: QFontMetrics(font))
        option.displayAlignment = align
        option.palette = self._text_palette(option.palette, colour)
        if text:
            option.features = _with_display(option.features)
            option.text = text
        if row.background_brush is not None:
            option.backgroundBrush = row.background_brush

    def _text_palette(self, palette: QPalette, colour: QColor) -> QPalette:
        def make() -> QPalette:
            made = QPalette(palette)
            made.setColor(_TEXT, colour)
            return made

        return self._palettes.get((palette.cacheKey(), colour.rgba()), make)
