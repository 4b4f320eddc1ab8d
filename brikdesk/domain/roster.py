"""Units, their equipment, costs and roster checks (chapter 2, the unit table and chapter 3, the weapon table).

A unit is a ``UnitSpec``: a name, a unit type key, a ``Loadout`` (what it holds in each hand,
wears and carries, as catalog item keys) and optional per-unit overrides. From it and a
``Catalog`` (defaults with the campaign's house rules) this module computes:

- ``effective_stats``: Action die, Move, Armor and conditions once equipment is counted, with
  every change explained (``UnitStats.modifiers`` and ``UnitStats.reasons``);
- ``unit_cost`` / ``army_total``: itemised cost in the catalog's cost unit (CP);
- ``validate_unit`` / ``validate_army``: warnings (values, never exceptions; they never block
  saving) that name the unit and the rule.

Readings (``READINGS``, also shown to the user):

- Hands: a two-handed item is listed once in ``Loadout.hands`` and takes both hands; a ``None``
  (or a missing slot) is an empty hand.
- Armour stacking: a unit wears one suit of armour. Two worn items of the armour category (two
  Body Armor, or Body Armor with Heavy Armor) get a warning; the stats still show what the
  loadout says, so a house rule that allows it works.
- No weapon: Bare Hands are not a weapon. A unit with hands that holds and carries nothing with
  a Damage roll of its own gets a warning ("only Bare Hands"): it can still Shove and Grab.
- Where effects come from: Armor bonus and Deflection only from worn items; Half Speed, can't
  swim and Move penalties from anything the unit has (worn, in hand or carried: carrying a
  heavy item is also Half Speed, 4.1).
- Counters (5.2): one per item in hand or empty hand ("each of his hands once, with or without
  held objects"), at most the unit's hands: a minifig with a rifle has 1, with a sword and a
  shield 2, empty-handed 2.

Everything is O(items) per unit with dictionary look-ups and no parsing per call (parsed dice
are cached in ``brikdesk.domain.catalog``), so a roster of 10,000 units checks in milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from brikdesk.domain.catalog import (
    Catalog,
    CatalogError,
    CatalogItem,
    Category,
    UnitType,
    armor_value,
)
from brikdesk.domain.dice import ACTION_DICE, DiceExpr
from brikdesk.domain.modifiers import Modifier, Stat

RULE_HANDS = "2.1 Minifigs: Hands"
RULE_TWO_HANDED = "2.1 Minifigs: Two-handed items"
RULE_WORN = "3.3 Bodily Protection: Armor is worn"
RULE_ARMOR = "3.3 Bodily Protection"
RULE_NO_WEAPON = "5.2 Striking"
RULE_CATALOG = "catalog"
RULE_OVERRIDE = "chapter 2, Units"
RULE_BUDGET = "army budget"
RULE_MOVEMENT = "4.1 Movement"
RULE_COUNTERS = "5.2 Counters"
RULE_UNIT_COST = "chapter 2, Units"
RULE_ITEM_COST = "chapter 3, Weapons and equipment"

READINGS: dict[str, str] = {
    "hands": (
        "A minifig has two hands: at most two one-handed items in hand, or one "
        "two-handed item (chapter 2, the unit table). A two-handed item is listed once and takes "
        "both hands. A Heavy Weapon with a Shield is allowed."
    ),
    "armor_stacking": (
        "A unit wears one suit of armour: two Body Armors, or Body Armor with "
        "Heavy Armor, get a warning (3.3 Bodily Protection). The stats still "
        "count every worn item, so a house rule can allow it."
    ),
    "no_weapon": (
        "Bare Hands are not a weapon: a unit holding and carrying nothing with a "
        "Damage roll gets a warning, though it can still Shove or Grab (5.2)."
    ),
    "effects": (
        "Armor bonus and Deflection come only from worn items; Half Speed, can't swim "
        "and Move penalties come from anything the unit has, worn, held or carried "
        "(4.1: carrying a heavy item is Half Speed; swimming with one is Stopped)."
    ),
    "counters": (
        "Counters (5.2): one per item in hand or empty hand, at most the unit's "
        "hands; a two-handed item gives one."
    ),
    "over_the_top": (
        "Over the Top needs a natural 6 or more (4.2): a unit type marked 'never' "
        "or an Action die of d4 never goes Over the Top."
    ),
    "cost_override": ("A unit's own cost replaces its type's cost; its equipment is still added."),
}


@dataclass(frozen=True)
class Loadout:
    """What a unit has, as catalog item keys.

    ``hands``: one entry per hand, ``None`` for an empty hand; a two-handed item is listed once
    (``("long-ranged-weapon", None)`` or just ``("long-ranged-weapon",)``); slots beyond the
    tuple are empty. ``worn``: armour and other worn items. ``carried``: items slung, holstered
    or packed (they cost and count as the unit's, but are not in hand).
    """

    hands: tuple[str | None, ...] = ()
    worn: tuple[str, ...] = ()
    carried: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("hands", "worn", "carried"):
            value = getattr(self, name)
            if not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))

    @property
    def held(self) -> tuple[str, ...]:
        """The keys of the items in hand (empty hands left out)."""
        return tuple(k for k in self.hands if k is not None)

    def placed(self) -> Iterator[tuple[str, str]]:
        """``(key, where)`` for every item: ``where`` is "in hand", "worn" or "carried"."""
        for k in self.hands:
            if k is not None:
                yield k, "in hand"
        for k in self.worn:
            yield k, "worn"
        for k in self.carried:
            yield k, "carried"


@dataclass(frozen=True)
class UnitOverrides:
    """Per-unit values replacing the unit type's; ``None`` keeps the type's value.

    ``action_die`` one of 4, 6, 8, 10, 12; ``move`` inches; ``armor`` as a unit type's
    (``"5"``, ``"2d6"``); ``cost`` replaces the type's cost (equipment is still added).
    """

    action_die: int | None = None
    move: int | None = None
    armor: str | None = None
    cost: int | None = None


@dataclass(frozen=True)
class UnitSpec:
    """One unit of a roster."""

    name: str
    unit_type: str
    loadout: Loadout = field(default_factory=Loadout)
    overrides: UnitOverrides = field(default_factory=UnitOverrides)
    notes: str = ""


@dataclass(frozen=True)
class UnitStats:
    """A unit's stats with its equipment counted.

    ``armor`` is text (``"4"``, ``"6"``, ``"2d6"``, ``"2d6+2"``) and ``armor_dice`` the same as
    a number or a ``DiceExpr``. ``deflection`` is the worn, always-on Deflection (a Shield's
    comes only with a Parry). ``modifiers`` explain Armor and Move changes; ``reasons`` explain
    the conditions and Counters in words with their rule sections.
    """

    action_die: int
    move: int
    armor: str
    armor_dice: DiceExpr | int
    half_speed: bool
    deflection: int
    cant_swim: bool
    counters: int
    over_the_top: bool
    modifiers: tuple[Modifier, ...] = ()
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class CostLine:
    """One line of a cost breakdown: what, how much, and the rule (or "house rule")."""

    label: str
    cost: int
    rule: str


@dataclass(frozen=True)
class CostBreakdown:
    lines: tuple[CostLine, ...]
    total: int


@dataclass(frozen=True)
class RosterWarning:
    """A roster problem: which unit (``None`` for the whole army), which rule, what.

    ``short`` says it in a few words for a table cell ("armour stacked"); ``message`` says it
    all. ``short`` takes no part in comparisons.
    """

    unit_name: str | None
    rule: str
    message: str
    short: str = field(default="", compare=False)

    @property
    def headline(self) -> str:
        """``short`` if there is one, else the whole message."""
        return self.short or self.message

    def __str__(self) -> str:
        who = self.unit_name if self.unit_name is not None else "Army"
        return f"{who}: {self.message} ({self.rule})"


# --------------------------------------------------------------------------- stats


def _unit_type(spec: UnitSpec, catalog: Catalog) -> UnitType:
    ut = catalog.get_unit_type(spec.unit_type)
    if ut is None:
        raise CatalogError(f"unknown unit type '{spec.unit_type}'", entry=f"unit '{spec.name}'")
    return ut


def _counters(held: Iterable[CatalogItem | None], hands: int) -> int:
    items = 0
    used = 0
    for it in held:
        items += 1
        used += max(it.hands, 1) if it is not None else 1
    return min(hands, items + max(hands - used, 0))


def effective_stats(spec: UnitSpec, catalog: Catalog) -> UnitStats:
    """The unit's stats once its type, overrides and equipment are counted.

    Worn Body Armor adds +2 Armor (to a number, ``4`` -> ``6``, or to dice, a Hero's ``2d6`` ->
    ``2d6+2``: 3.3 Bodily Protection); worn Heavy Armor gives Deflection 1 and Half Speed;
    2005 items take inches off Move (never below 0). Unknown item keys are skipped
    (``validate_unit`` names them). Raises ``CatalogError`` for an unknown unit type or a bad
    Armor override.
    """
    ut = _unit_type(spec, catalog)
    ov = spec.overrides
    modifiers: list[Modifier] = []
    reasons: list[str] = []
    action_die = ut.action_die if ov.action_die is None else ov.action_die
    base_move = ut.move if ov.move is None else ov.move
    if ov.armor is None:
        armor: DiceExpr | int = armor_value(ut.armor)
    else:
        try:
            armor = armor_value(ov.armor)
        except CatalogError as exc:
            raise CatalogError(exc.reason, entry=f"unit '{spec.name}'", field="armor") from None
    if ov.action_die is not None:
        reasons.append(f"Action die d{action_die}: set for this unit")
    if ov.move is not None:
        reasons.append(f'Move {base_move}": set for this unit')
    if ov.armor is not None:
        reasons.append(f"Armor {armor}: set for this unit")

    half_speed = False
    cant_swim = False
    deflection = 0
    armor_bonus = 0
    move_penalty = 0
    for key, where in spec.loadout.placed():
        it = catalog.get_item(key)
        if it is None:
            continue
        if where == "worn":
            if it.armor_bonus:
                armor_bonus += it.armor_bonus
                modifiers.append(
                    Modifier(it.armor_bonus, Stat.ARMOR, f"{it.name} worn", RULE_ARMOR)
                )
            if it.deflection:
                deflection += it.deflection
                reasons.append(f"Deflection {it.deflection}: {it.name} worn ({RULE_ARMOR})")
        if it.half_speed:
            half_speed = True
            reasons.append(f"Half Speed: {it.name} {where} ({RULE_MOVEMENT})")
        if it.cant_swim:
            cant_swim = True
            reasons.append(f"Can't swim: {it.name} {where} ({RULE_MOVEMENT})")
        if it.move_penalty:
            move_penalty += it.move_penalty
            modifiers.append(
                Modifier(-it.move_penalty, Stat.MOVE, f"{it.name} {where}", RULE_ITEM_COST)
            )

    if armor_bonus:
        armor = armor + armor_bonus if isinstance(armor, int) else armor.plus_flat(armor_bonus)
    held = [catalog.get_item(k) for k in spec.loadout.held]
    counters = _counters(held, ut.hands)
    reasons.append(
        f"{counters} Counter{'s' if counters != 1 else ''}: one per weapon or empty "
        f"hand ({RULE_COUNTERS})"
    )
    return UnitStats(
        action_die=action_die,
        move=max(0, base_move - move_penalty),
        armor=str(armor),
        armor_dice=armor,
        half_speed=half_speed,
        deflection=deflection,
        cant_swim=cant_swim,
        counters=counters,
        over_the_top=ut.over_the_top and action_die >= 6,
        modifiers=tuple(modifiers),
        reasons=tuple(reasons),
    )


# --------------------------------------------------------------------------- costs


def _item_rule(it: CatalogItem | UnitType, default_rule: str) -> str:
    return "house rule" if it.house_rule else default_rule


def unit_cost(spec: UnitSpec, catalog: Catalog) -> CostBreakdown:
    """Itemised cost: the unit type (or the unit's own cost), then every item in hand, worn
    and carried. Items with no cost (``-``) count 0; unknown keys are named and count 0."""
    unit = catalog.cost_unit
    lines: list[CostLine] = []
    ut = catalog.get_unit_type(spec.unit_type)
    type_name = ut.name if ut is not None else f"unknown unit type '{spec.unit_type}'"
    if spec.overrides.cost is not None:
        lines.append(
            CostLine(
                f"{type_name} (cost set for this unit)", spec.overrides.cost, "unit's own cost"
            )
        )
    elif ut is None:
        lines.append(CostLine(type_name, 0, f"{RULE_CATALOG}: no such unit type"))
    elif ut.cost is None:
        lines.append(CostLine(type_name, 0, f"no cost set ('-'), counted as 0 {unit}"))
    else:
        lines.append(CostLine(type_name, ut.cost, _item_rule(ut, RULE_UNIT_COST)))
    for key, where in spec.loadout.placed():
        it = catalog.get_item(key)
        if it is None:
            lines.append(
                CostLine(f"unknown item '{key}' ({where})", 0, f"{RULE_CATALOG}: no such item")
            )
        elif it.cost is None:
            lines.append(
                CostLine(
                    f"{it.name} ({where})", 0, _item_rule(it, f"{RULE_ITEM_COST}: no cost ('-')")
                )
            )
        else:
            lines.append(CostLine(f"{it.name} ({where})", it.cost, _item_rule(it, RULE_ITEM_COST)))
    return CostBreakdown(tuple(lines), sum(line.cost for line in lines))


def _unit_total(spec: UnitSpec, catalog: Catalog) -> int:
    """``unit_cost(spec, catalog).total`` without building the lines."""
    if spec.overrides.cost is not None:
        total = spec.overrides.cost
    else:
        ut = catalog.get_unit_type(spec.unit_type)
        total = 0 if ut is None or ut.cost is None else ut.cost
    lo = spec.loadout
    for keys in (lo.hands, lo.worn, lo.carried):
        for key in keys:
            if key is not None:
                it = catalog.get_item(key)
                if it is not None and it.cost:
                    total += it.cost
    return total


def army_total(units: Iterable[UnitSpec], catalog: Catalog) -> int:
    """The total cost of the units (in ``catalog.cost_unit``)."""
    return sum(_unit_total(u, catalog) for u in units)


# --------------------------------------------------------------------------- checks


def validate_unit(spec: UnitSpec, catalog: Catalog) -> tuple[RosterWarning, ...]:
    """Every roster problem of one unit (``READINGS`` explains the choices):

    unknown unit type or item keys; armour held in hand, or a non-wearable item worn; more
    items in hand than the unit has hands; a two-handed item with anything else in hand (a
    Heavy Weapon with a Shield is fine: both are one-handed); two suits of armour worn; no
    weapon (only Bare Hands); an override that is not a rules value (Action die, Armor).
    """
    name = spec.name
    out: list[RosterWarning] = []

    def warn(rule: str, message: str, short: str) -> None:
        out.append(RosterWarning(name, rule, message, short))

    ut = catalog.get_unit_type(spec.unit_type)
    if ut is None:
        warn(RULE_CATALOG, f"unknown unit type '{spec.unit_type}'", "unknown unit type")

    lo = spec.loadout
    held: list[CatalogItem] = []
    armed = False
    for key, where in lo.placed():
        it = catalog.get_item(key)
        if it is None:
            warn(RULE_CATALOG, f"unknown item '{key}' ({where})", "unknown item")
            continue
        if it.deals_damage and where != "worn":
            armed = True
        if where == "in hand":
            held.append(it)
            if it.worn:
                warn(
                    RULE_WORN, f"{it.name} is worn, not held: move it to worn", f"{it.name} in hand"
                )
        elif where == "worn" and not it.worn:
            warn(RULE_WORN, f"{it.name} is not worn: hold it or carry it", f"{it.name} worn")

    n_held = len(lo.held)
    if ut is not None:
        hands = ut.hands
        two_handed = [it for it in held if it.two_handed]
        if n_held > hands:
            warn(
                RULE_HANDS,
                f"{n_held} item{'s' if n_held != 1 else ''} in hand, but a "
                f"{ut.name} has {hands} hand{'s' if hands != 1 else ''}",
                f"{n_held} in {hands} hand{'s' if hands != 1 else ''}",
            )
        elif two_handed and n_held > 1:
            rest = list(held)
            rest.remove(two_handed[0])
            others = " and ".join(it.name for it in rest) or "another item"
            verb = "are" if len(rest) > 1 else "is"
            warn(
                RULE_TWO_HANDED,
                f"{two_handed[0].name} takes both hands, but {others} {verb} also in hand",
                "two-handed + other item",
            )
        elif two_handed and hands < 2:
            warn(
                RULE_HANDS,
                f"{two_handed[0].name} takes two hands, but a {ut.name} has "
                f"{hands} hand{'s' if hands != 1 else ''}",
                "needs two hands",
            )
        if hands > 0 and not armed:
            warn(
                RULE_NO_WEAPON,
                "no weapon: only Bare Hands (it can still Shove or Grab)",
                "no weapon",
            )

    suits = []
    for key in lo.worn:
        it = catalog.get_item(key)
        if it is not None and it.category is Category.ARMOR:
            suits.append(it.name)
    if len(suits) > 1:
        warn(
            RULE_ARMOR,
            f"armour stacked: {' and '.join(suits)} worn together; a unit wears one suit of armour",
            "armour stacked",
        )

    ov = spec.overrides
    if ov.action_die is not None and ov.action_die not in ACTION_DICE:
        warn(
            RULE_OVERRIDE,
            f"Action die d{ov.action_die} is not one of " + ", ".join(f"d{s}" for s in ACTION_DICE),
            f"Action die d{ov.action_die}",
        )
    if ov.armor is not None:
        try:
            armor_value(ov.armor)
        except CatalogError as exc:
            warn(RULE_OVERRIDE, exc.reason, "Armor not a rules value")
    if ov.move is not None and ov.move < 0:
        warn(RULE_OVERRIDE, f'Move {ov.move}" is below 0', "Move below 0")
    if ov.cost is not None and ov.cost < 0:
        warn(RULE_OVERRIDE, f"cost {ov.cost} is below 0", "cost below 0")
    return tuple(out)


def fitting_items(type_key: str, catalog: Catalog) -> tuple[tuple[str, CatalogItem], ...]:
    """The items a unit of type ``type_key`` can take on its own without a roster warning, as
    ``("in hand", item)`` or ``("worn", item)``, in catalog order: what its hands can hold
    (2.1 Minifigs: hands and two-handed items) and the armour it can wear (3.3 Bodily Protection: armour is worn).
    No new reading: each is the item alone checked by ``validate_unit``."""
    if catalog.get_unit_type(type_key) is None:
        return ()
    placing = (RULE_HANDS, RULE_TWO_HANDED, RULE_WORN)
    out: list[tuple[str, CatalogItem]] = []
    for it in catalog.items:
        where, lo = (
            ("worn", Loadout(worn=(it.key,))) if it.worn else ("in hand", Loadout((it.key,)))
        )
        warnings = validate_unit(UnitSpec("", type_key, lo), catalog)
        if not any(w.rule in placing for w in warnings):
            out.append((where, it))
    return tuple(out)


def validate_army(
    units: Iterable[UnitSpec], budget: int | None, catalog: Catalog
) -> tuple[RosterWarning, ...]:
    """Every unit's warnings, then "over budget by N CP" when the total exceeds ``budget``
    (``None``: no budget). One pass over the units."""
    out: list[RosterWarning] = []
    total = 0
    for spec in units:
        out.extend(validate_unit(spec, catalog))
        total += _unit_total(spec, catalog)
    if budget is not None and total > budget:
        unit = catalog.cost_unit
        out.append(
            RosterWarning(
                None,
                RULE_BUDGET,
                f"over budget by {total - budget} {unit} ({total} {unit} of {budget} {unit})",
                "over budget",
            )
        )
    return tuple(out)
