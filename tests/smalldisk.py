"""A real small file system for the tests of a full disk: a tmpfs the test mounts (root only,
as CI runs), filled so that the next write finds no room or only part of the room it needs.

``small_disk(tmp_path)`` mounts one under ``tmp_path`` and unmounts it at the end; where it
cannot be mounted (not root, no mount permission in a container) the test is skipped with the
system's reason. ``fill(folder, leave)`` takes all its free room but ``leave`` bytes."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

#: The small file system's size: room for an old output and a filler, nothing to spare.
SIZE = "2m"


@contextmanager
def small_disk(tmp_path: Path, size: str = SIZE) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``tmp_path / "small"``, unmounted afterwards."""
    where = tmp_path / "small"
    where.mkdir()
    mount = shutil.which("mount")
    if mount is None:
        pytest.skip("cannot mount a small file system: no mount command here")
    if os.geteuid() != 0:
        pytest.skip("cannot mount a small file system: it needs root (CI runs as root)")
    made = subprocess.run(
        [mount, "-t", "tmpfs", "-o", f"size={size},mode=0777", "tmpfs", str(where)],
        capture_output=True,
        encoding="utf-8",
        timeout=30,
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small file system: {made.stderr.strip() or made.returncode}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, timeout=30)


def free_bytes(folder: Path) -> int:
    st = os.statvfs(folder)
    return st.f_bavail * st.f_frsize


def fill(folder: Path, leave: int = 0) -> None:
    """Write a filler file in ``folder`` until at most ``leave`` bytes are free."""
    want = max(0, free_bytes(folder) - leave)
    with open(folder / "filler", "wb", buffering=0) as f:
        try:
            while want > 0:
                wrote = f.write(b"\0" * min(want, 1 << 16))
                if not wrote:
                    break
                want -= wrote
        except OSError as exc:  # the last pages went to the file's own bookkeeping
            if exc.errno != errno.ENOSPC:
                raise
    assert free_bytes(folder) <= leave + 4096


def only(folder: Path, *names: str) -> bool:
    """True when ``folder`` holds just these files (and the filler): no temporary file left."""
    return sorted(p.name for p in folder.iterdir()) == sorted([*names, "filler"])
