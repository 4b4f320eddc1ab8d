"""The roster as read: an army's rows (``UnitRow``, ``Roster``), a unit's card, and the
reading half of the roster service (``RosterReading``; ``RosterService`` adds the edits).

``roster(army_id)`` loads one army in one query and computes each row's stats, cost and
warnings with the domain's roster functions. Units with the same type, overrides and loadout
share one computation (an army of 10,000 units has a few dozen distinct kinds), and JSON columns
are read as text and decoded once per distinct value, so a 10,000-unit roster loads in well
under the 300 ms the roster window allows.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Text, select, type_coerce

from brikdesk.cache import LruCache
from brikdesk.domain.catalog import Catalog, CatalogError, CatalogItem
from brikdesk.domain.ids import ArmyId, UnitId
from brikdesk.domain.roster import (
    RULE_BUDGET,
    CostBreakdown,
    Loadout,
    RosterWarning,
    UnitOverrides,
    UnitSpec,
    UnitStats,
    effective_stats,
    unit_cost,
    validate_unit,
)
from brikdesk.domain.roster_text import RosterText, TextUnit
from brikdesk.domain.roster_text import roster_text as format_roster_text
from brikdesk.domain.statuses import UnitStatus
from brikdesk.persistence.models import Army, Campaign, Unit
from brikdesk.services.base import ServiceBase
from brikdesk.services.catalogs import load_campaign_catalog
from brikdesk.services.common import (
    storage_errors,
)
from brikdesk.services.summaries import ArmySummary


@dataclass(frozen=True)
class UnitRow:
    """One row of the roster table."""

    id: UnitId
    army_id: ArmyId
    position: int
    name: str
    type_key: str
    type_name: str
    action_die: int | None  # None: unknown unit type
    move: int | None
    armor: str
    hands: tuple[str, ...]  # names of the items in hand ("-" for an empty hand)
    worn: tuple[str, ...]
    carried: tuple[str, ...]
    cost: int
    status: UnitStatus
    battles_fought: int
    kills: int
    notes: str
    warnings: tuple[RosterWarning, ...]
    loadout: Loadout
    overrides: UnitOverrides
    version: int = 0  # the row's version when read (pass it back to edit and delete)

    @property
    def spec(self) -> UnitSpec:
        return UnitSpec(self.name, self.type_key, self.loadout, self.overrides, self.notes)

    @property
    def hands_text(self) -> str:
        return ", ".join(self.hands) or "-"

    @property
    def worn_text(self) -> str:
        return ", ".join(self.worn) or "-"

    @property
    def carried_text(self) -> str:
        return ", ".join(self.carried) or "-"

    @property
    def warnings_text(self) -> str:
        return "; ".join(w.message for w in self.warnings)


@dataclass(frozen=True)
class Roster:
    """An army's header and its units, in roster order."""

    army: ArmySummary
    units: tuple[UnitRow, ...]
    total: int
    budget: int | None
    cost_unit: str
    warnings: tuple[RosterWarning, ...]  # the army's own (over budget)

    @property
    def over_budget(self) -> bool:
        return self.budget is not None and self.total > self.budget


@dataclass(frozen=True)
class UnitCard:
    """The side panel: the unit's row, full stats, its items and the cost breakdown."""

    row: UnitRow
    stats: UnitStats | None
    items: tuple[tuple[str, str, CatalogItem | None], ...]  # (key, where, item)
    cost: CostBreakdown


def overrides_from_json(data: Mapping[str, Any] | None) -> UnitOverrides:
    data = data or {}
    return UnitOverrides(
        action_die=data.get("action_die"),
        move=data.get("move"),
        armor=data.get("armor"),
        cost=data.get("cost"),
    )


def _keys(value: Any, allow_none: bool = False) -> tuple[Any, ...]:
    """The item keys of a stored list (an empty hand is ``None`` where ``allow_none``)."""
    if not isinstance(value, (list, tuple)):  # a tuple of types: a union is slower to test
        return ()
    return tuple([v for v in value if type(v) is str or (allow_none and v is None)])


