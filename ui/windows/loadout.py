"""The loadout editor: what the selected units hold in hand, wear and carry.

Every catalog item is offered in every place and nothing is refused: a two-handed weapon with a
shield, armour held in hand or three items in two hands are stored as asked, and the roster
shows the warning beside the unit (``brikdesk.domain.roster.validate_unit``). With several
units selected, an item added or removed is added to or removed from each of them, in one
undoable step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.catalog import Catalog, CatalogItem
from brikdesk.domain.roster import Loadout
from brikdesk.services.roster import UnitRow

IN_HAND, WORN, CARRIED = "in hand", "worn", "carried"
PLACES = (IN_HAND, WORN, CARRIED)
_ATTR = {IN_HAND: "hands", WORN: "worn", CARRIED: "carried"}
_VERB = {IN_HAND: "Hold", WORN: "Wear", CARRIED: "Carry"}


def item_summary(it: CatalogItem | None, key: str, cost_unit: str = "CP") -> str:
    if it is None:
        return f"{key} (not in the catalog)"
    parts = []
    if it.damage or it.use is not None:
        parts.append(f"Use {it.use_text()}")
    if it.range_text() != "-":
        parts.append(it.range_text())
    if it.damage:
        parts.append(it.damage)
    if it.armor_bonus:
        parts.append(f"Armor +{it.armor_bonus}")
    if it.deflection:
        parts.append(f"Deflection {it.deflection}")
    if it.hands >= 2:
        parts.append("two hands")
    return f"{it.name} ({', '.join(parts)})" if parts else it.name


def with_item(lo: Loadout, place: str, key: str) -> Loadout:
    """``lo`` with ``key`` added to ``place`` (in hand: into the first empty hand)."""
    if place == IN_HAND:
        hands = list(lo.hands)
        if None in hands:
            hands[hands.index(None)] = key
        else:
            hands.append(key)
        return replace(lo, hands=tuple(hands))
    return replace(lo, **{_ATTR[place]: (*getattr(lo, _ATTR[place]), key)})


def without_item(lo: Loadout, place: str, key: str) -> Loadout:
    """``lo`` with the first ``key`` of ``place`` removed (unchanged if it has none)."""
    items = list(getattr(lo, _ATTR[place]))
    if key not in items:
        return lo
    items.remove(key)
    if place == IN_HAND:
        while items and items[-1] is None:
            items.pop()
    return replace(lo, **{_ATTR[place]: tuple(items)})


def keys_of(lo: Loadout, place: str) -> tuple[str, ...]:
    if place == IN_HAND:
        return lo.held
    return tuple(getattr(lo, _ATTR[place]))


class LoadoutEditor(QWidget):
    """Edits the loadout of the selected units; asks the window to store it.

    ``edit_requested(patches, text)``: ``patches`` maps unit ids to their new ``Loadout``.
    """

    edit_requested = Signal(object, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("loadoutEditor")
        self.catalog: Catalog | None = None
        self.units: list[UnitRow] = []
        self.current: UnitRow | None = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel(self)
        self.title.setObjectName("loadoutTitle")
        self.title.setWordWrap(True)
        outer.addWidget(self.title)
        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        grid.setVerticalSpacing(4)
        outer.addLayout(grid)
        self.lists: dict[str, QListWidget] = {}
        self.combos: dict[str, QComboBox] = {}
        self.add_buttons: dict[str, QPushButton] = {}
        self.remove_buttons: dict[str, QPushButton] = {}
        self.labels: dict[str, QLabel] = {}
        for r, place in enumerate(PLACES):
            label = QLabel(place.capitalize(), self)
            label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            self.labels[place] = label
            grid.addWidget(label, r * 2, 0)
            lst = QListWidget(self)
            lst.setObjectName(f"loadout_{_ATTR[place]}")
            lst.setAccessibleName(f"Items {place}")
            lst.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
            lst.setMaximumHeight(lst.fontMetrics().height() * 3 + 8)
            lst.setAlternatingRowColors(True)
            # A long entry ends in "…" (its tooltip gives it whole) rather than scrolling.
            lst.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            lst.currentRowChanged.connect(self._update_buttons)
            remove_key = QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), lst)
            remove_key.setContext(Qt.ShortcutContext.WidgetShortcut)
            remove_key.activated.connect(lambda p=place: self.remove_current(p))
            self.lists[place] = lst
            grid.addWidget(lst, r * 2, 1)
            remove = QPushButton("Remove", self)
            remove.setObjectName(f"remove_{_ATTR[place]}")
            remove.setAccessibleName(f"Remove the chosen item {place}")
            remove.setToolTip(
                f"Take the chosen item away ({place}); with several units "
                "selected, from each that has it"
            )
            remove.clicked.connect(lambda _=False, p=place: self.remove_current(p))
            self.remove_buttons[place] = remove
            grid.addWidget(remove, r * 2, 2, Qt.AlignmentFlag.AlignTop)
            row = QHBoxLayout()
            combo = QComboBox(self)
            combo.setObjectName(f"choose_{_ATTR[place]}")
            combo.setAccessibleName(f"Item to add {place}")
            combo.setToolTip(
                f"Every catalog item can go here; the roster warns about what the "
                f"rules don't allow {place}"
            )
            combo.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            combo.setMinimumContentsLength(14)
            self.combos[place] = combo
            row.addWidget(combo, 1)
            grid.addLayout(row, r * 2 + 1, 1)
            add = QPushButton(_VERB[place], self)
            add.setObjectName(f"add_{_ATTR[place]}")
            add.setToolTip(f"Add the chosen item ({place}) to the selected units")
            add.clicked.connect(lambda _=False, p=place: self.add_chosen(p))
            self.add_buttons[place] = add
            grid.addWidget(add, r * 2 + 1, 2)
            # Tab order: list, Remove, chooser, Add, then the next place.
        order: list[QWidget] = []
        for place in PLACES:
            order += [
                self.lists[place],
                self.remove_buttons[place],
                self.combos[place],
                self.add_buttons[place],
            ]
        for a, b in zip(order, order[1:], strict=False):
            QWidget.setTabOrder(a, b)
        outer.addStretch(1)
        self.set_units([], None)

    # -- contents ---------------------------------------------------------------------------

    def set_catalog(self, catalog: Catalog) -> None:
        self.catalog = catalog
        unit = catalog.cost_unit
        for place, combo in self.combos.items():
            chosen = combo.currentData()
            combo.blockSignals(True)
            combo.clear()
            items = list(catalog.items)
            if place == WORN:  # armour first: that is what is usually worn
                items.sort(key=lambda it: not it.worn)
            for it in items:
                cost = "no cost" if it.cost is None else f"{it.cost} {unit}"
                combo.addItem(f"{it.name} ({cost})", it.key)
                combo.setItemData(
                    combo.count() - 1, item_summary(it, it.key), Qt.ItemDataRole.ToolTipRole
                )
            if chosen is not None and combo.findData(chosen) >= 0:
                combo.setCurrentIndex(combo.findData(chosen))
            combo.blockSignals(False)
        self._fill()

    def set_units(self, units: Sequence[UnitRow], current: UnitRow | None) -> None:
        self.units = list(units)
        self.current = current if current is not None else (self.units[0] if self.units else None)
        self._fill()

    def _fill(self) -> None:
        cur = self.current
        n = len(self.units)
        enabled = cur is not None and self.catalog is not None
        if cur is None:
            self.title.setText("<b>Loadout</b>: select a unit.")
        elif n > 1:
            self.title.setText(
                f"<b>Loadout of {n} units</b>: showing {cur.name}; what you "
                "add or remove changes each selected unit."
            )
        else:
            self.title.setText(f"<b>Loadout of {cur.name}</b>")
        hands = None
        if cur is not None and self.catalog is not None:
            ut = self.catalog.get_unit_type(cur.type_key)
            hands = ut.hands if ut is not None else None
        self.labels[IN_HAND].setText(
            "In hand"
            + (f"\n({hands} hand{'s' if hands != 1 else ''})" if hands is not None else "")
        )
        for place in PLACES:
            lst = self.lists[place]
            row = lst.currentRow()
            lst.clear()
            if cur is not None:
                for key in keys_of(cur.loadout, place):
                    it = self.catalog.get_item(key) if self.catalog is not None else None
                    item = QListWidgetItem(item_summary(it, key), lst)
                    item.setToolTip(item.text())
                    item.setData(Qt.ItemDataRole.UserRole, key)
            if lst.count():
                lst.setCurrentRow(min(max(row, 0), lst.count() - 1))
            lst.setEnabled(enabled)
            self.combos[place].setEnabled(enabled)
            self.add_buttons[place].setEnabled(enabled)
        self._update_buttons()

    def _update_buttons(self) -> None:
        for place in PLACES:
            self.remove_buttons[place].setEnabled(
                self.current is not None and self.lists[place].currentRow() >= 0
            )

    # -- edits ------------------------------------------------------------------------------

    def add_chosen(self, place: str) -> None:
        key = self.combos[place].currentData()
        if key is not None:
            self.add_item(place, key)

    def add_item(self, place: str, key: str) -> None:
        """Add ``key`` to ``place`` of every selected unit (asks the window to store it)."""
        if not self.units:
            return
        patches = {u.id: with_item(u.loadout, place, key) for u in self.units}
        name = self._name(key)
        verb = {IN_HAND: "Give", WORN: "Put", CARRIED: "Give"}[place]
        who = self.units[0].name if len(self.units) == 1 else f"{len(self.units)} units"
        text = f"{verb} {name} to {who} ({place})" if place != WORN else f"Put {name} on {who}"
        self.edit_requested.emit(patches, text)

    def remove_current(self, place: str) -> None:
        item = self.lists[place].currentItem()
        if item is not None:
            self.remove_item(place, str(item.data(Qt.ItemDataRole.UserRole)))

    def remove_item(self, place: str, key: str) -> None:
        """Remove one ``key`` from ``place`` of every selected unit that has it."""
        patches = {}
        for u in self.units:
            new = without_item(u.loadout, place, key)
            if new != u.loadout:
                patches[u.id] = new
        if patches:
            who = (
                self.units[0].name
                if len(patches) == 1 and len(self.units) == 1
                else f"{len(patches)} units"
            )
            self.edit_requested.emit(patches, f"Take {self._name(key)} from {who}")

    def _name(self, key: str) -> str:
        it = self.catalog.get_item(key) if self.catalog is not None else None
        return it.name if it is not None else key
