"""The installed ``brikdesk`` command run as a user runs it, with no display at all, and the
demo's Red Vanguard units by name: shared by the tests of ``print`` and ``report``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
DEMO_VANGUARD = [
    "Sir Reginald Studsworth",
    "Dame Clutchpower",
    "Brother Axel of the Grey Plate",
    "Pikeman Hobb",
    "Pikeman Nobb",
    "Crossbow Kate",
    "Fletcher Wynn",
    "Old Gus the Powder Monk",
    "Squire Tim Two-Bricks",
    "Thunderstud",
    "Banner Guard Brickabella",
]


def run(args: list[str], tmp_path: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    """The installed ``brikdesk`` with no display at all (no DISPLAY, no QT_QPA_PLATFORM)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    env["BRIKDESK_HOME"] = str(tmp_path / "home")
    return subprocess.run(
        [str(BIN / "brikdesk"), *args],
        capture_output=True,
        encoding="utf-8",
        env=env,
        timeout=timeout,
        cwd=tmp_path,
        check=False,
    )
