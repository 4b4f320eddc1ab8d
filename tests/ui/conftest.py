"""Fixtures for the window tests: each test gets its own database file and settings file.

Migrating an empty database takes a moment, so each test copies a database migrated once per
session (empty, or holding the demo campaign) into its own ``tmp_path``. Windows are built
through the composition root (``ui.app.build_main_window``) with ``--db`` pointing at that
copy, and with settings kept in an INI file under ``tmp_path``.
"""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from brikdesk.persistence.db import Database, open_database
from brikdesk.services import Services
from brikdesk.services.demo import create_demo
from tests.ui.battle_tables import Table
from tests.ui.every_dialog import World
from tests.ui.wizard_battle import make_battle, services_for
from ui import operation
from ui.settings import AppSettings

#: How long a window test's write is waited for in place (milliseconds): as good as always.
IN_PLACE_MS = 60_000


def _template(tmp_path_factory: pytest.TempPathFactory, name: str, demo: bool) -> Path:
    path = tmp_path_factory.mktemp("ui-templates") / name
    db = open_database(f"sqlite:///{path}")
    if demo:
        create_demo(db)
    with db.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path


@pytest.fixture(autouse=True)
def writes_wait_in_place(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A window test's writes are waited for in place, however loaded the machine.

    The app waits ``operation.GRACE_MS`` for a write before it runs the window's own event
    loop while the write goes on (``ui.operation``); a test machine busy with other tests may
    cross that line at random, and the loop would then run timers and deferred deletions in
    the middle of a test's step. The tests of that loop ask for ``background_writes``."""
    if "background_writes" not in request.fixturenames:
        monkeypatch.setattr(operation, "GRACE_MS", IN_PLACE_MS)


@pytest.fixture
def background_writes() -> None:
    """Writes wait in place only ``operation.GRACE_MS``, as in the app (see above)."""


@pytest.fixture(scope="session")
def empty_db_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _template(tmp_path_factory, "empty.sqlite3", demo=False)


@pytest.fixture(scope="session")
def demo_db_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _template(tmp_path_factory, "demo.sqlite3", demo=True)


@pytest.fixture
def empty_db(empty_db_template: Path, tmp_path: Path) -> str:
    """URL of a fresh, migrated, empty database file."""
    path = tmp_path / "campaigns.sqlite3"
    shutil.copyfile(empty_db_template, path)
    return f"sqlite:///{path}"


@pytest.fixture
def demo_db(demo_db_template: Path, tmp_path: Path) -> str:
    """URL of a fresh database file holding the demo campaign."""
    path = tmp_path / "demo.sqlite3"
    shutil.copyfile(demo_db_template, path)
    return f"sqlite:///{path}"


@pytest.fixture
def database(empty_db: str) -> Iterator[Database]:
    """A fresh, migrated, empty database, open (closed after the test)."""
    db = open_database(empty_db)
    yield db
    db.close()


@pytest.fixture
def sv(database: Database) -> Services:
    return Services.open(database)


@pytest.fixture
def table(sv: Services) -> Table:
    """Red and Blue with three units each, and a battle between them (Red first)."""
    return Table(sv)


@pytest.fixture
def qsettings(tmp_path: Path) -> QSettings:
    """A widget's own settings file (the panels read and write ``QSettings``)."""
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def settings(tmp_path: Path) -> AppSettings:
    return AppSettings.at(tmp_path / "settings.ini")


@pytest.fixture
def open_main(qtbot, settings: AppSettings) -> Iterator[Callable]:
    """``open_main(url)``: the main window on that database, shown (closed after the test).

    The windows are kept alive until the end of the test (qtbot holds only weak references,
    and a collected main window would take its roster windows with it)."""
    from ui.app import build_main_window

    windows: list = []

    def make(url: str, *, show: bool = True):
        window = build_main_window(argparse.Namespace(db=url), settings=settings)
        windows.append(window)
        qtbot.addWidget(window)
        if show:
            window.show()
            qtbot.waitExposed(window)
        return window

    yield make
    for window in windows:
        window.close()
    windows.clear()


@pytest.fixture(scope="session")
def wizard_templates(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Any]:
    """The combat wizard's Sherwood battle (``tests.ui.wizard_battle``) made once per session
    and edition: ``wizard_templates("2005")``; copy it with ``battle_from``."""
    from tests.ui.wizard_battle import battle_template_at

    made: dict[str, Any] = {}

    def template(edition: str = "2020") -> Any:
        if edition not in made:
            made[edition] = battle_template_at(tmp_path_factory, edition)
        return made[edition]

    return template


@pytest.fixture
def battle(wizard_templates: Callable[[str], Any], tmp_path: Path) -> Iterator[Any]:
    """The combat wizard's Sherwood battle in a 2020 campaign (a test file may define its
    own ``battle``)."""
    from tests.ui.wizard_battle import battle_from

    yield from battle_from(wizard_templates("2020"), tmp_path)


@pytest.fixture
def battle_2005(wizard_templates: Callable[[str], Any], tmp_path: Path) -> Iterator[Any]:
    """The combat wizard's Sherwood battle in a 2005 campaign (2005 catalog and chapter 4)."""
    from tests.ui.wizard_battle import battle_from

    yield from battle_from(wizard_templates("2005"), tmp_path)


# -- every dialog's battle (tests/ui/every_dialog.py) ------------------------------------------


@pytest.fixture(scope="module")
def sherwood_template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """The Sherwood battle every dialog opens on, made once per test file."""
    path = tmp_path_factory.mktemp("ready") / "sherwood.sqlite3"
    b = make_battle(path)
    with b.db.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    b.db.close()
    return path, (b.campaign_id, b.battle_id, b.ids)


@pytest.fixture
def world(
    sherwood_template: tuple[Path, Any], tmp_path: Path, settings: AppSettings
) -> Iterator[World]:
    """This test's own copy of the Sherwood battle, with its services and settings."""
    src, (campaign_id, battle_id, ids) = sherwood_template
    path = tmp_path / "sherwood.sqlite3"
    shutil.copyfile(src, path)
    db = open_database(f"sqlite:///{path}")
    yield World(services_for(db), campaign_id, battle_id, dict(ids), settings)
    db.close()
