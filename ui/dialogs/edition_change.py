"""Changing the rules edition: what it will do, before it is done.

``EditionChangeDialog.ask(parent, preview)`` lists every unit type and item the campaign uses
that the new edition lacks, each with a choice of what it becomes (the service's suggestion by
name and stats filled in), and under it, per army, the army's cost before and after and a line
for every unit whose cost, type or stats change (old -> new, with the unit's name). Choosing
another replacement works the lines and totals out again at once
(``EditionPreview.choose``, no database read). It returns the chosen ``(types, items)`` maps,
or None when cancelled. Tests replace ``ask``.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.edition_change import ArmyChange
from brikdesk.services.editions import EditionPreview
from ui.wheel import give_focus, guard_wheel
from ui.widgets.dialogs import ready_to_type

#: Rows of the missing types and items shown before that table scrolls.
MISSING_ROWS = 6


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
                "Choose what each becomes (in the rosters and in the battles' units alike); "
                "nothing is changed until you confirm, and Edit > Undo changes it all back."
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
        self.missing.setAccessibleName(f"Not in BrikWars {preview.new}, and what each becomes")
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
            box.setObjectName(f"becomes-{m.kind}-{m.key}")
            for key, name in m.choices:
                box.addItem(name, key)
            box.setCurrentIndex(max(0, box.findData(m.suggestion)))
            box.currentIndexChanged.connect(self._follow)
            self.missing.setCellWidget(r, 3, box)
            self.choices[(m.kind, m.key)] = box
        self.missing.setVisible(bool(n))
        self.missing.resizeRowsToContents()
        rows = sum(self.missing.rowHeight(r) for r in range(min(n, MISSING_ROWS)))
        self.missing.setFixedHeight(
            rows + self.missing.horizontalHeader().sizeHint().height() + 2 * 2
        )
        layout.addWidget(self.missing)

        cu = preview.cost_unit
        what = QLabel(f"What changes in each army (costs in {cu}, with the choices above):", self)
        what.setWordWrap(True)
        layout.addWidget(what)
        self.changes = QTreeWidget(self)
        self.changes.setObjectName("changesTree")
        self.changes.setAccessibleName("What changes in each army")
        self.changes.setColumnCount(3)
        self.changes.setHeaderLabels(("Army or unit", f"Cost ({cu})", "What changes"))
        self.changes.setRootIsDecorated(True)
        self.changes.setWordWrap(True)  # a long list of changes wraps, never cut short
        self.changes.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.changes.setMinimumHeight(160)
        header = self.changes.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.changes, 1)
        self.totals = QLabel(self)
        self.totals.setObjectName("costChanges")
        self.totals.setWordWrap(True)
        layout.addWidget(self.totals)
        self._show(preview.armies)

        buttons = QDialogButtonBox(self)
        ok = buttons.addButton("Change edition", QDialogButtonBox.ButtonRole.AcceptRole)
        ok.setObjectName("changeEdition")
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(1000, self.sizeHint().height() + 120)
        ready_to_type(self, buttons)
        guard_wheel(self)
        if self.choices:  # ready to choose what the first missing entry becomes
            give_focus(next(iter(self.choices.values())))

    def _follow(self) -> None:
        """A choice changed: the lines and totals as they would be with it."""
        self._show(self.preview.choose(*self.value()))

    def _show(self, armies: tuple[ArmyChange, ...]) -> None:
        cu = self.preview.cost_unit
        tree = self.changes
        tree.setUpdatesEnabled(False)
        try:
            tree.clear()
            for a in armies:
                n = len(a.units)
                top = QTreeWidgetItem(
                    (
                        a.army,
                        f"{a.before} → {a.after}",
                        f"{n} unit{'s' if n != 1 else ''} change" if n else "nothing changes",
                    )
                )
                font = top.font(0)
                font.setBold(True)
                for col in (0, 1):
                    top.setFont(col, font)
                for u in a.units:
                    kind = (
                        u.type_before
                        if u.type_before == u.type_after
                        else f"{u.type_before} → {u.type_after}"
                    )
                    details = ", ".join(u.details)
                    child = QTreeWidgetItem(
                        (f"{u.unit} ({kind})", f"{u.before} → {u.after}", details)
                    )
                    child.setToolTip(0, u.text(cu))
                    child.setToolTip(2, u.text(cu))
                    top.addChild(child)
                tree.addTopLevelItem(top)
                top.setExpanded(True)
            tree.resizeColumnToContents(0)
            tree.setColumnWidth(0, min(tree.columnWidth(0), 380))
        finally:
            tree.setUpdatesEnabled(True)
        self.totals.setText(
            "Army totals: " + "; ".join(f"{a.army} {a.before} → {a.after} {cu}" for a in armies)
            if armies
            else "The campaign has no armies."
        )

    def lines(self) -> list[str]:
        """What the tree shows, a line per row (army rows first, each unit's indented)."""

        def walk(item: QTreeWidgetItem, depth: int) -> None:
            for i in range(item.childCount()):
                row = item.child(i)
                if row is not None:
                    out.append("  " * depth + " | ".join(row.text(c) for c in range(3)))
                    walk(row, depth + 1)

        out: list[str] = []
        walk(self.changes.invisibleRootItem(), 0)
        return out

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
