"""High-DPI screens, large fonts and a desktop monitor: at 150% on a 1920x1080 screen and 200%
on a 2560x1440 one (both 1280x720 logical pixels, ``QT_SCALE_FACTOR``), with the application's
font at 14 points on a 1366x768 laptop, and on a 1920x1080 monitor, the main window, a roster,
the history's tabs, the battle panel, the quick attack form and the combat wizard's pages fit
the screen, cut no text and never scroll sideways (``tests/ui/screen_check.py`` looks, in a
process of its own per screen)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CHECK = Path(__file__).resolve().parent / "screen_check.py"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("scale", "width", "height", "font_pt", "logical"),
    [
        ("1.5", 1920, 1080, None, (1280, 720)),
        ("2", 2560, 1440, None, (1280, 720)),
        ("1", 1366, 768, 14, (1366, 768)),
        ("1", 1920, 1080, None, (1920, 1080)),
    ],
    ids=["150%-1920x1080", "200%-2560x1440", "14pt-1366x768", "1920x1080"],
)
def test_the_main_windows_fit_high_dpi_screens_and_large_fonts(
    demo_db: str, tmp_path: Path, scale, width, height, font_pt, logical, capsys
) -> None:
    screens = tmp_path / "screen.json"
    screens.write_text(
        json.dumps(
            {
                "screens": [
                    {
                        "name": "screen",
                        "x": 0,
                        "y": 0,
                        "width": width,
                        "height": height,
                        "logicalDpi": 96,
                        "logicalBaseDpi": 96,
                        "dpr": 1,
                    }
                ]
            }
        ),
        encoding="utf-8",
    )
    out = tmp_path / "report.json"
    env = dict(
        os.environ,
        QT_QPA_PLATFORM=f"offscreen:configfile={screens}",
        QT_SCALE_FACTOR=scale,
        BRIKDESK_HOME=str(tmp_path),
    )
    args = [sys.executable, str(CHECK), demo_db, str(tmp_path / "settings.ini"), str(out)]
    if font_pt is not None:
        args.append(str(font_pt))
    done = subprocess.run(
        args, env=env, capture_output=True, encoding="utf-8", timeout=240, check=False
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert tuple(report["screen"]) == logical  # the logical screen the windows are laid on
    assert report["ratio"] == pytest.approx(float(scale))
    if font_pt is not None:
        assert report["font"] == font_pt
    windows = report["windows"]
    assert {
        "main window",
        "roster",
        "history tab 3",
        "battle panel",
        "quick form",
        "wizard page 1",
    } <= set(windows)
    assert {name: found for name, found in windows.items() if found} == {}
    if logical == (1920, 1080):  # a desktop monitor has room: nothing is shortened with "…"
        assert {name: found for name, found in report["elided"].items() if found} == {}
    with capsys.disabled():
        print(f"\n{scale}x on {width}x{height}, font {report['font']} pt: {sorted(windows)} fit")
