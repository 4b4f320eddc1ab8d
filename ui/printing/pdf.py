"""Export a roster sheet to PDF with ``QPdfWriter``: no window, works offscreen.

``export_pdf`` may run on a worker thread (painting on a QPdfWriter is allowed off the GUI
thread); a ``QGuiApplication`` must exist for fonts, and one is created when none does (on the
main thread: the command line). The file is written next to its destination and moved into
place when complete, so a failed export never leaves half a PDF behind (``export_paged_pdf``,
which the reports share).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QGuiApplication, QPainter, QPdfWriter

from brikdesk.domain.sheets import RosterSheet, RosterSheetOptions
from brikdesk.errors import UserError
from brikdesk.files import replacing
from ui.printing.layout import SheetLayout, configure_page, fits_device, layout_roster_sheet
from ui.printing.painter import Progress, paint_roster_sheet

PDF_RESOLUTION = 1200  # device units per inch; only the precision of positions


@dataclass(frozen=True)
class ExportResult:
    path: Path
    pages: int


def ensure_gui_application() -> QGuiApplication:
    """The running QGuiApplication, or a new one (offscreen when there is no display)."""
    app = QCoreApplication.instance()
    if isinstance(app, QGuiApplication):
        return app
    if app is not None:
        raise RuntimeError("a QCoreApplication without GUI exists; fonts need a QGuiApplication")
    if (
        sys.platform.startswith("linux")
        and not os.environ.get("DISPLAY")
        and not os.environ.get("WAYLAND_DISPLAY")
    ):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    return QGuiApplication(sys.argv[:1] or ["brikdesk"])


def write_pdf(
    target: Path,
    paint: Callable[[QPdfWriter, Progress | None], SheetLayout],
    progress: Progress | None = None,
) -> ExportResult:
    """Write a PDF to ``target`` through ``paint(writer, progress)``, which sets the page up,
    lays out, paints and returns the layout. The file is written beside the destination and
    moved into place when complete (``brikdesk.files.replacing``: a device, FIFO or folder
    there is refused, a symlink still points where it did); any failure removes it, so no
    half PDF is ever left."""
    with replacing(target, field="out") as part:
        writer = QPdfWriter(str(part))
        writer.setResolution(PDF_RESOLUTION)
        writer.setCreator("BrikDesk")
        layout = paint(writer, progress)
        del writer  # closes the file
    return ExportResult(target, layout.page_count)


def export_pdf(
    sheet: RosterSheet,
    path: str | os.PathLike[str],
    options: RosterSheetOptions | None = None,
    progress: Progress | None = None,
    *,
    layout: SheetLayout | None = None,
) -> ExportResult:
    """Write ``sheet`` to ``path`` as a PDF; returns the path and the number of pages.

    ``options`` overrides the sheet's layout choices (paper, turns, black and white); what the
    sheet contains (folding, blank cards, warnings) was decided when it was built.
    ``progress(done, total)`` is called with ``(0, 0)`` while the sheet is laid out (a busy
    QProgressBar: range 0..0), then with ``(page, pages)`` after each page is painted.
    ``layout`` reuses a layout made for the sheet's paper (it is made again if it does not fit).
    A failure leaves no file behind.
    """
    if options is not None:
        sheet = replace(
            sheet,
            options=replace(
                sheet.options,
                paper=options.paper,
                turns=options.turns,
                black_and_white=options.black_and_white,
            ),
        )
        layout = None
    return export_paged_pdf(
        path,
        sheet.options.paper,
        f"{sheet.header.army}: roster sheet",
        lambda writer: (
            layout
            if layout is not None and fits_device(layout, writer)
            else layout_roster_sheet(sheet, writer)
        ),
        lambda painter, writer, used, step: paint_roster_sheet(
            painter, writer, sheet, layout=used, progress=step
        ),
        progress,
    )


def checked_paper(paper: str) -> str:
    """``paper`` as a page layout name (``a4`` or ``letter``), or a ``UserError``."""
    value = str(paper).strip().lower()
    if value not in ("a4", "letter"):
        raise UserError(f"paper must be A4 or Letter, not '{paper}'", field="paper")
    return value


def export_paged_pdf(
    path: str | os.PathLike[str],
    paper: str,
    title: str,
    lay_out: Callable[[QPdfWriter], SheetLayout],
    paint: Callable[[QPainter, QPdfWriter, SheetLayout, Progress | None], SheetLayout],
    progress: Progress | None = None,
) -> ExportResult:
    """Write a laid-out document (a roster sheet, a report) as a PDF on ``paper``:
    ``lay_out(writer)`` then ``paint(painter, writer, layout, progress)``, with ``progress``
    as for ``export_pdf``; written beside the destination and moved into place when complete."""
    ensure_gui_application()
    target = Path(path)

    def write(writer: QPdfWriter, painter_progress: Progress | None) -> SheetLayout:
        writer.setTitle(title)
        configure_page(writer, paper)
        if painter_progress is not None:
            painter_progress(0, 0)
        layout = lay_out(writer)
        painter = QPainter()
        if not painter.begin(writer):
            raise UserError(f"cannot write {target}", field="out")
        try:
            paint(painter, writer, layout, painter_progress)
        finally:
            painter.end()
        return layout

    return write_pdf(target, write, progress)
