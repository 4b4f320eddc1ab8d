"""Campaign > History: the timeline of battles, the armies' charts and the leaderboards.

The history is read on a worker (``HistoryService.history``, one transaction) and shown in
four tabs: Timeline (date, sides, winner, casualties per side, the unit with most kills),
Charts (army value, units alive, casualties and kills over the battles: pyqtgraph, imported
when the tab is first shown; each chart exports as PNG and SVG), Standings and Leaderboard.
The campaign report (standings, timeline and charts) prints, previews and exports as PDF or
Markdown through the same path as the other sheets (``ui.printing.campaign_report``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.history import CampaignHistory, history_markdown
from brikdesk.domain.ids import CampaignId
from brikdesk.errors import UserError
from brikdesk.services import Changes, Services
from ui.bus import Bus
from ui.screen import fit_to_screen
from ui.settings import AppSettings
from ui.widgets.common import MessageBanner
from ui.widgets.dialogs import FileChooser
from ui.workers import start_job

if TYPE_CHECKING:
    from ui.plots.history_charts import HistoryCharts

HISTORY_CHANGES = Changes.BATTLES | Changes.UNITS | Changes.PLAYERS | Changes.ARMIES


#: What a screen reader calls each table.
SPOKEN = {
    "timelineTable": "Timeline of the battles",
    "standingsTable": "Standings",
    "unitLeaders": "Units with the most kills",
    "playerLeaders": "Players with the most kills",
}


def _table(
    parent: QWidget, name: str, heads: tuple[str, ...], *, stretch_last: bool = False
) -> QTableWidget:
    """A read-only table of ``heads``; ``stretch_last``: its last column takes the room the
    others leave (the timeline's Notes), else every column is as wide as its texts."""
    t = QTableWidget(0, len(heads), parent)
    t.setObjectName(name)
    t.setAccessibleName(SPOKEN.get(name, name))
    t.setHorizontalHeaderLabels(heads)
    t.verticalHeader().hide()
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.setAlternatingRowColors(True)
    t.setSortingEnabled(False)
    # Every column as wide as its texts, refitted whenever the rows change (a stretched
    # Kills column of the standings stood ~650 px wide).
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    t.horizontalHeader().setStretchLastSection(stretch_last)
    return t


def _fill(table: QTableWidget, rows: list[tuple[Any, ...]]) -> None:
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            item = QTableWidgetItem()
            if isinstance(value, int):
                item.setData(Qt.ItemDataRole.DisplayRole, value)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            else:
                item.setText("" if value is None else str(value))
            table.setItem(r, c, item)


class HistoryWindow(QWidget):
    """The history of campaign ``campaign_id``; ``loaded`` when a history is shown."""

    loaded = Signal()

    def __init__(
        self, services: Services, bus: Bus, campaign_id: CampaignId, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("historyWindow")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.services = services
        self.campaign_id = campaign_id
        self.history: CampaignHistory | None = None
        self.last_export: Path | None = None
        self.charts: HistoryCharts | None = (
            None  # built when the Charts tab is first shown (loads pyqtgraph)
        )
        self._loading = False
        self._again = False
        self.setWindowTitle("History")
        fit_to_screen(self, 1100, 760)
        layout = QVBoxLayout(self)
        self.banner = MessageBanner(self)
        layout.addWidget(self.banner)
        self.status = QLabel("Reading the campaign's history…", self)
        self.status.setObjectName("historyStatus")
        layout.addWidget(self.status)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("historyTabs")
        layout.addWidget(self.tabs, 1)

        self.timeline = _table(
            self,
            "timelineTable",
            ("#", "Date", "Battle", "Sides", "Winner", "Casualties", "Most kills", "Notes"),
            stretch_last=True,
        )
        self.tabs.addTab(self.timeline, "&Timeline")

        charts_page = QWidget(self)
        cv = QVBoxLayout(charts_page)
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Export chart:", charts_page))
        self.chart_choice = QComboBox(charts_page)
        self.chart_choice.setObjectName("chartChoice")
        for title, attr in (
            ("Army value", "value"),
            ("Units alive", "alive"),
            ("Casualties so far", "casualties"),
            ("Kills so far", "kills"),
        ):
            self.chart_choice.addItem(title, attr)
        bar.addWidget(self.chart_choice)
        self.png_button = QPushButton("As &PNG…", charts_page)
        self.png_button.setObjectName("exportPng")
        self.png_button.clicked.connect(self._export_png)
        self.svg_button = QPushButton("As &SVG…", charts_page)
        self.svg_button.setObjectName("exportSvg")
        self.svg_button.clicked.connect(self._export_svg)
        bar.addWidget(self.png_button)
        bar.addWidget(self.svg_button)
        bar.addStretch(1)
        hint = QLabel("Wheel: zoom the battles · drag: scroll along them", charts_page)
        hint.setStyleSheet("color: palette(mid);")
        bar.addWidget(hint)
        cv.addLayout(bar)
        self.chart_scroll = QScrollArea(charts_page)
        self.chart_scroll.setObjectName("chartScroll")
        self.chart_scroll.setWidgetResizable(True)
        cv.addWidget(self.chart_scroll, 1)
        self.charts_page = charts_page
        self.tabs.addTab(charts_page, "&Charts")

        self.standings = _table(
            self,
            "standingsTable",
            (
                "Player",
                "Fought",
                "Won",
                "Drawn",
                "Lost",
                "Value",
                "Budget",
                "Alive",
                "Casualties",
                "Kills",
            ),
        )
        self.tabs.addTab(self.standings, "&Standings")

        leaders = QWidget(self)
        lv = QHBoxLayout(leaders)
        self.unit_leaders = _table(
            leaders, "unitLeaders", ("#", "Unit", "Player", "Kills", "Battles", "Status")
        )
        self.player_leaders = _table(leaders, "playerLeaders", ("#", "Player", "Kills", "Battles"))
        lv.addWidget(self.unit_leaders, 3)
        lv.addWidget(self.player_leaders, 2)
        self.tabs.addTab(leaders, "&Leaderboard")

        buttons = QHBoxLayout()
        self.preview_button = QPushButton("Report print pre&view…", self)
        self.preview_button.setObjectName("reportPreview")
        self.preview_button.clicked.connect(self.preview_report)
        self.pdf_button = QPushButton("Report as P&DF…", self)
        self.pdf_button.setObjectName("reportPdf")
        self.pdf_button.clicked.connect(self._pdf_clicked)
        self.md_button = QPushButton("Report as &Markdown…", self)
        self.md_button.setObjectName("reportMarkdown")
        self.md_button.clicked.connect(self._markdown_clicked)
        buttons.addStretch(1)
        for b in (self.preview_button, self.pdf_button, self.md_button):
            b.setEnabled(False)
            buttons.addWidget(b)
        layout.addLayout(buttons)
        self.tabs.currentChanged.connect(self._tab_changed)
        bus.changed.connect(self._on_changed)
        self.reload()

    # -- reading --------------------------------------------------------------------------

    def _settings(self) -> AppSettings | None:
        """The main window's settings (where the file dialogs' folders are remembered)."""
        own = getattr(self.parent(), "settings", None)
        return own if isinstance(own, AppSettings) else None

    def reload(self) -> None:
        """Read the history again, on a worker (a long campaign takes a moment)."""
        if self._loading:
            self._again = True
            return
        self._loading = True
        campaign_id = self.campaign_id
        history = self.services.history

        def loaded(h: CampaignHistory) -> None:
            self._loaded(campaign_id, h)

        start_job(
            self,
            lambda _progress: history.history(campaign_id),
            on_done=loaded,
            on_error=self._failed,
        )

    def show_campaign(self, campaign_id: CampaignId) -> None:
        """Show the history of ``campaign_id`` instead (the main window switched campaigns):
        never the old campaign's history under the new one's name."""
        if campaign_id == self.campaign_id:
            return
        self.campaign_id = campaign_id
        self.history = None
        self.setWindowTitle("History")
        self.status.setText("Reading the campaign's history…")
        for table in (self.timeline, self.standings, self.unit_leaders, self.player_leaders):
            table.setRowCount(0)
        for b in (self.preview_button, self.pdf_button, self.md_button):
            b.setEnabled(False)
        self.reload()

    def _loaded(self, campaign_id: CampaignId, history: CampaignHistory) -> None:
        self._loading = False
        if self._again:
            self._again = False
            self.reload()
        if campaign_id == self.campaign_id:  # not one read before a switch of campaign
            self.show_history(history)

    def _failed(self, exc: BaseException, _trace: str) -> None:
        self._loading = False
        self.status.setText("The history could not be read.")
        self.banner.show_error(str(exc))

    def _on_changed(self, changes: object) -> None:
        if isinstance(changes, Changes) and changes & HISTORY_CHANGES:
            self.reload()

    def show_history(self, h: CampaignHistory) -> None:
        self.history = h
        self.setWindowTitle(f"History: {h.campaign}")
        n = len(h.timeline)
        going = "; ".join(b.text for b in h.in_progress)
        self.status.setText(
            f"{h.campaign}: {n} finished battle{'s' if n != 1 else ''}."
            + ("" if n else " End a battle (Battle > End battle…) to start the history.")
            + (f" In progress: {going}." if going else "")
        )
        _fill(
            self.timeline,
            [
                (
                    i,
                    e.date.astimezone().strftime("%Y-%m-%d") if e.date else "-",
                    e.name + (" (from its log)" if e.from_log else ""),
                    " vs ".join(e.sides),
                    e.winner_text,
                    e.casualties_text,
                    e.top_text,
                    " ".join(e.notes.split()),
                )
                for i, e in enumerate(h.timeline, 1)
            ],
        )
        _fill(
            self.standings,
            [
                (
                    s.name,
                    s.fought,
                    s.won,
                    s.drawn,
                    s.lost,
                    f"{s.value} {h.cost_unit}",
                    "-" if s.budget is None else f"{s.budget} {h.cost_unit}",
                    s.alive,
                    s.casualties,
                    s.kills,
                )
                for s in h.standings
            ],
        )
        _fill(
            self.unit_leaders,
            [
                (i, u.name, u.player, u.kills, u.battles, u.status)
                for i, u in enumerate(h.unit_leaders, 1)
            ],
        )
        _fill(
            self.player_leaders,
            [(i, p.name, p.kills, p.battles) for i, p in enumerate(h.player_leaders, 1)],
        )
        for b in (self.preview_button, self.pdf_button, self.md_button):
            b.setEnabled(True)
        if self.charts is not None:
            self.charts.show_history(h)
        self.loaded.emit()

    def _tab_changed(self, index: int) -> None:
        if self.tabs.widget(index) is self.charts_page:
            self.show_charts()

    def show_charts(self) -> HistoryCharts:
        """Build the charts (pyqtgraph loads now) and show the Charts tab."""
        if self.charts is None:
            from ui.plots.history_charts import HistoryCharts

            self.charts = HistoryCharts(self.chart_scroll)
            self.chart_scroll.setWidget(self.charts)
            if self.history is not None:
                self.charts.show_history(self.history)
        self.tabs.setCurrentWidget(self.charts_page)
        return self.charts

    # -- exporting ------------------------------------------------------------------------

    def export_chart(
        self, attr: str, path: Path | None = None, suffix: str = ".png"
    ) -> Path | None:
        charts = self.show_charts()
        chart = charts.chart(attr)
        if path is None:
            files = "PNG image (*.png)" if suffix == ".png" else "SVG drawing (*.svg)"
            name = f"{self.history.campaign if self.history else 'campaign'} - {chart.title}"
            path = FileChooser.save_path(
                self,
                f"Export {chart.title}",
                files,
                name + suffix,
                suffix,
                settings=self._settings(),
                kind="exports",
            )
            if path is None:
                return None
        try:
            out = chart.export(path)
        except UserError as exc:
            self.banner.show_error(str(exc))
            return None
        self.banner.show_note(f"Saved {out}.")
        return out

    def _export_png(self) -> None:
        self.export_chart(self.chart_choice.currentData(), suffix=".png")

    def _export_svg(self) -> None:
        self.export_chart(self.chart_choice.currentData(), suffix=".svg")

    def _pdf_clicked(self) -> None:
        self.export_pdf()

    def _markdown_clicked(self) -> None:
        self.export_markdown()

    def export_pdf(self, path: Path | None = None) -> bool:
        """The campaign report as a PDF, written on a worker (``last_export`` when done)."""
        from ui.printing.campaign_report import export_campaign_pdf

        if self.history is None:
            return False
        if path is None:
            path = FileChooser.save_path(
                self,
                "Campaign report as PDF",
                "PDF (*.pdf)",
                f"{self.history.campaign} - campaign report.pdf",
                ".pdf",
                settings=self._settings(),
                kind="reports",
            )
            if path is None:
                return False
        history, target = self.history, path
        self.pdf_button.setEnabled(False)
        self.status.setText(f"Writing {target.name}…")

        def done(result: Any) -> None:
            self.pdf_button.setEnabled(True)
            self.last_export = result.path
            self.status.setText(
                f"Saved {result.pages} page{'s' if result.pages != 1 else ''} to {result.path}."
            )

        def failed(exc: BaseException, _trace: str) -> None:
            self.pdf_button.setEnabled(True)
            self.banner.show_error(f"The PDF was not written: {exc}")

        start_job(
            self,
            lambda _progress: export_campaign_pdf(history, target),
            on_done=done,
            on_error=failed,
        )
        return True

    def export_markdown(self, path: Path | None = None) -> Path | None:
        from brikdesk.services.printing import write_text

        if self.history is None:
            return None
        if path is None:
            path = FileChooser.save_path(
                self,
                "Campaign report as Markdown",
                "Markdown (*.md)",
                f"{self.history.campaign} - campaign report.md",
                ".md",
                settings=self._settings(),
                kind="reports",
            )
            if path is None:
                return None
        try:
            return write_text(path, history_markdown(self.history))
        except UserError as exc:
            self.banner.show_error(str(exc))
            return None

    def preview_report(self) -> Any:
        """The report in Qt's print preview (print from there): the same painting path."""
        from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog

        from ui.printing import configure_page
        from ui.printing.campaign_report import print_campaign_report

        if self.history is None:
            return None
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        configure_page(printer, "a4")
        dialog = QPrintPreviewDialog(printer, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        history = self.history
        dialog.paintRequested.connect(lambda p: print_campaign_report(p, history))
        dialog.open()
        return dialog
