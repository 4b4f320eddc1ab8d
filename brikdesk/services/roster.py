"""Armies' units: every unit edit (add, duplicate, edit, reorder, delete, restore).

What the roster reads (the roster table, the unit card, the roster text) is the service's
reading half, ``brikdesk.services.roster_reading``; ``RosterService`` adds the edits to it.

Edits are reversible ("Undo through reversible operations" in docs/conventions.md): ``edit_units``
returns the old values of exactly the fields it changed; ``delete_units`` returns a snapshot that
``restore`` puts back with the same ids (and relinks the battles that mustered those units); adds
are undone by a delete and redone by restoring the rows as they were made.

Shared campaigns (``services/versions.py``): ``UnitRow.version`` is the version the roster
showed; ``edit_unit(..., version=row.version)`` and ``delete_unit(..., version=...)`` refuse
with ``ConflictError`` when the unit changed since, and every undo and redo step refuses when
someone else changed the unit after the step's action. Adding units locks the army's row first
(``FOR UPDATE``; SQLite's write transactions are exclusive anyway), so two organizers adding to
one army at once get distinct positions and names numbered on from each other's, as in one app.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.orm import Session

from brikdesk.domain.catalog import Catalog, CatalogError, armor_value
from brikdesk.domain.dice import ACTION_DICE
from brikdesk.domain.ids import ArmyId, CampaignId, PlayerId, UnitId
from brikdesk.domain.roster import (
    Loadout,
    UnitOverrides,
)
from brikdesk.domain.statuses import UnitStatus
from brikdesk.errors import ConflictError, UserError
from brikdesk.limits import MAX_NUMBER
from brikdesk.persistence import snapshots
from brikdesk.persistence.models import CAMPAIGN_STATUS, Army, Player, Unit, table_of
from brikdesk.persistence.snapshots import Snapshot
from brikdesk.services.catalogs import load_campaign_catalog
from brikdesk.services.common import (
    Changes,
    Done,
    clean_int,
    clean_name,
    clean_notes,
    is_id,
    step,
    storage_errors,
)
from brikdesk.services.roster_reading import (
    Roster,
    RosterReading,
    UnitCard,
    UnitRow,
    overrides_from_json,
)
from brikdesk.services.summaries import ArmySummary
from brikdesk.services.versions import Expected, Seen, check, seen, seen_from_dict

#: Most units one call may add; most items in one list of a loadout.
MAX_ADD = 10_000
MAX_LOADOUT_ITEMS = 12
MAX_MOVE_OVERRIDE = 100
MAX_COST_OVERRIDE = 999


@dataclass(frozen=True)
class UnitPatch:
    """Fields to change on a unit; ``None`` leaves a field as it is."""

    name: str | None = None
    type_key: str | None = None
    overrides: UnitOverrides | None = None
    loadout: Loadout | None = None
    notes: str | None = None
    status: UnitStatus | None = None
    battles_fought: int | None = None
    kills: int | None = None


# -- JSON columns <-> domain ---------------------------------------------------------------------


def overrides_to_json(ov: UnitOverrides) -> dict[str, Any]:
    return {
        k: v
        for k, v in (
            ("action_die", ov.action_die),
            ("move", ov.move),
            ("armor", ov.armor),
            ("cost", ov.cost),
        )
        if v is not None
    }


def check_overrides(ov: UnitOverrides) -> UnitOverrides:
    """Overrides with values the rules allow, else ``UserError``."""
    if ov.action_die is not None and (
        isinstance(ov.action_die, bool)
        or not isinstance(ov.action_die, int)
        or ov.action_die not in ACTION_DICE
    ):
        raise UserError(
            "the Action die is one of " + ", ".join(f"d{s}" for s in ACTION_DICE),
            field="action_die",
        )
    if ov.move is not None:
        clean_int(ov.move, "Move", field="move", maximum=MAX_MOVE_OVERRIDE)
    if ov.cost is not None:
        clean_int(ov.cost, "The cost", field="cost", maximum=MAX_COST_OVERRIDE)
    if ov.armor is not None:
        if not isinstance(ov.armor, str):
            raise UserError("Armor is a number (4) or dice (2d6), as text", field="armor")
        try:
            armor = armor_value(ov.armor)
        except CatalogError as exc:
            raise UserError(exc.reason, field="armor") from None
        ov = replace(ov, armor=str(armor))
    return ov


def check_loadout(lo: Loadout, catalog: Catalog | None) -> Loadout:
    """Every key is text and (with a catalog) in the catalog; lists of a sane length."""
    for where, keys, empty_ok in (
        ("in hand", lo.hands, True),
        ("worn", lo.worn, False),
        ("carried", lo.carried, False),
    ):
        if len(keys) > MAX_LOADOUT_ITEMS:
            raise UserError(f"at most {MAX_LOADOUT_ITEMS} items {where}", field="loadout")
        for k in keys:
            if k is None and empty_ok:
                continue
            if not isinstance(k, str) or not k:
                raise UserError(f"{k!r} is not an item key ({where})", field="loadout")
            if catalog is not None and catalog.get_item(k) is None:
                raise UserError(
                    f"there is no item '{k}' in this campaign's catalog", field="loadout"
                )
    return lo


class RosterService(RosterReading):
    """Units of armies: the roster, the unit card, and one method per unit edit."""

    # -- adding -------------------------------------------------------------------------------

    @storage_errors
    def add_unit(
        self,
        army_id: ArmyId,
        type_key: str,
        *,
        name: str | None = None,
        loadout: Loadout | None = None,
        overrides: UnitOverrides | None = None,
        notes: str = "",
    ) -> Done[tuple[UnitId, ...]]:
        """One unit at the end of the army (named after its type when no name is given)."""
        return self._add(
            army_id,
            type_key,
            1,
            name or "{type} {n}",
            loadout,
            overrides,
            notes,
            exact_name=name is not None,
        )

    @storage_errors
    def add_units(
        self,
        army_id: ArmyId,
        type_key: str,
        count: int,
        name_pattern: str = "{type} {n}",
        *,
        loadout: Loadout | None = None,
    ) -> Done[tuple[UnitId, ...]]:
        """``count`` units of a type at once. ``name_pattern`` may use ``{type}`` (the type's
        name) and ``{n}`` (a number continuing after the army's existing names)."""
        return self._add(army_id, type_key, count, name_pattern, loadout, None, "")

    def _add(
        self,
        army_id: ArmyId,
        type_key: str,
        count: int,
        pattern: str,
        loadout: Loadout | None,
        overrides: UnitOverrides | None,
        notes: str,
        *,
        exact_name: bool = False,
    ) -> Done[tuple[UnitId, ...]]:
        count = clean_int(count, "The number of units", field="count", minimum=1, maximum=MAX_ADD)
        if not isinstance(pattern, str):
            raise UserError("the name pattern must be text", field="name")
        notes = clean_notes(notes)
        ov = check_overrides(overrides or UnitOverrides())
        with self._sessions.begin() as s:
            army = self._lock(s, Army, army_id, "army")  # positions and names: one at a time
            cat = load_campaign_catalog(s, army.campaign_id)
            ut = cat.get_unit_type(type_key) if isinstance(type_key, str) else None
            if ut is None:
                raise UserError(
                    f"there is no unit type '{type_key}' in this campaign's catalog", field="type"
                )
            lo = check_loadout(loadout or Loadout(), cat)
            names = _names(s, army_id, pattern, ut.name, count, exact_name)
            start = (
                s.scalar(select(func.max(Unit.position)).where(Unit.army_id == army_id)) or 0
            ) + 1
            hands, worn, carried = list(lo.hands), list(lo.worn), list(lo.carried)
            ovj = overrides_to_json(ov)
            rows = [
                dict(
                    army_id=army_id,
                    name=nm,
                    type_key=type_key,
                    overrides=ovj,
                    hands=hands,
                    worn=worn,
                    carried=carried,
                    notes=notes,
                    status=UnitStatus.ALIVE,
                    battles_fought=0,
                    kills=0,
                    position=start + i,
                )
                for i, nm in enumerate(names)
            ]
            ids = tuple(
                s.scalars(insert(Unit).returning(Unit.id, sort_by_parameter_order=True), rows)
            )
            snap = snapshots.take(s, table_of(Unit), Unit.id.in_(ids))
            self._touch(s, army.campaign_id)
            campaign_id = army.campaign_id
        text = f"Add {names[0]}" if count == 1 else f"Add {count} {ut.name} units"
        return self._added(ids, snap, campaign_id, text)

    def _added(
        self, ids: tuple[UnitId, ...], snap: Snapshot, campaign_id: CampaignId, text: str
    ) -> Done[tuple[UnitId, ...]]:
        """New units ``ids`` (``snap``: their rows): undo deletes them, redo restores them."""
        return Done(
            ids,
            Changes.UNITS | Changes.ARMIES,
            text,
            redo=step(self.restore, snap, campaign_id, text),
            undo=step(self.delete_units, ids, versions=_made(snap)),
        )

    @storage_errors
    def duplicate_units(self, unit_ids: Sequence[UnitId]) -> Done[tuple[UnitId, ...]]:
        """Copies of the units (loadout, overrides, notes; a fresh campaign record) at the end
        of their armies, named "<name> (copy)"."""
        ids = _ids(unit_ids)
        with self._sessions.begin() as s:
            campaign_id = self._campaign_of_units(s, ids)
            s.execute(
                select(Army.id)
                .where(
                    Army.id.in_(  # positions: one writer per army
                        select(Unit.army_id).where(Unit.id.in_(ids))
                    )
                )
                .with_for_update()
            )
            src = s.scalars(
                select(Unit).where(Unit.id.in_(ids)).order_by(Unit.army_id, Unit.position, Unit.id)
            ).all()
            if len(src) > MAX_ADD:
                raise UserError(f"at most {MAX_ADD} units at once")
            next_pos: dict[int, int] = {}
            new_ids = []
            for u in src:
                if u.army_id not in next_pos:
                    next_pos[u.army_id] = (
                        s.scalar(select(func.max(Unit.position)).where(Unit.army_id == u.army_id))
                        or 0
                    ) + 1
                copy_name = u.name if len(u.name) > 93 else f"{u.name} (copy)"
                c = Unit(
                    army_id=u.army_id,
                    name=copy_name,
                    type_key=u.type_key,
                    overrides=dict(u.overrides),
                    hands=list(u.hands),
                    worn=list(u.worn),
                    carried=list(u.carried),
                    notes=u.notes,
                    status=UnitStatus.ALIVE,
                    battles_fought=0,
                    kills=0,
                    position=next_pos[u.army_id],
                )
                next_pos[u.army_id] += 1
                s.add(c)
                s.flush()
                new_ids.append(c.id)
            out = tuple(new_ids)
            snap = snapshots.take(s, table_of(Unit), Unit.id.in_(out))
            self._touch(s, campaign_id)
        text = "Duplicate unit" if len(out) == 1 else f"Duplicate {len(out)} units"
        return self._added(out, snap, campaign_id, text)

    @storage_errors
    def duplicate_army(
        self, army_id: ArmyId, name: str, *, player_id: PlayerId, budget: int | None
    ) -> Done[ArmySummary]:
        """A new army for ``player_id`` (of the same campaign) named ``name`` with ``budget``
        (None: no budget) holding a copy of every unit of ``army_id`` in roster order: type,
        loadout, overrides and notes. The copies start a fresh campaign record (alive, no
        battles, no kills): the history stays with the original. One transaction; undo deletes
        the new army with its units."""
        from brikdesk.services.campaigns import CampaignService, army_summaries, check_free_army

        name = clean_name(name, "The army's name")
        if budget is not None:
            budget = clean_int(budget, "The budget", field="budget")
        with self._sessions.begin() as s:
            src = self._get(s, Army, army_id, "army")
            player = self._get(s, Player, player_id, "player")
            if player.campaign_id != src.campaign_id:
                raise UserError(f"{player.name} plays in another campaign", field="player")
            check_free_army(s, src.campaign_id, name)
            army = Army(campaign_id=src.campaign_id, player_id=player.id, name=name, budget=budget)
            s.add(army)
            s.flush()
            units = s.execute(
                select(
                    Unit.name,
                    Unit.type_key,
                    Unit.overrides,
                    Unit.hands,
                    Unit.worn,
                    Unit.carried,
                    Unit.notes,
                )
                .where(Unit.army_id == army_id)
                .order_by(Unit.position, Unit.id)
            ).all()
            rows = [
                dict(
                    army_id=army.id,
                    name=u.name,
                    type_key=u.type_key,
                    overrides=u.overrides,
                    hands=u.hands,
                    worn=u.worn,
                    carried=u.carried,
                    notes=u.notes,
                    status=UnitStatus.ALIVE,
                    battles_fought=0,
                    kills=0,
                    position=i + 1,
                )
                for i, u in enumerate(units)
            ]
            if rows:
                s.execute(insert(Unit), rows)
            summary = army_summaries(s, Army.id == army.id)[0]
            snap = snapshots.take(s, table_of(Army), Army.id == army.id)
            self._touch(s, src.campaign_id)
            campaign_id = src.campaign_id
        text = f"Duplicate army as {name}"
        [made] = snap.table_rows("army")
        armies = CampaignService(self._sessions, self._clock)  # deletes armies (the undo)
        return Done(
            summary,
            Changes.ARMIES | Changes.UNITS,
            text,
            redo=step(self.restore, snap, campaign_id, text),
            undo=step(armies.delete_army, summary.id, version=seen_from_dict("army", made)),
        )

    # -- editing ------------------------------------------------------------------------------

    @storage_errors
    def edit_unit(
        self, unit_id: UnitId, patch: UnitPatch, *, version: Expected = None
    ) -> Done[UnitPatch]:
        """Change some fields of one unit; ``value`` holds their old values (for undo).
        ``version``: the unit's version in the caller's view (``UnitRow.version``); if the unit
        changed since, ``ConflictError`` and nothing is changed."""
        old, before, after, text = self._edit_units(
            {unit_id: patch}, None if version is None else {unit_id: version}
        )
        return Done(
            old[unit_id],
            Changes.UNITS,
            text,
            redo=step(self.edit_unit, unit_id, patch, version=before[unit_id]),
            undo=step(self.edit_unit, unit_id, old[unit_id], version=after[unit_id]),
        )

    @storage_errors
    def edit_units(
        self,
        patches: Mapping[UnitId, UnitPatch],
        *,
        versions: Mapping[UnitId, Expected] | None = None,
    ) -> Done[dict[UnitId, UnitPatch]]:
        """Change several units in one action (e.g. the type of every selected unit).
        ``versions``: each unit's version in the caller's view; one changed since refuses all."""
        old, before, after, text = self._edit_units(patches, versions)
        new = dict(patches)
        return Done(
            old,
            Changes.UNITS,
            text,
            redo=step(self.edit_units, new, versions=before),
            undo=step(self.edit_units, old, versions=after),
        )

    def _edit_units(
        self, patches: Mapping[UnitId, UnitPatch], versions: Mapping[UnitId, Expected] | None
    ) -> tuple[dict[UnitId, UnitPatch], dict[UnitId, Seen], dict[UnitId, Seen], str]:
        if not patches:
            raise UserError("no units to change")
        for p in patches.values():
            _check_patch_values(p)
        versions = versions or {}
        with self._sessions.begin() as s:
            ids = list(patches)
            units = {
                u.id: u
                for u in s.scalars(
                    select(Unit)
                    .where(Unit.id.in_([i for i in ids if is_id(i)]))
                    .order_by(Unit.id)
                    .with_for_update()
                    .execution_options(populate_existing=True)
                )
            }
            for uid, p in patches.items():
                check(units.get(uid), versions.get(uid), "unit", fields=_patch_fields(p))
            campaign_id = self._campaign_of_units(s, ids)
            needs_catalog = any(
                p.type_key is not None or p.loadout is not None for p in patches.values()
            )
            cat = load_campaign_catalog(s, campaign_id) if needs_catalog else None
            old: dict[UnitId, UnitPatch] = {}
            before: dict[UnitId, Seen] = {}
            for uid, p in patches.items():
                u = units[uid]
                before[uid] = seen(u)
                old[uid] = _old_values(u, p)
                _apply(u, p, cat)
            s.flush()
            after = {uid: seen(units[uid]) for uid in patches}
            self._touch(s, campaign_id)
        if len(patches) == 1:
            p = next(iter(patches.values()))
            what = next(
                (
                    f
                    for f in ("name", "type", "loadout", "overrides", "notes", "status")
                    if getattr(p, "type_key" if f == "type" else f) is not None
                ),
                "unit",
            )
            text = "Rename unit" if what == "name" else f"Change {what}"
        else:
            text = f"Change {len(patches)} units"
        return old, before, after, text

    @storage_errors
    def reorder_units(
        self, army_id: ArmyId, unit_ids: Sequence[UnitId], expect: Sequence[UnitId] | None = None
    ) -> Done[tuple[UnitId, ...]]:
        """Put the army's units in this order (every unit once); ``value``: the old order.
        ``expect``: the order the caller saw (undo and redo pass the order their action left);
        if the army's order is another now, ``ConflictError``."""
        ids = _ids(unit_ids)
        with self._sessions.begin() as s:
            army = self._lock(s, Army, army_id, "army")
            current = tuple(
                s.scalars(
                    select(Unit.id).where(Unit.army_id == army_id).order_by(Unit.position, Unit.id)
                )
            )
            if expect is not None and tuple(expect) != current:
                raise ConflictError(
                    f"the units of {army.name} were added, removed or "
                    "reordered by someone else since; nothing was changed"
                )
            if sorted(current) != sorted(ids):
                raise UserError("the new order must list every unit of the army once")
            # Positions are not the unit's fields (no version change): a plain table update.
            tbl = table_of(Unit)
            s.execute(
                update(tbl).where(tbl.c.id == bindparam("uid")).values(position=bindparam("pos")),
                [{"uid": uid, "pos": i + 1} for i, uid in enumerate(ids)],
            )
            self._touch(s, army.campaign_id)
        return Done(
            current,
            Changes.UNITS,
            "Reorder units",
            redo=step(self.reorder_units, army_id, ids, current),
            undo=step(self.reorder_units, army_id, current, tuple(ids)),
        )

    # -- deleting -----------------------------------------------------------------------------

    @storage_errors
    def delete_units(
        self, unit_ids: Sequence[UnitId], *, versions: Mapping[UnitId, Expected] | None = None
    ) -> Done[Snapshot]:
        """Delete units; ``value`` is the snapshot that ``restore`` puts back (same ids).
        Battles that mustered them keep their copies. ``versions``: as in ``edit_units``."""
        ids = _ids(unit_ids)
        with self._sessions.begin() as s:
            if versions:
                units = {
                    u.id: u
                    for u in s.scalars(
                        select(Unit)
                        .where(Unit.id.in_([i for i in ids if is_id(i)]))
                        .order_by(Unit.id)
                        .with_for_update()
                        .execution_options(populate_existing=True)
                    )
                }
                for uid in ids:
                    check(units.get(uid), versions.get(uid), "unit")
            campaign_id = self._campaign_of_units(s, ids)
            names = list(s.scalars(select(Unit.name).where(Unit.id.in_(ids)).limit(2)))
            snap = self._snapshot_delete(s, table_of(Unit), Unit.id.in_(ids))
            self._touch(s, campaign_id)
        text = f"Delete {names[0]}" if len(ids) == 1 else f"Delete {len(ids)} units"
        return Done(
            snap,
            Changes.UNITS | Changes.ARMIES,
            text,
            redo=step(self.delete_units, ids, versions=_made(snap)),
            undo=step(self.restore, snap, campaign_id, text),
        )

    def delete_unit(self, unit_id: UnitId, *, version: Expected = None) -> Done[Snapshot]:
        """Delete one unit; ``value`` is the snapshot ``restore_units`` puts back."""
        return self.delete_units(
            [unit_id], versions=None if version is None else {unit_id: version}
        )

    @storage_errors
    def restore_units(self, snap: Snapshot) -> Done[Snapshot]:
        """Put deleted units back with their ids (the undo of ``delete_units``)."""
        if snap.root != "unit":
            raise UserError("that snapshot holds no units")
        campaign_id = None
        with self._reading() as s:
            army_ids = {r["army_id"] for r in snap.table_rows("unit")}
            cids = set(s.scalars(select(Army.campaign_id).where(Army.id.in_(army_ids))))
            if len(cids) == 1:
                campaign_id = cids.pop()
        return self.restore(snap, campaign_id, "Restore units")


# -- helpers -------------------------------------------------------------------------------------


def _ids(unit_ids: Sequence[UnitId]) -> list[UnitId]:
    ids = list(dict.fromkeys(unit_ids))
    if not ids:
        raise UserError("no units chosen")
    for i in ids:
        if isinstance(i, bool) or not isinstance(i, int):
            raise UserError(f"{i!r} is not a unit id", field="id")
    return ids


def _names(
    s: Session, army_id: ArmyId, pattern: str, type_name: str, count: int, exact: bool
) -> list[str]:
    if exact:
        return [clean_name(pattern, "The unit's name")]
    # Only {type} and {n} are replaced: the pattern is never used as a format string.
    base = pattern if "{n}" in pattern else pattern.rstrip() + " {n}"
    prefix, _, suffix = base.replace("{type}", type_name).partition("{n}")
    suffix = suffix.replace("{n}", "")
    existing = "\n".join(
        s.scalars(
            select(Unit.name).where(
                Unit.army_id == army_id, Unit.name.startswith(prefix, autoescape=True)
            )
        )
    )
    numbers = re.findall(
        rf"^{re.escape(prefix)}(\d{{1,9}}){re.escape(suffix)}$", existing, re.MULTILINE
    )
    highest = max(map(int, numbers), default=0)
    names = [f"{prefix}{highest + i + 1}{suffix}" for i in range(count)]
    return [clean_name(n, "The unit's name") for n in names]


def _made(snap: Snapshot) -> dict[UnitId, Seen]:
    """What the undo of an add expects: the units as the add made them."""
    return {r["id"]: seen_from_dict("unit", r) for r in snap.table_rows("unit")}


def _patch_fields(p: UnitPatch) -> tuple[str, ...]:
    return tuple(
        col
        for f, col in (
            ("name", "name"),
            ("type_key", "type_key"),
            ("status", "status"),
            ("battles_fought", "battles_fought"),
            ("kills", "kills"),
            ("notes", "notes"),
        )
        if getattr(p, f) is not None
    )


def _check_patch_values(p: UnitPatch) -> None:
    if p.status is not None and p.status not in CAMPAIGN_STATUS:
        raise UserError(
            f"'{p.status}' is not a campaign status; use " + ", ".join(CAMPAIGN_STATUS),
            field="status",
        )
    if p.battles_fought is not None:
        clean_int(p.battles_fought, "Battles fought", field="battles_fought", maximum=MAX_NUMBER)
    if p.kills is not None:
        clean_int(p.kills, "Kills", field="kills", maximum=MAX_NUMBER)
    if p.overrides is not None:
        check_overrides(p.overrides)
    if p.loadout is not None:
        check_loadout(p.loadout, None)


def _old_values(u: Unit, p: UnitPatch) -> UnitPatch:
    return UnitPatch(
        name=u.name if p.name is not None else None,
        type_key=u.type_key if p.type_key is not None else None,
        overrides=overrides_from_json(u.overrides) if p.overrides is not None else None,
        loadout=Loadout(tuple(u.hands), tuple(u.worn), tuple(u.carried))
        if p.loadout is not None
        else None,
        notes=u.notes if p.notes is not None else None,
        status=u.status if p.status is not None else None,
        battles_fought=u.battles_fought if p.battles_fought is not None else None,
        kills=u.kills if p.kills is not None else None,
    )


def _apply(u: Unit, p: UnitPatch, cat: Catalog | None) -> None:
    if p.name is not None:
        u.name = clean_name(p.name, "The unit's name")
    if p.type_key is not None:
        assert cat is not None
        if cat.get_unit_type(p.type_key) is None and p.type_key != u.type_key:
            raise UserError(
                f"there is no unit type '{p.type_key}' in this campaign's catalog", field="type"
            )
        u.type_key = p.type_key
    if p.overrides is not None:
        u.overrides = overrides_to_json(check_overrides(p.overrides))
    if p.loadout is not None:
        assert cat is not None
        old = set(u.hands) | set(u.worn) | set(u.carried)
        # Keys the unit already had may stay even if the catalog lost them (undo must work).
        for k in (*p.loadout.hands, *p.loadout.worn, *p.loadout.carried):
            if k is not None and cat.get_item(k) is None and k not in old:
                raise UserError(
                    f"there is no item '{k}' in this campaign's catalog", field="loadout"
                )
        u.hands = list(p.loadout.hands)
        u.worn = list(p.loadout.worn)
        u.carried = list(p.loadout.carried)
    if p.notes is not None:
        u.notes = clean_notes(p.notes)
    if p.status is not None:
        u.status = p.status
    if p.battles_fought is not None:
        u.battles_fought = p.battles_fought
    if p.kills is not None:
        u.kills = p.kills


__all__ = [
    "MAX_ADD",
    "Roster",
    "RosterService",
    "UnitCard",
    "UnitPatch",
    "UnitRow",
    "check_overrides",
    "overrides_from_json",
    "overrides_to_json",
]
