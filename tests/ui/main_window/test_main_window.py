"""The main window: first start, last and recent campaigns, layout kept between sessions,
players and armies, battles, import and export, printing, the rules reference, and start-up
failures and imports."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QPushButton, QWidget

from brikdesk.domain import attack, roster
from brikdesk.errors import StorageError
from brikdesk.services.summaries import CampaignPatch
from ui import app as app_module
from ui.app import build_main_window
from ui.dialogs.campaign import (
    ArmyDialog,
    ArmyInput,
    CampaignSettingsDialog,
    NewCampaign,
    NewCampaignDialog,
    OpenCampaignDialog,
    PlayerDialog,
    PlayerInput,
)
from ui.dialogs.confirm_delete import ConfirmDelete
from ui.dialogs.edition_change import EditionChangeDialog
from ui.dialogs.rules_reference import modifier_rows
from ui.widgets.dialogs import FileChooser, TextPrompt
from ui.windows.navigator import ARMY, BATTLE, PLAYER


def patch_ask(monkeypatch, cls, value, name="ask"):
    monkeypatch.setattr(cls, name, classmethod(lambda c, *a, **k: value))


def test_first_start_creates_and_shows_the_demo(qtbot, tmp_path, settings, monkeypatch):
    monkeypatch.setenv("BRIKDESK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("BRIKDESK_DB", raising=False)
    window = build_main_window(argparse.Namespace(db=None), settings=settings)
    qtbot.addWidget(window)
    assert (tmp_path / "home" / "brikdesk.sqlite3").is_file()
    assert window.nav.campaign.name.startswith("Demo")
    assert window.navigator.entries(ARMY) and window.navigator.entries(BATTLE)
    assert window.database_label.text() == f"Database: {tmp_path / 'home' / 'brikdesk.sqlite3'}"
    window.close()


def test_opens_the_last_campaign_and_remembers_recent_ones(open_main, demo_db, monkeypatch):
    main = open_main(demo_db)
    demo_id = main.campaign_id
    patch_ask(monkeypatch, NewCampaignDialog, NewCampaign("Second War", "2010", "CP", 50))
    second = main.new_campaign()
    assert main.edition_label.text() == "Rules: BrikWars 2010"
    main.close()
    again = open_main(demo_db)
    assert again.campaign_id == second
    assert [a.data() for a in again.recent_actions()] == [second, demo_id]
    again.recent_actions()[1].trigger()
    assert again.campaign_id == demo_id
    patch_ask(monkeypatch, OpenCampaignDialog, second)
    assert again.choose_campaign() and again.campaign_id == second


def test_window_layout_and_geometry_persist(open_main, demo_db, qtbot):
    # Sizes within the offscreen screen (800 x 800) and its window frame: a window is fitted to
    # its screen (ui.screen.fit_to_screen).
    main = open_main(demo_db)
    main.resize(770, 560)
    main.navigator_dock.hide()
    roster = main.open_roster(main.navigator.entries(ARMY)[0][0])
    roster.resize(760, 540)
    main.close()
    again = open_main(demo_db)
    assert again.size() == QSize(770, 560)
    assert not again.navigator_dock.isVisible()
    roster = again.open_roster(again.navigator.entries(ARMY)[0][0])
    assert roster.size() == QSize(760, 540)


def test_players_and_armies_from_the_navigator(open_main, demo_db, monkeypatch):
    main = open_main(demo_db)
    patch_ask(monkeypatch, PlayerDialog, PlayerInput("Zed", "#17a589", "Zombies"))
    player_id = main.add_player()
    assert main.navigator.find_entry(PLAYER, player_id).text(0) == "Zed · Zombies"
    patch_ask(monkeypatch, ArmyDialog, ArmyInput(player_id, "Horde", None))
    army_id = main.add_army()
    assert main.navigator.current_key() == (ARMY, army_id)
    assert next(a for a in main.nav.armies if a.id == army_id).budget is None
    main.main_actions.undo_action.trigger()  # adding an army without a budget is one step
    assert main.navigator.find_entry(ARMY, army_id) is None
    main.main_actions.redo_action.trigger()
    assert next(a for a in main.nav.armies if a.id == army_id).budget is None

    main.navigator.select(PLAYER, player_id)
    patch_ask(monkeypatch, ConfirmDelete, True)
    assert main.delete_selected()
    assert main.navigator.find_entry(PLAYER, player_id) is None
    assert main.navigator.find_entry(ARMY, army_id) is None
    main.main_actions.undo_action.trigger()
    assert main.navigator.find_entry(PLAYER, player_id) is not None
    assert main.navigator.find_entry(ARMY, army_id) is not None
    # A player who fought a battle can't be deleted: the banner says why, nothing changes.
    fought = main.nav.battles[0].players[0]
    pid = next(p.id for p in main.nav.players if p.name == fought)
    main.navigator.select(PLAYER, pid)
    assert not main.delete_selected()
    assert "battle" in main.banner.text()
    assert main.navigator.find_entry(PLAYER, pid) is not None


def test_open_battle_shows_its_panel(open_main, demo_db):
    main = open_main(demo_db)
    battle_id, text = main.navigator.entries(BATTLE)[0]
    main.navigator.select(BATTLE, battle_id)
    main.main_actions.open_battle_action.trigger()
    assert main.pages.currentWidget() is main.battle_page
    battle = next(b for b in main.nav.battles if b.id == battle_id)
    assert main.battle_page.battle_id == battle_id
    assert main.battle_page.title.text() == battle.status_text
    assert not main.battle_page.body.isVisible()  # the panel, not a summary under it
    assert main.battle_panel.battle_id == battle_id and main.battle_panel.isVisible()
    assert main.main_actions.new_battle_action.isEnabled()
    main.battle_page.back_button.click()
    assert main.pages.currentWidget() is main.overview


def test_export_and_import_a_campaign(open_main, demo_db, tmp_path, monkeypatch, qtbot):
    main = open_main(demo_db)
    name = main.nav.campaign.name
    target = tmp_path / "out.json"
    patch_ask(monkeypatch, FileChooser, target, "save_path")
    job = main.export_campaign()
    qtbot.waitUntil(lambda: job.done, timeout=20_000)
    assert job.result == target
    assert json.loads(target.read_text(encoding="utf-8"))["campaign"]["name"] == name
    # Importing it again clashes with the campaign's name: asked for another one.
    patch_ask(monkeypatch, FileChooser, target, "open_path")
    patch_ask(monkeypatch, TextPrompt, "Demo copy")
    job = main.import_campaign()
    qtbot.waitUntil(lambda: job.done and job.retry is not None and job.retry.done, timeout=20_000)
    new_id = job.retry.result
    assert new_id is not None and main.campaign_id == new_id
    assert main.nav.campaign.name == "Demo copy"
    assert len(main.navigator.entries(ARMY)) == 3
    main.main_actions.undo_action.trigger()  # undoing the import removes it; the window shows another
    assert main.campaign_id != new_id
    assert main.nav is not None


def test_import_and_export_run_on_a_worker_with_progress_and_cancel(
    open_main, demo_db, tmp_path, qtbot
):
    """The window keeps painting while a file is read and written; Cancel writes nothing."""
    import threading

    from brikdesk.services import transfer

    main = open_main(demo_db)
    source = tmp_path / "demo.json"
    main.services.transfer.write_export(main.campaign_id, source)
    campaigns = len(main.services.campaigns.list_campaigns())
    gui = threading.get_ident()
    seen: list[tuple[str, bool]] = []
    release = threading.Event()
    real = transfer.check_document

    def slow_check(doc, progress=transfer.no_progress):
        seen.append(("check", threading.get_ident() == gui))
        release.wait(10)  # a large file: the check takes a while
        return real(doc, progress)

    transfer_check = pytest.MonkeyPatch()
    transfer_check.setattr(transfer, "check_document", slow_check)
    try:
        job = main.import_campaign(source, "Cancelled copy")
        qtbot.waitUntil(lambda: bool(seen), timeout=10_000)
        assert seen == [("check", False)]  # on a worker, not on the GUI thread
        qtbot.waitUntil(lambda: job.dialog.isVisible(), timeout=5_000)
        assert job.dialog.windowModality() == Qt.WindowModality.WindowModal
        job.dialog.findChild(QPushButton).click()  # Cancel
        release.set()
        qtbot.waitUntil(lambda: job.done, timeout=20_000)
    finally:
        transfer_check.undo()
    assert job.cancelled and job.result is None
    assert len(main.services.campaigns.list_campaigns()) == campaigns
    assert "cancelled; nothing was imported" in main.banner.text()

    target = tmp_path / "out.json"
    target.write_text("old", encoding="utf-8")
    reading = threading.Event()
    release.clear()
    real_export = main.services.transfer.export_json

    def slow_export(campaign_id):
        reading.set()
        release.wait(10)  # a large campaign: reading it takes a while
        return real_export(campaign_id)

    export_read = pytest.MonkeyPatch()
    export_read.setattr(main.services.transfer, "export_json", slow_export)
    try:
        job = main.export_campaign(target)
        assert reading.wait(10)
        job.cancel()  # while the campaign is read, before anything is written
        release.set()
        qtbot.waitUntil(lambda: job.done, timeout=20_000)
    finally:
        export_read.undo()
    assert job.cancelled and target.read_text(encoding="utf-8") == "old"
    assert not any(p.name.startswith(".out.json") for p in tmp_path.iterdir())


def test_export_roster_pdf_from_the_main_window(open_main, demo_db, tmp_path, qtbot):
    main = open_main(demo_db)
    army_id = main.navigator.entries(ARMY)[0][0]
    assert not main.main_actions.pdf_action.isEnabled() or main.selected()[0] == ARMY
    main.navigator.select(ARMY, army_id)
    assert main.main_actions.pdf_action.isEnabled()
    out = tmp_path / "roster.pdf"
    assert main.export_pdf(out)
    qtbot.waitUntil(lambda: main.printing.last_export == out, timeout=20_000)
    assert out.read_bytes().startswith(b"%PDF")
    assert "Saved" in main.banner.text()


def test_rules_reference_lists_the_readings_and_the_modifiers(open_main, demo_db):
    main = open_main(demo_db)
    ref = main.show_rules_reference()
    text = ref.plain_text()
    assert " ".join(attack.READINGS["5.1 Out of Range"].split()) in " ".join(text.split())
    assert roster.READINGS["armor_stacking"] in text
    rows = modifier_rows()
    assert rows and all(r.rule in text for r in rows)
    ref.filter.setText("Parry")
    filtered = ref.plain_text()
    assert "Parry" in filtered and roster.READINGS["armor_stacking"] not in filtered
    ref.filter.setText("zzzz-nothing")
    assert "Nothing matches" in ref.plain_text()


def test_a_database_that_cannot_be_opened_is_a_clear_error_and_exit_1(tmp_path, monkeypatch):
    shown: list[StorageError] = []
    monkeypatch.setattr(app_module, "show_start_error", lambda error, url=None: shown.append(error))
    monkeypatch.setattr(app_module, "setup_logging", lambda: None)
    bad = f"sqlite:///{tmp_path / 'no-such-folder' / 'x.sqlite3'}"
    assert app_module.run_app(argparse.Namespace(db=bad, check_start=False)) == 1
    assert len(shown) == 1 and "does not exist" in str(shown[0])


def test_not_a_brikdesk_database_fails_check_start(tmp_path):
    import sqlite3

    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as conn:
        conn.execute("create table recipes (id integer primary key)")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", BRIKDESK_HOME=str(tmp_path))
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "brikdesk"),
            "--db",
            f"sqlite:///{other}",
            "--check-start",
        ],
        capture_output=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert "not a BrikDesk database" in done.stderr


def test_pyqtgraph_loads_only_with_the_chart(tmp_path, demo_db):
    script = textwrap.dedent(f"""
        import argparse, sys
        from ui.app import build_main_window, create_application
        from ui.settings import AppSettings
        app = create_application()
        w = build_main_window(argparse.Namespace(db={demo_db!r}),
                              settings=AppSettings.at({str(tmp_path / "s.ini")!r}))
        w.show(); app.processEvents()
        r = w.open_roster(w.navigator.entries("army")[0][0]); app.processEvents()
        print("start", "pyqtgraph" in sys.modules)
        c = w.open_catalog(); c.select("item", "hand-weapon"); app.processEvents()
        print("chart", "pyqtgraph" in sys.modules)
    """)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", BRIKDESK_HOME=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "start False" in done.stdout and "chart True" in done.stdout


@pytest.mark.parametrize("kind", ["roster", "navigator"])
def test_table_models_pass_the_model_tester(open_main, demo_db, qtmodeltester, kind):
    main = open_main(demo_db)
    if kind == "roster":
        model = main.open_roster(main.navigator.entries(ARMY)[0][0]).model
        qtmodeltester.check(model)
        model.set_filter("weapon")
        model.sort(8)
        qtmodeltester.check(model)
    else:
        qtmodeltester.check(main.navigator.model())


def test_delete_key_acts_on_the_navigator_only(open_main, demo_db, qtbot, monkeypatch):
    main = open_main(demo_db)
    patch_ask(monkeypatch, PlayerDialog, PlayerInput("Zed", "#17a589", ""))
    patch_ask(monkeypatch, ConfirmDelete, True)
    player_id = main.add_player()
    main.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is main)
    main.overview.setFocus()
    qtbot.keyClick(main.overview, Qt.Key.Key_Delete)
    assert main.navigator.find_entry(PLAYER, player_id) is not None
    main.navigator.setFocus()
    qtbot.keyClick(main.navigator, Qt.Key.Key_Delete)
    assert main.navigator.find_entry(PLAYER, player_id) is None


def test_campaign_settings_are_edited_with_undo(open_main, demo_db, monkeypatch):
    main = open_main(demo_db)
    campaign = main.nav.campaign
    patch = CampaignPatch(
        name="Baseplate Valley, Season 2",
        edition="2010",
        default_budget=120,
        notes="Saturdays at Margo's",
    )
    calls = []
    monkeypatch.setattr(
        CampaignSettingsDialog,
        "ask",
        classmethod(lambda cls, parent, c, taken: calls.append((c, taken)) or patch),
    )
    previews = []
    monkeypatch.setattr(
        EditionChangeDialog,
        "ask",
        classmethod(lambda cls, parent, p: previews.append(p) or (p.types, p.items)),
    )
    main.main_actions.settings_action.trigger()
    # The edition change was previewed first: the demo's 2020 specialists 2010 lacks.
    [preview] = previews
    assert (preview.old, preview.new) == ("2020", "2010")
    assert calls[0][0] == campaign and campaign.name in calls[0][1]
    assert main.windowTitle() == "Baseplate Valley, Season 2: BrikDesk"
    assert main.edition_label.text() == "Rules: BrikWars 2010"
    text = main.overview.toPlainText()
    assert "BrikWars 2010" in text and "default army budget 120 CP" in text
    assert "Saturdays at Margo's" in text
    main.main_actions.undo_action.trigger()  # one step puts every field back
    assert main.nav.campaign.name == campaign.name
    assert (
        main.nav.campaign.edition,
        main.nav.campaign.default_budget,
        main.nav.campaign.notes,
    ) == (campaign.edition, campaign.default_budget, campaign.notes)
    main.main_actions.redo_action.trigger()
    assert main.nav.campaign.edition == "2010"


def test_settings_dialog_hands_back_only_what_changed(qtbot, open_main, demo_db):
    main = open_main(demo_db)
    campaign = main.nav.campaign
    dialog = CampaignSettingsDialog(main, campaign, [campaign.name, "Other War"])
    qtbot.addWidget(dialog)
    assert dialog.value() == CampaignPatch()
    assert dialog.ok_button.isEnabled() and not dialog.edition_note.isVisibleTo(dialog)
    dialog.name.setText("other war")
    assert not dialog.ok_button.isEnabled() and "already" in dialog.problem.text()
    dialog.name.setText("  New   Name ")
    dialog.edition.setCurrentIndex(dialog.edition.findData("2005"))
    assert "BrikWars 2005" in dialog.edition_note.text()
    assert dialog.value() == CampaignPatch(name="New Name", edition="2005")


def test_delete_the_campaign_with_undo(open_main, demo_db, monkeypatch):
    main = open_main(demo_db)
    demo = main.campaign_id
    patch_ask(
        monkeypatch, NewCampaignDialog, NewCampaign("Second War", "2020", "CP", 50, "a short one")
    )
    second = main.new_campaign()
    assert "a short one" in main.overview.toPlainText()
    patch_ask(monkeypatch, ConfirmDelete, True)
    assert main.delete_campaign()
    assert main.campaign_id == demo  # the other campaign is shown
    assert "Ctrl+Z" in main.statusBar().currentMessage()
    main.main_actions.undo_action.trigger()
    assert [a.data() for a in main.recent_actions()][:1] == [demo]
    main.open_campaign(second)
    assert main.nav.campaign.name == "Second War"


def test_recent_campaigns_are_kept_per_database(open_main, demo_db, empty_db, monkeypatch):
    main = open_main(demo_db)
    demo = main.campaign_id
    main.close()
    other = open_main(empty_db)  # same settings file, another database
    assert other.campaign_id is None and other.recent_actions() == []
    patch_ask(monkeypatch, NewCampaignDialog, NewCampaign("Elsewhere", "2020", "CP", 50))
    elsewhere = other.new_campaign()
    other.close()
    again = open_main(demo_db)
    assert again.campaign_id == demo
    assert [a.data() for a in again.recent_actions()] == [demo]
    assert open_main(empty_db).campaign_id == elsewhere


def _shortcuts(window) -> dict[str, list[str]]:
    def owner(obj):
        while obj is not None and not isinstance(obj, QWidget):
            obj = obj.parent()
        return obj.window() if obj is not None else None

    seen: dict[str, list[str]] = {}
    for action in window.findChildren(QAction):
        if action.shortcutContext() != Qt.ShortcutContext.WindowShortcut:
            continue  # acts on one widget only (Delete, F2 in the navigator or a table)
        if owner(action) is not window:
            continue  # another top-level window (a roster): its keys are its own
        for key in action.shortcuts():
            seen.setdefault(key.toString(), []).append(action.text())
    return seen


def test_every_menu_entry_works_and_no_two_share_a_key(open_main, demo_db, qtbot):
    main = open_main(demo_db)
    main.navigator.select(ARMY, main.navigator.entries(ARMY)[0][0])
    for title, entries in (
        (
            "&File",
            [
                "&New campaign…",
                "&Open campaign…",
                "&Recent campaigns",
                "&Import campaign…",
                "&Export campaign…",
                "&Quit",
            ],
        ),
        ("&Edit", ["&Undo", "&Redo"]),
        ("&Help", ["&Rules reference", "&About BrikDesk"]),
        ("&Campaign", ["Campaign &settings…", "Delete campaign"]),
    ):
        menu = next(a.menu() for a in main.menuBar().actions() if a.text() == title)
        texts = [a.text() for a in menu.actions() if not a.isSeparator()]
        for entry in entries:
            assert any(t == entry or t.startswith(entry) for t in texts), (title, entry)
        for action in menu.actions():
            if action.isSeparator() or action.menu() is not None:
                continue
            # Every entry does something when chosen (a slot of ours or the undo stack's).
            assert action.receivers("2triggered(bool)") > 0, action.text()
    roster = main.open_roster(main.navigator.entries(ARMY)[0][0])
    catalog = main.open_catalog()
    main.open_battle(main.navigator.entries(BATTLE)[0][0])  # the battle panel's keys too
    for window in (main, roster, catalog):
        clashes = {k: v for k, v in _shortcuts(window).items() if len(v) > 1}
        assert not clashes, (window.objectName(), clashes)


def _tab_chain(qtbot, window, start, n: int) -> list:
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    start.setFocus()
    chain = []
    for _ in range(n):
        widget = QApplication.focusWidget()
        chain.append(widget)
        qtbot.keyClick(widget, Qt.Key.Key_Tab)
    return chain


def test_tab_goes_through_each_window_in_reading_order(open_main, demo_db, qtbot):
    main = open_main(demo_db)
    chain = _tab_chain(qtbot, main, main.navigator, 12)
    assert chain[1] is main.overview  # then the overview's links, then back
    assert main.navigator in chain[2:]
    catalog = main.open_catalog()
    qtbot.waitExposed(catalog)
    tab = catalog.current_tab()
    chain = _tab_chain(qtbot, catalog, catalog.filter, 6)
    form = tab.form.editors
    assert chain[2:] == [tab.table, form["name"], form["category"], form["cost"]]
    roster = main.open_roster(main.navigator.entries(ARMY)[0][0])
    qtbot.waitExposed(roster)
    chain = _tab_chain(qtbot, roster, roster.filter, 5)
    lists = roster.loadout.lists
    assert chain == [
        roster.filter,
        roster.table,
        roster.card,
        lists["in hand"],
        roster.loadout.remove_buttons["in hand"],
    ]
