"""The battle panel paints its tables from what the model keeps, and looks as Qt paints them.

The unit table's rows are painted from one record per row (``ui/panels/table_paint.py``),
the log's lines from one record per line (``RowRole``), instead of Qt's seven questions per
cell; the pictures must stay those Qt's own delegate makes, pixel
for pixel, in both looks, with the current row selected, a dead unit, Close Combat chips and
names cut short in a narrow window, and so must the log's lines. An Undo changes its log
line in place: a selected line stays selected.
"""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QStyledItemDelegate, QTableView

from brikdesk.domain.battle import ActionUse, Status
from brikdesk.services import Services
from tests.ui.battle_tables import Table, assert_looks_as_qt, make_panel
from ui.models.table import IdRole
from ui.panels import BattlePanel
from ui.panels.battle_model import STATUS, LineRow, RowRole
from ui.panels.chips import StatusChipDelegate
from ui.panels.row_paint import RowDelegate
from ui.panels.table_paint import RowPaintedTable


class _ChipsThroughTheStyle(StatusChipDelegate):
    """The chips as they were painted before row records: every cell through the style."""

    def record(self, option, index):
        return None


@pytest.fixture
def panel(qtbot, sv: Services, table: Table, qsettings: QSettings) -> BattlePanel:
    panel = make_panel(qtbot, sv, table.battle_id, qsettings)
    ids = table.ids
    panel.close_combat_attack(ids["Red Knight"], ids["Blue Knight"])
    panel.spend(ids["Red Rifle"], ActionUse.ATTACK)
    panel.set_status(ids["Red Pike"], Status.DEAD)
    panel.table.select_unit(ids["Blue Rifle"])
    return panel


def _picture(panel: BattlePanel) -> QImage:
    return panel.table.viewport().grab().toImage()


def _as_qt_paints_it(panel: BattlePanel) -> QImage:
    """The same table painted by Qt's view, cell by cell, with Qt's own delegate (and the
    chips through the style)."""
    table = panel.table
    rows, chips = table.itemDelegate(), table.itemDelegateForColumn(STATUS)
    plain, styled = QStyledItemDelegate(table), _ChipsThroughTheStyle(table)
    styled.set_theme(panel.theme)
    table.setItemDelegate(plain)
    table.setItemDelegateForColumn(STATUS, styled)
    painter, table.row_painter = table.row_painter, None
    try:
        return _picture(panel)
    finally:
        table.row_painter = painter
        table.setItemDelegate(rows)
        table.setItemDelegateForColumn(STATUS, chips)


@pytest.mark.parametrize("table_mode", [False, True])
@pytest.mark.parametrize("width", [1300, 640])
def test_the_unit_table_looks_as_qt_paints_it(
    qtbot, panel: BattlePanel, table_mode: bool, width: int
) -> None:
    panel.set_table_mode(table_mode, remember=False)
    panel.resize(width, 800)
    qtbot.wait(1)
    assert_looks_as_qt(panel.table, _picture(panel), _as_qt_paints_it(panel))
    if width < 1000:  # the narrow window cuts the longest texts: elided, as Qt elides them
        header = panel.model.index(0, 0)
        fm = panel.table.fontMetrics()
        assert fm.horizontalAdvance(header.data()) > panel.table.viewport().width()


def test_a_repaint_asks_the_model_once_per_row(qtbot, panel: BattlePanel, monkeypatch) -> None:
    """Each unit row is painted from its record, asked once for the whole row (the current
    row is painted the way Qt paints it, for the selection's colours and the focus: there is
    none here)."""
    table, model = panel.table, panel.model
    table.selectionModel().clear()
    table.setCurrentIndex(model.index(-1, -1))
    asked: Counter[int] = Counter()
    unit_row = model._unit_row

    def counted(uid: int):
        asked[uid] += 1
        return unit_row(uid)

    monkeypatch.setattr(model, "_unit_row", counted)
    table.viewport().repaint()
    assert dict(asked) == {uid: 1 for uid in model.unit_ids()}


