"""BrikDesk's main window, the app shell: the campaign navigator, the campaign overview and the
battle page, the menus, the status bar.

The window gets everything through its constructor (design: no globals, no service locator):
the services, the bus, the undo histories (``ui.undo.UndoScopes``: its own, one per roster, the
catalog's, one per battle) and the settings; ``ui.app`` builds it. It composes the parts that do
the work, one job each:

- ``shown`` (``campaign``): the campaign shown, its navigator and overview;
- ``campaigns``: campaign, player and army commands;
- ``files``: import, export, print, preview and PDF;
- ``battles``: the battle page with the battle tracker's panel, the Battle menu, table mode;
- ``windows``: the roster, catalog and history windows, Help and Settings;
- ``actions`` and ``menus``: the menus and the toolbar.

It opens the last campaign (the demo on the first start) once the database is open.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QIcon
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.catalog import DEFAULT_EDITION
from brikdesk.domain.ids import ArmyId, BattleId, CampaignId, PlayerId
from brikdesk.services import Services
from brikdesk.services.summaries import Navigator
from ui.appearance import apply_theme
from ui.bus import Bus
from ui.dialogs.progress import ProgressJob
from ui.main_window.actions import MainActions, MainState
from ui.main_window.battles import Battles
from ui.main_window.campaign import APP_TITLE, CampaignShown
from ui.main_window.campaigns import CampaignCommands
from ui.main_window.files import FileCommands
from ui.main_window.menus import MainMenus
from ui.main_window.windows import Windows
from ui.screen import centre_on_screen, fit_to_screen, roomy_size
from ui.settings import AppSettings
from ui.undo import UndoScopes
from ui.wheel import guard_wheel
from ui.widgets.common import Actions, ElidedLabel, MessageBanner
from ui.windows.battle_sheet_printing import BattleSheetPrinting
from ui.windows.navigator import ARMY, BATTLE, PLAYER, BattlePage, CampaignNavigator, OverviewPage
from ui.windows.printing import ReportPrinting, RosterPrinting

if TYPE_CHECKING:  # the windows load when first opened
    from brikdesk.persistence.db import Database
    from ui.dialogs.about import AboutDialog
    from ui.dialogs.rules_reference import RulesReferenceDialog
    from ui.live import LiveRefresh
    from ui.models.proposals import ProposalInbox
    from ui.panels import BattlePanel
    from ui.windows.catalog import CatalogWindow
    from ui.windows.history import HistoryWindow
    from ui.windows.roster import RosterWindow

log = logging.getLogger(__name__)


class MainWindow(QMainWindow):
    """The top-level window over ``services``; ``database`` names the database in use.

    The app builds it before the database is open (``services`` not yet connected): it then
    says "Opening <database>…" and offers nothing that needs the database until
    ``database_opened`` (``ui.app.StartUp``).
    """

    #: Edit > Settings saved new preferences (table mode and the print dialogs read them).
    preferences_changed = Signal()

    def __init__(
        self,
        services: Services,
        bus: Bus,
        scopes: UndoScopes,
        *,
        settings: AppSettings | None = None,
        database: str = "",
        icon: QIcon | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("MainWindow")
        self.services = services
        self.bus = bus
        #: The undo histories (``ui.undo``): this window's own, each roster's, each battle's.
        self.undo_scopes = scopes
        self.undo_stack = scopes.main()
        self.settings = settings or AppSettings()
        apply_theme(self.settings.theme)  # before any widget takes its colours
        self.database = database
        self.app_icon = icon or QIcon()
        if icon is not None:
            self.setWindowIcon(icon)
        self.setWindowTitle(APP_TITLE)
        self.resize(1200, 760)
        self.setMinimumSize(QSize(720, 460))
        #: The open database, kept with the window (``ui.app``) and closed after it.
        self.db: Database | None = None
        self.live: LiveRefresh | None = None

        self.banner = MessageBanner(self)
        self.runner = Actions(self, self.undo_stack, bus, self.banner)
        self.printing = RosterPrinting(self, services, self.banner, self.settings)
        self.report_printing = ReportPrinting(self, services, self.banner, self.settings)
        self.battle_sheet_printing = BattleSheetPrinting(self, services, self.banner, self.settings)
        self._build_central()
        self.shown = CampaignShown(self, self)
        self.campaigns = CampaignCommands(self, self)
        self.files = FileCommands(self, self)
        self.battles = Battles(self, self)
        self.windows = Windows(self, self)
        from ui.dialogs.share import Sharing  # the players' page

        self.sharing = Sharing(self, services, self.settings)
        self.main_actions = MainActions(self, self)
        self.menus = MainMenus(
            self,
            self.main_actions,
            share_campaign=self.sharing.campaign_action,
            share_battle=self.sharing.battle_action,
            report_menu=self.report_printing.make_menu(self, self.battles.current_battle),
            fill_recent=self.campaigns.fill_recent,
            navigator=self.navigator,
        )
        self.toolbar = self.menus.toolbar
        self._build_status_bar()
        self.navigator.activated_entry.connect(self.open_entry)
        self.navigator.current_entry.connect(self.update_enabled)
        self.navigator_dock.visibilityChanged.connect(self.update_enabled)
        self.overview.link_activated.connect(self.open_entry)
        self.battle_page.back.connect(self.show_overview)
        self.pages.currentChanged.connect(self.follow_page)
        bus.changed.connect(self.shown.on_changed)
        bus.status.connect(self._on_status)
        self._restore_layout()
        guard_wheel(self)
        if services.connected:
            self.database_opened(database)
        else:
            self._show_opening()

    # -- construction ---------------------------------------------------------------------

    def _build_central(self) -> None:
        # The navigator first: Tab reads the left pane, then the page beside it.
        self.navigator = CampaignNavigator(self)
        self.navigator_dock = QDockWidget("Campaign", self)
        self.navigator_dock.setObjectName("navigatorDock")
        self.navigator_dock.setWidget(self.navigator)
        self.navigator_dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self.navigator_dock.setMinimumWidth(220)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.navigator_dock)
        self.pages = QStackedWidget(self)
        self.pages.setObjectName("pages")
        self.overview = OverviewPage(self.pages)
        self.battle_page = BattlePage(self.pages)
        self.battle_page.body.hide()  # the tracker's panel takes the page
        self.pages.addWidget(self.overview)
        self.pages.addWidget(self.battle_page)
        holder = QWidget(self)
        v = QVBoxLayout(holder)
        v.setContentsMargins(6, 6, 6, 0)
        v.setSpacing(4)
        v.addWidget(self.banner)
        v.addWidget(self.pages, 1)
        self.setCentralWidget(holder)
        self.resizeDocks([self.navigator_dock], [300], Qt.Orientation.Horizontal)

    def _build_status_bar(self) -> None:
        status = self.statusBar()
        status.setObjectName("statusBar")
        # A long path is shortened in the middle (whole in the tooltip), so that messages keep
        # their room and never run into it.
        self.database_label = ElidedLabel(
            f"Database: {self.database}" if self.database else "", status
        )
        self.database_label.setObjectName("databaseLabel")
        self._database_tip()
        status.addPermanentWidget(self.database_label)
        self.edition_label = QLabel(f"Rules: BrikWars {DEFAULT_EDITION}", status)
        self.edition_label.setContentsMargins(6, 0, 4, 0)
        self.edition_label.setObjectName("editionLabel")
        status.addPermanentWidget(self.edition_label)
        status.showMessage("Ready")

    def _database_tip(self) -> None:
        self.database_label.setToolTip(
            f"{self.database_label.text()}\nThe database BrikDesk is using "
            "(--db URL or BRIKDESK_DB choose another)"
        )

    def _restore_layout(self) -> None:
        # The docks and toolbars first: restoring them after the geometry would shrink the
        # window by a hidden dock's width.
        state = self.settings.get_bytes("main/state")
        if state is not None:
            self.restoreState(state)
        if not self.settings.restore_geometry("main", self):
            # The first start: most of the screen (names and lists uncut on a big monitor).
            self.resize(roomy_size(self, QSize(1200, 760)))
            centre_on_screen(self)
        fit_to_screen(self, self.width(), self.height())

    # -- the database ---------------------------------------------------------------------

    def _show_opening(self) -> None:
        """Before the database is open: say which one is opening; nothing to act on yet."""
        self.overview.show_opening(self.database)
        self.statusBar().showMessage("Opening the database…")
        self.update_enabled()

    def database_warning(self, warning: str) -> None:
        """A risk of the database's place (a synced folder, a network drive): in the banner
        and in the database label's tooltip."""
        self.database_label.setToolTip(f"{self.database_label.toolTip()}\n\n{warning}")
        self.banner.show_note(warning)

    def database_opened(self, database: str) -> None:
        """The services have their database: name it and show the last campaign."""
        self.database = database
        self.database_label.setText(f"Database: {database}" if database else "")
        self._database_tip()
        self.settings.use_database(database)
        self.statusBar().showMessage("Ready", 5000)
        self.shown.open_initial()
        self._start_live_refresh()

    def _start_live_refresh(self) -> None:
        """Show what other BrikDesks and commands write to this database (``ui.live``)."""
        from ui.live import LiveRefresh

        try:
            watch = self.services.change_watch()
        except Exception:  # no database layer to watch (a test double): nothing to poll
            log.debug("no live refresh", exc_info=True)
            return
        self.live = LiveRefresh(watch, self.bus, self)
        self.live.start()

    def _on_status(self, text: str) -> None:
        self.statusBar().showMessage(text, 10_000)

    # -- what is shown --------------------------------------------------------------------

    @property
    def campaign_id(self) -> CampaignId | None:
        """The campaign shown."""
        return self.shown.campaign_id

    @property
    def nav(self) -> Navigator | None:
        """The campaign shown as its navigator was last read."""
        return self.shown.nav

    @property
    def battle_panel(self) -> BattlePanel | None:
        """The battle tracker's panel on the battle page."""
        return self.battles.panel

    @property
    def proposals(self) -> ProposalInbox:
        """The players' proposals waiting for the organizer (the share's)."""
        return self.sharing.inbox

    @property
    def rosters(self) -> dict[ArmyId, RosterWindow]:
        return self.windows.rosters

    @property
    def catalogs(self) -> dict[CampaignId, CatalogWindow]:
        return self.windows.catalogs

    @property
    def histories(self) -> dict[CampaignId, HistoryWindow]:
        return self.windows.histories

    def selected(self) -> tuple[str, int]:
        """What the navigator has selected: its kind (``PLAYER``, ``ARMY``, ``BATTLE``...)
        and id."""
        return self.navigator.current_key()

    def open_entry(self, kind: str, ident: int) -> None:
        """A navigator entry or an overview link was activated."""
        if kind == "settings":
            self.campaigns.edit_campaign()
        elif kind == "history":
            self.windows.open_history()
        elif kind == ARMY:
            self.windows.open_roster(ArmyId(ident))
        elif kind == BATTLE:
            self.battles.open_battle(BattleId(ident))
        elif kind == PLAYER:
            self.navigator.select(PLAYER, ident)
            self.campaigns.edit_selected()

    def show_overview(self) -> None:
        """The campaign overview (table mode's hidden navigator comes back)."""
        self.battles.table_mode(False)
        if self.pages.currentWidget() is not self.overview:
            self.pages.setCurrentWidget(self.overview)
            self.shown.show_overview_page(self.shown.nav)

    def follow_page(self, *_args: object) -> None:
        """Edit > Undo offers the history of what is shown: the battle's on its page (its log,
        the combat wizard), the main window's own elsewhere. The page's boxes take the wheel
        only once chosen (``ui.wheel``)."""
        guard_wheel(self)
        panel = self.battles.panel
        if self.pages.currentWidget() is self.battle_page and panel is not None:
            self.undo_scopes.setActiveStack(panel.undo_stack)
        else:
            self.undo_scopes.setActiveStack(self.undo_stack)

    def update_enabled(self, *_args: object) -> None:
        """Enable the actions that can act on what is open and selected now (each entry's
        ``enabled_when`` in ``MAIN_ACTIONS``)."""
        a = self.main_actions
        kind, _ident = self.selected()
        nav = self.shown.nav
        ready = self.services.connected  # the database is open
        has = ready and self.shown.campaign_id is not None
        current = self.battles.current_battle() if has else None
        status = (
            next((b.status for b in nav.battles if current and b.id == current[0]), None)
            if nav
            else None
        )
        a.update_enabled(
            MainState(
                ready=ready,
                has_campaign=has,
                selected=kind,
                players=len(nav.players) if nav else 0,
                battle_status=status,
                navigator_shown=not self.navigator_dock.isHidden(),
            )
        )
        self.menus.recent_menu.setEnabled(ready)
        self.report_printing.describe_file_actions(
            kind == BATTLE, a.preview_action, a.print_action, a.pdf_action
        )
        self.sharing.set_enabled(has, status is not None)

    # -- the shell's commands, as scripts and tests call them -----------------------------

    def open_campaign(self, campaign_id: CampaignId, *, quiet: bool = False) -> bool:
        return self.shown.open_campaign(campaign_id, quiet=quiet)

    def new_campaign(self) -> CampaignId | None:
        return self.campaigns.new_campaign()

    def choose_campaign(self) -> bool:
        return self.campaigns.choose_campaign()

    def delete_campaign(self) -> bool:
        return self.campaigns.delete_campaign()

    def recent_actions(self) -> list[QAction]:
        return self.campaigns.recent_actions()

    def add_player(self) -> PlayerId | None:
        return self.campaigns.add_player()

    def add_army(self) -> ArmyId | None:
        return self.campaigns.add_army()

    def delete_selected(self) -> bool:
        return self.campaigns.delete_selected()

    def import_campaign(
        self, path: Path | None = None, name: str | None = None
    ) -> ProgressJob | None:
        return self.files.import_campaign(path, name)

    def export_campaign(self, path: Path | None = None) -> ProgressJob | None:
        return self.files.export_campaign(path)

    def print_preview(self) -> bool:
        return self.files.print_preview()

    def export_pdf(self, path: Path | None = None) -> bool:
        return self.files.export_pdf(path)

    def open_roster(self, army_id: ArmyId) -> RosterWindow | None:
        return self.windows.open_roster(army_id)

    def open_catalog(self) -> CatalogWindow | None:
        return self.windows.open_catalog()

    def open_history(self) -> HistoryWindow | None:
        return self.windows.open_history()

    def show_rules_reference(self) -> RulesReferenceDialog:
        return self.windows.show_rules_reference()

    def show_user_guide(self) -> QWidget | None:
        return self.windows.show_user_guide()

    def show_about(self) -> AboutDialog:
        return self.windows.show_about()

    def edit_preferences(self) -> bool:
        return self.windows.edit_preferences()

    def open_battle(self, battle_id: BattleId) -> bool:
        return self.battles.open_battle(battle_id)

    def current_battle(self) -> tuple[BattleId, str | None] | None:
        return self.battles.current_battle()

    def end_current_battle(self) -> bool:
        return self.battles.end_current_battle()

    def end_battle(self, battle_id: BattleId) -> bool:
        return self.battles.end_battle(battle_id)

    def print_current_battle_sheet(self) -> bool:
        return self.battles.print_current_battle_sheet()

    # -- closing --------------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:
        self.windows.close_all()
        if self.live is not None:
            self.live.stop()
        self.sharing.quit()
        self.battles.table_mode(False)  # the navigator's own visibility is what is remembered
        self.settings.save_geometry("main", self)
        self.settings.save_bytes("main/state", self.saveState())
        self.settings.sync()
        super().closeEvent(event)
