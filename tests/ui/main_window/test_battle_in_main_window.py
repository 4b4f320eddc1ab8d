"""The battle panel inside the main window: the Battle menu, End Turn keys, New battle."""

from __future__ import annotations

from PySide6.QtCore import Qt

from brikdesk.services.summaries import Muster
from ui.panels.start_dialog import StartBattleDialog, StartRequest


def in_progress(main) -> int:
    return next(b.id for b in main.nav.battles if b.status == "in_progress")


def test_a_battle_opens_in_the_panel_and_the_battle_menu_drives_it(open_main, demo_db):
    main = open_main(demo_db)
    battle_id = in_progress(main)
    assert main.open_battle(battle_id)
    panel = main.battle_panel
    assert panel.isVisible() and panel.battle_id == battle_id
    assert panel.turn_label.text() == "Ines's turn"  # the demo's battle in progress
    menu = [a for a in main.menus.battle_menu.actions() if not a.isSeparator()]
    assert panel.end_turn_action in menu and panel.table_mode_action in menu
    assert panel.end_turn_action.shortcuts()[0].toString() == "Ctrl+E"
    assert panel.end_turn_action.shortcutContext() == Qt.ShortcutContext.WindowShortcut
    # End Turn from the Battle menu (the keys are tested on the panel itself).
    panel.end_turn_action.trigger()
    assert panel.turn_label.text() == "Tobias's turn" and panel.round_label.text() == "Round 2"
    assert "Tobias: " in panel.message_text
    # The app's Edit > Undo takes back the End Turn.
    main.main_actions.undo_action.trigger()
    assert panel.turn_label.text() == "Ines's turn" and panel.round_label.text() == "Round 1"
    # Another page: End Turn rests (its window-wide keys too), so nothing happens unseen.
    main.show_overview()
    assert not panel.end_turn_action.isEnabled()
    main.open_battle(battle_id)
    assert panel.end_turn_action.isEnabled()


def test_new_battle_musters_starts_and_opens_it(open_main, demo_db, monkeypatch):
    main = open_main(demo_db)
    nav = main.nav
    margo, tobias = nav.players[0], nav.players[1]
    reds = [u.id for u in main.services.roster.roster(nav.armies[0].id).units][:3]
    blues = [
        u.id for u in main.services.roster.roster(nav.armies[1].id).units if u.status != "dead"
    ][:2]
    request = StartRequest(
        "Night Raid", (Muster(tobias.id, tuple(blues)), Muster(margo.id, tuple(reds)))
    )
    monkeypatch.setattr(StartBattleDialog, "ask", classmethod(lambda cls, *a: request))
    assert main.main_actions.new_battle_action.isEnabled()
    main.main_actions.new_battle_action.trigger()
    panel = main.battle_panel
    assert panel.view.name == "Night Raid" and panel.turn_label.text() == "Tobias's turn"
    assert len(panel.model.unit_ids()) == 5
    assert "Night Raid" in [b.name for b in main.nav.battles]
    main.main_actions.undo_action.trigger()
    assert "Night Raid" not in [b.name for b in main.nav.battles]
