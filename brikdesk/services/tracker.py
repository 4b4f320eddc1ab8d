"""The battle tracker: a battle's state read from its event log, and validated recording.

The event log is the truth (design convention 6). ``view(battle_id)`` replays the events that
stand through the rules engine (``brikdesk.domain.battle``) and returns a frozen
:class:`BattleView`: the setup, the state, every unit with its loadout and effective stats, the
campaign's catalog (with house rules) and the log in plain words. ``record`` applies new events
to the current state first, so an illegal one is refused (``RuleViolation``, a ``UserError``
with ``reason`` and ``rule``) and nothing is stored; legal ones are stored in one transaction as
one undo step.

Undo works on groups: the events of one ``record`` call (an attack that kills and spends an
Action) are undone and redone together (``brikdesk.domain.tracking.READINGS["undo_groups"]``).
Group boundaries are the battle's ``undo_groups`` column (``[first seq, last seq]`` of each
group of more than one event); a log without them undoes event by event.

One writer, one order (design convention 14). The tracker is the only writer of a battle's log.
Every write (record, end turn, undo, redo, start) first locks the battle's row (``FOR UPDATE``
on PostgreSQL; on SQLite the write transaction is exclusive from its ``BEGIN IMMEDIATE``), then
brings its cache up to date with whatever other processes wrote (the log's summary token below
changes with any append, undo, redo or dropped tail), then checks the new events with the rules
against that current state. So two tables recording for one battle at once land one after the
other, in the order they got the lock, each checked against the other's events: the second is
stored after the first, or refused by the rules with the reason (a unit cannot spend its Action
twice). ``seq`` is the log's largest plus one, under the lock: never duplicated. An undo or redo
step refuses (``ConflictError``) when the log moved on since its action: someone recorded after
the events to undo, or already undid or redid them; the message names what was recorded since.
``undo``/``redo`` of "the last action" take the id the caller's view showed (``seen``), so a
table never takes back another table's action by mistake.

Speed: the service keeps, per battle, a :class:`~brikdesk.services.tracker_cache.BattleCache`:
the state after every standing event, keyed by the event
ids (ids are never reused). A call reads the ids that stand (one small query) and applies only
events it has not seen; undo drops states from the end. Payloads are read once per event. So
recording one event, or undoing one, on a battle of 500 units and 1,000 events takes a few
milliseconds rather than a full replay.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BindParameter,
    Text,
    bindparam,
    case,
    delete,
    func,
    insert,
    select,
    type_coerce,
    update,
)
from sqlalchemy.orm import Session, sessionmaker

from brikdesk.domain.battle import (
    BattleSetup,
    BattleState,
    EndTurnSummary,
    Event,
    EventFormatError,
    PlayerSetup,
    Status,
    UnitSetup,
    apply,
    describe,
    end_turn,
    from_payload,
    summarize_turn_change,
    to_record,
)
from brikdesk.domain.battle.rolloff import RollOff, roll_off
from brikdesk.domain.catalog import Catalog, CatalogError
from brikdesk.domain.ids import BattleId, CampaignId, EventId, PlayerId
from brikdesk.domain.rolling import DiceSource
from brikdesk.domain.roster import Loadout, UnitSpec, UnitStats, effective_stats
from brikdesk.domain.rulesets import rules_for
from brikdesk.domain.statuses import BattleStatus
from brikdesk.domain.tracking import fallback_stats
from brikdesk.errors import ConflictError, UserError
from brikdesk.persistence.models import Battle, BattlePlayer, BattleUnit, Campaign, Player
from brikdesk.persistence.models import BattleEvent as EventRow
from brikdesk.services.base import ServiceBase
from brikdesk.services.battles import MAX_EVENTS_PER_CALL, BattleService
from brikdesk.services.catalogs import load_campaign_catalog
from brikdesk.services.changes import Changes, Clock, Done, Step, utc_now
from brikdesk.services.common import (
    from_db_time,
    is_id,
    storage_errors,
    to_db_time,
    unknown,
)
from brikdesk.services.events import check_payload
from brikdesk.services.roster import overrides_from_json
from brikdesk.services.summaries import Muster
from brikdesk.services.tracker_cache import (
    BattleCache,
    CachedRow,
    Group,
    Roster,
    common_prefix,
    parse_groups,
)
from brikdesk.services.tracker_views import BattleView, LoggedEvent, TrackedPlayer, TrackedUnit

__all__ = [
    "LOG_CHANGES",
    "BattleEvent",
    "BattleView",
    "LoggedEvent",
    "TrackedPlayer",
    "TrackedUnit",
    "TrackerService",
]

#: The domain's battle event (any of the event dataclasses); the name the tracker API uses.
BattleEvent = Event

#: What every change to a battle's log tells the views.
LOG_CHANGES = Changes.EVENTS | Changes.BATTLES

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
_SET_UNDO_GROUPS = (
    update(Battle)
    .where(Battle.id == bindparam("battle_id"))
    .values(undo_groups=bindparam("groups"))
)
_INSERT = insert(EventRow).returning(EventRow.id, sort_by_parameter_order=True)
_SET_REVERTED = (
    update(EventRow)
    .where(EventRow.id.in_(bindparam("ids", expanding=True)))
    .values(reverted=bindparam("flag"))
    .execution_options(synchronize_session=False)
)
_TOUCH = (
    update(Campaign)
    .where(Campaign.id == bindparam("campaign_id"))
    .values(updated_at=bindparam("now"))
)
_MAX_SEQ = select(func.max(EventRow.seq)).where(EventRow.battle_id == _BID)
_LOCK_BATTLE = select(Battle.id).where(Battle.id == _BID).with_for_update()
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
class _BattleInfo:
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


def spec_from_json(name: str, data: Mapping[str, Any]) -> UnitSpec:
    def keys(value: Any, allow_none: bool = False) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple):
            return ()
        return tuple(v for v in value if isinstance(v, str) or (allow_none and v is None))

    overrides = data.get("overrides")
    try:
        ov = overrides_from_json(overrides if isinstance(overrides, Mapping) else {})
    except (TypeError, ValueError):
        ov = overrides_from_json({})
    lo = Loadout(keys(data.get("hands"), True), keys(data.get("worn")), keys(data.get("carried")))
    type_key = data.get("type")
    notes = data.get("notes")
    return UnitSpec(
        name,
        type_key if isinstance(type_key, str) else "",
        lo,
        ov,
        notes if isinstance(notes, str) else "",
    )


# -- the service ----------------------------------------------------------------------------


class TrackerService(ServiceBase):
    """The battle tracker's actions: view, record, end turn, undo and redo, start, roll-off."""

    def __init__(self, sessions: sessionmaker[Session], clock: Clock = utc_now) -> None:
        super().__init__(sessions, clock)
        self._battles = BattleService(sessions, clock)
        self._caches: dict[BattleId, BattleCache] = {}
        self._mutex = threading.RLock()

    # -- reading ------------------------------------------------------------------------------

    @storage_errors
    def view(self, battle_id: BattleId) -> BattleView:
        """The battle as its log says it stands now."""
        with self._mutex, self._reading() as s:
            b, cache = self._sync(s, battle_id)
            return self._view(b, cache)

    def state(self, battle_id: BattleId) -> BattleState:
        return self.view(battle_id).state

    @storage_errors
    def roll_off(self, battle_id: BattleId, dice: DiceSource) -> RollOff:
        """Roll for the turn order of the battle's players (nothing is stored; see
        ``brikdesk.domain.battle.rolloff.READING``)."""
        with self._reading() as s:
            self._get(s, Battle, battle_id, "battle")
            players = [(pid, name) for _bp, pid, name, *_ in self._players(s, battle_id)]
        return roll_off(players, dice)

    # -- recording ----------------------------------------------------------------------------

    @storage_errors
    def record(
        self, battle_id: BattleId, events: Sequence[Event], *, text: str | None = None
    ) -> Done[BattleView]:
        """Apply ``events`` in order to the current state with the rules; if every one is legal,
        store them in one transaction as one undo step. An illegal one raises ``RuleViolation``
        (a ``UserError`` naming the reason and the rule) and nothing is stored."""
        events = tuple(events)
        if not events:
            raise UserError("Nothing to record.")
        if len(events) > MAX_EVENTS_PER_CALL:
            raise UserError(f"At most {MAX_EVENTS_PER_CALL} events at once.")
        with self._mutex:
            ids, view = self._store(battle_id, events)
        if text is None:
            text = view.events[-len(events)].text if len(events) <= len(view.events) else ""
            if len(events) > 1:
                text += f" (+{len(events) - 1} more)"
        return self._done(view, battle_id, ids, text)

    @storage_errors
    def end_turn(self, battle_id: BattleId) -> Done[EndTurnSummary]:
        """End the active player's turn: recharges, recoveries and resets, as one event."""
        with self._mutex:
            with self._writing(battle_id) as s:
                b, cache = self._sync(s, battle_id)
                self._check_open(b)
                before = cache.state
                event, after = end_turn(cache.setup, before)
                summary = summarize_turn_change(cache.setup, before, after)
                ids = self._insert(s, b, cache, (event,), (after,))
            done = self._done(None, battle_id, ids, f"End {summary.ended}'s turn")
        return Done(summary, done.changes, done.text, done.redo, done.undo)

    @storage_errors
    def undo(self, battle_id: BattleId, *, seen: EventId | None = None) -> Done[BattleView]:
        """Take back the last action of the log (its group of events).

        ``seen``: the caller view's ``undo_seen`` (the last event of what its ``can_undo``
        names); if the log's last action is another now (someone recorded or undid since),
        the undo is refused with ``ConflictError`` naming what changed, rather than taking
        back another table's action."""
        with self._mutex, self._writing(battle_id) as s:
            b, cache = self._sync(s, battle_id)
            group = cache.undo_group(b.groups)
            if seen is not None and (not group or group[-1] != seen):
                raise ConflictError(self._moved_on(cache, seen, "undo"))
            if not group:
                raise UserError("There is nothing to undo in this battle's log.")
            text = "Undo: " + cache.rows[group[0]].text
            view = self._revert(s, b, cache, group)
        return Done(
            view,
            LOG_CHANGES,
            text,
            redo=_step(self.revert_events, battle_id, group),
            undo=_step(self.unrevert_events, battle_id, group),
        )

    @storage_errors
    def redo(self, battle_id: BattleId, *, seen: EventId | None = None) -> Done[BattleView]:
        """Bring back the first undone action of the log. ``seen``: the caller view's
        ``redo_seen``; if the first undone action is another now, ``ConflictError``."""
        with self._mutex, self._writing(battle_id) as s:
            b, cache = self._sync(s, battle_id)
            group = cache.redo_group(b.groups)
            if seen is not None and (not group or group[0] != seen):
                raise ConflictError(self._moved_on(cache, seen, "redo"))
            if not group:
                raise UserError("There is nothing to redo in this battle's log.")
            text = "Redo: " + cache.rows[group[0]].text
            view = self._unrevert(s, b, cache, group)
        return Done(
            view,
            LOG_CHANGES,
            text,
            redo=_step(self.unrevert_events, battle_id, group),
            undo=_step(self.revert_events, battle_id, group),
        )

    @storage_errors
    def revert_events(self, battle_id: BattleId, event_ids: Sequence[EventId]) -> Done[BattleView]:
        """Mark these events undone (the undo step of the action that recorded them).

        They must be the last events that stand: if someone recorded after them, or undid them
        already, ``ConflictError`` names what happened since and nothing changes."""
        ids = tuple(event_ids)
        with self._writing(battle_id) as s:
            b, cache = self._sync(s, battle_id)
            view = self._revert(s, b, cache, ids)
        return Done(
            view,
            LOG_CHANGES,
            "Undo",
            redo=_step(self.revert_events, battle_id, ids),
            undo=_step(self.unrevert_events, battle_id, ids),
        )

    @storage_errors
    def unrevert_events(
        self, battle_id: BattleId, event_ids: Sequence[EventId]
    ) -> Done[BattleView]:
        """Bring these undone events back (the redo step); they must be the first undone ones,
        else ``ConflictError`` (someone recorded since, which drops the undone events, or
        redid them already)."""
        ids = tuple(event_ids)
        with self._writing(battle_id) as s:
            b, cache = self._sync(s, battle_id)
            view = self._unrevert(s, b, cache, ids)
        return Done(
            view,
            LOG_CHANGES,
            "Redo",
            redo=_step(self.unrevert_events, battle_id, ids),
            undo=_step(self.revert_events, battle_id, ids),
        )

    def _revert(
        self, s: Session, b: _BattleInfo, cache: BattleCache, ids: tuple[EventId, ...]
    ) -> BattleView:
        self._check_not_finished(b)
        if not ids:
            raise UserError("Only the last events of the log can be undone.")
        n = len(cache.ids)
        tail = cache.ids[n - len(ids) :] if n >= len(ids) else []
        if sorted(tail) != sorted(ids):
            raise ConflictError(self._not_last(cache, ids))
        cache.pending = True
        s.execute(_SET_REVERTED, {"ids": list(ids), "flag": True})
        self._touch(s, b.campaign_id, cache)
        if cache.tail_ok and tuple(cache.ids[n - len(ids) :]) == ids:
            order = cache.order
            cache.set_order(
                order[: n - len(ids)] + tuple((i, True) for i in ids) + order[n:],
                cache.token[1] if cache.token else None,
            )
        else:
            self._sync_events(s, b.id, cache)
        return self._view(b, cache)

    def _unrevert(
        self, s: Session, b: _BattleInfo, cache: BattleCache, ids: tuple[EventId, ...]
    ) -> BattleView:
        self._check_not_finished(b)
        undone = [i for i, reverted in cache.order if reverted][: len(ids)]
        if not ids or sorted(undone) != sorted(ids):
            if not ids:
                raise UserError("Only the next undone events of the log can be redone.")
            raise ConflictError(self._not_next(cache, ids))
        cache.pending = True
        s.execute(_SET_REVERTED, {"ids": list(ids), "flag": False})
        self._touch(s, b.campaign_id, cache)
        n = len(cache.ids)
        order = cache.order
        if cache.tail_ok and tuple(i for i, _r in order[n : n + len(ids)]) == ids:
            cache.set_order(
                order[:n] + tuple((i, False) for i in ids) + order[n + len(ids) :],
                cache.token[1] if cache.token else None,
            )
        else:
            self._sync_events(s, b.id, cache)
        return self._view(b, cache)

    # -- what a conflict says -----------------------------------------------------------------

    @staticmethod
    def _texts(cache: BattleCache, ids: Sequence[EventId]) -> str:
        texts = [cache.rows[i].text for i in ids if i in cache.rows]
        if not texts:
            return "other events"
        shown = ", ".join(f"'{t}'" for t in texts[:3])
        return shown + (f" and {len(texts) - 3} more" if len(texts) > 3 else "")

    def _what(self, cache: BattleCache, ids: Sequence[EventId]) -> str:
        known = [i for i in ids if i in cache.rows]
        return self._texts(cache, known) if known else "those events"

    def _not_last(self, cache: BattleCache, ids: tuple[EventId, ...]) -> str:
        """Why events cannot be undone: recorded over, already undone, or gone."""
        what = self._what(cache, ids)
        standing = set(cache.ids)
        if all(i in standing for i in ids):
            first = min(cache.ids.index(i) for i in ids)
            after = [i for i in cache.ids[first:] if i not in ids]
            return (
                f"Can't undo {what}: someone else recorded {self._texts(cache, after)} "
                "after it; nothing was changed (undo those first)."
            )
        if all(i in cache.rows and i not in standing for i in ids):
            return f"Can't undo {what}: someone else undid it already; nothing was changed."
        return (
            f"Can't undo {what}: the battle's log changed since (someone else undid and "
            "recorded over it); nothing was changed."
        )

    def _not_next(self, cache: BattleCache, ids: tuple[EventId, ...]) -> str:
        """Why undone events cannot be redone: redone already, or recorded over (gone)."""
        what = self._what(cache, ids)
        present = {i for i, _r in cache.order}
        standing = set(cache.ids)
        if all(i in standing for i in ids):
            return f"Can't redo {what}: someone else redid it already; nothing was changed."
        if not any(i in present for i in ids):
            last = cache.ids[-1:] if cache.ids else []
            since = f" ({self._texts(cache, last)})" if last else ""
            return (
                f"Can't redo {what}: someone else recorded new events since{since}, which "
                "replaced the undone ones; nothing was changed."
            )
        return f"Can't redo {what}: the battle's log changed since; nothing was changed."

    def _moved_on(self, cache: BattleCache, seen: EventId, doing: str) -> str:
        """The log's last (or first undone) action is not the one the caller saw."""
        what = f"'{cache.rows[seen].text}'" if seen in cache.rows else "the action you saw"
        if doing == "undo" and seen in cache.ids:
            after = cache.ids[cache.ids.index(seen) + 1 :]
            return (
                f"Can't undo {what}: someone else recorded {self._texts(cache, after)} "
                "after it; nothing was changed."
            )
        if doing == "undo":
            return f"Can't undo {what}: someone else undid it already; nothing was changed."
        if seen in cache.ids:
            return f"Can't redo {what}: someone else redid it already; nothing was changed."
        return f"Can't redo {what}: someone else recorded new events since; nothing was changed."

    # -- starting -----------------------------------------------------------------------------

    @storage_errors
    def start(self, battle_id: BattleId, player_order: Sequence[PlayerId]) -> Done[BattleView]:
        """Set the turn order (every player of the battle once) and start the planned battle."""
        order = tuple(player_order)
        with self._writing(battle_id) as s:
            b = self._get(s, Battle, battle_id, "battle")
            if b.status is not BattleStatus.PLANNED:
                raise UserError(f"'{b.name}' is already {b.status.text}.")
            old = self._set_order(s, battle_id, order)
            self._caches.pop(battle_id, None)
            b.status = BattleStatus.IN_PROGRESS
            self._touch(s, b.campaign_id)
            s.flush()
            info, cache = self._sync(s, battle_id)
            cache.pending = True
            view = self._view(info, cache)
        return Done(
            view,
            LOG_CHANGES,
            f"Start battle {view.name}",
            redo=_step(self.start, battle_id, order),
            undo=_step(self._unstart, battle_id, old),
        )

    @storage_errors
    def _unstart(self, battle_id: BattleId, old_order: Sequence[PlayerId]) -> Done[BattleView]:
        """Undo of ``start``: planned again, with the old turn order (no event may stand)."""
        with self._writing(battle_id) as s:
            b = self._get(s, Battle, battle_id, "battle")
            if b.status is not BattleStatus.IN_PROGRESS:
                raise UserError(f"'{b.name}' is not in progress.")
            standing = s.scalar(
                select(func.count()).where(
                    EventRow.battle_id == battle_id, EventRow.reverted.is_(False)
                )
            )
            if standing:
                raise UserError(f"'{b.name}' has events in its log; undo them first.")
            order = self._set_order(s, battle_id, tuple(old_order))
            self._caches.pop(battle_id, None)
            b.status = BattleStatus.PLANNED
            self._touch(s, b.campaign_id)
            s.flush()
            info, cache = self._sync(s, battle_id)
            cache.pending = True
            view = self._view(info, cache)
        return Done(
            view,
            LOG_CHANGES,
            f"Start battle {view.name}",
            redo=_step(self._unstart, battle_id, old_order),
            undo=_step(self.start, battle_id, order),
        )

    @storage_errors
    def begin(
        self, campaign_id: CampaignId, name: str, musters: Sequence[Muster], *, notes: str = ""
    ) -> Done[BattleView]:
        """Create a battle with the mustered units and start it; the musters' order is the
        turn order. One undo step (undo deletes the battle; the campaign pool is untouched)."""
        created = self._battles.create_battle(campaign_id, name, musters, notes=notes)
        battle_id = created.value.id
        order = tuple(m.player_id for m in musters)
        try:
            started = self.start(battle_id, order)
        except Exception:
            created.undo()
            raise

        def redo() -> Changes:
            return created.redo() | started.redo()

        def undo() -> Changes:
            return started.undo() | created.undo()

        return Done(
            started.value,
            started.changes | created.changes,
            f"Start battle {started.value.name}",
            redo=redo,
            undo=undo,
        )

    # -- internals ----------------------------------------------------------------------------

    def _db_now(self) -> datetime:
        """Now, as the database stores times."""
        return to_db_time(self._clock())

    def _touch(self, s: Session, campaign_id: CampaignId, cache: BattleCache | None = None) -> None:
        """Mark the campaign as changed now (as every service does; a prebuilt statement).
        ``cache``: this battle's cache, which then knows the new stamp is its own write."""
        now = self._db_now()
        s.execute(_TOUCH, {"campaign_id": campaign_id, "now": now})
        if cache is not None and cache.stamp is not None and cache.stamp[0] == campaign_id:
            cache.stamp = (campaign_id, now)

    @contextmanager
    def _writing(self, battle_id: BattleId) -> Iterator[Session]:
        """One write transaction holding the battle's row lock (every write of the log takes
        it first: the log has one writer at a time, across processes). If it fails after the
        cache took in rows it wrote, the cache is dropped (a rolled-back insert's ids may be
        given out again)."""
        with self._mutex:
            try:
                with self._sessions.begin() as s:
                    if is_id(battle_id):
                        s.execute(_LOCK_BATTLE, {"battle_id": battle_id})
                    yield s
            except BaseException:
                cache = self._caches.get(battle_id)
                if cache is not None and cache.pending:
                    del self._caches[battle_id]
                raise
            cache = self._caches.get(battle_id)
            if cache is not None:
                cache.pending = False

    def _done(
        self, view: BattleView | None, battle_id: BattleId, ids: tuple[EventId, ...], text: str
    ) -> Done[Any]:
        return Done(
            view,
            LOG_CHANGES,
            text,
            redo=_step(self.unrevert_events, battle_id, ids),
            undo=_step(self.revert_events, battle_id, ids),
        )

    def _store(
        self, battle_id: BattleId, events: tuple[Event, ...]
    ) -> tuple[tuple[EventId, ...], BattleView]:
        with self._writing(battle_id) as s:
            b, cache = self._sync(s, battle_id)
            self._check_open(b)
            state = cache.state
            states = []
            for event in events:
                state = apply(cache.setup, state, event)  # RuleViolation: nothing stored
                states.append(state)
            ids = self._insert(s, b, cache, events, states)
            self._sync_events(s, battle_id, cache)
            return ids, self._view(b, cache)

    def _insert(
        self,
        s: Session,
        b: _BattleInfo,
        cache: BattleCache,
        events: Sequence[Event],
        states: Sequence[BattleState] | None = None,
    ) -> tuple[EventId, ...]:
        """Store ``events`` (already checked by the rules; ``states``: the state after each)."""
        records = []
        cache.pending = True
        for i, event in enumerate(events):
            kind, actor, target, payload = to_record(event)
            records.append((kind, actor, target, check_payload(payload, f"event {i + 1}")))
        reverted = bool(cache.token and cache.token[2]) or any(r for _i, r in cache.order)
        if reverted:
            s.execute(
                delete(EventRow).where(EventRow.battle_id == b.id, EventRow.reverted.is_(True))
            )
        seq = s.scalar(_MAX_SEQ, {"battle_id": b.id}) or 0
        now = self._db_now()
        first = seq + 1
        rows = [
            {
                "battle_id": b.id,
                "seq": first + n,
                "kind": kind,
                "actor_id": actor,
                "target_id": target,
                "payload": payload,
                "created_at": now,
                "reverted": False,
            }
            for n, (kind, actor, target, payload) in enumerate(records)
        ]
        seq = first + len(records) - 1
        ids = tuple(s.scalars(_INSERT, rows))
        time = from_db_time(now)
        for n, (eid, event) in enumerate(zip(ids, events, strict=True)):
            kind, actor, target, payload = records[n]
            note = payload.get("text", "")
            cache.add_row(
                CachedRow(
                    eid,
                    first + n,
                    kind,
                    actor,
                    target,
                    time,
                    note if isinstance(note, str) else "",
                    event,
                    None,
                    describe(cache.setup, event),
                )
            )
        if cache.tail_ok:
            standing = cache.order[: len(cache.ids)]
            known = dict(zip(ids, states, strict=True)) if states is not None else None
            cache.set_order(standing + tuple((i, False) for i in ids), max(ids), known)
        groups = tuple(g for g in b.groups if g[0] < first)
        if len(rows) > 1:
            groups += ((first, seq),)
        if groups != b.groups:
            b.groups = groups
            s.execute(_SET_UNDO_GROUPS, {"battle_id": b.id, "groups": [list(g) for g in groups]})
        self._touch(s, b.campaign_id, cache)
        return ids

    @staticmethod
    def _check_open(b: _BattleInfo) -> None:
        if b.status is BattleStatus.PLANNED:
            raise UserError(f"'{b.name}' has not started yet: start it to record its turns.")
        if b.status is BattleStatus.FINISHED:
            raise UserError(f"'{b.name}' is finished; its log can't change.")

    @staticmethod
    def _check_not_finished(b: _BattleInfo) -> None:
        if b.status is BattleStatus.FINISHED:
            raise UserError(f"'{b.name}' is finished; its log can't change.")

    @staticmethod
    def _players(s: Session, battle_id: BattleId) -> list[Any]:
        return list(s.execute(_PLAYERS, {"battle_id": battle_id}).all())

    def _set_order(
        self, s: Session, battle_id: BattleId, order: tuple[PlayerId, ...]
    ) -> tuple[PlayerId, ...]:
        bps = s.scalars(
            select(BattlePlayer)
            .where(BattlePlayer.battle_id == battle_id)
            .order_by(BattlePlayer.turn_order, BattlePlayer.id)
        ).all()
        old = tuple(bp.player_id for bp in bps)
        if len(order) != len(old) or sorted(order) != sorted(old):
            raise UserError(
                "The turn order must list every player of the battle once.", field="players"
            )
        where = {pid: i for i, pid in enumerate(order)}
        for bp in bps:
            bp.turn_order = where[bp.player_id]
        s.flush()
        return old

    def _sync(self, s: Session, battle_id: BattleId) -> tuple[_BattleInfo, BattleCache]:
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
        b = _BattleInfo(bid, campaign_id, name, status, notes, parse_groups(groups))
        cache = self._caches.get(battle_id)
        if cache is None or cache.stamp != (campaign_id, stamp):
            players = self._players(s, battle_id)
            catalog = load_campaign_catalog(s, campaign_id)
            signature = (campaign_id, tuple(tuple(p) for p in players))
            if (
                cache is None
                or cache.roster.signature != signature
                or cache.roster.catalog != catalog
            ):
                cache = self._build(s, battle_id, signature, players, catalog)
                self._caches[battle_id] = cache
            cache.stamp = (campaign_id, stamp)
        self._sync_events(s, battle_id, cache)
        return b, cache

    def _sync_events(self, s: Session, battle_id: BattleId, cache: BattleCache) -> None:
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
                    self._read_rows(s, cache, new)
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
        kinds: dict[str, tuple[UnitStats, str, bool, tuple[str, ...]]] = {}
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

    def _read_rows(self, s: Session, cache: BattleCache, ids: list[EventId]) -> None:
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

    def _view(self, b: _BattleInfo, cache: BattleCache) -> BattleView:
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


def _step(method: Callable[..., Done[Any]], *args: Any) -> Step:
    def run() -> Changes:
        return method(*args).changes

    run.__qualname__ = f"step({getattr(method, '__qualname__', method)})"
    return run
