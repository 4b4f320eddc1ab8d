"""Where the database tests put their databases: SQLite files, or another server.

By default every database a test asks for is a new SQLite file under the test's ``tmp_path``
(what CI runs). With ``BRIKDESK_TEST_DB_URL`` set to a PostgreSQL URL of an empty database the
tests may wipe, for example::

    BRIKDESK_TEST_DB_URL=postgresql+psycopg://brikdesk:brikdesk@localhost/brikdesk_test \\
        .venv/bin/pytest tests/persistence tests/services

each database is instead a schema of that database (``brikdesk_test_<name>``), dropped with
everything in it and created empty again before the test, and reached through a URL whose
``search_path`` is that schema. A test can so have several independent databases at once (the
export of one imported into another) on one server database that needs no CREATEDB right.

Tests that are about SQLite by nature (WAL, the backup file before a migration, PRAGMA checks,
kill -9 of a writer) make their own SQLite file whatever the variable says.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

TEST_DB_ENV = "BRIKDESK_TEST_DB_URL"
SCHEMA_PREFIX = "brikdesk_test_"

_admin: dict[str, Engine] = {}


def server_url() -> str | None:
    """``$BRIKDESK_TEST_DB_URL``, or None when the tests use SQLite files."""
    return os.environ.get(TEST_DB_ENV, "").strip() or None


def on_server() -> bool:
    return server_url() is not None


def _admin_engine(url: str) -> Engine:
    engine = _admin.get(url)
    if engine is None:
        engine = create_engine(url, poolclass=NullPool)
        if engine.dialect.name != "postgresql":
            raise RuntimeError(f"{TEST_DB_ENV} must be a PostgreSQL URL (one database, "
                               f"a schema per test database), not {engine.dialect.name}")
        _admin[url] = engine
    return engine


def fresh_url(tmp_path: Path, name: str) -> str:
    """The URL of a new, empty database called ``name`` for one test.

    SQLite: ``tmp_path/<name>.sqlite3`` (not created yet). Server: the schema
    ``brikdesk_test_<name>``, dropped and made again now.
    """
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,40}", name):
        raise ValueError(f"bad test database name {name!r}")
    base = server_url()
    if base is None:
        return f"sqlite:///{tmp_path / f'{name}.sqlite3'}"
    schema = SCHEMA_PREFIX + name
    with _admin_engine(base).begin() as conn:
        conn.exec_driver_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    url = make_url(base)
    options = url.query.get("options", "")
    if isinstance(options, tuple):
        options = " ".join(options)
    url = url.update_query_dict({"options": f"{options} -csearch_path={schema}".strip()})
    return url.render_as_string(hide_password=False)
