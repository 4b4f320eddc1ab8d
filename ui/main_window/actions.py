"""The main window's actions: every entry of its menus and toolbar, with its shortcut and tip,
each connected to the part of the shell that does it (``campaigns``, ``files``, ``battles``,
``windows``, the campaign ``shown``). ``MainMenus`` puts them in the menus.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import QDockWidget, QStyle, QWidget

from ui.undo import UndoScopes
from ui.widgets.common import make_action, undo_redo_actions


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


class MainActions(QObject):
    """The actions of the main window's menus and toolbar (parented to the window, so their
    shortcuts work wherever the focus is in it)."""

    def __init__(self, window: QWidget, host: ActionsHost) -> None:
        super().__init__(window)
        campaigns, shown, files = host.campaigns, host.shown, host.files
        battles, windows = host.battles, host.windows
        icon = window.style().standardIcon
        sp = QStyle.StandardPixmap
        act = make_action
        self.new_action = act(
            window,
            "&New campaign…",
            campaigns.new_campaign,
            name="newAction",
            shortcut=QKeySequence.StandardKey.New,
            tip="Start a new campaign",
            icon=icon(sp.SP_FileIcon),
        )
        self.open_action = act(
            window,
            "&Open campaign…",
            campaigns.choose_campaign,
            name="openAction",
            shortcut=QKeySequence.StandardKey.Open,
            tip="Open another campaign of this database",
            icon=icon(sp.SP_DirOpenIcon),
        )
        self.import_action = act(
            window,
            "&Import campaign…",
            files.import_campaign,
            name="importAction",
            shortcut="Ctrl+I",
            tip="Read a campaign exported as JSON (a new campaign)",
        )
        self.export_action = act(
            window,
            "&Export campaign…",
            files.export_campaign,
            name="exportAction",
            shortcut="Ctrl+Shift+S",
            tip="Write the whole campaign to a JSON file",
        )
        self.preview_action = act(
            window,
            "Print pre&view…",
            files.print_preview,
            name="printPreviewAction",
            shortcut="Ctrl+Shift+P",
            tip="Preview the selected army's roster sheet or the selected battle's report",
            icon=icon(sp.SP_FileDialogContentsView),
        )
        self.print_action = act(
            window,
            "&Print…",
            files.print_army,
            name="printAction",
            shortcut=QKeySequence.StandardKey.Print,
            tip="Print the selected army's roster sheet or the selected battle's report",
        )
        self.pdf_action = act(
            window,
            "Export as P&DF…",
            files.export_pdf,
            name="exportPdfAction",
            shortcut="Ctrl+Shift+E",
            tip="Save the selected army's roster sheet or the selected battle's report as a PDF",
        )
        self.quit_action = act(
            window,
            "&Quit",
            window.close,
            name="quitAction",
            shortcut=QKeySequence.StandardKey.Quit,
            tip="Close BrikDesk",
        )
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)

        # Edit > Undo follows the page shown: a battle's history on its page, else this
        # window's own (``MainWindow.follow_page``).
        host.undo_scopes.setActiveStack(host.undo_stack)
        self.undo_action, self.redo_action = undo_redo_actions(window, host.undo_scopes)
        self.edit_selected_action = act(
            window,
            "&Edit selected…",
            campaigns.edit_selected,
            name="editSelectedAction",
            shortcut="F2",
            tip="Edit the player or army selected in the navigator",
        )
        self.delete_selected_action = act(
            window,
            "&Delete selected",
            campaigns.delete_selected,
            name="deleteSelectedAction",
            shortcut=QKeySequence.StandardKey.Delete,
            tip="Delete the player, army or battle selected in the navigator (Undo brings it back)",
        )

        self.navigator_action = host.navigator_dock.toggleViewAction()
        self.navigator_action.setText("&Navigator")
        # The dock's title is the campaign's name; its menu entry stays "Navigator".
        host.navigator_dock.windowTitleChanged.connect(self._name_navigator_action)
        self.navigator_action.setShortcut(QKeySequence("Ctrl+1"))
        self.navigator_action.setObjectName("navigatorAction")
        self.overview_action = act(
            window,
            "Campaign &overview",
            host.show_overview,
            name="overviewAction",
            shortcut="Ctrl+0",
            tip="Show the campaign overview",
        )
        self.refresh_action = act(
            window,
            "&Refresh",
            shown.refresh,
            name="refreshAction",
            shortcut=QKeySequence.StandardKey.Refresh,
            tip="Read the campaign again from the database",
        )

        self.add_player_action = act(
            window,
            "Add &player…",
            campaigns.add_player,
            name="addPlayerAction",
            shortcut="Ctrl+Alt+N",
            tip="Add a player to the campaign",
            icon=icon(sp.SP_FileDialogNewFolder),
        )
        self.add_army_action = act(
            window,
            "Add &army…",
            campaigns.add_army,
            name="addArmyAction",
            shortcut="Ctrl+Shift+N",
            tip="Add an army for a player",
            icon=icon(sp.SP_FileDialogListView),
        )
        self.open_roster_action = act(
            window,
            "Open &roster",
            windows.open_selected_roster,
            name="openRosterAction",
            shortcut="Ctrl+R",
            tip="Open the roster of the selected army",
            icon=icon(sp.SP_FileDialogDetailedView),
        )
        self.catalog_action = act(
            window,
            "&Catalog",
            windows.open_catalog,
            name="catalogAction",
            shortcut="Ctrl+K",
            tip="The campaign's weapons, equipment and unit types",
            icon=icon(sp.SP_FileDialogInfoView),
        )
        self.settings_action = act(
            window,
            "Campaign &settings…",
            campaigns.edit_campaign,
            name="campaignSettingsAction",
            shortcut="Ctrl+Shift+K",
            tip="The campaign's name, rules edition, cost system, default army budget and notes",
        )
        self.delete_campaign_action = act(
            window,
            "Delete campaign",
            campaigns.delete_campaign,
            name="deleteCampaignAction",
            tip="Delete this campaign with its players, armies and battles (Undo brings it back)",
        )

        self.open_battle_action = act(
            window,
            "&Open battle",
            battles.open_selected_battle,
            name="openBattleAction",
            shortcut="Ctrl+B",
            tip="Show the battle selected in the navigator",
        )
        self.new_battle_action = act(
            window,
            "&New battle…",
            battles.new_battle,
            name="newBattleAction",
            shortcut="Ctrl+Shift+B",
            tip="Muster units from the armies, set the turn order and start a battle",
        )

        self.end_battle_action = act(
            window,
            "&End battle…",
            battles.end_current_battle,
            name="endBattleAction",
            shortcut="Ctrl+Shift+F",
            tip="End the battle shown: who fell, who won, "
            "promotions; the campaign is updated in one step",
        )
        self.history_action = act(
            window,
            "&History",
            windows.open_history,
            name="historyAction",
            shortcut="Ctrl+H",
            tip="The campaign's battles, standings, charts and leaderboard",
        )
        self.battle_sheet_action = act(
            window,
            "Roster sheet of the &mustered units…",
            battles.print_current_battle_sheet,
            name="battleSheetAction",
            tip="Preview and print the roster sheet of exactly the units mustered into the battle",
        )
        self.rules_action = act(
            window,
            "&Rules reference",
            windows.show_rules_reference,
            name="rulesAction",
            shortcut=QKeySequence.StandardKey.HelpContents,
            tip="Modifiers and how BrikDesk reads the rules",
            icon=icon(sp.SP_MessageBoxQuestion),
        )
        self.guide_action = act(
            window,
            "&User guide",
            windows.show_user_guide,
            name="userGuideAction",
            tip="The guide to BrikDesk's windows, with pictures (shipped with the app)",
        )
        self.about_action = act(
            window,
            "&About BrikDesk",
            windows.show_about,
            name="aboutAction",
            tip="Version, database, rules edition and libraries",
        )
        self.preferences_action = act(
            window,
            "Se&ttings…",
            windows.edit_preferences,
            name="preferencesAction",
            shortcut=QKeySequence.StandardKey.Preferences,
            tip="Paper, black-and-white printing, dice, table "
            "mode's text size, new campaigns' rules edition",
        )
        self.preferences_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)

    def _name_navigator_action(self, *_args: object) -> None:
        self.navigator_action.setText("&Navigator")
