"""Opening a database: engine set-up, backups and Alembic migrations.

``open_database(url)`` returns a :class:`Database` (engine + session factory) whose schema is at
the newest Alembic revision. It works with any SQLAlchemy URL; SQLite gets foreign keys, WAL and a
busy timeout on every connection, and real transactions (``BEGIN`` emitted by SQLAlchemy rather
than the driver's implicit one, so reads and migrations are transactional too).

SQLite: the services' transactions (``Database.sessions``, and the schema migration) begin with
``BEGIN IMMEDIATE``: a transaction takes the database's one write lock when it begins, waiting up
to ``BUSY_TIMEOUT_MS`` for another writer to finish. A deferred ``BEGIN`` would take it only at
the first write, and SQLite cannot wait there (the reader's snapshot may be stale, so it fails
at once with "database is locked" whatever the timeout): two BrikDesks writing to one file
then lost a third of their actions. So every service action writes as if it were alone, and a
lock held past the timeout is the only "busy" a user sees.

Reading transactions opt out (:func:`reading`, ``ServiceBase._reading()``): a session that says
it only reads begins deferred, so a long read (a 10,000-unit roster) never holds the write lock
and WAL lets it run beside a writer. The opt-out is explicit, per transaction: a service
transaction that does not say it only reads gets the safe ``IMMEDIATE``. Plain connections of
the engine (``engine.connect()``: tools, PRAGMAs, the revision check on opening) stay deferred.

A server database (PostgreSQL: ``postgresql+psycopg://user:password@host/dbname``, with the
``postgres`` extra installed) needs no set-up of its own; its pooled connections are tested
before use, so BrikDesk carries on after the server restarted or dropped them, and an action's
work on a server that stopped answering can be abandoned before its commit
(``brikdesk.persistence.attempts``).

An existing SQLite file is first looked at read-only (``check_existing_sqlite``): a file that is
not a BrikDesk database (another program's, or not SQLite at all) or is damaged (corrupt pages,
a missing table) is refused with nothing about it changed, byte for byte (it is not switched to
WAL). A file in a folder BrikDesk can't write (or a read-only file) is opened read-only: it can be
read and listed, and a write says the database is read-only. Whether it can be written is
tried (a probe file made and removed, the file opened for writing), not asked of
``os.access``, which on Windows ignores the folder's permissions.

A file in a synced folder (OneDrive, Dropbox, iCloud Drive, Google Drive) or on a network drive
is opened without WAL and ``Database.warning`` says why (``brikdesk.persistence.places``).

Before migrating an existing, non-empty SQLite file it is copied (SQLite's online backup, which
includes what is still in the WAL) to ``<name>.bak-<revision>-<YYYYmmddTHHMMSS>`` beside it.
Errors opening or migrating raise ``StorageError`` with a message fit to show.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DisconnectionError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from brikdesk.errors import Abandoned, StorageError
from brikdesk.paths import DB_ENV, DB_FILENAME
from brikdesk.persistence.attempts import current
from brikdesk.persistence.places import risky_place

if TYPE_CHECKING:
    from alembic.config import Config

#: The newest schema revision. Alembic is imported only when a database is not at this
#: revision (opening an up-to-date database is the common case, and Alembic takes ~100 ms to
#: import); tests/persistence/test_migrations.py checks it against the migration scripts.
HEAD_REVISION = "0006"

log = logging.getLogger(__name__)

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
#: SQLite waits this long (milliseconds) for another writer before reporting "locked".
BUSY_TIMEOUT_MS = 5000
#: A server connection is given up after this many seconds (PostgreSQL's connect_timeout).
SERVER_CONNECT_S = 10
#: A server ends a statement that runs longer than this (seconds; waiting for a lock counts).
STATEMENT_TIMEOUT_S = 60
#: Execution option: True on the services' connections (SQLite: ``BEGIN IMMEDIATE``), False on
#: a transaction that only reads (a deferred ``BEGIN``).
WRITES: Final = "brikdesk_writes"


def default_url() -> str:
    """``$BRIKDESK_DB``, else the SQLite file ``brikdesk.sqlite3`` in the user data folder."""
    url = os.environ.get(DB_ENV, "").strip()
    if url:
        return url
    from brikdesk.paths import data_dir

    return f"sqlite:///{data_dir() / DB_FILENAME}"


@dataclass
class Database:
    """An open database: its URL, engine and session factory; ``close()`` when done.

    ``fresh`` is true when this open created the schema in an empty database (the app's first
    start); ``backup`` is the backup file made before a migration, if any.
    """

    url: str
    engine: Engine
    sessions: sessionmaker[Session]
    fresh: bool = False
    backup: Path | None = None
    revision: str | None = field(default=None)
    #: Why the database was opened read-only (its folder or file can't be written), or None.
    read_only: str | None = None
    #: A risk the organizer is told about when it opens (a synced folder, a network drive).
    warning: str | None = None

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @property
    def display_name(self) -> str:
        """The URL with any password hidden (for the status bar and messages)."""
        return make_url(self.url).render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def sqlite_file(url: str) -> Path | None:
    """The file behind a SQLite URL, or None (another database, or in memory)."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite":
        return None
    name = u.database or ""
    if not name or name == ":memory:" or name.startswith("file:") or "mode=memory" in name:
        return None
    return Path(name)


