"""SQLite transactions: the services' writes take the write lock when they begin (so they wait
out the busy timeout instead of failing at their first write); reads do not take it."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from brikdesk.errors import BusyError
from brikdesk.persistence import db as db_module
from brikdesk.persistence.db import open_database, reading
from brikdesk.persistence.models import Campaign
from brikdesk.services import Services


def _try_write_lock(path: Path) -> bool:
    """Whether another connection gets the write lock at once."""
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        other.close()


def test_a_write_transaction_holds_the_lock_from_its_begin(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    db = open_database(f"sqlite:///{path}")
    try:
        with db.sessions.begin() as s:
            s.execute(select(Campaign.id)).all()  # only a read so far
            assert not _try_write_lock(path)
        assert _try_write_lock(path)
        with reading(db.sessions) as s:
            s.execute(select(Campaign.id)).all()
            assert _try_write_lock(path)  # a reader never holds up a writer
    finally:
        db.close()


def test_reads_go_on_while_another_program_writes(tmp_path: Path, monkeypatch) -> None:
    # A read held up by the writer would wait out the busy timeout (then fail "locked"): with a
    # long one, "goes on" is far under it however busy the machine running the tests is.
    monkeypatch.setattr(db_module, "BUSY_TIMEOUT_MS", 20_000)
    path = tmp_path / "r.sqlite3"
    db = open_database(f"sqlite:///{path}")
    sv = Services.open(db)
    cid = sv.campaigns.create_campaign("Open").value.id
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("UPDATE campaign SET notes = 'being written'")
        start = time.perf_counter()
        assert sv.campaigns.navigator(cid).campaign.notes == ""  # the last committed state
        assert time.perf_counter() - start < 10
    finally:
        other.execute("ROLLBACK")
        other.close()
        db.close()


def test_a_lock_held_past_the_timeout_is_busy_and_changes_nothing(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(db_module, "BUSY_TIMEOUT_MS", 300)
    path = tmp_path / "b.sqlite3"
    db = open_database(f"sqlite:///{path}")
    sv = Services.open(db)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        start = time.perf_counter()
        with pytest.raises(BusyError, match="the database is busy .*nothing was changed"):
            sv.campaigns.create_campaign("Blocked")
        assert time.perf_counter() - start >= 0.25  # it waited for the timeout first
        other.execute("ROLLBACK")
        assert sv.campaigns.list_campaigns() == ()
    finally:
        other.close()
        db.close()
