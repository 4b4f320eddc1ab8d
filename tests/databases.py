"""Where the database tests put their databases: SQLite files and, when a server is given,
PostgreSQL too. Both backends are first-class: ``.ci/run`` starts a throw-away PostgreSQL server
and runs every database test once on each.

The backends: SQLite always; PostgreSQL when ``BRIKDESK_TEST_DB_URL`` is the URL of an empty
database the tests may wipe, for example::

    BRIKDESK_TEST_DB_URL=postgresql+psycopg://brikdesk:brikdesk@localhost/brikdesk_test \\
        ./run-tests tests/persistence tests/services tests/concurrency

How a test gets both backends: it asks for the ``backend`` fixture (``tests/conftest.py``),
directly or through a fixture that does (``db``, ``sv``, ``demo_db``, ``demo_sv``, ``camp`` of
``tests/services/conftest.py``), or it lives under ``tests/concurrency/`` (every test there
gets ``backend``). pytest then runs it once per backend, with the ids ``[sqlite]`` and
``[postgresql]``, and during each run :func:`fresh_url` makes databases of that backend::

    def test_two_apps_share_one_database(backend: str, tmp_path: Path) -> None:
        url = fresh_url(tmp_path, "shared")   # a SQLite file, or a schema on the server
        ...                                   # hand ``url`` to other processes as they are

A SQLite database is a new file ``tmp_path/<name>.sqlite3``. A PostgreSQL database is a schema
``brikdesk_test_<name>`` of the server's database, dropped with everything in it and created
empty again, reached through a URL whose ``search_path`` is that schema: a test can so have
several independent databases at once (the export of one imported into another) on one server
database that needs no CREATEDB right. The URL is an ordinary string other processes can open.

Tests that are about SQLite by nature (WAL, the backup file before a migration, PRAGMA checks,
kill -9 of a writer, a file that is not a database) make their own SQLite file and do not ask
for ``backend``; under ``tests/concurrency/`` such a test is marked ``@pytest.mark.sqlite_only``
and runs once, as ``[sqlite]``. Inside a test, ``on_server()`` says whether this run is the
PostgreSQL one (a test that differs, e.g. in an error's wording). The window tests
(``tests/ui``) stay on SQLite.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

TEST_DB_ENV = "BRIKDESK_TEST_DB_URL"
SCHEMA_PREFIX = "brikdesk_test_"
SQLITE = "sqlite"
POSTGRESQL = "postgresql"

_admin: dict[str, Engine] = {}
_current: list[str] = []  # the backend of the running test (a stack: set by ``using``)


def server_url() -> str | None:
    """``$BRIKDESK_TEST_DB_URL``, or None when the tests have SQLite only."""
    return os.environ.get(TEST_DB_ENV, "").strip() or None


def backends() -> list[str]:
    """The backends the database tests run on: SQLite, and PostgreSQL when a server is given."""
    return [SQLITE, POSTGRESQL] if server_url() else [SQLITE]


@contextmanager
def using(backend: str) -> Iterator[str]:
    """Make :func:`fresh_url` give databases of ``backend`` inside the block."""
    if backend not in (SQLITE, POSTGRESQL):
        raise ValueError(f"unknown test backend {backend!r}")
    if backend == POSTGRESQL and server_url() is None:
        raise RuntimeError(f"the PostgreSQL tests need {TEST_DB_ENV}")
    _current.append(backend)
    try:
        yield backend
    finally:
        _current.pop()


def current_backend() -> str:
    """The backend of the running test; an error outside a test that asked for ``backend``."""
    if not _current:
        raise RuntimeError(
            "this test has no database backend: give it the `backend` fixture "
            "(or a fixture that uses it, such as `db`), see tests/databases.py"
        )
    return _current[-1]


def on_server() -> bool:
    """True while the running test is on PostgreSQL; False outside a test with a backend
    (at import, a module does not know which backend its tests will run on: mark a test
    ``sqlite_only`` rather than skip it with ``skipif(on_server())``)."""
    return bool(_current) and _current[-1] == POSTGRESQL


def _admin_engine(url: str) -> Engine:
    engine = _admin.get(url)
    if engine is None:
        engine = create_engine(url, poolclass=NullPool)
        if engine.dialect.name != "postgresql":
            raise RuntimeError(
                f"{TEST_DB_ENV} must be a PostgreSQL URL (one database, "
                f"a schema per test database), not {engine.dialect.name}"
            )
        _admin[url] = engine
    return engine


def _worker_prefix() -> str:
    """``gw0_``... under pytest-xdist (each worker its own schemas on the one server database,
    so two workers running tests that use the same name never drop each other's), else ``""``."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return f"{worker}_" if re.fullmatch(r"gw[0-9]{1,4}", worker) else ""


def fresh_url(tmp_path: Path, name: str) -> str:
    """The URL of a new, empty database called ``name`` for one test, on the running test's
    backend.

    SQLite: ``tmp_path/<name>.sqlite3`` (not created yet). PostgreSQL: the schema
    ``brikdesk_test_<name>``, dropped and made again now.
    """
    if not re.fullmatch(r"[a-z][a-z0-9_]{0,40}", name):
        raise ValueError(f"bad test database name {name!r}")
    if current_backend() == SQLITE:
        return f"sqlite:///{tmp_path / f'{name}.sqlite3'}"
    base = server_url()
    assert base is not None  # using() checked it
    schema = SCHEMA_PREFIX + _worker_prefix() + name
    with _admin_engine(base).begin() as conn:
        conn.exec_driver_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
    url = make_url(base)
    options = url.query.get("options", "")
    if isinstance(options, tuple):
        options = " ".join(options)
    url = url.update_query_dict({"options": f"{options} -csearch_path={schema}".strip()})
    return url.render_as_string(hide_password=False)


def copy_database(template: Path, path: Path) -> str:
    """Copy a template SQLite file to ``path``; its URL."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, path)
    return f"sqlite:///{path}"
