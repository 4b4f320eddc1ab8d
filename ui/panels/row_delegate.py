"""The battle panel's delegate (unit table, log): paints a cell from its row's record.

Qt's default delegate asks the model for about seven roles per cell on every paint (display,
font, colours, alignment, check state, decoration...) and lays the text out with a
``QTextLayout``; on a table of 30 visible rows that is most of a repaint. This delegate asks
once per cell for :data:`~ui.panels.battle_model.RowRole` (the row's record, kept by the model
until that row changes), fills the background and draws the text with the cell's font,
colour and alignment, laid out and elided as Qt's delegate does it, once per text and cell
size (kept until the theme changes). Where Qt rounds a line's centre its own way, each kind
of line is checked once against the style's own drawing, so the pixels stay Qt's; a line
that cannot be matched, a selected or focused cell, and any cell of a model without records,
are painted by Qt's delegate, so selection and focus look as they always did.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRect, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QGlyphRun,
    QImage,
    QPainter,
    QPalette,
    QTextLayout,
    QTextOption,
)
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from ui.panels.battle_model import LEFT_ALIGN, LineRow, RowRole, UnitRow

Index = QModelIndex | QPersistentModelIndex

#: States painted by Qt's own delegate (the selection's colours, the focus frame).
#: As plain ints: a test of flags costs no enum objects (this runs for every cell painted).
_QT_PAINTS = (QStyle.StateFlag.State_Selected | QStyle.StateFlag.State_HasFocus).value
_ENABLED = QStyle.StateFlag.State_Enabled.value
#: More laid out texts than this (many resizes) and the memory starts again.
_LAID_KEPT = 4096


class RowDelegate(QStyledItemDelegate):
    """Paints rows from their records (:class:`UnitRow`, :class:`LineRow`); see the module
    docstring."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._laid: dict[tuple[str, int, int, int, int], tuple[Shaped, int, int] | None] = {}
        self._margin: int | None = None
        self._nudges: dict[tuple[str, int, int, float, float, bool], int | None] = {}

    def forget(self) -> None:
        """The fonts or the style changed: measure again."""
        self._laid.clear()
        self._nudges.clear()
        self._margin = None

    def record(self, option: QStyleOptionViewItem, index: Index) -> UnitRow | LineRow | None:
        """The row's record when this delegate paints the cell itself, else ``None``."""
        state = option.state.value
        if state & _QT_PAINTS or not state & _ENABLED:
            return None
        row = index.data(RowRole)
        return row if isinstance(row, (UnitRow, LineRow)) else None

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        row = self.record(option, index)
        if row is None:
            super().paint(painter, option, index)
            return
        rect: QRect = option.rect
        drawn = (
            self.draw_line(painter, option, rect, row)
            if isinstance(row, LineRow)
            else self.draw_cell(painter, option, rect, row, index.column())
        )
        if not drawn:
            super().paint(painter, option, index)

    def draw_line(
        self, painter: QPainter, option: QStyleOptionViewItem, rect: QRect, row: LineRow
    ) -> bool:
        """A line across the table in ``rect``: its background, its text at the left.
        ``False``: its text is Qt's delegate's to paint (over the background drawn)."""
        if row.background is not None:
            painter.fillRect(rect, row.background)
        return self.draw_text(painter, option, rect, row.text, row.font, row.foreground, LEFT_ALIGN)

    def draw_cell(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        rect: QRect,
        row: UnitRow,
        column: int,
    ) -> bool:
        """A unit row's cell in ``rect``: the row's background, the column's text.
        ``False``: its text is Qt's delegate's to paint (over the background drawn)."""
        if row.background is not None:
            painter.fillRect(rect, row.background)
        text = row.texts[column]
        return not text or self.draw_text(
            painter, option, rect, text, row.fonts[column], row.colours[column], row.aligns[column]
        )

    def draw_text(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        rect: QRect,
        text: str,
        font: QFont | None,
        colour: QColor,
        align: int,
    ) -> bool:
        """``text`` in ``rect`` as Qt's delegate draws it: within the style's text margins,
        elided at the right, laid out once and kept (``font`` ``None``: the view's font).
        ``False``: this text is Qt's delegate's to paint (see ``_lay_out``)."""
        # The record's fonts live as long as the model's theme, and the view's font is the
        # same for every cell: ``forget`` comes with a new theme.
        key = (text, 0 if font is None else id(font), rect.width(), rect.height(), align)
        if key in self._laid:
            laid = self._laid[key]
        else:
            if len(self._laid) >= _LAID_KEPT:
                self._laid.clear()
            view_font = option.font
            laid = self._laid[key] = self._lay_out(
                option, text, view_font if font is None else font.resolve(view_font), rect, align
            )
        if laid is None:
            return False
        shaped, dx, dy = laid
        painter.setPen(colour)
        _draw(painter, QPointF(rect.x() + dx, rect.y() + dy), shaped)
        return True

    def _lay_out(
        self, option: QStyleOptionViewItem, text: str, font: QFont, rect: QRect, align: int
    ) -> tuple[Shaped, int, int] | None:
        """The text laid out as ``QCommonStyle`` lays out an item's text (one line, elided at
        the right when too wide, centred vertically on its rounded height), with its offset
        from the cell's top left corner."""
        if self._margin is None:
            widget = option.widget
            style = widget.style() if widget is not None else None
            self._margin = (
                (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1)
                if style is not None
                else 3
            )
        box = rect.adjusted(self._margin, 0, -self._margin, 0)
        text_option = _text_option(align)
        layout = _one_line(text, font, text_option, box.width())
        # Centred on the height of the whole text, also when it is drawn cut short.
        height = layout.boundingRect().size().toSize().height()
        shown = text
        if layout.lineAt(0).naturalTextWidth() > box.width():
            shown = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, box.width())
            layout = _one_line(shown, font, text_option, box.width())
        top = (box.height() - height) // 2
        # Qt's rounding of that centre depends on the line's fractional ascent and descent (a
        # symbol from a fallback font changes them): for each such line in such a cell, one
        # text is checked against the style's own drawing of it; where no placement gives
        # the same pixels (``None``), Qt's delegate paints the cell.
        first = layout.lineAt(0)
        runs = _shaped(layout, font)  # what is drawn: shaped once, here
        kind = (
            font.key(),
            rect.height(),
            align,
            first.ascent(),
            first.descent(),
            shown is not text,
        )
        if kind in self._nudges:
            nudge = self._nudges[kind]
        else:
            nudge = self._nudges[kind] = _nudge(
                option, text, font, rect, align, runs, self._margin, top
            )
        return None if nudge is None else (runs, self._margin, top + nudge)


