"""Adding a custom catalog entry: a name, and the entry it starts as a copy of."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import QComboBox, QDialog, QLineEdit, QWidget

from brikdesk.domain.catalog import Catalog, Category
from ui.widgets.dialogs import FormDialog

ITEM, UNIT_TYPE = "item", "unit_type"


@dataclass(frozen=True)
class NewEntry:
    name: str
    based_on: str | None
    category: str


class NewEntryDialog(FormDialog):
    def __init__(
        self, parent: QWidget | None, kind: str, catalog: Catalog, based_on: str | None
    ) -> None:
        what = "item" if kind == ITEM else "unit type"
        super().__init__(
            parent,
            f"Add custom {what}",
            f"A custom {what} belongs to this campaign only (a house rule). Start "
            "from a copy of an entry, then edit its values in the table.",
            "Add",
        )
        self.kind = kind
        self.name = QLineEdit(self)
        self.name.setMaxLength(80)
        self.name.setPlaceholderText("e.g. Laser Pike" if kind == ITEM else "e.g. Robot")
        self.form.addRow("&Name:", self.name)
        self.based_on = QComboBox(self)
        entries = catalog.items if kind == ITEM else catalog.unit_types
        if kind == ITEM:
            self.based_on.addItem("a plain one-handed weapon", None)
        for e in entries:
            self.based_on.addItem(f"a copy of {e.name}", e.key)
            if e.key == based_on:
                self.based_on.setCurrentIndex(self.based_on.count() - 1)
        self.form.addRow("&Start as:", self.based_on)
        self.category = QComboBox(self)
        for c in Category:
            self.category.addItem(c.value, c.value)
        if kind == ITEM:
            self.form.addRow("&Category:", self.category)
            self.based_on.currentIndexChanged.connect(self._category_enabled)
            self._category_enabled()
        self.name.textChanged.connect(self._check)
        self._check()

    def _category_enabled(self) -> None:
        self.category.setEnabled(self.based_on.currentData() is None)

    def _check(self) -> None:
        self.set_problem(None if self.name.text().strip() else "Give the new entry a name.")

    def value(self) -> NewEntry:
        return NewEntry(
            self.name.text().strip(), self.based_on.currentData(), self.category.currentData()
        )

    @classmethod
    def ask(
        cls, parent: QWidget | None, kind: str, catalog: Catalog, based_on: str | None = None
    ) -> NewEntry | None:
        dlg = cls(parent, kind, catalog, based_on)
        return dlg.value() if dlg.exec() == QDialog.DialogCode.Accepted else None
