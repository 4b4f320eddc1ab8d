"""BrikDesk where the POSIX-only calls are missing, as on Windows: a ``sitecustomize`` deletes
from ``os`` the names that ``mypy --platform win32`` finds missing there (Windows has no
``fchmod`` before Python 3.13, no ``O_NONBLOCK``, no ``pathconf``, no ``sysconf``), and the
installed command exports, imports, prints and reports end to end."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
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


# -- a console that is not UTF-8 ----------------------------------------------------------------

#: A Windows pipe or file (cp1252) and a C locale: BrikDesk still reads and writes UTF-8.
CP1252_CONSOLE = {"PYTHONIOENCODING": "cp1252", "LC_ALL": "C"}
POLISH = "Kampania Łódź"


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory):
    """``brikdesk ARGS`` (bytes in, bytes out) in a cp1252 console, over a database with the
    demo and a copy of it named "Kampania Łódź"."""
    home = tmp_path_factory.mktemp("cp1252")
    env = dict(os.environ, BRIKDESK_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    env.pop("LANG", None)
    env.update(CP1252_CONSOLE)

    def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [str(BIN / "brikdesk"), *args],
            input=stdin,
            capture_output=True,
            env=env,
            cwd=home,
            timeout=120,
            check=False,
        )

    assert run("demo").returncode == 0
    demo = run("export", "--out", str(home / "demo.json"))
    assert demo.returncode == 0, demo.stderr
    polish = run("import", str(home / "demo.json"), "--name", POLISH)
    assert polish.returncode == 0, polish.stderr
    run.env = env
    return run


def test_history_writes_its_arrows_in_utf8_to_a_cp1252_console(console) -> None:
    done = console("history", "--campaign", "Demo")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert "→" in done.stdout.decode("utf-8")


def test_list_names_a_polish_campaign_in_utf8_to_a_cp1252_console(console) -> None:
    done = console("list")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert f"Campaign 2: {POLISH}" in done.stdout.decode("utf-8")


def test_an_export_to_standard_output_is_utf8_and_imports_back_through_a_pipe(
    console, tmp_path: Path
) -> None:
    exported = console("export", "--campaign", POLISH, "--out", "-")
    assert exported.returncode == 0, exported.stderr.decode("utf-8", "replace")
    assert f'"name": "{POLISH}"' in exported.stdout.decode("utf-8")
    env = console.env
    with subprocess.Popen(
        [str(BIN / "brikdesk"), "export", "--campaign", POLISH, "--out", "-"],
        stdout=subprocess.PIPE,
        env=env,
    ) as export:
        imported = subprocess.run(
            [str(BIN / "brikdesk"), "import", "-", "--name", f"{POLISH} (piped)"],
            stdin=export.stdout,
            capture_output=True,
            env=env,
            timeout=120,
            check=False,
        )
        assert export.wait(timeout=60) == 0
    assert imported.returncode == 0, imported.stderr.decode("utf-8", "replace")
    assert f"Imported '{POLISH} (piped)'" in imported.stdout.decode("utf-8")
    # The same bytes redirected to a file (cmd's `>`) import too.
    saved = tmp_path / "saved.json"
    saved.write_bytes(exported.stdout)
    again = console("import", str(saved), "--name", f"{POLISH} (file)")
    assert again.returncode == 0, again.stderr.decode("utf-8", "replace")


def test_an_export_saved_as_utf16_by_powershell_imports(console, tmp_path: Path) -> None:
    """Windows PowerShell 5's ``>`` writes UTF-16 little-endian with a byte order mark."""
    text = console("export", "--campaign", POLISH, "--out", "-").stdout.decode("utf-8")
    for codec, bom in (("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")):
        path = tmp_path / f"{codec}.json"
        path.write_bytes(bom + text.encode(codec))
        done = console("import", str(path), "--name", f"{POLISH} ({codec})")
        assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
        assert f"Imported '{POLISH} ({codec})'" in done.stdout.decode("utf-8")
    broken = tmp_path / "broken.json"
    broken.write_bytes(b"\xff\xfe" + text.encode("utf-16-le")[:-1])  # one byte short
    refused = console("import", str(broken), "--name", "Broken")
    assert refused.returncode == 2
    assert "not UTF-16 text after its byte order mark" in refused.stderr.decode("utf-8")


def test_share_says_where_it_serves_a_polish_campaign_in_a_cp1252_console(console) -> None:
    args = ["share", "--campaign", POLISH, "--bind", "127.0.0.1", "--port", "0"]
    with subprocess.Popen(
        [str(BIN / "brikdesk"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=console.env,
    ) as share:
        try:
            ready, _, _ = select.select([share.stdout], [], [], 60)
            assert ready, "no Serving line within 60 s"
            line = share.stdout.readline().decode("utf-8")
        finally:
            share.terminate()
            share.wait(timeout=30)
        errors = share.stderr.read().decode("utf-8", "replace")
    assert line.startswith(f"Serving {POLISH} at http://127.0.0.1:"), errors


HELD_BY_A_VIEWER = """
import os
_replace = os.replace
def replace(src, dst, *args, **kwargs):
    if os.fspath(dst).endswith("held.pdf"):  # as Windows answers while a viewer has it open
        raise PermissionError(13, "The process cannot access the file because it is being used")
    return _replace(src, dst, *args, **kwargs)
os.replace = replace
"""


def test_a_pdf_a_viewer_holds_open_is_named_so_on_the_command_line(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(HELD_BY_A_VIEWER, encoding="utf-8")
    env = dict(os.environ, BRIKDESK_HOME=str(tmp_path / "home"), PYTHONPATH=str(site))
    held = tmp_path / "held.pdf"
    held.write_bytes(b"%PDF the old report")

    def brikdesk(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(BIN / "brikdesk"), *args],
            capture_output=True,
            encoding="utf-8",
            env=env,
            timeout=120,
            check=False,
        )

    assert brikdesk("demo").returncode == 0
    done = brikdesk("report", "--campaign", "Demo", "--out", str(held))
    assert done.returncode == 2
    assert f"cannot write {held}: another program has the file open" in done.stderr
    assert held.read_bytes() == b"%PDF the old report"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []
