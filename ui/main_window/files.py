"""The main window's file commands: import and export a campaign (on a worker, with progress
and Cancel), and File > Print, Print preview and Export as PDF of what the navigator has
selected (an army's roster sheet or a battle's report).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from brikdesk.domain.ids import CampaignId
from brikdesk.errors import StorageError, UserError
from brikdesk.services.changes import Done
from brikdesk.services.summaries import Navigator
from ui.dialogs.progress import ProgressJob
from ui.widgets.common import MessageBanner, ServicesHost, show_storage_error
from ui.widgets.dialogs import FileChooser, TextPrompt
from ui.windows.navigator import ARMY, BATTLE
from ui.windows.printing import ReportPrinting, RosterPrinting


class ShownForFiles(Protocol):
    @property
    def nav(self) -> Navigator | None: ...
    def open_campaign(self, campaign_id: CampaignId, *, quiet: bool = False) -> bool: ...


class FileCommandsHost(ServicesHost, Protocol):
    """What the file commands use of the window: the services and settings, the campaign
    shown, the selection, the banner and the two printing paths."""

    @property
    def shown(self) -> ShownForFiles: ...
    @property
    def banner(self) -> MessageBanner: ...
    @property
    def printing(self) -> RosterPrinting: ...
    @property
    def report_printing(self) -> ReportPrinting: ...
    def selected(self) -> tuple[str, int]: ...


class FileCommands(QObject):
    """File > Import, Export, Print preview, Print and Export as PDF."""

    def __init__(self, window: QWidget, host: FileCommandsHost) -> None:
        super().__init__(window)
        self.window = window
        self.host = host
        self.services = host.services
        self.runner = host.runner
        self.settings = host.settings

    def import_campaign(
        self, path: Path | None = None, name: str | None = None
    ) -> ProgressJob | None:
        """Import a campaign file on a worker, with a progress bar and Cancel (a cancelled
        import writes nothing). Returns the job (``job.done``; ``job.result`` is the new
        campaign's id), or None if no file was chosen. A name clash asks for another name
        and imports again."""
        if path is None:
            path = FileChooser.open_path(
                self.window,
                "Import campaign",
                "BrikDesk campaigns (*.json);;All files (*)",
                settings=self.settings,
                kind="imports",
            )
            if path is None:
                return None
        chosen = path

        def done(result: Done[Any]) -> None:
            summary = self.runner.perform(lambda: result)
            job.result = None
            if summary is None:
                return
            job.result = summary.id
            self.host.shown.open_campaign(summary.id)
            self.host.banner.show_note(f"Imported {summary.name} from {chosen.name}.")

        def failed(exc: BaseException) -> None:
            if isinstance(exc, UserError) and exc.field == "name":
                again = TextPrompt.ask(
                    self.window,
                    "Import campaign",
                    f"{exc}.\nName for the imported campaign:",
                    f"{name or chosen.stem} (imported)",
                )
                if again is not None:
                    job.retry = self.import_campaign(chosen, again)
                return
            self.transfer_failed(exc)

        job = ProgressJob.start(
            self.window,
            "Importing",
            lambda progress: self.services.transfer.import_file(
                chosen, name=name, progress=progress
            ),
            on_done=done,
            on_error=failed,
            on_cancelled=lambda: self.host.banner.show_note(
                f"Import of {chosen.name} cancelled; nothing was imported."
            ),
        )
        return job

    def export_campaign(self, path: Path | None = None) -> ProgressJob | None:
        """Export the campaign on a worker, with a progress bar and Cancel (a cancelled
        export leaves the file as it was). Returns the job (``job.result``: the path)."""
        if self.host.shown.nav is None:
            return None
        campaign = self.host.shown.nav.campaign
        if path is None:
            safe = "".join(ch if ch.isalnum() or ch in " -_" else "_" for ch in campaign.name)
            path = FileChooser.save_path(
                self.window,
                "Export campaign",
                "BrikDesk campaigns (*.json)",
                f"{safe.strip()}.json",
                ".json",
                settings=self.settings,
                kind="exports",
            )
            if path is None:
                return None
        target = path

        return ProgressJob.start(
            self.window,
            "Exporting",
            lambda progress: self.services.transfer.write_export(
                campaign.id, target, progress=progress
            ),
            on_done=lambda written: self.host.banner.show_note(
                f"Exported {campaign.name} to {written}."
            ),
            on_error=self.transfer_failed,
            on_cancelled=lambda: self.host.banner.show_note(
                f"Export cancelled; {target.name} was not written."
            ),
        )

    def transfer_failed(self, exc: BaseException) -> None:
        """An import or export refused (shown in the banner) or failed (storage dialog)."""
        if isinstance(exc, UserError):
            self.host.banner.show_error(str(exc))
        elif isinstance(exc, StorageError):
            show_storage_error(self.window, exc)
        else:
            raise exc

    def print_target(self) -> tuple[str, int, str | None] | None:
        """What File > Print acts on: the selected army (its roster sheet) or battle (its
        report), with its name."""
        kind, ident = self.host.selected()
        nav = self.host.shown.nav
        if kind == ARMY:
            name = next((a.name for a in nav.armies if a.id == ident), None) if nav else None
            return ARMY, ident, name
        if kind == BATTLE:
            name = next((b.name for b in nav.battles if b.id == ident), None) if nav else None
            return BATTLE, ident, name
        self.host.banner.show_error(
            "Select an army (to print its roster) or a battle (its report) in the navigator."
        )
        return None

    def print_preview(self) -> bool:
        target = self.print_target()
        if target is None:
            return False
        kind, ident, name = target
        printing = self.host.printing if kind == ARMY else self.host.report_printing
        return printing.preview(ident, name)

    def print_army(self) -> bool:
        target = self.print_target()
        if target is None:
            return False
        kind, ident, name = target
        printing = self.host.printing if kind == ARMY else self.host.report_printing
        return printing.print(ident, name)

    def export_pdf(self, path: Path | None = None) -> bool:
        target = self.print_target()
        if target is None:
            return False
        kind, ident, name = target
        printing = self.host.printing if kind == ARMY else self.host.report_printing
        return printing.export_pdf(ident, path, name)
