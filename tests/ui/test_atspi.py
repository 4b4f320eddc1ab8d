"""Every control of the main windows and forms has a name, read by a real screen-reader client
over the AT-SPI bus (Linux's accessibility bus, which Orca reads): BrikDesk runs under Xvfb
with the xcb platform on a session bus, and Debian's python3 with pyatspi walks its tree
(``tests/ui/atspi_app.py``, ``tests/ui/atspi_client.py``). ``.ci/run`` installs xvfb, at-spi2-core, python3-pyatspi, dbus-x11 and
the xcb libraries Qt needs. The client also makes a quick attack through the tree alone."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SYSTEM_PYTHON = "/usr/bin/python3"
#: What a window may not show without a name (AT-SPI's role names).
KINDS = {
    "push button",
    "toggle button",
    "combo box",
    "spin button",
    "text",
    "entry",
    "check box",
    "radio button",
    "table",
    "tree",
    "tree table",
    "list",
    "list box",
}
WINDOWS = (
    "main window",
    "roster",
    "catalog",
    "history",
    "battle panel",
    "quick form",
    "wizard page 1",
    "End battle",
    "Settings",
    "Share",
)


def _needs() -> list[str]:
    missing = [tool for tool in ("Xvfb", "dbus-run-session") if shutil.which(tool) is None]
    pyatspi = subprocess.run(
        [SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True, check=False
    )
    if pyatspi.returncode != 0:
        missing.append("python3-pyatspi")
    return missing


@pytest.fixture
def xvfb() -> object:
    """A virtual X screen of 1366x768 on a display Xvfb picks; its number."""
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1366x768x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as pipe:
        display = pipe.readline().strip()
    try:
        assert display.isdigit(), "Xvfb did not start"
        yield f":{display}"
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.mark.slow
@pytest.mark.timeout(420)
def test_a_screen_reader_can_name_every_control_and_make_a_quick_attack(
    demo_db: str, tmp_path: Path, xvfb: str, capsys
) -> None:
    missing = _needs()
    assert not missing, f"install {' '.join(missing)} (Debian; .ci/run does)"
    out = tmp_path / "atspi.json"
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DBUS_", "AT_SPI", "QT_QPA")) and k != "WAYLAND_DISPLAY"
    }
    env.update(
        DISPLAY=xvfb,
        QT_QPA_PLATFORM="xcb",
        QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
        BRIKDESK_HOME=str(tmp_path),
        NO_AT_BRIDGE="0",
    )
    done = subprocess.run(
        [
            "dbus-run-session",
            "--",
            sys.executable,
            str(HERE / "atspi_app.py"),
            demo_db,
            str(tmp_path / "settings.ini"),
            str(out),
        ],
        env=env,
        capture_output=True,
        encoding="utf-8",
        timeout=400,
        check=False,
    )
    assert done.returncode == 0 and out.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(out.read_text(encoding="utf-8"))
    windows: dict[str, list[list[str]]] = result["windows"]
    assert set(WINDOWS) <= set(windows), sorted(windows)
    counts = {}
    for window, found in windows.items():
        controls = [(role, name) for role, name in found if role in KINDS]
        assert controls, window  # the client really read the window
        unnamed = [role for role, name in controls if not name]
        assert unnamed == [], (window, unnamed, controls)
        counts[window] = len(controls)
    # The form's Target, Range and dice were found by their names and typed into, Record
    # pressed: the attack is in the battle's log.
    steps = result["quick"]
    assert steps[0].startswith("typed") and "Target" in steps[0]
    assert any("Range" in s for s in steps) and steps[-1].startswith("pressed 'Record")
    assert result["recorded"], steps
    with capsys.disabled():
        print("\nAT-SPI controls checked per window:", json.dumps(counts))
        print("quick attack through AT-SPI:", "; ".join(steps), "->", result["recorded"][0])
