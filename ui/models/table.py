"""A table model over frozen summaries, with sorting and filtering done in Python.

Rows are frozen dataclasses from the services; each has an ``id``. Views remember selections by id
(``IdRole``). Sorting and filtering happen here, not in a ``QSortFilterProxyModel``: a proxy
compares rows through ``data()`` calls, one Python call per comparison, which makes sorting an
army of 10,000 units take several hundred milliseconds; sorting a Python list by a key function
takes a few. The model updates persistent indexes (selections) across sorts and filters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

IdRole = Qt.ItemDataRole.UserRole + 1
SortRole = Qt.ItemDataRole.UserRole + 2

Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class Column:
    """One column: its title, how to show a row, how to sort it, and optional extras."""

    title: str
    text: Callable[[Any], str]
    sort_key: Callable[[Any], Any] | None = None
    tooltip: Callable[[Any], str | None] | None = None
    align_right: bool = False
    width_hint: int = 0
    #: Views size the column to its longest text, up to this many average characters
    #: (``ui.widgets.common.fit_columns``); 0 leaves ``width_hint``.
    fit_chars: int = 0

    def natural_key(self, row: Any) -> tuple[str]:
        """How the column sorts without a ``sort_key``: by its text, ignoring case."""
        return _natural_key(self.text(row))


def _natural_key(text: str) -> tuple[str]:
    return (text.casefold(),)


class SummaryTableModel(QAbstractTableModel):
    """Rows of frozen summaries; ``set_rows`` reloads, ``sort`` and ``set_filter`` reorder."""

    def __init__(
        self,
        columns: Sequence[Column],
        parent: QObject | None = None,
        filter_text: Callable[[Any], str] | None = None,
    ) -> None:
        super().__init__(parent)
        self._columns = tuple(columns)
        self._rows: list[Any] = []
        self._view: list[int] = []
        self._filter = ""
        self._filter_text = filter_text
        self._sort_column = -1
        self._sort_order = Qt.SortOrder.AscendingOrder
        self._row_of_id: dict[Any, int] = {}
        self._haystack: list[str] | None = None

    # --- contents -----------------------------------------------------------------------
    @property
    def columns(self) -> tuple[Column, ...]:
        return self._columns

    def rows(self) -> list[Any]:
        """The rows as shown (filtered and sorted)."""
        return [self._rows[i] for i in self._view]

    def all_rows(self) -> list[Any]:
        return list(self._rows)

    def set_rows(self, rows: Sequence[Any]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self._haystack = None
        self._rebuild_view()
        self.endResetModel()

    def row_for(self, row_index: int) -> Any:
        return self._rows[self._view[row_index]]

    def row_of_id(self, item_id: Any) -> int:
        """Shown row number of the item with ``item_id`` (-1 if hidden or absent)."""
        return self._row_of_id.get(item_id, -1)

    def index_of_id(self, item_id: Any, column: int = 0) -> QModelIndex:
        r = self.row_of_id(item_id)
        return self.index(r, column) if r >= 0 else QModelIndex()

    def update_row(self, new_row: Any) -> bool:
        """Replace the row with the same id in place (no reset); False if it is not there."""
        for i, old in enumerate(self._rows):
            if old.id == new_row.id:
                self._rows[i] = new_row
                self._haystack = None
                shown = self._row_of_id.get(new_row.id, -1)
                if shown >= 0:
                    self.dataChanged.emit(
                        self.index(shown, 0), self.index(shown, len(self._columns) - 1)
                    )
                return True
        return False

    # --- sorting and filtering ----------------------------------------------------------
    def set_filter(self, text: str) -> None:
        text = text.strip().casefold()
        if text == self._filter:
            return
        self._filter = text
        self._relayout()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self._sort_column = column
        self._sort_order = order
        self._relayout()

    def _relayout(self) -> None:
        self.layoutAboutToBeChanged.emit()
        old_ids = [self._rows[i].id for i in self._view]
        persistent = self.persistentIndexList()
        self._rebuild_view()
        new_from: list[QModelIndex] = []
        new_to: list[QModelIndex] = []
        for p in persistent:
            new_from.append(QModelIndex(p))
            r = p.row()
            if 0 <= r < len(old_ids):
                nr = self._row_of_id.get(old_ids[r], -1)
                new_to.append(self.index(nr, p.column()) if nr >= 0 else QModelIndex())
            else:
                new_to.append(QModelIndex())
        self.changePersistentIndexList(new_from, new_to)
        self.layoutChanged.emit()

    def _rebuild_view(self) -> None:
        view = list(range(len(self._rows)))
        if self._filter:
            if self._haystack is None:
                if self._filter_text is not None:
                    self._haystack = [self._filter_text(r).casefold() for r in self._rows]
                else:
                    self._haystack = [
                        " ".join(c.text(r) for c in self._columns).casefold() for r in self._rows
                    ]
            hay = self._haystack
            needle = self._filter
            view = [i for i in view if needle in hay[i]]
        if 0 <= self._sort_column < len(self._columns):
            col = self._columns[self._sort_column]
            rows = self._rows
            key = col.sort_key or col.natural_key
            view.sort(
                key=lambda i: key(rows[i]), reverse=self._sort_order == Qt.SortOrder.DescendingOrder
            )
        self._view = view
        self._row_of_id = {self._rows[i].id: n for n, i in enumerate(view)}

    # --- QAbstractTableModel ------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._view)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self._columns):
            if role == Qt.ItemDataRole.DisplayRole:
                return self._columns[section].title
        elif orientation == Qt.Orientation.Vertical and role == Qt.ItemDataRole.DisplayRole:
            return section + 1
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        if not (0 <= r < len(self._view) and 0 <= c < len(self._columns)):
            return None
        row = self._rows[self._view[r]]
        col = self._columns[c]
        if role == Qt.ItemDataRole.DisplayRole:
            return col.text(row)
        if role == IdRole:
            return row.id
        if role == Qt.ItemDataRole.ToolTipRole:
            return col.tooltip(row) if col.tooltip else None
        if role == Qt.ItemDataRole.TextAlignmentRole and col.align_right:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == SortRole:
            return str(col.sort_key(row)) if col.sort_key else col.text(row)
        return self.extra_data(row, c, role)

    def extra_data(self, row: Any, column: int, role: int) -> Any:
        """Subclasses add colours, fonts, icons."""
        return None
