"""Render the app icon's PNG from its SVG with Qt (run after editing the SVG).

    .venv/bin/python packaging/render_icon.py            # writes resources/icons/<id>.png
    .venv/bin/python packaging/render_icon.py --size 512 --out /tmp/icon-512.png
    .venv/bin/python packaging/render_icon.py --hicolor  # packaging/icons/<N>x<N>/<id>.png
    .venv/bin/python packaging/render_icon.py --ico --icns  # packaging/icons/brikdesk.ico, .icns

The hicolor sizes (HICOLOR_SIZES) are installed by pyproject.toml's data-files into
``share/icons/hicolor/<N>x<N>/apps``, beside the SVG in ``scalable/apps``. The Windows icon
(``.ico``, ICO_SIZES) and the macOS one (``.icns``, ICNS_TYPES) hold PNG images rendered here
and are written by this script itself (no Qt image plugin for either is needed); the
PyInstaller spec gives them to the Windows build and the macOS app.

Build-time only: nothing in ``brikdesk`` or ``ui`` imports this.
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICON_ID = "org.brikdesk.BrikDesk"
SVG = ROOT / "resources" / "icons" / f"{ICON_ID}.svg"
PNG = ROOT / "resources" / "icons" / f"{ICON_ID}.png"
HICOLOR = ROOT / "packaging" / "icons"
HICOLOR_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO = HICOLOR / "brikdesk.ico"
ICNS = HICOLOR / "brikdesk.icns"
#: What Windows picks from for the taskbar, Explorer and the title bar (PNG entries: Vista on).
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
#: macOS's PNG icon types and their pixel sizes (the @2x ones are for Retina screens).
ICNS_TYPES = (
    (b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256),
    (b"ic09", 512), (b"ic10", 1024), (b"ic11", 32), (b"ic12", 64), (b"ic13", 256),
    (b"ic14", 512),
)  # fmt: skip


def png_bytes(svg: Path, size: int) -> bytes:
    """The SVG rendered at ``size`` x ``size`` pixels, as PNG."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
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
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise SystemExit(f"render_icon: could not encode {size}x{size} as PNG")
    buffer.close()
    return bytes(data.data())


def ico(images: dict[int, bytes]) -> bytes:
    """A Windows ``.ico`` of PNG images (size -> PNG): a header, one directory entry per image
    (a width or height of 256 is written as 0), then the images."""
    header = struct.pack("<HHH", 0, 1, len(images))
    entries, blobs = b"", b""
    offset = 6 + 16 * len(images)
    for size, png in sorted(images.items()):
        side = 0 if size >= 256 else size
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset + len(blobs))
        blobs += png
    return header + entries + blobs


def icns(images: list[tuple[bytes, bytes]]) -> bytes:
    """A macOS ``.icns`` of PNG images ((type, PNG) pairs): "icns", the whole length, then each
    image as its type, its length with the 8-byte header, and its bytes (big-endian)."""
    body = b"".join(kind + struct.pack(">I", len(png) + 8) + png for kind, png in images)
    return b"icns" + struct.pack(">I", len(body) + 8) + body


def write_icons(ico_path: Path | None, icns_path: Path | None) -> None:
    """Render every size once and write the ``.ico`` and/or the ``.icns``."""
    sizes = set(ICO_SIZES if ico_path else ()) | {n for _, n in ICNS_TYPES if icns_path}
    pngs = {size: png_bytes(SVG, size) for size in sorted(sizes)}
    for path, data in (
        (ico_path, ico({n: pngs[n] for n in ICO_SIZES}) if ico_path else b""),
        (icns_path, icns([(t, pngs[n]) for t, n in ICNS_TYPES]) if icns_path else b""),
    ):
        if path is not None:
            path.write_bytes(data)
            print(f"wrote {path} ({len(data) // 1024} KiB)")


def render(svg: Path, out: Path, size: int) -> None:
    try:
        out.write_bytes(png_bytes(svg, size))
    except OSError as exc:
        raise SystemExit(f"render_icon: could not write {out}: {exc.strerror}") from None
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
    parser.add_argument("--ico", action="store_true", help=f"write {ICO} (Windows)")
    parser.add_argument("--icns", action="store_true", help=f"write {ICNS} (macOS)")
    args = parser.parse_args()
    if args.ico or args.icns:
        write_icons(ICO if args.ico else None, ICNS if args.icns else None)
    elif args.hicolor:
        for size in HICOLOR_SIZES:
            folder = HICOLOR / f"{size}x{size}"
            folder.mkdir(parents=True, exist_ok=True)
            render(SVG, folder / f"{ICON_ID}.png", size)
    else:
        render(SVG, args.out, args.size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
