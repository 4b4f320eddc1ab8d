"""Changing a campaign's rules edition: say what it will do, then do it whole (issue 23).

``preview(campaign, edition)`` lists every unit type and item the campaign's units use that the
other edition's catalog has no match for (by key), each with how many units use it and a
suggested replacement (the same name, else the closest by stats), and each army's cost before
and after. ``change(campaign, edition, types, items)`` switches the edition and maps every
missing type and item to the one chosen, in one transaction and one undo step; it refuses a
change that would leave a unit with a type or item the new catalog does not know.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, select

from brikdesk.domain.catalog import Catalog, CatalogItem, UnitType
from brikdesk.domain.ids import ArmyId, CampaignId, UnitId
from brikdesk.domain.roster import Loadout, UnitSpec, unit_cost
from brikdesk.errors import UserError
from brikdesk.persistence.models import Army, Campaign, Unit
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
class ArmyCost:
    army_id: ArmyId
    army: str
    before: int
    after: int  # with the suggestions


@dataclass(frozen=True)
class EditionPreview:
    campaign_id: CampaignId
    old: str
    new: str
    cost_unit: str
    missing: tuple[Missing, ...]
    armies: tuple[ArmyCost, ...]

    @property
    def types(self) -> dict[str, str]:
        return {m.key: m.suggestion for m in self.missing if m.kind == "type"}

    @property
    def items(self) -> dict[str, str]:
        return {m.key: m.suggestion for m in self.missing if m.kind == "item"}


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
            missing = _missing(units, old_cat, new_cat)
            types = {m.key: m.suggestion for m in missing if m.kind == "type"}
            items = {m.key: m.suggestion for m in missing if m.kind == "item"}
            costs = []
            for a in armies:
                mine = [u for u in units if u.army_id == a.id]
                before = sum(unit_cost(spec_of_unit(u), old_cat).total for u in mine)
                after = 0
                for u in mine:
                    spec = spec_of_unit(u)
                    lo = spec.loadout
                    mapped = UnitSpec(
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
                    after += unit_cost(mapped, new_cat).total
                costs.append(ArmyCost(a.id, a.name, before, after))
            return EditionPreview(
                campaign_id, c.edition, edition, new_cat.cost_unit, missing, tuple(costs)
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
            for m in _missing(units, old_cat, new_cat):
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
    ) -> Done[str]:
        """Undo of ``change``: the edition and every changed unit's keys as they were."""
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
            c.edition = edition
            c.updated_at = self._now()
        return Done(
            edition,
            EDITION_CHANGES,
            f"Back to BrikWars {edition}",
            redo=step(self.change_back, campaign_id, edition, units, again),
            undo=step(self.change, *again),
        )


def _units_of(campaign_id: CampaignId) -> Select[Any]:
    return (
        select(Unit)
        .join(Army, Army.id == Unit.army_id)
        .where(Army.campaign_id == campaign_id)
        .order_by(Unit.id)
    )


def _missing(units: list[Unit], old: Catalog, new: Catalog) -> tuple[Missing, ...]:
    """The types and items the units use that ``new`` does not have, with suggestions."""
    counts: dict[tuple[str, str], int] = {}
    for u in units:
        type_keys, item_keys = _keys(u)
        for k in type_keys:
            if new.get_unit_type(k) is None:
                counts[("type", k)] = counts.get(("type", k), 0) + 1
        for k in dict.fromkeys(item_keys):
            if new.get_item(k) is None:
                counts[("item", k)] = counts.get(("item", k), 0) + 1
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
