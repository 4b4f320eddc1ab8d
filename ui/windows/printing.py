"""Print preview, Print and Export for the app: roster sheets and battle reports.

"One path for preview, print and PDF" (docs/conventions.md): the print service
(``services.printing``) reads what a sheet or a report shows, in one transaction, exactly as
``brikdesk print`` and ``brikdesk report`` do (units dead in the campaign are left out unless asked
for, and the banner names them); ``ui.printing`` lays it out and paints it for the preview, the
printer and the PDF alike.

Before each, a small dialog (``ui.widgets.print_options``) asks what to print and remembers the
answer. Every step that may take long runs off the GUI thread ("Never block the GUI thread" in
docs/conventions.md) with a progress bar and a Stop button in the window's status bar: reading and
laying out before a preview or a print, painting the pages for the printer, writing a PDF or
Markdown. The preview dialog paints on the GUI thread (that is how ``QPrintPreviewDialog`` works),
replaying the layout made on the worker; the layout is made again only if the organizer changes the
paper in the preview or print dialog.

Qt's print support and ``ui.printing`` are imported only when the organizer prints.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QProgressBar,
    QToolButton,
    QWidget,
)

from brikdesk.domain.ids import ArmyId, BattleId
from brikdesk.errors import StorageError, UserError
from brikdesk.services import Services
from ui.screen import fit_to_screen
from ui.settings import AppSettings
from ui.widgets.common import MessageBanner, show_storage_error
from ui.widgets.dialogs import FileChooser
from ui.workers import start_job

if TYPE_CHECKING:
    from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrintPreviewDialog

    from brikdesk.domain.report import BattleReport
    from brikdesk.domain.sheets import RosterSheet
    from brikdesk.services.printing import RosterPrint
    from ui.printing.layout import SheetLayout
    from ui.printing.pdf import ExportResult
    from ui.widgets.print_options import ReportChoice, RosterChoice

log = logging.getLogger(__name__)

Step = Callable[[str, int, int], None]


class Cancelled(Exception):
    """The organizer pressed Stop: the job ends and leaves nothing behind."""


# ---------------------------------------------------------------------------------------------
# Progress in the status bar


class _Ticket(QObject):
    """One running job as the progress widget shows it: its title ("Exporting X to x.pdf"),
    the step it is at ("writing pages") and how far; ``cancel`` is read by the worker."""

    def __init__(self, parent: QObject | None, text: str) -> None:
        super().__init__(parent)
        self.title = text
        self.text = ""
        self.done = 0
        self.total = 0
        self.cancel = threading.Event()


class JobProgress(QWidget):
    """What a window's print jobs are doing: a line of text, a progress bar and Stop.

    Lives in the window's status bar (a permanent widget), hidden while nothing runs. When
    several jobs run, the latest is shown; Stop stops the one shown.
    """

    #: the widest the text may be (pixels) before it is elided in the middle
    LABEL_MAX = 460

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("jobProgress")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        self.label = QLabel(self)
        self.label.setObjectName("jobText")
        layout.addWidget(self.label)
        self.bar = QProgressBar(self)
        self.bar.setObjectName("jobBar")
        self.bar.setFixedWidth(150)
        self.bar.setFormat("%v of %m")
        layout.addWidget(self.bar)
        self.stop = QToolButton(self)
        self.stop.setObjectName("jobStop")
        self.stop.setText("Stop")
        self.stop.setToolTip("Stop this job (nothing is written)")
        self.stop.clicked.connect(self.stop_current)
        layout.addWidget(self.stop)
        self._tickets: list[_Ticket] = []
        self.hide()

    @classmethod
    def for_window(cls, window: QWidget) -> JobProgress | None:
        """The window's progress widget, added to its status bar the first time."""
        existing = window.findChild(JobProgress, "jobProgress")
        if existing is not None:
            return existing
        if not isinstance(window, QMainWindow):
            return None
        status = window.statusBar()
        widget = cls(status)
        status.addPermanentWidget(widget)
        widget.hide()
        return widget

    def begin(self, text: str) -> _Ticket:
        ticket = _Ticket(self, text)
        self._tickets.append(ticket)
        self._show(ticket)
        return ticket

    def step(self, ticket: _Ticket, text: str, done: int, total: int) -> None:
        ticket.text, ticket.done, ticket.total = text, done, total
        if self._tickets and self._tickets[-1] is ticket:
            self._show(ticket)

    def end(self, ticket: _Ticket) -> None:
        if ticket in self._tickets:
            self._tickets.remove(ticket)
        ticket.deleteLater()
        if self._tickets:
            self._show(self._tickets[-1])
        else:
            self.hide()

    def stop_current(self) -> None:
        if self._tickets:
            ticket = self._tickets[-1]
            ticket.cancel.set()
            self._set_label(f"{ticket.title} (stopping…)")

    @property
    def running(self) -> int:
        return len(self._tickets)

    def _set_label(self, text: str) -> None:
        metrics = self.label.fontMetrics()
        self.label.setText(metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, self.LABEL_MAX))
        self.label.setToolTip(text)

    def _show(self, ticket: _Ticket) -> None:
        if ticket.cancel.is_set():
            self._set_label(f"{ticket.title} (stopping…)")
        else:
            self._set_label(f"{ticket.title}: {ticket.text}" if ticket.text else ticket.title)
        if ticket.total > 0:
            self.bar.setRange(0, ticket.total)
            self.bar.setValue(min(ticket.done, ticket.total))
            self.bar.setTextVisible(True)
        else:  # busy: no way to tell how long yet
            self.bar.setRange(0, 0)
            self.bar.setTextVisible(False)
        self.show()


