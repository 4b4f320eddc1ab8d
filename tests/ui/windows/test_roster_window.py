"""The roster window: build an army from nothing, equip it, see its total and warnings, undo and
redo, and find it all again after reopening the database."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from brikdesk.domain.catalog import load_default_catalog
from ui.dialogs.campaign import (
    ArmyDialog,
    ArmyInput,
    NewCampaign,
    NewCampaignDialog,
    PlayerDialog,
    PlayerInput,
)
from ui.models import roster as cols
from ui.widgets.common import fit_columns
from ui.windows.roster import RosterWindow
from ui.windows.unit_dialogs import AddUnits, AddUnitsDialog, UnitEditor

CAT = load_default_catalog("2020")


def cell(
    window: RosterWindow,
    name: str,
    column: int,
    role: Qt.ItemDataRole = Qt.ItemDataRole.DisplayRole,
) -> str:
    row = next(
        r for r in range(window.model.rowCount()) if window.model.index(r, cols.NAME).data() == name
    )
    return window.model.index(row, column).data(role)


def names(window: RosterWindow) -> list[str]:
    return [window.model.index(r, cols.NAME).data() for r in range(window.model.rowCount())]


def answer(monkeypatch, dialog, value) -> list:
    """Make ``dialog.ask`` return ``value`` (recording its arguments)."""
    calls: list = []

    def ask(*args, **kwargs):
        calls.append((args, kwargs))
        return value

    monkeypatch.setattr(dialog, "ask", classmethod(lambda cls, *a, **k: ask(*a, **k)))
    return calls


def cost(*keys: str, unit: str = "minifig") -> int:
    return CAT.unit_type(unit).cost + sum(CAT.item(k).cost for k in keys)


def test_build_an_army_from_nothing_and_find_it_after_reopening(
    open_main, empty_db, monkeypatch, qtbot
):
    main = open_main(empty_db)
    assert "No campaign" in main.overview.toPlainText()

    answer(monkeypatch, NewCampaignDialog, NewCampaign("Siege of Brickton", "2020", "CP", 100))
    campaign_id = main.new_campaign()
    assert main.windowTitle() == "Siege of Brickton: BrikDesk"
    answer(monkeypatch, PlayerDialog, PlayerInput("Margo", "#c0392b", "Crimson Guard"))
    player_id = main.add_player()
    answer(monkeypatch, ArmyDialog, ArmyInput(player_id, "Red Vanguard", 20))
    army_id = main.add_army()
    assert main.navigator.entries("army") == [(army_id, "Red Vanguard  (0 units)")]

    roster = main.open_roster(army_id)
    qtbot.waitExposed(roster)
    assert roster.header.army.text() == "Red Vanguard"
    assert roster.header.total.text() == "Total 0 / 20 CP"
    assert not roster.header.warning.isVisible()

    # Three minifigs from the type, numbered.
    answer(monkeypatch, AddUnitsDialog, AddUnits("minifig", 3, "{type} {n}", None))
    ids = roster.edits.add_copies()
    assert names(roster) == ["Minifig 1", "Minifig 2", "Minifig 3"]
    assert roster.selected_ids() == list(ids)
    # Unarmed units warn that they only have Bare Hands.
    assert "no weapon" in cell(roster, "Minifig 1", cols.WARNINGS)

    # Equip all three at once from the loadout editor: one undo step.
    roster.table.selectAll()
    roster.loadout.combos["in hand"].setCurrentIndex(
        roster.loadout.combos["in hand"].findData("long-ranged-weapon")
    )
    qtbot.mouseClick(roster.loadout.add_buttons["in hand"], Qt.MouseButton.LeftButton)
    rifle = cost("long-ranged-weapon")
    assert [cell(roster, n, cols.HANDS) for n in names(roster)] == ["Long-Ranged Weapon"] * 3
    assert [cell(roster, n, cols.COST) for n in names(roster)] == [f"{rifle} CP"] * 3
    assert cell(roster, "Minifig 2", cols.WARNINGS) == ""
    assert roster.header.total.text() == f"Total {3 * rifle} / 20 CP"
    assert roster.header.warning.isVisible()
    assert roster.header.warning.text() == f"⚠ Over budget by {3 * rifle - 20} CP"

    # A shield beside a two-handed rifle: stored, and warned about beside the unit.
    roster.select_units([ids[0]])
    roster.loadout.add_item("in hand", "shield")
    # The cell says it in a few words; its tooltip and the unit card say it in full.
    assert cell(roster, "Minifig 1", cols.WARNINGS) == "two-handed + other item"
    assert cell(roster, "Minifig 1", cols.WARNINGS, Qt.ItemDataRole.ToolTipRole) == (
        "• Long-Ranged Weapon takes both hands, but Shield is also in hand "
        "(2.1 Minifigs: Two-handed items)"
    )
    assert "Long-Ranged Weapon takes both hands" in roster.card.toPlainText()
    assert roster.header.total.text() == f"Total {3 * rifle + 1} / 20 CP"

    # Undo and redo (Ctrl+Z / Ctrl+Shift+Z in the roster window).
    assert roster.commands.undo_action.shortcut().toString() == "Ctrl+Z"
    assert roster.commands.redo_action.shortcuts()[0].toString() == "Ctrl+Shift+Z"
    roster.commands.undo_action.trigger()
    assert cell(roster, "Minifig 1", cols.WARNINGS) == ""
    assert roster.header.total.text() == f"Total {3 * rifle} / 20 CP"
    roster.commands.undo_action.trigger()
    assert [cell(roster, n, cols.HANDS) for n in names(roster)] == ["-"] * 3
    roster.commands.redo_action.trigger()
    roster.commands.redo_action.trigger()
    assert cell(roster, "Minifig 1", cols.HANDS) == "Long-Ranged Weapon, Shield"
    assert cell(roster, "Minifig 3", cols.HANDS) == "Long-Ranged Weapon"

    # Rename in place.
    index = roster.model.index(roster.model.row_of_id(ids[2]), cols.NAME)
    assert roster.model.setData(index, "Sergeant Stud")
    assert "Sergeant Stud" in names(roster)

    # The army's budget from the header.
    roster.header.budget.setValue(40)
    roster.header.budget.editingFinished.emit()
    assert roster.header.total.text() == f"Total {3 * rifle + 1} / 40 CP"
    assert not roster.header.warning.isVisible()
    main.close()

    # Reopen the same database: the last campaign opens, the army is as we left it.
    again = open_main(empty_db)
    assert again.campaign_id == campaign_id
    assert again.navigator.entries("army") == [(army_id, "Red Vanguard  (3 units)")]
    roster = again.open_roster(army_id)
    assert names(roster) == ["Minifig 1", "Minifig 2", "Sergeant Stud"]
    assert cell(roster, "Minifig 1", cols.HANDS) == "Long-Ranged Weapon, Shield"
    assert cell(roster, "Minifig 1", cols.WARNINGS) == "two-handed + other item"
    assert roster.header.total.text() == f"Total {3 * rifle + 1} / 40 CP"


@pytest.fixture
def demo_roster(open_main, demo_db, qtbot) -> RosterWindow:
    main = open_main(demo_db)
    army_id = main.navigator.entries("army")[0][0]
    roster = main.open_roster(army_id)
    qtbot.waitExposed(roster)
    return roster


def test_delete_key_deletes_with_undo_and_no_confirmation(demo_roster, qtbot):
    roster = demo_roster
    before = names(roster)
    roster.select_units([roster.model.row_for(1).id, roster.model.row_for(2).id])
    roster.table.setFocus()
    qtbot.keyClick(roster.table, Qt.Key.Key_Delete)
    assert names(roster) == [before[0]] + before[3:]
    assert QApplication.activeModalWidget() is None
    # The unit after the deleted ones is now the current one.
    assert roster.current_row().name == before[3]
    roster.commands.undo_action.trigger()
    assert names(roster) == before
    roster.commands.redo_action.trigger()
    assert names(roster) == [before[0]] + before[3:]


def test_delete_in_the_filter_box_edits_the_text_not_the_roster(demo_roster, qtbot):
    roster = demo_roster
    n = roster.model.rowCount()
    roster.select_units([roster.model.row_for(0).id])
    roster.filter.setFocus()
    qtbot.keyClicks(roster.filter, "Pike")
    qtbot.keyClick(roster.filter, Qt.Key.Key_Home)
    qtbot.keyClick(roster.filter, Qt.Key.Key_Delete)
    assert roster.filter.text() == "ike"
    assert len(roster.model.all_rows()) == n


def test_filter_and_sort(demo_roster, qtbot):
    roster = demo_roster
    qtbot.keyClicks(roster.filter, "two-handed")
    shown = names(roster)
    assert shown and all("Two-Handed Weapon" in cell(roster, n, cols.HANDS) for n in shown)
    assert roster.count_label.text().endswith(f"{len(shown)} shown")
    roster.filter.clear()
    roster.table.sortByColumn(cols.COST, Qt.SortOrder.DescendingOrder)
    costs = [int(cell(roster, n, cols.COST).split()[0]) for n in names(roster)]
    assert costs == sorted(costs, reverse=True)
    roster.table.sortByColumn(cols.NAME, Qt.SortOrder.AscendingOrder)
    assert names(roster) == sorted(names(roster), key=str.casefold)


def test_duplicate_copies_equipment_and_selects_the_copy(demo_roster):
    roster = demo_roster
    first = roster.model.row_for(0)
    roster.select_units([first.id])
    (copy_id,) = roster.edits.duplicate()
    copy = next(r for r in roster.model.all_rows() if r.id == copy_id)
    assert copy.name == f"{first.name} (copy)"
    assert copy.loadout == first.loadout
    assert roster.selected_ids() == [copy_id]


def test_edit_unit_changes_type_and_stats(demo_roster, monkeypatch):
    from brikdesk.domain.roster import UnitOverrides
    from brikdesk.services.roster import UnitPatch

    roster = demo_roster
    row = next(r for r in roster.model.all_rows() if r.type_key == "minifig")
    roster.select_units([row.id])
    answer(
        monkeypatch,
        UnitEditor,
        UnitPatch(type_key="heavy", overrides=UnitOverrides(action_die=8, move=6)),
    )
    assert roster.edits.edit_unit()
    assert cell(roster, row.name, cols.TYPE) == "Heavy"
    assert cell(roster, row.name, cols.ACTION) == "d8"
    assert cell(roster, row.name, cols.MOVE) == '6"'
    assert "Action die d8: set for this unit" in roster.card.toPlainText()
    roster.commands.undo_action.trigger()
    assert cell(roster, row.name, cols.TYPE) == "Minifig"
    assert cell(roster, row.name, cols.ACTION) == "d6"


def test_unit_card_shows_stats_items_and_cost_breakdown(demo_roster):
    roster = demo_roster
    row = next(r for r in roster.model.all_rows() if r.type_key == "hero")
    roster.select_units([row.id])
    text = roster.card.toPlainText()
    assert row.name in text
    assert "d10" in text and "Counters" in text
    # Each weapon with Use, Range and Damage (dA worked out for the Hero's d10).
    hand = CAT.item(row.loadout.held[0])
    assert hand.name in text
    expr = hand.damage_expr.resolve(10) if hand.damage_expr else None
    if expr is not None and hand.damage_expr.uses_action_die:
        assert f"{hand.damage} ({expr})" in text
    for line in roster.card.card.cost.lines:  # the cost breakdown, line by line
        assert f"{line.label}\n{line.rule}\n{line.cost} CP" in text
    assert f"Total\n{row.cost} CP" in text


def test_roster_follows_catalog_edits(open_main, demo_db):
    main = open_main(demo_db)
    army_id = main.navigator.entries("army")[0][0]
    roster = main.open_roster(army_id)
    minifigs = [r for r in roster.model.all_rows() if r.type_key == "minifig"]
    total = roster.roster.total
    catalog = main.open_catalog()
    assert catalog.set_field("unit_type", "minifig", "cost", "7")
    assert roster.roster.total == total + 3 * len(minifigs)
    catalog.undo_action.trigger()
    assert roster.roster.total == total


def test_roster_window_of_a_deleted_army_closes(open_main, demo_db, qtbot, monkeypatch):
    from ui.dialogs.confirm_delete import ConfirmDelete

    monkeypatch.setattr(ConfirmDelete, "ask", classmethod(lambda c, *a: True))
    main = open_main(demo_db)
    army_id = main.navigator.entries("army")[0][0]
    roster = main.open_roster(army_id)
    main.navigator.select("army", army_id)
    assert main.delete_selected()
    qtbot.waitUntil(lambda: army_id not in main.rosters)
    main.main_actions.undo_action.trigger()
    assert main.navigator.find_entry("army", army_id) is not None
    assert roster is not main.open_roster(army_id)


def test_tab_order_and_shortcuts(demo_roster, qtbot):
    roster = demo_roster
    roster.activateWindow()
    roster.header.budget.setFocus()
    order = []
    for _ in range(3):
        order.append(QApplication.focusWidget())
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert order[1:] == [roster.filter, roster.table]
    assert order[0] in (roster.header.budget, roster.header.budget.lineEdit())
    shortcuts = {
        a.objectName(): a.shortcut().toString()
        for a in roster.findChildren(type(roster.commands.add_action))
        if a.objectName()
    }
    assert shortcuts["addUnitAction"] == "Ctrl+N"
    assert shortcuts["duplicateAction"] == "Ctrl+D"
    assert shortcuts["renameAction"] == "F2"
    assert shortcuts["deleteAction"] == "Del"
    assert shortcuts["filterAction"] == "Ctrl+F"
    menus = {
        a.text(): [x.text() for x in a.menu().actions() if not x.isSeparator()]
        for a in roster.menuBar().actions()
    }
    assert "&Add unit…" in menus["&Units"] and "&Delete" in menus["&Units"]
    assert any(t.startswith("&Undo") for t in menus["&Edit"])


def test_renaming_to_nothing_is_refused_in_the_banner(demo_roster):
    roster = demo_roster
    row = roster.model.row_for(0)
    index = roster.model.index(0, cols.NAME)
    assert not roster.model.setData(index, "   ")
    assert roster.banner.isVisible() and "empty" in roster.banner.text()
    assert names(roster)[0] == row.name


def test_delete_in_a_loadout_list_takes_the_item_away_not_the_unit(demo_roster, qtbot):
    roster = demo_roster
    row = next(r for r in roster.model.all_rows() if len(r.loadout.held) == 2)
    roster.select_units([row.id])
    hand = roster.loadout.lists["in hand"]
    hand.setFocus()
    hand.setCurrentRow(0)
    n = len(roster.model.all_rows())
    qtbot.keyClick(hand, Qt.Key.Key_Delete)
    after = next(r for r in roster.model.all_rows() if r.id == row.id)
    assert after.loadout.held == row.loadout.held[1:]
    assert len(roster.model.all_rows()) == n


def _visible(roster: RosterWindow) -> list[int]:
    hh = roster.table.horizontalHeader()
    return [i for i in range(roster.model.columnCount()) if not hh.isSectionHidden(i)]


def test_columns_fit_their_texts_and_all_stay_in_sight(demo_roster):
    roster = demo_roster
    table = roster.table
    fm = table.fontMetrics()
    longest = {
        i: max(
            (roster.model.index(r, i).data() for r in range(roster.model.rowCount())),
            key=fm.horizontalAdvance,
        )
        for i in (cols.NAME, cols.HANDS, cols.WORN)
    }
    # With room enough, each name and loadout reads whole: nothing is cut short.
    fit_columns(table, available=3000)
    for i, text in longest.items():
        assert table.columnWidth(i) > fm.horizontalAdvance(text), roster.model.columns[i].title
    # In a narrow window every column still shows, each wide enough for its heading; a text
    # cut short keeps all of it in its tooltip.
    fit_columns(table, available=640)
    header_fm = table.horizontalHeader().fontMetrics()
    *left, last = _visible(roster)  # the last column stretches to the table's edge
    last_title = header_fm.horizontalAdvance(roster.model.columns[last].title)
    assert sum(table.columnWidth(i) for i in left) + last_title <= 640
    for i in _visible(roster):
        title = roster.model.columns[i].title
        assert table.columnWidth(i) >= header_fm.horizontalAdvance(title), title
    hero = next(r for r in roster.model.all_rows() if r.type_key == "hero")
    assert cell(roster, hero.name, cols.HANDS, Qt.ItemDataRole.ToolTipRole) == hero.hands_text


def test_the_organizers_column_widths_are_kept(open_main, demo_db, qtbot):
    main = open_main(demo_db)
    army_id = main.navigator.entries("army")[0][0]
    roster = main.open_roster(army_id)
    qtbot.waitExposed(roster)
    roster.table.setColumnWidth(cols.HANDS, 333)
    roster.close()
    again = main.open_roster(army_id)
    qtbot.waitExposed(again)
    assert again.table.columnWidth(cols.HANDS) == 333


def test_reorder_units_with_undo_and_after_reopening(open_main, demo_db, qtbot):
    main = open_main(demo_db)
    army_id = main.navigator.entries("army")[0][0]
    roster = main.open_roster(army_id)
    qtbot.waitExposed(roster)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is roster)
    start = names(roster)
    roster.table.sortByColumn(cols.COST, Qt.SortOrder.DescendingOrder)  # sorted for a look
    roster.select_units([roster.model.all_rows()[2].id, roster.model.all_rows()[3].id])
    roster.table.setFocus()
    qtbot.keyClick(roster.table, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    # Back in roster order, the two units one place up, still selected.
    moved = [start[0], start[2], start[3], start[1], *start[4:]]
    assert names(roster) == moved
    assert roster.table.horizontalHeader().sortIndicatorSection() == -1
    assert [r.name for r in roster.selected_rows()] == [start[2], start[3]]
    assert roster.edits.move_up()
    assert names(roster)[:4] == [start[2], start[3], start[0], start[1]]
    assert not roster.edits.move_up()  # already first: nothing to do, no undo step
    roster.commands.undo_action.trigger()
    assert names(roster) == moved
    roster.edits.move_to_bottom()
    assert names(roster)[-2:] == [start[2], start[3]]
    # The roster window's own history; the main window's Edit menu offers none of it.
    assert roster.commands.undo_action.text() == "&Undo Move units to the bottom"
    assert main.main_actions.undo_action.text() == "&Undo"
    roster.close()
    main.close()
    again = open_main(demo_db)
    reopened = again.open_roster(army_id)
    assert names(reopened) == [n for n in moved if n not in start[2:4]] + [start[2], start[3]]


def test_several_rosters_open_at_once_one_per_army(open_main, demo_db, qtbot):
    main = open_main(demo_db)
    (first, _), (second, _) = main.navigator.entries("army")[:2]
    a = main.open_roster(first)
    b = main.open_roster(second)
    qtbot.waitExposed(b)
    assert a.isVisible() and b.isVisible() and a is not b
    assert a.windowTitle() != b.windowTitle()
    assert main.open_roster(first) is a  # the army's own window comes to the front
    before_a, before_b = names(a), names(b)
    a.select_units([a.model.row_for(0).id])
    assert a.edits.duplicate()
    assert len(names(a)) == len(before_a) + 1
    assert names(b) == before_b  # the other army is untouched
    # Each roster keeps the history of its own army: b offers nothing of a's.
    assert not b.commands.undo_action.isEnabled()
    b.commands.undo_action.trigger()
    assert len(names(a)) == len(before_a) + 1
    assert a.commands.undo_action.text().startswith("&Undo ")
    a.commands.undo_action.trigger()
    assert names(a) == before_a and names(b) == before_b


def test_a_rename_over_someone_elses_is_refused_in_the_banner(demo_roster, demo_db):
    """Another BrikDesk renamed the unit after this window read it: the window's rename is
    refused with what changed, and the other organizer's name stays."""
    from brikdesk.persistence.db import open_database
    from brikdesk.services import Services
    from brikdesk.services.roster import UnitPatch

    roster = demo_roster
    row = roster.model.row_for(0)
    other_db = open_database(demo_db)
    try:
        Services.open(other_db).roster.edit_unit(row.id, UnitPatch(name="Sir Brick"))
    finally:
        other_db.close()
    assert not roster.model.setData(roster.model.index(0, cols.NAME), "Sir Brickley")
    assert roster.banner.isVisible()
    assert "changed by someone else since you opened it" in roster.banner.text()
    roster.reload()
    assert "Sir Brick" in names(roster) and "Sir Brickley" not in names(roster)


