"""The catalog window: fields checked as typed, edits stored and undoable, house-rule marks,
reset to the rules' value, custom entries, and the Damage chart of the selected weapon."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont

from brikdesk.domain.catalog import CatalogError, load_default_catalog, validate_item_field
from brikdesk.domain.odds import attack_odds
from ui.models import catalog as cm
from ui.widgets.fields import ValidatingLineEdit
from ui.windows.catalog import CatalogWindow
from ui.windows.catalog_dialogs import NewEntry, NewEntryDialog

CAT = load_default_catalog("2020")
NAME, CATEGORY, COST, USE, RANGE, DAMAGE, HANDS, RULES = range(8)


@pytest.fixture
def catalog(open_main, demo_db, qtbot) -> CatalogWindow:
    main = open_main(demo_db)
    window = main.open_catalog()
    qtbot.waitExposed(window)
    yield window


def row_text(window: CatalogWindow, key: str, column: int, kind: str = "item") -> str:
    model = window.item_model if kind == "item" else window.type_model
    return model.index(model.row_of_id(key), column).data()


def reason(field: str, text: str) -> str:
    try:
        validate_item_field(field, text)
    except CatalogError as exc:
        return exc.reason
    raise AssertionError(f"{text!r} is valid for {field}")


def test_damage_is_parsed_live_and_the_error_shows_under_the_field(catalog, qtbot):
    catalog.select("item", "heavy-weapon")
    damage = catalog.item_form.editors["damage"]
    assert isinstance(damage, ValidatingLineEdit)
    damage.setFocus()
    damage.selectAll()
    qtbot.keyClicks(damage, "2dA+")
    assert damage.error.isVisible()
    assert damage.error.text() == reason("damage", "2dA+")
    assert damage.error.geometry().top() >= damage.geometry().bottom()  # under the field
    qtbot.keyClick(damage, Qt.Key.Key_Return)
    assert row_text(catalog, "heavy-weapon", DAMAGE) == "1dA+2"  # nothing stored
    qtbot.keyClicks(damage, "3")
    assert not damage.error.isVisible()
    qtbot.keyClick(damage, Qt.Key.Key_Return)
    assert row_text(catalog, "heavy-weapon", DAMAGE) == "2dA+3"


def test_use_and_range_take_only_what_the_rules_allow(catalog):
    catalog.select("item", "short-ranged-weapon")
    form = catalog.item_form
    use, rng = form.editors["use"], form.editors["range"]
    for text in ("21", "two", "-3"):
        assert use.check(text) == reason("use", text)
    for text in ("-", "0", "20"):
        assert use.check(text) is None
    for text in ("CC", "cc", "-", "12", '12"'):
        assert rng.check(text) is None
    for text in ("0", "201", "far"):
        assert rng.check(text) == reason("range", text)


def test_edit_in_the_table_is_checked_as_typed_and_stored(catalog, qtbot):
    tab = catalog.items_tab
    index = catalog.table_index("item", "hand-weapon", "use")
    tab.table.setCurrentIndex(index)
    tab.table.edit(index)
    editor = tab.table.findChild(ValidatingLineEdit, "cellEditor_use")
    assert editor is not None and editor.text() == "2"
    editor.selectAll()
    qtbot.keyClicks(editor, "25")
    assert editor.error.isVisible() and editor.error.text() == reason("use", "25")
    assert editor.error.geometry().top() >= editor.geometry().bottom()
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # refused: the editor stays open
    qtbot.wait(20)
    assert editor.isVisible() and row_text(catalog, "hand-weapon", USE) == "2"
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    qtbot.keyClicks(editor, "3")
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # the view commits on its next event loop turn
    qtbot.waitUntil(lambda: row_text(catalog, "hand-weapon", USE) == "3")


def test_edits_are_marked_undoable_and_reset_to_the_rules(catalog):
    model = catalog.item_model
    assert catalog.set_field("item", "long-ranged-weapon", "range", "14")
    row = model.row_of_id("long-ranged-weapon")
    range_cell = model.index(row, RANGE)
    assert range_cell.data() == '14"'
    assert model.index(row, RULES).data() == "house rule"
    assert range_cell.data(Qt.ItemDataRole.FontRole).bold()
    assert range_cell.data(Qt.ItemDataRole.BackgroundRole) is not None
    assert range_cell.data(Qt.ItemDataRole.ToolTipRole) == (
        f"House rule. The rules say: {CAT.item('long-ranged-weapon').range_text()}"
    )
    assert model.index(row, DAMAGE).data(Qt.ItemDataRole.BackgroundRole) is None
    assert "1 house rule" in catalog.heading.text()

    catalog.undo_action.trigger()
    assert (
        row_text(catalog, "long-ranged-weapon", RANGE)
        == CAT.item("long-ranged-weapon").range_text()
    )
    assert row_text(catalog, "long-ranged-weapon", RULES) == "rules"
    catalog.redo_action.trigger()
    assert row_text(catalog, "long-ranged-weapon", RANGE) == '14"'

    # Reset one value from the form, then the whole entry.
    catalog.select("item", "long-ranged-weapon")
    assert catalog.set_field("item", "long-ranged-weapon", "cost", "9")
    assert catalog.item_form.reset_buttons["range"].isEnabled()
    catalog.item_form.reset_buttons["range"].click()
    assert (
        row_text(catalog, "long-ranged-weapon", RANGE)
        == CAT.item("long-ranged-weapon").range_text()
    )
    assert row_text(catalog, "long-ranged-weapon", COST) == "9"
    assert catalog.reset_current()
    assert (
        row_text(catalog, "long-ranged-weapon", COST) == CAT.item("long-ranged-weapon").cost_text()
    )
    assert row_text(catalog, "long-ranged-weapon", RULES) == "rules"
    catalog.undo_action.trigger()
    assert row_text(catalog, "long-ranged-weapon", COST) == "9"


def test_flags_and_unit_types(catalog):
    catalog.select("item", "hand-weapon")
    box = catalog.item_form.editors["charging"]
    box.click()
    assert catalog.view.catalog.item("hand-weapon").charging
    catalog.select("unit_type", "hero")
    assert catalog.set_field("unit_type", "hero", "action_die", "d12")
    assert row_text(catalog, "hero", 1, "unit_type") == "d12"
    assert (
        catalog.type_form.editors["action_die"].check("d7")
        == "Action die is one of d4, d6, d8, d10, d12"
    )
    catalog.undo_action.trigger()
    assert row_text(catalog, "hero", 1, "unit_type") == "d10"


def test_add_and_delete_custom_items_with_undo(catalog, monkeypatch, qtbot):
    monkeypatch.setattr(
        NewEntryDialog,
        "ask",
        classmethod(lambda cls, *a, **k: NewEntry("Laser Pike", "two-handed-weapon", "weapon")),
    )
    key = catalog.add_custom()
    assert key == "laser-pike"
    assert row_text(catalog, key, RULES) == "custom"
    assert row_text(catalog, key, DAMAGE) == CAT.item("two-handed-weapon").damage
    assert catalog.items_tab.current_key() == key
    assert not catalog.item_form.reset_buttons["damage"].isVisible()
    catalog.items_tab.table.setFocus()
    qtbot.keyClick(catalog.items_tab.table, Qt.Key.Key_Delete)
    assert catalog.item_model.row_of_id(key) == -1
    catalog.undo_action.trigger()
    assert catalog.item_model.row_of_id(key) >= 0
    # A rules entry can't be deleted: the banner says to reset it instead.
    catalog.select("item", "shield")
    assert not catalog.delete_current()
    assert "can't be deleted" in catalog.banner.text()


def test_the_chart_shows_damage_and_kill_chances(catalog, qtbot):
    catalog.select("item", "hand-weapon")
    chart_panel = catalog.items_tab.chart
    qtbot.waitUntil(lambda: not chart_panel.pending, timeout=5000)
    chart = chart_panel.chart
    odds = chart.odds
    assert odds.name == "Hand Weapon" and odds.armor == 4 and odds.chart_die == 6
    for die, hit, kill in odds.kills:
        exact = attack_odds(die, 2, "1dA", 4)
        assert (hit, kill) == (float(exact.hit), float(exact.kill))
        assert f"{kill:.0%}" in chart.kills.text()
    # 1dA with a d6: 1 to 5 are 1/6 each, 6 explodes into 7 to 12...
    assert dict(odds.totals)[3] == pytest.approx(1 / 6)
    assert 6 not in dict(odds.totals)
    catalog.select("item", "shield")
    qtbot.waitUntil(lambda: not chart_panel.pending, timeout=5000)
    assert not chart.isVisible()
    assert "no Damage roll" in chart_panel.note.text()


def test_catalog_models_pass_the_model_tester(catalog, qtmodeltester):
    qtmodeltester.check(catalog.item_model)
    qtmodeltester.check(catalog.type_model)
    catalog.item_model.set_filter("weapon")
    catalog.item_model.sort(COST, Qt.SortOrder.DescendingOrder)
    qtmodeltester.check(catalog.item_model)


def test_house_rule_font_is_bold_only_on_changed_cells(catalog):
    assert catalog.set_field("item", "shield", "cost", "2")
    model = catalog.item_model
    row = model.row_of_id("shield")
    assert isinstance(model.index(row, COST).data(Qt.ItemDataRole.FontRole), QFont)
    assert model.index(row, USE).data(Qt.ItemDataRole.FontRole) is None
    assert cm.rules_text(model.row_for(row)) == "house rule"


def test_catalog_edits_are_there_after_reopening(open_main, demo_db):
    main = open_main(demo_db)
    catalog = main.open_catalog()
    assert catalog.set_field("item", "explosive", "damage", "2d10 Exp")
    main.close()
    again = open_main(demo_db).open_catalog()
    assert row_text(again, "explosive", DAMAGE) == "2d10 Exp"
    assert row_text(again, "explosive", RULES) == "house rule"


def test_the_filter_box_narrows_the_table_of_the_tab_shown(catalog, qtbot):
    qtbot.keyClicks(catalog.filter, "armor")
    model = catalog.item_model
    shown = {model.index(r, NAME).data() for r in range(model.rowCount())}
    assert shown == {"Body Armor", "Heavy Armor"}
    catalog.tabs.setCurrentWidget(catalog.types_tab)  # the same words filter the unit types
    types = catalog.type_model
    assert 0 < types.rowCount() < len(CAT.unit_types)
    catalog.filter.clear()
    assert types.rowCount() == len(CAT.unit_types)
    catalog.tabs.setCurrentWidget(catalog.items_tab)
    assert model.rowCount() == len(CAT.items)


def test_column_widths_are_kept_between_sessions(open_main, demo_db, qtbot):
    main = open_main(demo_db)
    window = main.open_catalog()
    window.items_tab.table.setColumnWidth(NAME, 211)
    window.close()
    qtbot.waitUntil(lambda: not main.catalogs)
    again = main.open_catalog()
    assert again is not window
    assert again.items_tab.table.columnWidth(NAME) == 211


def test_edits_after_an_undo_are_not_refused_and_a_stale_one_is(catalog, demo_db):
    """The window passes the version it shows: its own edits, undos and redos keep it fresh;
    an edit over another BrikDesk's change of the same entry is refused in the banner."""
    from brikdesk.persistence.db import open_database
    from brikdesk.services import Services

    assert catalog.set_field("item", "shield", "cost", "2")
    assert catalog.set_field("item", "shield", "cost", "3")
    catalog.undo_action.trigger()
    assert catalog.set_field("item", "shield", "cost", "4")
    other_db = open_database(demo_db)
    try:
        other = Services.open(other_db)
        other.catalog.set_item_field(catalog.campaign_id, "shield", "cost", "7")
    finally:
        other_db.close()
    assert not catalog.set_field("item", "shield", "cost", "5")
    assert "Shield was changed by someone else" in catalog.banner.text()
    assert catalog.services.catalog.catalog(catalog.campaign_id).get_item("shield").cost == 7
