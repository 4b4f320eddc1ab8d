"""What turns the project into something a user installs: the .desktop entry and the AppStream
metainfo pass the freedesktop validators, the icon comes in every hicolor size, and the
PyInstaller spec bundles what the analysis of imports cannot see (packaging/build.sh builds the
app, packaging/check.sh checks it; .ci/run runs both)."""

from __future__ import annotations

import ast
import shutil
import struct
import subprocess
import sys
import tomllib
import types
from pathlib import Path

import pytest

from brikdesk.paths import APP_ID

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
HICOLOR_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def _validator(name: str) -> str:
    path = shutil.which(name)
    if path is None:  # .ci/run installs them (Debian: desktop-file-utils, appstream)
        pytest.skip(f"{name} is not installed")
    return path


def test_the_desktop_entry_passes_desktop_file_validate() -> None:
    done = subprocess.run(
        [_validator("desktop-file-validate"), str(PACKAGING / f"{APP_ID}.desktop")],
        capture_output=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    # It prints nothing for a valid file; hints and errors alike are lines of output.
    assert done.returncode == 0 and done.stdout.strip() == "", done.stdout + done.stderr


def test_the_metainfo_passes_appstreamcli_validate() -> None:
    done = subprocess.run(
        [
            _validator("appstreamcli"),
            "validate",
            "--no-net",
            str(PACKAGING / f"{APP_ID}.metainfo.xml"),
        ],
        capture_output=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Validation was successful" in done.stdout
    assert " E: " not in done.stdout and " W: " not in done.stdout, done.stdout


def _png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", header[16:24])


def test_the_icon_is_installed_in_every_hicolor_size_and_as_svg() -> None:
    data_files = PYPROJECT["tool"]["setuptools"]["data-files"]
    assert data_files["share/icons/hicolor/scalable/apps"] == [f"resources/icons/{APP_ID}.svg"]
    for size in HICOLOR_SIZES:
        files = data_files[f"share/icons/hicolor/{size}x{size}/apps"]
        assert files == [f"packaging/icons/{size}x{size}/{APP_ID}.png"]
        assert _png_size(ROOT / files[0]) == (size, size)
    # The app's own 256 px fallback and the installed one are the same picture.
    assert (ROOT / f"packaging/icons/256x256/{APP_ID}.png").read_bytes() == (
        ROOT / f"resources/icons/{APP_ID}.png"
    ).read_bytes()


def test_the_desktop_entry_and_metainfo_are_installed_where_desktops_look() -> None:
    data_files = PYPROJECT["tool"]["setuptools"]["data-files"]
    assert data_files["share/applications"] == [f"packaging/{APP_ID}.desktop"]
    assert data_files["share/metainfo"] == [f"packaging/{APP_ID}.metainfo.xml"]


def test_the_spec_bundles_the_resources_and_the_migration_scripts() -> None:
    spec = (PACKAGING / "brikdesk.spec").read_text(encoding="utf-8")
    ast.parse(spec)  # a spec is Python
    # brikdesk.paths looks for sys._MEIPASS/resources; Alembic reads its scripts as files
    # beside brikdesk.persistence.db, and they must all be there (check.sh migrates with them).
    assert '(str(ROOT / "resources"), "resources")' in spec
    assert '"brikdesk" / "persistence" / "migrations"' in spec
    assert '".py", ".mako"' in spec
    # The subcommands and services are imported by name: the analysis cannot follow them.
    assert 'collect_submodules("brikdesk")' in spec and 'collect_submodules("ui")' in spec
    assert 'collect_submodules("alembic"' in spec
    # One folder: the binaries go to COLLECT, not into the executable.
    assert "exclude_binaries=True" in spec and "COLLECT(" in spec


@pytest.mark.slow
def test_the_wheel_installs_into_a_fresh_venv_and_runs_from_outside_the_checkout() -> None:
    """README's Windows and macOS route, as far as Linux goes: packaging/check-wheel.sh builds
    the wheel, installs it into a new venv in a temporary folder (the dependencies borrowed
    from .venv here; .ci/run installs them with pip) and runs --version, --check-start and
    `list` from there, BrikDesk imported from that venv; the windowed launcher is there."""
    done = subprocess.run(
        [str(PACKAGING / "check-wheel.sh"), "--borrow-deps"],
        capture_output=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "==> brikdesk --check-start: ok" in done.stdout
    assert "campaign shown" in done.stdout
    assert done.stdout.rstrip().endswith("the wheel installs and runs from a fresh venv")


def test_the_wheel_has_a_windowed_launcher_beside_the_command() -> None:
    project = PYPROJECT["project"]
    assert project["scripts"] == {"brikdesk": "brikdesk.cli:main"}
    assert project["gui-scripts"] == {"brikdesk-app": "brikdesk.cli:gui_main"}


def run_spec(platform: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, list[dict]]:
    """Execute brikdesk.spec as PyInstaller would on ``platform`` ("win32", "darwin",
    "linux"), with PyInstaller's build steps replaced by recorders: the keyword arguments of
    each EXE, COLLECT and BUNDLE it makes."""
    made: dict[str, list[dict]] = {"EXE": [], "COLLECT": [], "BUNDLE": []}

    def step(kind: str):
        def record(*args: object, **kwargs: object) -> types.SimpleNamespace:
            made[kind].append({"args": args, **kwargs})
            return types.SimpleNamespace(kind=kind, **kwargs)

        return record

    hooks = types.ModuleType("PyInstaller.utils.hooks")
    hooks.collect_submodules = lambda *args, **kwargs: []
    for name in ("PyInstaller", "PyInstaller.utils"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "PyInstaller.utils.hooks", hooks)
    monkeypatch.setattr(sys, "platform", platform)
    analysis = types.SimpleNamespace(pure=[], scripts=[], binaries=[], datas=[])
    spec_globals = {
        "SPECPATH": str(PACKAGING),
        "Analysis": lambda *args, **kwargs: analysis,
        "PYZ": lambda *args, **kwargs: "pyz",
        "EXE": step("EXE"),
        "COLLECT": step("COLLECT"),
        "BUNDLE": step("BUNDLE"),
    }
    source = (PACKAGING / "brikdesk.spec").read_text(encoding="utf-8")
    exec(compile(source, "brikdesk.spec", "exec"), spec_globals)
    return made


def test_the_spec_makes_a_windowed_windows_program_beside_the_console_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = run_spec("win32", monkeypatch)
    programs = {exe["name"]: exe for exe in made["EXE"]}
    assert programs["BrikDesk"]["console"] is False  # no console window beside the app
    assert programs["brikdesk"]["console"] is True  # the command line
    assert {exe["icon"] for exe in made["EXE"]} == {str(PACKAGING / "icons" / "brikdesk.ico")}
    assert len(made["COLLECT"]) == 1 and made["COLLECT"][0]["name"] == "brikdesk"
    assert made["BUNDLE"] == []


def test_the_spec_makes_a_macos_app_with_its_icon_and_bundle_id(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = run_spec("darwin", monkeypatch)
    (exe,) = made["EXE"]
    assert exe["console"] is False and exe["name"] == "brikdesk"
    (bundle,) = made["BUNDLE"]
    assert bundle["name"] == "BrikDesk.app"
    assert bundle["bundle_identifier"] == APP_ID
    assert bundle["icon"] == str(PACKAGING / "icons" / "brikdesk.icns")
    assert bundle["version"] == PYPROJECT["project"]["version"]
    assert bundle["info_plist"]["NSHighResolutionCapable"] is True


def test_the_spec_on_linux_stays_one_console_program(monkeypatch: pytest.MonkeyPatch) -> None:
    """What packaging/build.sh and check.sh (CI) build and check: dist/brikdesk/brikdesk."""
    made = run_spec("linux", monkeypatch)
    (exe,) = made["EXE"]
    assert exe["name"] == "brikdesk" and exe["console"] is True and exe["icon"] is None
    assert made["BUNDLE"] == []


def png_size(png: bytes) -> int:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert width == height
    return width


def ico_sizes(data: bytes) -> list[int]:
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1)
    sizes = []
    for n in range(count):
        side, _, _, _, _, _, length, offset = struct.unpack(
            "<BBBBHHII", data[6 + 16 * n : 22 + 16 * n]
        )
        size = png_size(data[offset : offset + length])
        assert side == (0 if size == 256 else size)
        sizes.append(size)
    return sizes


def icns_types(data: bytes) -> list[tuple[bytes, int]]:
    assert data[:4] == b"icns" and struct.unpack(">I", data[4:8])[0] == len(data)
    found, at = [], 8
    while at < len(data):
        kind, length = data[at : at + 4], struct.unpack(">I", data[at + 4 : at + 8])[0]
        found.append((kind, png_size(data[at + 8 : at + length])))
        at += length
    assert at == len(data)
    return found


def test_the_windows_and_mac_icons_hold_every_size_rendered_from_the_svg(
    tmp_path: Path, qapp
) -> None:
    # ``qapp``: the QApplication the Qt tests share, made first. Left to itself the script
    # makes a QGuiApplication, and every later widget in this process aborts.
    sys.path.insert(0, str(PACKAGING))
    try:
        import render_icon
    finally:
        sys.path.remove(str(PACKAGING))
    render_icon.write_icons(tmp_path / "b.ico", tmp_path / "b.icns")
    ico_made = ico_sizes((tmp_path / "b.ico").read_bytes())
    icns_made = icns_types((tmp_path / "b.icns").read_bytes())
    assert ico_made == [16, 24, 32, 48, 64, 128, 256]
    assert dict(icns_made)[b"ic10"] == 1024 and dict(icns_made)[b"icp4"] == 16
    assert icns_made == list(render_icon.ICNS_TYPES)
    # The committed ones (what the spec gives PyInstaller) are the same kind of file.
    assert ico_sizes((PACKAGING / "icons" / "brikdesk.ico").read_bytes()) == ico_made
    assert icns_types((PACKAGING / "icons" / "brikdesk.icns").read_bytes()) == icns_made
