"""In-place editing on top of ``SummaryTableModel``.

The model never changes its own rows: ``setData`` hands the typed text to ``commit(row, field,
text)``, which calls a service (one transaction, undoable); the window then reloads the rows the
bus says changed. ``commit`` returns True when the edit was stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt

from ui.models.table import Column, SummaryTableModel

Index = QModelIndex | QPersistentModelIndex
#: ``commit(row, field, text) -> stored?``
Commit = Callable[[Any, str, str], bool]
#: ``validate(field, text) -> error message or None`` (live, as the user types).
Validate = Callable[[str, str], str | None]
FieldRole = Qt.ItemDataRole.UserRole + 3


@dataclass(frozen=True)
class Editor:
    """How one column is edited: the field it sets and the text the editor starts with."""

    field: str
    text: Callable[[Any], str]
    editable: Callable[[Any], bool] | None = None  # None: every row


class EditableTableModel(SummaryTableModel):
    """A ``SummaryTableModel`` whose ``editors`` columns are editable in place."""

    def __init__(
        self,
        columns: Sequence[Column],
        editors: Mapping[int, Editor],
        commit: Commit | None = None,
        validate: Validate | None = None,
        parent: QObject | None = None,
        filter_text: Callable[[Any], str] | None = None,
    ) -> None:
        super().__init__(columns, parent, filter_text)
        self._editors = dict(editors)
        self._commit = commit
        self.validate = validate

    def set_commit(self, commit: Commit) -> None:
        self._commit = commit

    def editor(self, column: int) -> Editor | None:
        return self._editors.get(column)

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = super().flags(index)
        if not index.isValid():
            return base
        ed = self._editors.get(index.column())
        if (
            ed is not None
            and self._commit is not None
            and (ed.editable is None or ed.editable(self.row_for(index.row())))
        ):
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role in (Qt.ItemDataRole.EditRole, FieldRole) and index.isValid():
            ed = self._editors.get(index.column())
            if ed is None or not (0 <= index.row() < self.rowCount()):
                return (
                    None if role == FieldRole else super().data(index, Qt.ItemDataRole.DisplayRole)
                )
            row = self.row_for(index.row())
            return ed.field if role == FieldRole else ed.text(row)
        return super().data(index, role)

    def setData(
        self,
        index: Index,
        value: Any,
        role: int = Qt.ItemDataRole.EditRole,
    ) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid() or self._commit is None:
            return False
        ed = self._editors.get(index.column())
        if ed is None or not (0 <= index.row() < self.rowCount()):
            return False
        row = self.row_for(index.row())
        text = "" if value is None else str(value)
        if text == ed.text(row):
            return False  # nothing changed: no service call, no undo step
        return bool(self._commit(row, ed.field, text))
