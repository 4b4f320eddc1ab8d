"""Small questions the battle panel asks: which unit, what "other" Action was.

Each is a classmethod ``ask`` that tests replace; the real ones open a window-modal dialog.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.ids import BattleUnitId
from ui.widgets.dialogs import enter_accepts


class UnitPicker(QDialog):
    """Pick one unit from a list (typed text filters it; Enter takes the highlighted one)."""

    def __init__(
        self, parent: QWidget | None, title: str, prompt: str, candidates: Sequence[tuple[int, str]]
    ) -> None:
        super().__init__(parent)
        self.setObjectName("unitPicker")
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        label = QLabel(prompt, self)
        label.setWordWrap(True)
        layout.addWidget(label)
        self.filter = QLineEdit(self)
        self.filter.setObjectName("pickerFilter")
        self.filter.setAccessibleName("Filter units")
        self.filter.setPlaceholderText("Type to filter…")
        self.filter.setClearButtonEnabled(True)
        layout.addWidget(self.filter)
        self.list = QListWidget(self)
        self.list.setObjectName("pickerList")
        self.list.setAccessibleName(prompt)
        for uid, text in candidates:
            item = QListWidgetItem(text, self.list)
            item.setData(Qt.ItemDataRole.UserRole, uid)
        if self.list.count():
            self.list.setCurrentRow(0)
        layout.addWidget(self.list, 1)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        enter_accepts(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.filter.textChanged.connect(self._filter)
        self.list.itemActivated.connect(self._activated)
        self.resize(420, 480)

    def _filter(self, text: str) -> None:
        needle = text.casefold().strip()
        first = None
        for i in range(self.list.count()):
            item = self.list.item(i)
            hide = bool(needle) and needle not in item.text().casefold()
            item.setHidden(hide)
            if not hide and first is None:
                first = item
        if first is not None:
            self.list.setCurrentItem(first)

    def _activated(self, _item: QListWidgetItem) -> None:
        self.accept()

    def chosen(self) -> BattleUnitId | None:
        item = self.list.currentItem()
        if item is None or item.isHidden():
            return None
        uid = item.data(Qt.ItemDataRole.UserRole)
        return BattleUnitId(uid) if isinstance(uid, int) else None

    @classmethod
    def ask(
        cls,
        parent: QWidget | None,
        title: str,
        prompt: str,
        candidates: Sequence[tuple[BattleUnitId, str]],
    ) -> BattleUnitId | None:
        """The unit picked, or ``None`` if cancelled."""
        dialog = cls(parent, title, prompt, candidates)
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return None
            return dialog.chosen()
        finally:
            dialog.deleteLater()


class OutcomeAsker:
    """What came of a Close Combat attack the players resolved at the table (for the log)."""

    @classmethod
    def ask(cls, parent: QWidget | None, title: str, target: str) -> str | None:
        text, ok = QInputDialog.getText(
            parent,
            title,
            f"Resolved at the table: what happened to {target}? (e.g. hit, 1 Damage; missed)",
        )
        text = text.strip()
        return text if ok and text else None