def _is_url(url: str) -> bool:
    try:
        make_url(url)
    except ArgumentError:
        return False
    return True


def error_text(exc: BaseException) -> str:
    """The database's own message for ``exc`` in one line: the driver's error (not SQLAlchemy's
    echo of the SQL and its background link), first line only (PostgreSQL adds hints below)."""
    orig = getattr(exc, "orig", None)
    lines = [ln.strip() for ln in str(orig if orig is not None else exc).splitlines()]
    first = next((ln for ln in lines if ln), type(exc).__name__)
    return "the disk is full" if _disk_full(first) else first


@contextmanager
def reading(sessions: sessionmaker[Session]) -> Iterator[Session]:
    """``with reading(sessions) as s:`` a transaction that only reads: on SQLite it begins
    deferred (no write lock; WAL readers never wait for a writer). Writing in it is a bug (it
    could fail as "locked" at once, which is what ``IMMEDIATE`` avoids)."""
    with sessions() as s, s.begin():
        s.connection(execution_options={WRITES: False})
        yield s


def _sqlite_setup(engine: Engine, *, wal: bool = True) -> None:
    """Foreign keys, WAL and a busy timeout on every connection; SQLAlchemy-driven BEGIN,
    ``IMMEDIATE`` unless the connection says it only reads (see the module's docstring).
    Without ``wal`` (a synced folder, a network drive) the rollback journal is used."""

    @event.listens_for(engine, "connect")
    def _on_connect(
        dbapi_connection: sqlite3.Connection, _record: object
    ) -> None:  # pragma: no cover - trivial
        # Let SQLAlchemy, not the driver, decide when a transaction begins.
        dbapi_connection.isolation_level = None
        cur = dbapi_connection.cursor()
        try:
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            if wal:
                cur.execute("PRAGMA journal_mode=WAL")
            else:
                _rollback_journal(cur)
            cur.execute("PRAGMA synchronous=NORMAL")
        finally:
            cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:  # pragma: no cover - trivial
        if conn.get_execution_options().get(WRITES):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")


def _rollback_journal(cur: sqlite3.Cursor) -> None:
    """Leave WAL for the rollback journal where the file can be changed (a database opened
    read-only keeps its mode; it writes nothing anyway)."""
    with contextlib.suppress(sqlite3.OperationalError):
        cur.execute("PRAGMA journal_mode=DELETE")


