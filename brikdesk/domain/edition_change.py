"""What a change of rules edition does to each army: every unit whose cost or stats change.

Pure functions over two catalogs (the campaign's catalog now and as it would be in the other
edition, house rules kept) and the armies' unit specs (``brikdesk.services.editions`` reads
them). ``army_changes(armies, old, new, types, items)`` maps every unit through the organizer's
choices (``types``/``items``: a missing key -> the key it becomes) and returns, per army, its
cost before and after and one ``UnitChange`` per unit whose cost, type or stats change, each
change said in words ("Move 7" -> 5"", "Explosive: Use 1 -> 3"). The edition change dialog
calls it again whenever a choice changes, so what it shows always follows the choices.

Readings (``READINGS``, in Help > Rules reference):

- A unit keeps its name, its loadout and what was set for it alone (a cost, an Action die, a
  Move or an Armor of its own, chapter 2, the unit table); its type and items are looked up in the new
  edition's catalog (chapter 2, the unit table and chapter 3, the weapon table), and a type or item that edition lacks (the 2020
  specialists Skirmisher, Heavy and Cannon Fodder have no 2005 or 2010 entry, chapter 2, the unit table)
  becomes the one the organizer chooses.
- The suggestion for a missing type is the new edition's type of the same name, else the one
  closest in Action die (counted three times), Move, Armor and cost; for an item, the same
  name, else the same category closest in Use, Range, hands, cost and Damage (chapter 3, the weapon table).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import partial

from brikdesk.cache import LruCache
from brikdesk.domain.catalog import FIELD_LABELS, Catalog, CatalogError, CatalogItem, UnitType
from brikdesk.domain.ids import ArmyId
from brikdesk.domain.roster import (
    Loadout,
    UnitOverrides,
    UnitSpec,
    UnitStats,
    effective_stats,
    unit_cost,
)

READINGS: dict[str, str] = {
    "changing_edition": (
        "Changing a campaign's rules edition keeps each unit's name, loadout and what was set "
        "for it alone (its own cost, Action die, Move or Armor); its unit type and items take "
        "the new edition's stats and costs (chapter 2, the unit table; chapter 3, the weapon table), with the "
        "campaign's house rules. A unit type or item the new edition lacks (the 2020 "
        "specialists Skirmisher, Heavy and Cannon Fodder are not in 2005 or 2010, chapter 2) becomes "
        "the one the organizer chooses before anything is changed; the preview lists every "
        "unit whose cost or stats change and each army's total before and after."
    ),
    "edition_suggestions": (
        "The suggested replacement for a missing unit type is the new edition's type of the "
        "same name, else the closest in Action die (counted three times), Move, Armor and "
        "cost (chapter 2); for an item, the same name, else the same category closest in Use, Range, "
        "hands, cost and Damage (chapter 3). The organizer may choose any other."
    ),
}

#: Item fields compared between editions (what the item is and does, not its words).
_ITEM_FIELDS = tuple(
    f.name
    for f in fields(CatalogItem)
    if f.name not in {"key", "name", "category", "cost", "notes", "house_rule", "worn"}
)


@dataclass(frozen=True)
class ArmyUnits:
    """An army and its units as they stand (the edition change's input)."""

    army_id: ArmyId
    army: str
    units: tuple[UnitSpec, ...]


@dataclass(frozen=True)
class UnitChange:
    """One unit whose cost, unit type or stats change: its cost before and after and each
    change in words (``details``)."""

    unit: str
    type_before: str
    type_after: str
    before: int
    after: int
    details: tuple[str, ...]

    def text(self, cost_unit: str) -> str:
        """``'Scout (Skirmisher → Minifig): 4 → 4 CP; Move 7" → 5", Armor 3 → 4'``."""
        kind = (
            self.type_before
            if self.type_before == self.type_after
            else f"{self.type_before} → {self.type_after}"
        )
        line = f"{self.unit} ({kind}): {self.before} → {self.after} {cost_unit}"
        return f"{line}; {', '.join(self.details)}" if self.details else line


@dataclass(frozen=True)
class ArmyChange:
    """An army's total cost before and after the change, and its units that change."""

    army_id: ArmyId
    army: str
    before: int
    after: int
    units: tuple[UnitChange, ...]

    def text(self, cost_unit: str) -> str:
        """``"Red Army: 16 → 14 CP"``."""
        return f"{self.army}: {self.before} → {self.after} {cost_unit}"


def suggest_type(old: UnitType, new: Catalog) -> UnitType:
    """The same name, else the closest Action die, Move, Armor and cost (the first on a tie)."""

    def distance(t: UnitType) -> tuple[int, int, int]:
        armor = 0 if t.armor == old.armor else 1
        return (
            0 if t.name.casefold() == old.name.casefold() else 1,
            abs(t.action_die - old.action_die) * 3
            + abs(t.move - old.move)
            + abs((t.cost or 0) - (old.cost or 0))
            + armor,
            new.unit_types.index(t),
        )

    return min(new.unit_types, key=distance)


def suggest_item(old: CatalogItem, new: Catalog) -> CatalogItem:
    """The same name, else the same category with the closest Use, Range, hands and cost."""

    def distance(i: CatalogItem) -> tuple[int, int, int, int]:
        return (
            0 if i.name.casefold() == old.name.casefold() else 1,
            0 if i.category == old.category else 1,
            abs((i.use or 0) - (old.use or 0))
            + abs((i.range_inches or 0) - (old.range_inches or 0))
            + abs(i.hands - old.hands)
            + abs((i.cost or 0) - (old.cost or 0))
            + (0 if i.damage == old.damage else 1),
            new.items.index(i),
        )

    return min(new.items, key=distance)


def mapped_spec(spec: UnitSpec, types: Mapping[str, str], items: Mapping[str, str]) -> UnitSpec:
    """``spec`` with its unit type and items replaced as chosen (others unchanged)."""
    lo = spec.loadout
    if spec.unit_type not in types and not any(
        k in items for k in (*lo.hands, *lo.worn, *lo.carried) if k
    ):
        return spec
    return UnitSpec(
        spec.name,
        types.get(spec.unit_type, spec.unit_type),
        Loadout(
            tuple(items.get(k, k) if k else k for k in lo.hands),
            tuple(items.get(k, k) for k in lo.worn),
            tuple(items.get(k, k) for k in lo.carried),
        ),
        spec.overrides,
        spec.notes,
    )


def _stats(spec: UnitSpec, catalog: Catalog) -> UnitStats | None:
    try:
        return effective_stats(spec, catalog)
    except CatalogError:  # a type neither catalog knows: its cost line says so
        return None


def _inches(v: int) -> str:
    return f'{v}"'


def _yes(v: bool) -> str:
    return "yes" if v else "no"


def _stat_changes(old: UnitStats | None, new: UnitStats | None) -> list[str]:
    if old is None or new is None:
        return []
    out = []
    for label, a, b in (
        ("Action die", f"d{old.action_die}", f"d{new.action_die}"),
        ("Move", _inches(old.move), _inches(new.move)),
        ("Armor", old.armor, new.armor),
        ("Deflection", str(old.deflection), str(new.deflection)),
        ("Half Speed", _yes(old.half_speed), _yes(new.half_speed)),
        ("Counters", str(old.counters), str(new.counters)),
        ("Over the Top", _yes(old.over_the_top), _yes(new.over_the_top)),
    ):
        if a != b:
            out.append(f"{label} {a} → {b}")
    return out


def _value(item: CatalogItem, name: str) -> str:
    v = getattr(item, name)
    if v is None or v == "":
        return "-"
    if isinstance(v, bool):
        return _yes(v)
    return str(v)


def _item_changes(old_key: str, new_key: str, old: Catalog, new: Catalog) -> str | None:
    """An item's changes in words (``"Explosive: Use 1 → 3"``), or None if it is the same."""
    a, b = old.get_item(old_key), new.get_item(new_key)
    if a is None or b is None:
        return None
    parts = [
        f"{FIELD_LABELS.get(n, n)} {_value(a, n)} → {_value(b, n)}"
        for n in _ITEM_FIELDS
        if getattr(a, n) != getattr(b, n)
    ]
    if a.cost != b.cost:
        parts.insert(0, f"{a.cost_text()} → {b.cost_text()} {new.cost_unit}")
    if a.name != b.name:
        return f"{a.name} → {b.name}" + (f" ({', '.join(parts)})" if parts else "")
    return f"{a.name}: {', '.join(parts)}" if parts else None


def _type_name(key: str, catalog: Catalog) -> str:
    ut = catalog.get_unit_type(key)
    return ut.name if ut is not None else f"unknown unit type '{key}'"


#: A unit as costs and stats see it: its type, loadout and own settings (not its name).
_Kind = tuple[str, Loadout, UnitOverrides]


def _kind(spec: UnitSpec) -> _Kind:
    return (spec.unit_type, spec.loadout, spec.overrides)


class ChangeCosts:
    """``army_changes`` for one pair of catalogs, each kind of unit worked out once.

    A unit's numbers in the old catalog do not depend on the choices, and in the new one only
    on the unit as mapped, so both are kept in a cache (by kind of unit: type, loadout and own
    settings) across calls: when one choice changes, only the units it maps are worked out
    again (``benchmarks/bench_edition_change.py``)."""

    def __init__(self, old: Catalog, new: Catalog, size: int = 8192) -> None:
        self.old, self.new = old, new
        self._before: LruCache[_Kind, tuple[UnitStats | None, int, str]] = LruCache(size)
        self._after: LruCache[_Kind, tuple[UnitStats | None, int, str]] = LruCache(size)
        self._items: LruCache[tuple[str, str], str | None] = LruCache(size)
        self._changes: LruCache[tuple[_Kind, _Kind], UnitChange] = LruCache(size)

    @staticmethod
    def _side(spec: UnitSpec, catalog: Catalog) -> tuple[UnitStats | None, int, str]:
        return (
            _stats(spec, catalog),
            unit_cost(spec, catalog).total,
            _type_name(spec.unit_type, catalog),
        )

    def _make(self, spec: UnitSpec, after: UnitSpec) -> UnitChange:
        old_stats, before, type_before = self._before.get(
            _kind(spec), lambda: self._side(spec, self.old)
        )
        new_stats, cost, type_after = self._after.get(
            _kind(after), lambda: self._side(after, self.new)
        )
        details = _stat_changes(old_stats, new_stats)
        seen: set[tuple[str, str]] = set()
        for (k, _w), (k2, _w2) in zip(spec.loadout.placed(), after.loadout.placed(), strict=True):
            if (k, k2) in seen:
                continue
            seen.add((k, k2))
            said = self._items.get((k, k2), partial(_item_changes, k, k2, self.old, self.new))
            if said is not None:
                details.append(said)
        return UnitChange("", type_before, type_after, before, cost, tuple(details))

    def unit(
        self, spec: UnitSpec, types: Mapping[str, str], items: Mapping[str, str]
    ) -> UnitChange:
        """What happens to one unit (no ``details`` and equal costs: nothing)."""
        return replace(self._change(spec, types, items), unit=spec.name)

    def _change(
        self, spec: UnitSpec, types: Mapping[str, str], items: Mapping[str, str]
    ) -> UnitChange:
        after = mapped_spec(spec, types, items)
        return self._changes.get((_kind(spec), _kind(after)), lambda: self._make(spec, after))

    def armies(
        self, armies: Sequence[ArmyUnits], types: Mapping[str, str], items: Mapping[str, str]
    ) -> tuple[ArmyChange, ...]:
        """Each army's cost before and after, with the units whose cost, type or stats
        change."""
        kinds: dict[_Kind, UnitChange] = {}  # units alike but for their name: once per call
        out = []
        for a in armies:
            before = after = 0
            changed = []
            for spec in a.units:
                kind = _kind(spec)
                c = kinds.get(kind)
                if c is None:
                    c = kinds[kind] = self._change(spec, types, items)
                before += c.before
                after += c.after
                if c.details or c.before != c.after or c.type_before != c.type_after:
                    changed.append(
                        UnitChange(
                            spec.name, c.type_before, c.type_after, c.before, c.after, c.details
                        )
                    )
            out.append(ArmyChange(a.army_id, a.army, before, after, tuple(changed)))
        return tuple(out)


def army_changes(
    armies: Sequence[ArmyUnits],
    old: Catalog,
    new: Catalog,
    types: Mapping[str, str],
    items: Mapping[str, str],
) -> tuple[ArmyChange, ...]:
    """Each army's cost before and after ``old`` -> ``new`` with these choices, with the
    units whose cost, type or stats change."""
    return ChangeCosts(old, new).armies(armies, types, items)
