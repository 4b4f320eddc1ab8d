"""The weapon catalog and unit types of a rules edition (rules facts §2 and §3).

Rules as data (design convention 2): the defaults live in ``resources/catalog-<edition>.json``,
one set per rules edition, loaded and validated here. A campaign's own edits (house rules) are
stored apart from the defaults; ``CatalogItem.house_rule`` marks an entry that differs.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


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


@dataclass(frozen=True)
class CatalogItem:
    """One row of the weapon and equipment table (rules facts §3).

    ``use is None`` is Use ``-`` (trivial, no roll). ``range_inches is None`` with
    ``close_combat`` is Range ``CC``. ``damage`` is a dice expression (``"1dA+2"``,
    ``"1d10 Exp"``) or ``""`` for items that do no Damage. ``hands`` is how many hands it takes
    in hand (0 for worn armour).
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

    @property
    def is_weapon(self) -> bool:
        return bool(self.damage) or self.category is Category.WEAPON

    @property
    def two_handed(self) -> bool:
        return self.hands >= 2

    def range_text(self) -> str:
        if self.range_inches is not None:
            return f'{self.range_inches}"'
        return "CC" if self.close_combat else "-"

    def use_text(self) -> str:
        return "-" if self.use is None else str(self.use)


@dataclass(frozen=True)
class UnitType:
    """A unit type (rules facts §2). ``armor`` is a number (``"4"``) or dice (``"2d6"``)."""

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


@dataclass(frozen=True)
class Catalog:
    """All default unit types and items of one rules edition."""

    edition: Edition
    version: int
    unit_types: tuple[UnitType, ...]
    items: tuple[CatalogItem, ...]

    def item(self, key: str) -> CatalogItem:
        for it in self.items:
            if it.key == key:
                return it
        raise KeyError(key)

    def unit_type(self, key: str) -> UnitType:
        for ut in self.unit_types:
            if ut.key == key:
                return ut
        raise KeyError(key)