def _server_connect_args(backend: str, query: Mapping[str, object]) -> dict[str, object]:
    """Bounded waits for a server connection (only what the URL does not set itself):
    PostgreSQL gives up connecting after ``SERVER_CONNECT_S``; TCP keepalives and
    ``tcp_user_timeout`` notice a server that stopped answering mid-statement, and the
    server ends a statement after ``STATEMENT_TIMEOUT_S`` (a lock waited on included)."""
    if backend != "postgresql":
        return {}
    wanted: dict[str, object] = {
        "connect_timeout": SERVER_CONNECT_S,
        "keepalives": 1,
        "keepalives_idle": 10,
        "keepalives_interval": 5,
        "keepalives_count": 3,
        "tcp_user_timeout": STATEMENT_TIMEOUT_S * 1000,
    }
    out = {k: v for k, v in wanted.items() if k not in query}
    given = query.get("options", "")
    given = " ".join(given) if isinstance(given, tuple) else str(given)
    if "statement_timeout" not in given:
        out["options"] = f"{given} -c statement_timeout={STATEMENT_TIMEOUT_S * 1000}".strip()
    return out


def server_error_text(exc: BaseException, url: str) -> str:
    """The driver's message, or for a server that did not answer in time, which server it was
    and how long it was waited for."""
    text = error_text(exc)
    if "timeout expired" in text or "timed out" in text:
        u = make_url(url)
        where = f"{u.host or 'localhost'}{f':{u.port}' if u.port else ''}"
        return (
            f"the server {where} did not answer within {SERVER_CONNECT_S} s; check that "
            "it is running and that the address is right"
        )
    return text


#: How ``json.dumps`` writes a text (in C); undocumented but as old as the module.
_quoted = json.encoder.encode_basestring_ascii


def dumps_json(value: Any) -> str:
    """``json.dumps(value)``: the same text, written quicker for what most JSON columns hold,
    a short list of catalog keys or an empty object (``json.dumps`` sets up an encoder on
    every call: a third of the largest import's time went there, 800,000 calls)."""
    if type(value) is list and all(type(v) is str for v in value):
        return "[" + ", ".join(map(_quoted, value)) + "]"
    if type(value) is dict and not value:
        return "{}"
    return json.dumps(value)


def watch_attempts(engine: Engine, *, server: bool) -> None:
    """Install the hooks that keep a thread's :class:`Attempt` informed.

    On a server this replaces the pool's pre-ping: the ping on checkout is made after the
    connection is registered with the attempt, so a ping that waits on a stopped server can be
    cut too. A SQLite file has no socket to cut (its waits are bounded by the busy timeout),
    but an abandoned attempt's commit is refused there too."""

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        attempt = current()
        if attempt is not None:
            attempt.took(dbapi_connection, server=server)
        if not server:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as exc:
            if attempt is not None:
                attempt.gave_back(dbapi_connection)
                if attempt.abandoned:
                    raise Abandoned("the action was cancelled; nothing was changed") from exc
            raise DisconnectionError(str(exc)) from exc

    @event.listens_for(engine, "checkin")
    def _checkin(dbapi_connection: Any, _record: Any) -> None:
        attempt = current()
        if attempt is not None and dbapi_connection is not None:
            attempt.gave_back(dbapi_connection)

    @event.listens_for(engine, "commit")
    def _commit(_conn: Connection) -> None:
        attempt = current()
        if attempt is not None:
            attempt.committing()


