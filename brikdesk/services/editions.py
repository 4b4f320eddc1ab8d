"""Changing a campaign's rules edition: say what it will do, then do it whole.

``preview(campaign, edition)`` lists every unit type and item the campaign's units use that the
other edition's catalog has no match for (by key), each with how many units use it and a
suggested replacement (the same name, else the closest by stats), and per army its cost before
and after and every unit whose cost or stats change (``brikdesk.domain.edition_change``, with
the suggestions; ``EditionPreview.choose`` works them out again for other choices, with no
database read). ``change(campaign, edition, types, items)`` switches the edition and maps every
missing type and item to the one chosen, in the campaign's units and in its battles' units (the
copies made when they were mustered), in one transaction and one undo step; it refuses a change
that would leave a unit with a type or item the new catalog does not know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Select, select

from brikdesk.domain.catalog import Catalog
from brikdesk.domain.edition_change import (
    ArmyChange,
    ArmyUnits,
    ChangeCosts,
    suggest_item,
    suggest_type,
)
from brikdesk.domain.ids import ArmyId, BattleUnitId, CampaignId, UnitId
from brikdesk.domain.roster import UnitSpec
from brikdesk.errors import UserError
from brikdesk.persistence.models import Army, Battle, BattleUnit, Campaign, Unit
from brikdesk.services.army_records import spec_of_unit
from brikdesk.services.base import ServiceBase
from brikdesk.services.campaigns import clean_edition
from brikdesk.services.catalogs import catalog_for_edition, load_campaign_catalog
from brikdesk.services.common import Changes, Done, step, storage_errors

EDITION_CHANGES = Changes.CAMPAIGNS | Changes.CATALOG | Changes.UNITS


@dataclass(frozen=True)
class Missing:
    """A unit type or item with no match in the new edition: ``units`` use it; ``choices``
    are the new edition's ``(key, name)``; ``suggestion`` the key filled in."""

    kind: str  # "type" or "item"
    key: str
    name: str
    units: int
    suggestion: str
    choices: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class EditionPreview:
    """What changing to ``new`` does: ``missing`` types and items, and ``armies`` (each
    army's cost before and after and its units that change) with the suggestions."""

    campaign_id: CampaignId
    old: str
    new: str
    cost_unit: str
    missing: tuple[Missing, ...]
    armies: tuple[ArmyChange, ...]
    #: The armies' units and the costs of both catalogs, so that other choices are worked
    #: out at once.
    rosters: tuple[ArmyUnits, ...] = ()
    costs: ChangeCosts | None = field(default=None, compare=False)

    @property
    def types(self) -> dict[str, str]:
        return {m.key: m.suggestion for m in self.missing if m.kind == "type"}

    @property
    def items(self) -> dict[str, str]:
        return {m.key: m.suggestion for m in self.missing if m.kind == "item"}

    def choose(self, types: Mapping[str, str], items: Mapping[str, str]) -> tuple[ArmyChange, ...]:
        """Each army's costs and changed units with these choices (no database read)."""
        if self.costs is None:
            return self.armies
        return self.costs.armies(self.rosters, types, items)


def _keys(u: Unit) -> tuple[list[str], list[str]]:
    """The unit's type (one) and item keys (hands, worn, carried)."""
    items = [k for k in (*(u.hands or ()), *(u.worn or ()), *(u.carried or ())) if k]
    return [u.type_key], [str(k) for k in items]


def _mapped(u: Unit, types: Mapping[str, str], items: Mapping[str, str]) -> dict[str, object]:
    def swap(keys: list[object] | None) -> list[object]:
        return [items.get(k, k) if isinstance(k, str) else k for k in (keys or [])]

    return {
        "type_key": types.get(u.type_key, u.type_key),
        "hands": swap(u.hands),
        "worn": swap(u.worn),
        "carried": swap(u.carried),
    }


