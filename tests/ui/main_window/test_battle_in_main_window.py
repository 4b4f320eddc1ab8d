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


def _activate(qtbot, main) -> None:
    main.windowHandle().requestActivate()
    qtbot.waitUntil(main.isActiveWindow)


def test_q_works_at_once_when_a_battle_opens(open_main, demo_db, qtbot, monkeypatch):
    """The hint line names a unit and its Q: Q opens its quick attack without a click, the
    focus in the unit table on the first unit of the player whose turn it is."""
    from PySide6.QtWidgets import QApplication

    from brikdesk.domain.battle import is_own_turn

    main = open_main(demo_db)
    _activate(qtbot, main)
    main.navigator.setFocus()  # where the organizer left it: the battle chosen in the tree
    opened: list[int] = []
    assert main.open_battle(in_progress(main))
    panel = main.battle_panel
    monkeypatch.setattr(panel, "open_quick", lambda uid: opened.append(uid) or True)
    assert QApplication.focusWidget() is panel.table
    unit = panel.current_unit()
    assert unit is not None and is_own_turn(panel.view.state, unit)
    assert panel.view.setup.unit(unit).name in panel.message.keys
    qtbot.keyClick(panel.table, Qt.Key.Key_Q)
    assert opened == [unit]


def test_the_keyboard_is_ready_after_switching_battles_and_back(open_main, demo_db, qtbot):
    from PySide6.QtWidgets import QApplication

    main = open_main(demo_db)
    _activate(qtbot, main)
    battles = [b.id for b in main.nav.battles]
    for battle_id in (*battles, battles[0]):
        main.show_overview()
        main.navigator.setFocus()
        assert main.open_battle(battle_id)
        assert QApplication.focusWidget() is main.battle_panel.table
        assert main.battle_panel.current_unit() is not None
