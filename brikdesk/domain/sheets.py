"""The content of a printed roster sheet ("One path for preview, print and PDF" in
docs/conventions.md).

The domain decides *what* goes on the sheet; ``ui/printing`` decides *where* and paints it, for
print preview, printing and PDF export alike. Everything here is pure: the caller passes the
date (there is no clock), the units and the catalog (there is no database).

``build_roster_sheet(header, units, catalog, options)`` returns a ``RosterSheet``:

- one ``UnitCard`` per unit, or per group of identical units when ``fold_identical`` is on
  (title ``"x6 Minifig with Long-Ranged Weapon"``; every member keeps its own tick boxes);
- a ``ReferenceAppendix`` listing only what this army uses: the rows of the modifiers table
  (5.1) that can matter, Over the Top and bonus dice in two lines, the special rules
  its equipment brings in, and a table of the items it carries;
- the number of blank cards for units gained at the table;
- the roster warnings, when asked.

Readings (shown to the user through ``READINGS``):

- Folding: units fold together only when everything but their name is the same (type, loadout,
  overrides, notes, campaign notes). A folded card prints the stats once and one row of tick
  boxes per member, labelled with the member's name.
- Reference rows: the general rows of 5.1 (target size, Out of Range, Firing Blind, Disrupted
  target, Automatic Hit on an inanimate object, outnumbered) are always printed, because any
  minifig can throw an object or be ganged up on; Height Advantage only when the army has a
  weapon with a Range or a thrown Range; the Two-Handed Parry row (5.2) only when someone carries
  a Close Combat weapon held in two hands; the Charge row (5.4) only with a Charging weapon.
- "Dead" has one box per turn, so the sheet also records the turn a unit fell (the casualties
  per round of the battle report).
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from brikdesk.domain.catalog import Catalog, CatalogItem, Edition, UnitType
from brikdesk.domain.modifiers import Stat
from brikdesk.domain.roster import (
    RosterWarning,
    UnitSpec,
    UnitStats,
    effective_stats,
    unit_cost,
    validate_army,
)
from brikdesk.errors import UserError

PAPERS = ("a4", "letter")
MIN_TURNS = 1
MAX_TURNS = 12
MAX_BLANK_CARDS = 30
_COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")

READINGS: dict[str, str] = {
    "fold": "Units fold into one card only when everything but their name is the same (type, "
    "loadout, overrides, notes, campaign notes). The card prints the stats once and one "
    "row of tick boxes per member.",
    "reference": "The appendix always lists the general modifiers of 5.1 (target size, Out of "
    "Range, Firing Blind, Disrupted target, inanimate object, outnumbered); Height "
    "Advantage only with a ranged or throwable weapon; the Two-Handed Parry row "
    "(5.2) only with a Close Combat weapon held in two hands; the Charge row (5.4) "
    "only with a Charging weapon.",
    "dead": "Dead has one box per turn: tick the turn the unit fell, so the sheet also records "
    "casualties per round.",
    "counters": "One Counter box per weapon or empty hand (5.2), as the unit's stats count them.",
    "card_notes": "A card's item notes are short: what the item is and the effects that matter "
    "at the table (Explosion, KnockBack, Charging, Parry, Armor, Half Speed...); "
    "the reference appendix prints every item's full notes.",
}


# ---------------------------------------------------------------------------------------------
# Options and header


@dataclass(frozen=True)
class RosterSheetOptions:
    """What the organizer chose in the print dialog (or on the command line).

    ``paper`` is ``"a4"`` or ``"letter"`` (portrait); ``turns`` is the number of tick-box
    columns (1 to 12); ``blank_cards`` the number of empty cards for units gained at the table
    (0 for none).
    """

    paper: str = "a4"
    turns: int = 6
    fold_identical: bool = True
    black_and_white: bool = False
    include_warnings: bool = True
    include_reference: bool = True
    blank_cards: int = 6

    def __post_init__(self) -> None:
        paper = str(self.paper).strip().lower()
        if paper not in PAPERS:
            raise UserError(f"paper must be A4 or Letter, not '{self.paper}'", field="paper")
        object.__setattr__(self, "paper", paper)
        if (
            isinstance(self.turns, bool)
            or not isinstance(self.turns, int)
            or not (MIN_TURNS <= self.turns <= MAX_TURNS)
        ):
            raise UserError(
                f"turns must be a whole number from {MIN_TURNS} to {MAX_TURNS}, not {self.turns!r}",
                field="turns",
            )
        if (
            isinstance(self.blank_cards, bool)
            or not isinstance(self.blank_cards, int)
            or not (0 <= self.blank_cards <= MAX_BLANK_CARDS)
        ):
            raise UserError(
                f"blank cards must be a whole number from 0 to {MAX_BLANK_CARDS}, "
                f"not {self.blank_cards!r}",
                field="blank_cards",
            )


@dataclass(frozen=True)
class SheetHeader:
    """The header printed on every page. ``date`` is given by the caller (no clock here).

    ``colour`` is the player's colour as ``"#rrggbb"`` (the header band), or ``None``.
    ``total_cost``, ``edition`` and ``cost_unit`` left ``None`` are filled in by
    ``build_roster_sheet`` from the unit costs and the catalog.
    """

    army: str
    player: str = ""
    campaign: str = ""
    edition: Edition | str | None = None
    total_cost: int | None = None
    budget: int | None = None
    cost_unit: str | None = None
    date: _dt.date | None = None
    colour: str | None = None

    def __post_init__(self) -> None:
        if not str(self.army).strip():
            raise UserError("the army needs a name to print", field="army")
        if self.colour is not None and not _COLOUR_RE.match(self.colour):
            raise UserError(f"colour must look like #1f77b4, not '{self.colour}'", field="colour")

    @property
    def edition_text(self) -> str:
        return f"BrikWars {self.edition}" if self.edition else "BrikWars"

    @property
    def cost_text(self) -> str:
        """``"86 / 100 CP"``, ``"86 CP"`` without a budget, ``""`` without costs."""
        if self.total_cost is None:
            return ""
        unit = self.cost_unit or "CP"
        if self.budget is None:
            return f"{self.total_cost} {unit}"
        return f"{self.total_cost} / {self.budget} {unit}"

    @property
    def date_text(self) -> str:
        return self.date.isoformat() if self.date is not None else ""


# ---------------------------------------------------------------------------------------------
# Cards


@dataclass(frozen=True)
class ItemLine:
    """One row of a card's item table; the Damage has ``dA`` resolved to the unit's die.

    ``count`` is how many of the same item the unit has in the same place (three grenades
    carried are one line, ``3 x Explosive (carried)``)."""

    name: str
    where: str  # "hand", "worn" or "carried"
    use: str
    range: str
    damage: str
    notes: str
    count: int = 1

    @property
    def label(self) -> str:
        """``"Hand Weapon"``, ``"Body Armor (worn)"``, ``"3 x Explosive (carried)"``."""
        name = self.name if self.count == 1 else f"{self.count} x {self.name}"
        return name if self.where == "hand" else f"{name} ({self.where})"


@dataclass(frozen=True)
class UnitCard:
    """One card: a unit, or a group of identical units (``members`` holds every name)."""

    title: str
    members: tuple[str, ...]
    type_name: str
    action_die: str
    move: str
    armor: str
    armor_detail: str
    traits: tuple[str, ...]
    items: tuple[ItemLine, ...]
    cost_each: int | None
    cost_unit: str
    counters: int
    notes: str = ""
    campaign_notes: str = ""

    @property
    def count(self) -> int:
        return len(self.members)

    @property
    def folded(self) -> bool:
        return len(self.members) > 1

    @property
    def total_cost(self) -> int | None:
        return None if self.cost_each is None else self.cost_each * self.count

    @property
    def cost_text(self) -> str:
        """``"9 CP"``, or ``"6 x 9 = 54 CP"`` for a folded card."""
        if self.cost_each is None:
            return ""
        if self.count == 1:
            return f"{self.cost_each} {self.cost_unit}"
        return f"{self.count} x {self.cost_each} = {self.total_cost} {self.cost_unit}"

    @property
    def tick_rows(self) -> tuple[str, ...]:
        """Labels of the tick-box rows, each repeated once per turn."""
        if self.counters == 1:
            counters: tuple[str, ...] = ("Counter",)
        else:
            counters = tuple(f"Counter {i}" for i in range(1, self.counters + 1))
        return ("Action", *counters, "Dead")


# ---------------------------------------------------------------------------------------------
# Reference appendix


@dataclass(frozen=True)
class ReferenceRow:
    """One row of the modifiers table (5.1)."""

    key: str
    situation: str
    value: str
    applies_to: str
    rule: str


@dataclass(frozen=True)
class RuleLine:
    """A rule in one line: ``title`` (with its section) and the text."""

    key: str
    title: str
    text: str


@dataclass(frozen=True)
class ItemRow:
    """One row of the appendix item table (Damage in rules notation, ``dA`` kept)."""

    name: str
    cost: str
    use: str
    range: str
    damage: str
    notes: str


@dataclass(frozen=True)
class ReferenceAppendix:
    modifiers: tuple[ReferenceRow, ...]
    dice: tuple[RuleLine, ...]
    special_rules: tuple[RuleLine, ...]
    items: tuple[ItemRow, ...]


@dataclass(frozen=True)
class SheetWarning:
    unit_name: str
    rule: str
    message: str

    @property
    def text(self) -> str:
        who = f"{self.unit_name}: " if self.unit_name else ""
        rule = f" ({self.rule})" if self.rule else ""
        return f"{who}{self.message}{rule}"


@dataclass(frozen=True)
class RosterSheet:
    header: SheetHeader
    options: RosterSheetOptions
    cards: tuple[UnitCard, ...]
    reference: ReferenceAppendix | None
    blank_cards: int
    warnings: tuple[SheetWarning, ...] = ()

    @property
    def unit_count(self) -> int:
        return sum(c.count for c in self.cards)


#: The modifiers table (5.1) as ``(tag, row)``: "general" rows are printed for every
#: army, the others when a unit of the army can use them. The rules reference (Help menu) lists
#: every row.
MODIFIER_ROWS: tuple[tuple[str, ReferenceRow], ...] = (
    (
        "general",
        ReferenceRow(
            "size_large",
            "Large target",
            '+1 per 2" of visible, in-range Size',
            "Action Roll (or Explosion Damage)",
            "5.1 Target Size",
        ),
    ),
    (
        "general",
        ReferenceRow(
            "size_small",
            "Target the size of a 2x2 brick, or a minifig with 2 of 3 sections visible",
            "-1",
            "Action Roll (or Explosion Damage)",
            "5.1 Target Size",
        ),
    ),
    (
        "general",
        ReferenceRow(
            "size_tiny",
            "Target the size of a 1x1 stud or an item, or a minifig with 1 section visible",
            "-2",
            "Action Roll (or Explosion Damage)",
            "5.1 Target Size",
        ),
    ),
    (
        "ranged",
        ReferenceRow(
            "height",
            "Height Advantage (ranged)",
            '+1" Range per 1" of altitude above the target, at most +5"',
            "Range",
            "5.1 Height Advantage",
        ),
    ),
    (
        "general",
        ReferenceRow(
            "out_of_range",
            "Out of Range (ranged)",
            "-1 per inch beyond Range",
            "Action Roll and Damage (not Explosive Damage)",
            "5.1 Out of Range",
        ),
    ),
    (
        "general",
        ReferenceRow(
            "firing_blind",
            'Firing Blind (target known to be within 1")',
            "-5",
            "Action Roll",
            "5.1 Firing Blind",
        ),
    ),
    (
        "general",
        ReferenceRow(
            "disrupted",
            "Disrupted target",
            "+1 with Ranged attacks; Automatic Hit for an attacker close enough to touch it",
            "Action Roll",
            "5.1 Disrupted Target",
        ),
    ),
    (
        "general",
        ReferenceRow(
            "inanimate",
            "Inanimate object in reach, nobody attacking the attacker",
            "Automatic Hit",
            "no roll (the Action is still spent)",
            "5.1 Automatic Hits",
        ),
    ),
    (
        "general",
        ReferenceRow(
            "outnumbered",
            "Outnumbered in Close Combat",
            "-1",
            "every Action Roll of the outnumbered side",
            "5.1 Outnumbered",
        ),
    ),
    (
        "two_handed",
        ReferenceRow(
            "parry_two_handed",
            "Parrying an Attack or Shove made with a Two-Handed Weapon",
            "+1",
            "the Parry's Action Roll",
            "5.2 Parry",
        ),
    ),
    (
        "charging",
        ReferenceRow(
            "charge",
            "Charge with a Charging weapon (spending the MOM)",
            "+1dA",
            "Damage",
            "5.4 Charge",
        ),
    ),
)


def _dice_lines(action_dice: set[int]) -> tuple[RuleLine, ...]:
    """Over the Top and bonus dice, in two lines (1.2 Numbers)."""
    d4 = 4 in action_dice
    bigger = sorted(s for s in action_dice if s > 4)
    if bigger:
        ott = (
            "a natural 6 or more on the Action die (before modifiers) earns one Benny for that "
            "Action, hit or miss: +1d6 to the roll, one more Damage die, +1d6 to a Sprint, "
            "Bail or Range, or an agreed embellishment. A natural 1 always fails."
        )
        if d4:
            ott += " A d4 never goes Over the Top: a natural 4 adds a bonus +1d4 instead."
    else:
        ott = (
            "a d4 never goes Over the Top: a natural 4 on it adds a bonus +1d4 (again on "
            "another 4). A natural 1 always fails."
        )
    bonus = (
        "any Damage, Armor or distance die showing its highest face adds a bonus +1d6 to "
        "the same total; a bonus 6 adds another, and so on (Benny dice too)."
    )
    return (
        RuleLine("over_the_top", "Over the Top (4.2)", ott),
        RuleLine("bonus_dice", "Bonus dice (1.2)", bonus),
    )


# ---------------------------------------------------------------------------------------------
# Building the sheet


def build_roster_sheet(
    header: SheetHeader,
    units: Sequence[UnitSpec],
    catalog: Catalog,
    options: RosterSheetOptions | None = None,
    *,
    campaign_notes: Mapping[str, str] | None = None,
    warnings: Iterable[RosterWarning] | None = None,
) -> RosterSheet:
    """Build the printed content for the ``units`` of one army.

    ``campaign_notes`` maps a unit's name to its campaign notes (wounds, honours, grudges).
    ``warnings`` replaces the roster check; when ``None`` and ``options.include_warnings`` is
    on, ``validate_army(units, header.budget, catalog)`` supplies them. A header without
    ``total_cost``, ``edition`` or ``cost_unit`` gets them from the units and the catalog.
    Raises ``CatalogError`` (a ``UserError``) for a unit of an unknown type.
    """
    options = options or RosterSheetOptions()
    notes_by_name = dict(campaign_notes or {})
    units = tuple(units)
    facts = [_UnitFacts.of(u, catalog, notes_by_name.get(u.name, "")) for u in units]
    groups: list[list[_UnitFacts]] = []
    if options.fold_identical:
        index: dict[object, list[_UnitFacts]] = {}
        for f in facts:
            group = index.get(f.fold_key)
            if group is None:
                group = index[f.fold_key] = []
                groups.append(group)
            group.append(f)
    else:
        groups = [[f] for f in facts]
    cost_unit = header.cost_unit or catalog.cost_unit
    cards = tuple(_card(g, cost_unit) for g in groups)

    header = replace(
        header,
        total_cost=(sum(f.cost for f in facts) if header.total_cost is None else header.total_cost),
        edition=header.edition or catalog.edition,
        cost_unit=cost_unit,
    )
    reference = _reference(facts, catalog) if options.include_reference else None
    sheet_warnings: tuple[SheetWarning, ...] = ()
    if options.include_warnings:
        raw = validate_army(units, header.budget, catalog) if warnings is None else warnings
        sheet_warnings = tuple(SheetWarning(w.unit_name or "", w.rule, w.message) for w in raw)
    return RosterSheet(
        header=header,
        options=options,
        cards=cards,
        reference=reference,
        blank_cards=options.blank_cards,
        warnings=sheet_warnings,
    )


@dataclass(frozen=True)
class _UnitFacts:
    """What the sheet needs of one unit, computed once."""

    name: str
    fold_key: object
    unit_type: UnitType
    stats: UnitStats
    items: tuple[tuple[CatalogItem, str], ...]
    cost: int
    notes: str
    campaign_notes: str
    armor_base: str
    armor_label: str

    @classmethod
    def of(cls, spec: UnitSpec, catalog: Catalog, campaign_notes: str) -> _UnitFacts:
        stats = effective_stats(spec, catalog)
        unit_type = catalog.unit_type(spec.unit_type)
        items = tuple(
            (it, where)
            for key, where in spec.loadout.placed()
            if (it := catalog.get_item(key)) is not None
        )
        return cls(
            name=spec.name,
            fold_key=(spec.unit_type, spec.loadout, spec.overrides, spec.notes, campaign_notes),
            unit_type=unit_type,
            stats=stats,
            items=items,
            cost=unit_cost(spec, catalog).total,
            notes=spec.notes,
            campaign_notes=campaign_notes,
            armor_base=(unit_type.armor if spec.overrides.armor is None else spec.overrides.armor),
            armor_label=(unit_type.name if spec.overrides.armor is None else "own Armor"),
        )


def _stat_detail(base: str, label: str, stats: UnitStats, stat: Stat) -> str:
    """``"4 Minifig + 2 Body Armor worn"``, or ``""`` when nothing changed the stat."""
    mods = [m for m in stats.modifiers if m.applies_to is stat]
    if not mods:
        return ""
    parts = [f"{base} {label}"]
    parts += [f"{'+' if m.value >= 0 else '-'} {abs(m.value)} {m.reason}" for m in mods]
    return " ".join(parts)


def _traits(stats: UnitStats) -> tuple[str, ...]:
    out: list[str] = []
    if stats.deflection:
        out.append("Deflection" if stats.deflection == 1 else f"Deflection {stats.deflection}")
    if stats.half_speed:
        out.append("Half Speed")
    if stats.cant_swim:
        out.append("can't swim")
    if not stats.over_the_top:
        out.append("never Over the Top")
    return tuple(out)


def _range_text(it: CatalogItem) -> str:
    """``CC``, ``10"``, ``3" thrown``, or both: ``CC; thrown 3"``."""
    if (it.range_inches is not None or it.close_combat) and it.thrown_range is not None:
        base = f'{it.range_inches}"' if it.range_inches is not None else "CC"
        return f'{base}; thrown {it.thrown_range}"'
    return it.range_text()


