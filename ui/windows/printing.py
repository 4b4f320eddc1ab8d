"""File > Print preview / Print / Export PDF for an army: one path (design convention 9).

The domain builds the sheet (``brikdesk.domain.sheets.build_roster_sheet``) from the stored
roster and the campaign's catalog; ``ui.printing`` lays it out and paints it for the preview,
the printer and the PDF alike. Qt's print support and ``ui.printing`` are imported only when
the organizer prints.
"""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QWidget

from brikdesk.domain.sheets import RosterSheet, RosterSheetOptions, SheetHeader, build_roster_sheet
from brikdesk.errors import StorageError, UserError
from brikdesk.services import Services
from ui.dialogs.base import FileChooser
from ui.windows.common import MessageBanner, show_storage_error
from ui.workers import start_job

log = logging.getLogger(__name__)


def roster_sheet(services: Services, army_id: int,
                 options: RosterSheetOptions | None = None,
                 today: dt.date | None = None) -> RosterSheet:
    """The printed content of an army as stored now (raises ``UserError``/``StorageError``)."""
    roster = services.roster.roster(army_id)
    army = roster.army
    campaign = services.campaigns.get_campaign(army.campaign_id)
    catalog = services.catalog.catalog(army.campaign_id)
    colour = army.player_colour if army.player_colour.startswith("#") and \
        len(army.player_colour) == 7 else None
    header = SheetHeader(army=army.name, player=army.player_name, campaign=campaign.name,
                         budget=roster.budget, date=today or dt.date.today(), colour=colour,
                         total_cost=roster.total, cost_unit=roster.cost_unit)
    warnings = [w for u in roster.units for w in u.warnings] + list(roster.warnings)
    return build_roster_sheet(header, [u.spec for u in roster.units], catalog, options,
                              warnings=warnings)


class RosterPrinting(QObject):
    """Print preview, print and PDF export of one army for a window (errors in its banner)."""

    def __init__(self, window: QWidget, services: Services, banner: MessageBanner) -> None:
        super().__init__(window)
        self._window = window
        self._services = services
        self._banner = banner
        self._printer = None
        self.last_export: Path | None = None

    def _sheet(self, army_id: int) -> RosterSheet | None:
        try:
            return roster_sheet(self._services, army_id)
        except UserError as exc:
            self._banner.show_error(f"Can't print this army: {exc}")
        except StorageError as exc:
            show_storage_error(self._window, exc)
        return None

    def _make_printer(self, sheet: RosterSheet):
        from PySide6.QtPrintSupport import QPrinter

        from ui.printing import configure_page

        if self._printer is None:
            self._printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        self._printer.setDocName(f"{sheet.header.army}: roster sheet")
        configure_page(self._printer, sheet.options.paper)
        return self._printer

    def preview(self, army_id: int):
        """Open the print preview (window-modal, not blocking); returns the dialog."""
        sheet = self._sheet(army_id)
        if sheet is None:
            return None
        from PySide6.QtCore import Qt
        from PySide6.QtPrintSupport import QPrintPreviewDialog

        from ui.printing import print_roster_sheet

        dialog = QPrintPreviewDialog(self._make_printer(sheet), self._window)
        dialog.setObjectName("printPreview")
        dialog.setWindowTitle(f"Print preview: {sheet.header.army}")
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.paintRequested.connect(lambda printer: print_roster_sheet(printer, sheet))
        dialog.resize(900, 900)
        dialog.open()
        return dialog

    def print(self, army_id: int):
        sheet = self._sheet(army_id)
        if sheet is None:
            return None
        from PySide6.QtCore import Qt
        from PySide6.QtPrintSupport import QPrintDialog

        from ui.printing import print_roster_sheet

        printer = self._make_printer(sheet)
        dialog = QPrintDialog(printer, self._window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def accepted() -> None:
            print_roster_sheet(printer, sheet)
            self._banner.show_note(f"{sheet.header.army} was sent to the printer.")

        dialog.accepted.connect(accepted)
        dialog.open()
        return dialog

    def export_pdf(self, army_id: int, path: Path | None = None) -> bool:
        """Ask where (unless ``path``), then write the PDF on a worker thread."""
        sheet = self._sheet(army_id)
        if sheet is None:
            return False
        if path is None:
            safe = "".join(c if c.isalnum() or c in " -_" else "_" for c in sheet.header.army)
            path = FileChooser.save_path(self._window, "Export roster sheet as PDF",
                                         "PDF files (*.pdf)", f"{safe.strip()}.pdf", ".pdf")
            if path is None:
                return False
        from ui.printing import export_pdf

        target = path
        self._banner.show_note(f"Writing {target.name}…")

        def done(result) -> None:
            if not shiboken6.isValid(self._banner):  # the window closed meanwhile
                log.info("Saved %s pages to %s", result.pages, result.path)
                return
            self.last_export = result.path
            self._banner.show_note(f"Saved {result.pages} page{'s' if result.pages != 1 else ''}"
                                   f" to {result.path}")

        def failed(exc: BaseException, details: str) -> None:
            if not shiboken6.isValid(self._banner):
                log.error("PDF export failed: %s", exc)
                return
            if isinstance(exc, UserError | OSError):
                self._banner.show_error(f"The PDF was not written: {exc}")
            else:
                log.error("PDF export failed:\n%s", details)
                self._banner.show_error(f"The PDF was not written (a bug): {exc}")

        # The relay lives with the application: the window may close before the PDF is done.
        start_job(QCoreApplication.instance() or self,
                  lambda progress: export_pdf(sheet, target, progress=progress),
                  on_done=done, on_error=failed)
        return True
