"""Reading a battle for the tracker: its row, its roster and its event log, into its cache.

:class:`LogReader` keeps one :class:`~brikdesk.services.tracker_cache.BattleCache` per battle
and brings it up to date on every call (``sync``): players and the catalog are read again only
when the campaign's ``updated_at`` moved, the log's order on every call, each event's payload
once. ``view`` builds the frozen :class:`BattleView` from the cache (the unchanged beginning of
the log is reused). The tracker calls it under its lock, inside the call's own transaction;
the reader never writes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import BindParameter, Text, bindparam, case, func, select, type_coerce
from sqlalchemy.orm import Session

from brikdesk.domain.battle import (
    BattleSetup,
    Event,
    EventFormatError,
    PlayerSetup,
    Status,
    UnitSetup,
    describe,
    from_payload,
)
from brikdesk.domain.catalog import Catalog, CatalogError
from brikdesk.domain.ids import BattleId, CampaignId, EventId
from brikdesk.domain.roster import UnitSpec, UnitStats, effective_stats
from brikdesk.domain.rulesets import rules_for
from brikdesk.domain.statuses import BattleStatus
from brikdesk.domain.tracking import fallback_stats
from brikdesk.errors import ConflictError, UserError
from brikdesk.persistence.models import Battle, BattlePlayer, BattleUnit, Campaign, Player
from brikdesk.persistence.models import BattleEvent as EventRow
from brikdesk.services.catalogs import load_campaign_catalog
from brikdesk.services.common import from_db_time, unknown
from brikdesk.services.roster_reading import spec_from_json
from brikdesk.services.tracker_cache import (
    BattleCache,
    CachedRow,
    Group,
    Roster,
    common_prefix,
    parse_groups,
)
from brikdesk.services.tracker_views import BattleView, LoggedEvent, TrackedPlayer, TrackedUnit

__all__ = ["BattleInfo", "LogReader", "spec_from_json"]

_SQL_CHUNK = 500  # ids per IN (...) list

# Statements run on every view, built once (building a statement costs more than running it).
_BID: BindParameter[int] = bindparam("battle_id")
#: Times the log is read again when it changed between two reads of one call.
_LOG_READS = 5
_LOG_SUMMARY = select(
    func.count(), func.max(EventRow.id), func.sum(case((EventRow.reverted.is_(True), 1), else_=0))
).where(EventRow.battle_id == _BID)
_LOG_ORDER = (
    select(EventRow.id, EventRow.reverted).where(EventRow.battle_id == _BID).order_by(EventRow.seq)
)
_BATTLE_ROW = (
    select(
        Battle.id,
        Battle.campaign_id,
        Battle.name,
        Battle.status,
        Battle.notes,
        Battle.undo_groups,
        Campaign.updated_at,
    )
    .join(Campaign, Campaign.id == Battle.campaign_id)
    .where(Battle.id == _BID)
)
_PLAYERS = (
    select(
        BattlePlayer.id,
        Player.id,
        Player.name,
        Player.colour,
        Player.faction,
        BattlePlayer.turn_order,
    )
    .join(Player, Player.id == BattlePlayer.player_id)
    .where(BattlePlayer.battle_id == _BID)
    .order_by(BattlePlayer.turn_order, BattlePlayer.id)
)


# -- the battle's row as one call reads it ---------------------------------------------------


@dataclass
class BattleInfo:
    """The battle's row as read at the start of a call (a plain copy, not an ORM object)."""

    id: BattleId
    campaign_id: CampaignId
    name: str
    status: BattleStatus
    notes: str
    groups: tuple[Group, ...]  # its undo groups


def _event_text(
    setup: BattleSetup, kind: str, event: Event | None, payload: Mapping[str, Any]
) -> str:
    if event is not None:
        return describe(setup, event)
    text = payload.get("text")
    if isinstance(text, str) and text.strip():
        return text.strip()
    return kind.replace("_", " ").capitalize()


#: What units of one kind share: stats, the type's name, whether a minifig, notes on the stats.
_Kind = tuple[UnitStats, str, bool, tuple[str, ...]]


def _unit_kind(
    spec: UnitSpec, data: Mapping[str, Any], catalog: Catalog, kinds: dict[str, _Kind]
) -> _Kind:
    """The stats and type of a unit of ``spec`` (``data`` as stored), worked out once per kind
    in ``kinds``."""
    key = json.dumps(
        [
            spec.unit_type,
            data.get("overrides"),
            spec.loadout.hands,
            spec.loadout.worn,
            spec.loadout.carried,
        ],
        sort_keys=True,
        default=str,
    )
    kind = kinds.get(key)
    if kind is None:
        notes: tuple[str, ...] = ()
        ut = catalog.get_unit_type(spec.unit_type)
        try:
            stats = effective_stats(spec, catalog)
        except CatalogError:
            stats, note = fallback_stats(spec, catalog)
            notes = (note,)
        type_name = ut.name if ut is not None else f"{spec.unit_type or '?'}?"
        minifig = (ut.hands if ut is not None else 2) > 0
        kind = (stats, type_name, minifig, notes)
        kinds[key] = kind
    return kind