def _use_text(it: CatalogItem) -> str:
    if it.thrown_use is not None and it.range_inches is None and not it.close_combat:
        return f"{it.thrown_use} thrown"
    if it.thrown_use is not None and it.thrown_use != it.use:
        return f"{it.use_text()}; thrown {it.thrown_use}"
    return it.use_text()


def _damage_text(it: CatalogItem, action_sides: int) -> str:
    """The Damage with ``dA`` replaced by the wielder's die (``1dA+2`` -> ``1d6+2``)."""
    if it.shield and not it.damage:
        return "Parry"
    if it.key == "bare-hands" and not it.damage:
        return 'Shove 2" or Grab'
    expr = it.damage_expr if it.damage else None
    if expr is None or not expr.uses_action_die:
        return it.damage_text()
    return str(expr.resolve(action_sides))


_SENTENCE_END = re.compile(r"\.(\s|$)")


def short_notes(it: CatalogItem) -> str:
    """The card's notes for an item: what it is (the first sentence of its notes) and the
    effects that matter at the table; the appendix prints the full notes."""
    flags: list[str] = []
    if it.explosive_radius:
        flags.append(f'Explosion {it.explosive_radius}"')
    if it.knockback:
        flags.append(f'{it.knockback}" KnockBack')
    if it.armor_piercing:
        flags.append("Armor Piercing")
    if it.charging:
        flags.append("Charging")
    if it.shield:
        pd = it.parry_deflection or 1
        flags.append("Parry gives Deflection" if pd == 1 else f"Parry gives Deflection {pd}")
    if it.armor_bonus:
        flags.append(f"Armor +{it.armor_bonus}")
    if it.deflection:
        flags.append("Deflection")
    if it.half_speed:
        flags.append("Half Speed")
    if it.move_penalty:
        flags.append(f'-{it.move_penalty}" Move')
    if it.cant_swim:
        flags.append("can't swim")
    if it.house_rule:
        flags.append("house rule")
    m = _SENTENCE_END.search(it.notes)
    first = it.notes[: m.start()].strip() if m else it.notes.strip()
    if len(first) > 40 or any(f.lower() in first.lower() for f in flags):
        first = ""
    if first.lower().startswith(("thrown", "range", "as a")):
        first = ""
    return "; ".join([first] * bool(first) + flags)