def create_db_engine(url: str, *, wal: bool | None = None) -> Engine:
    """An engine for ``url`` with BrikDesk's SQLite settings (no migration). ``wal`` (SQLite):
    by default WAL unless the file is in a synced folder or on a network drive."""
    try:
        u = make_url(url)
    except ArgumentError as exc:
        raise StorageError(f"'{url}' is not a database URL: {exc}") from None
    path = sqlite_file(url)
    if path is not None and not path.parent.is_dir():
        raise StorageError(
            f"cannot open the database {path}: the folder {path.parent} does not exist"
        )
    shown = u.render_as_string(hide_password=True)
    try:
        if u.get_backend_name() == "sqlite":
            engine = create_engine(u, json_serializer=dumps_json)
        else:  # a server: a pooled connection is tested before use (``watch_attempts``)
            engine = create_engine(
                u,
                json_serializer=dumps_json,
                pool_timeout=SERVER_CONNECT_S,
                connect_args=_server_connect_args(u.get_backend_name(), u.query),
            )
    except ImportError as exc:
        raise StorageError(
            f"cannot use the database {shown}: its Python driver is not "
            f"installed ({exc}); for PostgreSQL install brikdesk[postgres] and "
            "use a postgresql+psycopg:// URL"
        ) from None
    except SQLAlchemyError as exc:
        raise StorageError(f"cannot use the database {shown}: {error_text(exc)}") from None
    if engine.dialect.name == "sqlite":
        if wal is None:
            wal = path is None or risky_place(path) is None
        _sqlite_setup(engine, wal=wal)
    watch_attempts(engine, server=engine.dialect.name != "sqlite")
    return engine


def alembic_config(connection: Connection | None = None) -> Config:
    """A programmatic Alembic configuration for the migrations inside the package."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    """The head revision according to the migration scripts (imports Alembic)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def _current_revision(conn: Connection, shown: str, what: str) -> tuple[str | None, set[str]]:
    """The database's schema revision (``None`` if it has no schema version table) and its
    table names; ``StorageError`` naming what the table holds if not one revision."""
    tables = set(inspect(conn).get_table_names())
    if "alembic_version" not in tables:
        return None, tables
    rows: list[str] = list(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())
    if len(rows) != 1:
        raise StorageError(_odd_revisions(shown, rows, tables, what))
    return rows[0], tables


def _odd_revisions(
    shown: str, rows: list[str], tables: set[str], what: str, *, marked: bool = False
) -> str:
    """Why a database whose schema version table holds no revision or several is refused,
    saying what it holds: BrikDesk's (its mark or its tables) is damaged, another's foreign."""
    found = (
        "is empty"
        if not rows
        else f"holds {len(rows)} revisions ({', '.join(repr(r) for r in rows[:4])})"
    )
    if marked or tables >= FIRST_TABLES:
        return (
            f"the database {shown} is damaged: its schema version table {found}; restore a "
            "backup (<name>.bak-...) or choose another file"
        )
    return f"{shown} is not a BrikDesk database (its schema version table {found}); choose another {what}"


def _one_revision(shown: str, rows: list[str], tables: set[str], *, marked: bool) -> str:
    """The one revision of a file's schema version table, or ``StorageError`` naming what
    the table holds instead."""
    if len(rows) != 1:
        raise StorageError(_odd_revisions(shown, rows, tables, "file", marked=marked))
    return rows[0]


def _refuse_not_a_file(path: Path, shown: str) -> None:
    """``StorageError`` naming what ``path`` is when it is there but not a regular file (a
    FIFO, a device, a folder, a socket): SQLite would say only "disk I/O error"."""
    import stat

    from brikdesk.files import file_kind

    try:
        mode = path.stat().st_mode
    except OSError:
        return  # missing (made new) or unreadable: said where it is opened
    if not stat.S_ISREG(mode):
        raise StorageError(
            f"cannot open the database {shown}: it is {file_kind(mode)}, not a database "
            "file; choose a file"
        )


#: The folders of the SQLite files opened: where a write's "disk I/O error" is looked into.
_SQLITE_FOLDERS: set[Path] = set()
#: Free room under which a failed write is put down to a full disk.
_FULL_BELOW = 256 * 1024


def _disk_full(text: str) -> bool:
    """Whether a database error ``text`` is a full disk: SQLite's own "database or disk is
    full", or its "disk I/O error" while a database's folder has (next to) no room left."""
    lowered = text.lower()
    if "disk is full" in lowered or "no space left" in lowered:
        return True
    if "disk i/o error" not in lowered:
        return False
    for folder in list(_SQLITE_FOLDERS):
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            continue
        if free < _FULL_BELOW:
            return True
    return False


