"""Fixtures for the service tests: a fresh database per test, a clock that ticks.

Every test that uses ``db`` (or ``sv``, ``demo_db``, ``demo_sv``, ``camp``) runs once per
database backend (``tests/databases.py``): on SQLite, and on PostgreSQL when
``BRIKDESK_TEST_DB_URL`` is set. Migrating an empty database takes about 0.1 s, so on SQLite
each test gets a *copy* of a database migrated once per session (and, for ``demo_sv``, one
holding the demo campaign): still a fresh file under the test's own ``tmp_path``. On
PostgreSQL each test gets a freshly wiped schema, migrated (and given the demo) anew.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from brikdesk.persistence.db import Database, open_database
from brikdesk.services import Services
from brikdesk.services.demo import create_demo
from tests.databases import fresh_url, on_server


class TickingClock:
    """A clock that starts at 2026-05-01 12:00 UTC and moves one second per reading."""

    def __init__(self) -> None:
        self.now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def _template(tmp_path_factory: pytest.TempPathFactory, name: str, demo: bool) -> Path:
    path = tmp_path_factory.mktemp("templates") / name
    db = open_database(f"sqlite:///{path}")
    if demo:
        create_demo(db, clock=TickingClock())
    with db.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path


@pytest.fixture(scope="session")
def empty_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _template(tmp_path_factory, "empty.sqlite3", demo=False)


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _template(tmp_path_factory, "demo.sqlite3", demo=True)


def _open_copy(template: Path, tmp_path: Path, name: str = "test.sqlite3") -> Database:
    path = tmp_path / name
    shutil.copyfile(template, path)
    return open_database(f"sqlite:///{path}")


def open_fresh(
    request: pytest.FixtureRequest, tmp_path: Path, name: str, *, demo: bool
) -> Database:
    """A new database for one test (holding the demo campaign if ``demo``) on the test's
    backend: a copy of the session's SQLite template, or a wiped schema on the test server.
    The test must have the ``backend`` fixture."""
    if not on_server():
        template = request.getfixturevalue("demo_template" if demo else "empty_template")
        return _open_copy(template, tmp_path, f"{name}.sqlite3")
    database = open_database(fresh_url(tmp_path, name))
    if demo:
        create_demo(database, clock=TickingClock())
    return database


@pytest.fixture
def clock() -> TickingClock:
    return TickingClock()


@pytest.fixture
def db(request: pytest.FixtureRequest, backend: str, tmp_path: Path) -> Iterator[Database]:
    database = open_fresh(request, tmp_path, "test", demo=False)
    yield database
    database.close()


@pytest.fixture
def sv(db: Database, clock: TickingClock) -> Services:
    return Services.open(db, clock)


@pytest.fixture
def demo_db(request: pytest.FixtureRequest, backend: str, tmp_path: Path) -> Iterator[Database]:
    database = open_fresh(request, tmp_path, "demo", demo=True)
    yield database
    database.close()


@pytest.fixture
def demo_sv(demo_db: Database, clock: TickingClock) -> Services:
    return Services.open(demo_db, clock)


class Camp:
    """A small campaign: two players with an army each."""

    def __init__(self, sv: Services) -> None:
        self.campaign = sv.campaigns.create_campaign("Test Campaign", default_budget=30).value
        self.red = sv.campaigns.add_player(
            self.campaign.id, "Red", colour="#ff0000", faction="Reds"
        ).value
        self.blue = sv.campaigns.add_player(self.campaign.id, "Blue", colour="#0000ff").value
        self.red_army = sv.campaigns.add_army(self.red.id, "Red Army").value
        self.blue_army = sv.campaigns.add_army(self.blue.id, "Blue Army").value


@pytest.fixture
def camp(sv: Services) -> Camp:
    return Camp(sv)
