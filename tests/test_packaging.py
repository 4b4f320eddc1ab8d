"""What turns the project into something a user installs: the .desktop entry and the AppStream
metainfo pass the freedesktop validators, the icon comes in every hicolor size, and the
PyInstaller spec bundles what the analysis of imports cannot see (packaging/build.sh builds the
app, packaging/check.sh checks it; .ci/run runs both)."""

from __future__ import annotations

import ast
import shutil
import struct
import subprocess
import tomllib
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