class _StepRelay(QObject):
    """Carries a job's steps from the worker to the GUI thread; lives with the application,
    so a job whose window closed still runs to its end (its steps are then dropped)."""

    step = Signal(str, int, int)


class _Forward(QObject):
    """Receives a job's steps for one ticket of a progress widget (dies with the widget)."""

    def __init__(self, progress: JobProgress, ticket: _Ticket) -> None:
        super().__init__(ticket)
        self._progress = progress
        self._ticket = ticket

    def step(self, text: str, done: int, total: int) -> None:
        self._progress.step(self._ticket, text, done, total)


class _PagePainter(QObject):
    """Paints prepared pages on the printer a preview dialog hands over (``paintRequested``)."""

    def __init__(self, parent: QObject, paint: Callable[[Any], object]) -> None:
        super().__init__(parent)
        self._paint = paint
        self.calls = 0

    def paint(self, printer: Any) -> None:
        """Qt's preview paints on the GUI thread: the layout was made on a worker, so this is
        only the replay (about 3 ms a page); a wait cursor shows while it runs."""
        from PySide6.QtGui import QGuiApplication

        self.calls += 1
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            self._paint(printer)
        finally:
            QGuiApplication.restoreOverrideCursor()


# ---------------------------------------------------------------------------------------------
# What roster and report printing share


