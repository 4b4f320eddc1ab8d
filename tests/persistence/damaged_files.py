"""What the tests of unusable database files share: the ``brikdesk`` command run with its home
in a folder, the state of a folder (bytes and times, to show nothing was touched), and pages
of a database file overwritten as a disk error would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BRIKDESK = str(Path(sys.executable).parent / "brikdesk")


def run(*argv: str, env_home: Path, check_start: bool = False) -> subprocess.CompletedProcess:
    env = dict(os.environ, BRIKDESK_HOME=str(env_home), QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [BRIKDESK, *argv], capture_output=True, encoding="utf-8", env=env, timeout=120, check=False
    )


def state(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def corrupt_pages(path: Path) -> None:
    """Overwrite pages in the middle of the file (a disk error), leaving the header intact."""
    size = path.stat().st_size
    page = 4096
    with path.open("r+b") as f:
        for n in range(2, size // page - 1, 3):
            f.seek(n * page)
            f.write(bytes(range(256)) * (page // 256))
