"""What the battle tracker remembers of one battle between calls, and the log's undo groups.

:class:`Roster` is what a battle's log is played against (setup, players, units, catalog): it
changes only when the campaign's players or catalog do. :class:`BattleCache` adds the log as
last read: every row read once (:class:`CachedRow`), the ids of the events that stand and the
state after each, so a call applies only the events it has not seen and an undo drops states
from the end. It knows nothing of the database: the tracker reads rows and hands them in, under
its lock (one call at a time touches a cache).

Undo groups (``battle.undo_groups``): ``(first seq, last seq)`` of each group of more than one
event recorded by one action; :meth:`BattleCache.undo_group` and :meth:`BattleCache.redo_group`
say which events the next Undo or Redo takes (``brikdesk.domain.tracking.READINGS
["undo_groups"]``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from brikdesk.domain.battle import BattleSetup, BattleState, Event, apply, initial_state
from brikdesk.domain.catalog import Catalog
from brikdesk.domain.ids import BattleUnitId, EventId
from brikdesk.errors import UserError
from brikdesk.services.tracker_views import BattleView, LoggedEvent, TrackedPlayer, TrackedUnit

__all__ = ["BattleCache", "CachedRow", "Group", "Roster", "common_prefix", "parse_groups"]

#: ``(first seq, last seq)`` of the events one action recorded together.
Group = tuple[int, int]

#: ``(event id, reverted)`` of every row of a log, by ``seq``.
Order = tuple[tuple[EventId, bool], ...]


@dataclass(frozen=True)
class Roster:
    """What the log is played against. ``signature``: the campaign and its players as read
    (a new signature means a new roster)."""

    signature: tuple[Any, ...]
    setup: BattleSetup
    players: tuple[TrackedPlayer, ...]
    units: tuple[TrackedUnit, ...]
    catalog: Catalog


@dataclass(frozen=True)
class CachedRow:
    """An event row as read once: everything but the ``reverted`` flag, which can change."""

    id: EventId
    seq: int
    kind: str
    actor: BattleUnitId | None
    target: BattleUnitId | None
    time: datetime | None
    note: str
    event: Event | None
    problem: str | None  # unreadable
    text: str


def common_prefix(a: Sequence[Any], b: Sequence[Any]) -> int:
    """Length of the longest common prefix (slices compare in C: fast on long logs)."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    lo, hi = 0, n  # a[:lo] == b[:lo] and a[:hi] != b[:hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid
    return lo


def parse_groups(stored: object) -> tuple[Group, ...]:
    """The well-formed ``[first, last]`` pairs of a stored ``undo_groups`` list."""
    out: list[Group] = []
    for g in stored if isinstance(stored, list | tuple) else ():
        if (
            isinstance(g, list | tuple)
            and len(g) == 2
            and all(type(x) is int for x in g)
            and g[0] <= g[1]
        ):
            out.append((g[0], g[1]))
    return tuple(out)


@dataclass
class BattleCache:
    """One battle's roster and its log as last read; see the module docstring.

    ``ids[i]`` stands, ``states[i]`` is the state before it (``states[-1]``: now) and
    ``problems[i]`` why it does not count, if so. ``order`` is every row by seq; ``token`` the
    log's summary when it was last read (count, largest id, how many undone).
    """

    roster: Roster
    rows: dict[EventId, CachedRow] = field(default_factory=dict)
    ids: list[EventId] = field(default_factory=list)
    states: list[BattleState] = field(default_factory=list)
    problems: list[str | None] = field(default_factory=list)
    order: Order = ()
    token: tuple[Any, ...] | None = None
    #: Holds rows of a transaction not yet committed (dropped if it rolls back).
    pending: bool = False
    #: The campaign and its ``updated_at`` when the roster was last checked.
    stamp: tuple[int, datetime | None] | None = None
    #: The last view, the key it was made for, and its log entries (aligned with ``order``).
    view: BattleView | None = None
    view_key: tuple[Any, ...] | None = None
    entries: list[LoggedEvent] = field(default_factory=list)
    entries_order: Order = ()

    def __post_init__(self) -> None:
        if not self.states:
            self.states.append(initial_state(self.roster.setup))

    @property
    def setup(self) -> BattleSetup:
        return self.roster.setup

    @property
    def state(self) -> BattleState:
        return self.states[-1]

    @property
    def tail_ok(self) -> bool:
        """The undone events are the log's end (as the tracker keeps it)."""
        undone = len(self.order) - len(self.ids)
        return all(r for _i, r in self.order[len(self.order) - undone :]) if undone else True

    def add_row(self, row: CachedRow) -> None:
        self.rows[row.id] = row

    def advance(
        self, standing: Sequence[EventId], known: Mapping[EventId, BattleState] | None = None
    ) -> None:
        """Bring ``states`` in line with the ids that stand now (a common prefix is kept).
        ``known``: states already computed after some events (by the write that stored them)."""
        ids = self.ids
        k = common_prefix(ids, standing)
        if k < len(ids):
            del ids[k:]
            del self.states[k + 1 :]
            del self.problems[k:]
        setup = self.setup
        state = self.states[-1]
        for event_id in standing[k:]:
            row = self.rows[event_id]
            problem = row.problem
            if known is not None and event_id in known:
                state = known[event_id]
            elif row.event is not None:
                try:
                    state = apply(setup, state, row.event)
                except UserError as exc:
                    problem = f"not counted: {exc}"
            ids.append(event_id)
            self.states.append(state)
            self.problems.append(problem)

    def read_order(self, order: Order, token: tuple[Any, ...]) -> None:
        """The log as read from the database (its rows must be in ``rows`` already)."""
        if order != self.order:
            self.order = order
            self.advance([i for i, r in order if not r])
        self.token = token

    def set_order(
        self, order: Order, max_id: int | None, known: Mapping[EventId, BattleState] | None = None
    ) -> None:
        """After the tracker's own write: the log's new order and summary, without reading
        them back (``max_id``: the largest event id now in the log; ``known``: states the write
        already computed)."""
        standing = [i for i, r in order if not r]
        undone = len(order) - len(standing)
        self.order = order
        self.advance(standing, known)
        self.token = (len(order), max_id, undone) if order else (0, None, None)

    # -- undo groups ---------------------------------------------------------------------

    def undo_group(self, groups: Iterable[Group]) -> tuple[EventId, ...]:
        """The ids the next Undo reverts: the last standing event and its group."""
        if not self.ids:
            return ()
        rows = self.rows
        last = rows[self.ids[-1]].seq
        first = last
        for f, lst in groups:
            if f <= last <= lst:
                first = f
        out = []
        for i in reversed(self.ids):
            if rows[i].seq < first:
                break
            out.append(i)
        return tuple(reversed(out))

    def redo_group(self, groups: Iterable[Group]) -> tuple[EventId, ...]:
        """The ids the next Redo brings back: the first undone event and its group."""
        undone = []
        for i, reverted in reversed(self.order):  # undone events are the log's end
            if not reverted:
                break
            undone.append(i)
        if not undone:
            undone = [i for i, reverted in self.order if reverted]
            if not undone:
                return ()
        else:
            undone.reverse()
        rows = self.rows
        first = rows[undone[0]].seq
        last = first
        for f, lst in groups:
            if f <= first <= lst:
                last = lst
        return tuple(i for i in undone if first <= rows[i].seq <= last)

    def group_text(self, ids: Sequence[EventId]) -> str:
        """What a group is called in the Undo menu: its first event (+ how many more)."""
        text = self.rows[ids[0]].text
        return text if len(ids) == 1 else f"{text} (+{len(ids) - 1} more)"