def test_edits_after_an_undo_go_through_with_the_fresh_versions(demo_roster):
    """The window's rows carry the versions after its own edits, undos and redos: the next
    edit from the window is never refused as a conflict with itself."""
    roster = demo_roster
    index = roster.model.index(0, cols.NAME)
    assert roster.model.setData(index, "First")
    roster.commands.undo_action.trigger()
    assert roster.model.setData(roster.model.index(0, cols.NAME), "Second")
    roster.commands.undo_action.trigger()
    roster.commands.redo_action.trigger()
    assert roster.model.setData(roster.model.index(0, cols.NAME), "Third")
    assert names(roster)[0] == "Third" and not roster.banner.isVisible()
    row = roster.model.row_for(0)
    assert roster.edits.set_budget(77)
    assert roster.edits.set_budget(None)
    roster.commands.undo_action.trigger()
    assert roster.edits.set_budget(12)
    assert roster.services.roster.unit_rows([row.id])[0].version == row.version


def test_columns_fit_again_when_units_are_added(demo_roster, qtbot):
    """A unit of a longer type added to an open roster reads whole: the columns are fitted to
    the rows shown now, not left at the widths of the rows it opened with."""
    roster = demo_roster
    roster.resize(1900, 900)  # a desktop monitor: room for every column
    table = roster.table
    qtbot.waitUntil(lambda: table.viewport().width() > 1000)
    fm = table.fontMetrics()
    army = roster.roster.army.id
    assert "Cannon Fodder" not in {r.type_name for r in roster.model.all_rows()}
    roster.services.roster.add_unit(army, "cannon-fodder")
    roster.reload()
    assert "Cannon Fodder" in {r.type_name for r in roster.model.all_rows()}
    used = sum(table.columnWidth(i) for i in _visible(roster))
    assert used < table.viewport().width()  # the table has room to spare...
    # ... so the new type reads whole, not "Cannon F…" beside an empty part of the table.
    assert table.columnWidth(cols.TYPE) > fm.horizontalAdvance("Cannon Fodder")