def _item_lines(
    items: Sequence[tuple[CatalogItem, str]], action_sides: int
) -> tuple[ItemLine, ...]:
    """One line per item and place, in loadout order, with a count for repeats."""
    counts: dict[tuple[str, str], int] = {}
    first: dict[tuple[str, str], CatalogItem] = {}
    for it, where in items:
        key = (it.key, where)
        counts[key] = counts.get(key, 0) + 1
        first.setdefault(key, it)
    return tuple(
        ItemLine(
            name=it.name,
            where={"in hand": "hand"}.get(where, where),
            use=_use_text(it),
            range=_range_text(it),
            damage=_damage_text(it, action_sides),
            notes=short_notes(it),
            count=counts[(key, where)],
        )
        for (key, where), it in first.items()
    )


def _card(group: list[_UnitFacts], cost_unit: str) -> UnitCard:
    first = group[0]
    st = first.stats
    ut = first.unit_type
    title = first.name or ut.name if len(group) == 1 else f"x{len(group)} {_describe(first)}"
    members = tuple(f.name or f"{ut.name} {i}" for i, f in enumerate(group, 1))
    return UnitCard(
        title=title,
        members=members,
        type_name=ut.name,
        action_die=f"d{st.action_die}",
        move=f'{st.move}"',
        armor=st.armor,
        armor_detail=_stat_detail(first.armor_base, first.armor_label, st, Stat.ARMOR),
        traits=_traits(st),
        items=_item_lines(first.items, st.action_die),
        cost_each=first.cost,
        cost_unit=cost_unit,
        counters=st.counters,
        notes=first.notes,
        campaign_notes=first.campaign_notes,
    )


