"""The words for what happened to the database: a FIFO or a device given as the database is
named as such (SQLite said "disk I/O error"), a schema version table with no revision or
several says what it holds (it said "schema revision None"), and an upgrade on a full disk
says "the disk is full" (it said "disk I/O error")."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text

from brikdesk.cli import main
from brikdesk.errors import StorageError
from brikdesk.persistence.db import alembic_config, open_database
from tests.databases import fresh_url
from tests.smalldisk import fill, small_disk


def test_a_fifo_as_the_database_is_named(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "club.sqlite3"
    os.mkfifo(fifo)
    assert main(["--db", f"sqlite:///{fifo}", "list"]) != 0
    err = capsys.readouterr().err
    assert (
        f"cannot open the database sqlite:///{fifo}: it is a FIFO (named pipe), not a database file"
        in (err)
    )
    assert "disk I/O error" not in err
    assert fifo.is_fifo()


def test_a_device_as_the_database_is_named(tmp_path: Path) -> None:
    link = tmp_path / "zero.sqlite3"
    link.symlink_to("/dev/zero")
    with pytest.raises(StorageError, match="it is a character device, not a database file"):
        open_database(f"sqlite:///{link}")


@pytest.mark.parametrize(
    "rows, found",
    [
        ([], "its schema version table is empty"),
        (["0003", "0004"], "its schema version table holds 2 revisions ('0003', '0004')"),
    ],
)
def test_a_schema_version_table_without_one_revision_says_what_it_holds(
    backend: str, tmp_path: Path, rows: list[str], found: str
) -> None:
    url = fresh_url(tmp_path, "odd")
    db = open_database(url)
    with db.engine.begin() as conn:
        conn.execute(text("DELETE FROM alembic_version"))
        for r in rows:  # PostgreSQL's table has a primary key: two rows of two revisions
            conn.execute(text("INSERT INTO alembic_version VALUES (:r)"), {"r": r})
    db.close()
    with pytest.raises(StorageError) as info:
        open_database(url)
    assert found in str(info.value)
    assert "damaged" in str(info.value) and "None" not in str(info.value)


def test_an_upgrade_on_a_full_disk_says_the_disk_is_full(tmp_path: Path, capsys) -> None:
    """A database at the first revision on a small file system with no room: the upgrade
    (its backup first) fails with "the disk is full", and the database is as it was."""
    made = tmp_path / "old.sqlite3"
    engine = create_engine(f"sqlite:///{made}")
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0001")
    engine.dispose()
    with small_disk(tmp_path) as disk:
        old = disk / "old.sqlite3"
        shutil.copyfile(made, old)
        before = old.read_bytes()
        fill(disk)
        assert main(["--db", f"sqlite:///{old}", "list"]) != 0
        err = capsys.readouterr().err
        assert "the disk is full" in err, err
        assert "disk I/O error" not in err
        assert old.read_bytes() == before
