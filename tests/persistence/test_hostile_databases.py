"""Unusable databases: another program's file is left byte for byte as it was, a damaged one is
refused (by the command line and by ``--check-start``), a read-only one can be read."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from brikdesk.errors import StorageError
from brikdesk.persistence.db import open_database
from brikdesk.services.demo import ensure_demo
from tests.persistence.damaged_files import BRIKDESK, corrupt_pages, run, state


def test_another_programs_sqlite_file_is_left_byte_for_byte(tmp_path: Path) -> None:
    folder = tmp_path / "theirs"
    folder.mkdir()
    other = folder / "recipes.sqlite3"
    with sqlite3.connect(other) as conn:
        assert conn.execute("PRAGMA journal_mode=DELETE").fetchone() == ("delete",)
        conn.execute("CREATE TABLE recipe (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO recipe (name) VALUES ('bread')")
    conn.close()
    before = state(folder)
    for argv in (["list"], ["import", str(tmp_path / "x.json")], ["demo"]):
        done = run("--db", f"sqlite:///{other}", *argv, env_home=tmp_path)
        assert done.returncode == 1, done.stderr
        assert "is not a BrikDesk database" in done.stderr
    with pytest.raises(StorageError, match="not a BrikDesk database"):
        open_database(f"sqlite:///{other}")
    assert state(folder) == before  # same bytes, same times, no -wal or -shm beside it
    with sqlite3.connect(f"file:{other}?mode=ro", uri=True) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)


def test_a_file_that_is_not_sqlite_is_refused_untouched(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my shopping list\n" * 100, encoding="utf-8")
    before = state(tmp_path)
    with pytest.raises(StorageError, match="not an SQLite file"):
        open_database(f"sqlite:///{notes}")
    assert state(tmp_path) == before


@pytest.fixture
def brikdesk_file(tmp_path: Path) -> Path:
    path = tmp_path / "club.sqlite3"
    db = open_database(f"sqlite:///{path}")
    ensure_demo(db)
    db.close()
    with sqlite3.connect(path) as conn:  # one file, no WAL beside it
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()
    return path


def drop_table(path: Path, table: str) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA foreign_keys=OFF")
        conn.execute(f"DROP TABLE {table}")
    conn.close()


@pytest.mark.parametrize(
    "damage, message",
    [
        (corrupt_pages, "is damaged"),
        (lambda p: drop_table(p, "battle_event"), "the table battle_event is missing"),
    ],
)
def test_a_damaged_database_fails_list_and_check_start(
    brikdesk_file: Path, tmp_path: Path, damage, message: str
) -> None:
    damage(brikdesk_file)
    url = f"sqlite:///{brikdesk_file}"
    listed = run("--db", url, "list", env_home=tmp_path)
    assert listed.returncode == 1 and message in listed.stderr
    checked = run("--db", url, "--check-start", env_home=tmp_path)
    assert checked.returncode == 1, checked.stdout
    assert "campaign shown" not in checked.stdout
    assert message in checked.stderr


def read_only_folder(folder: Path, argv: list[str], home: Path) -> subprocess.CompletedProcess:
    """Run brikdesk with ``folder`` read-only: by permissions for a user, by a read-only bind
    mount in a private mount namespace for root (whom permissions do not stop)."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            return run(*argv, env_home=home)
        finally:
            folder.chmod(0o755)
    if shutil.which("unshare") is None:
        pytest.fail("root needs unshare(1) to make a read-only folder")
    script = (
        f'mount --bind "{folder}" "{folder}" && mount -o remount,bind,ro "{folder}" && exec "$@"'
    )
    env = dict(os.environ, BRIKDESK_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        ["unshare", "-m", "sh", "-c", script, "sh", BRIKDESK, *argv],
        capture_output=True,
        encoding="utf-8",
        env=env,
        timeout=120,
        check=False,
    )


def test_a_database_in_a_read_only_folder_is_listed_and_writes_say_why_not(
    brikdesk_file: Path, tmp_path: Path
) -> None:
    folder = brikdesk_file.parent
    before = state(folder)
    url = f"sqlite:///{brikdesk_file}"
    listed = read_only_folder(folder, ["--db", url, "list"], tmp_path / "home")
    assert listed.returncode == 0, listed.stderr
    assert "Demo: Battle for Baseplate Valley" in listed.stdout
    wrote = read_only_folder(folder, ["--db", url, "demo"], tmp_path / "home")
    assert wrote.returncode == 1
    assert "read-only" in wrote.stderr and "folder" in wrote.stderr
    assert state(folder) == before


def test_a_read_only_folder_is_found_by_trying_not_by_os_access(
    brikdesk_file: Path,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On Windows ``os.access`` says yes whatever the folder's permissions: here it always
    says yes (a ``sitecustomize``), and the folder is still found read-only by writing."""
    site = tmp_path_factory.mktemp("site")
    (site / "sitecustomize.py").write_text(
        "import os\nos.access = lambda *args, **kwargs: True\n", encoding="utf-8"
    )
    monkeypatch.setenv("PYTHONPATH", str(site))
    folder = brikdesk_file.parent
    before = state(folder)
    url = f"sqlite:///{brikdesk_file}"
    listed = read_only_folder(folder, ["--db", url, "list"], tmp_path / "home")
    assert listed.returncode == 0, listed.stderr
    assert "Demo: Battle for Baseplate Valley" in listed.stdout
    wrote = read_only_folder(folder, ["--db", url, "demo"], tmp_path / "home")
    assert wrote.returncode == 1
    assert "the database is read-only" in wrote.stderr
    assert "BrikDesk opened it only to read" in wrote.stderr
    assert state(folder) == before


def test_check_start_fails_when_the_campaign_cannot_be_shown(
    brikdesk_file: Path, tmp_path: Path
) -> None:
    """Damage no check at opening sees (a column gone): the window comes up, the campaign
    can't be read; the check reports the error and exits 1 instead of "campaign shown"."""
    with sqlite3.connect(brikdesk_file) as conn:
        conn.execute("ALTER TABLE player DROP COLUMN faction")
    conn.close()
    url = f"sqlite:///{brikdesk_file}"
    assert run("--db", url, "list", env_home=tmp_path).returncode == 1
    checked = run("--db", url, "--check-start", env_home=tmp_path)
    assert checked.returncode == 1
    assert "campaign shown" not in checked.stdout
    assert "faction" in checked.stderr
