"""Render the app icon's PNG from its SVG with Qt (run after editing the SVG).

    .venv/bin/python packaging/render_icon.py            # writes resources/icons/<id>.png
    .venv/bin/python packaging/render_icon.py --size 512 --out /tmp/icon-512.png
    .venv/bin/python packaging/render_icon.py --hicolor  # packaging/icons/<N>x<N>/<id>.png

The hicolor sizes (HICOLOR_SIZES) are installed by pyproject.toml's data-files into
``share/icons/hicolor/<N>x<N>/apps``, beside the SVG in ``scalable/apps``.

Build-time only: nothing in ``brikdesk`` or ``ui`` imports this.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICON_ID = "org.brikdesk.BrikDesk"
SVG = ROOT / "resources" / "icons" / f"{ICON_ID}.svg"
PNG = ROOT / "resources" / "icons" / f"{ICON_ID}.png"
HICOLOR = ROOT / "packaging" / "icons"
HICOLOR_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def render(svg: Path, out: Path, size: int) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"render_icon: {svg} is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    if not image.save(str(out), "PNG"):
        raise SystemExit(f"render_icon: could not write {out}")
    print(f"wrote {out} ({size}x{size})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=256)
    parser.add_argument("--out", type=Path, default=PNG)
    parser.add_argument(
        "--hicolor",
        action="store_true",
        help=f"write every size of {HICOLOR_SIZES} under {HICOLOR}",
    )
    args = parser.parse_args()
    if args.hicolor:
        for size in HICOLOR_SIZES:
            folder = HICOLOR / f"{size}x{size}"
            folder.mkdir(parents=True, exist_ok=True)
            render(SVG, folder / f"{ICON_ID}.png", size)
    else:
        render(SVG, args.out, args.size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
