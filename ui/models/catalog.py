"""The catalog tables: items (weapons, shields, armour, equipment) and unit types.

Rows are ``brikdesk.services.catalogs.CatalogEntry`` (the entry in force, the rules' entry and
the fields that differ). Cells that differ from the rules are bold on an amber background with
the rules' value in their tooltip; custom entries say so in the Rules column. Editable cells
start with the text the user would type (``CC``, ``-``, ``1dA+2``) and are checked live by
``brikdesk.domain.catalog.validate_item_field`` / ``validate_unit_type_field``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QBrush, QFont

from brikdesk.domain.catalog import (
    FIELD_LABELS,
    CatalogError,
    CatalogItem,
    UnitType,
    validate_item_field,
    validate_unit_type_field,
)
from brikdesk.services.catalogs import CatalogEntry
from ui import colours
from ui.models.editable import Commit, EditableTableModel, Editor
from ui.models.table import Column, Index

HOUSE_BACKGROUND = colours.HOUSE_BG
HOUSE_FOREGROUND = colours.HOUSE_TEXT
CUSTOM_FOREGROUND = colours.LINK

# -- what the user types ------------------------------------------------------------------------


def use_edit(e: CatalogItem) -> str:
    return "-" if e.use is None else str(e.use)


def range_edit(e: CatalogItem) -> str:
    if e.range_inches is not None:
        return str(e.range_inches)
    return "CC" if e.close_combat else "-"


def damage_edit(e: CatalogItem) -> str:
    return e.damage or "-"


def optional_int_edit(value: int | None) -> str:
    return "-" if value is None else str(value)


def item_field_text(e: CatalogItem, field: str) -> str:
    """The text an item field is edited as (``range`` -> ``"CC"``, ``"10"`` or ``"-"``)."""
    if field == "use":
        return use_edit(e)
    if field == "range":
        return range_edit(e)
    if field == "damage":
        return damage_edit(e)
    if field == "cost":
        return e.cost_text()
    if field in ("thrown_range", "thrown_use"):
        return optional_int_edit(getattr(e, field))
    if field == "thrown_range_dice":
        return e.thrown_range_dice or "-"
    value = getattr(e, field)
    return str(value)


def unit_type_field_text(e: UnitType, field: str) -> str:
    if field == "action_die":
        return f"d{e.action_die}"
    if field == "cost":
        return e.cost_text()
    return str(getattr(e, field))


def item_error(field: str, text: str) -> str | None:
    """``None`` when ``text`` is a value the rules allow for this item field, else why not."""
    try:
        validate_item_field(field, text)
    except CatalogError as exc:
        return exc.reason
    return None


def unit_type_error(field: str, text: str) -> str | None:
    try:
        validate_unit_type_field(field, text)
    except CatalogError as exc:
        return exc.reason
    return None


#: Which stored fields a column edits (Range sets the inches and the Close Combat flag).
FIELD_PARTS: dict[str, tuple[str, ...]] = {"range": ("range_inches", "close_combat")}


def differs(entry: CatalogEntry, field: str) -> bool:
    return any(f in entry.changed for f in FIELD_PARTS.get(field, (field,)))


def rules_value(entry: CatalogEntry, field: str) -> str | None:
    """The rules' value of a field as text, for tooltips (``None`` for custom entries)."""
    d = entry.default
    if d is None:
        return None
    if isinstance(d, CatalogItem):
        if field == "range":
            return d.range_text()
        if field == "use":
            return d.use_text()
        if field == "damage":
            return d.damage_text()
        if field == "category":
            return str(d.category)
        if field in ("cost",):
            return d.cost_text()
        return item_field_text(d, field)
    return unit_type_field_text(d, field)


def rules_text(entry: CatalogEntry) -> str:
    if entry.custom:
        return "custom"
    if entry.changed:
        return "house rule"
    return "rules"


def rules_tip(entry: CatalogEntry) -> str:
    if entry.custom:
        return "A custom entry of this campaign (not in the rules)"
    if entry.changed:
        names = ", ".join(FIELD_LABELS.get(f, f) for f in entry.changed)
        return f"House rule: {names} differ from the rules"
    return "As in the rules"


def _edit_text(text: Callable[[Any, str], str], field: str) -> Callable[[CatalogEntry], str]:
    """The text the editor of ``field`` starts with, for a row of the table."""
    return lambda row: text(row.entry, field)


def _short(text: str, n: int = 90) -> str:
    one = " ".join(text.split())
    return one if len(one) <= n else one[: n - 1] + "…"


# -- the models ---------------------------------------------------------------------------------


