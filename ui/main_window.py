"""BrikDesk's main window: the campaign navigator, the campaign overview and the menus.

The window gets everything through its constructor (design: no globals, no service locator):
the services, the bus, the undo histories (``ui.undo.UndoScopes``: its own, one per roster, the
catalog's, one per battle) and the settings; ``ui.app`` builds it. It opens
the last campaign (the demo on the first start), lists its players, armies and battles in the
navigator dock, and opens the roster windows (one per army), the catalog window and battles
(``open_battle``: the battle tracker's panel on ``battle_page``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPoint, QSize, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDockWidget,
    QLabel,
    QMainWindow,
    QMenu,
    QStackedWidget,
    QStyle,
    QToolBar,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from brikdesk.domain.catalog import DEFAULT_EDITION
from brikdesk.domain.ids import ArmyId, BattleId, CampaignId, PlayerId
from brikdesk.domain.statuses import BattleStatus
from brikdesk.errors import ConflictError, StorageError, UserError
from brikdesk.services import Changes, Services
from brikdesk.services.changes import Done
from brikdesk.services.summaries import (
    NO_BUDGET,
    ArmyPatch,
    ArmySummary,
    CampaignPatch,
    Navigator,
    PlayerPatch,
)
from ui.bus import Bus
from ui.dialogs.campaign import (
    ArmyDialog,
    CampaignSettingsDialog,
    NewCampaignDialog,
    OpenCampaignDialog,
    PlayerDialog,
)
from ui.dialogs.progress import ProgressJob
from ui.screen import centre_on_screen, fit_to_screen, roomy_size
from ui.settings import AppSettings
from ui.undo import UndoScopes, chain
from ui.widgets.common import (
    Actions,
    ElidedLabel,
    MessageBanner,
    make_action,
    show_storage_error,
    undo_redo_actions,
)
from ui.widgets.dialogs import FileChooser, TextPrompt
from ui.windows.battle_sheet_printing import BattleSheetPrinting
from ui.windows.navigator import (
    ARMY,
    BATTLE,
    PLAYER,
    BattlePage,
    CampaignNavigator,
    OverviewPage,
)
from ui.windows.printing import ReportPrinting, RosterPrinting
from ui.workers import start_job

if TYPE_CHECKING:  # the windows load when first opened
    from brikdesk.domain.aftermath import BattleResult
    from brikdesk.domain.history import CampaignHistory
    from brikdesk.persistence.db import Database
    from brikdesk.services.aftermath import Aftermath, FinishedBattle
    from ui.dialogs.about import AboutDialog
    from ui.dialogs.end_battle import EndBattleDialog
    from ui.dialogs.rules_reference import RulesReferenceDialog
    from ui.live import LiveRefresh
    from ui.panels.forms import CombatForms
    from ui.windows.catalog import CatalogWindow
    from ui.windows.history import HistoryWindow
    from ui.windows.roster import RosterWindow

log = logging.getLogger(__name__)

APP_TITLE = "BrikDesk"
NAVIGATOR_CHANGES = (
    Changes.CAMPAIGNS
    | Changes.PLAYERS
    | Changes.ARMIES
    | Changes.UNITS
    | Changes.BATTLES
    | Changes.EVENTS
)


def combat_forms() -> CombatForms:
    """The combat forms the battle panel opens: the combat wizard, the quick attack form and
    the Sprint dialog (imported when a battle is first shown: the wizard brings its charts)."""
    from ui.dialogs.sprint import open_sprint
    from ui.panels.forms import CombatForms
    from ui.wizard import open_combat_wizard, open_quick_attack

    return CombatForms(wizard=open_combat_wizard, quick=open_quick_attack, sprint=open_sprint)


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
        self.database = database
        self._icon = icon or QIcon()
        if icon is not None:
            self.setWindowIcon(icon)
        self.setWindowTitle(APP_TITLE)
        self.resize(1200, 760)
        self.setMinimumSize(QSize(720, 460))
        self.campaign_id: CampaignId | None = None
        self.nav: Navigator | None = None
        self.rosters: dict[ArmyId, RosterWindow] = {}
        self.catalogs: dict[CampaignId, CatalogWindow] = {}
        #: Campaign > History windows, one per campaign.
        self.histories: dict[CampaignId, HistoryWindow] = {}
        self.rules_reference: RulesReferenceDialog | None = None
        #: The open database, kept with the window (``ui.app``) and closed after it.
        self.db: Database | None = None
        self.live: LiveRefresh | None = None
        self._cost_unit = "CP"
        #: The overview's standings as last read: (campaign, HTML), and which read is wanted.
        self._standings: tuple[CampaignId | None, str] = (None, "")
        self._standings_wanted = 0

        self.banner = MessageBanner(self)
        self.runner = Actions(self, self.undo_stack, bus, self.banner)
        self.printing = RosterPrinting(self, services, self.banner, self.settings)
        self.report_printing = ReportPrinting(self, services, self.banner, self.settings)
        self.battle_sheet_printing = BattleSheetPrinting(self, services, self.banner, self.settings)
        self._build_central()
        self._build_actions()
        self._build_menus()
        self._build_toolbar()
        self._build_status_bar()
        bus.changed.connect(self._on_changed)
        bus.status.connect(self._on_status)
        self._restore_layout()
        if services.connected:
            self.database_opened(database)
        else:
            self._show_opening()

    # -- construction ---------------------------------------------------------------------

    def _build_central(self) -> None:
        self.pages = QStackedWidget(self)
        self.pages.setObjectName("pages")
        self.overview = OverviewPage(self.pages)
        self.overview.link_activated.connect(self.open_entry)
        self.battle_page = BattlePage(self.pages)
        self.battle_page.back.connect(self.show_overview)
        self.battle_page.body.hide()  # the tracker's panel takes the page
        self.battle_panel: Any = None
        self.pages.addWidget(self.overview)
        self.pages.addWidget(self.battle_page)
        self.pages.currentChanged.connect(self._follow_page)
        holder = QWidget(self)
        v = QVBoxLayout(holder)
        v.setContentsMargins(6, 6, 6, 0)
        v.setSpacing(4)
        v.addWidget(self.banner)
        v.addWidget(self.pages, 1)
        self.setCentralWidget(holder)

        self.navigator = CampaignNavigator(self)
        self.navigator.activated_entry.connect(self.open_entry)
        self.navigator.current_entry.connect(self._update_enabled)
        self.navigator_dock = QDockWidget("Campaign", self)
        self.navigator_dock.setObjectName("navigatorDock")
        self.navigator_dock.setWidget(self.navigator)
        self.navigator_dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self.navigator_dock.setMinimumWidth(220)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.navigator_dock)
        self.navigator_dock.visibilityChanged.connect(self._update_enabled)
        self.resizeDocks([self.navigator_dock], [300], Qt.Orientation.Horizontal)

    def _build_actions(self) -> None:
        icon = self.style().standardIcon
        sp = QStyle.StandardPixmap
        act = make_action
        self.new_action = act(
            self,
            "&New campaign…",
            self.new_campaign,
            name="newAction",
            shortcut=QKeySequence.StandardKey.New,
            tip="Start a new campaign",
            icon=icon(sp.SP_FileIcon),
        )
        self.open_action = act(
            self,
            "&Open campaign…",
            self.choose_campaign,
            name="openAction",
            shortcut=QKeySequence.StandardKey.Open,
            tip="Open another campaign of this database",
            icon=icon(sp.SP_DirOpenIcon),
        )
        self.import_action = act(
            self,
            "&Import campaign…",
            self.import_campaign,
            name="importAction",
            shortcut="Ctrl+I",
            tip="Read a campaign exported as JSON (a new campaign)",
        )
        self.export_action = act(
            self,
            "&Export campaign…",
            self.export_campaign,
            name="exportAction",
            shortcut="Ctrl+Shift+S",
            tip="Write the whole campaign to a JSON file",
        )
        self.preview_action = act(
            self,
            "Print pre&view…",
            self.print_preview,
            name="printPreviewAction",
            shortcut="Ctrl+Shift+P",
            tip="Preview the selected army's roster sheet or the selected battle's report",
            icon=icon(sp.SP_FileDialogContentsView),
        )
        self.print_action = act(
            self,
            "&Print…",
            self.print_army,
            name="printAction",
            shortcut=QKeySequence.StandardKey.Print,
            tip="Print the selected army's roster sheet or the selected battle's report",
        )
        self.pdf_action = act(
            self,
            "Export as P&DF…",
            self.export_pdf,
            name="exportPdfAction",
            shortcut="Ctrl+Shift+E",
            tip="Save the selected army's roster sheet or the selected battle's report as a PDF",
        )
        self.quit_action = act(
            self,
            "&Quit",
            self.close,
            name="quitAction",
            shortcut=QKeySequence.StandardKey.Quit,
            tip="Close BrikDesk",
        )
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)

        # Edit > Undo follows the page shown: a battle's history on its page, else this
        # window's own (``_follow_page``).
        self.undo_scopes.setActiveStack(self.undo_stack)
        self.undo_action, self.redo_action = undo_redo_actions(self, self.undo_scopes)
        self.edit_selected_action = act(
            self,
            "&Edit selected…",
            self.edit_selected,
            name="editSelectedAction",
            shortcut="F2",
            tip="Edit the player or army selected in the navigator",
        )
        self.delete_selected_action = act(
            self,
            "&Delete selected",
            self.delete_selected,
            name="deleteSelectedAction",
            shortcut=QKeySequence.StandardKey.Delete,
            tip="Delete the player, army or battle selected in the navigator (Undo brings it back)",
        )

        self.navigator_action = self.navigator_dock.toggleViewAction()
        self.navigator_action.setText("&Navigator")
        # The dock's title is the campaign's name; its menu entry stays "Navigator".
        self.navigator_dock.windowTitleChanged.connect(self._name_navigator_action)
        self.navigator_action.setShortcut(QKeySequence("Ctrl+1"))
        self.navigator_action.setObjectName("navigatorAction")
        self.overview_action = act(
            self,
            "Campaign &overview",
            self.show_overview,
            name="overviewAction",
            shortcut="Ctrl+0",
            tip="Show the campaign overview",
        )
        self.refresh_action = act(
            self,
            "&Refresh",
            self.refresh,
            name="refreshAction",
            shortcut=QKeySequence.StandardKey.Refresh,
            tip="Read the campaign again from the database",
        )

        self.add_player_action = act(
            self,
            "Add &player…",
            self.add_player,
            name="addPlayerAction",
            shortcut="Ctrl+Alt+N",
            tip="Add a player to the campaign",
            icon=icon(sp.SP_FileDialogNewFolder),
        )
        self.add_army_action = act(
            self,
            "Add &army…",
            self.add_army,
            name="addArmyAction",
            shortcut="Ctrl+Shift+N",
            tip="Add an army for a player",
            icon=icon(sp.SP_FileDialogListView),
        )
        self.open_roster_action = act(
            self,
            "Open &roster",
            self.open_selected_roster,
            name="openRosterAction",
            shortcut="Ctrl+R",
            tip="Open the roster of the selected army",
            icon=icon(sp.SP_FileDialogDetailedView),
        )
        self.catalog_action = act(
            self,
            "&Catalog",
            self.open_catalog,
            name="catalogAction",
            shortcut="Ctrl+K",
            tip="The campaign's weapons, equipment and unit types",
            icon=icon(sp.SP_FileDialogInfoView),
        )
        self.settings_action = act(
            self,
            "Campaign &settings…",
            self.edit_campaign,
            name="campaignSettingsAction",
            shortcut="Ctrl+Shift+K",
            tip="The campaign's name, rules edition, cost system, default army budget and notes",
        )
        self.delete_campaign_action = act(
            self,
            "Delete campaign",
            self.delete_campaign,
            name="deleteCampaignAction",
            tip="Delete this campaign with its players, armies and battles (Undo brings it back)",
        )

        self.open_battle_action = act(
            self,
            "&Open battle",
            self.open_selected_battle,
            name="openBattleAction",
            shortcut="Ctrl+B",
            tip="Show the battle selected in the navigator",
        )
        self.new_battle_action = act(
            self,
            "&New battle…",
            self.new_battle,
            name="newBattleAction",
            shortcut="Ctrl+Shift+B",
            tip="Muster units from the armies, set the turn order and start a battle",
        )

        self.end_battle_action = act(
            self,
            "&End battle…",
            self.end_current_battle,
            name="endBattleAction",
            shortcut="Ctrl+Shift+F",
            tip="End the battle shown: who fell, who won, "
            "promotions; the campaign is updated in one step",
        )
        self.history_action = act(
            self,
            "&History",
            self.open_history,
            name="historyAction",
            shortcut="Ctrl+H",
            tip="The campaign's battles, standings, charts and leaderboard",
        )
        self.battle_sheet_action = act(
            self,
            "Roster sheet of the &mustered units…",
            self.print_current_battle_sheet,
            name="battleSheetAction",
            tip="Preview and print the roster sheet of exactly the units mustered into the battle",
        )
        self.rules_action = act(
            self,
            "&Rules reference",
            self.show_rules_reference,
            name="rulesAction",
            shortcut=QKeySequence.StandardKey.HelpContents,
            tip="Modifiers and how BrikDesk reads the rules",
            icon=icon(sp.SP_MessageBoxQuestion),
        )
        self.guide_action = act(
            self,
            "&User guide",
            self.show_user_guide,
            name="userGuideAction",
            tip="The guide to BrikDesk's windows, with pictures (shipped with the app)",
        )
        self.about_action = act(
            self,
            "&About BrikDesk",
            self.show_about,
            name="aboutAction",
            tip="Version, database, rules edition and libraries",
        )
        self.preferences_action = act(
            self,
            "Se&ttings…",
            self.edit_preferences,
            name="preferencesAction",
            shortcut=QKeySequence.StandardKey.Preferences,
            tip="Paper, black-and-white printing, dice, table "
            "mode's text size, new campaigns' rules edition",
        )
        self.preferences_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        from ui.dialogs.share import Sharing  # the players' page (issue 26)

        self.sharing = Sharing(self, self.services, self.settings)

        def menu(title: str, name: str, items: list[QAction | QMenu | None]) -> QMenu:
            m = bar.addMenu(title)
            m.setObjectName(name)
            for a in items:
                if a is None:
                    m.addSeparator()
                elif isinstance(a, QMenu):
                    m.addMenu(a)
                else:
                    m.addAction(a)
            return m

        self.recent_menu = QMenu("&Recent campaigns", self)
        self.recent_menu.setObjectName("recentMenu")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self.file_menu = menu(
            "&File",
            "fileMenu",
            [
                self.new_action,
                self.open_action,
                self.recent_menu,
                None,
                self.import_action,
                self.export_action,
                None,
                self.preview_action,
                self.print_action,
                self.pdf_action,
                None,
                self.quit_action,
            ],
        )
        self.edit_menu = menu(
            "&Edit",
            "editMenu",
            [
                self.undo_action,
                self.redo_action,
                None,
                self.edit_selected_action,
                self.delete_selected_action,
                None,
                self.preferences_action,
            ],
        )
        self.view_menu = menu(
            "&View",
            "viewMenu",
            [self.navigator_action, None, self.overview_action, self.refresh_action],
        )
        self.campaign_menu = menu(
            "&Campaign",
            "campaignMenu",
            [
                self.add_player_action,
                self.add_army_action,
                None,
                self.open_roster_action,
                self.catalog_action,
                self.history_action,
                self.sharing.campaign_action,
                None,
                self.settings_action,
                self.delete_campaign_action,
            ],
        )
        self.report_menu = self.report_printing.make_menu(self, self.current_battle)
        self.battle_menu = menu(
            "&Battle",
            "battleMenu",
            [
                self.open_battle_action,
                self.new_battle_action,
                self.end_battle_action,
                None,
                self.report_menu,
                self.battle_sheet_action,
                self.sharing.battle_action,
            ],
        )
        self.help_menu = menu(
            "&Help", "helpMenu", [self.guide_action, self.rules_action, None, self.about_action]
        )
        self.navigator.addActions(
            [
                self.open_roster_action,
                self.open_battle_action,
                self.end_battle_action,
                self.battle_sheet_action,
                self.edit_selected_action,
                self.add_army_action,
                self.delete_selected_action,
            ]
        )
        self.navigator.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        # Delete and F2 act on the navigator's selection only when the navigator has focus.
        for a in (self.delete_selected_action, self.edit_selected_action):
            a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)

    def _build_toolbar(self) -> None:
        tb = QToolBar("Main toolbar", self)
        tb.setObjectName("mainToolbar")
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        for a in (
            self.new_action,
            self.open_action,
            None,
            self.add_player_action,
            self.add_army_action,
            self.open_roster_action,
            self.catalog_action,
            None,
            self.undo_action,
            self.redo_action,
            None,
            self.preview_action,
            None,
            self.rules_action,
        ):
            if a is None:
                tb.addSeparator()
            else:
                tb.addAction(a)
        self.addToolBar(tb)
        self.toolbar = tb
        toggle = tb.toggleViewAction()
        toggle.setText("&Toolbar")
        self.view_menu.insertAction(self.view_menu.actions()[1], toggle)

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

    def _name_navigator_action(self, *_args: object) -> None:
        self.navigator_action.setText("&Navigator")

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

    # -- campaigns ------------------------------------------------------------------------

    def _show_opening(self) -> None:
        """Before the database is open: say which one is opening; nothing to act on yet."""
        self.overview.show_opening(self.database)
        self.statusBar().showMessage("Opening the database…")
        self._update_enabled()

    def database_opened(self, database: str) -> None:
        """The services have their database: name it and show the last campaign."""
        self.database = database
        self.database_label.setText(f"Database: {database}" if database else "")
        self._database_tip()
        self.settings.use_database(database)
        self.statusBar().showMessage("Ready", 5000)
        self._open_initial_campaign()
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

    def _open_initial_campaign(self) -> None:
        last = self.settings.last_campaign
        if last is not None and self.open_campaign(last, quiet=True):
            return
        campaigns = self.runner.read(self.services.campaigns.list_campaigns) or ()
        if campaigns:
            self.open_campaign(campaigns[0].id)
        else:
            self._show_campaign(None)

    def open_campaign(self, campaign_id: CampaignId, *, quiet: bool = False) -> bool:
        """Show campaign ``campaign_id`` (False, and nothing changes, if it doesn't exist)."""
        try:
            nav = self.services.campaigns.navigator(campaign_id)
        except UserError as exc:
            if not quiet:
                self.banner.show_error(str(exc))
            self.settings.forget_recent(campaign_id)
            return False
        except StorageError as exc:
            show_storage_error(self, exc)
            return False
        changed = campaign_id != self.campaign_id
        self.campaign_id = campaign_id
        self.settings.last_campaign = campaign_id
        self.settings.add_recent(campaign_id)
        self._show_campaign(nav)
        if changed:
            self.show_overview()
            self.sharing.campaign_opened(campaign_id)
        return True

    def _show_campaign(self, nav: Navigator | None) -> None:
        self.nav = nav
        if nav is None:
            self.campaign_id = None
            self.setWindowTitle(APP_TITLE)
            self.edition_label.setText(f"Rules: BrikWars {DEFAULT_EDITION}")
        else:
            c = nav.campaign
            self._cost_unit = c.cost_system
            self.setWindowTitle(f"{c.name}: {APP_TITLE}")
            self.edition_label.setText(f"Rules: BrikWars {c.edition}")
            self.navigator_dock.setWindowTitle(c.name)
        self.navigator.show_navigator(nav, self._cost_unit)
        # The standings are read only while the overview is shown (not on every battle event).
        if self.pages.currentWidget() is self.overview:
            self._show_overview_page(nav)
        else:
            self.overview.show_navigator(nav, self._cost_unit, "")
        if (
            nav is not None
            and self.battle_page.battle_id is not None
            and self.pages.currentWidget() is self.battle_page
        ):
            if self.battle_page.battle_id not in {b.id for b in nav.battles}:
                self.show_overview()
            else:
                self.open_battle(self.battle_page.battle_id)
        self._update_enabled()

    def refresh(self) -> None:
        if self.campaign_id is None or not self.open_campaign(self.campaign_id, quiet=True):
            self._open_initial_campaign()

    def _on_changed(self, changes: object) -> None:
        if not isinstance(changes, Changes) or not changes & NAVIGATOR_CHANGES:
            return
        if self.campaign_id is not None and self.open_campaign(self.campaign_id, quiet=True):
            return
        # The campaign shown is gone (an undone create or import): show the latest one.
        campaigns = self.runner.read(self.services.campaigns.list_campaigns) or ()
        if campaigns:
            self.open_campaign(campaigns[0].id, quiet=True)
        else:
            self._show_campaign(None)

    def _on_status(self, text: str) -> None:
        self.statusBar().showMessage(text, 10_000)

    def new_campaign(self) -> CampaignId | None:
        existing = self.runner.read(self.services.campaigns.list_campaigns) or ()
        answer = NewCampaignDialog.ask(
            self, [c.name for c in existing], edition=self.settings.new_campaign_edition
        )
        if answer is None:
            return None
        summary = self.runner.perform(
            lambda: self.services.campaigns.create_campaign(
                answer.name,
                edition=answer.edition,
                cost_system=answer.cost_system,
                default_budget=answer.default_budget,
                notes=answer.notes,
            )
        )
        if summary is None:
            return None
        self.open_campaign(summary.id)
        self.statusBar().showMessage(
            f"Created {summary.name}: add players, then their armies (Campaign menu)", 10_000
        )
        return summary.id

    def edit_campaign(self) -> bool:
        """Campaign > Campaign settings: one undoable edit of what was changed."""
        if self.nav is None:
            return False
        existing = self.runner.read(self.services.campaigns.list_campaigns) or ()
        campaign = self.nav.campaign
        patch = CampaignSettingsDialog.ask(self, campaign, [c.name for c in existing])
        if patch is None:
            return False
        cid = campaign.id
        chosen = None
        if patch.edition is not None:
            chosen = self._edition_choices(cid, patch.edition)
            if chosen is None:
                return False  # cancelled: nothing changes
        edition, rest = patch.edition, replace(patch, edition=None)
        text = f"Edit campaign {campaign.name}"

        def call() -> Done[Any]:
            first = (
                self.services.editions.change(cid, edition, *chosen)
                if edition is not None and chosen is not None
                else None
            )
            if rest == CampaignPatch():
                assert first is not None
                return first
            try:
                second = self.services.campaigns.update_campaign(
                    cid, rest, version=None if first else campaign.version
                )
            except Exception:
                if first is not None:
                    first.undo()
                raise
            return chain(first, second, text) if first is not None else second

        return self.runner.perform(call, text) is not None

    def _edition_choices(
        self, cid: CampaignId, edition: str
    ) -> tuple[dict[str, str], dict[str, str]] | None:
        """What the edition change does (types and items to map, each army's costs), asked
        before anything is changed; the chosen maps, or None when cancelled."""
        from ui.dialogs.edition_change import EditionChangeDialog

        preview = self.runner.read(lambda: self.services.editions.preview(cid, edition))
        if preview is None:
            return None
        return EditionChangeDialog.ask(self, preview)

    def delete_campaign(self) -> bool:
        """Delete the campaign shown (Undo brings it back); another one is shown."""
        if self.campaign_id is None or self.nav is None:
            return False
        cid, name = self.campaign_id, self.nav.campaign.name
        version = self.nav.campaign.version
        if not self._confirm_delete("campaign", cid, f"the campaign {name}"):
            return False
        done = self.runner.perform(
            lambda: self.services.campaigns.delete_campaign(cid, version=version)
        )
        if done is not None:
            self.statusBar().showMessage(
                f"Deleted the campaign {name} (Ctrl+Z brings it back)", 10_000
            )
        return done is not None

    def choose_campaign(self) -> bool:
        campaigns = self.runner.read(self.services.campaigns.list_campaigns)
        if campaigns is None:
            return False
        chosen = OpenCampaignDialog.ask(self, campaigns, self.campaign_id)
        return chosen is not None and self.open_campaign(chosen)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        campaigns = {
            c.id: c for c in (self.runner.read(self.services.campaigns.list_campaigns) or ())
        }
        n = 0
        for cid in self.settings.recent_campaigns:
            c = campaigns.get(cid)
            if c is None:
                continue
            n += 1
            action = self.recent_menu.addAction(f"&{n} {c.name}")
            action.setData(cid)
            action.triggered.connect(lambda _=False, i=cid: self.open_campaign(i))
        if n == 0:
            none = self.recent_menu.addAction("No recent campaigns")
            none.setEnabled(False)

    def recent_actions(self) -> list[QAction]:
        self._fill_recent()
        return [a for a in self.recent_menu.actions() if a.isEnabled()]

    def import_campaign(
        self, path: Path | None = None, name: str | None = None
    ) -> ProgressJob | None:
        """Import a campaign file on a worker, with a progress bar and Cancel (a cancelled
        import writes nothing). Returns the job (``job.done``; ``job.result`` is the new
        campaign's id), or None if no file was chosen. A name clash asks for another name
        and imports again."""
        if path is None:
            path = FileChooser.open_path(
                self,
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
            self.open_campaign(summary.id)
            self.banner.show_note(f"Imported {summary.name} from {chosen.name}.")

        def failed(exc: BaseException) -> None:
            if isinstance(exc, UserError) and exc.field == "name":
                again = TextPrompt.ask(
                    self,
                    "Import campaign",
                    f"{exc}.\nName for the imported campaign:",
                    f"{name or chosen.stem} (imported)",
                )
                if again is not None:
                    job.retry = self.import_campaign(chosen, again)
                return
            self._transfer_failed(exc)

        job = ProgressJob.start(
            self,
            "Importing",
            lambda progress: self.services.transfer.import_file(
                chosen, name=name, progress=progress
            ),
            on_done=done,
            on_error=failed,
            on_cancelled=lambda: self.banner.show_note(
                f"Import of {chosen.name} cancelled; nothing was imported."
            ),
        )
        return job

    def export_campaign(self, path: Path | None = None) -> ProgressJob | None:
        """Export the campaign on a worker, with a progress bar and Cancel (a cancelled
        export leaves the file as it was). Returns the job (``job.result``: the path)."""
        if self.nav is None:
            return None
        campaign = self.nav.campaign
        if path is None:
            safe = "".join(ch if ch.isalnum() or ch in " -_" else "_" for ch in campaign.name)
            path = FileChooser.save_path(
                self,
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
            self,
            "Exporting",
            lambda progress: self.services.transfer.write_export(
                campaign.id, target, progress=progress
            ),
            on_done=lambda written: self.banner.show_note(
                f"Exported {campaign.name} to {written}."
            ),
            on_error=self._transfer_failed,
            on_cancelled=lambda: self.banner.show_note(
                f"Export cancelled; {target.name} was not written."
            ),
        )

    def _transfer_failed(self, exc: BaseException) -> None:
        """An import or export refused (shown in the banner) or failed (storage dialog)."""
        if isinstance(exc, UserError):
            self.banner.show_error(str(exc))
        elif isinstance(exc, StorageError):
            show_storage_error(self, exc)
        else:
            raise exc

    # -- players and armies ---------------------------------------------------------------

    def selected(self) -> tuple[str, int]:
        return self.navigator.current_key()

    def selected_army(self) -> ArmyId | None:
        """The army the File > Print entries use: the active roster's, else the selection."""
        kind, ident = self.selected()
        return ArmyId(ident) if kind == ARMY else None

    def add_player(self) -> PlayerId | None:
        if self.campaign_id is None:
            return None
        from brikdesk.services.campaigns import PLAYER_COLOURS

        n = len(self.nav.players) if self.nav is not None else 0
        answer = PlayerDialog.ask(
            self, "Add player", colour=PLAYER_COLOURS[n % len(PLAYER_COLOURS)]
        )
        if answer is None:
            return None
        cid = self.campaign_id
        player = self.runner.perform(
            lambda: self.services.campaigns.add_player(
                cid, answer.name, colour=answer.colour, faction=answer.faction
            )
        )
        if player is None:
            return None
        self.navigator.select(PLAYER, player.id)
        return player.id

    def add_army(self) -> ArmyId | None:
        if self.nav is None:
            return None
        kind, ident = self.selected()
        player_id = PlayerId(ident) if kind == PLAYER else None
        if kind == ARMY:
            player_id = next((a.player_id for a in self.nav.armies if a.id == ident), None)
        answer = ArmyDialog.ask(
            self,
            self.nav.players,
            player_id=player_id,
            budget=self.nav.campaign.default_budget,
            cost_unit=self._cost_unit,
        )
        if answer is None:
            return None
        campaigns = self.services.campaigns

        def no_budget(army: ArmySummary) -> Done[ArmyPatch] | None:
            return (
                None
                if answer.budget is not None
                else campaigns.update_army(army.id, ArmyPatch(budget=NO_BUDGET))
            )

        army = self.runner.perform_chain(
            lambda: campaigns.add_army(answer.player_id, answer.name, budget=answer.budget),
            no_budget,
        )
        if army is None:
            return None
        self.navigator.select(ARMY, army.id)
        return army.id

    def edit_selected(self) -> bool:
        kind, ident = self.selected()
        if self.nav is None:
            return False
        if kind == PLAYER:
            p = next((p for p in self.nav.players if p.id == ident), None)
            if p is None:
                return False
            player = PlayerDialog.ask(self, f"Edit {p.name}", p.name, p.colour, p.faction)
            if player is None:
                return False
            player_patch = PlayerPatch(
                name=player.name, colour=player.colour, faction=player.faction
            )
            return (
                self.runner.perform(
                    lambda: self.services.campaigns.update_player(
                        PlayerId(ident), player_patch, version=p.version
                    )
                )
                is not None
            )
        if kind == ARMY:
            a = next((a for a in self.nav.armies if a.id == ident), None)
            if a is None:
                return False
            army = ArmyDialog.ask(
                self,
                self.nav.players,
                title=f"Edit {a.name}",
                player_id=a.player_id,
                name=a.name,
                budget=a.budget,
                cost_unit=self._cost_unit,
            )
            if army is None:
                return False
            army_patch = ArmyPatch(
                name=army.name,
                player_id=army.player_id,
                budget=NO_BUDGET if army.budget is None else army.budget,
            )
            return (
                self.runner.perform(
                    lambda: self.services.campaigns.update_army(
                        ArmyId(ident), army_patch, version=a.version
                    ),
                    f"Edit army {army.name}",
                )
                is not None
            )
        if kind == BATTLE:
            self.open_battle(BattleId(ident))
            return True
        return False

    def delete_selected(self) -> bool:
        kind, ident = self.selected()
        calls: dict[str, Callable[..., Any]] = {
            PLAYER: self.services.campaigns.delete_player,
            ARMY: self.services.campaigns.delete_army,
            BATTLE: self.services.battles.delete_battle,
        }
        call = calls.get(kind)
        if call is None or self.nav is None:
            return False
        # The version the navigator shows: a row someone else changed since is not deleted.
        shown: dict[str, Sequence[Any]] = {
            PLAYER: self.nav.players,
            ARMY: self.nav.armies,
            BATTLE: self.nav.battles,
        }
        version = next((r.version for r in shown[kind] if r.id == ident), None)
        if self.navigator_dock.isHidden():  # nothing is deleted that is not in sight
            self.statusBar().showMessage(
                "Show the navigator (View > Navigator, Ctrl+1) and select what to delete", 8000
            )
            return False
        name = next((getattr(r, "name", "") for r in shown[kind] if r.id == ident), "")
        if not self._confirm_delete(kind, ident, f"the {kind} {name}".rstrip()):
            return False
        done = self.runner.perform(lambda: call(ident, version=version))
        if done is not None:
            self.statusBar().showMessage("Deleted (Ctrl+Z brings it back)", 8000)
        return done is not None

    def _confirm_delete(self, kind: str, ident: int, what: str) -> bool:
        """Ask before a delete, naming what goes with it (Cancel is the default)."""
        from ui.dialogs.confirm_delete import ConfirmDelete

        goes = self.runner.read(lambda: self.services.deletions.what_goes(kind, ident))
        if goes is None:
            return False
        return ConfirmDelete.ask(self, what, goes)

    def _update_enabled(self, *args: object) -> None:
        kind, _ident = self.selected()
        ready = self.services.connected  # the database is open
        has = ready and self.campaign_id is not None
        for a in (self.new_action, self.open_action, self.import_action, self.refresh_action):
            a.setEnabled(ready)
        self.recent_menu.setEnabled(ready)
        for a in (self.settings_action, self.delete_campaign_action):
            a.setEnabled(has)
        army = kind == ARMY
        for a in (self.add_player_action, self.catalog_action, self.export_action):
            a.setEnabled(has)
        self.add_army_action.setEnabled(has and bool(self.nav and self.nav.players))
        self.open_roster_action.setEnabled(army)
        for a in (self.preview_action, self.print_action, self.pdf_action):
            a.setEnabled(army or kind == BATTLE)
        self.report_printing.describe_file_actions(
            kind == BATTLE, self.preview_action, self.print_action, self.pdf_action
        )
        self.open_battle_action.setEnabled(kind == BATTLE)
        self.history_action.setEnabled(has)
        current = self.current_battle() if has else None
        status = (
            next((b.status for b in self.nav.battles if current and b.id == current[0]), None)
            if self.nav
            else None
        )
        self.end_battle_action.setEnabled(status is BattleStatus.IN_PROGRESS)
        self.battle_sheet_action.setEnabled(status is not None)
        self.sharing.set_enabled(has, status is not None)
        self.new_battle_action.setEnabled(has and len(self.nav.players if self.nav else ()) >= 2)
        self.edit_selected_action.setEnabled(kind in (PLAYER, ARMY, BATTLE))
        self.delete_selected_action.setEnabled(
            kind in (PLAYER, ARMY, BATTLE) and not self.navigator_dock.isHidden()
        )

    # -- windows and pages ----------------------------------------------------------------

    def open_entry(self, kind: str, ident: int) -> None:
        if kind == "settings":
            self.edit_campaign()
        elif kind == "history":
            self.open_history()
        elif kind == ARMY:
            self.open_roster(ArmyId(ident))
        elif kind == BATTLE:
            self.open_battle(BattleId(ident))
        elif kind == PLAYER:
            self.navigator.select(PLAYER, ident)
            self.edit_selected()

    def open_roster(self, army_id: ArmyId) -> RosterWindow | None:
        """Open (or raise) the roster window of an army."""
        window = self.rosters.get(army_id)
        if window is None:
            from ui.windows.roster import RosterWindow

            window = RosterWindow(
                self.services,
                self.bus,
                self.undo_scopes.army(army_id),
                self.settings,
                army_id,
                self,
            )
            if window.roster is None:
                self.banner.show_error(
                    f"There is no army with id {army_id} (it may have been deleted)"
                )
                return None
            self.rosters[army_id] = window
            window.closed.connect(self._roster_closed)
            window.army_made.connect(self._army_made)
            window.ask_army = self._ask_army
            n = len(self.rosters) - 1
            if n:  # cascade, so a new roster doesn't hide the previous one
                window.move(window.pos() + QPoint(28 * n, 28 * n))
        window.show()
        window.raise_()
        window.activateWindow()
        return window

    def _ask_army(self, *args: Any, **kwargs: Any) -> Any:
        """The army dialog for a roster's Duplicate army (screens do not import the shell's
        dialogs)."""
        return ArmyDialog.ask(*args, **kwargs)

    def _army_made(self, army_id: int) -> None:
        """A roster made a new army (Duplicate army): select it and open its roster."""
        self.navigator.select(ARMY, army_id)
        self.open_roster(ArmyId(army_id))

    def _roster_closed(self, army_id: ArmyId) -> None:
        self.rosters.pop(army_id, None)

    def open_selected_roster(self) -> RosterWindow | None:
        kind, ident = self.selected()
        return self.open_roster(ArmyId(ident)) if kind == ARMY else None

    def open_catalog(self) -> CatalogWindow | None:
        if self.campaign_id is None:
            return None
        window = self.catalogs.get(self.campaign_id)
        if window is None:
            from ui.windows.catalog import CatalogWindow

            window = CatalogWindow(
                self.services,
                self.bus,
                self.undo_scopes.catalog(self.campaign_id),
                self.settings,
                self.campaign_id,
                self,
            )
            self.catalogs[self.campaign_id] = window
            window.closed.connect(lambda cid: self.catalogs.pop(cid, None))
        window.show()
        window.raise_()
        window.activateWindow()
        return window

    def _follow_page(self, *_args: object) -> None:
        """Edit > Undo offers the history of what is shown: the battle's on its page (its log,
        the combat wizard), the main window's own elsewhere."""
        panel = getattr(self, "battle_panel", None)
        if self.pages.currentWidget() is self.battle_page and panel is not None:
            self.undo_scopes.setActiveStack(panel.undo_stack)
        else:
            self.undo_scopes.setActiveStack(self.undo_stack)

    def open_battle(self, battle_id: BattleId) -> bool:
        """Show battle ``battle_id`` in the main window: the battle tracker's panel."""
        detail = self.runner.read(lambda: self.services.battles.battle(battle_id))
        if detail is None:
            return False
        self.battle_page.battle_id = battle_id
        self.battle_page.title.setText(detail.battle.status_text)
        self._show_battle_panel(battle_id)
        self.pages.setCurrentWidget(self.battle_page)
        self.navigator.select(BATTLE, battle_id)
        return True

    # -- the battle tracker (ui.panels) ---------------------------------------------------

    def new_battle(self) -> BattleId | None:
        from ui.panels import start_new_battle

        if self.campaign_id is None:
            return None
        battle_id = start_new_battle(
            self, self.services, self.bus, self.undo_scopes, self.campaign_id
        )
        if battle_id is not None:
            self.open_battle(battle_id)
        return battle_id

    def _show_battle_panel(self, battle_id: BattleId) -> None:
        """The battle page shows the tracker's panel (one battle at a time)."""
        from ui.panels import BattlePanel

        panel = self.battle_panel
        if panel is None or panel.battle_id != battle_id:
            if panel is not None:
                panel.hide()
                panel.deleteLater()
            panel = BattlePanel(
                self.services,
                self.bus,
                self.undo_scopes.battle(battle_id),
                battle_id,
                settings=self.settings.qsettings,
                forms=combat_forms(),
                parent=self.battle_page,
            )
            page_layout = self.battle_page.layout()
            assert isinstance(page_layout, QVBoxLayout)  # BattlePage's own
            page_layout.addWidget(panel, 1)
            self.battle_panel = panel
            panel.table_mode_changed.connect(self._on_table_mode)
            self._wire_aftermath(panel)
            self.battle_menu.clear()
            self.battle_menu.addAction(self.open_battle_action)
            self.battle_menu.addAction(self.new_battle_action)
            self.battle_menu.addAction(self.end_battle_action)
            self.battle_menu.addSeparator()
            self.battle_menu.addMenu(self.report_menu)
            self.battle_menu.addAction(self.battle_sheet_action)
            self.battle_menu.addAction(self.sharing.battle_action)
            self.battle_menu.addSeparator()
            for action in panel.menu_actions():
                if action is None:
                    self.battle_menu.addSeparator()
                else:
                    self.battle_menu.addAction(action)
        panel.show()
        self._on_table_mode(panel.table_mode)
        self._follow_page()

    # -- the end of a battle and the campaign's history (ui.dialogs.end_battle) -----------

    def _wire_aftermath(self, panel: Any) -> None:
        bar = panel.aftermath_bar
        bar.result_text = self._result_text
        bar.end_requested.connect(self.end_battle)
        bar.report_requested.connect(self._battle_report)
        if panel.view is not None:
            bar.show_view(panel.view)

    def _show_overview_page(self, nav: Navigator | None) -> None:
        """The campaign overview at once (with the standings last read for this campaign);
        its standings are read again on a worker (the history reads every finished battle)
        and shown when read, if the overview still shows that campaign."""
        cid = nav.campaign.id if nav is not None else None
        kept = self._standings[1] if self._standings[0] == cid else ""
        self.overview.show_navigator(nav, self._cost_unit, kept)
        self._standings_wanted += 1
        if nav is None or not any(b.status is BattleStatus.FINISHED for b in nav.battles):
            self._standings = (cid, "")
            return
        wanted = self._standings_wanted
        services = self.services

        def done(history: CampaignHistory) -> None:
            from ui.windows.standings import standings_html

            if wanted != self._standings_wanted or self.nav is not nav:
                return  # another campaign, or a newer read, is on its way
            html = standings_html(history)
            self._standings = (cid, html)
            self.overview.show_navigator(nav, self._cost_unit, html)

        def failed(exc: BaseException, _trace: str) -> None:
            if wanted == self._standings_wanted:
                self.banner.show_error(f"The standings could not be read: {exc}")

        start_job(
            self,
            lambda _progress: services.history.history(nav.campaign.id),
            on_done=done,
            on_error=failed,
        )

    def _result_text(self, battle_id: BattleId) -> str:
        """Called on a worker by the battle bar (it shows the text when read)."""
        am = self.services.aftermath.aftermath(battle_id)
        result = am.result
        winner = am.suggestion.winner if result is None else result.winner
        name = next((p.name for p in am.players if p.id == winner), None)
        return f" ({name} won)" if name else " (a draw)"

    def _battle_report(self, battle_id: BattleId) -> bool:
        nav = self.nav
        name = next((b.name for b in nav.battles if b.id == battle_id), None) if nav else None
        return self.report_printing.preview(battle_id, name)

    def end_current_battle(self) -> bool:
        """Battle > End battle…: end the battle shown, else the one selected."""
        battle_id = self._menu_battle("Open or select the battle to end.")
        return battle_id is not None and self.end_battle(battle_id)

    def end_battle(self, battle_id: BattleId) -> bool:
        """The post-battle dialog, then the campaign updated in one undoable step."""
        from ui.dialogs.end_battle import EndBattleDialog

        dialog = EndBattleDialog(self, self.services, battle_id)  # reads on a worker
        try:
            done = self._finish_from(dialog, battle_id)
        finally:
            dialog.deleteLater()
        if done is None:
            return False
        lost = f"; fallen: {', '.join(done.casualties)}" if done.casualties else ""
        self.statusBar().showMessage(f"{done.name} is finished{lost}.", 10_000)
        return True

    def _finish_from(self, dialog: EndBattleDialog, battle_id: BattleId) -> FinishedBattle | None:
        """Show ``dialog`` until the battle is ended or it is cancelled. A result made from
        what someone else has changed since the dialog opened is refused by the service; the
        dialog then reads the battle again, says why at its top and is shown again."""
        while dialog.exec() == QDialog.DialogCode.Accepted:
            stale: list[str] = []
            done = self.runner.perform(
                partial(self._finish, battle_id, dialog.battle_result(), dialog.aftermath, stale),
                stack=self.undo_scopes.battle(battle_id),  # Undo on the battle's page reopens it
            )
            if done is not None or not stale:
                return done
            dialog.refresh(stale[0])  # read again on a worker while the dialog shows
        return None

    def _finish(
        self, battle_id: BattleId, result: BattleResult, seen: Aftermath, stale: list[str]
    ) -> Done[FinishedBattle]:
        """End the battle with ``result`` made from ``seen``; a refusal because someone else
        changed the battle since is also put in ``stale`` (the dialog then refreshes)."""
        try:
            return self.services.aftermath.finish(battle_id, result, seen.basis)
        except ConflictError as exc:
            stale.append(str(exc))
            raise

    def open_history(self) -> HistoryWindow | None:
        """Campaign > History (one window per campaign)."""
        from ui.windows.history import HistoryWindow

        if self.campaign_id is None:
            return None
        window = self.histories.get(self.campaign_id)
        if window is None:
            window = HistoryWindow(self.services, self.bus, self.campaign_id, self)
            self.histories[self.campaign_id] = window
            window.destroyed.connect(self._history_closed)
        window.show()
        window.raise_()
        window.activateWindow()
        return window

    def _history_closed(self, *_args: object) -> None:
        self.histories = {k: w for k, w in self.histories.items() if isValid(w)}

    def print_current_battle_sheet(self) -> bool:
        """Battle > Roster sheet of the mustered units: of the battle shown, else selected."""
        battle_id = self._menu_battle("Open or select a battle to print its mustered units.")
        return battle_id is not None and self.print_battle_sheet(battle_id)

    def print_battle_sheet(self, battle_id: BattleId) -> bool:
        """The roster sheet of exactly the units mustered into the battle, in the preview."""
        return self.battle_sheet_printing.preview(battle_id)

    def _on_table_mode(self, on: bool) -> None:
        """Table mode gives the panel the whole window: the navigator steps aside while it is
        on (and comes back when it is off, or when the campaign overview is shown)."""
        if on and self.navigator_dock.isVisible():
            self._navigator_hidden_for_table = True
            self.navigator_dock.hide()
        elif not on and getattr(self, "_navigator_hidden_for_table", False):
            self._navigator_hidden_for_table = False
            self.navigator_dock.show()

    def open_selected_battle(self) -> bool:
        kind, ident = self.selected()
        return kind == BATTLE and self.open_battle(BattleId(ident))

    def show_overview(self) -> None:
        self._on_table_mode(False)
        if self.pages.currentWidget() is not self.overview:
            self.pages.setCurrentWidget(self.overview)
            self._show_overview_page(self.nav)

    # -- printing -------------------------------------------------------------------------

    def _print_target(self) -> tuple[str, int, str | None] | None:
        """What File > Print acts on: the selected army (its roster sheet) or battle (its
        report), with its name."""
        kind, ident = self.selected()
        nav = self.nav
        if kind == ARMY:
            name = next((a.name for a in nav.armies if a.id == ident), None) if nav else None
            return ARMY, ident, name
        if kind == BATTLE:
            name = next((b.name for b in nav.battles if b.id == ident), None) if nav else None
            return BATTLE, ident, name
        self.banner.show_error(
            "Select an army (to print its roster) or a battle (its report) in the navigator."
        )
        return None

    def _menu_battle(self, none_chosen: str) -> BattleId | None:
        """The battle a Battle menu entry acts on; ``none_chosen`` in the banner if none."""
        current = self.current_battle()
        if current is None:
            self.banner.show_error(none_chosen)
            return None
        return current[0]

    def current_battle(self) -> tuple[BattleId, str | None] | None:
        """The battle the Battle > Battle report entries use: the one shown, else the one
        selected in the navigator."""
        ident = self.battle_page.battle_id
        if ident is None or self.pages.currentWidget() is not self.battle_page:
            kind, selected = self.selected()
            if kind != BATTLE:
                return None
            ident = BattleId(selected)
        nav = self.nav
        name = next((b.name for b in nav.battles if b.id == ident), None) if nav else None
        return ident, name

    def print_preview(self) -> bool:
        target = self._print_target()
        if target is None:
            return False
        kind, ident, name = target
        printing = self.printing if kind == ARMY else self.report_printing
        return printing.preview(ident, name)

    def print_army(self) -> bool:
        target = self._print_target()
        if target is None:
            return False
        kind, ident, name = target
        printing = self.printing if kind == ARMY else self.report_printing
        return printing.print(ident, name)

    def export_pdf(self, path: Path | None = None) -> bool:
        target = self._print_target()
        if target is None:
            return False
        kind, ident, name = target
        printing = self.printing if kind == ARMY else self.report_printing
        return printing.export_pdf(ident, path, name)

    # -- help -----------------------------------------------------------------------------

    def show_rules_reference(self) -> RulesReferenceDialog:
        from ui.dialogs.rules_reference import RulesReferenceDialog

        reference = self.rules_reference
        if reference is None:
            reference = self.rules_reference = RulesReferenceDialog(self)
        reference.show()
        reference.raise_()
        reference.activateWindow()
        return reference

    def show_user_guide(self) -> QWidget | None:
        """Help > User guide: the guide shipped with the app, in a window (offline)."""
        from ui.dialogs.user_guide import UserGuideWindow

        try:
            guide = UserGuideWindow(self)
        except (FileNotFoundError, OSError) as exc:
            self.banner.show_error(f"The user guide can't be shown: {exc}")
            return None
        guide.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        guide.show()
        return guide

    def show_about(self) -> AboutDialog:
        """Open the About dialog (window-modal, not blocking) and return it."""
        from ui.dialogs.about import AboutDialog

        dialog = AboutDialog(self, self.database, self._edition(), self._icon)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def _edition(self) -> str:
        """The rules edition of the campaign shown (else the default)."""
        edition = self.nav.campaign.edition if self.nav is not None else DEFAULT_EDITION
        return str(getattr(edition, "value", edition))

    def edit_preferences(self) -> bool:
        """Edit > Settings: the preferences; True when saved."""
        from ui.dialogs.settings import SettingsDialog

        prefs = SettingsDialog.ask(self, self.settings)
        if prefs is None:
            return False
        self.preferences_changed.emit()
        self.statusBar().showMessage("Settings saved.", 5000)
        return True

    # -- closing --------------------------------------------------------------------------

    def closeEvent(self, event: QCloseEvent) -> None:
        for window in [*self.rosters.values(), *self.catalogs.values()]:
            window.close()
        if self.live is not None:
            self.live.stop()
        self.sharing.stop()
        self._on_table_mode(False)  # the navigator's own visibility is what is remembered
        self.settings.save_geometry("main", self)
        self.settings.save_bytes("main/state", self.saveState())
        self.settings.sync()
        super().closeEvent(event)
