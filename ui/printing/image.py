"""Pages as images, painted by the same functions that print and write PDFs ("One path for preview,
print and PDF" in docs/conventions.md).

``render_roster_page(sheet, page, dpi=...)`` returns one page of a roster sheet as a ``QImage``
of the whole sheet of paper (white margins included), for thumbnails, tests and a quick look
without a PDF reader. The layout is computed exactly as for printing (in points, measured at a
fixed resolution), then painted on the image through ``paint_roster_sheet``: there is no second
drawing path. ``PageCanvas`` does the same set-up for any painter function (the battle report
uses it).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QBuffer, QIODevice
from PySide6.QtGui import QColor, QImage, QPageLayout, QPainter, QPdfWriter

from brikdesk.domain.sheets import RosterSheet
from ui.printing import ink
from ui.printing.layout import SheetLayout, configure_page, layout_roster_sheet
from ui.printing.painter import paint_roster_sheet
from ui.printing.pdf import ensure_gui_application

DEFAULT_DPI = 60.0


class MeasuringDevice:
    """A ``QPdfWriter`` on a memory buffer set to ``paper``: a paged device to lay out on.

    Nothing is painted on it; it only supplies the page layout (and the resolution, which the
    layout does not depend on). Hold a reference to the object while the writer is used.
    """

    def __init__(self, paper: str, resolution: int = 1200) -> None:
        ensure_gui_application()
        self.buffer = QBuffer()
        self.buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        self.writer = QPdfWriter(self.buffer)
        self.writer.setResolution(resolution)
        configure_page(self.writer, paper)


def page_canvas(page_layout: QPageLayout, dpi: float) -> tuple[QImage, float, float]:
    """A white image of the whole page at ``dpi``, and the offset (in image pixels) of the
    printable area's top-left corner, where a page painter's origin goes."""
    full = page_layout.fullRect(QPageLayout.Unit.Point)
    paint = page_layout.paintRect(QPageLayout.Unit.Point)
    k = dpi / 72.0
    image = QImage(
        max(1, round(full.width() * k)),
        max(1, round(full.height() * k)),
        QImage.Format.Format_RGB32,
    )
    dpm = round(dpi / 0.0254)
    image.setDotsPerMeterX(dpm)
    image.setDotsPerMeterY(dpm)
    image.fill(QColor(ink.PAPER))
    return image, paint.left() * k, paint.top() * k


def render_page(
    page_layout: QPageLayout, dpi: float, paint: Callable[[QPainter, QImage], object]
) -> QImage:
    """Paint one page with ``paint(painter, image)`` (origin at the printable area)."""
    image, dx, dy = page_canvas(page_layout, dpi)
    painter = QPainter()
    if not painter.begin(image):
        raise RuntimeError("could not paint on an image")
    try:
        painter.translate(dx, dy)
        paint(painter, image)
    finally:
        painter.end()
    return image


def render_roster_page(
    sheet: RosterSheet,
    page: int = 1,
    *,
    dpi: float = DEFAULT_DPI,
    layout: SheetLayout | None = None,
) -> QImage:
    """Page ``page`` (1-based) of ``sheet`` as an image of the whole paper at ``dpi``."""
    device = MeasuringDevice(sheet.options.paper)
    if layout is None:
        layout = layout_roster_sheet(sheet, device.writer)
    if not 1 <= page <= layout.page_count:
        raise ValueError(f"page {page} is not in 1..{layout.page_count}")

    def paint(painter: QPainter, image: QImage) -> None:
        paint_roster_sheet(
            painter,
            image,  # type: ignore[arg-type]
            sheet,
            layout=layout,
            first_page=page,
            last_page=page,
        )

    return render_page(device.writer.pageLayout(), dpi, paint)


__all__ = ["DEFAULT_DPI", "MeasuringDevice", "page_canvas", "render_page", "render_roster_page"]
