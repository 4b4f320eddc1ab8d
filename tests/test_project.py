"""The project as a whole: layering contracts, lint, layout, resources, packaging files and the
quick-start scripts the README promises."""

from __future__ import annotations

import ast
import configparser
import os
import re
import struct
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import brikdesk
import ui
from brikdesk.paths import APP_ID, resource_path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
QT_PACKAGES = {"PySide6", "shiboken6", "pyqtgraph"}


def tool(name: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(BIN / name), *args],
        cwd=ROOT,
        capture_output=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )


# -- architecture and lint --------------------------------------------------------------------


def test_import_linter_contracts_are_kept() -> None:
    done = tool("lint-imports", "--no-cache")
    assert done.returncode == 0, done.stdout + done.stderr
    kept = re.search(r"Contracts: (\d+) kept, (\d+) broken", done.stdout)
    assert kept is not None, done.stdout
    assert int(kept.group(1)) >= 3 and kept.group(2) == "0"


def test_ruff_is_clean() -> None:
    done = tool("ruff", "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr


#: The folders whose Python files the encoding scan reads (everything of the project's own).
PYTHON_FOLDERS = ("brikdesk", "ui", "tests", "benchmarks", "packaging", "scripts")


def _default_encoding(node: ast.Call) -> bool:
    keywords = {k.arg: k.value for k in node.keywords}
    if "encoding" in keywords:
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    method = isinstance(func, ast.Attribute)
    text = keywords.get("text")
    if isinstance(text, ast.Constant) and text.value is True:
        return True
    if method and name in ("read_text", "write_text"):
        return len(node.args) < (1 if name == "read_text" else 2)
    if name != "open":
        return False
    # open(path, mode) or path.open(mode); os.open and Services.open(db) are not text.
    mode = keywords.get("mode") or (
        node.args[0] if method and node.args else (node.args[1] if len(node.args) > 1 else None)
    )
    if not (isinstance(mode, ast.Constant) and isinstance(mode.value, str)):
        return not method and mode is None
    return "b" not in mode.value


def calls_without_encoding(source: str) -> list[int]:
    """The lines of ``source`` that read or write text in the platform's default encoding:
    ``Path.read_text()``/``write_text(data)``, ``open(..)`` or ``Path.open("w")`` in text mode,
    or ``subprocess`` with ``text=True``, none of them naming ``encoding=``. ruff's PLW1514
    sees only ``open()`` and a literal ``Path(..)``; a Windows console or a locale that is not
    UTF-8 turns the default into cp1252 or ASCII."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and _default_encoding(node)
    )


def test_the_encoding_scan_finds_each_default_encoding_call() -> None:
    source = (
        "p.read_text()\np.read_text(encoding='utf-8')\np.write_text('x')\n"
        "p.write_text('x', 'utf-8')\nopen(f)\nopen(f, 'rb')\nopen(f, 'w', encoding='ascii')\n"
        "p.open('a')\np.open('wb')\nServices.open(db)\nos.open(f, os.O_RDONLY)\n"
        "subprocess.run(a, text=True)\nsubprocess.run(a, encoding='utf-8')\n"
    )
    assert calls_without_encoding(source) == [1, 3, 5, 8, 12]


def test_every_text_file_read_or_written_names_its_encoding() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for folder in PYTHON_FOLDERS
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line in calls_without_encoding(path.read_text(encoding="utf-8"))
    ]
    assert found == [], f"no encoding= (the platform's default is not UTF-8 everywhere): {found}"


def test_both_packages_come_from_this_checkout() -> None:
    # `ui` is a generic name: make sure it is ours, not another installed package.
    assert Path(ui.__file__).resolve().is_relative_to(ROOT)
    assert Path(brikdesk.__file__).resolve().is_relative_to(ROOT)


@cache
def _imports(path: Path) -> tuple[tuple[str, bool], ...]:
    """Top-level names a module imports, each with whether the import is inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                found.extend((a.name.split(".")[0], inner) for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                found.append((child.module.split(".")[0], inner))
            visit(child, inner)

    visit(tree, False)
    return tuple(found)


def test_no_brikdesk_module_imports_qt() -> None:
    modules = sorted((ROOT / "brikdesk").rglob("*.py"))
    assert len(modules) > 5
    offenders = [
        f"{p.relative_to(ROOT)}: {name}"
        for p in modules
        for name, _ in _imports(p)
        if name in QT_PACKAGES
    ]
    assert offenders == []


def test_only_the_launcher_reaches_into_ui_and_only_lazily() -> None:
    uses = {
        str(p.relative_to(ROOT)): lazy
        for p in (ROOT / "brikdesk").rglob("*.py")
        for name, lazy in _imports(p)
        if name == "ui"
    }
    # the launcher opens the app; print and report paint PDFs with ui.printing in run()
    assert uses == {
        "brikdesk/cli.py": True,
        "brikdesk/commands/print_.py": True,
        "brikdesk/commands/report.py": True,
    }


def test_versions_agree() -> None:
    assert PYPROJECT["project"]["version"] == brikdesk.__version__


# -- resources --------------------------------------------------------------------------------


def test_the_app_icon_exists_as_svg_and_256_px_png() -> None:
    svg = resource_path(f"icons/{APP_ID}.svg")
    png = resource_path(f"icons/{APP_ID}.png")
    assert ET.parse(svg).getroot().tag == "{http://www.w3.org/2000/svg}svg"
    header = png.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", header[16:24]) == (256, 256)


def test_the_icons_go_into_the_wheel() -> None:
    data_files = PYPROJECT["tool"]["setuptools"]["data-files"]
    assert "resources/icons/*" in data_files["share/brikdesk/resources/icons"]


# -- packaging --------------------------------------------------------------------------------


def _desktop_entry() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(ROOT / "packaging" / f"{APP_ID}.desktop", encoding="utf-8")
    return parser["Desktop Entry"]


def test_desktop_entry() -> None:
    entry = _desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Name"] == "BrikDesk"
    assert entry["Comment"]
    assert entry["Exec"] == "brikdesk"
    assert "brikdesk" in PYPROJECT["project"]["scripts"]
    assert entry["Icon"] == APP_ID
    assert resource_path(f"icons/{entry['Icon']}.svg").is_file()
    assert entry["Terminal"] == "false"
    assert entry["Categories"].endswith(";")
    assert {"Game", "BoardGame"} <= set(entry["Categories"].split(";"))


def test_appstream_metainfo() -> None:
    root = ET.parse(ROOT / "packaging" / f"{APP_ID}.metainfo.xml").getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert root.findtext("name") == "BrikDesk"
    assert root.findtext("summary")
    assert root.findtext("metadata_license")
    assert root.findtext("project_license") == PYPROJECT["project"]["license"]["text"]
    description = root.find("description")
    assert description is not None and description.find("p") is not None
    launchable = root.find("launchable")
    assert launchable is not None and launchable.get("type") == "desktop-id"
    assert launchable.text == f"{APP_ID}.desktop"
    assert (ROOT / "packaging" / launchable.text).is_file()
    rating = root.find("content_rating")
    assert rating is not None and rating.get("type", "").startswith("oars-")
    versions = [r.get("version") for r in root.iter("release")]
    assert brikdesk.__version__ in versions


# -- the quick-start scripts ------------------------------------------------------------------


def _quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Quick start\n(.*?)(?=^#{1,6} )", readme, re.S | re.M)
    assert section is not None, "README.md has no '## Quick start' section"
    blocks = re.findall(r"```(?:sh|bash|console)?\n(.*?)```", section.group(1), re.S)
    return [
        line.strip()
        for block in blocks
        for line in block.splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]


def test_readme_quick_start_has_exactly_two_commands_and_ci_runs_the_test_one() -> None:
    commands = _quick_start_commands()
    assert commands == ["./run-app", "./run-tests"]
    ci = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    # CI calls .ci/run with no arguments; a developer's arguments go on to pytest.
    tests = [i for i, line in enumerate(ci) if line in ("./run-tests", './run-tests "$@"')]
    assert len(tests) == 1
    # Then, with no arguments only, the app is built and checked, the wheel installed with its
    # dependencies into a fresh venv and run (README's Windows and macOS route), and nothing
    # else runs.
    assert ci[tests[0] + 1 :] == [
        "if [ $# -eq 0 ]; then",
        "packaging/build.sh",
        "packaging/check.sh",
        "packaging/check-wheel.sh",
        "fi",
    ]


def test_scripts_are_executable_bash_without_syntax_errors() -> None:
    for name in (
        "run-app",
        "run-tests",
        ".ci/run",
        "scripts/ensure-venv.sh",
        "packaging/build.sh",
        "packaging/check.sh",
        "packaging/check-wheel.sh",
    ):
        path = ROOT / name
        if name == "scripts/ensure-venv.sh":  # sourced, not run
            assert path.read_text(encoding="utf-8").startswith("# shellcheck shell=bash")
        else:
            assert os.access(path, os.X_OK), f"{name} is not executable"
            assert path.read_text(encoding="utf-8").startswith("#!/usr/bin/env bash\n")
        done = subprocess.run(
            ["bash", "-n", str(path)], capture_output=True, encoding="utf-8", check=False
        )
        assert done.returncode == 0, f"{name}: {done.stderr}"


def test_ensure_venv_maps_missing_libraries_to_debian_packages() -> None:
    script = (
        f'source "{ROOT}/scripts/ensure-venv.sh"; debian_packages libxcb-icccm.so.4 '
        "libxkbcommon-x11.so.0 libEGL.so.1 libdbus-1.so.3 libglib-2.0.so.0"
    )
    done = subprocess.run(
        ["bash", "-c", script], capture_output=True, encoding="utf-8", check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == sorted(
        ["libxcb-icccm4", "libxkbcommon-x11-0", "libegl1", "libdbus-1-3", "libglib2.0-0"]
    )


def test_the_entry_scripts_find_the_venvs_scripts_folder_on_either_layout(tmp_path: Path) -> None:
    """Windows' Python makes a venv with Scripts\\ where Linux and macOS have bin/."""
    (tmp_path / "windows" / "Scripts").mkdir(parents=True)
    (tmp_path / "posix" / "bin").mkdir(parents=True)
    found = {}
    for layout in ("windows", "posix", "none-yet"):
        done = subprocess.run(
            ["bash", "-c", f'source "{ROOT}/scripts/ensure-venv.sh"; venv_bin'],
            capture_output=True,
            encoding="utf-8",
            env=dict(os.environ, BRIKDESK_VENV=str(tmp_path / layout)),
            check=False,
        )
        assert done.returncode == 0, done.stderr
        found[layout] = done.stdout.strip()
    assert found == {
        "windows": str(tmp_path / "windows" / "Scripts"),
        "posix": str(tmp_path / "posix" / "bin"),
        "none-yet": str(tmp_path / "none-yet" / "bin"),
    }
    for name in ("run-app", "run-tests", "packaging/build.sh", "packaging/check-wheel.sh"):
        assert '"$VENV/bin/' not in (ROOT / name).read_text(encoding="utf-8"), name


def test_run_app_opens_the_window_on_macos_where_there_is_no_display_variable(
    tmp_path: Path,
) -> None:
    """macOS has no DISPLAY: ./run-app must not stop there as it does on Linux without X11.
    A stand-in ``uname`` says Darwin; Qt (on this Linux) then fails to find a window system,
    which shows that BrikDesk itself was started."""
    fake = tmp_path / "fake-bin"
    fake.mkdir()
    (fake / "uname").write_text("#!/bin/sh\necho Darwin\n", encoding="utf-8")
    (fake / "uname").chmod(0o755)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    env["BRIKDESK_HOME"] = str(tmp_path / "home")
    outcomes = {}
    for system, path in (("Darwin", f"{fake}{os.pathsep}{env['PATH']}"), ("Linux", env["PATH"])):
        done = subprocess.run(
            [str(ROOT / "run-app"), "--check-start"],
            capture_output=True,
            encoding="utf-8",
            env=dict(env, PATH=path),
            cwd=tmp_path,
            timeout=120,
            check=False,
        )
        outcomes[system] = done.stderr
    assert "No display found" not in outcomes["Darwin"]
    assert "Qt platform plugin" in outcomes["Darwin"]  # brikdesk ran and asked Qt for one
    assert "No display found (DISPLAY is not set)" in outcomes["Linux"]


def test_readme_command_line_section_lists_every_command_with_its_options() -> None:
    """Every subcommand and every option of it (and of `brikdesk` itself) is in the README."""
    from brikdesk.cli import COMMANDS, build_parser

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Command line\n(.*?)(?=^## )", readme, re.S | re.M)
    assert section is not None, "README.md has no '## Command line' section"
    rows = {
        m.group(1): m.group(0)
        for m in re.finditer(r"^\| `brikdesk (\w+)[^`]*` \|.*$", section.group(1), re.M)
    }
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    missing = []
    for name in COMMANDS:
        if name not in rows:
            missing.append(f"brikdesk {name}")
            continue
        for action in sub.choices[name]._actions:
            missing += [
                f"brikdesk {name} {opt}"
                for opt in action.option_strings
                if opt.startswith("--") and opt != "--help" and opt not in rows[name]
            ]
    missing += [
        opt
        for a in parser._actions
        for opt in a.option_strings
        if opt.startswith("--") and opt != "--help" and f"`brikdesk {opt}" not in readme
    ]
    assert missing == [], f"README.md's command line section does not mention: {missing}"


# -- class size -------------------------------------------------------------------------------

#: The most lines a class of brikdesk/ or ui/ may span: a longer one does several
#: jobs and is split by job, not by cutting it in half.
MAX_CLASS_LINES = 500


def class_lengths(source: str, name: str) -> dict[str, int]:
    """``{"name:Class": lines}`` for every class in ``source`` (nested ones too), from its
    first decorator or ``class`` line to its last line."""
    out = {}
    for node in ast.walk(ast.parse(source, filename=name)):
        if isinstance(node, ast.ClassDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            out[f"{name}:{node.name}"] = (node.end_lineno or node.lineno) - first + 1
    return out


def test_the_class_scan_measures_from_the_first_decorator_to_the_last_line() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_CLASS_LINES))
    source = f"@dataclass\nclass Big:\n{body}\n\n\nclass Small:\n    class Inner:\n        y = 1\n"
    assert class_lengths(source, "m.py") == {
        "m.py:Big": MAX_CLASS_LINES + 2,
        "m.py:Small": 3,
        "m.py:Inner": 2,
    }


def test_no_class_is_over_the_limit() -> None:
    found: dict[str, int] = {}
    for package in ("brikdesk", "ui"):
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            found |= class_lengths(path.read_text(encoding="utf-8"), name)
    assert len(found) > 100  # the scan read the packages
    over = {name: n for name, n in found.items() if n > MAX_CLASS_LINES}
    assert over == {}, f"over {MAX_CLASS_LINES} lines: {over}"


# -- checked types ----------------------------------------------------------------------------


def test_types_are_checked_strictly_and_without_blanket_ignores() -> None:
    """./run-tests runs mypy: strict for brikdesk and ui, and no file or module opted out (no
    ignore_errors, no bare `# type: ignore`)."""
    config = PYPROJECT["tool"]["mypy"]
    assert set(config["files"]) == {"brikdesk", "ui"}
    overrides = {tuple(o["module"]): o for o in config["overrides"]}
    assert overrides[("brikdesk.*",)].get("strict") is True
    assert overrides[("ui.*",)].get("strict") is True
    assert not any(o.get("ignore_errors") for o in config["overrides"])
    run_tests = (ROOT / "run-tests").read_text(encoding="utf-8")
    assert re.search(r'^step "mypy" .*mypy', run_tests, re.M)
    # Windows and macOS too: a POSIX-only call without its fallback fails there.
    assert re.search(r'^step "mypy \(Windows\)" .*mypy" --platform win32', run_tests, re.M)
    assert re.search(r'^step "mypy \(macOS\)" .*mypy" --platform darwin', run_tests, re.M)
    bare = [
        f"{p.relative_to(ROOT)}:{n}"
        for package in ("brikdesk", "ui")
        for p in sorted((ROOT / package).rglob("*.py"))
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"#\s*type:\s*ignore(?!\[)", line)
    ]
    assert bare == []
    assert (ROOT / "brikdesk" / "py.typed").is_file() and (ROOT / "ui" / "py.typed").is_file()


# -- the tests' layout ------------------------------------------------------------------------

TESTS = ROOT / "tests"
#: Test folders that mirror no package: what they test cuts across the packages.
CROSS_CUTTING_TEST_DIRS = {"concurrency"}  # two organizers on one database, real processes
#: The test files that sit beside the package folders rather than in one, each with what it
#: tests: a top-level module, or the project as a whole. A test of a module inside a package
#: goes in that package's folder (ui/panels -> tests/ui/panels, brikdesk/domain -> tests/domain).
FLAT_TESTS = {
    "tests/test_benchmarks.py": "benchmarks",  # each script runs in its quick mode
    "tests/test_cache.py": "brikdesk/cache.py",
    "tests/test_cli.py": "brikdesk/cli.py",
    "tests/test_conventions.py": "docs/conventions.md",
    "tests/test_coverage_report.py": "scripts/coverage_report.py",
    "tests/test_files.py": "brikdesk/files.py",
    "tests/test_import_graph.py": "ui",  # and brikdesk: no import circle, parts apart
    "tests/test_no_private_imports.py": "brikdesk",  # and ui: the imports between modules
    "tests/test_packaging.py": "packaging",
    "tests/test_project.py": "pyproject.toml",
    "tests/test_readme_examples.py": "README.md",  # its examples run as written
    "tests/test_portable.py": "brikdesk",  # and ui: on Windows, macOS, any console encoding
    "tests/test_user_guide.py": "docs/user-guide.md",
    "tests/ui/test_app.py": "ui/app.py",
    "tests/ui/test_collector.py": "ui/collector.py",
    "tests/ui/test_crash.py": "ui/crash.py",
    "tests/ui/test_start_up.py": "ui/app.py",
    "tests/ui/test_qt_start.py": "ui/qt_start.py",
    "tests/ui/test_live_refresh.py": "ui/live.py",
    "tests/ui/test_undo_path.py": "ui/undo.py",
    "tests/ui/test_workers.py": "ui/workers.py",
    "tests/ui/test_background_writes.py": "ui/operation.py",  # writes off the GUI thread
    "tests/ui/test_enter_records.py": "ui",  # Enter in every dialog records, never cancels
    "tests/ui/test_passing_wheel.py": "ui/wheel.py",
    "tests/ui/test_dialogs_ready.py": "ui/screen.py",  # every dialog and window on a laptop
    "tests/ui/test_colours.py": "ui/colours.py",  # and ui/appearance.py: the themes
    "tests/ui/test_accessible_names.py": "ui",  # every control's name, Tab's order
    "tests/ui/test_atspi.py": "ui",  # the same through a real AT-SPI client
    "tests/ui/test_screens.py": "ui/screen.py",  # high-DPI screens and large fonts
}


def test_pytest_refuses_an_undeclared_marker() -> None:
    """A misspelt marker (``@pytest.mark.sqlite_onyl``) stops the run instead of doing nothing:
    every marker is declared in pyproject.toml or by a plugin."""
    assert "--strict-markers" in PYPROJECT["tool"]["pytest"]["ini_options"]["addopts"].split()


def mirrored_package(folder: Path) -> Path:
    """The package a test folder mirrors: tests/ui/X is ui/X, any other tests/X is brikdesk/X."""
    rel = folder.relative_to(TESTS)
    return ROOT / rel if rel.parts[0] == "ui" else ROOT / "brikdesk" / rel


def test_every_test_folder_mirrors_a_package_and_is_a_package() -> None:
    """Each folder of tests/ is a package (pytest imports tests/domain/test_history.py as
    tests.domain.test_history, so two folders may hold files of the same name) and mirrors a
    package of the source, unless it is one of the cross-cutting folders."""
    folders = [p for p in sorted(TESTS.rglob("*")) if p.is_dir() and any(p.glob("*.py"))]
    assert len(folders) >= 10  # the scan found the folders
    wrong = []
    for folder in folders:
        rel = folder.relative_to(TESTS).as_posix()
        if not (folder / "__init__.py").is_file():
            wrong.append(f"tests/{rel} has no __init__.py")
        top = rel.split("/")[0]
        if (
            top not in CROSS_CUTTING_TEST_DIRS
            and not (mirrored_package(folder) / "__init__.py").is_file()
        ):
            wrong.append(
                f"tests/{rel} mirrors no package ({mirrored_package(folder).relative_to(ROOT)})"
            )
    assert wrong == []


def test_only_the_listed_test_files_sit_beside_the_package_folders() -> None:
    """A new test file goes in the folder of the package it tests; one that tests a top-level
    module or the whole project is listed in FLAT_TESTS with what it tests."""
    flat = {
        p.relative_to(ROOT).as_posix()
        for folder in (TESTS, TESTS / "ui")
        for p in folder.glob("test_*.py")
    }
    assert flat == set(FLAT_TESTS), (
        "put a test in the folder of the package it tests (tests/ui/panels/, tests/domain/...)"
    )
    assert all((ROOT / tested).exists() for tested in FLAT_TESTS.values())


def imported_test_modules(source: str) -> list[str]:
    """The test modules (``test_*``, in ``tests`` or relative) that ``source`` imports, or
    imports a name from."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("tests.")]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if node.level or module.startswith("tests."):
                found += [module, *(f"{module.rstrip('.')}.{a.name}" for a in node.names)]
    return [name for name in found if name.rsplit(".", 1)[-1].startswith("test_")]


def test_the_scan_finds_a_test_module_imported_in_any_form() -> None:
    source = (
        "from tests.ui.test_wizard import page\n"
        "from tests.ui import test_dialogs_ready as ready\n"
        "import tests.domain.test_report\n"
        "from .test_history import t\n"
        "from tests.ui.wizard_steps import page, to_result\n"
        "from brikdesk.domain import test_data_elsewhere\n"
    )
    assert imported_test_modules(source) == [
        "tests.ui.test_wizard",
        "tests.ui.test_dialogs_ready",
        "tests.domain.test_report",
        ".test_history",
    ]


def test_no_test_file_imports_another() -> None:
    """What tests share lives in helper modules (tests/ui/wizard_steps.py,
    tests/domain/sherwood.py...) or conftest.py fixtures, so each test file can move or run
    alone, and pytest never imports a test file a second time as someone's helper."""
    modules = sorted(TESTS.rglob("*.py"))
    assert len(modules) > 100
    found = [
        f"{p.relative_to(ROOT)}: {name}"
        for p in modules
        for name in imported_test_modules(p.read_text(encoding="utf-8"))
    ]
    assert found == []
