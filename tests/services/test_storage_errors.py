"""Database failures reach the caller as StorageError with a message; clashes on undo are
UserErrors; a refused action leaves the database as it was."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from brikdesk.errors import StorageError, UserError
from brikdesk.persistence import db as db_module
from brikdesk.persistence.db import Database, open_database
from brikdesk.services import Services
from tests.services.conftest import Camp


def test_a_damaged_schema_is_a_storage_error(sv: Services, db: Database, camp: Camp) -> None:
    with db.engine.begin() as conn:
        if db.is_sqlite:
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.exec_driver_sql("DROP TABLE unit")
        else:
            conn.exec_driver_sql("DROP TABLE unit CASCADE")
    missing = "no such table" if db.is_sqlite else 'relation "unit" does not exist'
    with pytest.raises(StorageError, match=f"could not be read or written.*{missing}"):
        sv.roster.roster(camp.red_army.id)


def test_a_locked_database_is_a_storage_error_that_says_busy(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(db_module, "BUSY_TIMEOUT_MS", 100)
    path = tmp_path / "locked.sqlite3"
    database = open_database(f"sqlite:///{path}")
    sv = Services.open(database)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        with pytest.raises(StorageError, match="busy"):
            sv.campaigns.create_campaign("Blocked")
        other.execute("ROLLBACK")
        assert sv.campaigns.create_campaign("Free").value.name == "Free"
    finally:
        other.close()
        database.close()


def test_undoing_a_delete_after_the_name_was_taken_is_refused(sv: Services) -> None:
    done = sv.campaigns.delete_campaign(sv.campaigns.create_campaign("Twin").value.id)
    sv.campaigns.create_campaign("Twin")
    with pytest.raises(UserError, match="same name"):
        done.undo()
    assert [c.name for c in sv.campaigns.list_campaigns()] == ["Twin"]


def test_undoing_a_unit_delete_after_its_army_went_is_refused(sv: Services, camp: Camp) -> None:
    ids = sv.roster.add_units(camp.red_army.id, "minifig", 2).value
    done = sv.roster.delete_unit(ids[0])
    sv.campaigns.delete_army(camp.red_army.id)
    with pytest.raises(UserError, match="army these unit rows belonged to was deleted"):
        sv.roster.restore_units(done.value)
