"""The main window's actions: every entry of its menus and toolbar, with its shortcut and tip,
each connected to the part of the shell that does it (``campaigns``, ``files``, ``battles``,
``windows``, the campaign ``shown``). ``MainMenus`` puts them in the menus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QStyle

from ui.widgets.common import make_action, undo_redo_actions

if TYPE_CHECKING:
    from ui.main_window.window import MainWindow


class MainActions(QObject):
    """The actions of the main window's menus and toolbar (parented to the window, so their
    shortcuts work wherever the focus is in it)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        campaigns, shown, files = window.campaigns, window.shown, window.files
        battles, windows = window.battles, window.windows
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
        window.undo_scopes.setActiveStack(window.undo_stack)
        self.undo_action, self.redo_action = undo_redo_actions(window, window.undo_scopes)
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

        self.navigator_action = window.navigator_dock.toggleViewAction()
        self.navigator_action.setText("&Navigator")
        # The dock's title is the campaign's name; its menu entry stays "Navigator".
        window.navigator_dock.windowTitleChanged.connect(self._name_navigator_action)
        self.navigator_action.setShortcut(QKeySequence("Ctrl+1"))
        self.navigator_action.setObjectName("navigatorAction")
        self.overview_action = act(
            window,
            "Campaign &overview",
            window.show_overview,
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
