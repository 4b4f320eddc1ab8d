"""Printing: roster sheets laid out in points and painted on any paged device.

One path for preview, print and PDF ("One path for preview, print and PDF" in docs/conventions.md):

- ``layout_roster_sheet(sheet, device)`` -> ``SheetLayout`` (pages of placed blocks, in points);
- ``paint_roster_sheet(painter, device, sheet, layout=None, progress=None)`` paints it;
- ``print_roster_sheet(printer, sheet)`` for ``QPrintPreviewDialog.paintRequested`` and Print
  (call ``configure_page(printer, sheet.options.paper)`` first);
- ``export_pdf(sheet, path, options=None, progress=None)`` writes a PDF with ``QPdfWriter``;
- ``render_roster_page(sheet, page, dpi=60)`` paints one page on a ``QImage`` (thumbnails).

Battle reports (``ui.printing.report``) follow the same path: ``layout_battle_report``,
``paint_battle_report``, ``print_battle_report(printer, report)``,
``export_report_pdf(report, path, paper, progress, black_and_white=...)`` and
``render_report_page``. ``fits_device(layout, device)`` tells whether a layout made beforehand
(on a worker) still fits a printer whose paper the organizer may have changed.

The campaign report (``ui.printing.campaign_report``) too: ``export_campaign_pdf``,
``print_campaign_report``.
"""

from ui.printing.campaign_report import export_campaign_pdf, print_campaign_report
from ui.printing.image import render_roster_page
from ui.printing.layout import (
    LAYOUT_NOTES,
    SheetLayout,
    configure_page,
    fits_device,
    layout_roster_sheet,
    page_layout_for,
)
from ui.printing.painter import paint_roster_sheet, print_roster_sheet
from ui.printing.pdf import ExportResult, ensure_gui_application, export_pdf
from ui.printing.report import (
    export_report_pdf,
    layout_battle_report,
    paint_battle_report,
    print_battle_report,
    render_report_page,
)

__all__ = [
    "LAYOUT_NOTES",
    "ExportResult",
    "SheetLayout",
    "configure_page",
    "ensure_gui_application",
    "export_campaign_pdf",
    "export_pdf",
    "export_report_pdf",
    "fits_device",
    "layout_battle_report",
    "layout_roster_sheet",
    "page_layout_for",
    "paint_battle_report",
    "paint_roster_sheet",
    "print_battle_report",
    "print_campaign_report",
    "print_roster_sheet",
    "render_report_page",
    "render_roster_page",
]
