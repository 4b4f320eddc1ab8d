"""Printing: roster sheets laid out in points and painted on any paged device.

One path for preview, print and PDF (design convention 9):

- ``layout_roster_sheet(sheet, device)`` -> ``SheetLayout`` (pages of placed blocks, in points);
- ``paint_roster_sheet(painter, device, sheet, layout=None, progress=None)`` paints it;
- ``print_roster_sheet(printer, sheet)`` for ``QPrintPreviewDialog.paintRequested`` and Print
  (call ``configure_page(printer, sheet.options.paper)`` first);
- ``export_pdf(sheet, path, options=None, progress=None)`` writes a PDF with ``QPdfWriter``;
- ``render_roster_page(sheet, page, dpi=60)`` paints one page on a ``QImage`` (thumbnails).
"""

from ui.printing.image import render_roster_page
from ui.printing.layout import (
    LAYOUT_NOTES,
    SheetLayout,
    configure_page,
    layout_roster_sheet,
    page_layout_for,
)
from ui.printing.painter import paint_roster_sheet, print_roster_sheet
from ui.printing.pdf import ExportResult, ensure_gui_application, export_pdf

__all__ = [
    "LAYOUT_NOTES",
    "ExportResult",
    "SheetLayout",
    "configure_page",
    "ensure_gui_application",
    "export_pdf",
    "layout_roster_sheet",
    "page_layout_for",
    "paint_roster_sheet",
    "print_roster_sheet",
    "render_roster_page",
]
