"""The battle panel paints its tables from what the model keeps, and looks as Qt paints them.

The unit table's cells are painted from one row record per cell (``RowRole``) instead of
Qt's seven questions per cell; the pictures must stay those Qt's own delegate makes, pixel
for pixel, in both looks, with the current row selected, a dead unit, Close Combat chips and
names cut short in a narrow window. An Undo changes its log line in place: a selected line
stays selected.
"""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QStyledItemDelegate, QTableView

from brikdesk.domain.battle import ActionUse, Status
from brikdesk.services import Services
from tests.ui.battle_tables import Table, make_panel
from ui.models.table import IdRole
from ui.panels import BattlePanel
from ui.panels.battle_model import STATUS
from ui.panels.chips import StatusChipDelegate


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
    """The same table painted by Qt's own delegate (and the chips through the style)."""
    table = panel.table
    rows, chips = table.itemDelegate(), table.itemDelegateForColumn(STATUS)
    plain, styled = QStyledItemDelegate(table), _ChipsThroughTheStyle(table)
    styled.set_theme(panel.theme)
    table.setItemDelegate(plain)
    table.setItemDelegateForColumn(STATUS, styled)
    try:
        return _picture(panel)
    finally:
        table.setItemDelegate(rows)
        table.setItemDelegateForColumn(STATUS, chips)


@pytest.mark.parametrize("table_mode", [False, True])
@pytest.mark.parametrize("width", [1300, 640])
def test_the_unit_table_looks_as_qt_paints_it(qtbot, panel: BattlePanel, table_mode: bool,
                                              width: int) -> None:
    panel.set_table_mode(table_mode, remember=False)
    panel.resize(width, 800)
    qtbot.wait(1)
    ours = _picture(panel)
    assert ours == _as_qt_paints_it(panel)
    if width < 1000:  # the narrow window cuts the longest texts: elided, as Qt elides them
        header = panel.model.index(0, 0)
        fm = panel.table.fontMetrics()
        assert fm.horizontalAdvance(header.data()) > panel.table.viewport().width()


def test_a_repaint_asks_the_model_once_per_cell(qtbot, panel: BattlePanel,
                                                monkeypatch) -> None:
    """Each cell of a unit row is painted from its row's record, asked once (a selected row
    is painted by Qt's delegate, for the selection's colours: none is selected here)."""
    table, model = panel.table, panel.model
    table.selectionModel().clear()
    asked: Counter[int] = Counter()
    unit_row = model._unit_row

    def counted(uid: int):
        asked[uid] += 1
        return unit_row(uid)

    monkeypatch.setattr(model, "_unit_row", counted)
    table.viewport().repaint()
    assert dict(asked) == {uid: model.columnCount() for uid in model.unit_ids()}


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