def _n(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def safe_file_name(name: str) -> str:
    """``name`` fit for a file name (letters, digits, spaces, - and _ stay)."""
    safe = "".join(c if c.isalnum() or c in " -_" else "_" for c in name).strip()
    return safe or "brikdesk"


class _Printing(QObject):
    """Jobs, dialogs and messages for one window (errors and notes in its banner)."""

    #: what the window's messages call the thing printed ("this army", "this battle")
    THING = "this"
    #: the kind of file it saves (its dialogs start in the folder last used for that kind)
    folder_kind = "rosters"

    def __init__(
        self,
        window: QWidget,
        services: Services,
        banner: MessageBanner,
        settings: AppSettings | None = None,
    ) -> None:
        super().__init__(window)
        self._window = window
        self._services = services
        self._banner = banner
        self._settings = settings
        self.progress = JobProgress.for_window(window)
        self.preview_dialog: Any = None
        self.print_dialog: Any = None
        self.last_export: Path | None = None
        self.last_result: Any = None
        self._printer: QPrinter | None = None
        self._printing = threading.Event()  # set while pages go to the printer

    # -- settings -------------------------------------------------------------------------

    @property
    def settings(self) -> AppSettings:
        """Where the choices are remembered: the settings given, else the window's own
        (``window.settings``), else the app's usual place."""
        if self._settings is None:
            own = getattr(self._window, "settings", None)
            self._settings = own if isinstance(own, AppSettings) else AppSettings.for_app()
        return self._settings

    def _save_path(self, title: str, filter_text: str, name: str, suffix: str) -> Path | None:
        """Where to save: the dialog starts in the folder last used for this kind of file."""
        return FileChooser.save_path(
            self._window,
            title,
            filter_text,
            f"{safe_file_name(name)}{suffix}",
            suffix,
            settings=self.settings,
            kind=self.folder_kind,
        )

    def _read_name(self, read: Callable[[], str], failure: str) -> str | None:
        """``read()``, or ``None`` once the banner (``failure: why``) or the storage error
        dialog has said why not."""
        try:
            return read()
        except UserError as exc:
            self._banner.show_error(f"{failure}: {exc}")
        except StorageError as exc:
            show_storage_error(self._window, exc)
        return None

    # -- jobs -----------------------------------------------------------------------------

    def _alive(self) -> bool:
        return shiboken6.isValid(self) and shiboken6.isValid(self._banner)

    def _start(
        self, text: str, work: Callable[[Step], Any], on_done: Callable[[Any], None], failure: str
    ) -> bool:
        """Run ``work(step)`` on a worker with progress; ``on_done(result)`` on the GUI thread
        (not called if the window closed meanwhile). ``failure`` starts the error message."""
        progress = self.progress
        ticket = progress.begin(text) if progress is not None else _Ticket(self, text)
        cancel = ticket.cancel
        app = QCoreApplication.instance() or self
        relay = _StepRelay(app)
        if progress is not None:
            relay.step.connect(_Forward(progress, ticket).step)

        def step(what: str, done: int, total: int) -> None:  # on the worker
            if cancel.is_set():
                raise Cancelled()
            relay.step.emit(what, done, total)

        def finish() -> bool:
            relay.deleteLater()
            alive = self._alive()
            if alive and progress is not None and shiboken6.isValid(progress):
                progress.end(ticket)
            return alive

        def done(result: Any) -> None:
            if finish():
                on_done(result)
            else:
                log.info("%s: done after its window closed", text)

        def failed(exc: BaseException, details: str) -> None:
            if not finish():
                log.error("%s failed after its window closed: %s", text, exc)
                return
            if isinstance(exc, Cancelled):
                self._banner.show_note(f"Stopped: {text[:1].lower()}{text[1:]}")
            elif isinstance(exc, StorageError):
                show_storage_error(self._window, exc)
            elif isinstance(exc, UserError | OSError):
                self._banner.show_error(f"{failure}: {exc}")
            else:
                log.error("%s failed:\n%s", text, details)
                self._banner.show_error(f"{failure} (a bug, written to the log): {exc}")

        start_job(app, lambda _progress: work(step), on_done=done, on_error=failed)
        return True

    # -- dialogs --------------------------------------------------------------------------

    def _printer_for(self, paper: str, doc_name: str, shared: bool) -> QPrinter:
        from PySide6.QtPrintSupport import QPrinter

        from ui.printing import configure_page

        if shared:  # the Print action remembers the organizer's printer between prints
            if self._printer is None:
                self._printer = QPrinter(QPrinter.PrinterMode.HighResolution)
            printer = self._printer
        else:
            printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setDocName(doc_name)
        configure_page(printer, paper)
        return printer

    def _open_preview(
        self, title: str, paper: str, paint: Callable[[Any], object]
    ) -> QPrintPreviewDialog:
        """A window-modal, non-blocking QPrintPreviewDialog that paints through ``paint``."""
        from PySide6.QtPrintSupport import QPrintPreviewDialog

        printer = self._printer_for(paper, title, shared=False)
        dialog = QPrintPreviewDialog(printer, self._window)
        dialog.setObjectName("printPreview")
        dialog.setWindowTitle(f"Print preview: {title}")
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.printer_ref = printer  # type: ignore[attr-defined]  # alive as long as the dialog
        painter = _PagePainter(dialog, paint)
        dialog.paintRequested.connect(painter.paint)
        dialog.page_painter = painter  # type: ignore[attr-defined]
        fit_to_screen(dialog, 900, 900)
        self.preview_dialog = dialog
        dialog.open()
        return dialog

    def _open_print_dialog(
        self, title: str, paper: str, send: Callable[[Any], object]
    ) -> QPrintDialog:
        from PySide6.QtPrintSupport import QPrintDialog

        printer = self._printer_for(paper, title, shared=True)
        dialog = QPrintDialog(printer, self._window)
        dialog.setObjectName("printDialog")
        dialog.setWindowTitle(f"Print {title}")
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        # QPrintDialog's accepted(QPrinter*) hides QDialog's accepted(); its open() wants a
        # receiver: QDialog.open shows it window-modal without blocking
        dialog.accepted.connect(_PrintSender(dialog, printer, send).send)
        self.print_dialog = dialog
        QDialog.open(dialog)
        return dialog

    def _send(self, printer: Any, title: str, paint: Callable[[Any, Step], SheetLayout]) -> bool:
        """Paint on ``printer`` on a worker, with progress; one print at a time."""
        if self._printing.is_set():
            self._banner.show_error(
                "BrikDesk is still sending the last print to the printer; "
                "try again when it is done."
            )
            return False
        busy = self._printing
        busy.set()

        def sent(pages: int) -> None:
            self._banner.show_note(f"{title} was sent to the printer ({_n(pages, 'page')}).")

        def work(step: Step) -> int:
            try:
                return paint(printer, step).page_count
            finally:
                busy.clear()

        return self._start(f"Printing {title}", work, sent, f"{title} was not printed")

    # -- preview and print ----------------------------------------------------------------

    #: the progress text while a preview or a print is prepared, and the start of its error
    #: message ({verb}: "preview" or "print"); ``{name}`` is the army's or the battle's name
    PREPARING = "Preparing {name}"
    FAILED = "Can't {verb} {name}"

    #: ``_prepare(services, id, choice, step)`` reads and lays out what ``choice`` asks for,
    #: on the worker; ``_ask(id, name, verb)`` gives ``(choice or None, name)``
    _prepare: Callable[[Services, int, Any, Step], Any]

    def _ask(self, item_id: int, name: str | None, verb: str) -> tuple[Any, str]:
        """The options for printing ``item_id`` (``None``: cancelled) and its name (read when
        ``name`` is ``None``); ``verb`` is the dialog's button ("Print…")."""
        raise NotImplementedError

    def _printable(self, prepared: Any, choice: Any) -> _Printable:
        """What the preview and the print dialog show of ``_prepare``'s result."""
        raise NotImplementedError

    def _preview_or_print(self, item_id: int, name: str | None, *, preview: bool) -> bool:
        """Ask the options, read and lay out on a worker, then open the print preview or the
        print dialog (whose pages are painted for the printer on a worker too)."""
        choice, name = self._ask(item_id, name, "Preview" if preview else "Print…")
        if choice is None:
            return False
        services = self._services

        def ready(result: Any) -> None:
            job = self._printable(result, choice)
            self.last_result = job.result
            if preview:
                self._open_preview(job.preview_title, job.paper, job.paint)
            else:

                def paint(printer: Any, step: Step) -> SheetLayout:
                    return job.paint(printer, progress=lambda d, t: step("printing pages", d, t))

                self._open_print_dialog(
                    job.print_title,
                    job.paper,
                    lambda printer: self._send(printer, job.print_title, paint),
                )
            if job.note:
                self._banner.show_note(job.note)

        return self._start(
            self.PREPARING.format(name=name),
            lambda step: self._prepare(services, item_id, choice, step),
            ready,
            self.FAILED.format(verb="preview" if preview else "print", name=name),
        )

    def _pdf_choice(
        self,
        item_id: int,
        path: Path | None,
        name: str | None,
        title: str,
        file_name: str,
        load: Callable[[AppSettings], Any],
        unnamed: str,
    ) -> tuple[Any, Path, str] | None:
        """The options, the file and the name of a PDF export: without ``path``, ask the
        options then where (the file named ``file_name`` formatted with the name), ``None``
        if either is cancelled; with ``path``, no questions: the options ``load`` reads and
        ``name`` or else ``unnamed``."""
        if path is None:
            choice, name = self._ask(item_id, name, "Export PDF…")
            if choice is None:
                return None
            path = self._save_path(title, "PDF files (*.pdf)", file_name.format(name=name), ".pdf")
            if path is None:
                return None
            return choice, path, name
        return load(self.settings), path, name or unnamed


@dataclass(frozen=True)
class _Printable:
    """A prepared sheet or report as the preview and the print dialog show it."""

    result: Any  #: stored as ``last_result``
    paper: str
    preview_title: str
    print_title: str
    #: ``paint(printer)`` paints the pages; ``paint(printer, progress=...)`` reports them too
    paint: Callable[..., SheetLayout]
    note: str = ""  #: shown in the banner once the dialog is open


class _PrintSender(QObject):
    """Sends the pages to the printer when the print dialog is accepted."""

    def __init__(self, parent: QObject, printer: Any, send: Callable[[Any], object]) -> None:
        super().__init__(parent)
        self._printer = printer
        self._send = send

    def send(self, printer: Any = None) -> None:
        self._send(printer if printer is not None else self._printer)


# ---------------------------------------------------------------------------------------------
# Roster sheets


def _prepare_roster(
    services: Services, army_id: int, choice: RosterChoice, step: Step
) -> tuple[RosterPrint, SheetLayout]:
    """Read the sheet (one transaction) and lay it out for its paper: on the worker."""
    from ui.printing import layout_roster_sheet
    from ui.printing.image import MeasuringDevice

    step("reading the roster", 0, 0)
    job = services.printing.roster_sheet(
        ArmyId(army_id), choice.options, include_dead=choice.include_dead
    )
    sheet = job.sheet
    device = MeasuringDevice(sheet.options.paper)
    what = f"laying out {_n(len(sheet.cards), 'card')}"
    layout = layout_roster_sheet(
        sheet, device.writer, progress=lambda done, total: step(what, done, total)
    )
    return job, layout


class PreparedSheet(Protocol):
    """What ``RosterPrinting`` reads of a roster sheet read for printing."""

    @property
    def sheet(self) -> RosterSheet: ...

    @property
    def left_out(self) -> tuple[str, ...]: ...


def left_out_text(names: tuple[str, ...]) -> str:
    """What the banner says of units dead in the campaign that were not printed."""
    if not names:
        return ""
    shown = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
    return (
        f" Left out {_n(len(names), 'unit')} dead in the campaign ({shown}); tick "
        "'Include units dead in the campaign' to print them."
    )


class RosterPrinting(_Printing):
    """Print preview, print and PDF export of one army's roster sheet for a window.

    ``preview``, ``print`` and ``export_pdf`` ask for the options first (remembered); they
    return ``True`` when the work started (it finishes on a worker: ``preview_dialog``,
    ``print_dialog`` and ``last_export`` are set when it is done).
    """

    PREPARING = "Preparing the roster sheet of {name}"

    def _ask(self, army_id: int, name: str | None, verb: str) -> tuple[RosterChoice | None, str]:
        from ui.widgets.print_options import RosterOptionsDialog

        if name is None:
            name = self._army_name(army_id)
            if name is None:
                return None, ""
        choice = RosterOptionsDialog.ask(self._window, self.settings, name, verb)
        return choice, name

    def _army_name(self, army_id: int) -> str | None:
        return self._read_name(
            lambda: self._services.campaigns.get_army(ArmyId(army_id)).name, "Can't print this army"
        )

    _prepare: Callable[[Services, int, Any, Step], tuple[PreparedSheet, SheetLayout]] = (
        staticmethod(_prepare_roster)
    )

    def _printable(self, prepared: tuple[PreparedSheet, SheetLayout], choice: Any) -> _Printable:
        job, layout = prepared
        sheet = job.sheet

        def paint(printer: Any, **progress: Any) -> SheetLayout:
            from ui.printing import print_roster_sheet

            return print_roster_sheet(printer, sheet, layout=layout, **progress)

        note = left_out_text(job.left_out)
        return _Printable(
            job,
            sheet.options.paper,
            f"{sheet.header.army}: roster sheet",
            sheet.header.army,
            paint,
            note.strip(),
        )

    def preview(self, army_id: int, name: str | None = None) -> bool:
        """Ask the options, read and lay out on a worker, then open the print preview."""
        return self._preview_or_print(army_id, name, preview=True)

    def print(self, army_id: int, name: str | None = None) -> bool:
        """Ask the options, read and lay out on a worker, then the print dialog; the pages are
        painted for the printer on a worker too."""
        return self._preview_or_print(army_id, name, preview=False)

    def export_pdf(self, army_id: int, path: Path | None = None, name: str | None = None) -> bool:
        """Ask the options and where (unless ``path`` is given: then no questions, the
        remembered options), then read, lay out and write the PDF on a worker."""
        from ui.widgets.print_options import load_roster_choice

        asked = self._pdf_choice(
            army_id,
            path,
            name,
            "Export roster sheet as PDF",
            "{name}",
            load_roster_choice,
            f"army {army_id}",
        )
        if asked is None:
            return False
        choice, target, name = asked
        services = self._services

        def work(step: Step) -> tuple[RosterPrint, ExportResult]:
            from ui.printing import export_pdf

            job, layout = _prepare_roster(services, army_id, choice, step)
            what = "writing pages"
            result = export_pdf(
                job.sheet,
                target,
                layout=layout,
                progress=lambda done, total: step(what, done, total),
            )
            return job, result

        def saved(outcome: tuple[RosterPrint, ExportResult]) -> None:
            job, result = outcome
            self.last_result = job
            self.last_export = result.path
            self._banner.show_note(
                f"Saved {_n(result.pages, 'page')} to {result.path}." + left_out_text(job.left_out)
            )

        return self._start(
            f"Exporting {name} to {target.name}", work, saved, "The PDF was not written"
        )


# ---------------------------------------------------------------------------------------------
# Battle reports


def _prepare_report(
    services: Services, battle_id: int, choice: ReportChoice, step: Step
) -> tuple[BattleReport, SheetLayout]:
    from ui.printing.image import MeasuringDevice
    from ui.printing.report import layout_battle_report

    step("reading the battle log", 0, 0)
    report = services.printing.battle_report(BattleId(battle_id))
    step("laying out the report", 0, 0)
    device = MeasuringDevice(choice.paper)
    layout = layout_battle_report(report, device.writer, black_and_white=choice.black_and_white)
    return report, layout


class ReportPrinting(_Printing):
    """Print preview, print, PDF and Markdown export of a battle's report for a window.

    ``make_menu(parent, current)`` gives a "Battle report" menu (for the Battle menu) whose
    entries act on ``current()``: ``(battle id, name)`` or ``None`` when no battle is shown or
    selected.
    """

    folder_kind = "reports"

    PREPARING = "Preparing the report of {name}"
    FAILED = "Can't {verb} the report of {name}"
    _current: Callable[[], tuple[int, str | None] | None] | None = None

    def make_menu(
        self, parent: QWidget, current: Callable[[], tuple[int, str | None] | None]
    ) -> QMenu:
        from ui.widgets.common import make_action

        self._current = current
        menu = QMenu("Battle &report", parent)
        menu.setObjectName("reportMenu")
        menu.setToolTipsVisible(True)
        self.preview_action = make_action(
            menu,
            "Print pre&view…",
            self.preview_current,
            name="reportPreviewAction",
            tip="Preview the report of the battle shown (or selected)",
        )
        self.print_action = make_action(
            menu,
            "&Print…",
            self.print_current,
            name="reportPrintAction",
            tip="Print the report of the battle shown (or selected)",
        )
        self.pdf_action = make_action(
            menu,
            "Export as P&DF…",
            self.export_pdf_current,
            name="reportPdfAction",
            tip="Save the battle report as a PDF: the account round by round, casualties and "
            "a chart",
        )
        self.markdown_action = make_action(
            menu,
            "Export as &Markdown…",
            self.export_markdown_current,
            name="reportMarkdownAction",
            tip="Save the battle report as Markdown, to paste in a forum post",
        )
        for a in (
            self.preview_action,
            self.print_action,
            None,
            self.pdf_action,
            self.markdown_action,
        ):
            if a is None:
                menu.addSeparator()
            else:
                menu.addAction(a)
        menu.aboutToShow.connect(self.update_enabled)
        return menu

    def update_enabled(self) -> None:
        """Enable the report entries when a battle is shown or selected."""
        has = self._current is not None and self._current() is not None
        for a in (self.preview_action, self.print_action, self.pdf_action, self.markdown_action):
            a.setEnabled(has)

    @staticmethod
    def describe_file_actions(
        battle: bool, preview: QAction, print_: QAction, pdf: QAction
    ) -> None:
        """Name what File > Print preview, Print and Export PDF will print: the selected
        battle's report or the selected army's roster sheet."""
        what = "the selected battle's report" if battle else "the selected army's roster sheet"
        pdf.setText("Export report as P&DF…" if battle else "Export roster as P&DF…")
        for action, tip in (
            (preview, f"Preview {what}"),
            (print_, f"Print {what}"),
            (pdf, f"Save {what} as a PDF"),
        ):
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            action.setStatusTip(tip)
            action.setToolTip(f"{tip} ({keys})" if keys else tip)

    def _target(self) -> tuple[int, str | None] | None:
        found = self._current() if self._current is not None else None
        if found is None:
            self._banner.show_error("Open or select a battle to write its report.")
        return found

    def preview_current(self) -> bool:
        found = self._target()
        return found is not None and self.preview(*found)

    def print_current(self) -> bool:
        found = self._target()
        return found is not None and self.print(*found)

    def export_pdf_current(self) -> bool:
        found = self._target()
        return found is not None and self.export_pdf(found[0], None, found[1])

    def export_markdown_current(self) -> bool:
        found = self._target()
        return found is not None and self.export_markdown(found[0], None, found[1])

    def _ask(self, battle_id: int, name: str | None, verb: str) -> tuple[ReportChoice | None, str]:
        from ui.widgets.print_options import ReportOptionsDialog

        if name is None:
            name = self._battle_name(battle_id)
            if name is None:
                return None, ""
        return ReportOptionsDialog.ask(self._window, self.settings, name, verb), name

    def _battle_name(self, battle_id: int) -> str | None:
        return self._read_name(
            lambda: self._services.battles.battle(BattleId(battle_id)).battle.name,
            "Can't write this battle's report",
        )

    _prepare = staticmethod(_prepare_report)

    def _printable(self, prepared: tuple[BattleReport, SheetLayout], choice: Any) -> _Printable:
        report, layout = prepared
        title = f"{report.title}: battle report"

        def paint(printer: Any, **progress: Any) -> SheetLayout:
            from ui.printing.report import print_battle_report

            return print_battle_report(printer, report, layout=layout, **progress)

        return _Printable(report, choice.paper, title, title, paint)

    def preview(self, battle_id: int, name: str | None = None) -> bool:
        return self._preview_or_print(battle_id, name, preview=True)

    def print(self, battle_id: int, name: str | None = None) -> bool:
        return self._preview_or_print(battle_id, name, preview=False)

    def export_pdf(self, battle_id: int, path: Path | None = None, name: str | None = None) -> bool:
        """Ask paper and black and white, and where (unless ``path``: the remembered
        choices), then read and write the PDF on a worker."""
        from ui.widgets.print_options import load_report_choice

        asked = self._pdf_choice(
            battle_id,
            path,
            name,
            "Export battle report as PDF",
            "{name} report",
            load_report_choice,
            f"battle {battle_id}",
        )
        if asked is None:
            return False
        choice, target, name = asked
        services = self._services

        def work(step: Step) -> tuple[BattleReport, ExportResult]:
            from ui.printing.report import export_report_pdf

            step("reading the battle log", 0, 0)
            report = services.printing.battle_report(BattleId(battle_id))
            what = "writing pages"
            result = export_report_pdf(
                report,
                target,
                choice.paper,
                lambda done, total: step(what, done, total),
                black_and_white=choice.black_and_white,
            )
            return report, result

        def saved(outcome: tuple[BattleReport, ExportResult]) -> None:
            report, result = outcome
            self.last_result = report
            self.last_export = result.path
            self._banner.show_note(
                f"Saved the report of {report.title} ({_n(result.pages, 'page')}) to {result.path}."
            )

        return self._start(
            f"Exporting the report of {name} to {target.name}",
            work,
            saved,
            "The PDF was not written",
        )

    def export_markdown(
        self, battle_id: int, path: Path | None = None, name: str | None = None
    ) -> bool:
        """Ask where (unless ``path``), then write the report as Markdown for a forum post."""
        if path is None:
            if name is None:
                name = self._battle_name(battle_id)
                if name is None:
                    return False
            path = self._save_path(
                "Export battle report as Markdown", "Markdown files (*.md)", f"{name} report", ".md"
            )
            if path is None:
                return False
        name = name or f"battle {battle_id}"
        services = self._services
        target = path

        def work(step: Step) -> tuple[BattleReport, Path]:
            from brikdesk.services.printing import write_report_markdown

            step("reading the battle log", 0, 0)
            report = services.printing.battle_report(BattleId(battle_id))
            step("writing the file", 0, 0)
            return report, write_report_markdown(report, target)

        def saved(outcome: tuple[BattleReport, Path]) -> None:
            report, written = outcome
            self.last_result = report
            self.last_export = written
            self._banner.show_note(
                f"Saved the report of {report.title} as Markdown to "
                f"{written}: ready to paste in a forum post."
            )

        return self._start(
            f"Exporting the report of {name} to {target.name}",
            work,
            saved,
            "The Markdown file was not written",
        )


__all__ = [
    "Cancelled",
    "JobProgress",
    "ReportPrinting",
    "RosterPrinting",
    "left_out_text",
    "safe_file_name",
]
