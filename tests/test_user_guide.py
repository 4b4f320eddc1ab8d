"""docs/user-guide.md: its pictures exist, and docs/make_screenshots.py makes exactly them from
the real windows (offscreen), so that they stay current."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "user-guide.md"
IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")


def _links() -> list[tuple[str, str]]:
    return IMAGE.findall(GUIDE.read_text(encoding="utf-8"))


def _png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")
    return width, height


def test_every_picture_of_the_guide_exists_and_has_a_caption() -> None:
    links = _links()
    # the main window, roster, Add units, catalog, battle panel, combat wizard and its Action
    # Roll page, the quick attack form and a quick Strike, history, the Share dialog and the
    # players' page, print preview; a group Sprint, End turn's MOM question and what is left to
    # the table; the main window, a roster, the battle panel, the quick form and the wizard in
    # the light and the dark theme
    assert len(links) == 26
    for caption, target in links:
        assert caption.strip(), target
        path = GUIDE.parent / target
        assert path.is_file(), f"{target} is missing: run docs/make_screenshots.py"
        width, height = _png_size(path)
        assert width >= 600 and height >= 400, (target, width, height)


@pytest.mark.slow
def test_the_screenshot_script_makes_every_picture_of_the_guide(tmp_path: Path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "make_screenshots.py"), "--out", str(tmp_path)],
        capture_output=True,
        encoding="utf-8",
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    made = sorted(p.name for p in tmp_path.glob("*.png"))
    linked = sorted(Path(target).name for _, target in _links())
    assert made == linked
    for name in made:  # a picture of a real window, not an empty grab
        width, height = _png_size(tmp_path / name)
        assert width >= 600 and height >= 400, (name, width, height)
        assert (tmp_path / name).stat().st_size > 10_000, name
