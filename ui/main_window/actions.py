"""The main window's actions: every entry of its menus and toolbar, with its shortcut and tip,
each connected to the part of the shell that does it (``campaigns``, ``files``, ``battles``,
``windows``, the campaign ``shown``). ``MainMenus`` puts them in the menus.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import QDockWidget, QStyle, QWidget

from brikdesk.domain.statuses import BattleStatus
from ui.undo import UndoScopes
from ui.widgets.common import ActionSpec, enable_actions, make_actions, undo_redo_actions
from ui.windows.navigator import ARMY, BATTLE, PLAYER


class CampaignHandlers(Protocol):
    def new_campaign(self) -> object: ...
    def choose_campaign(self) -> object: ...
    def edit_selected(self) -> object: ...
    def delete_selected(self) -> object: ...
    def add_player(self) -> object: ...
    def add_army(self) -> object: ...
    def edit_campaign(self) -> object: ...
    def delete_campaign(self) -> object: ...


class FileHandlers(Protocol):
    def import_campaign(self) -> object: ...
    def export_campaign(self) -> object: ...
    def print_preview(self) -> object: ...
    def print_army(self) -> object: ...
    def export_pdf(self) -> object: ...


class BattleHandlers(Protocol):
    def open_selected_battle(self) -> object: ...
    def new_battle(self) -> object: ...
    def end_current_battle(self) -> object: ...
    def print_current_battle_sheet(self) -> object: ...


class WindowHandlers(Protocol):
    def open_selected_roster(self) -> object: ...
    def open_catalog(self) -> object: ...
    def open_history(self) -> object: ...
    def show_rules_reference(self) -> object: ...
    def show_user_guide(self) -> object: ...
    def show_about(self) -> object: ...
    def edit_preferences(self) -> object: ...


class ShownHandlers(Protocol):
    def refresh(self) -> object: ...


class ActionsHost(Protocol):
    """What the actions use of the window: the parts whose commands they trigger, the undo
    histories, the navigator's dock and the window's own overview, close and style."""

    @property
    def campaigns(self) -> CampaignHandlers: ...
    @property
    def shown(self) -> ShownHandlers: ...
    @property
    def files(self) -> FileHandlers: ...
    @property
    def battles(self) -> BattleHandlers: ...
    @property
    def windows(self) -> WindowHandlers: ...
    @property
    def undo_scopes(self) -> UndoScopes: ...
    @property
    def undo_stack(self) -> QUndoStack: ...
    @property
    def navigator_dock(self) -> QDockWidget: ...
    def show_overview(self) -> None: ...
    def close(self) -> bool: ...


SP = QStyle.StandardPixmap


@dataclass(frozen=True)
class MainState:
    """What the main window's actions are enabled by, now."""

    #: The database is open.
    ready: bool
    #: A campaign is shown.
    has_campaign: bool
    #: The kind of the navigator's entry selected (``PLAYER``, ``ARMY``, ``BATTLE``...).
    selected: str
    #: How many players the campaign has.
    players: int
    #: The status of the battle selected or shown, if any.
    battle_status: BattleStatus | None
    #: The navigator is shown (Delete deletes its entry).
    navigator_shown: bool


