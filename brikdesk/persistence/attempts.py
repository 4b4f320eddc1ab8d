"""One user action's database work, run on a worker thread, that can be abandoned.

The app runs a user action's service call off the GUI thread inside ``attempting(attempt)``.
The engine's hooks (``brikdesk.persistence.db.watch_attempts``) then tell the :class:`Attempt` which server
connections the call took from the pool and when it sends its ``COMMIT``. A server that stopped
answering cannot end the statement itself (its ``statement_timeout`` needs a running server), so
the client decides:

- Before the commit was sent, :meth:`Attempt.abandon` cuts the connections the call holds (their
  sockets are shut down, so the driver's wait ends with an error): the server rolls the
  transaction back when it sees the connection gone, the pool invalidates the connection instead
  of taking it back, and a call that had not yet reached the server is refused when it does
  (checkout and commit both ask). Nothing changes.
- Once the commit was sent, it cannot be taken back: ``abandon()`` returns False and the outcome
  is known only when the server answers.

This module imports no SQLAlchemy: the window imports it before the database is open.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from brikdesk.errors import Abandoned

log = logging.getLogger(__name__)


class Attempt:
    """The database work of one action on one thread (see the module's docstring)."""

    def __init__(self, *, reading: bool = False) -> None:
        #: Work that only reads: its commits change nothing, so it can be cut at any time.
        self.reading = reading
        self._lock = threading.Lock()
        self._connections: list[Any] = []
        self.commit_sent = False
        self.abandoned = False
        #: True once the work took a connection to a database server.
        self.on_server = False

    def abandon(self) -> bool:
        """Give the work up if its commit was not sent yet (True: nothing will change);
        False when the commit is already on its way (the outcome is not known yet)."""
        with self._lock:
            if self.commit_sent:
                return False
            self.abandoned = True
            held = list(self._connections)
        for dbapi_connection in held:
            _cut(dbapi_connection)
        return True

    def took(self, dbapi_connection: Any, *, server: bool) -> None:
        with self._lock:
            if self.abandoned:
                raise Abandoned("the action was cancelled; nothing was changed")
            self._connections.append(dbapi_connection)
            self.on_server = self.on_server or server

    def gave_back(self, dbapi_connection: Any) -> None:
        with self._lock:
            if dbapi_connection in self._connections:
                self._connections.remove(dbapi_connection)

    def committing(self) -> None:
        with self._lock:
            if self.abandoned:
                raise Abandoned("the action was cancelled; nothing was changed")
            self.commit_sent = not self.reading


_local = threading.local()


def current() -> Attempt | None:
    """The attempt this thread is working for, if any."""
    attempt: Attempt | None = getattr(_local, "attempt", None)
    return attempt


@contextmanager
def attempting(attempt: Attempt) -> Iterator[Attempt]:
    """Inside the block, this thread's database work belongs to ``attempt``."""
    before = current()
    _local.attempt = attempt
    try:
        yield attempt
    finally:
        _local.attempt = before


def _cut(dbapi_connection: Any) -> None:
    """Shut the connection's socket down (both ways): a driver waiting on it wakes with an
    error at once, and the server sees the connection closed. The descriptor stays the
    driver's (a duplicate is shut down and closed)."""
    pgconn = getattr(dbapi_connection, "pgconn", None)  # psycopg 3
    try:
        fd = pgconn.socket if pgconn is not None else dbapi_connection.fileno()
    except Exception:  # already closed, or a driver without a socket
        log.debug("no socket to cut", exc_info=True)
        return
    try:
        dup = socket.socket(fileno=os.dup(fd))
    except OSError:
        log.debug("could not take the socket", exc_info=True)
        return
    try:
        dup.shutdown(socket.SHUT_RDWR)
    except OSError:
        log.debug("socket already shut", exc_info=True)
    finally:
        dup.close()