def spec_from_json(name: str, data: Mapping[str, Any]) -> UnitSpec:
    """A unit's spec as a battle keeps it (``BattleUnit.spec``): what is not of its shape is
    read as empty, never refused (the battle's log still reads)."""
    overrides = data.get("overrides")
    try:
        ov = overrides_from_json(overrides if isinstance(overrides, Mapping) else {})
    except (TypeError, ValueError):
        ov = overrides_from_json({})
    lo = Loadout(
        _keys(data.get("hands"), True), _keys(data.get("worn")), _keys(data.get("carried"))
    )
    type_key = data.get("type")
    notes = data.get("notes")
    return UnitSpec(
        name,
        type_key if isinstance(type_key, str) else "",
        lo,
        ov,
        notes if isinstance(notes, str) else "",
    )


def _loads(cache: LruCache[str, Any], value: Any) -> Any:
    """Decode a JSON column read as text, once per distinct text (PostgreSQL drivers may
    already hand back Python values)."""
    if not isinstance(value, str):
        return value
    return cache.get(value, lambda: json.loads(value))


class RowMaker:
    """Builds roster rows, computing each distinct kind of unit once."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        #: Decoded JSON columns by their text, and each kind of unit by its parts.
        self.json_cache: LruCache[str, Any] = LruCache(4096)
        self.kind_cache: LruCache[tuple[Any, ...], tuple[Any, ...]] = LruCache(4096)

    def spec_parts(
        self, type_key: str, overrides: Any, hands: Any, worn: Any, carried: Any
    ) -> tuple[Loadout, UnitOverrides, tuple[Any, ...]]:
        key = (
            type_key,
            _hashable(overrides),
            _hashable(hands),
            _hashable(worn),
            _hashable(carried),
        )

        def make() -> tuple[Any, ...]:
            lo = Loadout(
                tuple(_loads(self.json_cache, hands) or ()),
                tuple(_loads(self.json_cache, worn) or ()),
                tuple(_loads(self.json_cache, carried) or ()),
            )
            ov = overrides_from_json(_loads(self.json_cache, overrides))
            return self._compute(type_key, lo, ov)

        kind = self.kind_cache.get(key, make)
        return kind[0], kind[1], kind

    def _compute(self, type_key: str, lo: Loadout, ov: UnitOverrides) -> tuple[Any, ...]:
        cat = self.catalog
        spec = UnitSpec("\0", type_key, lo, ov)
        ut = cat.get_unit_type(type_key)
        try:
            stats = effective_stats(spec, cat)
        except CatalogError:
            stats = None
        cost = unit_cost(spec, cat).total
        warnings = validate_unit(spec, cat)

        def name(k: str | None) -> str:
            if k is None:
                return "-"
            it = cat.get_item(k)
            return it.name if it is not None else f"{k}?"

        hands = tuple(name(k) for k in lo.hands) if any(k is not None for k in lo.hands) else ()
        return (
            lo,
            ov,
            ut.name if ut else f"{type_key}?",
            stats,
            cost,
            warnings,
            hands,
            tuple(name(k) for k in lo.worn),
            tuple(name(k) for k in lo.carried),
        )

    def row(self, r: Any) -> UnitRow:
        lo, ov, kind = self.spec_parts(r.type_key, r.overrides, r.hands, r.worn, r.carried)
        _lo, _ov, type_name, stats, cost, warnings, hands, worn, carried = kind
        if warnings:
            warnings = tuple(replace(w, unit_name=r.name) for w in warnings)
        return UnitRow(
            r.id,
            r.army_id,
            r.position,
            r.name,
            r.type_key,
            type_name,
            stats.action_die if stats else None,
            stats.move if stats else None,
            stats.armor if stats else "?",
            hands,
            worn,
            carried,
            cost,
            r.status,
            r.battles_fought,
            r.kills,
            r.notes,
            warnings,
            lo,
            ov,
            r.version,
        )


def _hashable(value: Any) -> Any:
    if isinstance(value, str) or value is None:
        return value
    return json.dumps(value, sort_keys=True)


ROW_COLUMNS = (
    Unit.id,
    Unit.army_id,
    Unit.position,
    Unit.name,
    Unit.type_key,
    type_coerce(Unit.overrides, Text).label("overrides"),
    type_coerce(Unit.hands, Text).label("hands"),
    type_coerce(Unit.worn, Text).label("worn"),
    type_coerce(Unit.carried, Text).label("carried"),
    Unit.notes,
    Unit.status,
    Unit.battles_fought,
    Unit.kills,
    Unit.version,
)


class RosterReading(ServiceBase):
    """What the roster service reads: the roster, its text, fresh rows and the unit card."""

    @storage_errors
    def roster(self, army_id: ArmyId) -> Roster:
        """The army header and every unit's row (one query for the units)."""
        from brikdesk.services.campaigns import army_summaries

        with self._reading() as s:
            army = self._get(s, Army, army_id, "army")
            summary = army_summaries(s, Army.id == army_id)[0]
            cat = load_campaign_catalog(s, army.campaign_id)
            result = s.execute(
                select(*ROW_COLUMNS).where(Unit.army_id == army_id).order_by(Unit.position, Unit.id)
            )
            maker = RowMaker(cat)
            rows = tuple(maker.row(r) for r in result)
        total = sum(r.cost for r in rows)
        warnings: tuple[RosterWarning, ...] = ()
        if army.budget is not None and total > army.budget:
            unit = cat.cost_unit
            warnings = (
                RosterWarning(
                    None,
                    RULE_BUDGET,
                    f"over budget by {total - army.budget} {unit} ({total} "
                    f"{unit} of {army.budget} {unit})",
                    "over budget",
                ),
            )
        return Roster(summary, rows, total, army.budget, cat.cost_unit, warnings)

    @storage_errors
    def roster_text(self, army_id: ArmyId, fmt: str = "text") -> str:
        """The army's roster as text for a chat or forum post: ``fmt`` is ``"text"``,
        ``"markdown"`` or ``"bbcode"`` (``brikdesk.domain.roster_text``)."""
        roster = self.roster(army_id)
        with self._reading() as s:
            campaign = self._get(s, Campaign, roster.army.campaign_id, "campaign")
            name, edition = campaign.name, str(campaign.edition)
        return format_roster_text(text_of(roster, name, edition), fmt)

    @storage_errors
    def unit_rows(self, unit_ids: Sequence[UnitId]) -> tuple[UnitRow, ...]:
        """Fresh rows of some units (after an edit), in roster order."""
        with self._reading() as s:
            if not unit_ids:
                return ()
            campaign_id = self._campaign_of_units(s, unit_ids)
            cat = load_campaign_catalog(s, campaign_id)
            maker = RowMaker(cat)
            return tuple(
                maker.row(r)
                for r in s.execute(
                    select(*ROW_COLUMNS)
                    .where(Unit.id.in_(list(unit_ids)))
                    .order_by(Unit.position, Unit.id)
                )
            )

    @storage_errors
    def unit_card(self, unit_id: UnitId) -> UnitCard:
        with self._reading() as s:
            campaign_id = self._campaign_of_units(s, [unit_id])
            cat = load_campaign_catalog(s, campaign_id)
            r = s.execute(select(*ROW_COLUMNS).where(Unit.id == unit_id)).one()
        row = RowMaker(cat).row(r)
        spec = row.spec
        try:
            stats = effective_stats(spec, cat)
        except CatalogError:
            stats = None
        items = tuple((k, where, cat.get_item(k)) for k, where in row.loadout.placed())
        return UnitCard(row, stats, items, unit_cost(spec, cat))


def text_of(roster: Roster, campaign: str = "", edition: str = "") -> RosterText:
    """What the roster text says of ``roster`` (names, costs, total and budget)."""
    return RosterText(
        army=roster.army.name,
        player=roster.army.player_name,
        units=tuple(
            TextUnit(
                u.name,
                u.type_name,
                u.cost,
                tuple(h for h in u.hands if h != "-"),
                u.worn,
                u.carried,
                str(u.status.value),
                u.notes,
            )
            for u in roster.units
        ),
        total=roster.total,
        budget=roster.budget,
        cost_unit=roster.cost_unit,
        campaign=campaign,
        edition=edition,
    )
