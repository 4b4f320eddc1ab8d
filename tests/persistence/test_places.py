"""A database in a synced folder or on a network drive: known by its path, its drive or its
mount, warned about and opened without WAL (the rollback journal keeps the file whole)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path, PurePosixPath, PureWindowsPath

import pytest

from brikdesk.persistence.db import open_database
from brikdesk.persistence.places import (
    DRIVE_REMOTE,
    bsd_mounts,
    file_system_type,
    network_place,
    proc_mounts,
    synced_client,
)

BRIKDESK = str(Path(sys.executable).parent / "brikdesk")


@pytest.mark.parametrize(
    ("path", "client"),
    [
        (PureWindowsPath(r"C:\Users\Ann\OneDrive\BrikDesk\club.sqlite3"), "OneDrive"),
        (PureWindowsPath(r"C:\Users\Ann\OneDrive - Contoso\club.sqlite3"), "OneDrive"),
        (PureWindowsPath(r"C:\Users\Ann\Dropbox (Personal)\club.sqlite3"), "Dropbox"),
        (PureWindowsPath(r"C:\Users\Ann\iCloudDrive\club.sqlite3"), "iCloud Drive"),
        (PureWindowsPath(r"G:\My Drive\games\club.sqlite3"), "Google Drive"),
        (
            PurePosixPath("/Users/ann/Library/Mobile Documents/com~apple~CloudDocs/club.sqlite3"),
            "iCloud Drive",
        ),
        (
            PurePosixPath("/Users/ann/Library/CloudStorage/GoogleDrive-ann@example.org/club.db"),
            "Google Drive",
        ),
        (PurePosixPath("/Users/ann/Library/CloudStorage/OneDrive-Personal/club.db"), "OneDrive"),
        (PurePosixPath("/home/ann/Dropbox/club.sqlite3"), "Dropbox"),
        (PurePosixPath("/home/ann/Documents/club.sqlite3"), None),
        (PurePosixPath("/home/ann/Documents/onedrive-notes.sqlite3"), None),  # a file's name
        (PureWindowsPath(r"C:\Users\Ann\Documents\club.sqlite3"), None),
    ],
)
def test_a_synced_folder_is_known_by_its_name(path: PurePosixPath, client: str | None) -> None:
    assert synced_client(path) == client


def test_network_places_are_known_by_path_drive_and_mount() -> None:
    none: list[tuple[str, str]] = []
    assert network_place(PureWindowsPath(r"\\nas\games\club.sqlite3"), none) == "a network share"
    mapped = network_place(PureWindowsPath(r"Z:\club.sqlite3"), none, drive_type=DRIVE_REMOTE)
    assert mapped == "a mapped network drive (Z:)"
    assert network_place(PureWindowsPath(r"C:\club.sqlite3"), none, drive_type=3) is None
    mounts = proc_mounts(
        "/dev/sda1 / ext4 rw,relatime 0 0\n"
        "nas:/export/games /mnt/club\\040games nfs4 rw,vers=4.2 0 0\n"
        "//nas/share /mnt/club\\040games/smb cifs rw 0 0\n"
    )
    assert mounts == [("/", "ext4"), ("/mnt/club games", "nfs4"), ("/mnt/club games/smb", "cifs")]
    assert file_system_type(PurePosixPath("/mnt/club games/smb/a.db"), mounts) == "cifs"
    assert network_place(PurePosixPath("/mnt/club games/a.db"), mounts) == (
        "a network file system (nfs4)"
    )
    assert network_place(PurePosixPath("/mnt/club gamesX/a.db"), mounts) is None
    assert network_place(PurePosixPath("/home/ann/a.db"), mounts) is None
    mac = bsd_mounts(
        "/dev/disk3s1s1 on / (apfs, sealed, local, read-only, journaled)\n"
        "//ann@nas._smb._tcp.local/games on /Volumes/games (smbfs, nodev, nosuid, mounted by ann)\n"
    )
    assert mac == [("/", "apfs"), ("/Volumes/games", "smbfs")]
    assert network_place(PurePosixPath("/Volumes/games/club.sqlite3"), mac) == (
        "a network file system (smbfs)"
    )


def journal_mode(path: Path) -> str:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    conn.close()
    return str(mode)


def test_a_database_in_a_synced_folder_is_warned_about_and_opened_without_wal(
    tmp_path: Path,
) -> None:
    synced = tmp_path / "OneDrive" / "BrikDesk" / "club.sqlite3"
    synced.parent.mkdir(parents=True)
    env = dict(os.environ, BRIKDESK_HOME=str(tmp_path / "home"))
    done = subprocess.run(
        [BRIKDESK, "--db", f"sqlite:///{synced}", "demo"],
        capture_output=True,
        encoding="utf-8",
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert f"warning: the database {synced} is in a folder OneDrive syncs" in done.stderr
    assert "without WAL" in done.stderr and "one computer at a time" in done.stderr
    assert journal_mode(synced) == "delete"
    assert not Path(f"{synced}-wal").exists()
    # A database made elsewhere in WAL and moved into the synced folder leaves WAL.
    moved = tmp_path / "OneDrive" / "moved.sqlite3"
    plain = open_database(f"sqlite:///{tmp_path / 'plain.sqlite3'}")
    assert plain.warning is None
    plain.close()
    assert journal_mode(tmp_path / "plain.sqlite3") == "wal"
    (tmp_path / "plain.sqlite3").rename(moved)
    db = open_database(f"sqlite:///{moved}")
    try:
        assert db.warning is not None and "OneDrive" in db.warning
        with db.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "delete"
    finally:
        db.close()
