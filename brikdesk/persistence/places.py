"""Where a SQLite file lives, as far as its safety goes: a synced folder or a network drive.

SQLite's WAL keeps part of the database in ``<name>-wal`` and a shared-memory index in
``<name>-shm``; both need every program using the file on one computer with working file
locks. A folder a sync client copies between computers (OneDrive, Dropbox, iCloud Drive, Google
Drive) may upload the database without its ``-wal`` or bring back an older copy, and a network
file system (an SMB share, NFS) has no shared memory across computers and locks that may not
hold. Such a database is opened without WAL (a rollback journal: the file is always whole on
its own) and the organizer is told (:func:`risky_place`).

Synced folders are known by their folder names (each client's default), network places by the
path (a UNC path ``\\\\server\\share``), by the drive type on Windows (a mapped drive), and by
the mounted file system's type on Linux (``/proc/mounts``) and macOS (``mount``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path, PurePath

#: Folder names (lower case, a prefix of the name) that sync clients use, and the client.
SYNCED_FOLDERS: tuple[tuple[str, str], ...] = (
    ("onedrive", "OneDrive"),  # OneDrive, "OneDrive - Company", macOS "OneDrive-Personal"
    ("dropbox", "Dropbox"),  # Dropbox, "Dropbox (Personal)"
    ("icloud drive", "iCloud Drive"),
    ("icloud~", "iCloud Drive"),  # an app's folder in iCloud Drive
    ("mobile documents", "iCloud Drive"),  # macOS: ~/Library/Mobile Documents
    ("com~apple~clouddocs", "iCloud Drive"),
    ("iclouddrive", "iCloud Drive"),  # Windows: %USERPROFILE%\iCloudDrive
    ("google drive", "Google Drive"),
    ("googledrive", "Google Drive"),  # macOS: ~/Library/CloudStorage/GoogleDrive-<account>
    ("my drive", "Google Drive"),  # Google Drive for desktop's drive: G:\My Drive
)

#: File system types of network mounts (Linux ``/proc/mounts``, macOS ``mount``).
NETWORK_FILE_SYSTEMS = frozenset(
    {"nfs", "nfs4", "cifs", "smb", "smb2", "smb3", "smbfs", "afpfs", "webdav", "davfs",
     "fuse.sshfs", "sshfs", "9p", "afs", "ncpfs", "glusterfs", "ceph", "fuse.rclone"}
)  # fmt: skip

#: ``GetDriveTypeW``'s answer for a network (mapped) drive.
DRIVE_REMOTE = 4


def synced_client(path: PurePath) -> str | None:
    """The sync client whose folder holds ``path`` ("OneDrive"), or None."""
    for part in path.parts[:-1]:
        name = part.lower()
        for prefix, client in SYNCED_FOLDERS:
            if name.startswith(prefix):
                return client
    return None


def _unescape(field: str) -> str:
    """A ``/proc/mounts`` field: spaces, tabs, newlines and backslashes are octal escapes."""
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field = field.replace(code, char)
    return field


def proc_mounts(text: str) -> list[tuple[str, str]]:
    """``(mount point, file system type)`` of each line of Linux's ``/proc/mounts``."""
    out = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 3:
            out.append((_unescape(fields[1]), fields[2]))
    return out


def bsd_mounts(text: str) -> list[tuple[str, str]]:
    """``(mount point, file system type)`` of each line of macOS's ``mount``:
    ``//me@nas/games on /Volumes/games (smbfs, nodev, nosuid, mounted by me)``."""
    out = []
    for line in text.splitlines():
        head, sep, options = line.rpartition(" (")
        _device, on, point = head.partition(" on ")
        if sep and on and point:
            out.append((point, options.split(",")[0].strip(" )")))
    return out


def file_system_type(path: PurePath, mounts: list[tuple[str, str]]) -> str | None:
    """The type of the mount that holds ``path`` (the longest mount point above it)."""
    best: tuple[int, str] | None = None
    for point, kind in mounts:
        mount = PurePath(point)
        if (path == mount or mount in path.parents) and (best is None or len(point) > best[0]):
            best = (len(point), kind)
    return best[1] if best is not None else None


def _mounts() -> list[tuple[str, str]]:
    """This system's mounts; empty where it does not tell (or on Windows)."""
    try:
        with open("/proc/mounts", encoding="utf-8", errors="replace") as f:
            return proc_mounts(f.read())
    except OSError:
        pass
    if sys.platform == "darwin":
        try:
            done = subprocess.run(
                ["/sbin/mount"], capture_output=True, encoding="utf-8", timeout=5, check=False
            )
        except (OSError, subprocess.SubprocessError):
            return []
        return bsd_mounts(done.stdout)
    return []


def _windows_drive_type(path: PurePath) -> int | None:
    """``GetDriveTypeW`` of the drive of ``path`` (Windows), or None."""
    if sys.platform == "win32" and path.drive:
        import ctypes

        return int(ctypes.windll.kernel32.GetDriveTypeW(path.drive + "\\"))
    return None


def network_place(
    path: PurePath,
    mounts: list[tuple[str, str]] | None = None,
    drive_type: int | None = None,
) -> str | None:
    """What network place holds ``path`` ("a network share", "a mapped network drive (Z:)",
    "a network file system (nfs4)"), or None. ``mounts`` and ``drive_type`` default to this
    system's (given by tests)."""
    text = str(path)
    if text.startswith(("\\\\", "//")):
        return "a network share"
    if drive_type is None:
        drive_type = _windows_drive_type(path)
    if drive_type == DRIVE_REMOTE:
        return f"a mapped network drive ({path.drive})"
    kind = file_system_type(path, _mounts() if mounts is None else mounts)
    if kind is not None and kind.lower() in NETWORK_FILE_SYSTEMS:
        return f"a network file system ({kind})"
    return None


def risky_place(path: Path) -> str | None:
    """Why a SQLite database at ``path`` must not use WAL, as a sentence to show, or None."""
    full = Path(os.path.abspath(path))
    client = synced_client(full)
    network = network_place(full) if client is None else None
    if client is not None:
        where = f"in a folder {client} syncs"
    elif network is not None:
        where = f"on {network}"
    else:
        return None
    return (
        f"the database {path} is {where}: it is opened without WAL, and is safe only while "
        "one computer at a time uses it (close BrikDesk on the others first)"
    )