def test_an_undone_line_of_the_log_stays_selected(qtbot, panel: BattlePanel) -> None:
    log = panel.findChild(QTableView, "battleLog")
    top = log.model().index(0, 0)
    log.setCurrentIndex(top)
    event_id = top.data(IdRole)
    panel.undo()
    current = log.currentIndex()
    assert current.isValid() and current.data(IdRole) == event_id
    assert current.data().startswith("↶ undone")
    panel.redo()
    assert log.currentIndex().data(IdRole) == event_id
    assert not log.currentIndex().data().startswith("↶ undone")


@pytest.mark.parametrize("table_mode", [False, True])
def test_the_log_looks_as_qt_paints_it(qtbot, panel: BattlePanel, table_mode: bool) -> None:
    """Its lines, cut short where the pane is narrow, an undone one in grey italics, the
    alternate colour of every other line, and the selected one."""
    panel.undo()
    panel.set_table_mode(table_mode, remember=False)
    log = panel.findChild(QTableView, "battleLog")
    log.setCurrentIndex(log.model().index(1, 0))
    qtbot.wait(1)
    assert log.model().index(0, 0).data().startswith("↶ undone")
    ours = log.viewport().grab().toImage()
    assert isinstance(log, RowPaintedTable) and log.row_painter is not None
    lines = log.itemDelegate()
    log.setItemDelegate(QStyledItemDelegate(log))  # Qt's view and delegate, line by line
    painter, log.row_painter = log.row_painter, None
    try:
        assert ours == log.viewport().grab().toImage()
    finally:
        log.row_painter = painter
        log.setItemDelegate(lines)


class _Lines(QStandardItemModel):
    """Lines of text with their row records, as the panel's models give them."""

    def __init__(self, texts: list[str]) -> None:
        super().__init__(len(texts), 1)
        self.records = []
        for i, text in enumerate(texts):
            item = QStandardItem(text)
            item.setBackground(QBrush(QColor("#fff8e1")))
            item.setForeground(QBrush(QColor("#1b1f23")))
            self.setItem(i, 0, item)
            self.records.append(LineRow(text, "", QColor("#fff8e1"), QColor("#1b1f23"), None))

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role == RowRole:
            return self.records[index.row()]
        return super().data(index, role)


@pytest.mark.parametrize("points", [8.0, 10.5, 12.2, 13.95, 17.1])
def test_lines_look_as_qt_paints_them_in_any_font_size(qtbot, points: float) -> None:
    """Qt centres a line on its fractional height and rounds it its own way (a symbol from a
    fallback font, such as the active player's ▶, changes it): whatever the font size, bold
    or not, the row height, cut short or not, the pixels are Qt's."""
    texts = [
        "R1 Red  ·  Red Rifle (Red) attacks",
        "Blue Knight",
        "▶  Red  ·  ACTIVE   —   0 of 2 Actions ready",
        "Minifig d6 — a very long type name",
    ]
    for bold in (False, True):
        for height in (24, 25, 28, 37):
            view = QTableView()
            qtbot.addWidget(view)
            font = QFont()
            font.setPointSizeF(points)
            font.setBold(bold)
            view.setFont(font)
            view.setWordWrap(False)
            view.setShowGrid(height % 2 == 0)
            view.horizontalHeader().hide()
            view.verticalHeader().hide()
            view.setModel(_Lines(texts))
            view.verticalHeader().setDefaultSectionSize(height)
            view.setColumnWidth(0, 230)
            view.resize(260, 200)
            view.show()
            view.setItemDelegate(RowDelegate(view))
            ours = view.viewport().grab().toImage()
            view.setItemDelegate(QStyledItemDelegate(view))
            assert ours == view.viewport().grab().toImage(), (points, bold, height)
