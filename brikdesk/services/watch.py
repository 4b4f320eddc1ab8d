"""Noticing what another BrikDesk, or the command line, wrote to the same database.

``ChangeWatch.poll()`` answers, cheaply and without blocking a writer, "did someone else commit
a change since the last look?". The app polls it about once a second (off the GUI thread) and,
on a yes, asks every view to read the database again: a change made elsewhere shows within about
two seconds, and the views keep their selection and scroll (they select by id).

How it knows:

- Every service that writes stamps the campaign it changed (``campaign.updated_at``, in the same
  transaction), so the list of campaigns with their stamps changes whenever anything does. The
  poll reads that list (a few rows, one short read transaction that never takes SQLite's
  write lock).
- On SQLite it first asks ``PRAGMA data_version`` on a connection of its own, which changes only
  when another connection committed: an idle database costs one PRAGMA per poll and no read.
- Its own writes are told apart by what they wrote, not by whose stamp is newer: each writing
  transaction of this process reads the stamps when it begins and again just before it
  commits, and keeps each changed campaign's step (stamp before -> stamp after). A campaign
  whose stamp moved from what the last poll saw to what it is now through this process's own
  steps only was changed here; any other path means someone else wrote in between, even when
  this process wrote after them within the same poll (their stamp is then hidden under this
  one's, but the step this process took starts from their stamp, not from the one last seen).
  The stamps read when a write begins must be the ones it replaces: SQLite's writing
  transactions hold the write lock from ``BEGIN IMMEDIATE``; on PostgreSQL the read locks the
  campaign rows (``FOR NO KEY UPDATE``), so writers while a watch runs take turns as on
  SQLite. The app polls; the command line has no watch and pays nothing.
  PostgreSQL polls the same way; measured at about a millisecond a poll on a local
  server, which is enough for a club's few windows (LISTEN/NOTIFY would need a trigger).
"""

from __future__ import annotations

import threading
from collections import deque
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, event, select
from sqlalchemy.orm import Session, sessionmaker

from brikdesk.persistence.db import WRITES, reading
from brikdesk.persistence.models import Campaign

#: How many of its own steps a process remembers (far more than one poll interval holds).
OWN_STEPS_KEPT = 4096
#: Where a writing connection keeps the stamps it read when its transaction began.
_BEFORE = "brikdesk_stamps_before"
#: Set on a writing SQLite connection until its ``BEGIN IMMEDIATE`` has run.
_PENDING = "brikdesk_stamps_pending"

Stamps = dict[int, datetime]


def _naive(stamp: datetime | None) -> datetime:
    return stamp.replace(tzinfo=None) if stamp is not None else datetime.min


