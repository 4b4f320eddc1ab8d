"""The Damage page's blast rows: for each minifig the Explosion may catch, its sections inside
the radius and visible from the point of detonation (5.1), as the organizer measures them on
the table. The rows show what ``blast_section_rows`` gives and hand each choice back."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QVBoxLayout, QWidget

from brikdesk.domain.combat import Choice, prose
from brikdesk.domain.ids import BattleUnitId
from ui.wheel import guard_wheel
from ui.widgets.combat_style import label, show_readings
from ui.wizard.widgets import ChoiceCombo


class BlastSections(QWidget):
    """One row per minifig in the blast: its name and a selector of its sections (3 to 0).
    ``changed(unit_id, sections)`` when the organizer picks one."""

    changed = Signal(int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 4, 0, 0)
        self.heading = label(prose.BLAST_SECTIONS_HEADING, "section", self)
        show_readings(self.heading, "5.1 Explosions")
        lay.addWidget(self.heading)
        self.grid = QGridLayout()
        self.grid.setColumnStretch(1, 1)
        lay.addLayout(self.grid)
        self.combos: dict[BattleUnitId, ChoiceCombo] = {}
        self._ids: tuple[BattleUnitId, ...] = ()

    def show_rows(self, rows: Sequence[tuple[BattleUnitId, str, int]]) -> None:
        """Show ``(unit id, name, sections)`` rows; rebuilt only when the units change."""
        ids = tuple(uid for uid, _name, _n in rows)
        if ids != self._ids:
            self._ids = ids
            while self.grid.count():
                item = self.grid.takeAt(0)
                w = item.widget() if item is not None else None
                if w is not None:
                    w.hide()
                    w.deleteLater()
            self.combos = {}
            for i, (uid, name, _n) in enumerate(rows):
                combo = ChoiceCombo(self)
                combo.setObjectName(f"blastSections{uid}")
                combo.chosen.connect(self._chosen)
                guard_wheel(combo)
                lab = QLabel(name, self)
                lab.setBuddy(combo)
                self.grid.addWidget(lab, i, 0)
                self.grid.addWidget(combo, i, 1)
                self.combos[uid] = combo
        choices = [Choice(n, text) for n, text in prose.BLAST_SECTIONS]
        for uid, _name, n in rows:
            self.combos[uid].set_choices(choices, n)
        self.setVisible(bool(rows))

    def _chosen(self, _value: int) -> None:
        combo = self.sender()
        for uid, c in self.combos.items():
            if c is combo:
                self.changed.emit(uid, c.value())
