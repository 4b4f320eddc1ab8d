"""The battle panel's tables (the units, the log) painted row by row from the rows' records.

Qt's table view paints cell by cell, and for each cell it calls into Python five times: the
model's ``index`` (its ``rowCount`` and ``columnCount``), its ``flags``, the delegate's
``paint`` and the model's ``data`` for the row's record. On a laptop screen that is 180 cells
and 900 calls, most of the time End Turn or Undo spent painting. :class:`RowPainter` paints
the same pixels with one look-up per row: each row's record (:class:`UnitRow`, or a
:class:`LineRow` across the table: a player's header, a line of the log) straight from the
model, its cells drawn by the delegates' own drawing code (texts laid out once), then the grid
as Qt draws it (a line under each row and right of each column, none across a header row).
Only the rows under the region Qt asks to repaint are painted.

- A row that looks as it did before (Undo, the next turn, scrolling back) is drawn from the
  picture kept of that look (a line of the log: of that look in that alternate colour; a new
  line moves every line to the other colour, its Undo moves them back).
- Selected, current and hovered rows, and rows without a record, are drawn as Qt draws
  them: the style's row panel, then the item with the same state flags, drawn from the
  record. The style lays a text out again at every paint; around a text laid out once, its
  panel, selection and focus frame give the same pixels, which is checked once for each kind
  of cell before it is drawn so. A selected or current row without the keyboard focus has a
  picture of its own (selected, enabled); with the focus, or under the pointer, it is painted
  straight (the focus frame is blended onto the selection, which in a picture comes out a
  shade different at one pixel).

``tests/ui/test_table_paint.py`` and ``test_unit_table_paint.py`` compare with Qt's own view
and delegates pixel for pixel: both looks, header rows, a dead unit, chips, selection, focus,
hover, a hidden column, partial repaints, a scrolled table, rows kept still under the pointer
and the log. The one difference: Qt's view sometimes leaves the first pixel of each column
line on a header row's top line (at the top of the table, or with rows shown out of order);
here the header row is whole.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from typing import Any, cast

from PySide6.QtCore import (
    QAbstractItemModel,
    QEvent,
    QItemSelectionRange,
    QLine,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QHoverEvent,
    QImage,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QPixmap,
    QRegion,
)
from PySide6.QtWidgets import (
    QHeaderView,
    QStyle,
    QStyleOptionFocusRect,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from ui.panels.battle_model import LEFT_ALIGN, STATUS, LineRow, RowRecords, UnitRow
from ui.panels.chips import StatusChipDelegate
from ui.panels.row_paint import RowDelegate
from ui.pictures import PictureTaker

_SELECTED = QStyle.StateFlag.State_Selected
_FOCUS = QStyle.StateFlag.State_HasFocus
_HOVER = QStyle.StateFlag.State_MouseOver
_ENABLED = QStyle.StateFlag.State_Enabled
_ACTIVE = QStyle.StateFlag.State_Active
_ITEM_ENABLED = Qt.ItemFlag.ItemIsEnabled
_HAS_DISPLAY = QStyleOptionViewItem.ViewItemFeature.HasDisplay
_ALTERNATE = QStyleOptionViewItem.ViewItemFeature.Alternate
#: Rows' pictures kept (about 80 kB each on a laptop screen).
_PICTURES_KEPT = 160
_MISSING = object()  # no picture kept (a kept ``None`` means: paint that row cell by cell)
#: Cells' options kept (the current row's cells in their few states).
_OPTIONS_KEPT = 256


class RowPaintedTable(QTableView):
    """A table view whose viewport its ``row_painter`` paints (``None``: Qt's view does, cell
    by cell); it tells the painter which cell is under the pointer and when the look
    changes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.row_painter: RowPainter | None = None

    def changeEvent(self, event: QEvent) -> None:
        if (
            event.type()
            in (QEvent.Type.StyleChange, QEvent.Type.FontChange, QEvent.Type.PaletteChange)
            and self.row_painter is not None
        ):
            self.row_painter.forget()  # the rows' pictures were painted in the old look
        super().changeEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = self.row_painter
        if painter is None or not painter.paint(event):
            super().paintEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:
        painter = self.row_painter
        kind = event.type()
        if painter is not None:
            if kind in (QEvent.Type.HoverEnter, QEvent.Type.HoverMove) and isinstance(
                event, QHoverEvent
            ):
                painter.hover = QPersistentModelIndex(self.indexAt(event.position().toPoint()))
            elif kind == QEvent.Type.HoverLeave:
                painter.hover = QPersistentModelIndex()
        return super().viewportEvent(event)


