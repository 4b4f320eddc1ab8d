"""Each part of the main window is built and used without a MainWindow: it receives what it
uses ("Rooms with their own doors" in docs/conventions.md), here stand-ins that record what the
part asked of them."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QMenu, QStackedWidget, QWidget

from brikdesk.domain.ids import CampaignId
from brikdesk.domain.statuses import BattleStatus
from tests.ui.stand_ins import Calls, bare_window
from ui.bus import Bus
from ui.main_window import campaigns as campaigns_module
from ui.main_window.actions import MAIN_ACTIONS, MainActions, MainState
from ui.main_window.battles import Battles
from ui.main_window.campaign import APP_TITLE, CampaignShown
from ui.main_window.campaigns import CampaignCommands
from ui.main_window.files import FileCommands
from ui.main_window.menus import MainMenus
from ui.main_window.windows import Windows
from ui.models.proposals import ProposalInbox
from ui.undo import UndoScopes
from ui.widgets.common import Actions, ActionSpec, MessageBanner, make_actions
from ui.windows.navigator import ARMY, BATTLE, BattlePage


@pytest.fixture
def window(qtbot) -> QMainWindow:
    return bare_window(qtbot)


@pytest.fixture
def host(window: QMainWindow) -> SimpleNamespace:
    scopes = UndoScopes(window)
    return SimpleNamespace(
        campaigns=Calls(),
        shown=Calls(),
        files=Calls(),
        battles=Calls(),
        windows=Calls(),
        undo_scopes=scopes,
        undo_stack=scopes.main(),
        navigator_dock=QDockWidget("Campaign", window),
        show_overview=lambda: None,
        close=lambda: True,
    )


def test_the_actions_trigger_the_parts_they_were_given(window, host) -> None:
    actions = MainActions(window, host)
    actions.new_action.trigger()
    actions.import_action.trigger()
    actions.new_battle_action.trigger()
    actions.catalog_action.trigger()
    actions.refresh_action.trigger()
    assert host.campaigns.names() == ["new_campaign"]
    assert host.files.names() == ["import_campaign"]
    assert host.battles.names() == ["new_battle"]
    assert host.windows.names() == ["open_catalog"]
    assert host.shown.names() == ["refresh"]
    assert actions.new_action.shortcut().toString() == "Ctrl+N"
    assert actions.navigator_action.text() == "&Navigator"


def test_the_actions_are_made_from_their_table(window, host) -> None:
    made = make_actions(
        window,
        host,
        [
            ActionSpec(
                "x", "&Campaign overview", lambda h: h.windows.show_about, "xAction", "F9", "Tip"
            )
        ],
    )
    action = made["x"]
    assert (action.text(), action.objectName(), action.toolTip()) == (
        "&Campaign overview",
        "xAction",
        "Tip (F9)",  # the shortcut said in the tooltip
    )
    assert action.shortcut().toString() == "F9"
    action.trigger()
    assert host.windows.names() == ["show_about"]
    actions = MainActions(window, host)
    assert len({spec.attr for spec in MAIN_ACTIONS}) == len(MAIN_ACTIONS)
    assert all(getattr(actions, spec.attr).objectName() == spec.name for spec in MAIN_ACTIONS)


def test_the_menus_are_made_of_the_actions_and_what_they_were_handed(window, host) -> None:
    actions = MainActions(window, host)
    filled: list[bool] = []
    share_campaign = QAction("Share with &players…", window)
    share_battle = QAction("Share battle", window)
    navigator = QWidget(window)
    menus = MainMenus(
        window,
        actions,
        share_campaign=share_campaign,
        share_battle=share_battle,
        report_menu=QMenu("Battle &report", window),
        fill_recent=lambda: filled.append(True),
        navigator=navigator,
    )
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles[0] == "&File" and "&Battle" in titles and titles[-1] == "&Help"
    menus.recent_menu.aboutToShow.emit()
    assert filled == [True]
    assert share_campaign in menus.campaign_menu.actions()
    panel_entry = QAction("Hold", window)
    menus.show_battle_entries([panel_entry])
    battle_entries = menus.battle_menu.actions()
    assert battle_entries[-1] is panel_entry and share_battle in battle_entries
    assert actions.open_roster_action in navigator.actions()
    assert menus.toolbar.parent() is window


def test_file_commands_say_what_to_select_before_printing(window, qtbot) -> None:
    banner = MessageBanner(window)
    printing = Calls()
    host = SimpleNamespace(
        services=None,
        runner=None,
        settings=None,
        shown=SimpleNamespace(nav=None),
        banner=banner,
        printing=printing,
        report_printing=Calls(),
        selected=lambda: ("", 0),
    )
    files = FileCommands(window, host)
    assert files.print_preview() is False
    assert "Select an army" in banner.label.text()
    host.selected = lambda: (ARMY, 7)
    files.print_preview()
    assert printing.calls == [("preview", (7, None))]


@pytest.fixture
def campaign(sv) -> SimpleNamespace:
    c = sv.campaigns.create_campaign("Alone").value
    red = sv.campaigns.add_player(c.id, "Red").value
    army = sv.campaigns.add_army(red.id, "Reds").value
    return SimpleNamespace(id=c.id, army_id=army.id)


def services_host(window: QMainWindow, sv, settings) -> SimpleNamespace:
    banner = MessageBanner(window)
    scopes = UndoScopes(window)
    bus = Bus(window)
    return SimpleNamespace(
        services=sv,
        settings=settings,
        banner=banner,
        bus=bus,
        undo_scopes=scopes,
        runner=Actions(window, scopes.main(), bus, banner),
    )


def test_campaign_commands_open_the_campaign_chosen(window, sv, settings, campaign, monkeypatch):
    host = services_host(window, sv, settings)
    host.shown = Calls()
    host.shown.campaign_id = None
    monkeypatch.setattr(
        campaigns_module.OpenCampaignDialog, "ask", classmethod(lambda cls, *a: campaign.id)
    )
    commands = CampaignCommands(window, host)
    commands.choose_campaign()
    assert host.shown.calls == [("open_campaign", (campaign.id,))]


def test_windows_opens_one_roster_per_army_and_about(window, sv, settings, campaign) -> None:
    host = services_host(window, sv, settings)
    navigator = Calls()
    host.navigator = navigator
    host.shown = SimpleNamespace(campaign_id=campaign.id, edition=lambda: "2005")
    host.database = "sqlite:///alone.sqlite3"
    host.app_icon = QIcon()
    host.selected = lambda: (ARMY, campaign.army_id)
    windows = Windows(window, host)
    roster = windows.open_selected_roster()
    assert roster is not None and "Reds" in roster.windowTitle()
    assert windows.open_selected_roster() is roster  # raised, not made again
    about = windows.show_about()
    assert "Database: sqlite:///alone.sqlite3" in about.details.toPlainText()
    assert "Rules edition: BrikWars 2005" in about.text.text()
    about.close()
    roster.close()


def test_the_actions_are_enabled_as_their_table_says_of_the_window_state(window, host) -> None:
    actions = MainActions(window, host)
    closed = MainState(False, False, "", 0, None, navigator_shown=True)
    actions.update_enabled(closed)
    assert not actions.new_action.isEnabled() and not actions.export_action.isEnabled()
    assert actions.about_action.isEnabled()  # no enabled-when: always
    one_player = MainState(True, True, ARMY, 1, None, navigator_shown=False)
    actions.update_enabled(one_player)
    assert actions.open_roster_action.isEnabled() and actions.add_army_action.isEnabled()
    assert not actions.new_battle_action.isEnabled()  # a battle needs two players
    assert not actions.delete_selected_action.isEnabled()  # the navigator is hidden
    assert not actions.end_battle_action.isEnabled()
    battle = MainState(True, True, BATTLE, 2, BattleStatus.IN_PROGRESS, navigator_shown=True)
    actions.update_enabled(battle)
    assert actions.end_battle_action.isEnabled() and actions.new_battle_action.isEnabled()
    assert actions.delete_selected_action.isEnabled() and not actions.open_roster_action.isEnabled()


def test_the_campaign_shown_fills_the_pages_it_was_given(window, sv, settings, campaign):
    host = services_host(window, sv, settings)
    host.navigator = Calls()
    host.navigator_dock = QDockWidget("Campaign", window)
    host.pages = QStackedWidget(window)
    host.overview = Calls()
    host.battle_page = SimpleNamespace(battle_id=None)
    host.battles = Calls()
    host.edition_label = QLabel(window)
    host.sharing = Calls()
    host.windows = Calls()
    told = Calls()
    host.show_overview = told.show_overview
    host.update_enabled = told.update_enabled
    shown = CampaignShown(window, host)
    assert shown.open_campaign(campaign.id)
    assert window.windowTitle() == f"Alone: {APP_TITLE}"
    assert host.navigator_dock.windowTitle() == "Alone"
    assert host.edition_label.text().startswith("Rules: BrikWars ")
    assert host.navigator.names() == ["show_navigator"]
    assert host.overview.names() == ["show_navigator"]  # the overview, not shown, is filled
    assert host.sharing.calls == host.windows.calls == [("campaign_opened", (campaign.id,))]
    assert told.names() == ["update_enabled", "show_overview"]
    assert settings.last_campaign == campaign.id
    # A campaign that is not there: said in the banner, the one shown stays.
    assert not shown.open_campaign(CampaignId(campaign.id + 99))
    assert host.banner.label.text() and shown.campaign_id == campaign.id


def test_the_battles_show_a_battle_on_the_page_they_were_given(window, sv, settings, table):
    host = services_host(window, sv, settings)
    host.battle_page = BattlePage(window)
    host.pages = QStackedWidget(window)
    host.pages.addWidget(QWidget())
    host.pages.addWidget(host.battle_page)
    window.setCentralWidget(host.pages)
    host.navigator = Calls()
    host.navigator_dock = QDockWidget("Campaign", window)
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, host.navigator_dock)
    host.shown = SimpleNamespace(campaign_id=table.campaign_id, battle_name=lambda _id: "Ford")
    host.menus = Calls()
    host.battle_sheet_printing = Calls()
    host.report_printing = Calls()
    host.selected = lambda: ("", 0)
    host.follow_page = lambda *_args: None
    host.proposals = ProposalInbox(window)
    window.show()
    battles = Battles(window, host)
    assert battles.current_battle() is None  # nothing shown, nothing selected
    assert battles.open_battle(table.battle_id)
    assert host.pages.currentWidget() is host.battle_page
    assert battles.panel is not None and battles.panel.battle_id == table.battle_id
    assert battles.panel.isVisibleTo(host.battle_page)
    assert host.navigator.calls == [("select", (BATTLE, table.battle_id))]
    assert host.menus.names() == ["show_battle_entries"]
    assert battles.current_battle() == (table.battle_id, "Ford")
    # Table mode gives the panel the window: the navigator steps aside, then comes back.
    battles.table_mode(True)
    assert not host.navigator_dock.isVisible()
    battles.table_mode(False)
    assert host.navigator_dock.isVisible()