def _nudge(
    option: QStyleOptionViewItem,
    text: str,
    font: QFont,
    rect: QRect,
    align: int,
    runs: Shaped,
    left: int,
    top: int,
) -> int | None:
    """The vertical correction (0, 1 or -1 pixel) that makes the text's ``runs`` drawn at
    ``(left, top)`` the same pixels as the style's own drawing of ``text`` in such a cell;
    ``None`` if there is none."""
    width, height = rect.width(), rect.height()
    black = QColor("black")

    def picture(draw: Callable[[QPainter], None]) -> QImage:
        image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
        image.setDotsPerMeterX(dots_x)  # the view's resolution: the same pixels per point
        image.setDotsPerMeterY(dots_y)
        image.fill(QColor("white"))
        painter = QPainter(image)
        painter.setPen(black)
        draw(painter)
        painter.end()
        return image

    widget = option.widget
    style = widget.style() if widget is not None else None
    if style is None or widget is None:
        return None
    dots_x = round(widget.logicalDpiX() / 0.0254)
    dots_y = round(widget.logicalDpiY() / 0.0254)
    item = QStyleOptionViewItem(option)
    item.rect = QRect(0, 0, width, height)
    item.text = text
    item.font = font
    item.fontMetrics = QFontMetrics(font)
    item.displayAlignment = Qt.AlignmentFlag(align)
    item.features = QStyleOptionViewItem.ViewItemFeature.HasDisplay
    item.textElideMode = Qt.TextElideMode.ElideRight
    item.backgroundBrush = QBrush()
    item.palette.setColor(QPalette.ColorRole.Text, black)

    def styled(painter: QPainter) -> None:
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, widget)

    theirs = picture(styled)
    for nudge in (0, 1, -1):

        def ours(painter: QPainter, n: int = nudge) -> None:
            _draw(painter, QPointF(left, top + n), runs)

        if picture(ours) == theirs:
            return nudge
    return None


#: A text ready to draw: its glyph runs (shaped once), or its layout when the font draws lines
#: through or under it (a dead unit's struck-out name), which glyph runs draw otherwise.
Shaped = list[QGlyphRun] | QTextLayout


def _shaped(layout: QTextLayout, font: QFont) -> Shaped:
    if font.strikeOut() or font.underline() or font.overline():
        return layout
    return layout.glyphRuns()


def _draw(painter: QPainter, at: QPointF, shaped: Shaped) -> None:
    """Draw a text at ``at``: glyph runs as they were shaped (drawing a layout shapes its text
    again each time)."""
    if isinstance(shaped, QTextLayout):
        shaped.draw(painter, at)
        return
    for run in shaped:
        painter.drawGlyphRun(at, run)


@functools.lru_cache(maxsize=16)
def _text_option(align: int) -> QTextOption:
    """How an item's text is laid out: one line, left to right, aligned so."""
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.ManualWrap)
    option.setTextDirection(Qt.LayoutDirection.LeftToRight)
    option.setAlignment(Qt.AlignmentFlag(align))
    return option


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
