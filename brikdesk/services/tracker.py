"""The battle tracker: a battle's state read from its event log, and validated recording.

The event log is the truth ("Battles are an event log" in docs/conventions.md). ``view(battle_id)``
replays the events that stand through the rules engine (``brikdesk.domain.battle``) and returns a
frozen :class:`BattleView`: the setup, the state, every unit with its loadout and effective stats,
the campaign's catalog (with house rules) and the log in plain words. ``record`` applies new events
to the current state first, so an illegal one is refused (``RuleViolation``, a ``UserError`` with
``reason`` and ``rule``) and nothing is stored; legal ones are stored in one transaction as one undo
step.

Undo works on groups: the events of one ``record`` call (an attack that kills and spends an
Action) are undone and redone together (``brikdesk.domain.tracking.READINGS["undo_groups"]``).
Group boundaries are the battle's ``undo_groups`` column (``[first seq, last seq]`` of each
group of more than one event); a log without them undoes event by event.

One writer, one order ("One undo path" in docs/conventions.md). The tracker is the only writer of a
battle's log. Every write (record, end turn, undo, redo, start) first locks the battle's row (``FOR
UPDATE`` on PostgreSQL; on SQLite the write transaction is exclusive from its ``BEGIN IMMEDIATE``),
then brings its cache up to date with whatever other processes wrote (the log's summary token below
changes with any append, undo, redo or dropped tail), then checks the new events with the rules
against that current state. So two tables recording for one battle at once land one after the other,
in the order they got the lock, each checked against the other's events: the second is stored after
the first, or refused by the rules with the reason (a unit cannot spend its Action twice). ``seq``
is the log's largest plus one, under the lock: never duplicated. An undo or redo step refuses
(``ConflictError``) when the log moved on since its action: someone recorded after the events to
undo, or already undid or redid them; the message names what was recorded since. ``undo``/``redo``
of "the last action" take the id the caller's view showed (``seen``), so a table never takes back
another table's action by mistake.

Speed: the service's :class:`~brikdesk.services.tracker_reader.LogReader` keeps, per battle, a
:class:`~brikdesk.services.tracker_cache.BattleCache`:
the state after every standing event, keyed by the event
ids (ids are never reused). A call reads the ids that stand (one small query) and applies only
events it has not seen; undo drops states from the end. Payloads are read once per event. So
recording one event, or undoing one, on a battle of 500 units and 1,000 events takes a few
milliseconds rather than a full replay.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BindParameter,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Session, sessionmaker

from brikdesk.domain.battle import (
    BattleState,
    EndTurnSummary,
    Event,
    apply,
    describe,
    end_turn,
    summarize_turn_change,
    to_record,
)
from brikdesk.domain.battle.momentum import mom_words, moms_at_turn_end, moms_lost
from brikdesk.domain.battle.rolloff import RollOff, roll_off
from brikdesk.domain.ids import BattleId, BattleUnitId, CampaignId, EventId, PlayerId
from brikdesk.domain.rolling import DiceSource
from brikdesk.domain.statuses import BattleStatus
from brikdesk.errors import ConflictError, UserError
from brikdesk.persistence.models import Battle, BattlePlayer, Campaign
from brikdesk.persistence.models import BattleEvent as EventRow
from brikdesk.services.base import ServiceBase
from brikdesk.services.battles import MAX_EVENTS_PER_CALL, BattleService
from brikdesk.services.changes import Changes, Clock, Done, Step, utc_now
from brikdesk.services.common import (
    from_db_time,
    is_id,
    storage_errors,
    to_db_time,
)
from brikdesk.services.events import check_payload
from brikdesk.services.summaries import Muster
from brikdesk.services.tracker_cache import (
    BattleCache,
    CachedRow,
)
from brikdesk.services.tracker_conflicts import moved_on, not_last, not_next
from brikdesk.services.tracker_reader import BattleInfo, LogReader
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

# Statements run on every write, built once (building a statement costs more than running it).
_BID: BindParameter[int] = bindparam("battle_id")
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


# -- the service ----------------------------------------------------------------------------


class TrackerService(ServiceBase):
    """The battle tracker's actions: view, record, end turn, undo and redo, start, roll-off."""

    def __init__(self, sessions: sessionmaker[Session], clock: Clock = utc_now) -> None:
        super().__init__(sessions, clock)
        self._battles = BattleService(sessions, clock)
        self._reader = LogReader()
        self._mutex = threading.RLock()

    # -- reading ------------------------------------------------------------------------------

    @storage_errors
    def view(self, battle_id: BattleId) -> BattleView:
        """The battle as its log says it stands now."""
        with self._mutex, self._reading() as s:
            b, cache = self._reader.sync(s, battle_id)
            return self._reader.view(b, cache)

    def state(self, battle_id: BattleId) -> BattleState:
        return self.view(battle_id).state

    @storage_errors
    def roll_off(self, battle_id: BattleId, dice: DiceSource) -> RollOff:
        """Roll for the turn order of the battle's players (nothing is stored; see
        ``brikdesk.domain.battle.rolloff.READING``)."""
        with self._reading() as s:
            self._get(s, Battle, battle_id, "battle")
            players = [(pid, name) for _bp, pid, name, *_ in self._reader.players(s, battle_id)]
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
    def end_turn(
        self, battle_id: BattleId, *, mom_lost: Sequence[BattleUnitId] = ()
    ) -> Done[EndTurnSummary]:
        """End the active player's turn: recharges, recoveries and resets, as one event.

        ``mom_lost``: the ending player's units that did not use up their Move, whose MOM
        abandons them (5.4, ``brikdesk.domain.battle.momentum``): cleared before the turn
        ends, in the same undo step."""
        with self._mutex:
            with self._writing(battle_id) as s:
                b, cache = self._reader.sync(s, battle_id)
                self._check_open(b)
                before = state = cache.state
                asked = moms_at_turn_end(cache.setup, before)
                events: list[Event] = list(moms_lost(cache.setup, before, mom_lost))
                states = []
                for cleared in events:
                    state = apply(cache.setup, state, cleared)
                    states.append(state)
                event, after = end_turn(cache.setup, state)
                summary = summarize_turn_change(cache.setup, state, after)
                if asked is not None:
                    summary = replace(summary, moms=mom_words(cache.setup, asked, mom_lost))
                ids = self._insert(s, b, cache, (*events, event), (*states, after))
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
            b, cache = self._reader.sync(s, battle_id)
            group = cache.undo_group(b.groups)
            if seen is not None and (not group or group[-1] != seen):
                raise ConflictError(moved_on(cache, seen, "undo"))
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
            b, cache = self._reader.sync(s, battle_id)
            group = cache.redo_group(b.groups)
            if seen is not None and (not group or group[0] != seen):
                raise ConflictError(moved_on(cache, seen, "redo"))
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
            b, cache = self._reader.sync(s, battle_id)
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
            b, cache = self._reader.sync(s, battle_id)
            view = self._unrevert(s, b, cache, ids)
        return Done(
            view,
            LOG_CHANGES,
            "Redo",
            redo=_step(self.unrevert_events, battle_id, ids),
            undo=_step(self.revert_events, battle_id, ids),
        )

    def _revert(
        self, s: Session, b: BattleInfo, cache: BattleCache, ids: tuple[EventId, ...]
    ) -> BattleView:
        self._check_not_finished(b)
        if not ids:
            raise UserError("Only the last events of the log can be undone.")
        n = len(cache.ids)
        tail = cache.ids[n - len(ids) :] if n >= len(ids) else []
        if sorted(tail) != sorted(ids):
            raise ConflictError(not_last(cache, ids))
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
            self._reader.sync_events(s, b.id, cache)
        return self._reader.view(b, cache)

    def _unrevert(
        self, s: Session, b: BattleInfo, cache: BattleCache, ids: tuple[EventId, ...]
    ) -> BattleView:
        self._check_not_finished(b)
        undone = [i for i, reverted in cache.order if reverted][: len(ids)]
        if not ids or sorted(undone) != sorted(ids):
            if not ids:
                raise UserError("Only the next undone events of the log can be redone.")
            raise ConflictError(not_next(cache, ids))
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
            self._reader.sync_events(s, b.id, cache)
        return self._reader.view(b, cache)

    # -- starting -----------------------------------------------------------------------------

    @storage_errors
    def start(self, battle_id: BattleId, player_order: Sequence[PlayerId]) -> Done[BattleView]:
        """Set the turn order (every player of the battle once) and start the planned battle."""
        order = tuple(player_order)
        with self._writing(battle_id) as s:
            b = self._get(s, Battle, battle_id, "battle")
            if b.status is not BattleStatus.PLANNED:
                raise UserError(f"'{b.name}' is already {b.status.text}.")
            old, view = self._reorder(s, b, order, BattleStatus.IN_PROGRESS)
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
            order, view = self._reorder(s, b, tuple(old_order), BattleStatus.PLANNED)
        return Done(
            view,
            LOG_CHANGES,
            f"Start battle {view.name}",
            redo=_step(self._unstart, battle_id, old_order),
            undo=_step(self.start, battle_id, order),
        )

    def _reorder(
        self, s: Session, b: Battle, order: tuple[PlayerId, ...], status: BattleStatus
    ) -> tuple[tuple[PlayerId, ...], BattleView]:
        """Give battle ``b`` the turn ``order`` and ``status`` (starting it, or planned again);
        returns the old order and the battle's view, read afresh."""
        battle_id = BattleId(b.id)
        old = self._set_order(s, battle_id, order)
        self._reader.drop(battle_id)
        b.status = status
        self._touch(s, b.campaign_id)
        s.flush()
        info, cache = self._reader.sync(s, battle_id)
        cache.pending = True
        return old, self._reader.view(info, cache)

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
                cache = self._reader.caches.get(battle_id)
                if cache is not None and cache.pending:
                    del self._reader.caches[battle_id]
                raise
            cache = self._reader.caches.get(battle_id)
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
            b, cache = self._reader.sync(s, battle_id)
            self._check_open(b)
            state = cache.state
            states = []
            for event in events:
                state = apply(cache.setup, state, event)  # RuleViolation: nothing stored
                states.append(state)
            ids = self._insert(s, b, cache, events, states)
            self._reader.sync_events(s, battle_id, cache)
            return ids, self._reader.view(b, cache)

    def _insert(
        self,
        s: Session,
        b: BattleInfo,
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
    def _check_open(b: BattleInfo) -> None:
        if b.status is BattleStatus.PLANNED:
            raise UserError(f"'{b.name}' has not started yet: start it to record its turns.")
        if b.status is BattleStatus.FINISHED:
            raise UserError(f"'{b.name}' is finished; its log can't change.")

    @staticmethod
    def _check_not_finished(b: BattleInfo) -> None:
        if b.status is BattleStatus.FINISHED:
            raise UserError(f"'{b.name}' is finished; its log can't change.")

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


def _step(method: Callable[..., Done[Any]], *args: Any) -> Step:
    def run() -> Changes:
        return method(*args).changes

    run.__qualname__ = f"step({getattr(method, '__qualname__', method)})"
    return run
