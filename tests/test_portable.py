"""BrikDesk where the POSIX-only calls are missing, as on Windows: a ``sitecustomize`` deletes
from ``os`` the names that ``mypy --platform win32`` finds missing there (Windows has no
``fchmod`` before Python 3.13, no ``O_NONBLOCK``, no ``pathconf``, no ``sysconf``), and the
installed command exports, imports, prints and reports end to end."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

#: What ``mypy --platform win32`` reports missing from ``os`` in BrikDesk's calls.
WINDOWS_MISSING = ("fchmod", "O_NONBLOCK", "pathconf", "sysconf")

SITECUSTOMIZE = f"""
import os
for name in {WINDOWS_MISSING!r}:
    if hasattr(os, name):
        delattr(os, name)
"""

#: Runs the command line after checking that the names are gone (the sitecustomize ran).
DRIVER = f"""
import os, sys
missing = [n for n in {WINDOWS_MISSING!r} if not hasattr(os, n)]
assert len(missing) == {len(WINDOWS_MISSING)}, "the sitecustomize did not run"
from brikdesk.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture
def without_posix(tmp_path: Path):
    """``brikdesk ARGS`` run in a Python where the POSIX-only names are gone."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(site), *filter(None, [os.environ.get("PYTHONPATH")])]),
        BRIKDESK_HOME=str(tmp_path / "home"),
        QT_QPA_PLATFORM="offscreen",
    )

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "-c", DRIVER, *args],
            capture_output=True,
            encoding="utf-8",
            env=env,
            cwd=tmp_path,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, f"brikdesk {' '.join(args)}: {done.stderr}"
        return done

    return run


def test_export_import_print_and_report_work_without_the_posix_only_calls(
    without_posix, tmp_path: Path
) -> None:
    demo = "Demo: Battle for Baseplate Valley"
    out = tmp_path / "campaign.json"
    without_posix("demo")
    without_posix("export", "--out", str(out))
    without_posix("export", "--out", str(out))  # replacing the file, not only making it
    without_posix("import", str(out), "--name", "Imported on Windows")
    listed = without_posix("list").stdout
    assert "Imported on Windows" in listed and demo in listed
    roster = tmp_path / "roster.pdf"
    without_posix("print", "--campaign", demo, "--army", "Red Vanguard", "--out", str(roster))
    report = tmp_path / "campaign.pdf"
    without_posix("report", "--campaign", "Imported on Windows", "--out", str(report))
    markdown = tmp_path / "campaign.md"
    without_posix("report", "--campaign", demo, "--out", str(markdown))
    assert roster.read_bytes().startswith(b"%PDF") and report.read_bytes().startswith(b"%PDF")
    assert markdown.read_text(encoding="utf-8").startswith("#")
    assert demo in markdown.read_text(encoding="utf-8")


def test_the_app_starts_without_the_posix_only_calls(without_posix) -> None:
    """The start-up check reads the process's age through ``sysconf``, where there is one."""
    checked = without_posix("--check-start")
    assert "campaign shown" in checked.stdout
