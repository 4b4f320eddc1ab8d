"""Nothing is written to a file until it is known to be BrikDesk's (checked read-only first):
another Alembic-based program's file, one whose revision happens to be ``0001``, an empty file
with another program's mark, a damaged WAL file, each is refused byte for byte as it was, with
no journal-mode change, backup, schema or ``-wal``/``-shm`` beside it. A file another program
has locked is called locked; a missing column is named (``list`` and ``--check-start``)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from brikdesk.errors import StorageError
from brikdesk.persistence.db import APPLICATION_ID, open_database
from brikdesk.services.demo import ensure_demo
from tests.concurrency.workers import sqlite_lock_held
from tests.persistence.damaged_files import corrupt_pages, run, state


def make(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for sql in statements:
            conn.execute(sql)
    finally:
        conn.close()


def refused_untouched(path: Path, message: str, tmp_path: Path) -> None:
    """``open_database`` and ``brikdesk list`` refuse ``path`` with ``message``; the folder
    is as it was, byte for byte."""
    before = state(path.parent)
    with pytest.raises(StorageError) as info:
        open_database(f"sqlite:///{path}")
    assert message in str(info.value)
    listed = run("--db", f"sqlite:///{path}", "list", env_home=tmp_path / "home")
    assert listed.returncode == 1 and message in listed.stderr, listed.stderr
    assert state(path.parent) == before


def test_another_alembic_programs_file_is_not_switched_to_wal(tmp_path: Path) -> None:
    folder = tmp_path / "theirs"
    folder.mkdir()
    other = folder / "shop.sqlite3"
    make(
        other,
        "PRAGMA journal_mode=DELETE",
        "CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)",
        "INSERT INTO alembic_version VALUES ('3f2a9c1d7b42')",
        "CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT)",
    )
    refused_untouched(
        other, "is not a BrikDesk database (it has another program's schema version", tmp_path
    )
    assert other.read_bytes()[18:20] == b"\x01\x01"  # still a rollback-journal file


def test_another_programs_revision_0001_gets_no_backup_and_no_upgrade(tmp_path: Path) -> None:
    folder = tmp_path / "theirs"
    folder.mkdir()
    other = folder / "tasks.sqlite3"
    make(
        other,
        "CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)",
        "INSERT INTO alembic_version VALUES ('0001')",
        "CREATE TABLE task (id INTEGER PRIMARY KEY, title TEXT)",
    )
    refused_untouched(other, "is not a BrikDesk database", tmp_path)
    assert sorted(p.name for p in folder.iterdir()) == ["tasks.sqlite3"]  # no .bak-0001-...


def test_an_empty_file_with_another_programs_mark_gets_no_schema(tmp_path: Path) -> None:
    folder = tmp_path / "theirs"
    folder.mkdir()
    other = folder / "empty.db"
    make(other, "PRAGMA application_id=1234", "PRAGMA user_version=7")
    refused_untouched(other, "another program's SQLite file, application id 0x000004d2", tmp_path)


def test_a_damaged_wal_file_gets_no_side_files(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    path = folder / "club.sqlite3"
    db = open_database(f"sqlite:///{path}")
    ensure_demo(db)
    db.close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    for side in ("-wal", "-shm"):
        Path(f"{path}{side}").unlink(missing_ok=True)
    assert path.read_bytes()[18:20] == b"\x02\x02"  # a WAL file
    corrupt_pages(path)
    refused_untouched(path, "is damaged", tmp_path)
    assert sorted(p.name for p in folder.iterdir()) == ["club.sqlite3"]


def test_a_new_database_carries_brikdesks_mark(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    open_database(f"sqlite:///{path}").close()
    assert int.from_bytes(path.read_bytes()[68:72], "big") == APPLICATION_ID


def test_a_file_another_program_holds_locked_is_called_locked(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite3"
    db = open_database(f"sqlite:///{path}")
    db.close()
    make(path, "PRAGMA journal_mode=DELETE")
    with sqlite_lock_held(path, "BEGIN EXCLUSIVE"):
        start = time.monotonic()
        with pytest.raises(StorageError) as info:
            open_database(f"sqlite:///{path}")
        waited = time.monotonic() - start
    assert "is locked by another program" in str(info.value)
    assert "damaged" not in str(info.value)
    assert 4 < waited < 15


def test_a_missing_column_fails_check_start_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite3"
    db = open_database(f"sqlite:///{path}")
    ensure_demo(db)
    db.close()
    make(path, "ALTER TABLE battle DROP COLUMN notes")
    url = f"sqlite:///{path}"
    listed = run("--db", url, "list", env_home=tmp_path)
    assert listed.returncode == 1
    assert "the column battle.notes is missing" in listed.stderr
    checked = run("--db", url, "--check-start", env_home=tmp_path)
    assert checked.returncode == 1
    assert "the column battle.notes is missing" in checked.stderr


def test_a_missing_column_is_named_on_either_backend(backend: str, tmp_path: Path) -> None:
    from sqlalchemy import text

    from tests.databases import fresh_url

    url = fresh_url(tmp_path, "columns")
    db = open_database(url)
    with db.engine.begin() as conn:
        conn.execute(text("ALTER TABLE battle DROP COLUMN notes"))
    db.close()
    with pytest.raises(StorageError, match="damaged: the column battle.notes is missing"):
        open_database(url)