class CatalogTableModel(EditableTableModel):
    """Catalog entries with per-cell house-rule marks; ``fields[column]`` names each column's
    field (or ``""``)."""

    def __init__(
        self,
        columns: tuple[Column, ...],
        fields: tuple[str, ...],
        editors: dict[int, Editor],
        validate: Callable[[str, str], str | None],
        commit: Commit | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(
            columns,
            editors,
            commit,
            validate,
            parent,
            filter_text=lambda e: " ".join(c.text(e) for c in columns),
        )
        self.fields = fields
        self._bold = QFont()
        self._bold.setBold(True)

    def extra_data(self, row: Any, column: int, role: int) -> Any:
        field = self.fields[column] if column < len(self.fields) else ""
        marked = bool(field) and differs(row, field)
        custom = row.custom
        if role == Qt.ItemDataRole.BackgroundRole and (marked or (custom and field == "rules")):
            return QBrush(HOUSE_BACKGROUND.q())
        if role == Qt.ItemDataRole.FontRole and (marked or (field == "rules" and row.house_rule)):
            return self._bold
        if role == Qt.ItemDataRole.ForegroundRole and field == "rules":
            if custom:
                return QBrush(CUSTOM_FOREGROUND.q())
            if row.changed:
                return QBrush(HOUSE_FOREGROUND.q())
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if (
            role == Qt.ItemDataRole.ToolTipRole
            and index.isValid()
            and 0 <= index.row() < self.rowCount()
        ):
            row = self.row_for(index.row())
            field = self.fields[index.column()]
            if field == "rules":
                return rules_tip(row)
            if field and differs(row, field):
                was = rules_value(row, field)
                return f"House rule. The rules say: {was}" if was is not None else None
            if field == "notes":
                return row.entry.notes or None
        return super().data(index, role)


ITEM_FIELDS = ("name", "category", "cost", "use", "range", "damage", "hands", "rules", "notes")


def item_model(commit: Commit | None = None, parent: QObject | None = None) -> CatalogTableModel:
    columns = (
        Column("Name", lambda r: r.entry.name, width_hint=150),
        Column("Category", lambda r: str(r.entry.category), width_hint=78),
        Column(
            "Cost",
            lambda r: r.entry.cost_text(),
            align_right=True,
            width_hint=46,
            sort_key=lambda r: -1 if r.entry.cost is None else r.entry.cost,
        ),
        Column(
            "Use",
            lambda r: r.entry.use_text(),
            align_right=True,
            width_hint=66,
            sort_key=lambda r: -1 if r.entry.use is None else r.entry.use,
        ),
        Column(
            "Range",
            lambda r: r.entry.range_text(),
            width_hint=78,
            sort_key=lambda r: (r.entry.range_inches or 0, r.entry.range_text()),
        ),
        Column("Damage", lambda r: r.entry.damage_text(), width_hint=84),
        Column("Hands", lambda r: str(r.entry.hands), align_right=True, width_hint=50),
        Column("Rules", rules_text, width_hint=80),
        Column("Notes", lambda r: _short(r.entry.notes), width_hint=120),
    )
    editors = {
        i: Editor(f, _edit_text(item_field_text, f))
        for i, f in enumerate(ITEM_FIELDS)
        if f in ("name", "cost", "use", "range", "damage", "hands")
    }
    return CatalogTableModel(columns, ITEM_FIELDS, editors, item_error, commit, parent)


UNIT_TYPE_FIELDS = (
    "name",
    "action_die",
    "move",
    "armor",
    "cost",
    "hands",
    "over_the_top",
    "rules",
    "notes",
)


def unit_type_model(
    commit: Commit | None = None, parent: QObject | None = None
) -> CatalogTableModel:
    columns = (
        Column("Name", lambda r: r.entry.name, width_hint=150),
        Column(
            "Action die",
            lambda r: f"d{r.entry.action_die}",
            width_hint=76,
            sort_key=lambda r: r.entry.action_die,
        ),
        Column(
            "Move",
            lambda r: f'{r.entry.move}"',
            align_right=True,
            width_hint=56,
            sort_key=lambda r: r.entry.move,
        ),
        Column("Armor", lambda r: r.entry.armor, width_hint=64),
        Column(
            "Cost",
            lambda r: r.entry.cost_text(),
            align_right=True,
            width_hint=52,
            sort_key=lambda r: -1 if r.entry.cost is None else r.entry.cost,
        ),
        Column("Hands", lambda r: str(r.entry.hands), align_right=True, width_hint=54),
        Column("Over the Top", lambda r: "yes" if r.entry.over_the_top else "never", width_hint=96),
        Column("Rules", rules_text, width_hint=86),
        Column("Notes", lambda r: _short(r.entry.notes), width_hint=200),
    )
    editors = {
        i: Editor(f, _edit_text(unit_type_field_text, f))
        for i, f in enumerate(UNIT_TYPE_FIELDS)
        if f in ("name", "action_die", "move", "armor", "cost", "hands")
    }
    return CatalogTableModel(columns, UNIT_TYPE_FIELDS, editors, unit_type_error, commit, parent)