#: Every entry of the main window's menus and toolbar made from data (Edit > Undo and Redo, the
#: navigator's toggle and the menu roles are added by ``MainActions``).
MAIN_ACTIONS: tuple[ActionSpec[ActionsHost, MainState], ...] = (
    ActionSpec(
        "new_action",
        "&New campaign…",
        lambda h: h.campaigns.new_campaign,
        "newAction",
        shortcut=QKeySequence.StandardKey.New,
        tip="Start a new campaign",
        icon=SP.SP_FileIcon,
        enabled_when=lambda s: s.ready,
    ),
    ActionSpec(
        "open_action",
        "&Open campaign…",
        lambda h: h.campaigns.choose_campaign,
        "openAction",
        shortcut=QKeySequence.StandardKey.Open,
        tip="Open another campaign of this database",
        icon=SP.SP_DirOpenIcon,
        enabled_when=lambda s: s.ready,
    ),
    ActionSpec(
        "import_action",
        "&Import campaign…",
        lambda h: h.files.import_campaign,
        "importAction",
        shortcut="Ctrl+I",
        tip="Read a campaign exported as JSON (a new campaign)",
        enabled_when=lambda s: s.ready,
    ),
    ActionSpec(
        "export_action",
        "&Export campaign…",
        lambda h: h.files.export_campaign,
        "exportAction",
        shortcut="Ctrl+Shift+S",
        tip="Write the whole campaign to a JSON file",
        enabled_when=lambda s: s.has_campaign,
    ),
    ActionSpec(
        "preview_action",
        "Print pre&view…",
        lambda h: h.files.print_preview,
        "printPreviewAction",
        shortcut="Ctrl+Shift+P",
        tip="Preview the selected army's roster sheet or the selected battle's report",
        icon=SP.SP_FileDialogContentsView,
        enabled_when=lambda s: s.selected in (ARMY, BATTLE),
    ),
    ActionSpec(
        "print_action",
        "&Print…",
        lambda h: h.files.print_army,
        "printAction",
        shortcut=QKeySequence.StandardKey.Print,
        tip="Print the selected army's roster sheet or the selected battle's report",
        enabled_when=lambda s: s.selected in (ARMY, BATTLE),
    ),
    ActionSpec(
        "pdf_action",
        "Export as P&DF…",
        lambda h: h.files.export_pdf,
        "exportPdfAction",
        shortcut="Ctrl+Shift+E",
        tip="Save the selected army's roster sheet or the selected battle's report as a PDF",
        enabled_when=lambda s: s.selected in (ARMY, BATTLE),
    ),
    ActionSpec(
        "quit_action",
        "&Quit",
        lambda h: h.close,
        "quitAction",
        shortcut=QKeySequence.StandardKey.Quit,
        tip="Close BrikDesk",
    ),
    ActionSpec(
        "edit_selected_action",
        "&Edit selected…",
        lambda h: h.campaigns.edit_selected,
        "editSelectedAction",
        shortcut="F2",
        tip="Edit the player or army selected in the navigator",
        enabled_when=lambda s: s.selected in (PLAYER, ARMY, BATTLE),
    ),
    ActionSpec(
        "delete_selected_action",
        "&Delete selected",
        lambda h: h.campaigns.delete_selected,
        "deleteSelectedAction",
        shortcut=QKeySequence.StandardKey.Delete,
        tip="Delete the player, army or battle selected in the navigator (Undo brings it back)",
        enabled_when=lambda s: s.selected in (PLAYER, ARMY, BATTLE) and s.navigator_shown,
    ),
    ActionSpec(
        "overview_action",
        "Campaign &overview",
        lambda h: h.show_overview,
        "overviewAction",
        shortcut="Ctrl+0",
        tip="Show the campaign overview",
    ),
    ActionSpec(
        "refresh_action",
        "&Refresh",
        lambda h: h.shown.refresh,
        "refreshAction",
        shortcut=QKeySequence.StandardKey.Refresh,
        tip="Read the campaign again from the database",
        enabled_when=lambda s: s.ready,
    ),
    ActionSpec(
        "add_player_action",
        "Add &player…",
        lambda h: h.campaigns.add_player,
        "addPlayerAction",
        shortcut="Ctrl+Alt+N",
        tip="Add a player to the campaign",
        icon=SP.SP_FileDialogNewFolder,
        enabled_when=lambda s: s.has_campaign,
    ),
    ActionSpec(
        "add_army_action",
        "Add &army…",
        lambda h: h.campaigns.add_army,
        "addArmyAction",
        shortcut="Ctrl+Shift+N",
        tip="Add an army for a player",
        icon=SP.SP_FileDialogListView,
        enabled_when=lambda s: s.has_campaign and s.players > 0,
    ),
    ActionSpec(
        "open_roster_action",
        "Open &roster",
        lambda h: h.windows.open_selected_roster,
        "openRosterAction",
        shortcut="Ctrl+R",
        tip="Open the roster of the selected army",
        icon=SP.SP_FileDialogDetailedView,
        enabled_when=lambda s: s.selected == ARMY,
    ),
    ActionSpec(
        "catalog_action",
        "&Catalog",
        lambda h: h.windows.open_catalog,
        "catalogAction",
        shortcut="Ctrl+K",
        tip="The campaign's weapons, equipment and unit types",
        icon=SP.SP_FileDialogInfoView,
        enabled_when=lambda s: s.has_campaign,
    ),
    ActionSpec(
        "settings_action",
        "Campaign &settings…",
        lambda h: h.campaigns.edit_campaign,
        "campaignSettingsAction",
        shortcut="Ctrl+Shift+K",
        tip="The campaign's name, rules edition, cost system, default army budget and notes",
        enabled_when=lambda s: s.has_campaign,
    ),
    ActionSpec(
        "delete_campaign_action",
        "Delete campaign",
        lambda h: h.campaigns.delete_campaign,
        "deleteCampaignAction",
        tip="Delete this campaign with its players, armies and battles (Undo brings it back)",
        enabled_when=lambda s: s.has_campaign,
    ),
    ActionSpec(
        "open_battle_action",
        "&Open battle",
        lambda h: h.battles.open_selected_battle,
        "openBattleAction",
        shortcut="Ctrl+B",
        tip="Show the battle selected in the navigator",
        enabled_when=lambda s: s.selected == BATTLE,
    ),
    ActionSpec(
        "new_battle_action",
        "&New battle…",
        lambda h: h.battles.new_battle,
        "newBattleAction",
        shortcut="Ctrl+Shift+B",
        tip="Muster units from the armies, set the turn order and start a battle",
        enabled_when=lambda s: s.has_campaign and s.players >= 2,
    ),
    ActionSpec(
        "end_battle_action",
        "&End battle…",
        lambda h: h.battles.end_current_battle,
        "endBattleAction",
        shortcut="Ctrl+Shift+F",
        tip="End the battle shown: who fell, who won, "
        "promotions; the campaign is updated in one step",
        enabled_when=lambda s: s.battle_status is BattleStatus.IN_PROGRESS,
    ),
    ActionSpec(
        "history_action",
        "&History",
        lambda h: h.windows.open_history,
        "historyAction",
        shortcut="Ctrl+H",
        tip="The campaign's battles, standings, charts and leaderboard",
        enabled_when=lambda s: s.has_campaign,
    ),
    ActionSpec(
        "battle_sheet_action",
        "Roster sheet of the &mustered units…",
        lambda h: h.battles.print_current_battle_sheet,
        "battleSheetAction",
        tip="Preview and print the roster sheet of exactly the units mustered into the battle",
        enabled_when=lambda s: s.battle_status is not None,
    ),
    ActionSpec(
        "rules_action",
        "&Rules reference",
        lambda h: h.windows.show_rules_reference,
        "rulesAction",
        shortcut=QKeySequence.StandardKey.HelpContents,
        tip="Modifiers and how BrikDesk reads the rules",
        icon=SP.SP_MessageBoxQuestion,
    ),
    ActionSpec(
        "guide_action",
        "&User guide",
        lambda h: h.windows.show_user_guide,
        "userGuideAction",
        tip="The guide to BrikDesk's windows, with pictures (shipped with the app)",
    ),
    ActionSpec(
        "about_action",
        "&About BrikDesk",
        lambda h: h.windows.show_about,
        "aboutAction",
        tip="Version, database, rules edition and libraries",
    ),
    ActionSpec(
        "preferences_action",
        "Se&ttings…",
        lambda h: h.windows.edit_preferences,
        "preferencesAction",
        shortcut=QKeySequence.StandardKey.Preferences,
        tip="Paper, black-and-white printing, dice, table "
        "mode's text size, new campaigns' rules edition",
    ),
)


