"""The main window's menus and toolbar, made of its actions (``MainActions``): File, Edit, View,
Campaign, Battle (with the battle panel's own entries while a battle is shown) and Help; the
navigator's context menu; the main toolbar.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu, QToolBar, QWidget

from ui.main_window.actions import MainActions
from ui.widgets.common import name_toolbar_extension


class MainMenus(QObject):
    """The menu bar's menus, the recent campaigns' submenu and the main toolbar of ``window``:
    its ``actions``, the players' page's two (``share_campaign``, ``share_battle``: Campaign and
    Battle > Share with players), the battle report's submenu, what fills the recent campaigns
    when that submenu opens, and the navigator given the context menu."""

    def __init__(
        self,
        window: QMainWindow,
        actions: MainActions,
        *,
        share_campaign: QAction,
        share_battle: QAction,
        report_menu: QMenu,
        fill_recent: Callable[[], None],
        navigator: QWidget,
    ) -> None:
        super().__init__(window)
        self.actions = actions
        self.share_battle_action = share_battle
        bar = window.menuBar()
        a = actions

        def menu(title: str, name: str, items: list[QAction | QMenu | None]) -> QMenu:
            m = bar.addMenu(title)
            m.setObjectName(name)
            for item in items:
                if item is None:
                    m.addSeparator()
                elif isinstance(item, QMenu):
                    m.addMenu(item)
                else:
                    m.addAction(item)
            return m

        self.recent_menu = QMenu("&Recent campaigns", window)
        self.recent_menu.setObjectName("recentMenu")
        self.recent_menu.aboutToShow.connect(fill_recent)
        self.file_menu = menu(
            "&File",
            "fileMenu",
            [
                a.new_action,
                a.open_action,
                self.recent_menu,
                None,
                a.import_action,
                a.export_action,
                None,
                a.preview_action,
                a.print_action,
                a.pdf_action,
                None,
                a.quit_action,
            ],
        )
        self.edit_menu = menu(
            "&Edit",
            "editMenu",
            [
                a.undo_action,
                a.redo_action,
                None,
                a.edit_selected_action,
                a.delete_selected_action,
                None,
                a.preferences_action,
            ],
        )
        self.view_menu = menu(
            "&View",
            "viewMenu",
            [a.navigator_action, None, a.overview_action, a.refresh_action],
        )
        self.campaign_menu = menu(
            "&Campaign",
            "campaignMenu",
            [
                a.add_player_action,
                a.add_army_action,
                None,
                a.open_roster_action,
                a.catalog_action,
                a.history_action,
                share_campaign,
                None,
                a.settings_action,
                a.delete_campaign_action,
            ],
        )
        self.report_menu = report_menu
        self.battle_menu = menu("&Battle", "battleMenu", [])
        self.show_battle_entries(())
        self.help_menu = menu(
            "&Help", "helpMenu", [a.guide_action, a.rules_action, None, a.about_action]
        )
        navigator.addActions(
            [
                a.open_roster_action,
                a.open_battle_action,
                a.end_battle_action,
                a.battle_sheet_action,
                a.edit_selected_action,
                a.add_army_action,
                a.delete_selected_action,
            ]
        )
        navigator.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        # Delete and F2 act on the navigator's selection only when the navigator has focus.
        for action in (a.delete_selected_action, a.edit_selected_action):
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.toolbar = self._build_toolbar(window)

    def show_battle_entries(self, panel_actions: Sequence[QAction | None]) -> None:
        """The Battle menu: the shell's entries, then the battle panel's (``None``: a
        separator) while a battle is shown."""
        a = self.actions
        m = self.battle_menu
        m.clear()
        m.addAction(a.open_battle_action)
        m.addAction(a.new_battle_action)
        m.addAction(a.end_battle_action)
        m.addSeparator()
        m.addMenu(self.report_menu)
        m.addAction(a.battle_sheet_action)
        m.addAction(self.share_battle_action)
        if panel_actions:
            m.addSeparator()
        for action in panel_actions:
            if action is None:
                m.addSeparator()
            else:
                m.addAction(action)

    def _build_toolbar(self, window: QMainWindow) -> QToolBar:
        a = self.actions
        tb = QToolBar("Main toolbar", window)
        tb.setObjectName("mainToolbar")
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        for action in (
            a.new_action,
            a.open_action,
            None,
            a.add_player_action,
            a.add_army_action,
            a.open_roster_action,
            a.catalog_action,
            None,
            a.undo_action,
            a.redo_action,
            None,
            a.preview_action,
            None,
            a.rules_action,
        ):
            if action is None:
                tb.addSeparator()
            else:
                tb.addAction(action)
        window.addToolBar(tb)
        name_toolbar_extension(tb)
        toggle = tb.toggleViewAction()
        toggle.setText("&Toolbar")
        self.view_menu.insertAction(self.view_menu.actions()[1], toggle)
        return tb
