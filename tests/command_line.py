"""Running the installed ``brikdesk`` command as a user would, for the tests of the command line
(tests/test_cli.py) and of the README's examples (tests/test_readme_examples.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent


def run(
    args: list[str], tmp_path: Path, timeout: float = 60, path: str = ""
) -> subprocess.CompletedProcess:
    """Run ``args`` in ``tmp_path`` as its user data folder (``path``: put first on PATH)."""
    env = dict(os.environ, BRIKDESK_HOME=str(tmp_path), QT_QPA_PLATFORM="offscreen")
    if path:
        env["PATH"] = path + os.pathsep + env.get("PATH", "")
    return subprocess.run(
        args,
        capture_output=True,
        encoding="utf-8",
        env=env,
        timeout=timeout,
        cwd=tmp_path,
        check=False,
    )
