"""The battle panel: play through it, filters, table mode, refusals, undo, reopening."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMenu, QTableView

from brikdesk.domain.battle import ActionState, ActionUse, Status, spend_action
from brikdesk.domain.colours import contrast_ratio
from brikdesk.domain.rolling import TypedDice
from brikdesk.persistence.db import Database, open_database
from brikdesk.services import Services
from brikdesk.services.summaries import Muster
from tests.ui.battle_tables import Table, cell, make_panel
from tests.ui.keyboard import keys, quick_form_of, record_by_keys
from ui.bus import Bus
from ui.dialogs.sprint import SprintDialog
from ui.glyphs import refusal_sign
from ui.models.table import IdRole
from ui.panels import BattlePanel, start_new_battle
from ui.panels.battle_model import (
    ACTION,
    COUNTERS,
    RESPOND,
    RESPOND_MARK,
    STATUS,
    UNIT,
    BattleUnitModel,
    Filters,
    LogModel,
)
from ui.panels.pickers import UnitPicker
from ui.panels.start_dialog import OrderDialog, StartBattleDialog, StartRequest
from ui.panels.theme import NORMAL, TABLE


def wizard_finishing_an_attack(
    parent: BattlePanel, _services, _bus, _stack, _battle_id, attacker: int, _ctx=None
) -> None:
    """Stands in for the combat wizard: Finish at once records the attacker's attack."""
    parent.commands.spend(attacker, ActionUse.ATTACK)


@pytest.fixture
def panel(qtbot, sv: Services, table: Table, qsettings: QSettings) -> BattlePanel:
    p = make_panel(qtbot, sv, table.battle_id, qsettings)
    # A opens the wizard (tested on its own).
    p.forms = replace(p.forms, wizard=wizard_finishing_an_attack)
    return p


# -- reading what the panel shows ---------------------------------------------------------


def shown_units(panel: BattlePanel) -> list[str]:
    return [panel.model.index_of_unit(uid, UNIT).data() for uid in panel.model.unit_ids()]


def group_titles(panel: BattlePanel) -> list[str]:
    return [panel.model.index(r, 0).data() for r in panel.model.group_rows()]


def log_lines(panel: BattlePanel) -> list[str]:
    m = panel.log_model
    return [m.index(r, 0).data() for r in range(m.rowCount())]