class RowPainter:
    """Paints ``table``'s viewport from its model's row records; see the module. A table of
    :class:`LineRow` (the battle log: one column, alternating colours, no grid) is painted
    the same way, a line per row."""

    def __init__(
        self,
        table: QTableView,
        model: RowRecords,
        rows: RowDelegate,
        chips: StatusChipDelegate | None = None,
    ) -> None:
        # The table keeps its painter: the painter only refers to it (no reference cycle
        # between a widget and the pictures, left for Python's collector at exit).
        self._table = weakref.ref(table)
        self.model = model
        self.rows = rows
        self.chips = chips
        #: The cell under the pointer, as the view tracks its own (out of reach): its row is
        #: painted the way Qt paints it, so a style's hover look stays.
        self.hover = QPersistentModelIndex()
        #: For each kind of cell (style, state, font, size...): whether drawing it around a
        #: text laid out once gives the style's pixels.
        self._quick_ok: dict[tuple[object, ...], bool] = {}
        #: The items' options (what Qt's delegate would ask the model) of the cells drawn
        #: this way, by look, column, state and size, with their verdict.
        self._options: dict[tuple[object, ...], tuple[QStyleOptionViewItem, bool]] = {}
        #: Unit rows' pictures by look and geometry, least recently used first.
        self._pictures: dict[tuple[object, ...], QPixmap | None] = {}
        self._seen_once: set[tuple[object, ...]] = set()  # looks painted once, straight

    @property
    def table(self) -> QTableView:
        table = self._table()
        if table is None:
            raise RuntimeError("the table of this row painter is gone")
        return table

    def paint(self, event: QPaintEvent) -> bool:
        """Paint the part of the viewport ``event`` asks for; ``False``: nothing painted, the
        view should (a disabled table: its delegates leave it to Qt's)."""
        table, model = self.table, self.model
        vh, hh = table.verticalHeader(), table.horizontalHeader()
        base = QStyleOptionViewItem()
        table.initViewItemOption(base)
        if not base.state & _ENABLED:
            return False
        count = vh.count()
        columns = [
            (c, hh.sectionViewportPosition(c), hh.sectionSize(c))
            for c in range(hh.count())
            if not hh.isSectionHidden(c)
        ]
        if count == 0 or not columns:
            return True
        region = event.region()
        clip = region.boundingRect()
        right = hh.length() - hh.offset() - 1  # the last pixel of the last column
        bottom = vh.length() - vh.offset() - 1  # and of the last row
        shown: set[int] = set()  # the rows (in the order shown) under each part of the region
        for part in cast(Iterable[QRect], region):  # its rectangles (the stubs miss __iter__)
            first = vh.visualIndexAt(part.top())
            last = vh.visualIndexAt(min(part.bottom(), bottom))
            if first < 0:
                continue
            shown.update(range(first, (count - 1 if last < 0 else last) + 1))
        if not shown:
            return True
        start = columns[0][1]
        span_width = sum(w for _c, _x, w in columns)
        grid = 1 if table.showGrid() else 0  # the line under and right of each cell
        alternate = table.alternatingRowColors()
        selection = table.selectionModel()
        # The rows the selection touches, read once: asking Qt whether a row is selected
        # asks the model for the flags of each of its cells.
        parts = cast(Iterable[QItemSelectionRange], selection.selection())  # (no __iter__ stub)
        touched = {r for part in parts for r in range(part.top(), part.bottom() + 1)}
        chosen: dict[int, bool] = {}  # and each of those rows asked once

        def selected(r: int) -> bool:
            if r not in touched:
                return False
            found = chosen.get(r)
            if found is None:
                found = chosen[r] = selection.isRowSelected(r)
            return found

        current = table.currentIndex()
        focus = table.hasFocus() or table.viewport().hasFocus()
        hover_row = self.hover.row() if self.hover.isValid() else -1
        rows: list[tuple[int, int, int, UnitRow | LineRow | None]] = []  # row, top, height
        shown_rows: list[int] = []  # their places, as shown
        # Rows of one height, in the model's order, none hidden (the usual case): each row's
        # place follows from its number, without asking the header row by row.
        height = vh.defaultSectionSize()
        if (
            not vh.sectionsMoved()
            and not vh.sectionsHidden()
            and vh.minimumSectionSize() >= height
            and vh.length() == count * height
        ):
            offset = vh.offset()
            for r in sorted(shown):
                shown_rows.append(r)
                rows.append((r, r * height - offset, height, model.record(r)))
        else:
            for visual in sorted(shown):
                r = vh.logicalIndex(visual)
                if not vh.isSectionHidden(r):
                    shown_rows.append(visual)
                    rows.append(
                        (r, vh.sectionViewportPosition(r), vh.sectionSize(r), model.record(r))
                    )
        viewport = table.viewport()
        ground = viewport.palette().brush(viewport.backgroundRole())
        # What a row's picture depends on besides the row: the columns, the ground, the pixel
        # ratio, whether the window is active (the selection's colours).
        frame = (
            (
                tuple((x - start, w) for _c, x, w in columns),
                ground.color().rgba(),
                viewport.devicePixelRatioF(),
                bool(base.state & _ACTIVE),
            )
            if ground.style() == Qt.BrushStyle.SolidPattern
            else None
        )
        current_row = current.row()

        def qt_frame(r: int) -> tuple[object, ...] | None:
            """The picture frame of a row the style draws (selected or current): with its
            selection and whether it is enabled. None: painted straight, when the pointer is
            over it or it has the keyboard focus (the focus frame is blended onto what is
            under it, which a picture gets a shade different)."""
            if frame is None or r == hover_row or (focus and r == current_row):
                return None
            return frame + ((selected(r), bool(model.flags(model.index(r, 0)) & _ITEM_ENABLED)),)

        painter = QPainter(viewport)
        # As the view does: the header rows (spans) first, then the rest clipped off them.
        spans = QRegion()
        for visual, (r, y, h, record) in zip(shown_rows, rows, strict=True):
            if not isinstance(record, LineRow):
                continue
            size = QSize(span_width - grid, h - grid)
            spans += QRect(QPoint(start, y), size)
            odd = alternate and visual & 1 == 1
            index = (
                model.index(r, 0) if r in (hover_row, current_row) or selected(r) else None
            )  # painted the way Qt does
            line_row: LineRow = record

            def line(
                p: QPainter,
                at: QPoint,
                record: LineRow = line_row,
                odd: bool = odd,
                index: QModelIndex | None = index,
                r: int = r,
                size: QSize = size,
            ) -> bool:
                cell = QRect(at, size)
                if index is not None or not self._line(p, base, cell, record, odd):
                    self._as_qt(
                        p, base, cell, index or model.index(r, 0), current, focus, record, odd=odd
                    )
                return True

            # A line in alternate colours has a picture for each colour (the log: a new line
            # moves every line to the other colour; its Undo moves them back).
            self._row(
                painter,
                QPoint(start, y),
                size,
                frame if index is None else qt_frame(r),
                ("line", record.look(), odd),
                line,
                once=index is not None,
            )
        if not grid and all(isinstance(record, LineRow) for _r, _y, _h, record in rows):
            painter.end()  # lines only, no grid (the log): nothing more to paint
            return True
        painter.setClipRegion(QRegion(viewport.rect()) - spans)
        for r, y, h, record in rows:
            if isinstance(record, LineRow):
                continue
            as_qt = record is None or r in (hover_row, current_row) or selected(r)
            if isinstance(record, UnitRow) and grid:
                kept = qt_frame(r) if as_qt else frame
                picture = (
                    None if kept is None else self._kept((("unit", record.look), h - grid, kept))
                )
                if picture is not None:  # the row as it looked before: the usual case
                    painter.drawPixmap(start, y, picture)
                    continue
                indexes = [model.index(r, c) for c, _x, _w in columns] if as_qt else None
                unit_row: UnitRow = record

                def unit(
                    p: QPainter,
                    at: QPoint,
                    record: UnitRow = unit_row,
                    h: int = h,
                    r: int = r,
                    indexes: list[QModelIndex] | None = indexes,
                ) -> bool:
                    for n, (c, x, w) in enumerate(columns):
                        cell = QRect(at.x() + x - start, at.y(), w - grid, h - grid)
                        if indexes is None and self._cell(p, base, cell, record, c):
                            continue
                        if indexes is None and p is not painter:
                            return False  # a text Qt's delegate paints: no picture of it
                        self._as_qt(
                            p,
                            base,
                            cell,
                            model.index(r, c) if indexes is None else indexes[n],
                            current,
                            focus,
                            record,
                        )
                    return True

                if self._row(
                    painter,
                    QPoint(start, y),
                    QSize(span_width, h - grid),
                    kept,
                    ("unit", record.look),
                    unit,
                    once=as_qt,
                ):
                    continue
            for c, x, w in columns:
                cell = QRect(x, y, w - grid, h - grid)
                if as_qt or record is None or not self._cell(painter, base, cell, record, c):
                    self._as_qt(
                        painter,
                        base,
                        cell,
                        model.index(r, c),
                        current,
                        focus,
                        record if isinstance(record, UnitRow) else None,
                    )
        if table.showGrid() and rows:
            self._grid(
                painter, base, [(y, h) for _r, y, h, _rec in rows], columns, clip, right, bottom
            )
        painter.end()
        return True

    def forget(self) -> None:
        """The fonts, colours or style changed: the rows' pictures are out of date."""
        self._pictures.clear()
        self._seen_once.clear()
        self._quick_ok.clear()
        self._options.clear()

    def _row(
        self,
        painter: QPainter,
        at: QPoint,
        size: QSize,
        frame: tuple[object, ...] | None,
        key: tuple[object, ...],
        draw: Callable[[QPainter, QPoint], bool],
        *,
        once: bool = False,
    ) -> bool:
        """Paint a row at ``at`` with ``draw`` (given a painter and where to draw): from its
        picture, made the first time the row looks like this (``key``) in this ``frame``; or
        straight onto the viewport when there is no frame (a ground that is not one colour).
        ``once``: a look often seen only once (the selected row, the log's newest line) is
        painted straight the first time, and gets its picture when it is seen again.
        ``False``: nothing painted (``draw`` said the row must be painted cell by cell)."""
        if frame is None:
            return draw(painter, at)
        full = (key, size.height(), frame)
        if once and full not in self._pictures and full not in self._seen_once:
            if len(self._seen_once) >= _PICTURES_KEPT:
                self._seen_once.clear()
            self._seen_once.add(full)
            return draw(painter, at)
        picture = self._picture(full, size, draw)
        if picture is None:
            return False
        painter.drawPixmap(at, picture)
        return True

    def _kept(self, key: tuple[object, ...]) -> QPixmap | None:
        """The picture kept for ``key`` (``(look, height, frame)``), if there is one."""
        found = self._recent(key)
        return None if found is _MISSING else cast(QPixmap | None, found)

    def _recent(self, key: tuple[object, ...]) -> object:
        """What is kept for ``key`` (a picture, or ``None``: that row is painted cell by
        cell), now the most recently used; ``_MISSING``: nothing."""
        found: object = self._pictures.pop(key, _MISSING)
        if found is not _MISSING:
            self._pictures[key] = cast(QPixmap | None, found)  # the most recently used last
        return found

    def _picture(
        self, key: tuple[object, ...], size: QSize, draw: Callable[[QPainter, QPoint], bool]
    ) -> QPixmap | None:
        """The picture kept for ``key``, else painted now (``None``: ``draw`` refused). A row
        that looks again as it did (Undo, the next turn, scrolling back) is drawn from its
        picture."""
        found = self._recent(key)
        if found is not _MISSING:
            return cast(QPixmap | None, found)
        pictures = self._pictures
        frame = cast(tuple[Any, ...], key[-1])
        ratio: float = frame[2]
        picture = QPixmap(round(size.width() * ratio), round(size.height() * ratio))
        picture.setDevicePixelRatio(ratio)
        # On the viewport's own ground, as the row is painted over it on the screen.
        picture.fill(QColor.fromRgba(frame[1]))
        painter = QPainter(picture)
        whole = draw(painter, QPoint(0, 0))
        painter.end()
        if len(pictures) >= _PICTURES_KEPT:
            del pictures[next(iter(pictures))]  # the least recently used
        pictures[key] = picture if whole else None
        return pictures[key]

    def _line(
        self,
        painter: QPainter,
        base: QStyleOptionViewItem,
        cell: QRect,
        record: LineRow,
        odd: bool = False,
    ) -> bool:
        """A line across the table (a player's header, a line of the log), on the style's
        alternate colour when ``odd``; ``False``: its text is Qt's to paint."""
        if odd:
            self._row_panel(painter, base, cell, odd=True)
        return self.rows.draw_line(painter, base, cell, record)

    def _cell(
        self, painter: QPainter, base: QStyleOptionViewItem, cell: QRect, record: UnitRow, c: int
    ) -> bool:
        """A unit's cell; ``False``: its text is Qt's to paint (over the same background)."""
        delegate = self.chips if c == STATUS and self.chips is not None else self.rows
        return delegate.draw_cell(painter, base, cell, record, c)

    def _as_qt(
        self,
        painter: QPainter,
        base: QStyleOptionViewItem,
        cell: QRect,
        index: QModelIndex,
        current: QModelIndex,
        focus: bool,
        record: UnitRow | LineRow | None = None,
        *,
        odd: bool = False,
    ) -> None:
        """The cell as the table view paints it: the style's row panel, then the item as Qt's
        delegate draws it, with the selection, hover, enabled and focus states the view gives
        (a unit's cell or a line drawn from its ``record`` instead of the model's answers)."""
        table = self.table
        state = base.state
        selection = table.selectionModel()
        if selection is not None and selection.isSelected(index):
            state |= _SELECTED
        if self.hover.isValid() and self.hover == index:
            state |= _HOVER
        if not self.model.flags(index) & _ITEM_ENABLED:
            state &= ~_ENABLED
        if focus and current.isValid() and index == current:
            state |= _FOCUS
        style = table.style()
        c = index.column()
        if record is None:
            opt = _item_option(base, cell, state, odd)
            style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewRow, opt, painter, table)
            table.itemDelegateForIndex(index).paint(painter, opt, index)
            return
        # What Qt's delegate would ask the model for, from the record.
        if isinstance(record, UnitRow):
            look: object = record.look
            text = "" if c == STATUS else record.texts[c]
            font, colour, align = record.fonts[c], record.colours[c], record.aligns[c]
        else:
            look, text, font, colour, align = (
                record.look(),
                record.text,
                record.font,
                record.foreground,
                LEFT_ALIGN,
            )
        key = (look, c, state.value, cell.width(), cell.height(), odd)
        kept = self._options.get(key)
        if kept is None:
            opt = _item_option(base, cell, state, odd)
            if font is not None:
                opt.font = font.resolve(opt.font)
                opt.fontMetrics = QFontMetrics(opt.font)
            opt.displayAlignment = Qt.AlignmentFlag(align)
            opt.palette.setBrush(QPalette.ColorRole.Text, QBrush(colour))
            opt.features |= _HAS_DISPLAY
            opt.text = text
            if record.background is not None:
                opt.backgroundBrush = QBrush(record.background)
            # The style's own drawing lays the text out again each time; the same pixels from
            # the style's panel and focus frame around the text laid out once, where that was
            # checked to be so for such a cell.
            kind = (
                style,
                state.value,
                opt.font.key(),
                cell.width(),
                cell.height(),
                align,
                record.background is not None,
                c == STATUS and isinstance(record, UnitRow),
            )
            verdict = self._quick_ok.get(kind)
            if verdict is None:
                verdict = self._quick_ok[kind] = self._same_quick(base, opt, cell, font, align)
            if len(self._options) >= _OPTIONS_KEPT:
                self._options.clear()
            kept = self._options[key] = (opt, verdict)
        opt, verdict = kept
        opt.rect = cell  # the same cell elsewhere (a row moved, the table scrolled)
        opt.index = index
        style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewRow, opt, painter, table)
        if not verdict or not self._quick_cell(painter, base, opt, cell, font, align):
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, table)
        if c == STATUS and self.chips is not None and isinstance(record, UnitRow):
            self.chips.draw_row_chips(painter, opt, cell, record)

    def _quick_cell(
        self,
        painter: QPainter,
        base: QStyleOptionViewItem,
        opt: QStyleOptionViewItem,
        cell: QRect,
        font: QFont | None,
        align: int,
    ) -> bool:
        """What the style's item drawing does for a text cell (its panel: background and
        selection; the text in the selection's or the cell's colour, clipped to the cell;
        the focus frame), with the text laid out once (``RowDelegate.draw_text``).
        ``False``: nothing drawn, the text is the style's to lay out."""
        table = self.table
        style = table.style()
        state = opt.state
        group = (
            QPalette.ColorGroup.Disabled
            if not state & _ENABLED
            else QPalette.ColorGroup.Normal
            if state & _ACTIVE
            else QPalette.ColorGroup.Inactive
        )
        text = opt.text
        painter.save()
        painter.setClipRect(cell, Qt.ClipOperation.IntersectClip)
        style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, opt, painter, table)
        ok = True
        if text:
            colour = opt.palette.color(
                group,
                QPalette.ColorRole.HighlightedText
                if state & _SELECTED
                else QPalette.ColorRole.Text,
            )
            # Laid out (and checked once) as an unselected cell's text: the same place.
            ok = self.rows.draw_text(painter, base, cell, text, font, colour, align)
        if ok and state & _FOCUS:
            frame = QStyleOptionFocusRect()
            frame.initFrom(table)
            frame.state = (
                state | QStyle.StateFlag.State_KeyboardFocusChange | QStyle.StateFlag.State_Item
            )
            frame.palette = opt.palette
            frame.fontMetrics = opt.fontMetrics
            frame.direction = opt.direction
            frame.rect = style.subElementRect(
                QStyle.SubElement.SE_ItemViewItemFocusRect, opt, table
            )
            frame.backgroundColor = opt.palette.color(
                QPalette.ColorGroup.Normal if state & _ENABLED else QPalette.ColorGroup.Disabled,
                QPalette.ColorRole.Highlight if state & _SELECTED else QPalette.ColorRole.Window,
            )
            style.drawPrimitive(QStyle.PrimitiveElement.PE_FrameFocusRect, frame, painter, table)
        painter.restore()
        return ok

    def _same_quick(
        self,
        base: QStyleOptionViewItem,
        opt: QStyleOptionViewItem,
        cell: QRect,
        font: QFont | None,
        align: int,
    ) -> bool:
        """Whether :meth:`_quick_cell` gives the style's own pixels for such a cell: both
        drawn once into pictures and compared."""
        table = self.table
        ratio = table.viewport().devicePixelRatioF()
        local = QStyleOptionViewItem(opt)
        local.rect = QRect(QPoint(0, 0), cell.size())

        def picture(quick: bool) -> QImage | None:
            image = QImage(
                round(cell.width() * ratio),
                round(cell.height() * ratio),
                QImage.Format.Format_ARGB32_Premultiplied,
            )
            image.setDevicePixelRatio(ratio)
            image.fill(QColor("white"))
            p = QPainter(image)
            done = True
            if quick:
                done = self._quick_cell(p, base, local, local.rect, font, align)
            else:
                table.style().drawControl(QStyle.ControlElement.CE_ItemViewItem, local, p, table)
            p.end()
            return image if done else None

        quick = picture(True)
        return quick is not None and quick == picture(False)

    def _row_panel(
        self, painter: QPainter, base: QStyleOptionViewItem, cell: QRect, *, odd: bool
    ) -> None:
        """The style's panel under a row's cell (the alternate colour of odd rows)."""
        opt = _item_option(base, cell, base.state, odd)
        self.table.style().drawPrimitive(
            QStyle.PrimitiveElement.PE_PanelItemViewRow, opt, painter, self.table
        )

    def _grid(
        self,
        painter: QPainter,
        base: QStyleOptionViewItem,
        drawn: list[tuple[int, int]],
        columns: list[tuple[int, int, int]],
        clip: QRect,
        right: int,
        bottom: int,
    ) -> None:
        """A line under each row and right of each column, in the style's grid colour, up to
        the last row and column (the painter is clipped off the header rows, as the view's
        is)."""
        table = self.table
        hint = table.style().styleHint(QStyle.StyleHint.SH_Table_GridLineColor, base, table)
        colour = QColor.fromRgba(hint & 0xFFFFFFFF)
        left, end = clip.left(), min(clip.right(), right)
        top, low = clip.top(), min(clip.bottom(), bottom)
        style = table.gridStyle()
        if style == Qt.PenStyle.SolidLine:
            # A solid line one pixel wide is a rectangle one pixel wide: filled, it is the
            # same pixels, and far quicker to clip off the header rows than a line.
            for y, h in drawn:
                painter.fillRect(left, y + h - 1, end - left + 1, 1, colour)
            for _c, x, w in columns:
                painter.fillRect(x + w - 1, top, 1, low - top + 1, colour)
            return
        painter.setPen(QPen(colour, 1, style))
        painter.drawLines(
            [QLine(left, y + h - 1, end, y + h - 1) for y, h in drawn]
            + [QLine(x + w - 1, top, x + w - 1, low) for _c, x, w in columns]
        )