def _describe(f: _UnitFacts) -> str:
    """``"Minifig with Long-Ranged Weapon"``, ``"Hero with Hand Weapon, Shield and Body Armor"``,
    ``"Minifig with 2 Hand Weapons"``."""
    counts: dict[str, int] = {}
    for it, _ in f.items:
        counts[it.name] = counts.get(it.name, 0) + 1
    names = [n if c == 1 else f"{c} {n}s" for n, c in counts.items()]
    if not names:
        return f.unit_type.name
    if len(names) == 1:
        return f"{f.unit_type.name} with {names[0]}"
    return f"{f.unit_type.name} with {', '.join(names[:-1])} and {names[-1]}"


def _reference(units: list[_UnitFacts], catalog: Catalog) -> ReferenceAppendix:
    used = {it.key for u in units for it, _ in u.items}
    items = [it for it in catalog.items if it.key in used]

    tags = {"general"}
    for it in items:
        if it.range_inches is not None or it.thrown:
            tags.add("ranged")
        if it.close_combat and it.two_handed and it.deals_damage:
            tags.add("two_handed")
        if it.charging:
            tags.add("charging")
    modifiers = tuple(row for tag, row in MODIFIER_ROWS if tag in tags)
    dice = _dice_lines({u.stats.action_die for u in units} or {6})

    special: list[RuleLine] = [
        RuleLine(
            "counters",
            "Counters (5.2)",
            "in Close Combat a unit has, on every player's turn, one Counter per weapon or empty "
            "hand; using any spends its Action. Counters reset at the start of every turn.",
        )
    ]
    if any(it.deflection or it.shield for it in items):
        special.append(
            RuleLine(
                "deflection",
                "Deflection (3.3)",
                "removes one die of each kind from the incoming Damage roll (2d6+1 becomes 1d6+1; "
                "1d10 Exp becomes only its flat part); each level removes one more.",
            )
        )
    if any(it.explosive_radius for it in items):
        radius = max(it.explosive_radius for it in items)
        special.append(
            RuleLine(
                "explosion",
                "Explosions (5.1)",
                f'the blast hits every target within {radius}" of it; Out of Range does not lower '
                "Explosive Damage.",
            )
        )
    if any(it.knockback for it in items):
        special.append(
            RuleLine(
                "knockback",
                "KnockBack (5.4)",
                "the target is pushed back that many inches; each inch stopped by an obstacle is "
                "1 Smash damage.",
            )
        )
    if any(u.stats.half_speed for u in units):
        special.append(
            RuleLine("half_speed", "Half Speed (4.1)", "every inch of movement costs two.")
        )

    rows = tuple(
        ItemRow(
            name=it.name,
            cost=it.cost_text(),
            use=_use_text(it),
            range=_range_text(it),
            damage=it.damage_text(),
            notes=it.notes,
        )
        for it in items
    )
    return ReferenceAppendix(
        modifiers=modifiers, dice=dice, special_rules=tuple(special), items=rows
    )
