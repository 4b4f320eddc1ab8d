"""The unit table painted row by row from its records (issue 14: End Turn and Undo spend no
more time in the UI than in the tracker) looks exactly as Qt's view paints it, cell by cell:
each picture is taken both ways and compared pixel for pixel."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QSettings, Qt
from PySide6.QtGui import QHoverEvent, QImage, QPainter, QPaintEvent, QRegion
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle

from brikdesk.domain.battle import ActionUse, Status
from brikdesk.services import Services
from tests.ui.battle_tables import Table, assert_looks_as_qt, make_panel
from ui.panels import BattlePanel
from ui.panels.table_paint import RowPainter, SteadyHeader
from ui.panels.unit_table import UnitTable


@pytest.fixture
def panel(qtbot, sv: Services, table: Table, qsettings: QSettings) -> BattlePanel:
    return make_panel(qtbot, sv, table.battle_id, qsettings)


def picture(table: UnitTable, region: QRegion | None = None) -> QImage:
    """The viewport as it paints now (only ``region`` of it, over white, when given)."""
    viewport = table.viewport()
    if region is None:
        return viewport.grab().toImage()
    image = QImage(viewport.size(), QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    viewport.render(painter, QPoint(), region)
    painter.end()
    return image


def both_ways(table: UnitTable, region: QRegion | None = None) -> tuple[QImage, QImage]:
    """The viewport painted by the row painter, and by Qt's view cell by cell."""
    ours = picture(table, region)
    painter, table.row_painter = table.row_painter, None
    try:
        theirs = picture(table, region)
    finally:
        table.row_painter = painter
    return ours, theirs


def assert_same(table: UnitTable, region: QRegion | None = None) -> None:
    assert_looks_as_qt(table, *both_ways(table, region))


@pytest.fixture
def spent_and_hurt(panel: BattlePanel, table: Table) -> Iterator[BattlePanel]:
    """Red Rifle spent its Action, Red Pike is Disrupted, the Knights are in Close Combat and
    Blue Pike is dead: every kind of cell, chip and font of the table."""
    ids = table.ids
    assert panel.spend(ids["Red Rifle"], ActionUse.ATTACK)
    assert panel.set_status(ids["Red Pike"], Status.DISRUPTED)
    assert panel.set_status(ids["Red Knight"], Status.IN_CLOSE_COMBAT, (ids["Blue Knight"],))
    assert panel.set_status(ids["Blue Pike"], Status.DEAD)
    yield panel


def test_the_row_painter_paints_the_table(panel: BattlePanel, monkeypatch) -> None:
    """The table is painted row by row from the records, not by Qt's view cell by cell: no
    delegate is asked to paint a cell, not even for the current row (drawn by the style from
    its record, as Qt's delegate would)."""
    painted: list[bool] = []
    real = RowPainter.paint

    def counting(self: RowPainter, event: QPaintEvent) -> bool:
        done = real(self, event)
        painted.append(done)
        return done

    monkeypatch.setattr(RowPainter, "paint", counting)
    asked: list[int] = []
    for delegate in (panel.table.rows, panel.table.chips):
        monkeypatch.setattr(delegate, "paint", lambda p, o, i: asked.append(i.row()))
    assert panel.table.currentIndex().row() >= 0
    panel.table.viewport().grab()
    assert painted == [True]
    assert asked == []


@pytest.mark.parametrize("table_mode", [False, True])
def test_every_kind_of_row_looks_as_qt_paints_it(
    panel: BattlePanel, spent_and_hurt, table: Table, table_mode: bool
) -> None:
    """Active and waiting rows, a player's header across the table, the dead (struck out),
    chips, and in table mode the hidden Type column and the larger rows."""
    panel.set_table_mode(table_mode, remember=False)
    QApplication.processEvents()
    assert panel.table.isColumnHidden(1) is table_mode
    assert_same(panel.table)
    assert panel.end_turn()
    assert_same(panel.table)


def test_a_row_that_looks_again_as_it_did_is_drawn_from_its_picture(
    panel: BattlePanel, spent_and_hurt, table: Table
) -> None:
    """End Turn changes every row; its Undo brings back rows that look as they did a moment
    ago: they are drawn from the pictures kept, and still look as Qt paints them. A new font
    paints them again."""
    t = panel.table
    painter = t.row_painter
    assert painter is not None
    t.viewport().grab()
    before = dict(painter._pictures)
    assert before  # the unit rows' pictures
    assert panel.end_turn()
    t.viewport().grab()
    after_end = len(painter._pictures)
    assert after_end > len(before)  # the rows look different now: new pictures
    assert panel.undo()
    assert_same(t)
    assert len(painter._pictures) == after_end  # ... and none after Undo: the old ones
    font = t.font()
    font.setPointSizeF(font.pointSizeF() + 2)
    t.setFont(font)
    assert painter._pictures == {}


class _CountingStyle(QProxyStyle):
    """The application's style, counting the items it draws."""

    def __init__(self) -> None:
        super().__init__()
        self.items = 0

    def drawControl(self, element, option, painter, widget=None):
        if element == QStyle.ControlElement.CE_ItemViewItem:
            self.items += 1
        super().drawControl(element, option, painter, widget)


def test_the_current_row_is_drawn_around_texts_laid_out_once(
    qtbot, panel: BattlePanel, spent_and_hurt, table: Table
) -> None:
    """The selected, focused row is drawn with the style's own selection and focus frame,
    around its texts laid out once: after a first check of each kind of cell against the
    style's item drawing, repainting it does not ask the style to lay out any text again,
    and it still looks as Qt paints it."""
    t = panel.table
    style = _CountingStyle()
    style.setParent(t)  # a widget does not own the style it is given: its table keeps it
    t.setStyle(style)
    t.setFocus()
    assert panel.select_unit(table.ids["Red Rifle"])
    t.viewport().grab()
    checked = style.items
    assert checked > 0  # each kind of cell checked once against the style's drawing
    style.items = 0
    t.viewport().grab()
    assert style.items == 0
    assert_same(t)


