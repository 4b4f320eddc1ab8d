"""Export a roster sheet to PDF with ``QPdfWriter``: no window, works offscreen.

``export_pdf`` may run on a worker thread (painting on a QPdfWriter is allowed off the GUI
thread); a ``QGuiApplication`` must exist for fonts, and one is created when none does (on the
main thread: the command line). The PDF is rendered to memory and checked whole, then written next
to its destination and moved into place (``write_pdf``, which the reports share), so a failed
export, a full disk included, never leaves half a PDF behind nor empties the old one.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from PySide6.QtCore import QBuffer, QCoreApplication, QIODevice
from PySide6.QtGui import QGuiApplication, QPagedPaintDevice, QPainter, QPdfWriter

from brikdesk.domain.sheets import RosterSheet, RosterSheetOptions
from brikdesk.errors import UserError
from brikdesk.files import writable_target, write_atomically
from ui.printing.layout import SheetLayout, configure_page, fits_device, layout_roster_sheet
from ui.printing.painter import Progress, paint_roster_sheet, print_paged

PDF_RESOLUTION = 1200  # device units per inch; only the precision of positions

D = TypeVar("D")
D_contra = TypeVar("D_contra", contravariant=True)


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
    lays out, paints and returns the layout.

    Qt's PDF writer reports no write error (a full disk gave a 0-byte "PDF" and no word), so
    the PDF is rendered to memory, checked whole (it starts with ``%PDF-`` and ends in its
    ``%%EOF`` trailer), and only then written by ``brikdesk.files.write_atomically``: every
    write checked, synced, its size on disk compared, renamed into place last. Any failure
    (the disk is full...) is a ``UserError`` naming the reason and leaves the old file as it
    was; a device, FIFO or folder there is refused, a symlink still points where it did."""
    writable_target(target, field="out")  # refused before the pages are painted
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(PDF_RESOLUTION)
    writer.setCreator("BrikDesk")
    layout = paint(writer, progress)
    del writer  # ends the document
    data = bytes(buffer.data().data())
    buffer.close()
    check_pdf(data, target)
    write_atomically(target, data, field="out")
    return ExportResult(target, layout.page_count)


def check_pdf(data: bytes, target: Path) -> None:
    """``UserError`` unless ``data`` is a whole PDF: its header first, its ``%%EOF`` last."""
    if not data.startswith(b"%PDF-") or not data.rstrip().endswith(b"%%EOF"):
        raise UserError(
            f"cannot write {target}: the PDF came out incomplete ({len(data):,} bytes, "
            "no end-of-file trailer); the old file was left as it was",
            field="out",
        )


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


class LayOut(Protocol[D_contra]):
    """Lays a document out for a device: ``layout_battle_report``, ``layout_campaign_report``."""

    def __call__(
        self, document: D_contra, device: QPagedPaintDevice, /, *, black_and_white: bool = ...
    ) -> SheetLayout: ...


class PaintPages(Protocol[D_contra]):
    """Paints a document's pages: ``paint_battle_report``, ``paint_campaign_report``."""

    def __call__(
        self,
        painter: QPainter,
        device: QPagedPaintDevice,
        document: D_contra,
        /,
        *,
        layout: SheetLayout | None = ...,
        progress: Progress | None = ...,
        first_page: int = ...,
        last_page: int | None = ...,
        black_and_white: bool = ...,
    ) -> SheetLayout: ...


@dataclass(frozen=True)
class PagedReport(Generic[D]):
    """A kind of report (the battle report, the campaign report): how it is laid out, painted
    and titled, and so how it is printed and exported as a PDF, one way for every kind."""

    lay_out: LayOut[D]
    paint: PaintPages[D]
    title: Callable[[D], str]

    def print(
        self,
        printer: QPagedPaintDevice,
        document: D,
        *,
        progress: Progress | None = None,
        black_and_white: bool = False,
        layout: SheetLayout | None = None,
    ) -> SheetLayout:
        """Paint ``document`` on a QPrinter (``QPrintPreviewDialog.paintRequested``, Print) in
        the printer's current page layout; honours a QPrinter's page range. A ``layout`` made
        for another paper than the printer's is made again."""
        return print_paged(
            printer,
            lambda painter, first, last, used, bw: self.paint(
                painter,
                printer,
                document,
                progress=progress,
                first_page=first,
                last_page=last,
                layout=used,
                black_and_white=bw,
            ),
            layout=layout,
            black_and_white=black_and_white,
        )

    def export_pdf(
        self,
        document: D,
        path: str | os.PathLike[str],
        paper: str = "a4",
        progress: Progress | None = None,
        *,
        black_and_white: bool = False,
    ) -> ExportResult:
        """Write ``document`` to ``path`` as a PDF on A4 or Letter; returns the path and pages.
        Checked whole before it replaces anything (``write_pdf``). ``progress`` as for
        ``export_pdf``: ``(0, 0)`` while laying out, then ``(page, pages)``. May run on a
        worker."""
        return export_paged_pdf(
            path,
            checked_paper(paper),
            self.title(document),
            lambda writer: self.lay_out(document, writer, black_and_white=black_and_white),
            lambda painter, writer, layout, step: self.paint(
                painter, writer, document, layout=layout, progress=step
            ),
            progress,
        )