class MainActions(QObject):
    """The actions of the main window's menus and toolbar (parented to the window, so their
    shortcuts work wherever the focus is in it): ``MAIN_ACTIONS`` as ``QAction`` attributes,
    with Edit > Undo and Redo and the navigator's toggle."""

    new_action: QAction
    open_action: QAction
    import_action: QAction
    export_action: QAction
    preview_action: QAction
    print_action: QAction
    pdf_action: QAction
    quit_action: QAction
    edit_selected_action: QAction
    delete_selected_action: QAction
    overview_action: QAction
    refresh_action: QAction
    add_player_action: QAction
    add_army_action: QAction
    open_roster_action: QAction
    catalog_action: QAction
    settings_action: QAction
    delete_campaign_action: QAction
    open_battle_action: QAction
    new_battle_action: QAction
    end_battle_action: QAction
    history_action: QAction
    battle_sheet_action: QAction
    rules_action: QAction
    guide_action: QAction
    about_action: QAction
    preferences_action: QAction
    undo_action: QAction
    redo_action: QAction
    navigator_action: QAction

    def __init__(self, window: QWidget, host: ActionsHost) -> None:
        super().__init__(window)
        self.by_attr = make_actions(window, host, MAIN_ACTIONS)
        for attr, action in self.by_attr.items():
            setattr(self, attr, action)
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        self.preferences_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)

        # Edit > Undo follows the page shown: a battle's history on its page, else this
        # window's own (``MainWindow.follow_page``).
        host.undo_scopes.setActiveStack(host.undo_stack)
        self.undo_action, self.redo_action = undo_redo_actions(window, host.undo_scopes)

        self.navigator_action = host.navigator_dock.toggleViewAction()
        self.navigator_action.setText("&Navigator")
        # The dock's title is the campaign's name; its menu entry stays "Navigator".
        host.navigator_dock.windowTitleChanged.connect(self._name_navigator_action)
        self.navigator_action.setShortcut(QKeySequence("Ctrl+1"))
        self.navigator_action.setObjectName("navigatorAction")

    def update_enabled(self, state: MainState) -> None:
        """Enable the actions as their ``enabled_when`` in ``MAIN_ACTIONS`` says of ``state``."""
        enable_actions(self.by_attr, MAIN_ACTIONS, state)

    def _name_navigator_action(self, *_args: object) -> None:
        self.navigator_action.setText("&Navigator")