def test_selection_focus_and_hover_look_as_qt_paints_them(
    qtbot, panel: BattlePanel, spent_and_hurt, table: Table
) -> None:
    t = panel.table
    t.setFocus()
    assert panel.select_unit(table.ids["Red Pike"])
    assert_same(t)
    knight = t.visualRect(panel.model.index_of_unit(table.ids["Blue Knight"], 2)).center()
    QApplication.sendEvent(
        t.viewport(),
        QHoverEvent(QEvent.Type.HoverEnter, QPointF(knight), QPointF(knight), QPointF(-1, -1)),
    )
    assert t.row_painter is not None and t.row_painter.hover.row() == panel.model.row_of_unit(
        table.ids["Blue Knight"]
    )
    assert_same(t)
    QApplication.sendEvent(
        t.viewport(),
        QHoverEvent(QEvent.Type.HoverLeave, QPointF(-1, -1), QPointF(-1, -1), QPointF(knight)),
    )
    assert t.row_painter is not None and not t.row_painter.hover.isValid()
    panel.setEnabled(False)  # a disabled table is Qt's to paint
    assert_same(t)


def test_a_part_of_the_table_and_a_scrolled_table_look_as_qt_paints_them(
    qtbot, panel: BattlePanel, spent_and_hurt, table: Table
) -> None:
    """One row repainted alone (what Undo of an attack repaints), a band across two rows and
    a column, and a short table scrolled, with each row at the top in turn (the last one cut short
    at the top)."""
    t = panel.table
    row = t.visualRect(panel.model.index_of_unit(table.ids["Red Rifle"], 0))
    one_row = QRect(0, row.top(), t.viewport().width(), row.height())
    assert_same(t, QRegion(one_row))
    band = QRegion(QRect(40, row.top() + 5, 300, row.height() * 2)) + QRegion(
        QRect(t.columnViewportPosition(3) + 2, 0, 30, t.viewport().height())
    )
    assert_same(t, band)
    t.setFixedHeight(t.horizontalHeader().height() + 4 * t.rowHeight(0))  # a short table
    QApplication.processEvents()
    bar = t.verticalScrollBar()
    assert bar.maximum() >= 3
    tops = []
    for value in range(1, bar.maximum() + 1):  # a row at a time, each row at the top once
        bar.setValue(value)
        QApplication.processEvents()
        tops.append(t.rowViewportPosition(t.rowAt(0)))
        assert_same(t)
    assert tops[0] == 0 and tops[-1] < 0  # at the end, the last row ends at the bottom


def test_rows_kept_still_under_the_pointer_look_as_qt_paints_them(
    qtbot, panel: BattlePanel, table: Table
) -> None:
    """After End Turn under the pointer the rows are shown out of the model's order (the
    header keeps them where they were): the painter follows the order shown."""
    QApplication.sendEvent(panel.table.viewport(), QEvent(QEvent.Type.Enter))
    assert panel.end_turn()
    assert panel.still_rows.holding
    assert_same(panel.table)


def test_a_selected_row_without_the_focus_is_drawn_from_its_picture(
    qtbot, panel: BattlePanel, spent_and_hurt, table: Table
) -> None:
    """The current row while the organizer works elsewhere (the log, the header) has a
    picture of its own, selected; it looks as Qt paints it, and repainting it does not ask the
    style to draw its items again. With the focus back, it is painted straight again."""
    t = panel.table
    style = _CountingStyle()
    style.setParent(t)
    t.setStyle(style)
    assert panel.select_unit(table.ids["Red Rifle"])
    panel.log_pane.view.setFocus()
    assert not t.hasFocus()
    t.viewport().grab()
    style.items = 0
    t.viewport().grab()
    assert style.items == 0
    painter = t.row_painter
    assert painter is not None
    assert any(len(key[-1]) > 4 and key[-1][-1][0] for key in painter._pictures)  # selected
    assert_same(t)
    t.setFocus()
    assert_same(t)


def test_the_column_header_drawn_from_its_picture_looks_as_it_paints_itself(
    qtbot, panel: BattlePanel, table: Table
) -> None:
    """The unit table's column header takes a picture of itself and draws from it while its
    sections stay as they are (End Turn moves every row, not the columns); a resized column
    or a new look makes it paint itself again. Both ways give the same pixels."""
    header = panel.table.horizontalHeader()
    assert isinstance(header, SteadyHeader)
    viewport = header.viewport()

    def own() -> QImage:
        header._taking = True  # the header paints itself, as QHeaderView does
        try:
            return viewport.grab().toImage()
        finally:
            header._taking = False

    def drawn() -> QImage:
        qtbot.waitUntil(lambda: header._picture is not None)
        return viewport.grab().toImage()

    assert drawn() == own()
    picture = header._picture
    assert panel.end_turn()
    qtbot.wait(10)
    assert header._picture is picture  # End Turn left the columns as they were
    assert drawn() == own()
    model = panel.model
    model.layoutAboutToBeChanged.emit()
    model.layoutChanged.emit()  # a change the model does not say is only rows moving
    assert header._picture is None
    assert drawn() == own()
    header.resizeSection(0, header.sectionSize(0) + 30)
    assert header._picture is None
    wider = drawn()
    assert wider == own() and wider != picture.toImage()
    panel.set_table_mode(True, remember=False)  # a new font and colours
    assert header._picture is None
    assert drawn() == own()
