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
before use, so BrikDesk carries on after the server restarted or dropped them.

An existing SQLite file is first looked at read-only (``check_existing_sqlite``): a file that is
not a BrikDesk database (another program's, or not SQLite at all) or is damaged (corrupt pages,
a missing table) is refused with nothing about it changed, byte for byte (it is not switched to
WAL). A file in a folder BrikDesk can't write (or a read-only file) is opened read-only: it can be
read and listed, and a write says the database is read-only.

Before migrating an existing, non-empty SQLite file it is copied (SQLite's online backup, which
includes what is still in the WAL) to ``<name>.bak-<revision>-<YYYYmmddTHHMMSS>`` beside it.
Errors opening or migrating raise ``StorageError`` with a message fit to show.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Final

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from brikdesk.errors import StorageError
from brikdesk.paths import DB_ENV, DB_FILENAME

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
    return next((ln for ln in lines if ln), type(exc).__name__)


@contextmanager
def reading(sessions: sessionmaker[Session]) -> Iterator[Session]:
    """``with reading(sessions) as s:`` a transaction that only reads: on SQLite it begins
    deferred (no write lock; WAL readers never wait for a writer). Writing in it is a bug (it
    could fail as "locked" at once, which is what ``IMMEDIATE`` avoids)."""
    with sessions() as s, s.begin():
        s.connection(execution_options={WRITES: False})
        yield s


def _sqlite_setup(engine: Engine) -> None:
    """Foreign keys, WAL and a busy timeout on every connection; SQLAlchemy-driven BEGIN,
    ``IMMEDIATE`` unless the connection says it only reads (see the module's docstring)."""

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
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
        finally:
            cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:  # pragma: no cover - trivial
        if conn.get_execution_options().get(WRITES):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")


def create_db_engine(url: str) -> Engine:
    """An engine for ``url`` with BrikDesk's SQLite settings (no migration)."""
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
            engine = create_engine(u)
        else:  # a server: test a pooled connection before use (the server may have closed it)
            engine = create_engine(u, pool_pre_ping=True)
    except ImportError as exc:
        raise StorageError(
            f"cannot use the database {shown}: its Python driver is not "
            f"installed ({exc}); for PostgreSQL install brikdesk[postgres] and "
            "use a postgresql+psycopg:// URL"
        ) from None
    except SQLAlchemyError as exc:
        raise StorageError(f"cannot use the database {shown}: {error_text(exc)}") from None
    if engine.dialect.name == "sqlite":
        _sqlite_setup(engine)
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


def _current_revision(conn: Connection) -> tuple[str | None, set[str]]:
    """The database's schema revision (``None`` if it has none) and its table names."""
    tables = set(inspect(conn).get_table_names())
    if "alembic_version" not in tables:
        return None, tables
    rows: list[str] = list(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())
    return (rows[0] if len(rows) == 1 else None), tables


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


def _read_only_reason(path: Path) -> str | None:
    """Why ``path`` can't be written (so it must be opened read-only), or None."""
    if not os.access(path.parent, os.W_OK | os.X_OK):
        return f"the folder {path.parent} is read-only"
    if not os.access(path, os.W_OK):
        return f"the file {path} is read-only"
    return None


def _ro_uri(path: Path, *, immutable: bool) -> str:
    from urllib.parse import quote

    return f"file:{quote(str(path.resolve()))}?mode=ro" + ("&immutable=1" if immutable else "")


def check_existing_sqlite(path: Path, shown: str) -> str | None:
    """Look at an existing SQLite file read-only, before anything about it is changed.

    ``StorageError`` if it is not a BrikDesk database (not SQLite, or SQLite without BrikDesk's
    schema version) or is damaged (SQLite's ``quick_check`` fails, or a table of the current
    schema is missing). Returns why it can't be written (it is then opened read-only), or None.
    Nothing is written: a foreign file stays byte for byte as it was, its time stamps too.
    """
    try:
        with path.open("rb") as f:
            header = f.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StorageError(f"cannot open the database {shown}: {exc.strerror or exc}") from None
    if header != SQLITE_HEADER:
        raise StorageError(
            f"{shown} is not a BrikDesk database (it is not an SQLite file); choose another file"
        )
    read_only = _read_only_reason(path)
    try:
        conn = sqlite3.connect(
            _ro_uri(path, immutable=read_only is not None), uri=True, isolation_level=None
        )
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open the database {shown}: {exc}") from None
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
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
        if revisions == [HEAD_REVISION]:
            from brikdesk.persistence.models import Base

            missing = sorted(set(Base.metadata.tables) - tables)
            if missing:
                raise StorageError(
                    f"the database {shown} is damaged: the table"
                    f"{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                    f"{'are' if len(missing) > 1 else 'is'} missing; restore "
                    "a backup (<name>.bak-...) or choose another file"
                )
        problems = [r[0] for r in conn.execute("PRAGMA quick_check(3)")]
        if problems != ["ok"]:
            raise StorageError(
                f"the database {shown} is damaged ({'; '.join(problems)}); "
                "restore a backup (<name>.bak-...) or choose another file"
            )
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
    existed = path is not None and path.is_file() and path.stat().st_size > 0
    read_only = check_existing_sqlite(path, shown) if path is not None and existed else None
    engine = create_db_engine(
        url
        if read_only is None or path is None
        else f"sqlite:///{_ro_uri(path, immutable=True)}&uri=true"
    )
    writer = engine.execution_options(**{WRITES: True})
    db = Database(
        url=url,
        engine=engine,
        sessions=sessionmaker(writer, expire_on_commit=False),
        read_only=read_only,
    )
    try:
        head = HEAD_REVISION
        with engine.connect() as conn:
            current, tables = _current_revision(conn)
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
                    f"{shown} was made by a newer BrikDesk (schema revision "
                    f"{current}); update BrikDesk to open it"
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
    except StorageError:
        engine.dispose()
        raise
    except (SQLAlchemyError, sqlite3.Error, OSError) as exc:
        engine.dispose()
        raise StorageError(f"cannot open the database {shown}: {error_text(exc)}") from exc
    return db
