"""Unit dialogs: add units from a type, edit one unit (type, stats, record), change the type
of several units."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QMimeData
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QWidget,
)

from brikdesk.domain.catalog import Catalog, CatalogError, UnitType, armor_value
from brikdesk.domain.dice import ACTION_DICE
from brikdesk.domain.ids import ArmyId, UnitId
from brikdesk.domain.roster import Loadout, UnitOverrides, fitting_items
from brikdesk.domain.statuses import UnitStatus
from brikdesk.services.changes import Done
from brikdesk.services.roster import MAX_ADD, RosterService, UnitPatch, UnitRow
from ui.widgets.dialogs import FormDialog, number_box, too_large
from ui.widgets.fields import ValidatingLineEdit


def type_label(ut: UnitType, cost_unit: str = "CP") -> str:
    cost = "no cost" if ut.cost is None else f"{ut.cost} {cost_unit}"
    return f'{ut.name}: d{ut.action_die}, Move {ut.move}", Armor {ut.armor}, {cost}'


def _type_combo(parent: QWidget, catalog: Catalog, current: str | None) -> QComboBox:
    combo = QComboBox(parent)
    for ut in catalog.unit_types:
        combo.addItem(type_label(ut, catalog.cost_unit), ut.key)
        if ut.key == current:
            combo.setCurrentIndex(combo.count() - 1)
    if current is not None and combo.findData(current) < 0:
        combo.addItem(f"{current} (not in the catalog)", current)
        combo.setCurrentIndex(combo.count() - 1)
    return combo


@dataclass(frozen=True)
class AddUnits:
    type_key: str
    count: int
    name: str  # a pattern with {type} and {n}, or a plain name for one unit
    loadout: Loadout | None
    army_id: int | None = None  # the army chosen (from the catalog window), else None


class AddUnitsDialog(FormDialog):
    """Units > Add unit and Add several: one dialog (the same title, fields and defaults from
    the menu, the toolbar and the shortcuts). The type starts at the army's most common
    (``template``'s), the count at what the caller passes (the last count for Add several), and
    Equipment offers the template's loadout ("Same as ...") and every item the chosen type can
    take on its own (``fitting_items``: what its hands hold, the armour it wears)."""

    TITLE = "Add units"

    def __init__(
        self,
        parent: QWidget | None,
        catalog: Catalog,
        type_key: str | None,
        count: int,
        template: UnitRow | None,
        armies: Sequence[tuple[int, str]] = (),
        army_id: int | None = None,
    ) -> None:
        super().__init__(
            parent,
            self.TITLE,
            "New units go at the end of the roster.",
            "Add",
        )
        self.catalog = catalog
        self.army: QComboBox | None = None
        if armies:  # from the catalog window: which army they join
            self.army = QComboBox(self)
            self.army.setObjectName("army")
            for ident, label in armies:
                self.army.addItem(label, ident)
            self.army.setCurrentIndex(max(0, self.army.findData(army_id)))
            self.form.addRow("&Army:", self.army)
        self.count = QSpinBox(self)
        self.count.setRange(1, MAX_ADD)
        self.count.setValue(count)
        self.form.addRow("&How many:", self.count)
        self.type = _type_combo(self, catalog, type_key or "minifig")
        self.form.addRow("&Type:", self.type)
        self.name = QLineEdit("{type} {n}", self)
        self.name.setToolTip(
            "{type} is the type's name and {n} a number that continues the "
            "army's numbering. For one unit, a plain name is used as it is."
        )
        self.form.addRow("&Names:", self.name)
        hint = QLabel(
            "{type}: the type's name; {n}: the next number (added at the end when "
            "the pattern has none and several units are added)",
            self,
        )
        hint.setWordWrap(True)
        self.form.addRow("", hint)
        self.equipment = QComboBox(self)
        self.equipment.setObjectName("equipment")
        self._template = template
        self._loadouts: list[Loadout | None] = []
        self.form.addRow("&Equipment:", self.equipment)
        self.type.currentIndexChanged.connect(self._fill_equipment)
        self._fill_equipment()
        self.name.textChanged.connect(self._check)
        self.count.valueChanged.connect(self._check)
        self._check()
        self.count.selectAll()  # the first field: typing replaces the count

    def _fill_equipment(self) -> None:
        """The loadouts offered for the chosen type: none, the template's (same type only),
        then each item it can take alone. The choice made stays when it is still offered."""
        type_key = self.type.currentData()
        chosen = self.value().loadout if self._loadouts else None
        offered: list[tuple[str, Loadout | None]] = [("None (add it in the loadout editor)", None)]
        t = self._template
        if t is not None and t.type_key == type_key:
            what = ", ".join(n for n in (*t.hands, *t.worn, *t.carried) if n != "-") or "nothing"
            offered.append((f"Same as {t.name} ({what})", t.loadout))
        unit = self.catalog.cost_unit
        for where, it in fitting_items(type_key, self.catalog):
            cost = "no cost" if it.cost is None else f"+{it.cost} {unit}"
            lo = Loadout(worn=(it.key,)) if where == "worn" else Loadout((it.key,))
            offered.append((f"{it.name} ({where}, {cost})", lo))
        self._loadouts = [lo for _text, lo in offered]
        self.equipment.clear()
        self.equipment.addItems([text for text, _lo in offered])
        if chosen is not None and chosen in self._loadouts:
            self.equipment.setCurrentIndex(self._loadouts.index(chosen))
        else:
            self.equipment.setCurrentIndex(1 if t is not None and t.type_key == type_key else 0)

    def equipment_texts(self) -> list[str]:
        return [self.equipment.itemText(i) for i in range(self.equipment.count())]

    def _check(self) -> None:
        text = self.name.text().strip()
        self.set_problem(None if text else "Give a name, or a pattern such as {type} {n}.")

    def value(self) -> AddUnits:
        at = self.equipment.currentIndex()
        return AddUnits(
            self.type.currentData(),
            self.count.value(),
            self.name.text().strip(),
            self._loadouts[at] if 0 <= at < len(self._loadouts) else None,
            self.army.currentData() if self.army is not None else None,
        )

    @classmethod
    def ask(
        cls,
        parent: QWidget | None,
        catalog: Catalog,
        *,
        type_key: str | None = None,
        count: int = 1,
        template: UnitRow | None = None,
        armies: Sequence[tuple[int, str]] = (),
        army_id: int | None = None,
    ) -> AddUnits | None:
        """The units to add (``armies``: ``(id, label)`` offered to choose from, ``army_id``
        first), or None when cancelled."""
        dlg = cls(parent, catalog, type_key, count, template, armies, army_id)
        if armies:
            dlg.count.setFocus()
        return dlg.value() if dlg.exec() == QDialog.DialogCode.Accepted else None


#: The drag from the catalog's unit types onto a roster: ``b"<campaign id>:<type key>"``.
UNIT_TYPE_MIME = "application/x-brikdesk-unit-type"


def unit_type_mime(campaign_id: int, type_key: str) -> QMimeData:
    """What a unit type dragged from the catalog carries (and its name as plain text)."""
    data = QMimeData()
    data.setData(UNIT_TYPE_MIME, QByteArray(f"{campaign_id}:{type_key}".encode()))
    data.setText(type_key)
    return data


def dropped_unit_type(data: QMimeData | None, campaign_id: int | None) -> str | None:
    """The unit type key a drop carries, if it comes from this campaign's catalog."""
    if data is None or not data.hasFormat(UNIT_TYPE_MIME):
        return None
    text = bytes(data.data(UNIT_TYPE_MIME).data()).decode("utf-8", "replace")
    cid, _, key = text.partition(":")
    return key if key and cid == str(campaign_id) else None


def adding(roster: RosterService, army_id: ArmyId, answer: AddUnits) -> Done[tuple[UnitId, ...]]:
    """Store what the Add units dialog answered: one named unit, or units named by the
    pattern (one service call, one undo step)."""
    if answer.count == 1 and "{n}" not in answer.name:
        return roster.add_unit(army_id, answer.type_key, name=answer.name, loadout=answer.loadout)
    return roster.add_units(
        army_id, answer.type_key, answer.count, answer.name, loadout=answer.loadout
    )


def _armor_error(_field: str, text: str) -> str | None:
    if not text.strip():
        return None  # empty: as the type
    try:
        armor_value(text.strip())
    except CatalogError as exc:
        return exc.reason
    return None


class UnitEditor(FormDialog):
    """Name, type, per-unit stats (overrides), campaign record and notes of one unit."""

    def __init__(self, parent: QWidget | None, row: UnitRow, catalog: Catalog) -> None:
        super().__init__(
            parent,
            f"Edit {row.name}",
            "Stats left 'as type' follow the unit type (and its house rules).",
            "Save",
        )
        self.row = row
        self.catalog = catalog
        ov = row.overrides
        self.name = QLineEdit(row.name, self)
        self.name.setMaxLength(100)
        self.form.addRow("&Name:", self.name)
        self.type = _type_combo(self, catalog, row.type_key)
        self.form.addRow("&Type:", self.type)
        self.action_die = QComboBox(self)
        self.action_die.addItem("as type", None)
        for sides in ACTION_DICE:
            self.action_die.addItem(f"d{sides}", sides)
        if ov.action_die is not None:
            self.action_die.setCurrentIndex(max(0, self.action_die.findData(ov.action_die)))
        self.form.addRow("&Action die:", self.action_die)
        self.move_box = QSpinBox(self)  # not ``move``: that is QWidget.move
        self.move_box.setRange(-1, 100)
        self.move_box.setSuffix('"')
        self.move_box.setValue(-1 if ov.move is None else ov.move)
        self.form.addRow("&Move:", self.move_box)
        self.armor_error = QLabel(self)
        self.armor = ValidatingLineEdit("armor", _armor_error, self, self.armor_error)
        self.armor.setText(ov.armor or "")
        self.armor.textEdited.connect(self._check)
        self.form.addRow("A&rmor:", self.armor)
        self.form.addRow("", self.armor_error)
        self.cost = QSpinBox(self)
        self.cost.setRange(-1, 999)
        self.cost.setValue(-1 if ov.cost is None else ov.cost)
        self.form.addRow("Own &cost:", self.cost)
        self.status = QComboBox(self)
        for status in UnitStatus:
            self.status.addItem(str(status), status.value)
        self.status.setCurrentIndex(max(0, self.status.findData(row.status.value)))
        self.form.addRow("&Status:", self.status)
        self.battles = number_box(self)
        self.battles.setValue(row.battles_fought)
        self.battles.valueChanged.connect(self._check)
        self.form.addRow("&Battles fought:", self.battles)
        self.kills = number_box(self)
        self.kills.setValue(row.kills)
        self.kills.valueChanged.connect(self._check)
        self.form.addRow("&Kills:", self.kills)
        self.notes = QPlainTextEdit(row.notes, self)
        self.notes.setTabChangesFocus(True)
        self.notes.setFixedHeight(70)
        self.form.addRow("N&otes:", self.notes)
        self.type.currentIndexChanged.connect(self._type_changed)
        self.name.textChanged.connect(self._check)
        self._type_changed()
        self._check()
        self.resize(460, self.sizeHint().height())

    def _type(self) -> UnitType | None:
        return self.catalog.get_unit_type(self.type.currentData())

    def _type_changed(self) -> None:
        ut = self._type()
        self.action_die.setItemText(0, f"as type (d{ut.action_die})" if ut else "as type")
        self.move_box.setSpecialValueText(f'as type ({ut.move}")' if ut else "as type")
        self.armor.setPlaceholderText(f"as type ({ut.armor})" if ut else "as type")
        cost = "-" if ut is None or ut.cost is None else f"{ut.cost} {self.catalog.cost_unit}"
        self.cost.setSpecialValueText(f"as type ({cost})")
        self.cost.setSuffix(f" {self.catalog.cost_unit}")

    def _check(self) -> None:
        if not self.name.text().strip():
            self.set_problem("The unit needs a name.")
        elif self.armor.check() is not None:
            self.set_problem("Armor is a number (4) or dice (2d6), or empty for the type's.")
        else:
            self.set_problem(
                too_large("Battles fought", self.battles) or too_large("Kills", self.kills)
            )

    def value(self) -> UnitPatch | None:
        """Only what changed (``None`` when nothing did)."""
        r = self.row
        ov = UnitOverrides(
            action_die=self.action_die.currentData(),
            move=None if self.move_box.value() < 0 else self.move_box.value(),
            armor=self.armor.text().strip() or None,
            cost=None if self.cost.value() < 0 else self.cost.value(),
        )
        name = " ".join(self.name.text().split())
        notes = self.notes.toPlainText()
        status = UnitStatus(self.status.currentData())
        patch = UnitPatch(
            name=name if name != r.name else None,
            type_key=self.type.currentData() if self.type.currentData() != r.type_key else None,
            overrides=ov if ov != r.overrides else None,
            notes=notes if notes != r.notes else None,
            status=status if status is not r.status else None,
            battles_fought=self.battles.value()
            if self.battles.value() != r.battles_fought
            else None,
            kills=self.kills.value() if self.kills.value() != r.kills else None,
        )
        return None if patch == UnitPatch() else patch

    @classmethod
    def ask(cls, parent: QWidget | None, row: UnitRow, catalog: Catalog) -> UnitPatch | None:
        dlg = cls(parent, row, catalog)
        return dlg.value() if dlg.exec() == QDialog.DialogCode.Accepted else None


class ChangeTypeDialog(FormDialog):
    def __init__(
        self, parent: QWidget | None, catalog: Catalog, current: str | None, count: int
    ) -> None:
        super().__init__(
            parent,
            "Change unit type",
            f"The new type for the {count} selected unit"
            f"{'s' if count != 1 else ''}; their equipment stays.",
            "Change",
        )
        self.type = _type_combo(self, catalog, current)
        self.form.addRow("&Type:", self.type)

    @classmethod
    def ask(
        cls, parent: QWidget | None, catalog: Catalog, current: str | None, count: int
    ) -> str | None:
        dlg = cls(parent, catalog, current, count)
        return dlg.type.currentData() if dlg.exec() == QDialog.DialogCode.Accepted else None


def type_keys(catalog: Catalog) -> Sequence[str]:
    return [ut.key for ut in catalog.unit_types]