class ChangeWatch:
    """Tells whether anyone else committed a change to the database since the last poll.

    ``others_only=False`` counts this process's own writes too (the players' page, which shows
    every change, whoever made it); SQLite's ``data_version`` still sees them, since the watch
    asks on a connection of its own."""

    def __init__(self, sessions: sessionmaker[Session], *, others_only: bool = True) -> None:
        bind = sessions.kw.get("bind")
        if not isinstance(bind, Engine):
            raise TypeError("ChangeWatch needs a session factory bound to an engine")
        self._engine: Engine = bind
        self._sessions = sessions
        self._lock = threading.Lock()
        #: This process's steps: (campaign, stamp before) -> stamp after, the oldest forgotten.
        self._steps: dict[tuple[int, datetime | None], datetime] = {}
        self._order: deque[tuple[int, datetime | None]] = deque()
        self._seen: Stamps | None = None
        self._raw: Any = None
        self._version: int | None = None
        self._server = self._engine.dialect.name != "sqlite"
        self._others_only = others_only
        if others_only:  # keep this process's own steps to tell them from the others'
            event.listen(self._engine, "begin", self._began)
            event.listen(self._engine, "after_cursor_execute", self._executed)
            event.listen(self._engine, "commit", self._committing, insert=True)
            event.listen(self._engine, "rollback", self._rolled_back)

    # -- own writes ---------------------------------------------------------------------------

    @property
    def on_server(self) -> bool:
        """True when the database is a server's (not a SQLite file)."""
        return self._server

    def _read_stamps(self, conn: Connection, *, lock: bool) -> Stamps:
        query = select(Campaign.id, Campaign.updated_at).order_by(Campaign.id)
        if lock:  # in id order, as every watched writer locks them: no deadlock between them
            query = query.with_for_update(key_share=True)
        return {int(cid): _naive(stamp) for cid, stamp in conn.execute(query)}

    def _began(self, conn: Connection) -> None:
        if not conn.get_execution_options().get(WRITES):
            return
        if self._server:  # the driver begins the transaction with this very read
            conn.info[_BEFORE] = self._read_stamps(conn, lock=True)
        else:  # read once SQLite's BEGIN IMMEDIATE (db.py's own begin hook) took the lock
            conn.info[_PENDING] = True

    def _executed(self, conn: Connection, *args: Any) -> None:
        if conn.info.pop(_PENDING, False):
            conn.info[_BEFORE] = self._read_stamps(conn, lock=False)

    def _committing(self, conn: Connection) -> None:
        conn.info.pop(_PENDING, None)
        before: Stamps | None = conn.info.pop(_BEFORE, None)
        if before is None:
            return
        after = self._read_stamps(conn, lock=False)
        steps = [(cid, before.get(cid), stamp) for cid, stamp in after.items()]
        with self._lock:
            for cid, old, new in steps:
                if old == new:
                    continue
                key = (cid, old)
                if key not in self._steps:
                    self._order.append(key)
                self._steps[key] = new
            while len(self._order) > OWN_STEPS_KEPT:
                self._steps.pop(self._order.popleft(), None)

    def _rolled_back(self, conn: Connection) -> None:
        conn.info.pop(_BEFORE, None)
        conn.info.pop(_PENDING, None)

    def _own_path(self, cid: int, old: datetime | None, new: datetime) -> bool:
        """Whether this process's own steps lead from ``old`` to ``new`` (under the lock)."""
        at = old
        for _ in range(len(self._steps) + 1):
            if at == new:
                return True
            nxt = self._steps.get((cid, at))
            if nxt is None:
                return False
            at = nxt
        return False

    # -- polling ------------------------------------------------------------------------------

    def _data_version(self) -> int | None:
        """SQLite's ``data_version`` on a connection kept for it (None on other databases)."""
        if self._engine.dialect.name != "sqlite":
            return None
        if self._raw is None:
            self._raw = self._engine.raw_connection()
        cur = self._raw.cursor()
        try:
            cur.execute("PRAGMA data_version")
            row = cur.fetchone()
        finally:
            cur.close()
        return int(row[0])

    def _stamps(self) -> Stamps:
        with reading(self._sessions) as s:
            return {
                int(cid): _naive(stamp)
                for cid, stamp in s.execute(select(Campaign.id, Campaign.updated_at))
            }

    def poll(self) -> bool:
        """True when someone else changed the database since the previous poll (the first poll
        only takes a look and says False)."""
        version = self._data_version()
        if version is not None and version == self._version and self._seen is not None:
            return False
        self._version = version
        stamps = self._stamps()
        before, self._seen = self._seen, stamps
        if before is None:
            return False
        if before.keys() - stamps.keys():
            return True  # a campaign was deleted (perhaps here: reading again is harmless)
        with self._lock:
            return any(
                not self._own_path(cid, before.get(cid), stamp) for cid, stamp in stamps.items()
            )

    def close(self) -> None:
        if self._others_only:
            event.remove(self._engine, "begin", self._began)
            event.remove(self._engine, "after_cursor_execute", self._executed)
            event.remove(self._engine, "commit", self._committing)
            event.remove(self._engine, "rollback", self._rolled_back)
        if self._raw is not None:
            self._raw.close()
            self._raw = None