class LogReader:
    """Each battle's cache, and the reads that bring it up to date (see the module's text)."""

    def __init__(self) -> None:
        self.caches: dict[BattleId, BattleCache] = {}

    def drop(self, battle_id: BattleId) -> None:
        """Forget the battle's cache (its roster or a rolled-back write changed it)."""
        self.caches.pop(battle_id, None)

    @staticmethod
    def players(s: Session, battle_id: BattleId) -> list[Any]:
        return list(s.execute(_PLAYERS, {"battle_id": battle_id}).all())

    def sync(self, s: Session, battle_id: BattleId) -> tuple[BattleInfo, BattleCache]:
        """Read what may have changed and bring the battle's cache up to date.

        Players and the catalog are read again only when the campaign's ``updated_at`` moved
        (every service stamps it when it writes); the log is checked on every call.
        """
        if isinstance(battle_id, bool) or not isinstance(battle_id, int):
            raise unknown("battle", battle_id)
        row = s.execute(_BATTLE_ROW, {"battle_id": battle_id}).one_or_none()
        if row is None:
            raise unknown("battle", battle_id)
        bid, campaign_id, name, status, notes, groups, stamp = row
        b = BattleInfo(bid, campaign_id, name, status, notes, parse_groups(groups))
        cache = self.caches.get(battle_id)
        if cache is None or cache.stamp != (campaign_id, stamp):
            players = self.players(s, battle_id)
            catalog = load_campaign_catalog(s, campaign_id)
            signature = (campaign_id, tuple(tuple(p) for p in players))
            if (
                cache is None
                or cache.roster.signature != signature
                or cache.roster.catalog != catalog
            ):
                cache = self._build(s, battle_id, signature, players, catalog)
                self.caches[battle_id] = cache
            cache.stamp = (campaign_id, stamp)
        self.sync_events(s, battle_id, cache)
        return b, cache

    def sync_events(self, s: Session, battle_id: BattleId, cache: BattleCache) -> None:
        """Read which events stand and apply those the cache has not seen.

        First a one-row summary of the log (count, last id, how many undone): events are only
        appended, undone from the end, redone or dropped from the end, and ids are never
        reused, so an unchanged summary means an unchanged log. Only when it changed are the
        ids read (ids and flags only; payloads once per new event).
        """
        for _attempt in range(_LOG_READS):
            token = tuple(s.execute(_LOG_SUMMARY, {"battle_id": battle_id}).one())
            if token == cache.token:
                return
            order = tuple((i, bool(r)) for i, r in s.execute(_LOG_ORDER, {"battle_id": battle_id}))
            if order != cache.order:
                new = [i for i, _r in order if i not in cache.rows]
                if new:
                    self.read_rows(s, cache, new)
                    if any(i not in cache.rows for i in new):
                        # Between the two reads another process's new action dropped undone
                        # events (a database whose reads see each commit, as PostgreSQL's
                        # do): the log is read again.
                        continue
            cache.read_order(order, token)
            return
        raise ConflictError("The battle's log kept changing while it was read; try again.")

    def _build(
        self,
        s: Session,
        battle_id: BattleId,
        signature: tuple[Any, ...],
        players: list[Any],
        catalog: Catalog,
    ) -> BattleCache:
        tracked_players = tuple(
            TrackedPlayer(pid, name, colour, faction, order)
            for _bp, pid, name, colour, faction, order in players
        )
        by_bp = {bp: p for bp, p in zip((row[0] for row in players), tracked_players, strict=True)}
        units: list[TrackedUnit] = []
        setups: list[UnitSetup] = []
        kinds: dict[str, _Kind] = {}
        for buid, bpid, cuid, name, spec_text in s.execute(
            select(
                BattleUnit.id,
                BattleUnit.battle_player_id,
                BattleUnit.unit_id,
                BattleUnit.name,
                type_coerce(BattleUnit.spec, Text),
            )
            .where(BattleUnit.battle_id == battle_id)
            .order_by(BattleUnit.id)
        ):
            data = json.loads(spec_text) if isinstance(spec_text, str) else (spec_text or {})
            if not isinstance(data, Mapping):
                data = {}
            spec = spec_from_json(name, data)
            kind = _unit_kind(spec, data, catalog, kinds)
            stats, type_name, minifig, notes = kind
            p = by_bp[bpid]
            army = data.get("army")
            units.append(
                TrackedUnit(
                    buid,
                    name,
                    p.id,
                    p.name,
                    p.colour,
                    spec.unit_type,
                    type_name,
                    spec,
                    stats,
                    army if isinstance(army, str) else "",
                    cuid,
                    minifig,
                    notes,
                )
            )
            setups.append(
                UnitSetup(
                    buid,
                    p.id,
                    name,
                    counters=max(0, stats.counters),
                    minifig=minifig,
                    heavy_armor=stats.deflection > 0,
                    start_statuses=(Status.HALF_SPEED,) if stats.half_speed else (),
                    over_the_top=stats.over_the_top,
                )
            )
        if not tracked_players:
            raise UserError("This battle has no players.")
        setup = BattleSetup(
            tuple(PlayerSetup(p.id, p.name) for p in tracked_players),
            tuple(setups),
            rules=rules_for(catalog.edition),
        )
        return BattleCache(Roster(signature, setup, tracked_players, tuple(units), catalog))

    def read_rows(self, s: Session, cache: BattleCache, ids: list[EventId]) -> None:
        setup = cache.setup
        for start in range(0, len(ids), _SQL_CHUNK):
            chunk = ids[start : start + _SQL_CHUNK]
            for eid, seq, kind, actor, target, created, payload_text in s.execute(
                select(
                    EventRow.id,
                    EventRow.seq,
                    EventRow.kind,
                    EventRow.actor_id,
                    EventRow.target_id,
                    EventRow.created_at,
                    type_coerce(EventRow.payload, Text),
                ).where(EventRow.id.in_(chunk))
            ):
                try:
                    payload = (
                        json.loads(payload_text) if isinstance(payload_text, str) else payload_text
                    )
                except ValueError:
                    payload = None
                event: Event | None = None
                problem = None
                if not isinstance(payload, Mapping):
                    payload = {}
                    problem = "not counted: its stored details cannot be read"
                else:
                    try:
                        event = from_payload(kind, actor, target, payload)
                    except EventFormatError as exc:
                        problem = f"not counted: {exc}"
                note = payload.get("text") if event is not None else ""
                cache.rows[eid] = CachedRow(
                    eid,
                    seq,
                    kind,
                    actor,
                    target,
                    from_db_time(created),
                    note if isinstance(note, str) else "",
                    event,
                    problem,
                    _event_text(setup, kind, event, payload),
                )

    def view(self, b: BattleInfo, cache: BattleCache) -> BattleView:
        key = (cache.order, b.status, b.name, b.notes, b.groups)
        if cache.view is not None and cache.view_key == key:
            return cache.view
        rows = cache.rows
        order = cache.order
        # The log changes at its end: keep the entries of the unchanged beginning.
        k = common_prefix(cache.entries_order, order)
        out = cache.entries[:k]
        n_standing = len(cache.ids)
        position = None
        names = {p.id: p.name for p in cache.roster.players}
        for at in range(k, len(order)):
            eid, reverted = order[at]
            row = rows[eid]
            if at < n_standing and cache.ids[at] == eid:
                i: int | None = at
            else:  # the undone events are normally the log's end; otherwise look it up
                if position is None:
                    position = {x: j for j, x in enumerate(cache.ids)}
                i = position.get(eid)
            if i is None:
                entry = LoggedEvent(
                    row.id,
                    row.seq,
                    row.kind,
                    row.text,
                    row.time,
                    True,
                    row.actor,
                    row.target,
                    None,
                    None,
                    row.note,
                    row.problem,
                    row.event,
                )
            else:
                before = cache.states[i]
                entry = LoggedEvent(
                    row.id,
                    row.seq,
                    row.kind,
                    row.text,
                    row.time,
                    False,
                    row.actor,
                    row.target,
                    before.round,
                    names.get(before.active),
                    row.note,
                    cache.problems[i],
                    row.event,
                )
            out.append(entry)
        cache.entries, cache.entries_order = out, order
        open_log = b.status is not BattleStatus.FINISHED
        undo = cache.undo_group(b.groups) if open_log else ()
        redo = cache.redo_group(b.groups) if open_log else ()
        view = BattleView(
            id=b.id,
            campaign_id=b.campaign_id,
            name=b.name,
            status=b.status,
            notes=b.notes,
            setup=cache.setup,
            state=cache.state,
            players=cache.roster.players,
            units=cache.roster.units,
            catalog=cache.roster.catalog,
            events=tuple(out),
            can_undo=cache.group_text(undo) if undo else None,
            can_redo=cache.group_text(redo) if redo else None,
            undo_seen=undo[-1] if undo else None,
            redo_seen=redo[0] if redo else None,
        )
        cache.view, cache.view_key = view, key
        return view
