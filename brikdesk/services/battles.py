"""Battles: mustering, reading the event log, and the campaign record.

The event log is the truth ("Battles are an event log" in docs/conventions.md), and the battle
tracker (``services/tracker.py``) is its only writer ("One undo path" in docs/conventions.md):
recording, undoing and redoing events check them with the rules against the log as it stands, under
the battle's row lock. This service reads the log (``events``) and manages the battle itself
(create, rename, turn order, delete, finish). ``BattleUnit.state`` and ``Battle.state`` are the
tracker's caches; nothing here reads them as truth.

Renames and deletes take ``version=`` (``BattleSummary.version``) and refuse with a
``ConflictError`` when the battle changed since (``services/versions.py``).

Mustering copies each unit (name, type, overrides, loadout) into the battle: the campaign pool
stays intact and editable, and the log still reads correctly if a unit is later edited or
deleted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Select, Table, func, select, update
from sqlalchemy.orm import Session

from brikdesk.domain.ids import BattleId, BattleUnitId, CampaignId, PlayerId, UnitId
from brikdesk.domain.statuses import BattleStatus, UnitStatus
from brikdesk.errors import UserError
from brikdesk.persistence.models import (
    CAMPAIGN_STATUS,
    Army,
    Base,
    Battle,
    BattleEvent,
    BattlePlayer,
    BattleUnit,
    Campaign,
    Player,
    Unit,
)
from brikdesk.persistence.snapshots import Snapshot
from brikdesk.services.base import ServiceBase
from brikdesk.services.changes import Changes, Done, step
from brikdesk.services.common import (
    clean_int,
    clean_name,
    clean_notes,
    from_db_time,
    is_id,
    storage_errors,
    to_db_time,
)
from brikdesk.services.events import record_from_events
from brikdesk.services.summaries import (
    BattleDetail,
    BattlePlayerSummary,
    BattleSummary,
    BattleUnitSummary,
    EventSummary,
    Muster,
    UnitOutcome,
    UnitRecord,
)
from brikdesk.services.versions import Expected, seen, seen_from_dict

#: The battle table (snapshots take and delete its rows with their children).
BATTLE_TABLE: Table = Base.metadata.tables["battle"]

#: Most events one call may append (a macro), most units one battle may muster.
MAX_EVENTS_PER_CALL = 100
MAX_BATTLE_UNITS = 5000


def unit_spec_json(u: Unit, army: str) -> dict[str, Any]:
    """The copy of a campaign unit kept by a battle."""
    return {
        "type": u.type_key,
        "overrides": dict(u.overrides),
        "hands": list(u.hands),
        "worn": list(u.worn),
        "carried": list(u.carried),
        "notes": u.notes,
        "army": army,
    }


def battle_summaries(s: Session, where: ColumnElement[bool]) -> tuple[BattleSummary, ...]:
    n_units = (
        select(func.count())
        .where(BattleUnit.battle_id == Battle.id)
        .correlate(Battle)
        .scalar_subquery()
    )
    n_events = (
        select(func.count())
        .where(BattleEvent.battle_id == Battle.id, BattleEvent.reverted.is_(False))
        .correlate(Battle)
        .scalar_subquery()
    )
    query: Select[Battle, int | None, int | None] = (
        select(Battle, n_units, n_events).where(where).order_by(Battle.created_at, Battle.id)
    )
    rows = [(b, nu, ne) for b, nu, ne in s.execute(query)]
    ids = [b.id for b, _, _ in rows]
    names: dict[BattleId, list[str]] = {}
    if ids:
        for bid, pname in s.execute(
            select(BattlePlayer.battle_id, Player.name)
            .join(Player)
            .where(BattlePlayer.battle_id.in_(ids))
            .order_by(BattlePlayer.battle_id, BattlePlayer.turn_order)
        ):
            names.setdefault(bid, []).append(pname)
    return tuple(
        BattleSummary(
            b.id,
            b.campaign_id,
            b.name,
            b.status,
            db_time(b.created_at),
            from_db_time(b.finished_at),
            b.notes,
            tuple(names.get(b.id, ())),
            nu or 0,
            ne or 0,
            b.version,
        )
        for b, nu, ne in rows
    )


def db_time(value: datetime) -> datetime:
    """A stored (not null) time as the services hand times out (aware, UTC)."""
    out = from_db_time(value)
    assert out is not None  # from_db_time keeps a time a time
    return out


def event_summary(e: BattleEvent) -> EventSummary:
    return EventSummary(
        e.id,
        e.battle_id,
        e.seq,
        e.kind,
        e.actor_id,
        e.target_id,
        dict(e.payload),
        db_time(e.created_at),
        e.reverted,
    )


class BattleService(ServiceBase):
    """Battles of a campaign and their event logs."""

    # -- reading ------------------------------------------------------------------------------

    @storage_errors
    def list_battles(self, campaign_id: CampaignId) -> tuple[BattleSummary, ...]:
        with self._reading() as s:
            self._get(s, Campaign, campaign_id, "campaign")
            return battle_summaries(s, Battle.campaign_id == campaign_id)

    @storage_errors
    def battle(self, battle_id: BattleId) -> BattleDetail:
        """A battle, its players in turn order and its mustered units (with state caches)."""
        with self._reading() as s:
            b = self._get(s, Battle, battle_id, "battle")
            summary = battle_summaries(s, Battle.id == b.id)[0]
            players = tuple(
                BattlePlayerSummary(bp.id, p.id, p.name, p.colour, p.faction, bp.turn_order)
                for bp, p in s.execute(
                    select(BattlePlayer, Player)
                    .join(Player)
                    .where(BattlePlayer.battle_id == battle_id)
                    .order_by(BattlePlayer.turn_order, BattlePlayer.id)
                )
            )
            side = {p.id: p.player_id for p in players}
            units = tuple(
                BattleUnitSummary(
                    bu.id,
                    bu.battle_player_id,
                    side[bu.battle_player_id],
                    bu.unit_id,
                    bu.name,
                    dict(bu.spec),
                    dict(bu.state),
                )
                for bu in s.scalars(
                    select(BattleUnit)
                    .where(BattleUnit.battle_id == battle_id)
                    .order_by(BattleUnit.id)
                )
            )
            return BattleDetail(summary, players, units, dict(b.state))

    @storage_errors
    def events(
        self, battle_id: BattleId, *, include_reverted: bool = True
    ) -> tuple[EventSummary, ...]:
        """The battle's log in order (oldest first)."""
        with self._reading() as s:
            self._get(s, Battle, battle_id, "battle")
            q = select(BattleEvent).where(BattleEvent.battle_id == battle_id)
            if not include_reverted:
                q = q.where(BattleEvent.reverted.is_(False))
            return tuple(event_summary(e) for e in s.scalars(q.order_by(BattleEvent.seq)))

    # -- creating and editing battles ---------------------------------------------------------

    @storage_errors
    def create_battle(
        self, campaign_id: CampaignId, name: str, musters: Sequence[Muster], *, notes: str = ""
    ) -> Done[BattleSummary]:
        """A planned battle with the chosen units of each player; turn order = muster order.

        The units stay in the campaign pool; the battle keeps a copy of each. Dead units and a
        unit picked twice are refused; so is a battle with fewer than two players.
        """
        name = clean_name(name, "The battle's name")
        notes = clean_notes(notes)
        if len(musters) < 2:
            raise UserError("a battle needs at least two players", field="players")
        with self._sessions.begin() as s:
            self._get(s, Campaign, campaign_id, "campaign")
            b = Battle(
                campaign_id=campaign_id,
                name=name,
                status=BattleStatus.PLANNED,
                created_at=to_db_time(self._clock()),
                finished_at=None,
                notes=notes,
                state={},
            )
            s.add(b)
            s.flush()
            seen_players: set[PlayerId] = set()
            seen_units: set[UnitId] = set()
            total = 0
            for order, m in enumerate(musters):
                p = self._get(s, Player, m.player_id, "player")
                if p.campaign_id != campaign_id:
                    raise UserError(f"{p.name} plays in another campaign", field="players")
                if p.id in seen_players:
                    raise UserError(f"{p.name} is in the battle twice", field="players")
                seen_players.add(p.id)
                ids = list(m.unit_ids)
                if not ids:
                    raise UserError(f"pick at least one unit for {p.name}", field="units")
                if len(set(ids)) != len(ids) or seen_units & set(ids):
                    raise UserError("a unit can be mustered only once", field="units")
                seen_units |= set(ids)
                total += len(ids)
                if total > MAX_BATTLE_UNITS:
                    raise UserError(
                        f"at most {MAX_BATTLE_UNITS} units in one battle", field="units"
                    )
                rows = s.execute(
                    select(Unit, Army).join(Army).where(Unit.id.in_([i for i in ids if is_id(i)]))
                ).all()
                found = {u.id: (u, a) for u, a in rows}
                missing = [i for i in ids if i not in found]
                if missing:
                    raise UserError(f"there is no unit with id {missing[0]}", field="units")
                bp = BattlePlayer(battle_id=b.id, player_id=p.id, turn_order=order)
                s.add(bp)
                s.flush()
                for uid in ids:
                    u, a = found[uid]
                    if a.player_id != p.id:
                        raise UserError(f"{u.name} is not one of {p.name}'s units", field="units")
                    if u.status is UnitStatus.DEAD:
                        raise UserError(
                            f"{u.name} is dead in the campaign and can't fight", field="units"
                        )
                    s.add(
                        BattleUnit(
                            battle_id=b.id,
                            unit_id=u.id,
                            battle_player_id=bp.id,
                            name=u.name,
                            spec=unit_spec_json(u, a.name),
                            state={},
                        )
                    )
            s.flush()
            summary = battle_summaries(s, Battle.id == b.id)[0]
            from brikdesk.persistence import snapshots

            snap = snapshots.take(s, BATTLE_TABLE, Battle.id == b.id)
            self._touch(s, campaign_id)
        text = f"Create battle {name}"
        [made] = snap.table_rows("battle")
        return Done(
            summary,
            Changes.BATTLES,
            text,
            redo=step(self.restore, snap, campaign_id, text),
            undo=step(self.delete_battle, summary.id, version=seen_from_dict("battle", made)),
        )

    @storage_errors
    def update_battle(
        self,
        battle_id: BattleId,
        *,
        name: str | None = None,
        notes: str | None = None,
        version: Expected = None,
    ) -> Done[tuple[str | None, str | None]]:
        """Rename a battle or change its notes; ``value`` is the old (name, notes)."""
        with self._sessions.begin() as s:
            fields = tuple(f for f, v in (("name", name), ("notes", notes)) if v is not None)
            b = self._lock(s, Battle, battle_id, "battle", version, fields=fields)
            before = seen(b)
            old = (b.name if name is not None else None, b.notes if notes is not None else None)
            if name is not None:
                b.name = clean_name(name, "The battle's name")
            if notes is not None:
                b.notes = clean_notes(notes)
            s.flush()
            after = seen(b)
            self._touch(s, b.campaign_id)
        return Done(
            old,
            Changes.BATTLES,
            "Edit battle",
            redo=step(self.update_battle, battle_id, name=name, notes=notes, version=before),
            undo=step(self.update_battle, battle_id, name=old[0], notes=old[1], version=after),
        )

    @storage_errors
    def set_turn_order(
        self, battle_id: BattleId, player_ids: Sequence[PlayerId]
    ) -> Done[tuple[PlayerId, ...]]:
        """Set the players' turn order (every player of the battle, once); value: old order."""
        with self._sessions.begin() as s:
            b = self._lock(s, Battle, battle_id, "battle")
            bps = s.scalars(
                select(BattlePlayer)
                .where(BattlePlayer.battle_id == battle_id)
                .order_by(BattlePlayer.turn_order)
            ).all()
            old = tuple(bp.player_id for bp in bps)
            if sorted(player_ids) != sorted(old):
                raise UserError(
                    "the turn order must list every player of the battle once", field="players"
                )
            where = {pid: i for i, pid in enumerate(player_ids)}
            for bp in bps:
                bp.turn_order = where[bp.player_id]
            self._touch(s, b.campaign_id)
        return Done(
            old,
            Changes.BATTLES,
            "Change turn order",
            redo=step(self.set_turn_order, battle_id, tuple(player_ids)),
            undo=step(self.set_turn_order, battle_id, old),
        )

    @storage_errors
    def start_battle(self, battle_id: BattleId) -> Done[BattleStatus]:
        """A planned battle goes in progress; ``value`` is the old status."""
        with self._sessions.begin() as s:
            b = self._lock(s, Battle, battle_id, "battle")
            if b.status is not BattleStatus.PLANNED:
                raise UserError(f"'{b.name}' is already {b.status.text}")
            b.status = BattleStatus.IN_PROGRESS
            self._touch(s, b.campaign_id)
        return Done(
            BattleStatus.PLANNED,
            Changes.BATTLES,
            "Start battle",
            redo=step(self.start_battle, battle_id),
            undo=step(self._set_status, battle_id, BattleStatus.PLANNED),
        )

    @storage_errors
    def _set_status(self, battle_id: BattleId, status: BattleStatus) -> Done[BattleStatus]:
        with self._sessions.begin() as s:
            b = self._lock(s, Battle, battle_id, "battle")
            old = b.status
            b.status = status
            if status is not BattleStatus.FINISHED:
                b.finished_at = None
        return Done(
            old,
            Changes.BATTLES,
            "Battle status",
            redo=step(self._set_status, battle_id, status),
            undo=step(self._set_status, battle_id, old),
        )

    @storage_errors
    def delete_battle(self, battle_id: BattleId, *, version: Expected = None) -> Done[Snapshot]:
        """Delete a battle with its log. Units' campaign records are left as they are."""
        with self._sessions.begin() as s:
            b = self._lock(s, Battle, battle_id, "battle", version)
            campaign_id, text = b.campaign_id, f"Delete battle {b.name}"
            snap = self._snapshot_delete(s, BATTLE_TABLE, Battle.id == battle_id)
            self._touch(s, campaign_id)
        return self._deleted(snap, campaign_id, text)

    # -- the campaign record ------------------------------------------------------------------

    @storage_errors
    def outcomes_from_log(self, battle_id: BattleId) -> dict[BattleUnitId, UnitOutcome]:
        """What the log says happened to each mustered unit (by battle-unit id)."""
        with self._reading() as s:
            self._get(s, Battle, battle_id, "battle")
            return _outcomes(s, battle_id)

    @storage_errors
    def finish_battle(
        self, battle_id: BattleId, outcomes: Mapping[BattleUnitId, UnitOutcome] | None = None
    ) -> Done[tuple[UnitRecord, ...]]:
        """End a battle and write the campaign record of every mustered unit still in the pool.

        ``outcomes`` (by battle-unit id) default to what the log says (:meth:`outcomes_from_log`):
        killed units become dead, wounded ones wounded, the others keep their status; each
        kill counts for its actor. Every mustered unit gets one more battle fought.
        ``value`` holds the old records; undo puts them back and reopens the battle.
        """
        with self._sessions.begin() as s:
            b = self._get(s, Battle, battle_id, "battle")
            if b.status is BattleStatus.FINISHED:
                raise UserError(f"'{b.name}' is already finished")
            derived = _outcomes(s, battle_id)
            final = dict(derived)
            for k, v in (outcomes or {}).items():
                if k not in derived:
                    raise UserError(f"battle unit {k} is not in this battle")
                if v.status not in CAMPAIGN_STATUS:
                    raise UserError(
                        f"'{v.status}' is not a status; use " + ", ".join(CAMPAIGN_STATUS),
                        field="status",
                    )
                clean_int(v.kills, "Kills", field="kills")
                final[k] = v
            old_status = b.status
            records = []
            links = dict(
                s.execute(
                    select(BattleUnit.id, BattleUnit.unit_id).where(
                        BattleUnit.battle_id == battle_id, BattleUnit.unit_id.is_not(None)
                    )
                ).all()
            )
            units = (
                {u.id: u for u in s.scalars(select(Unit).where(Unit.id.in_(list(links.values()))))}
                if links
                else {}
            )
            for buid, uid in sorted(links.items()):
                assert uid is not None  # the query keeps linked units only
                u = units[uid]
                records.append(UnitRecord(u.id, u.status, u.battles_fought, u.kills))
                oc = final[buid]
                u.status = oc.status
                u.battles_fought += 1
                u.kills += oc.kills
            b.status = BattleStatus.FINISHED
            b.finished_at = to_db_time(self._clock())
            self._touch(s, b.campaign_id)
        recs = tuple(records)
        return Done(
            recs,
            Changes.BATTLES | Changes.UNITS,
            f"Finish battle {b.name}",
            redo=step(self.finish_battle, battle_id, final),
            undo=step(self.reopen_battle, battle_id, recs, old_status),
        )

    @storage_errors
    def reopen_battle(
        self,
        battle_id: BattleId,
        records: Sequence[UnitRecord],
        status: BattleStatus = BattleStatus.IN_PROGRESS,
    ) -> Done[tuple[UnitRecord, ...]]:
        """Undo of :meth:`finish_battle`: the units' old records, the battle not finished."""
        with self._sessions.begin() as s:
            b = self._get(s, Battle, battle_id, "battle")
            if b.status is not BattleStatus.FINISHED:
                raise UserError(f"'{b.name}' is not finished")
            for r in records:
                s.execute(
                    update(Unit)
                    .where(Unit.id == r.unit_id)
                    .values(status=r.status, battles_fought=r.battles_fought, kills=r.kills)
                )
            b.status = status
            b.finished_at = None
            self._touch(s, b.campaign_id)
        return Done(
            tuple(records),
            Changes.BATTLES | Changes.UNITS,
            "Reopen battle",
            redo=step(self.finish_battle, battle_id),
            undo=step(self.reopen_battle, battle_id, tuple(records), status),
        )


def _outcomes(s: Session, battle_id: BattleId) -> dict[BattleUnitId, UnitOutcome]:
    standing = s.execute(
        select(BattleEvent.kind, BattleEvent.actor_id, BattleEvent.target_id, BattleEvent.payload)
        .where(BattleEvent.battle_id == battle_id, BattleEvent.reverted.is_(False))
        .order_by(BattleEvent.seq)
    ).all()
    dead, wounded, kills = record_from_events(standing)
    out = {}
    for buid, current in s.execute(
        select(BattleUnit.id, Unit.status)
        .outerjoin(Unit, Unit.id == BattleUnit.unit_id)
        .where(BattleUnit.battle_id == battle_id)
    ):
        status = (
            UnitStatus.DEAD
            if buid in dead
            else UnitStatus.WOUNDED
            if buid in wounded
            else current or UnitStatus.ALIVE
        )
        out[buid] = UnitOutcome(status, kills.get(buid, 0))
    return out