def _backup_sqlite(path: Path, revision: str | None) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.bak-{revision or 'none'}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.bak-{revision or 'none'}-{stamp}-{n}")
    src = sqlite3.connect(str(path))
    try:
        dst = sqlite3.connect(str(target))
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    return target


SQLITE_HEADER = b"SQLite format 3\x00"


def _write_refused(exc: OSError, what: str) -> str:
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return f"{what} is read-only"
    return f"{what} can't be written ({exc.strerror or exc})"


def _read_only_reason(path: Path) -> str | None:
    """Why ``path`` can't be written (so it must be opened read-only), or None. Tried, not
    asked: a probe file is made and removed in its folder (SQLite makes its journal there),
    and the file is opened for writing (nothing written, its time stamps unchanged)."""
    folder = path.parent
    try:
        fd, probe = tempfile.mkstemp(prefix=".brikdesk-probe-", dir=folder)
    except OSError as exc:
        return _write_refused(exc, f"the folder {folder}")
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)
    try:
        with path.open("r+b"):
            pass
    except OSError as exc:
        return _write_refused(exc, f"the file {path}")
    return None


def _ro_uri(path: Path, *, immutable: bool) -> str:
    from urllib.parse import quote

    return f"file:{quote(str(path.resolve()))}?mode=ro" + ("&immutable=1" if immutable else "")


#: BrikDesk's mark in a SQLite file's header (``PRAGMA application_id``, "BrkD"), set when
#: BrikDesk creates or upgrades the schema. Files made before it have 0 there and are known
#: by their schema (a BrikDesk revision and BrikDesk's first tables).
APPLICATION_ID = 0x42726B44
#: The tables of BrikDesk's first schema (revision 0001): every BrikDesk database has them.
FIRST_TABLES = frozenset({"campaign", "player", "army", "house_item", "house_unit_type", "unit"})


def known_revisions() -> frozenset[str]:
    """The schema revisions of this BrikDesk's migrations (from the scripts' file names, so
    that Alembic need not be imported to tell one)."""
    return frozenset(
        p.name.split("_", 1)[0]
        for p in (MIGRATIONS_DIR / "versions").glob("[0-9][0-9][0-9][0-9]_*.py")
    )


def missing_schema(columns: dict[str, set[str]]) -> list[str]:
    """What the current schema has that ``columns`` (table -> its column names) lacks, named
    ("the table battle_event", "the column unit.kills")."""
    from brikdesk.persistence.models import Base

    out = []
    for name, table in Base.metadata.tables.items():
        have = columns.get(name)
        if have is None:
            out.append(f"the table {name}")
            continue
        out.extend(f"the column {name}.{c.name}" for c in table.columns if c.name not in have)
    return out


def _missing_text(shown: str, missing: list[str]) -> str:
    more = f" and {len(missing) - 4} more" if len(missing) > 4 else ""
    verb = "is" if len(missing) == 1 else "are"
    return (
        f"the database {shown} is damaged: {', '.join(missing[:4])}{more} {verb} missing; "
        "restore a backup (<name>.bak-...) or choose another file"
    )


def _foreign_revision(
    shown: str, revision: str, tables: set[str], what: str, *, marked: bool = False
) -> str:
    """Why a database at a revision this BrikDesk does not know is refused: made by a newer
    BrikDesk (``marked`` with BrikDesk's application id, or a BrikDesk-like revision number
    beside BrikDesk's tables), or another program's."""
    if marked or (revision.isdigit() and tables >= FIRST_TABLES):
        return (
            f"{shown} was made by a newer BrikDesk (schema revision {revision}); "
            "update BrikDesk to open it"
        )
    return (
        f"{shown} is not a BrikDesk database (it has another program's schema version "
        f"{revision!r}); choose another {what}"
    )