def act_key(
    qtbot,
    panel: BattlePanel,
    name: str,
    key: Qt.Key,
    modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
    """Select the unit's row and press a key in the table, as a user would."""
    assert panel.select_unit(next(u.id for u in panel.view.units if u.name == name))
    panel.activateWindow()
    panel.table.setFocus()
    qtbot.waitUntil(panel.table.hasFocus, timeout=2000)  # the keys work on the focused table
    qtbot.keyClick(panel.table, key, modifier)


def trigger_menu_item(menu: QMenu, text: str) -> None:
    """Trigger the menu entry whose text starts with ``text`` (submenus searched too)."""
    for action in menu.actions():
        if action.menu() is not None:
            try:
                trigger_menu_item(action.menu(), text)
                return
            except LookupError:
                continue
        if action.text().replace("&", "").startswith(text) and action.isEnabled():
            action.trigger()
            return
    raise LookupError(text)


def sprint_dialog(qtbot, panel: BattlePanel) -> SprintDialog:
    """The Sprint dialog the panel opened (window-modal, over the panel)."""
    qtbot.waitUntil(lambda: bool(panel.findChildren(SprintDialog)), timeout=2000)
    dialog = panel.findChildren(SprintDialog)[-1]
    qtbot.waitExposed(dialog)
    return dialog


# -- playing three rounds -------------------------------------------------------------------


def test_three_full_rounds_through_the_panel(
    qtbot, panel: BattlePanel, sv: Services, table: Table
) -> None:
    ids = table.ids
    assert panel.round_label.text() == "Round 1"
    assert panel.turn_label.text() == "Red's turn"
    assert group_titles(panel)[0].startswith("▶  Red  ·  ACTIVE")
    assert cell(panel, "Blue Pike", RESPOND) == RESPOND_MARK  # reading first_round

    # Round 1, Red: an attack by key, a Sprint from the Act menu, a Close Combat attack.
    act_key(qtbot, panel, "Red Rifle", Qt.Key.Key_A)
    assert cell(panel, "Red Rifle", ACTION) == "Spent"
    panel.select_unit(ids["Red Pike"])
    panel.act_button.menu().aboutToShow.emit()
    trigger_menu_item(panel.act_button.menu(), "Sprint")  # opens the Sprint dialog (4.1)
    sprint = sprint_dialog(qtbot, panel)
    qtbot.keyClicks(sprint.entry.edit, "3")  # the face the player rolled
    assert sprint.ok_button.isEnabled()
    qtbot.mouseClick(sprint.ok_button, Qt.MouseButton.LeftButton)
    assert cell(panel, "Red Pike", ACTION) == "Spent"
    assert panel.commands.close_combat_attack(ids["Red Knight"], ids["Blue Knight"])
    assert "⚔ Blue Knight" in cell(panel, "Red Knight", STATUS)
    assert "Attacked 1/3" in cell(panel, "Blue Knight", STATUS)
    # Blue's Knight answers with a Counter (its Action is held: using a Counter spends it).
    panel.select_unit(ids["Blue Knight"])
    panel.counter_button.menu().aboutToShow.emit()
    trigger_menu_item(panel.counter_button.menu(), "Counterstrike Red Knight")
    record_by_keys(qtbot, quick_form_of(qtbot, panel), "1")  # its dice: a miss
    assert "Blue Knight (Blue) with a Counter: strike on Red Knight (Red)" in log_lines(panel)[0]
    assert cell(panel, "Blue Knight", COUNTERS) == "1 / 2"
    assert cell(panel, "Blue Knight", ACTION) == "Responded"
    assert cell(panel, "Blue Knight", RESPOND) == ""
    # Blue's Rifle responds with an attack by key (it held its Action).
    act_key(qtbot, panel, "Blue Rifle", Qt.Key.Key_A)
    assert cell(panel, "Blue Rifle", ACTION) == "Responded"
    # End Turn by the button.
    qtbot.mouseClick(panel.end_turn_button, Qt.MouseButton.LeftButton)
    assert panel.turn_label.text() == "Blue's turn" and panel.round_label.text() == "Round 1"
    assert group_titles(panel)[0].startswith("▶  Blue  ·  ACTIVE")
    assert panel.message_kind == "info"
    assert "Blue: 2 Actions recharged" in panel.message.text()
    assert "Counters reset for 2 units" in panel.message.text()
    assert cell(panel, "Blue Knight", COUNTERS) == "0 / 2"  # Counters reset
    assert cell(panel, "Red Knight", RESPOND) == ""  # spent on its own turn
    assert cell(panel, "Red Pike", ACTION) == "Spent"
    assert cell(panel, "Blue Pike", ACTION) == "Ready"

    # Round 1, Blue: the Pike attacks; Red's... nobody held: End Turn by Ctrl+E.
    act_key(qtbot, panel, "Blue Pike", Qt.Key.Key_A)
    panel.activateWindow()
    qtbot.keyClick(panel.table, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert panel.round_label.text() == "Round 2" and panel.turn_label.text() == "Red's turn"
    assert "Round 2 begins" in panel.message.text()

    # Round 2, Red: the Knight is Disrupted by a Bail (B); nobody else acts.
    act_key(qtbot, panel, "Red Knight", Qt.Key.Key_B)
    assert "Disrupted" in cell(panel, "Red Knight", STATUS)
    qtbot.keyClick(panel.table, Qt.Key.Key_F12)
    # Round 2, Blue: Red's Rifle and Pike saved their Action and can respond now.
    assert panel.turn_label.text() == "Blue's turn"
    assert cell(panel, "Red Rifle", RESPOND) == RESPOND_MARK
    assert cell(panel, "Red Knight", RESPOND) == ""  # Disrupted
    act_key(qtbot, panel, "Red Rifle", Qt.Key.Key_P)  # a Parry in response
    assert cell(panel, "Red Rifle", ACTION) == "Responded"
    assert cell(panel, "Red Rifle", COUNTERS) == "1 / 1"
    panel.end_turn()
    # Round 3, Red: the Knight recovers at Half Speed.
    assert panel.round_label.text() == "Round 3"
    assert "1 unit recovers from Disruption" in panel.message.text()
    assert "Recovering: Half Speed" in cell(panel, "Red Knight", STATUS)
    act_key(qtbot, panel, "Red Knight", Qt.Key.Key_A)
    panel.end_turn()
    act_key(qtbot, panel, "Blue Rifle", Qt.Key.Key_S)  # S: the Sprint dialog, typed dice
    first, sprint = sprint, sprint_dialog(qtbot, panel)
    # A new dialog for Blue Rifle: nothing of Red Pike's Sprint is left.
    assert sprint is not first
    assert sprint.windowTitle() == "Sprint — Blue Rifle" and sprint.draft.faces == ()
    assert sprint.entry.need is not None and not sprint.ok_button.isEnabled()
    qtbot.keyClicks(sprint.entry.edit, "2")
    qtbot.mouseClick(sprint.ok_button, Qt.MouseButton.LeftButton)
    panel.end_turn()
    assert panel.round_label.text() == "Round 4" and panel.turn_label.text() == "Red's turn"
    assert "Recovering" not in cell(panel, "Red Knight", STATUS)

    # The stored log is the whole story, in order, and the log view shows it newest first.
    stored = sv.battles.events(table.battle_id)
    assert [e.kind for e in stored] == [
        "action_spent",
        "action_spent",
        "close_combat_attack",
        "attack_resolved",  # the Counterstrike, its dice and its Counter
        "action_spent",
        "turn_ended",
        "action_spent",
        "turn_ended",
        "action_spent",
        "turn_ended",
        "action_spent",
        "turn_ended",
        "action_spent",
        "turn_ended",
        "action_spent",
        "turn_ended",
    ]
    assert not any(e.reverted for e in stored)
    lines = log_lines(panel)
    assert len(lines) == len(stored)
    assert lines[0] == "R3 Blue  ·  Blue ends their turn (round 3)"
    assert lines[-1] == "R1 Red  ·  Red Rifle (Red) attacks"
    assert panel.view.state == sv.tracker.view(table.battle_id).state


def test_refusals_are_shown_where_the_user_acted(
    qtbot, panel: BattlePanel, sv: Services, table: Table
) -> None:
    ids = table.ids
    stack = panel.undo_stack
    act_key(qtbot, panel, "Red Rifle", Qt.Key.Key_A)
    act_key(qtbot, panel, "Red Rifle", Qt.Key.Key_S)
    assert panel.message_kind == "error"
    assert panel.message_text == (
        f"{refusal_sign()} Red Rifle has already spent its Action this turn.  (4.2 Action)"
    )
    assert panel.message.text() == panel.message_text
    assert panel.current_unit() == ids["Red Rifle"]
    # A Sprint is never a response.
    act_key(qtbot, panel, "Blue Pike", Qt.Key.Key_S)
    assert "cannot Sprint as a response" in panel.message.text()
    assert stack.count() == 1 and len(sv.battles.events(table.battle_id)) == 1
    # A successful action clears the message (its strip stays, so the table does not move).
    top = panel.table.geometry().top()
    act_key(qtbot, panel, "Red Pike", Qt.Key.Key_A)
    assert panel.message_text == "" and panel.message_kind == ""
    assert panel.message.isVisible() and panel.table.geometry().top() == top


def test_the_fourth_close_combat_attacker_is_refused(
    qtbot, sv: Services, qsettings, monkeypatch
) -> None:
    c = sv.campaigns.create_campaign("Mob").value
    red = sv.campaigns.add_player(c.id, "Red").value
    blue = sv.campaigns.add_player(c.id, "Blue").value
    reds = sv.roster.add_units(
        sv.campaigns.add_army(red.id, "R").value.id, "minifig", 4, "Red {n}"
    ).value
    blues = sv.roster.add_units(
        sv.campaigns.add_army(blue.id, "B").value.id, "minifig", 1, "Blue {n}"
    ).value
    view = sv.tracker.begin(c.id, "Mob", [Muster(red.id, reds), Muster(blue.id, blues)]).value
    ids = {u.name: u.id for u in view.units}
    panel = make_panel(qtbot, sv, view.id, qsettings)
    for n in (1, 2, 3):
        assert panel.commands.close_combat_attack(ids[f"Red {n}"], ids["Blue 1"])
    assert "Attacked 3/3" in cell(panel, "Blue 1", STATUS)
    # The fourth, from the row's menu: Close Combat attack > Strike > pick the target is
    # disabled, the rules' reason as its tooltip; the F key asks nothing and says why.
    asked = []
    monkeypatch.setattr(UnitPicker, "ask", classmethod(lambda cls, *a: asked.append(a)))
    panel.select_unit(ids["Red 4"])
    menu = QMenu(panel)
    panel.fill_unit_menu(menu, ids["Red 4"])
    strike = next(a.menu() for a in menu.actions() if a.text().startswith("&Close Combat"))
    strike = next(a.menu() for a in strike.actions() if a.text() == "Strike")
    pick = next(a for a in strike.actions() if a.text().startswith("Pick the target"))
    assert not pick.isEnabled()
    assert "Blue 1 already has three Close Combat attackers this turn" in pick.toolTip()
    act_key(qtbot, panel, "Red 4", Qt.Key.Key_F)
    assert asked == []
    assert panel.message_kind == "error"
    assert (
        "Blue 1 already has three Close Combat attackers this turn (Red 1, Red 2, Red 3)"
        in panel.message.text()
    )
    assert panel.message.text().endswith("(5.2 Close Combat)")
    assert panel.current_unit() == ids["Red 4"]
    assert "⚔" not in cell(panel, "Red 4", STATUS)
    assert len(sv.battles.events(view.id)) == 3


# -- filters, grouping ----------------------------------------------------------------------


def test_filters_show_who_can_respond_fight_or_act(qtbot, panel: BattlePanel, table: Table) -> None:
    ids = table.ids
    panel.commands.spend(ids["Red Rifle"], ActionUse.ATTACK)
    panel.commands.close_combat_attack(ids["Red Knight"], ids["Blue Knight"])
    panel.commands.spend(ids["Blue Pike"], ActionUse.ATTACK)  # a response
    everyone = shown_units(panel)
    assert everyone == [
        "Red Knight",
        "Red Rifle",
        "Red Pike",
        "Blue Knight",
        "Blue Rifle",
        "Blue Pike",
    ]
    panel.filter_respond.click()
    assert shown_units(panel) == ["Blue Knight", "Blue Rifle"]
    panel.filter_respond.click()
    panel.filter_close.click()
    assert shown_units(panel) == ["Red Knight", "Blue Knight"]
    panel.filter_close.click()
    panel.filter_not_acted.click()
    assert shown_units(panel) == ["Red Pike", "Blue Knight", "Blue Rifle"]
    panel.filter_close.click()  # filters combine
    assert shown_units(panel) == ["Blue Knight"]
    panel.set_filters(in_close_combat=False, not_acted=False, text="rifle")
    assert shown_units(panel) == ["Red Rifle", "Blue Rifle"]
    assert group_titles(panel)[0].endswith("1 shown")
    panel.set_filters(text="")
    # A change while filtered moves rows in and out without a reset.
    panel.set_filters(not_acted=True)
    resets = []
    panel.model.modelReset.connect(lambda: resets.append(1))
    panel.commands.spend(ids["Blue Rifle"], ActionUse.PARRY)
    assert "Blue Rifle" not in shown_units(panel) and resets == []
    panel.end_turn()
    assert shown_units(panel) == ["Blue Knight", "Blue Rifle", "Blue Pike", "Red Pike"]
    assert resets == []


def test_dead_units_are_greyed_and_last(qtbot, panel: BattlePanel, table: Table) -> None:
    ids = table.ids
    panel.commands.set_status(ids["Red Knight"], Status.DEAD)
    assert shown_units(panel)[:3] == ["Red Rifle", "Red Pike", "Red Knight"]
    index = panel.model.index_of_unit(ids["Red Knight"], UNIT)
    assert index.data(Qt.ItemDataRole.FontRole).strikeOut()
    assert index.data(Qt.ItemDataRole.ForegroundRole).name() == NORMAL.dead_text
    assert cell(panel, "Red Knight", ACTION) == "Dead"
    assert "1 fallen" in group_titles(panel)[0]
    panel.undo()
    assert shown_units(panel)[0] == "Red Knight"


# -- undo, redo, reopening ------------------------------------------------------------------


def test_undo_and_redo_from_the_log(qtbot, panel: BattlePanel, sv: Services, table: Table) -> None:
    ids = table.ids
    stack = panel.undo_stack
    panel.commands.spend(ids["Red Rifle"], ActionUse.ATTACK)
    panel.end_turn()
    assert panel.undo_button.isEnabled() and not panel.redo_button.isEnabled()
    assert panel.undo_button.toolTip() == "Undo: End Red's turn"  # as in Edit > Undo
    qtbot.mouseClick(panel.undo_button, Qt.MouseButton.LeftButton)
    assert panel.turn_label.text() == "Red's turn" and stack.index() == 1
    assert panel.redo_button.toolTip() == "Redo: End Red's turn"
    qtbot.mouseClick(panel.redo_button, Qt.MouseButton.LeftButton)
    assert panel.turn_label.text() == "Blue's turn" and stack.index() == 2
    # The app's Edit > Undo (this battle's history) does the same.
    stack.undo()
    stack.undo()
    assert cell(panel, "Red Rifle", ACTION) == "Ready"
    assert [e.reverted for e in sv.battles.events(table.battle_id)] == [True, True]
    stack.redo()
    assert cell(panel, "Red Rifle", ACTION) == "Spent"
    # With an empty stack (the app was restarted) the log's Undo still works, and is undoable.
    stack.clear()
    assert panel.undo()
    assert cell(panel, "Red Rifle", ACTION) == "Ready" and stack.count() == 1
    stack.undo()
    assert cell(panel, "Red Rifle", ACTION) == "Spent"


def test_an_undone_line_of_the_log_stays_selected(qtbot, panel: BattlePanel, table: Table) -> None:
    """An Undo changes its log line in place: a selected line stays selected."""
    panel.commands.spend(table.ids["Red Rifle"], ActionUse.ATTACK)
    log = panel.findChild(QTableView, "battleLog")
    top = log.model().index(0, 0)
    log.setCurrentIndex(top)
    event_id = top.data(IdRole)
    panel.undo()
    current = log.currentIndex()
    assert current.isValid() and current.data(IdRole) == event_id
    assert current.data().startswith("↶ undone")
    panel.redo()
    assert log.currentIndex().data(IdRole) == event_id
    assert not log.currentIndex().data().startswith("↶ undone")


def test_reopening_shows_exactly_the_same_battle(
    qtbot, sv: Services, table: Table, database: Database, qsettings: QSettings
) -> None:
    ids = table.ids
    panel = make_panel(qtbot, sv, table.battle_id, qsettings)
    panel.commands.close_combat_attack(ids["Red Knight"], ids["Blue Knight"])
    panel.commands.use_counter(ids["Blue Knight"], ids["Red Knight"])
    panel.commands.spend(ids["Red Rifle"], ActionUse.BAIL)
    panel.end_turn()
    panel.commands.set_status(ids["Blue Pike"], Status.MOM)
    panel.commands.spend(ids["Red Pike"], ActionUse.ATTACK)
    panel.undo()

    def snapshot(p: BattlePanel) -> tuple:
        m = p.model
        rows = [
            tuple(m.index(r, c).data() for c in range(m.columnCount())) for r in range(m.rowCount())
        ]
        return (
            p.round_label.text(),
            p.turn_label.text(),
            rows,
            log_lines(p),
            p.undo_button.isEnabled(),
            p.redo_button.isEnabled(),
        )

    before = snapshot(panel)
    panel.close()
    database.close()

    again = open_database(database.url)
    try:
        reopened = make_panel(qtbot, Services.open(again), table.battle_id, qsettings)
        assert snapshot(reopened) == before
        assert reopened.view.state == panel.view.state
        assert "MOM" in cell(reopened, "Blue Pike", STATUS)
        reopened.close()
    finally:
        again.close()


# -- table mode -----------------------------------------------------------------------------


def test_table_mode_is_large_high_contrast_and_remembered(
    qtbot, panel: BattlePanel, sv: Services, table: Table, qsettings: QSettings
) -> None:
    panel.commands.close_combat_attack(table.ids["Red Knight"], table.ids["Blue Knight"])
    assert panel.message.text().startswith("Keys: Red Knight: Q quick attack · A attack")
    normal_size = panel.round_label.font().pointSizeF()
    normal_rows = panel.table.verticalHeader().defaultSectionSize()
    assert not panel.table_mode
    panel.table_mode_action.trigger()
    assert panel.table_mode and panel.table_mode_action.isChecked()
    assert panel.round_label.font().pointSizeF() >= normal_size * 1.5
    assert panel.table.verticalHeader().defaultSectionSize() >= normal_rows * 1.4
    assert (
        panel.model.index(0, 0).data(Qt.ItemDataRole.FontRole).pointSizeF()
        > QMenu().font().pointSizeF() * 1.5
    )
    assert panel.message.text() == ""  # no keys for the players to read
    assert cell(panel, "Red Knight", STATUS).startswith("⚔ Blue Knight")
    assert panel.table.currentIndex().isValid()
    qsettings.sync()
    assert str(qsettings.value("battle/tableMode")).lower() == "true"
    # A new panel (the app reopened) starts in table mode.
    second = make_panel(qtbot, sv, table.battle_id, qsettings)
    assert second.table_mode
    second.table_mode_action.trigger()
    assert not second.table_mode
    assert str(qsettings.value("battle/tableMode")).lower() == "false"


@pytest.mark.parametrize("theme", [NORMAL, TABLE])
def test_theme_text_colours_have_enough_contrast(theme) -> None:
    pairs = [
        (theme.text, theme.window),
        (theme.muted, theme.window),
        (theme.text, theme.active_row),
        (theme.ready, theme.window),
        (theme.held, theme.window),
        (theme.responded, theme.window),
        (theme.spent, theme.window),
        (theme.respond_marker, theme.window),
        (theme.selection_text, theme.selection),
        (theme.banner_info[1], theme.banner_info[0]),
        (theme.banner_error[1], theme.banner_error[0]),
    ]
    pairs += [(theme.chip_text, chip) for chip in theme.chips.values()]
    for fg, bg in pairs:
        assert contrast_ratio(fg, bg) >= 4.5, (theme.name, fg, bg)
    if theme is TABLE:
        assert contrast_ratio(theme.text, theme.window) >= 15


# -- models ---------------------------------------------------------------------------------


def test_models_pass_the_qt_model_tester(qtbot, qtmodeltester, sv: Services, table: Table) -> None:
    ids = table.ids
    model = BattleUnitModel()
    model.set_view(sv.tracker.view(table.battle_id))
    qtmodeltester.check(model)
    log = LogModel()
    state = sv.tracker.view(table.battle_id).state
    sv.tracker.record(table.battle_id, [spend_action(state, ids["Red Rifle"], ActionUse.ATTACK)])
    sv.tracker.end_turn(table.battle_id)
    view = sv.tracker.view(table.battle_id)
    model.set_view(view)
    log.set_events(view.id, view.events)
    qtmodeltester.check(model)
    qtmodeltester.check(log)
    model.set_filters(Filters(can_respond=True))
    qtmodeltester.check(model)


def test_end_turn_changes_the_model_in_place(qtbot, panel: BattlePanel, table: Table) -> None:
    resets, layouts, changes = [], [], []
    panel.model.modelReset.connect(lambda: resets.append(1))
    panel.model.layoutChanged.connect(lambda *a: layouts.append(1))
    panel.model.dataChanged.connect(lambda *a: changes.append(1))
    panel.select_unit(table.ids["Blue Pike"])
    panel.end_turn()
    assert resets == [] and layouts == [1] and changes
    assert panel.current_unit() == table.ids["Blue Pike"]  # the selection follows the unit
    changes.clear()
    panel.commands.spend(table.ids["Blue Pike"], ActionUse.ATTACK)
    assert resets == [] and len(changes) <= 2


def test_an_action_updates_only_the_rows_it_changed(
    qtbot, panel: BattlePanel, table: Table
) -> None:
    """Spending one unit's Action repaints that unit's row and its player's header row (the
    count of Actions ready), nothing else: no reset, no layout change, no other row."""
    m = panel.model
    resets, layouts, rows = [], [], []
    m.modelReset.connect(lambda: resets.append(1))
    m.layoutChanged.connect(lambda *a: layouts.append(1))
    m.dataChanged.connect(
        lambda first, last, *a: rows.append(
            (first.row(), last.row(), first.column(), last.column())
        )
    )
    rifle = table.ids["Red Rifle"]
    panel.commands.spend(rifle, ActionUse.ATTACK)
    r = m.row_of_unit(rifle)
    red_header = m.group_rows()[0]
    assert resets == [] and layouts == []
    assert sorted(rows) == sorted(
        [(r, r, 0, m.columnCount() - 1), (red_header, red_header, 0, m.columnCount() - 1)]
    )
    # Undo of it: the same two rows again, and the cell shows the unit ready.
    rows.clear()
    assert panel.undo()
    assert sorted(rows) == sorted(
        [(r, r, 0, m.columnCount() - 1), (red_header, red_header, 0, m.columnCount() - 1)]
    )
    assert cell(panel, "Red Rifle", ACTION) == "Ready" and resets == []


# -- starting -------------------------------------------------------------------------------


def test_start_dialog_musters_units_and_rolls_off(qtbot, sv: Services, table: Table) -> None:
    c = table.campaign_id
    dead = sv.roster.add_unit(sv.campaigns.list_armies(c)[0].id, "minifig", name="Red Ghost").value[
        0
    ]
    from brikdesk.services.roster import UnitPatch

    sv.roster.edit_unit(dead, UnitPatch(status="dead"))
    dialog = StartBattleDialog(None, sv, c)
    qtbot.addWidget(dialog)
    assert not dialog.start_button.isEnabled()
    dialog.check_player(table.red.id)
    qtbot.waitUntil(lambda: "Red: 3" in dialog.count_label.text())
    assert not dialog.start_button.isEnabled()  # one player cannot fight alone
    dialog.check_player(table.blue.id)
    blue_rifle = next(
        u.id
        for u in sv.roster.roster(sv.campaigns.list_armies(c)[1].id).units
        if u.name == "Blue Rifle"
    )
    dialog.set_unit_checked(blue_rifle, False)
    qtbot.waitUntil(lambda: dialog.start_button.isEnabled())
    chosen = dialog.musters()
    assert len(chosen[table.red.id]) == 3  # the dead unit cannot be mustered
    assert blue_rifle not in chosen[table.blue.id] and len(chosen[table.blue.id]) == 2
    costs = {
        u.id: u.cost for a in sv.campaigns.list_armies(c) for u in sv.roster.roster(a.id).units
    }
    red, blue = (sum(costs[i] for i in chosen[p.id]) for p in (table.red, table.blue))
    assert dialog.count_label.text() == (
        f"Mustered — Red: 3 units, {red} CP; Blue: 2 units, {blue} CP"
    )
    dialog.order.dice_source = TypedDice([2, 5])
    result = dialog.order.roll()
    assert result.order == (table.blue.id, table.red.id)
    assert dialog.order.dice_label.text() == "Roll: Red 2, Blue 5<br>Order: Blue, Red"
    assert dialog.order.list.item(0).text() == "Blue   rolled 5"
    request = dialog.request()
    assert [m.player_id for m in request.musters] == [table.blue.id, table.red.id]
    # Typed dice with a tie ask for more dice.
    dialog.order.typed.setText("4 4")
    assert dialog.order.roll() is None
    assert "A tie" in dialog.order.dice_label.text()
    dialog.order.typed.setText("4 4 1 6")
    assert dialog.order.roll().order == (table.red.id, table.blue.id)


def test_new_battle_is_started_through_the_undo_stack(
    qtbot, sv: Services, table: Table, monkeypatch
) -> None:
    reds = [u.id for u in sv.roster.roster(sv.campaigns.list_armies(table.campaign_id)[0].id).units]
    blues = [
        u.id for u in sv.roster.roster(sv.campaigns.list_armies(table.campaign_id)[1].id).units
    ]
    request = StartRequest(
        "Second Clash",
        (Muster(table.blue.id, tuple(blues[:2])), Muster(table.red.id, tuple(reds[:1]))),
    )
    monkeypatch.setattr(StartBattleDialog, "ask", classmethod(lambda cls, *a: request))
    from PySide6.QtWidgets import QWidget

    from ui.undo import UndoScopes

    parent = QWidget()
    qtbot.addWidget(parent)
    scopes, bus = UndoScopes(parent), Bus()
    battle_id = start_new_battle(parent, sv, bus, scopes, table.campaign_id)
    view = sv.tracker.view(battle_id)
    assert view.in_progress and view.active_player.name == "Blue" and len(view.units) == 3
    # The first step of the new battle's own history (not the main window's).
    stack = scopes.battle(battle_id)
    assert stack.count() == 1 and stack.undoText() == "Start battle Second Clash"
    assert scopes.main().count() == 0
    stack.undo()
    assert [b.name for b in sv.battles.list_battles(table.campaign_id)] == ["Panel Battle"]
    assert len(sv.roster.roster(sv.campaigns.list_armies(table.campaign_id)[0].id).units) == 3


def test_a_planned_battle_starts_from_the_panel(
    qtbot, sv: Services, table: Table, qsettings: QSettings, monkeypatch
) -> None:
    reds = [u.id for u in sv.roster.roster(sv.campaigns.list_armies(table.campaign_id)[0].id).units]
    blues = [
        u.id for u in sv.roster.roster(sv.campaigns.list_armies(table.campaign_id)[1].id).units
    ]
    b = sv.battles.create_battle(
        table.campaign_id, "Later", [Muster(table.red.id, reds), Muster(table.blue.id, blues)]
    )
    panel = make_panel(qtbot, sv, b.value.id, qsettings)
    assert panel.start_bar.isVisible() and not panel.end_turn_button.isEnabled()
    assert not panel.end_turn_button.isVisible()  # no turn to end before the start
    assert panel.turn_label.text() == "Red will start"
    assert not panel.commands.spend(next(u.id for u in panel.view.units), ActionUse.ATTACK)
    assert "has not started yet" in panel.message.text()
    monkeypatch.setattr(
        OrderDialog, "ask", classmethod(lambda cls, *a: [table.blue.id, table.red.id])
    )
    assert panel.start_battle()
    assert not panel.start_bar.isVisible() and panel.end_turn_button.isEnabled()
    assert panel.end_turn_button.isVisible()
    assert panel.focusWidget() is panel.table and panel.current_unit() in {
        u.id for u in panel.view.units if u.player_id == table.blue.id
    }  # started: the keys are ready on the first player's first unit
    assert panel.turn_label.text() == "Blue's turn"


def test_the_combat_wizard_opens_for_the_selected_unit(
    qtbot, panel: BattlePanel, table: Table
) -> None:
    calls = []
    panel.forms = replace(panel.forms, wizard=lambda *args: calls.append(args))
    panel.select_unit(table.ids["Red Pike"])
    panel._update_enabled()
    assert panel.wizard_button.isEnabled()
    act_key(qtbot, panel, "Red Pike", Qt.Key.Key_W)
    assert len(calls) == 1
    parent, services, bus, stack, battle_id, attacker, ctx = calls[0]
    assert (parent, battle_id, attacker) == (panel, table.battle_id, table.ids["Red Pike"])
    assert stack is panel.undo_stack and bus is panel.bus and services is panel.services
    assert ctx.state == panel.view.state  # the panel's battle, not read again


def test_state_shown_matches_the_rules_for_every_unit(
    qtbot, panel: BattlePanel, table: Table
) -> None:
    ids = table.ids
    panel.commands.spend(ids["Red Rifle"], ActionUse.ATTACK)
    panel.commands.spend(ids["Blue Rifle"], ActionUse.BAIL, over_the_top=True)
    state = panel.view.state
    labels = {
        ActionState.READY: "Ready",
        ActionState.SPENT_OWN_TURN: "Spent",
        ActionState.HELD: "Held",
        ActionState.SPENT_RESPONSE: "Responded",
    }
    for u in panel.view.units:
        assert cell(panel, u.name, ACTION) == labels[state.unit(u.id).action]
    assert "Disrupted" not in cell(panel, "Blue Rifle", STATUS)  # Over the Top


def test_the_log_undo_takes_back_an_action_recorded_elsewhere(
    qtbot, panel: BattlePanel, sv: Services, table: Table
) -> None:
    """The combat wizard records through the battle's undo history; the log's Undo undoes it."""
    from ui.undo import perform

    stack, bus = panel.undo_stack, panel.bus
    state = panel.view.state
    perform(
        stack,
        bus,
        lambda: sv.tracker.record(
            table.battle_id, [spend_action(state, table.ids["Red Rifle"], ActionUse.ATTACK)]
        ),
        text="Rifle shoots (wizard)",
    )
    assert cell(panel, "Red Rifle", ACTION) == "Spent"
    assert panel.undo()
    assert cell(panel, "Red Rifle", ACTION) == "Ready"
    assert stack.index() == 0 and stack.count() == 1  # the wizard's own command was undone


def test_at_1366x768_names_headers_and_marks_are_not_cut(
    qtbot, sv: Services, table: Table, qsettings: QSettings
) -> None:
    """In the main window at 1366x768 the panel is about 1050 pixels wide: every unit's name,
    the Counters header, "↺ can respond" and the log's title read in full."""
    from PySide6.QtGui import QFont, QFontMetrics

    from ui.panels.battle_model import COLUMNS, COUNTERS
    from ui.panels.unit_table import PAD

    army = sv.campaigns.list_armies(table.campaign_id)[0].id
    long_name = sv.roster.add_unit(army, "minifig", name="Captain Peg-Leg Pennywhistle").value
    reds = [u.id for u in sv.roster.roster(army).units]
    blues = [
        u.id for u in sv.roster.roster(sv.campaigns.list_armies(table.campaign_id)[1].id).units
    ]
    assert long_name[0] in reds
    view = sv.tracker.begin(
        table.campaign_id, "Cove", [Muster(table.red.id, reds), Muster(table.blue.id, blues)]
    ).value
    panel = make_panel(qtbot, sv, view.id, qsettings)
    panel.resize(1048, 643)
    qtbot.wait(10)
    t = panel.table
    bold = QFont(t.font())
    bold.setBold(True)
    names = QFontMetrics(bold)
    header = QFontMetrics(t.horizontalHeader().font())
    for u in panel.view.units:
        assert names.horizontalAdvance(u.name) + PAD // 2 <= t.columnWidth(UNIT), u.name
    assert header.horizontalAdvance(COLUMNS[COUNTERS]) + PAD // 2 <= t.columnWidth(COUNTERS)
    # An Action cell is in the table's font (only a name is bold).
    assert t.fontMetrics().horizontalAdvance("Responded") + PAD // 2 <= t.columnWidth(ACTION)
    assert t.fontMetrics().horizontalAdvance(RESPOND_MARK) + PAD // 2 <= t.columnWidth(RESPOND)
    title = panel.log_pane.title
    plain = title.text().replace("<b>", "").replace("</b>", "")
    assert QFontMetrics(bold).horizontalAdvance(plain) <= title.width()
    assert plain.startswith("Battle log")


def test_o_rolls_a_non_attack_action_and_enter_records_it(qtbot, panel: BattlePanel) -> None:
    """4.2 Use Ratings ("Most will have a default Use rating of 3"): O on Red Pike, its die
    typed, Enter; the log has the roll with the Action, in one undo step."""
    from ui.panels.action_roll import ActionRollDialog

    act_key(qtbot, panel, "Red Pike", Qt.Key.Key_O)
    dialog = next(d for d in panel.findChildren(ActionRollDialog) if d.isVisible())
    dialog.windowHandle().requestActivate()
    qtbot.waitUntil(dialog.isActiveWindow)
    keys(qtbot, "4\n")
    assert log_lines(panel)[0].endswith(
        "Red Pike (Red) spends its Action: an Action, Action Roll d6 4 vs Use 3: success"
    )
    assert cell(panel, "Red Pike", ACTION) == "Spent"
    assert panel.undo()
    assert cell(panel, "Red Pike", ACTION) != "Spent"
