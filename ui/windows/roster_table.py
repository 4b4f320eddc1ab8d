"""The roster window's units table: unit types dropped from the catalog, and the selection by
unit id (the rows move with sorting and filtering; ids do not)."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent, QResizeEvent
from PySide6.QtWidgets import QTableView, QWidget

from brikdesk.domain.ids import UnitId
from brikdesk.services.roster import UnitRow
from ui.models.roster import NAME, UnitTableModel
from ui.models.table import IdRole
from ui.windows.unit_dialogs import dropped_unit_type

__all__ = ["RosterTable"]


class RosterTable(QTableView):
    """The units table. It takes unit types dragged from its campaign's catalog
    (``type_dropped(key)``) and says when its width changes (``width_changed``): the table's
    own handlers, not an event filter on it (a filter's window may be half gone while the
    table's last events arrive)."""

    type_dropped = Signal(str)
    width_changed = Signal()

    def __init__(self, model: UnitTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.campaign_id: int | None = None
        self.units = model
        self.setModel(model)
        self.setAcceptDrops(True)

    # -- dropped unit types -----------------------------------------------------------------

    def _take(self, event: QDropEvent) -> str | None:
        key = dropped_unit_type(event.mimeData(), self.campaign_id)
        if key is not None:
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
        else:
            event.ignore()
        return key

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        self._take(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        self._take(event)

    def dropEvent(self, event: QDropEvent) -> None:
        key = self._take(event)
        if key is not None:
            self.type_dropped.emit(key)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.width_changed.emit()

    # -- selection by id --------------------------------------------------------------------

    def selected_ids(self) -> list[UnitId]:
        sm = self.selectionModel()
        return [UnitId(int(i.data(IdRole))) for i in sm.selectedRows(NAME)]

    def selected_rows(self) -> list[UnitRow]:
        sm = self.selectionModel()
        rows = sorted(i.row() for i in sm.selectedRows(NAME))
        return [self.units.row_for(r) for r in rows]

    def current_id(self) -> UnitId | None:
        idx = self.currentIndex()
        return UnitId(int(idx.data(IdRole))) if idx.isValid() else None

    def current_row(self) -> UnitRow | None:
        idx = self.currentIndex()
        if not idx.isValid():
            return None
        row: UnitRow = self.units.row_for(idx.row())
        return row

    def select_ids(self, ids: Iterable[UnitId], current: UnitId | None) -> None:
        """Select the rows of these units (one range per run of rows), ``current`` current
        and scrolled to; quietly (one repaint, no signal per row)."""
        model = self.units
        rows = sorted(r for r in (model.row_of_id(i) for i in ids) if r >= 0)
        sm = self.selectionModel()
        selection = QItemSelection()
        last = model.columnCount() - 1
        runs: list[tuple[int, int]] = []  # contiguous runs: one range each
        for r in rows:
            if runs and r == runs[-1][1] + 1:
                runs[-1] = (runs[-1][0], r)
            else:
                runs.append((r, r))
        for start, end in runs:
            selection.select(model.index(start, 0), model.index(end, last))
        sm.blockSignals(True)
        sm.clearSelection()
        if current is not None and model.row_of_id(current) >= 0:
            sm.setCurrentIndex(
                model.index_of_id(current, NAME), QItemSelectionModel.SelectionFlag.NoUpdate
            )
        sm.select(selection, QItemSelectionModel.SelectionFlag.Select)
        sm.blockSignals(False)
        self.viewport().update()
        if current is not None and model.row_of_id(current) >= 0:
            self.scrollTo(model.index_of_id(current, NAME))
