"""Changing the rules edition: what it will do, before it is done (issue 23).

``EditionChangeDialog.ask(parent, preview)`` lists every unit type and item the campaign uses
that the new edition lacks, each with a choice of what it becomes (the service's suggestion by
name and stats filled in), and each army's cost before and after (with the suggestions). It
returns the chosen ``(types, items)`` maps, or None when cancelled. Tests replace ``ask``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from brikdesk.services.editions import EditionPreview
from ui.wheel import guard_wheel
from ui.widgets.dialogs import ready_to_type


class EditionChangeDialog(QDialog):
    def __init__(self, parent: QWidget | None, preview: EditionPreview) -> None:
        super().__init__(parent)
        self.preview = preview
        self.setObjectName("editionChangeDialog")
        self.setWindowTitle(f"Change to BrikWars {preview.new}")
        layout = QVBoxLayout(self)
        n = len(preview.missing)
        head = QLabel(
            (
                f"BrikWars {preview.new} has no match for {n} unit type"
                f"{'s' if n != 1 else ''} or item{'s' if n != 1 else ''} your units use. "
                "Choose what each becomes; nothing is changed until you confirm, and Edit > "
                "Undo changes it all back."
            )
            if n
            else f"Every unit type and item your units use is in BrikWars {preview.new}.",
            self,
        )
        head.setWordWrap(True)
        layout.addWidget(head)
        self.choices: dict[tuple[str, str], QComboBox] = {}
        self.missing = QTableWidget(n, 4, self)
        self.missing.setObjectName("missingTable")
        self.missing.setHorizontalHeaderLabels(
            ("Kind", f"In BrikWars {preview.old}", "Units", f"Becomes in {preview.new}")
        )
        self.missing.verticalHeader().hide()
        self.missing.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.missing.horizontalHeader().setStretchLastSection(True)
        for r, m in enumerate(preview.missing):
            self.missing.setItem(
                r, 0, QTableWidgetItem("unit type" if m.kind == "type" else "item")
            )
            self.missing.setItem(r, 1, QTableWidgetItem(m.name))
            self.missing.setItem(r, 2, QTableWidgetItem(str(m.units)))
            box = QComboBox(self.missing)
            for key, name in m.choices:
                box.addItem(name, key)
            box.setCurrentIndex(max(0, box.findData(m.suggestion)))
            self.missing.setCellWidget(r, 3, box)
            self.choices[(m.kind, m.key)] = box
        self.missing.setVisible(bool(n))
        layout.addWidget(self.missing)
        cu = preview.cost_unit
        costs = QLabel(
            "Army costs (after, with the choices suggested): "
            + "; ".join(f"{a.army} {a.before} → {a.after} {cu}" for a in preview.armies),
            self,
        )
        costs.setObjectName("costChanges")
        costs.setWordWrap(True)
        layout.addWidget(costs)
        buttons = QDialogButtonBox(self)
        ok = buttons.addButton("Change edition", QDialogButtonBox.ButtonRole.AcceptRole)
        ok.setObjectName("changeEdition")
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        ready_to_type(self, buttons)
        guard_wheel(self)
        if self.choices:  # ready to choose what the first missing entry becomes
            next(iter(self.choices.values())).setFocus(Qt.FocusReason.TabFocusReason)

    def value(self) -> tuple[dict[str, str], dict[str, str]]:
        types = {k: str(b.currentData()) for (kind, k), b in self.choices.items() if kind == "type"}
        items = {k: str(b.currentData()) for (kind, k), b in self.choices.items() if kind == "item"}
        return types, items

    @classmethod
    def ask(
        cls, parent: QWidget | None, preview: EditionPreview
    ) -> tuple[dict[str, str], dict[str, str]] | None:
        dlg = cls(parent, preview)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        return dlg.value()