def _item_option(
    base: QStyleOptionViewItem, cell: QRect, state: QStyle.StateFlag, odd: bool
) -> QStyleOptionViewItem:
    """The view's item option for ``cell`` in ``state`` (``odd``: in the alternate colour)."""
    opt = QStyleOptionViewItem(base)
    opt.rect = cell
    opt.state = state
    if odd:
        opt.features |= _ALTERNATE
    return opt


class SteadyHeader(QHeaderView):
    """A table's column header drawn from a picture of itself while nothing it shows has
    changed.

    End Turn and Undo move every row of the unit table; Qt then repaints its column header,
    whose sections are the same as before (QHeaderView's own drawing: about 0.2 ms). After a
    paint of its own, the header takes a picture of itself (when the event loop is idle, as
    Qt renders it), and draws from it until anything it shows may change: the sections
    (sizes, order, count, visibility), the model's header texts or columns, the sort
    indicator, the font, palette or style, the size, the scroll offset, the window's active
    state. Under the pointer (a hovered or pressed section) it paints itself.

    Its size hint is kept the same way. Qt works it out again at every layout of the table
    (End Turn, Undo: each section's text measured, with a call into Python for each), though
    only the sections, their texts, the sort indicator, the font and the style change it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self._picture: QPixmap | None = None
        self._painted_for: tuple[object, ...] | None = None
        self._taker = PictureTaker()  # its pictures of itself
        self._take_soon = False
        self._hint: tuple[tuple[object, ...], QSize] | None = None
        for signal in (
            self.sectionResized,
            self.sectionMoved,
            self.sectionCountChanged,
            self.geometriesChanged,
            self.sortIndicatorChanged,
        ):
            signal.connect(self.forget)

    def forget(self, *_args: object) -> None:
        """What the header shows may have changed: its next paint is its own, and its size
        hint is worked out again."""
        self._picture = None
        self._hint = None

    def _hint_for(self) -> tuple[object, ...]:
        """What the size hint depends on besides the model's header texts (whose changes
        :meth:`forget` hears of): the sections shown, the sort indicator, the font, the style,
        the icons' size and the texts' alignment."""
        count = self.count()
        hidden = (
            tuple(i for i in range(count) if self.isSectionHidden(i))
            if self.hiddenSectionCount()
            else ()
        )
        return (
            count,
            hidden,
            self.isSortIndicatorShown(),
            self.sortIndicatorSection(),
            self.sortIndicatorOrder(),
            self.font().key(),
            id(self.style()),
            self.iconSize(),
            self.defaultAlignment(),
            self.logicalDpiY(),
        )

    def sizeHint(self) -> QSize:
        key = self._hint_for()
        if self._hint is None or self._hint[0] != key:
            self._hint = (key, super().sizeHint())
        return QSize(self._hint[1])

    def setModel(self, model: QAbstractItemModel | None) -> None:
        old = self.model()
        if old is not None:
            for signal in _model_signals(old):
                signal.disconnect(self.forget)
        if old is not None:
            old.layoutChanged.disconnect(self._layout_changed)
        super().setModel(model)
        if model is not None:
            for signal in _model_signals(model):
                signal.connect(self.forget)
            model.layoutChanged.connect(self._layout_changed)
        self.forget()

    def _layout_changed(
        self,
        _parents: object = None,
        hint: QAbstractItemModel.LayoutChangeHint = QAbstractItemModel.LayoutChangeHint.NoLayoutChangeHint,
    ) -> None:
        """Rows moved (the hint says so): the columns are as they were. Else they may not."""
        if hint != QAbstractItemModel.LayoutChangeHint.VerticalSortHint:
            self.forget()

    def changeEvent(self, event: QEvent) -> None:
        self.forget()
        super().changeEvent(event)

    def _look(self) -> tuple[object, ...]:
        viewport = self.viewport()
        return (
            viewport.size(),
            viewport.devicePixelRatioF(),
            self.offset(),
            self.isActiveWindow(),
            self.isEnabled(),
        )

    def paintEvent(self, event: QPaintEvent) -> None:
        if self._taker.taking:
            super().paintEvent(event)
            return
        if self.underMouse():
            self.forget()
        elif self._picture is not None and self._painted_for == self._look():
            painter = QPainter(self.viewport())
            painter.drawPixmap(0, 0, self._picture)
            painter.end()
            return
        super().paintEvent(event)
        if not self.underMouse() and not self._take_soon:
            self._take_soon = True
            QTimer.singleShot(0, self, self._take)

    def _take(self) -> None:
        """The header's picture of itself, as it paints now."""
        self._take_soon = False
        viewport = self.viewport()
        if self.underMouse() or not viewport.isVisible():
            return
        look = self._look()
        self._picture = self._taker.take(viewport, Qt.GlobalColor.transparent)
        self._painted_for = look


def _model_signals(model: QAbstractItemModel) -> tuple[Any, ...]:
    """The signals of ``model`` after which a column header may show something else."""
    return (
        model.headerDataChanged,
        model.modelReset,
        model.columnsInserted,
        model.columnsRemoved,
        model.columnsMoved,
    )
