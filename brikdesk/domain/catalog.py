"""The weapon catalog and unit types of a rules edition (chapter 2, the unit table and chapter 3, the weapon table).

"Rules as data" (docs/conventions.md): the defaults live in ``resources/catalog-<edition>.json``,
one set per rules edition, loaded and validated here. A campaign's own edits (house rules) are
stored apart from the defaults; ``CatalogItem.house_rule`` marks an entry that differs.

The file format (``"format": "brikdesk-catalog"``, ``"version": 1``) is a JSON object with the
fields ``edition``, ``cost_unit``, ``source``, ``unit_types`` (a list) and ``items`` (a list).
Each entry is an object whose fields are the dataclass fields below, spelled the same way.
Required fields are always written; optional ones only when they differ from their default, so
``catalog_to_dict(catalog_from_dict(d)) == d`` for every file in that canonical form (the default
files are). Validation refuses a whole file on its first problem and says where it is
(``"catalog-2020.json, item 'shield', field 'use': must be ..."``): see ``CatalogError``.

Readings (``READINGS``, shown by the interface as notes):

- A Shield gives Deflection only on a successful Parry (5.2): ``shield=True`` with
  ``parry_deflection=1``; worn armour's always-on Deflection is ``deflection``.
- ``armor_piercing`` and ``charging`` mark weapons that *can* be so; the conditions (a Heavy
  Weapon held in both hands; a thrusting build on foot, 5.4) are in the entry's notes.
- ``thrown_range_dice`` is a thrown distance that is rolled (2005 Explosive: ``1d6+2`` inches).
- ``as_object`` marks the Thrown Object row: its Use and Damage are those of the object thrown.
- Costs the rules leave to the organizer are BrikDesk defaults, stated in the entry's notes.

The loader is the one function here that reads a file (``load_default_catalog``); everything
else is pure. Parsed dice are cached (``CatalogItem.damage_expr``, ``armor_value``) so roster
code can run over thousands of units without parsing again.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass, fields, replace
from enum import Enum
from functools import cache, cached_property, lru_cache
from typing import Any, TypeVar

from brikdesk.domain.dice import ACTION_DICE, DiceExpr, DiceSyntaxError, parse
from brikdesk.errors import UserError
from brikdesk.limits import text_problem

FORMAT_NAME = "brikdesk-catalog"
#: The catalog file format version this BrikDesk reads and writes.
FORMAT_VERSION = 1

MAX_USE = 20
MAX_RANGE = 200
MAX_COST = 999
MAX_ITEM_HANDS = 2
MAX_UNIT_HANDS = 6
MAX_MOVE = 100
MAX_ARMOR = 99
MAX_INCHES_EFFECT = 50  # explosive radius, KnockBack
MAX_DEFLECTION = 5
MAX_BONUS = 20  # armour bonus, move penalty
MAX_NAME = 80
MAX_NOTES = 2000
MAX_KEY = 64

#: Keys are lowercase words joined by hyphens (``"long-ranged-weapon"``) or underscores.
KEY_RE = re.compile(r"[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?\Z")

READINGS: dict[str, str] = {
    "shield": (
        "A Shield gives Deflection only against Damage it successfully Parries (5.2 Parrying "
        "Strikes and Other Damage): BrikDesk stores it as 'shield' with 'Parry Deflection 1'. "
        "Worn Heavy Armor's Deflection applies to every Damage roll (3.3 Bodily Protection)."
    ),
    "armor_piercing": (
        "A Heavy Weapon is Armor Piercing only when held in both hands (chapter 3, the weapon table); the "
        "flag marks weapons that can be, the notes say when."
    ),
    "charging": (
        "A Charging weapon (5.4) is a Two-Handed Weapon, or a Heavy Weapon swung or thrust "
        "with both hands; on foot it must be built for thrusts. The flag marks weapons that can "
        "be; the referee checks the build."
    ),
    "thrown_range_dice": (
        "The 2005 Explosive is thrown 1d6+2 inches (chapter 3, the weapon table): a rolled distance, "
        "stored as 'thrown range dice'."
    ),
    "as_object": (
        "A Thrown Object uses the Close Combat Use and Damage of the object thrown "
        '(chapter 3, the weapon table); its own row only gives the 3" Range.'
    ),
    "organizer_costs": (
        "The rules leave the cost of Incompetent units and the 2020 specialists to the "
        "organizer (chapter 2, the unit table). BrikDesk defaults: Incompetent 2 CP, Skirmisher 4 CP, "
        "Heavy 4 CP, Cannon Fodder 2 CP; a Horse costs as one minifig, 4 CP."
    ),
    "horse_hands": (
        "A Horse (steed or single-rider vehicle) holds nothing: its rider does. It has 0 hands "
        "and no Counters of its own."
    ),
    "house_rule": (
        "An entry is marked as a house rule when it is a campaign's own entry or when any of "
        "its values differs from the rules' default; an edit that puts back every default value "
        "is not a house rule."
    ),
}

#: What the interface calls each field (for messages and the "differs from the rules" marks).
FIELD_LABELS: dict[str, str] = {
    "key": "Key",
    "name": "Name",
    "category": "Category",
    "cost": "Cost",
    "use": "Use",
    "range": "Range",
    "range_inches": "Range",
    "close_combat": "Close Combat",
    "damage": "Damage",
    "hands": "Hands",
    "thrown_range": "Thrown Range",
    "thrown_use": "Thrown Use",
    "thrown_range_dice": "Thrown Range dice",
    "explosive_radius": "Explosion radius",
    "knockback": "KnockBack",
    "armor_bonus": "Armor bonus",
    "deflection": "Deflection",
    "parry_deflection": "Parry Deflection",
    "half_speed": "Half Speed",
    "cant_swim": "Can't swim",
    "charging": "Charging weapon",
    "shield": "Shield",
    "armor_piercing": "Armor Piercing",
    "move_penalty": "Move penalty",
    "worn": "Worn",
    "as_object": "As object",
    "notes": "Notes",
    "house_rule": "House rule",
    "action_die": "Action die",
    "move": "Move",
    "armor": "Armor",
    "over_the_top": "Over the Top",
}


class Edition(str, Enum):
    """Rules editions BrikDesk knows; 2020 is the default rule set."""

    E2020 = "2020"
    E2010 = "2010"
    E2005 = "2005"

    def __str__(self) -> str:
        return self.value


DEFAULT_EDITION = Edition.E2020


class Category(str, Enum):
    WEAPON = "weapon"
    SHIELD = "shield"
    ARMOR = "armor"
    EQUIPMENT = "equipment"
    OBJECT = "object"

    def __str__(self) -> str:
        return self.value


class CatalogError(UserError):
    """A catalog file or entry that BrikDesk refuses, saying what is wrong and where.

    ``source`` is the file (``"catalog-2020.json"``) or ``"house rule"``; ``entry`` the entry
    (``"item 'shield'"``); ``field`` the field name (named in the message with an entry; the
    catalog-level messages name it themselves); ``reason`` the bare reason, fit to show under
    an edited field. ``str()`` joins them: ``"catalog-2020.json, item 'shield', field
    'use': must be null (-) or a whole number from 0 to 20, not 'two'"``.
    """

    def __init__(
        self,
        reason: str,
        *,
        source: str | None = None,
        entry: str | None = None,
        field: str | None = None,
    ) -> None:
        where = [p for p in (source, entry) if p]
        if entry and field:
            where.append(f"field '{field}'")
        message = f"{', '.join(where)}: {reason}" if where else reason
        super().__init__(message, field=field)
        self.reason = reason
        self.source = source
        self.entry = entry


@lru_cache(maxsize=4096)
def parse_damage(text: str) -> DiceExpr | None:
    """The parsed Damage expression (cached); ``None`` for ``""`` (no Damage)."""
    return parse(text) if text else None


@lru_cache(maxsize=4096)
def armor_value(text: str) -> DiceExpr | int:
    """Armor as a number (``"4"`` -> 4) or dice (``"2d6+2"``), cached.

    Armor is a whole number 0..99 or a dice expression without ``dA`` or ``Exp`` (a Hero's
    ``2d6``, rolled each time it takes damage: chapter 2, the unit table). Raises ``CatalogError``.
    """
    if not isinstance(text, str):
        raise CatalogError(f'Armor must be text such as "4" or "2d6", not {_show(text)}')
    t = text.strip()
    if re.fullmatch(r"\d{1,6}", t):
        value = int(t)
        if value > MAX_ARMOR:
            raise CatalogError(f"Armor is at most {MAX_ARMOR}, not {value}")
        return value
    try:
        expr = parse(t)
    except DiceSyntaxError as exc:
        raise CatalogError(
            f"Armor is a number (4) or dice (2d6), and '{text}' is neither: {exc}"
        ) from None
    if expr.uses_action_die:
        raise CatalogError("Armor dice can't use dA (the Action die)")
    if expr.explosive:
        raise CatalogError("Armor dice can't be explosive (Exp)")
    if not expr.terms:
        value = expr.flat
        if not 0 <= value <= MAX_ARMOR:
            raise CatalogError(f"Armor must be from 0 to {MAX_ARMOR}, not {value}")
        return value
    return expr


def armor_text(value: DiceExpr | int) -> str:
    """The text of an Armor value: ``"6"``, ``"2d6+2"``."""
    return str(value)


@dataclass(frozen=True)
class CatalogItem:
    """One row of the weapon and equipment table (chapter 3, the weapon table).

    ``use is None`` is Use ``-`` (trivial, no roll). ``range_inches is None`` with
    ``close_combat`` is Range ``CC``. ``damage`` is a dice expression (``"1dA+2"``,
    ``"1d10 Exp"``) or ``""`` for items that do no Damage. ``hands`` is how many hands it takes
    in hand (0 for worn armour).

    Allowed values: ``cost`` None (``-``, free) or 0..999; ``use`` None or 0..20;
    ``range_inches`` None or 1..200 (never together with ``close_combat``); ``hands`` 0..2
    (0 when ``worn``); ``thrown_range`` 1..200 and ``thrown_use`` 0..20 for items that can be
    thrown; ``thrown_range_dice`` a rolled thrown distance (2005 Explosive ``1d6+2``);
    ``explosive_radius`` and ``knockback`` 0..50 inches; ``armor_bonus`` 0..20 (worn: Body
    Armor +2); ``deflection`` 0..5 (worn: Heavy Armor 1); ``parry_deflection`` 0..5 (a Shield's
    Deflection on a successful Parry, 5.2); ``move_penalty`` 0..20 inches (2005 Body Armor and
    Two-Handed Weapon 1); ``as_object``: Use and Damage are those of the object thrown.
    """

    key: str
    name: str
    category: Category
    cost: int | None
    use: int | None
    range_inches: int | None
    close_combat: bool
    damage: str
    hands: int
    thrown_range: int | None = None
    thrown_use: int | None = None
    explosive_radius: int = 0
    knockback: int = 0
    armor_bonus: int = 0
    deflection: int = 0
    half_speed: bool = False
    cant_swim: bool = False
    charging: bool = False
    shield: bool = False
    armor_piercing: bool = False
    move_penalty: int = 0
    worn: bool = False
    notes: str = ""
    house_rule: bool = False
    parry_deflection: int = 0
    thrown_range_dice: str = ""
    as_object: bool = False

    @property
    def deals_damage(self) -> bool:
        """True when the item has a Damage roll of its own (Bare Hands and Shields do not)."""
        return bool(self.damage)

    @property
    def two_handed(self) -> bool:
        return self.hands >= 2

    @property
    def damage_expr(self) -> DiceExpr | None:
        """The parsed Damage (cached across items with the same text); ``None`` for none."""
        return parse_damage(self.damage)

    @property
    def thrown(self) -> bool:
        return self.thrown_range is not None or bool(self.thrown_range_dice)

    def range_text(self) -> str:
        if self.range_inches is not None:
            return f'{self.range_inches}"'
        if self.close_combat:
            return "CC"
        if self.thrown_range is not None:
            return f'{self.thrown_range}" thrown'
        if self.thrown_range_dice:
            return f'{self.thrown_range_dice}" thrown'
        return "-"

    def use_text(self) -> str:
        if self.use is None and self.as_object:
            return "as object"
        return "-" if self.use is None else str(self.use)

    def damage_text(self) -> str:
        if not self.damage:
            return "as object" if self.as_object else "-"
        return self.damage

    def cost_text(self) -> str:
        return "-" if self.cost is None else str(self.cost)


@dataclass(frozen=True)
class UnitType:
    """A unit type (chapter 2, the unit table). ``armor`` is a number (``"4"``) or dice (``"2d6"``).

    Allowed values: ``action_die`` one of 4, 6, 8, 10, 12; ``move`` 0..100 inches; ``armor`` a
    number 0..99 or dice without ``dA``; ``cost`` None (``-``) or 0..999; ``hands`` 0..6 (a
    minifig has 2, a Horse 0); ``over_the_top`` False for types that never go Over the Top.
    """

    key: str
    name: str
    action_die: int
    move: int
    armor: str
    cost: int | None
    hands: int = 2
    over_the_top: bool = True
    notes: str = ""
    house_rule: bool = False

    @property
    def armor_dice(self) -> DiceExpr | int:
        """The parsed Armor (cached): 4 or the dice ``2d6``."""
        return armor_value(self.armor)

    def cost_text(self) -> str:
        return "-" if self.cost is None else str(self.cost)


@dataclass(frozen=True)
class Catalog:
    """All default unit types and items of one rules edition."""

    edition: Edition
    version: int
    unit_types: tuple[UnitType, ...]
    items: tuple[CatalogItem, ...]
    cost_unit: str = "CP"
    source: str = ""

    @cached_property
    def _items_by_key(self) -> dict[str, CatalogItem]:
        return {it.key: it for it in self.items}

    @cached_property
    def _types_by_key(self) -> dict[str, UnitType]:
        return {ut.key: ut for ut in self.unit_types}

    def item(self, key: str) -> CatalogItem:
        return self._items_by_key[key]

    def unit_type(self, key: str) -> UnitType:
        return self._types_by_key[key]

    def get_item(self, key: str) -> CatalogItem | None:
        return self._items_by_key.get(key)

    def get_unit_type(self, key: str) -> UnitType | None:
        return self._types_by_key.get(key)


# --------------------------------------------------------------------------- validation


class _Invalid(Exception):
    """A value refused by a field check; becomes a ``CatalogError`` with its location."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _show(value: Any) -> str:
    """A short description of a bad value for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f"'{text}'"
    if isinstance(value, int | float):
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return f"a {type(value).__name__}"


Check = Callable[[Any], Any]


def _int_check(lo: int, hi: int, *, optional: bool = False) -> Check:
    def check(value: Any) -> Any:
        if value is None and optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            null = "null (-) or " if optional else ""
            raise _Invalid(f"must be {null}a whole number from {lo} to {hi}, not {_show(value)}")
        if not lo <= value <= hi:
            raise _Invalid(f"must be from {lo} to {hi}, not {value}")
        return value

    return check


def _bool_check(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Invalid(f"must be true or false, not {_show(value)}")
    return value


def _text_check(max_len: int, *, empty: bool) -> Check:
    def check(value: Any) -> str:
        if not isinstance(value, str):
            raise _Invalid(f"must be text, not {_show(value)}")
        if not empty and not value.strip():
            raise _Invalid("must not be empty")
        problem = text_problem(value, max_len, lines=True)  # as every text BrikDesk keeps
        if problem is not None:
            raise _Invalid(problem)
        return value

    return check


def _key_check(value: Any) -> str:
    if not isinstance(value, str):
        raise _Invalid(f"must be text, not {_show(value)}")
    if not KEY_RE.match(value):
        raise _Invalid(
            f"{_show(value)} is not a key: use lowercase letters, digits, hyphens "
            f"and underscores (like 'hand-weapon'), at most {MAX_KEY} characters"
        )
    return value


def _enum_check(enum: type[Enum]) -> Check:
    allowed = [str(m.value) for m in enum]

    def check(value: Any) -> Any:
        if not isinstance(value, str) or value not in allowed:
            raise _Invalid(f"must be one of {', '.join(allowed)}, not {_show(value)}")
        return enum(value)

    return check


def _dice_text(value: Any, example: str) -> tuple[str, DiceExpr | None]:
    """A dice expression given as text (``""``: none): the text and its parse; ``example`` goes
    in the refusal."""
    if not isinstance(value, str):
        raise _Invalid(f"must be a dice expression as text {example}, not {_show(value)}")
    try:
        return value, parse_damage(value) if value else None
    except DiceSyntaxError as exc:
        raise _Invalid(f"{_show(value)} is not a dice expression: {exc}") from None


def _damage_check(value: Any) -> str:
    text, _expr = _dice_text(value, '("1dA+2") or "" for none')
    return text


def _distance_dice_check(value: Any) -> str:
    text, expr = _dice_text(value, '("1d6+2") or ""')
    if expr is not None and expr.explosive:
        raise _Invalid("a distance can't be explosive (Exp)")
    return text


def _action_die_check(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in ACTION_DICE:
        raise _Invalid(
            "must be one of the Action dice "
            + ", ".join(str(s) for s in ACTION_DICE)
            + f", not {_show(value)}"
        )
    return int(value)


def _armor_check(value: Any) -> str:
    if not isinstance(value, str):
        raise _Invalid(f'must be text such as "4" or "2d6", not {_show(value)}')
    try:
        armor_value(value)
    except CatalogError as exc:
        raise _Invalid(exc.reason) from None
    return value


_ITEM_CHECKS: dict[str, Check] = {
    "key": _key_check,
    "name": _text_check(MAX_NAME, empty=False),
    "category": _enum_check(Category),
    "cost": _int_check(0, MAX_COST, optional=True),
    "use": _int_check(0, MAX_USE, optional=True),
    "range_inches": _int_check(1, MAX_RANGE, optional=True),
    "close_combat": _bool_check,
    "damage": _damage_check,
    "hands": _int_check(0, MAX_ITEM_HANDS),
    "thrown_range": _int_check(1, MAX_RANGE, optional=True),
    "thrown_use": _int_check(0, MAX_USE, optional=True),
    "explosive_radius": _int_check(0, MAX_INCHES_EFFECT),
    "knockback": _int_check(0, MAX_INCHES_EFFECT),
    "armor_bonus": _int_check(0, MAX_BONUS),
    "deflection": _int_check(0, MAX_DEFLECTION),
    "half_speed": _bool_check,
    "cant_swim": _bool_check,
    "charging": _bool_check,
    "shield": _bool_check,
    "armor_piercing": _bool_check,
    "move_penalty": _int_check(0, MAX_BONUS),
    "worn": _bool_check,
    "notes": _text_check(MAX_NOTES, empty=True),
    "house_rule": _bool_check,
    "parry_deflection": _int_check(0, MAX_DEFLECTION),
    "thrown_range_dice": _distance_dice_check,
    "as_object": _bool_check,
}

_UNIT_CHECKS: dict[str, Check] = {
    "key": _key_check,
    "name": _text_check(MAX_NAME, empty=False),
    "action_die": _action_die_check,
    "move": _int_check(0, MAX_MOVE),
    "armor": _armor_check,
    "cost": _int_check(0, MAX_COST, optional=True),
    "hands": _int_check(0, MAX_UNIT_HANDS),
    "over_the_top": _bool_check,
    "notes": _text_check(MAX_NOTES, empty=True),
    "house_rule": _bool_check,
}


def _defaults(cls: type) -> dict[str, Any]:
    """Field name -> default (``MISSING`` for required fields), in declaration order."""
    return {f.name: f.default for f in fields(cls)}


_ITEM_DEFAULTS = _defaults(CatalogItem)
_UNIT_DEFAULTS = _defaults(UnitType)
assert set(_ITEM_CHECKS) == set(_ITEM_DEFAULTS)
assert set(_UNIT_CHECKS) == set(_UNIT_DEFAULTS)


def _unknown_field(name: Any, known: Sequence[str]) -> str:
    if not isinstance(name, str):
        return f"unknown field {_show(name)}"
    close = difflib.get_close_matches(name, known, n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return f"unknown field '{name}'{hint}"


def _entry_name(kind: str, data: Mapping[Any, Any], index: int | None) -> str:
    key = data.get("key")
    if isinstance(key, str) and KEY_RE.match(key):
        return f"{kind} '{key}'"
    return f"{kind} #{index + 1}" if index is not None else kind


def _build(
    cls: type,
    checks: dict[str, Check],
    defaults: dict[str, Any],
    kind: str,
    data: Any,
    source: str | None,
    index: int | None,
) -> Any:
    if not isinstance(data, Mapping):
        entry = f"{kind} #{index + 1}" if index is not None else kind
        raise CatalogError(
            f"must be an object with fields, not {_show(data)}", source=source, entry=entry
        )
    entry = _entry_name(kind, data, index)
    for name in data:
        if name not in checks:
            raise CatalogError(_unknown_field(name, list(checks)), source=source, entry=entry)
    values: dict[str, Any] = {}
    for name, check in checks.items():
        if name in data:
            try:
                values[name] = check(data[name])
            except _Invalid as exc:
                raise CatalogError(exc.reason, source=source, entry=entry, field=name) from None
        elif defaults[name] is MISSING:
            raise CatalogError(f"missing field '{name}'", source=source, entry=entry)
    obj = cls(**values)
    problem = _cross_check(obj)
    if problem is not None:
        field, reason = problem
        raise CatalogError(reason, source=source, entry=entry, field=field)
    return obj


def _cross_check(obj: Any) -> tuple[str, str] | None:
    """Rules between fields of one entry: ``(field, reason)`` of the first broken one."""
    if not isinstance(obj, CatalogItem):
        return None
    if obj.worn and obj.hands:
        return "hands", "a worn item takes no hands (set hands to 0)"
    if obj.range_inches is not None and obj.close_combat:
        return "range_inches", "an item has a Range in inches or is Close Combat (CC), not both"
    if obj.thrown_range is not None and obj.thrown_range_dice:
        return "thrown_range_dice", "give a thrown Range in inches or as dice, not both"
    if obj.thrown_use is not None and not obj.thrown:
        return "thrown_use", "a thrown Use needs a thrown Range"
    return None


def item_from_dict(
    data: Mapping[str, Any], *, source: str | None = "house rule", index: int | None = None
) -> CatalogItem:
    """Validate one item entry (the file format, or a stored house rule); ``CatalogError``."""
    obj: CatalogItem = _build(
        CatalogItem, _ITEM_CHECKS, _ITEM_DEFAULTS, "item", data, source, index
    )
    return obj


def unit_type_from_dict(
    data: Mapping[str, Any], *, source: str | None = "house rule", index: int | None = None
) -> UnitType:
    """Validate one unit type entry (the file format, or a stored house rule)."""
    obj: UnitType = _build(UnitType, _UNIT_CHECKS, _UNIT_DEFAULTS, "unit type", data, source, index)
    return obj


def _to_dict(obj: Any, defaults: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, default in defaults.items():
        value = getattr(obj, name)
        if default is MISSING or value != default:
            out[name] = value.value if isinstance(value, Enum) else value
    return out


def item_to_dict(item: CatalogItem) -> dict[str, Any]:
    """The item in file form: required fields always, optional ones when not the default."""
    return _to_dict(item, _ITEM_DEFAULTS)


def unit_type_to_dict(unit_type: UnitType) -> dict[str, Any]:
    """The unit type in file form (see ``item_to_dict``)."""
    return _to_dict(unit_type, _UNIT_DEFAULTS)


_CATALOG_FIELDS = ("format", "version", "edition", "cost_unit", "source", "unit_types", "items")


def _list_of_entries(data: Mapping[str, Any], name: str, source: str | None) -> Sequence[Any]:
    if name not in data:
        raise CatalogError(f"missing field '{name}'", source=source)
    value = data[name]
    if not isinstance(value, list | tuple):
        raise CatalogError(
            f"'{name}' must be a list, not {_show(value)}", source=source, field=name
        )
    return value


def _unique(entries: Sequence[Any], kind: str, source: str | None) -> None:
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        if entry.key in seen:
            raise CatalogError(
                f"duplicate key '{entry.key}' ({kind} #{seen[entry.key] + 1} and #{i + 1})",
                source=source,
                entry=f"{kind} '{entry.key}'",
                field="key",
            )
        seen[entry.key] = i


def catalog_from_dict(data: Mapping[str, Any], *, source: str | None = "catalog") -> Catalog:
    """Validate a whole catalog and build it, or refuse it on the first problem.

    Checks: the format name ``"brikdesk-catalog"``, an integer ``version`` this BrikDesk reads,
    a known ``edition``, the lists ``unit_types`` and ``items``, every entry's fields (known
    names, types and ranges, Damage that parses, see ``CatalogItem``) and unique keys.
    ``source`` names the file in messages.
    """
    if not isinstance(data, Mapping):
        raise CatalogError(f"a catalog must be a JSON object, not {_show(data)}", source=source)
    if "format" not in data:
        raise CatalogError(
            f"this is not a BrikDesk catalog: missing field 'format' (\"{FORMAT_NAME}\")",
            source=source,
        )
    if data["format"] != FORMAT_NAME:
        raise CatalogError(
            f"this is not a BrikDesk catalog: 'format' is {_show(data['format'])}"
            f", expected '{FORMAT_NAME}'",
            source=source,
            field="format",
        )
    for name in data:
        if name not in _CATALOG_FIELDS:
            raise CatalogError(_unknown_field(name, _CATALOG_FIELDS), source=source)
    if "version" not in data:
        raise CatalogError("missing field 'version'", source=source)
    version = data["version"]
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise CatalogError(
            f"'version' must be a whole number from 1, not {_show(version)}",
            source=source,
            field="version",
        )
    if version > FORMAT_VERSION:
        raise CatalogError(
            f"catalog version {version} was written by a newer BrikDesk; this "
            f"one reads version {FORMAT_VERSION}",
            source=source,
            field="version",
        )
    if "edition" not in data:
        raise CatalogError("missing field 'edition'", source=source)
    try:
        edition = _enum_check(Edition)(data["edition"])
    except _Invalid as exc:
        raise CatalogError(f"'edition' {exc.reason}", source=source, field="edition") from None
    cost_unit = data.get("cost_unit", "CP")
    if not isinstance(cost_unit, str) or not cost_unit.strip() or len(cost_unit) > 20:
        raise CatalogError(
            f"'cost_unit' must be a short text such as \"CP\", not {_show(cost_unit)}",
            source=source,
            field="cost_unit",
        )
    note = data.get("source", "")
    if not isinstance(note, str) or len(note) > MAX_NOTES:
        raise CatalogError(
            f"'source' must be text of at most {MAX_NOTES} characters",
            source=source,
            field="source",
        )
    raw_types = _list_of_entries(data, "unit_types", source)
    raw_items = _list_of_entries(data, "items", source)
    unit_types = tuple(
        unit_type_from_dict(d, source=source, index=i) for i, d in enumerate(raw_types)
    )
    _unique(unit_types, "unit type", source)
    items = tuple(item_from_dict(d, source=source, index=i) for i, d in enumerate(raw_items))
    _unique(items, "item", source)
    return Catalog(
        edition=edition,
        version=version,
        unit_types=unit_types,
        items=items,
        cost_unit=cost_unit,
        source=note,
    )


def catalog_to_dict(catalog: Catalog) -> dict[str, Any]:
    """The catalog in file form; ``catalog_from_dict`` of it gives the same catalog back."""
    return {
        "format": FORMAT_NAME,
        "version": catalog.version,
        "edition": catalog.edition.value,
        "cost_unit": catalog.cost_unit,
        "source": catalog.source,
        "unit_types": [unit_type_to_dict(ut) for ut in catalog.unit_types],
        "items": [item_to_dict(it) for it in catalog.items],
    }


def _no_duplicate_fields(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in pairs:
        if name in out:
            raise _Invalid(f"the field '{name}' appears twice in one object")
        out[name] = value
    return out


def catalog_from_json(text: str, *, source: str | None = "catalog") -> Catalog:
    """Parse catalog JSON text (refusing a field written twice) and validate it."""
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_fields)
    except json.JSONDecodeError as exc:
        raise CatalogError(
            f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}", source=source
        ) from None
    except _Invalid as exc:
        raise CatalogError(exc.reason, source=source) from None
    except RecursionError:
        raise CatalogError("nested too deeply to read", source=source) from None
    return catalog_from_dict(data, source=source)


def to_edition(value: Edition | str) -> Edition:
    """``Edition`` from an edition or its text (``"2010"``); ``CatalogError`` if unknown."""
    if isinstance(value, Edition):
        return value
    try:
        return Edition(str(value).strip())
    except ValueError:
        raise CatalogError(
            f"unknown rules edition '{value}'; BrikDesk knows "
            + ", ".join(e.value for e in Edition),
            field="edition",
        ) from None


def load_default_catalog(edition: Edition | str = DEFAULT_EDITION) -> Catalog:
    """The default catalog of an edition from ``resources/catalog-<edition>.json`` (cached)."""
    return _load_default(to_edition(edition))


@cache
def _load_default(edition: Edition) -> Catalog:
    from brikdesk.paths import resource_path

    name = f"catalog-{edition}.json"
    try:
        text = resource_path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CatalogError(f"cannot be read: {exc}", source=name) from None
    catalog = catalog_from_json(text, source=name)
    if catalog.edition is not edition:
        raise CatalogError(
            f"holds the {catalog.edition} edition, not {edition}", source=name, field="edition"
        )
    return catalog


# --------------------------------------------------------------------------- house rules


def house_rule_diff(default_item: Any, item: Any) -> tuple[str, ...]:
    """Names of the fields in which ``item`` differs from ``default_item`` (in field order).

    Works for ``CatalogItem`` and ``UnitType``; ``house_rule`` itself is never compared. The
    interface marks these fields and offers "reset to the rules' value" for each.
    """
    return tuple(
        f.name
        for f in fields(default_item)
        if f.name != "house_rule"
        and getattr(default_item, f.name) != getattr(item, f.name, MISSING)
    )


_Entry = TypeVar("_Entry", CatalogItem, UnitType)


def _merge(
    defaults: tuple[_Entry, ...], overrides: Mapping[str, Any], cls: type[_Entry], kind: str
) -> tuple[_Entry, ...]:
    for key, entry in overrides.items():
        if not isinstance(entry, cls):
            raise CatalogError(
                f"the house rule stored under '{key}' is not a {kind}", source="house rule"
            )
        if entry.key != key:
            raise CatalogError(
                f"the house rule stored under '{key}' is for '{entry.key}'", source="house rule"
            )
    default_keys: set[str] = set()
    merged: list[_Entry] = []
    for d in defaults:
        default_keys.add(d.key)
        o = overrides.get(d.key)
        if o is None:
            merged.append(d)
        else:
            merged.append(replace(o, house_rule=bool(house_rule_diff(d, o))))
    merged.extend(
        replace(o, house_rule=True) for k, o in overrides.items() if k not in default_keys
    )
    return tuple(merged)


def with_house_rules(
    defaults: Catalog, items: Mapping[str, CatalogItem], unit_types: Mapping[str, UnitType]
) -> Catalog:
    """The campaign's catalog: the defaults with its house rules applied.

    An override replaces the default entry of the same key, in place, marked ``house_rule``
    when any value differs (``READINGS["house_rule"]``); a key the defaults lack is a custom
    entry, added after the defaults (in the mapping's order) and always marked.
    """
    return replace(
        defaults,
        items=_merge(defaults.items, items, CatalogItem, "catalog item"),
        unit_types=_merge(defaults.unit_types, unit_types, UnitType, "unit type"),
    )


def new_key(name: str, taken: Sequence[str] | set[str] = ()) -> str:
    """A key for a custom entry made from its name (``"Laser Sword"`` -> ``"laser-sword"``),
    with ``-2``, ``-3``... added when it is already taken."""
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[: MAX_KEY - 4].strip("-")
    base = base or "custom"
    taken_set = set(taken)
    key, n = base, 1
    while key in taken_set:
        n += 1
        key = f"{base}-{n}"
    return key


# --------------------------------------------------------------------------- field editing

_INT_RE = re.compile(r"[+-]?\d{1,9}\Z")
_INCHES_RE = re.compile(r"([+-]?\d{1,9})\s*(?:\"|''|”|″|in|inch|inches)?\Z", re.IGNORECASE)


def _dash(text: str) -> bool:
    return text in ("-", "–", "—", "")


def _typed_int(
    text: str, lo: int, hi: int, message: str, field: str, pattern: re.Pattern[str] = _INT_RE
) -> int:
    m = pattern.match(text)
    if not m:
        raise CatalogError(message, field=field)
    value = int(m.group(1) if m.groups() else m.group(0))
    if not lo <= value <= hi:
        raise CatalogError(f"{message} ({value} is out of range)", field=field)
    return value


def validate_item_field(field: str, text: str) -> Any:
    """Check one catalog item field as the user types it; return the value to store.

    Allowed (chapter 3, the weapon table): ``use`` ``-`` (trivial, no roll) or 0..20 -> ``int | None``;
    ``range`` ``CC``, ``-`` or 1..200 inches (``10`` or ``10"``) -> ``(range_inches,
    close_combat)``; ``range_inches``/``thrown_range`` ``-`` or 1..200 -> ``int | None``;
    ``thrown_use`` like ``use``; ``damage`` a dice expression (``1dA+2``, ``1d10 Exp``) or
    ``-`` for none -> its canonical text or ``""``; ``thrown_range_dice`` dice or ``-``;
    ``cost`` ``-`` (no cost) or 0..999 -> ``int | None``; ``hands`` 0..2; ``explosive_radius``
    and ``knockback`` 0..50 inches; ``armor_bonus`` and ``move_penalty`` 0..20;
    ``deflection`` and ``parry_deflection`` 0..5; ``name`` 1..80 characters; ``notes``.
    Raises ``CatalogError`` whose ``reason`` is fit to show under the field.
    """
    t = text.strip() if isinstance(text, str) else ""
    if field == "use" or field == "thrown_use":
        if _dash(t):
            return None
        return _typed_int(
            t,
            0,
            MAX_USE,
            f"{FIELD_LABELS[field]} is '-' (no roll needed) or a whole number from 0 to {MAX_USE}",
            field,
        )
    if field == "range":
        if t.upper() == "CC":
            return (None, True)
        if _dash(t):
            return (None, False)
        inches = _typed_int(
            t,
            1,
            MAX_RANGE,
            f"Range is 'CC' (Close Combat), '-' or a whole number of inches from 1 to {MAX_RANGE}",
            field,
            _INCHES_RE,
        )
        return (inches, False)
    if field in ("range_inches", "thrown_range"):
        if _dash(t):
            return None
        return _typed_int(
            t,
            1,
            MAX_RANGE,
            f"{FIELD_LABELS[field]} is '-' or a whole number of inches from 1 to {MAX_RANGE}",
            field,
            _INCHES_RE,
        )
    if field in ("damage", "thrown_range_dice"):
        if _dash(t):
            return ""
        try:
            expr = parse(t)
        except DiceSyntaxError as exc:
            example = "1dA+2 or 1d10 Exp" if field == "damage" else "1d6+2"
            raise CatalogError(
                f"{exc}; write dice like {example}, or '-' for none", field=field
            ) from None
        if field == "thrown_range_dice" and expr.explosive:
            raise CatalogError("a distance can't be explosive (Exp)", field=field)
        return str(expr)
    if field == "cost":
        if _dash(t):
            return None
        return _typed_int(
            t, 0, MAX_COST, f"Cost is '-' (no cost) or a whole number from 0 to {MAX_COST}", field
        )
    if field == "hands":
        return _typed_int(
            t, 0, MAX_ITEM_HANDS, "Hands is 0 (worn, or takes no hand), 1 or 2", field
        )
    ranges = {
        "explosive_radius": (0, MAX_INCHES_EFFECT, _INCHES_RE),
        "knockback": (0, MAX_INCHES_EFFECT, _INCHES_RE),
        "armor_bonus": (0, MAX_BONUS, _INT_RE),
        "move_penalty": (0, MAX_BONUS, _INCHES_RE),
        "deflection": (0, MAX_DEFLECTION, _INT_RE),
        "parry_deflection": (0, MAX_DEFLECTION, _INT_RE),
    }
    if field in ranges:
        lo, hi, pattern = ranges[field]
        if _dash(t):
            return 0
        return _typed_int(
            t, lo, hi, f"{FIELD_LABELS[field]} is a whole number from {lo} to {hi}", field, pattern
        )
    if field == "name":
        return _typed_name(t, field)
    if field == "notes":
        if len(text) > MAX_NOTES:
            raise CatalogError(f"Notes are at most {MAX_NOTES} characters", field=field)
        return text
    raise ValueError(f"validate_item_field: no such field {field!r}")


def _typed_name(t: str, field: str) -> str:
    if not t:
        raise CatalogError("Name must not be empty", field=field)
    if len(t) > MAX_NAME:
        raise CatalogError(f"Name is at most {MAX_NAME} characters", field=field)
    return t


def validate_unit_type_field(field: str, text: str) -> Any:
    """Check one unit type field as the user types it (chapter 2, the unit table); return the value.

    ``action_die`` ``d4``, ``d6``, ``d8``, ``d10`` or ``d12`` (or the number) -> ``int``;
    ``move`` 0..100 inches; ``armor`` a number 0..99 or dice such as ``2d6`` -> its text;
    ``cost`` ``-`` or 0..999; ``hands`` 0..6; ``name``; ``notes``.
    """
    t = text.strip() if isinstance(text, str) else ""
    if field == "action_die":
        digits = t.lower().removeprefix("d")
        if digits.isascii() and digits.isdigit() and int(digits) in ACTION_DICE:
            return int(digits)
        raise CatalogError(
            "Action die is one of " + ", ".join(f"d{s}" for s in ACTION_DICE), field=field
        )
    if field == "move":
        return _typed_int(
            t,
            0,
            MAX_MOVE,
            f"Move is a whole number of inches from 0 to {MAX_MOVE}",
            field,
            _INCHES_RE,
        )
    if field == "armor":
        try:
            return armor_text(armor_value(t))
        except CatalogError as exc:
            raise CatalogError(exc.reason, field=field) from None
    if field == "cost":
        return validate_item_field("cost", text)
    if field == "hands":
        return _typed_int(
            t,
            0,
            MAX_UNIT_HANDS,
            f"Hands is a whole number from 0 to {MAX_UNIT_HANDS} (a minifig has 2)",
            field,
        )
    if field in ("name", "notes"):
        return validate_item_field(field, text)
    raise ValueError(f"validate_unit_type_field: no such field {field!r}")