def _locked(exc: sqlite3.Error) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def check_existing_sqlite(path: Path, shown: str) -> str | None:
    """Look at an existing SQLite file read-only, before anything about it is changed.

    ``StorageError`` if it is not a BrikDesk database (not SQLite; another program's mark in
    its header; tables without BrikDesk's schema version; a schema version or tables that are
    not BrikDesk's), is damaged (SQLite's ``quick_check`` fails, or a table or column of the
    current schema is missing) or is locked by another program. Returns why it can't be
    written (it is then opened read-only), or None. Nothing is written: a foreign or damaged
    file stays byte for byte as it was, its time stamps too, and gets no ``-wal`` or ``-shm``
    beside it (a WAL file with no ``-wal`` is read as immutable).
    """
    try:
        with path.open("rb") as f:
            header = f.read(100)
    except OSError as exc:
        raise StorageError(f"cannot open the database {shown}: {exc.strerror or exc}") from None
    if header[: len(SQLITE_HEADER)] != SQLITE_HEADER:
        raise StorageError(
            f"{shown} is not a BrikDesk database (it is not an SQLite file); choose another file"
        )
    read_only = _read_only_reason(path)
    # The application id is read only from a well-formed header (its fixed payload fractions
    # 64, 32, 32): a damaged file's garbage there is damage, not another program's mark.
    well_formed = len(header) == 100 and header[21:24] == b"\x40\x20\x20"
    app_id = int.from_bytes(header[68:72], "big") if well_formed else 0
    if app_id not in (0, APPLICATION_ID):
        raise StorageError(
            f"{shown} is not a BrikDesk database (another program's SQLite file, application "
            f"id {app_id:#010x}); choose another file"
        )
    wal_mode = len(header) > 19 and header[18] == 2
    quiet = read_only is not None or (wal_mode and not Path(f"{path}-wal").exists())
    try:
        conn = sqlite3.connect(
            _ro_uri(path, immutable=quiet),
            uri=True,
            isolation_level=None,
            timeout=BUSY_TIMEOUT_MS / 1000,
        )
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open the database {shown}: {exc}") from None
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        user_version = conn.execute("PRAGMA user_version").fetchone()[0]
        if not tables and user_version:
            raise StorageError(
                f"{shown} is not a BrikDesk database (another program's SQLite file, user "
                f"version {user_version}); choose another file"
            )
        if tables and "alembic_version" not in tables:
            raise StorageError(
                f"{shown} is not a BrikDesk database (it has tables "
                f"{', '.join(sorted(tables)[:5])} but no BrikDesk schema "
                "version); choose another file"
            )
        revisions = (
            [r[0] for r in conn.execute("SELECT version_num FROM alembic_version")]
            if tables
            else []
        )
        if tables:
            revision = _one_revision(shown, revisions, tables, marked=app_id == APPLICATION_ID)
            if revision not in known_revisions() or not tables >= FIRST_TABLES:
                raise StorageError(
                    _foreign_revision(
                        shown, revision, tables, "file", marked=app_id == APPLICATION_ID
                    )
                )
        if revisions == [HEAD_REVISION]:
            columns = {t: {r[1] for r in conn.execute(f'PRAGMA table_info("{t}")')} for t in tables}
            missing = missing_schema(columns)
            if missing:
                raise StorageError(_missing_text(shown, missing))
        problems = [r[0] for r in conn.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise StorageError(
                f"the database {shown} is damaged ({'; '.join(problems)}); "
                "restore a backup (<name>.bak-...) or choose another file"
            )
    except sqlite3.OperationalError as exc:
        if not _locked(exc):
            raise StorageError(
                f"the database {shown} is damaged or not a database ({exc}); "
                "restore a backup (<name>.bak-...) or choose another file"
            ) from None
        raise StorageError(
            f"the database {shown} is locked by another program (waited "
            f"{BUSY_TIMEOUT_MS // 1000} s); close it or wait until it is done, then try again"
        ) from None
    except sqlite3.DatabaseError as exc:
        raise StorageError(
            f"the database {shown} is damaged or not a database ({exc}); "
            "restore a backup (<name>.bak-...) or choose another file"
        ) from None
    finally:
        conn.close()
    return read_only


def open_database(url: str | None = None, *, migrate: bool = True) -> Database:
    """Open ``url`` (default: :func:`default_url`) and bring its schema to the newest revision.

    With ``migrate=False`` the schema is left as it is (tools and tests only). An existing
    SQLite file is checked read-only first (``check_existing_sqlite``); one that can't be
    written is opened read-only (``Database.read_only`` says why) and is not migrated.
    """
    url = url or default_url()
    shown = make_url(url).render_as_string(hide_password=True) if _is_url(url) else url
    path = sqlite_file(url) if _is_url(url) else None
    if path is not None:
        _refuse_not_a_file(path, shown)
        _SQLITE_FOLDERS.add(path.parent)
    existed = path is not None and path.is_file() and path.stat().st_size > 0
    read_only = check_existing_sqlite(path, shown) if path is not None and existed else None
    warning = risky_place(path) if path is not None else None
    if warning is not None:
        log.warning("%s", warning)
    engine = create_db_engine(
        url
        if read_only is None or path is None
        else f"sqlite:///{_ro_uri(path, immutable=True)}&uri=true",
        wal=warning is None,
    )
    writer = engine.execution_options(**{WRITES: True})
    db = Database(
        url=url,
        engine=engine,
        sessions=sessionmaker(writer, expire_on_commit=False),
        read_only=read_only,
        warning=warning,
    )
    try:
        head = HEAD_REVISION
        with engine.connect() as conn:
            current, tables = _current_revision(conn, shown, "file" if path else "database")
        db.revision = current
        if current is None and tables - {"alembic_version"}:
            raise StorageError(
                f"{shown} is not a BrikDesk database (it has tables "
                f"{', '.join(sorted(tables)[:5])} but no BrikDesk schema "
                f"version); choose another {'file' if path else 'database'}"
            )
        if current is not None and current != head:
            from alembic.script import ScriptDirectory

            known = {
                s.revision for s in ScriptDirectory.from_config(alembic_config()).walk_revisions()
            }
            if current not in known:
                raise StorageError(
                    _foreign_revision(shown, current, tables, "file" if path else "database")
                )
        if migrate and current != head and read_only is not None:
            raise StorageError(
                f"{shown} needs an upgrade to this BrikDesk's schema, but "
                f"{read_only}; copy it somewhere writable first"
            )
        if migrate and current != head:
            if path is not None and existed:
                db.backup = _backup_sqlite(path, current)
                log.info("Backed up %s to %s before migrating", path, db.backup)
            from alembic import command

            try:
                with writer.begin() as conn:
                    command.upgrade(alembic_config(conn), "head")
            except SQLAlchemyError as exc:
                where = f"; the backup is at {db.backup}" if db.backup else ""
                raise StorageError(
                    f"could not upgrade the database {shown} from revision "
                    f"{current or 'empty'} to {head}: {error_text(exc)}{where}"
                ) from exc
            db.fresh = current is None
            db.revision = head
            if path is not None:  # BrikDesk's mark in the header (see APPLICATION_ID)
                with engine.connect() as conn:
                    conn.exec_driver_sql(f"PRAGMA application_id={APPLICATION_ID}")
                    conn.commit()
        elif current == head and path is None:  # a server: the columns, as a file's are
            with engine.connect() as conn:
                found = inspect(conn)
                missing = missing_schema(
                    {t: {c["name"] for c in found.get_columns(t)} for t in tables}
                )
            if missing:
                raise StorageError(_missing_text(shown, missing).replace(" (<name>.bak-...)", ""))
    except StorageError:
        engine.dispose()
        raise
    except (SQLAlchemyError, sqlite3.Error, OSError) as exc:
        engine.dispose()
        raise StorageError(
            f"cannot open the database {shown}: {server_error_text(exc, url)}"
        ) from exc
    return db