class EditionService(ServiceBase):
    """Preview and make a campaign's change of rules edition."""

    @storage_errors
    def preview(self, campaign_id: CampaignId, edition: str) -> EditionPreview:
        edition = clean_edition(edition)
        with self._reading() as s:
            c = self._get(s, Campaign, campaign_id, "campaign")
            old_cat = load_campaign_catalog(s, campaign_id)
            new_cat = catalog_for_edition(s, campaign_id, edition)
            units = list(s.scalars(_units_of(campaign_id)))
            armies = list(
                s.scalars(select(Army).where(Army.campaign_id == campaign_id).order_by(Army.id))
            )
            mustered = list(s.scalars(_battle_units_of(campaign_id)))
            missing = _missing(units, old_cat, new_cat, mustered)
            by_army: dict[ArmyId, list[UnitSpec]] = {a.id: [] for a in armies}
            for u in units:
                by_army[u.army_id].append(spec_of_unit(u))
            rosters = tuple(ArmyUnits(a.id, a.name, tuple(by_army[a.id])) for a in armies)
            edition_was = c.edition
        types = {m.key: m.suggestion for m in missing if m.kind == "type"}
        items = {m.key: m.suggestion for m in missing if m.kind == "item"}
        costs = ChangeCosts(old_cat, new_cat)
        return EditionPreview(
            campaign_id,
            edition_was,
            edition,
            new_cat.cost_unit,
            missing,
            costs.armies(rosters, types, items),
            rosters,
            costs,
        )

    @storage_errors
    def change(
        self,
        campaign_id: CampaignId,
        edition: str,
        types: Mapping[str, str],
        items: Mapping[str, str],
    ) -> Done[str]:
        """Switch to ``edition`` with every missing type and item mapped, in one transaction."""
        edition = clean_edition(edition)
        with self._sessions.begin() as s:
            c = self._lock(s, Campaign, campaign_id, "campaign")
            old_edition = c.edition
            old_cat = load_campaign_catalog(s, campaign_id)
            new_cat = catalog_for_edition(s, campaign_id, edition)
            units = list(s.scalars(_units_of(campaign_id).with_for_update()))
            mustered = list(s.scalars(_battle_units_of(campaign_id).with_for_update()))
            for m in _missing(units, old_cat, new_cat, mustered):
                chosen = (types if m.kind == "type" else items).get(m.key)
                known = (
                    (
                        new_cat.get_unit_type(chosen)
                        if m.kind == "type"
                        else new_cat.get_item(chosen)
                    )
                    if chosen
                    else None
                )
                if known is None:
                    raise UserError(
                        f"choose what {m.name} becomes in BrikWars {edition}: "
                        f"{m.units} unit{'s' if m.units != 1 else ''} use it",
                        field=m.kind,
                    )
            before: list[tuple[UnitId, dict[str, object]]] = []
            for u in units:
                after = _mapped(u, types, items)
                old: dict[str, object] = {
                    "type_key": u.type_key,
                    "hands": list(u.hands or []),
                    "worn": list(u.worn or []),
                    "carried": list(u.carried or []),
                }
                if after != old:
                    before.append((u.id, old))
                    u.type_key = str(after["type_key"])
                    u.hands, u.worn, u.carried = after["hands"], after["worn"], after["carried"]
            # The battles' units (copies made when they were mustered) the same way, so that
            # no battle is left with a unit type or item the new edition does not know.
            specs: list[tuple[BattleUnitId, dict[str, Any]]] = []
            for bu in mustered:
                spec = dict(bu.spec)
                changed = _mapped_spec(spec, types, items)
                if changed != spec:
                    specs.append((bu.id, spec))
                    bu.spec = changed
            c.edition = edition
            c.updated_at = self._now()
        text = f"Change the rules edition to BrikWars {edition}"
        return Done(
            edition,
            EDITION_CHANGES,
            text,
            redo=step(self.change, campaign_id, edition, dict(types), dict(items)),
            undo=step(
                self.change_back,
                campaign_id,
                old_edition,
                tuple(before),
                self._redo(campaign_id, edition, types, items),
                tuple(specs),
            ),
        )

    def _redo(
        self,
        campaign_id: CampaignId,
        edition: str,
        types: Mapping[str, str],
        items: Mapping[str, str],
    ) -> tuple[CampaignId, str, dict[str, str], dict[str, str]]:
        return (campaign_id, edition, dict(types), dict(items))

    @storage_errors
    def change_back(
        self,
        campaign_id: CampaignId,
        edition: str,
        units: tuple[tuple[UnitId, dict[str, object]], ...],
        again: tuple[CampaignId, str, dict[str, str], dict[str, str]],
        specs: tuple[tuple[BattleUnitId, dict[str, Any]], ...] = (),
    ) -> Done[str]:
        """Undo of ``change``: the edition, every changed unit's keys and every changed
        battle unit's spec as they were."""
        with self._sessions.begin() as s:
            c = self._lock(s, Campaign, campaign_id, "campaign")
            rows = {
                u.id: u
                for u in s.scalars(
                    select(Unit).where(Unit.id.in_([i for i, _ in units])).with_for_update()
                )
            }
            for uid, old in units:
                u = rows.get(uid)
                if u is None:
                    continue
                u.type_key = str(old["type_key"])
                u.hands, u.worn, u.carried = old["hands"], old["worn"], old["carried"]  # type: ignore[assignment]
            if specs:
                battle_units = {
                    bu.id: bu
                    for bu in s.scalars(
                        select(BattleUnit)
                        .where(BattleUnit.id.in_([i for i, _ in specs]))
                        .with_for_update()
                    )
                }
                for buid, spec in specs:
                    if buid in battle_units:
                        battle_units[buid].spec = dict(spec)
            c.edition = edition
            c.updated_at = self._now()
        return Done(
            edition,
            EDITION_CHANGES,
            f"Back to BrikWars {edition}",
            redo=step(self.change_back, campaign_id, edition, units, again, specs),
            undo=step(self.change, *again),
        )


def _units_of(campaign_id: CampaignId) -> Select[Any]:
    return (
        select(Unit)
        .join(Army, Army.id == Unit.army_id)
        .where(Army.campaign_id == campaign_id)
        .order_by(Unit.id)
    )


def _battle_units_of(campaign_id: CampaignId) -> Select[Any]:
    return (
        select(BattleUnit)
        .join(Battle, Battle.id == BattleUnit.battle_id)
        .where(Battle.campaign_id == campaign_id)
        .order_by(BattleUnit.id)
    )


def _mapped_spec(
    spec: Mapping[str, Any], types: Mapping[str, str], items: Mapping[str, str]
) -> dict[str, Any]:
    """A battle unit's stored spec with its type and items mapped as chosen."""

    def swap(keys: Any) -> Any:
        if not isinstance(keys, list):
            return keys
        return [items.get(k, k) if isinstance(k, str) else k for k in keys]

    out = dict(spec)
    if isinstance(spec.get("type"), str):
        out["type"] = types.get(spec["type"], spec["type"])
    for where in ("hands", "worn", "carried"):
        if where in spec:
            out[where] = swap(spec[where])
    return out


def _spec_keys(spec: Any) -> tuple[list[str], list[str]]:
    """A battle unit's stored spec: its type and item keys."""
    if not isinstance(spec, Mapping):
        return [], []
    kind = spec.get("type")
    items = [
        k
        for where in ("hands", "worn", "carried")
        if isinstance(spec.get(where), list)
        for k in spec[where]
        if isinstance(k, str) and k
    ]
    return ([kind] if isinstance(kind, str) else []), items


def _missing(
    units: list[Unit], old: Catalog, new: Catalog, mustered: Sequence[BattleUnit] = ()
) -> tuple[Missing, ...]:
    """The types and items the units use that ``new`` does not have, with suggestions; a type
    or item only battle units use (mustered before a promotion or a deletion) counts those."""
    counts: dict[tuple[str, str], int] = {}
    in_battles: dict[tuple[str, str], int] = {}
    for tally, keys in (
        *((counts, _keys(u)) for u in units),
        *((in_battles, _spec_keys(bu.spec)) for bu in mustered),
    ):
        type_keys, item_keys = keys
        for k in type_keys:
            if new.get_unit_type(k) is None:
                tally[("type", k)] = tally.get(("type", k), 0) + 1
        for k in dict.fromkeys(item_keys):
            if new.get_item(k) is None:
                tally[("item", k)] = tally.get(("item", k), 0) + 1
    for found, n in in_battles.items():
        counts.setdefault(found, n)
    out = []
    type_choices = tuple((t.key, t.name) for t in new.unit_types)
    item_choices = tuple((i.key, i.name) for i in new.items)
    for (kind, key), n in counts.items():
        if kind == "type":
            ot = old.get_unit_type(key)
            name = ot.name if ot is not None else key
            suggestion = suggest_type(ot, new).key if ot is not None else new.unit_types[0].key
            out.append(Missing(kind, key, name, n, suggestion, type_choices))
        else:
            oi = old.get_item(key)
            name = oi.name if oi is not None else key
            suggestion = suggest_item(oi, new).key if oi is not None else new.items[0].key
            out.append(Missing(kind, key, name, n, suggestion, item_choices))
    return tuple(out)
