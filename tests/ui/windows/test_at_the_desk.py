"""The army builder's conveniences: duplicate an army, the roster as text, one Add
several dialog, from the catalog to the roster, the user guide, the file dialogs' folders and
the windows' sizes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QSize, Qt, QUrl
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QMenu

from ui.dialogs.campaign import ArmyDialog, ArmyInput
from ui.windows.roster import RosterWindow


def answer(monkeypatch, dialog, value, name: str = "ask") -> list:
    """Make ``dialog.<name>`` return ``value`` (recording its arguments)."""
    calls: list = []

    def ask(*args, **kwargs):
        calls.append((args, kwargs))
        return value

    monkeypatch.setattr(dialog, name, classmethod(lambda cls, *a, **k: ask(*a, **k)))
    return calls


@pytest.fixture
def main(open_main, demo_db):
    return open_main(demo_db)


@pytest.fixture
def roster(main, qtbot) -> RosterWindow:
    army_id = main.navigator.entries("army")[0][0]
    window = main.open_roster(army_id)
    qtbot.waitExposed(window)
    return window


def test_duplicate_army_opens_the_copy_with_every_unit_and_undoes_in_one_step(
    main, roster, monkeypatch, qtbot
):
    army = roster.roster.army
    units = [(u.name, u.type_key, u.loadout, u.notes) for u in roster.roster.units]
    calls = answer(monkeypatch, ArmyDialog, ArmyInput(army.player_id, "Second List", 150))
    roster.commands.duplicate_army_action.trigger()
    # The dialog offers a name, the same player and the same budget.
    kwargs = calls[0][1]
    assert (kwargs["title"], kwargs["name"], kwargs["player_id"], kwargs["budget"]) == (
        f"Duplicate {army.name}",
        f"{army.name} (copy)",
        army.player_id,
        army.budget,
    )
    [new_id] = [i for i in main.rosters if i != army.id]
    copy = main.rosters[new_id]
    qtbot.waitExposed(copy)
    assert copy.header.army.text() == "Second List"
    assert [(u.name, u.type_key, u.loadout, u.notes) for u in copy.roster.units] == units
    assert {(u.kills, u.battles_fought) for u in copy.roster.units} == {(0, 0)}
    assert "/ 150 CP" in copy.header.total.text()
    assert any(i == new_id and "Second List" in n for i, n in main.navigator.entries("army"))
    # One undo step in the roster's history takes the whole army away.
    roster.commands.undo_action.trigger()
    assert new_id not in [i for i, _name in main.navigator.entries("army")]


def test_copy_as_text_puts_every_unit_and_the_total_on_the_clipboard(roster):
    from PySide6.QtGui import QGuiApplication

    units = roster.roster.units
    for fmt, first in (
        ("text", f"{roster.roster.army.name} ({len(units)} units)"),
        ("markdown", f"## {roster.roster.army.name}"),
        ("bbcode", f"[size=150][b]{roster.roster.army.name}[/b][/size]"),
    ):
        roster.commands.copy_text_actions[fmt].trigger()
        text = QGuiApplication.clipboard().text()
        assert text.splitlines()[0] == first
        for u in units:
            assert f"{u.cost} CP" in next(li for li in text.splitlines() if u.name in li)
        assert f"Total {roster.roster.total} / {roster.roster.budget} CP" in text
        assert "Copied the roster" in roster.statusBar().currentMessage()
    assert roster.commands.copy_text_actions["text"].shortcut().toString() == "Ctrl+Shift+C"
    menu = roster.findChild(QMenu, "copyTextMenu")
    assert [a.text() for a in menu.actions()] == ["&Plain text", "&Markdown", "&BBCode (forum)"]


def test_export_as_text_chooses_the_format_by_the_ending_and_remembers_the_folder(
    roster, monkeypatch, tmp_path
):
    folder = tmp_path / "posts"
    folder.mkdir()
    started: list[str] = []

    def dialog(parent, title, start, filters):
        started.append(start)
        return str(folder / "vanguard.bbcode"), filters

    monkeypatch.setattr("ui.widgets.dialogs.QFileDialog.getSaveFileName", dialog)
    written = roster.text.export()
    assert written == folder / "vanguard.bbcode"
    text = written.read_text(encoding="utf-8")
    assert text.count("[*]") == len(roster.roster.units)
    assert started[0].startswith(str(Path.home()))
    # The next roster text (or sheet) starts where this one went; reports keep their own.
    roster.text.export()
    assert started[1] == str(folder / f"{roster.roster.army.name}.txt")
    assert roster.settings.last_folder("rosters") == folder
    assert roster.settings.last_folder("reports") == Path.home()


def test_each_kind_of_file_dialog_starts_in_its_own_last_folder(main, monkeypatch, tmp_path):
    from ui.widgets.dialogs import FileChooser

    exports, imports = tmp_path / "exports", tmp_path / "imports"
    exports.mkdir()
    imports.mkdir()
    seen: list[str] = []

    def save(parent, title, start, filters):
        seen.append(start)
        return str(exports / "club.json"), filters

    def open_(parent, title, start, filters):
        seen.append(start)
        return str(imports / "other.json"), filters

    monkeypatch.setattr("ui.widgets.dialogs.QFileDialog.getSaveFileName", save)
    monkeypatch.setattr("ui.widgets.dialogs.QFileDialog.getOpenFileName", open_)
    s = main.settings
    assert FileChooser.save_path(main, "t", "*", "a.json", ".json", settings=s, kind="exports")
    assert FileChooser.open_path(main, "t", "*", settings=s, kind="imports")
    assert FileChooser.save_path(main, "t", "*", "b.json", ".json", settings=s, kind="exports")
    assert FileChooser.open_path(main, "t", "*", settings=s, kind="imports")
    assert seen == [
        str(Path.home() / "a.json"),
        str(Path.home()),
        str(exports / "b.json"),
        str(imports),
    ]
    # Kept in the settings file: a new start finds them again.
    again = type(s)(type(s.qsettings)(s.qsettings.fileName(), s.qsettings.format()))
    assert (again.last_folder("exports"), again.last_folder("imports")) == (exports, imports)


def _open_dialogs(monkeypatch, answer_count: int | None = None) -> list:
    """Replace ``AddUnitsDialog.ask``: build the real dialog, note what it offers, answer."""
    from ui.windows.unit_dialogs import AddUnitsDialog

    seen: list = []

    def ask(cls, parent, catalog, *, type_key=None, count=1, template=None):
        d = AddUnitsDialog(parent, catalog, type_key, count, template)
        seen.append(
            {
                "title": d.windowTitle(),
                "type": d.type.currentData(),
                "count": d.count.value(),
                "equipment": d.equipment.currentText(),
                "offered": d.equipment_texts(),
                "dialog": d,
            }
        )
        if answer_count is not None:
            d.count.setValue(answer_count)
        value = d.value()
        d.deleteLater()
        return value

    monkeypatch.setattr(AddUnitsDialog, "ask", classmethod(ask))
    return seen


def test_add_several_is_one_dialog_from_the_menu_the_toolbar_and_the_shortcut(
    main, roster, monkeypatch, qtbot
):
    from PySide6.QtWidgets import QToolBar

    from ui.windows.roster_edits import typical_unit

    seen = _open_dialogs(monkeypatch, answer_count=2)
    typical = typical_unit(roster.model.all_rows())
    roster.commands.add_many_action.trigger()  # the Units menu's entry
    toolbar = roster.findChild(QToolBar, "rosterToolbar")
    qtbot.mouseClick(
        toolbar.widgetForAction(roster.commands.add_many_action), Qt.MouseButton.LeftButton
    )
    roster.table.setFocus()
    qtbot.keyClick(
        roster.table,
        Qt.Key.Key_N,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert len(seen) == 3
    first = {k: v for k, v in seen[0].items() if k != "dialog"}
    assert first["title"] == "Add units"
    assert (first["type"], first["count"]) == (typical.type_key, 3)
    assert first["equipment"].startswith(f"Same as {typical.name}")
    # The second and third: the same dialog, with the count given last time.
    for s in seen[1:]:
        assert (s["title"], s["type"], s["count"], s["equipment"]) == (
            "Add units",
            typical.type_key,
            2,
            first["equipment"],
        )
    # And in another army (a new, empty one), the same dialog with the last count.
    other = main.open_roster(main.navigator.entries("army")[1][0])
    qtbot.waitExposed(other)
    other.commands.add_many_action.trigger()
    assert (seen[-1]["title"], seen[-1]["count"]) == ("Add units", 2)


def test_add_units_equipment_offers_what_the_type_can_carry_in_a_new_army(main, monkeypatch, qtbot):
    from brikdesk.domain.catalog import load_default_catalog

    cat = load_default_catalog("2020")
    answer(monkeypatch, ArmyDialog, ArmyInput(main.nav.players[0].id, "Fresh", 100))
    army_id = main.add_army()
    fresh = main.open_roster(army_id)
    qtbot.waitExposed(fresh)
    seen = _open_dialogs(monkeypatch)
    fresh.commands.add_many_action.trigger()
    offered = seen[0]["offered"]
    assert offered[0].startswith("None")
    rifle = cat.item("long-ranged-weapon")
    armour = cat.item("body-armor")
    assert f"{rifle.name} (in hand, +{rifle.cost} CP)" in offered
    assert f"{armour.name} (worn, +{armour.cost} CP)" in offered
    # Armour is offered only to be worn, never in hand.
    assert f"{armour.name} (in hand, +{armour.cost} CP)" not in offered
    # A type with no hands (a horse) is offered only what it can wear, if anything.
    d = seen[0]["dialog"]
    horse = next(ut for ut in cat.unit_types if ut.hands == 0)
    d.type.setCurrentIndex(d.type.findData(horse.key))
    assert not any("(in hand," in t for t in d.equipment_texts())
    # Choosing an item adds the units with it.
    d.type.setCurrentIndex(d.type.findData("minifig"))
    d.equipment.setCurrentIndex(
        d.equipment_texts().index(f"{rifle.name} (in hand, +{rifle.cost} CP)")
    )
    assert d.value().loadout is not None and d.value().loadout.hands == ("long-ranged-weapon",)


def test_catalog_add_to_army_adds_the_type_with_the_count_in_one_undo_step(
    main, monkeypatch, qtbot
):
    from ui.windows.catalog import CatalogWindow
    from ui.windows.unit_dialogs import AddUnits, AddUnitsDialog

    catalog: CatalogWindow = main.open_catalog()
    qtbot.waitExposed(catalog)
    catalog.select("unit_type", "minifig")
    assert catalog.add_to_army_action.isEnabled()
    armies = main.nav.armies
    target = armies[1]
    before = main.services.roster.roster(target.id).units
    calls = answer(
        monkeypatch, AddUnitsDialog, AddUnits("minifig", 4, "{type} {n}", None, target.id)
    )
    catalog.add_to_army_action.trigger()
    kwargs = calls[0][1]
    assert kwargs["type_key"] == "minifig"
    assert [a for a, _label in kwargs["armies"]] == [a.id for a in armies]
    assert all(
        label.endswith(f"({a.player_name})")
        for a, (_i, label) in zip(armies, kwargs["armies"], strict=True)
    )
    after = main.services.roster.roster(target.id).units
    assert len(after) == len(before) + 4
    assert [u.type_key for u in after[len(before) :]] == ["minifig"] * 4
    assert "Added 4 units to " + target.name in catalog.statusBar().currentMessage()
    # The army chosen comes first next time, with the count.
    catalog.add_to_army()
    assert (calls[1][1]["army_id"], calls[1][1]["count"]) == (target.id, 4)
    catalog.undo_action.trigger()
    catalog.undo_action.trigger()
    assert len(main.services.roster.roster(target.id).units) == len(before)
    # On the items tab there is no unit type to add.
    catalog.select("item", "long-ranged-weapon")
    assert not catalog.add_to_army_action.isEnabled()


def test_a_unit_type_dragged_from_the_catalog_onto_a_roster_adds_units(
    main, roster, monkeypatch, qtbot
):
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QDragEnterEvent, QDropEvent
    from PySide6.QtWidgets import QApplication

    from ui.windows.unit_dialogs import AddUnits, AddUnitsDialog, unit_type_mime

    catalog = main.open_catalog()
    catalog.select("unit_type", "hero")
    assert catalog.types_tab.table.drag_key() == "hero"
    data = unit_type_mime(catalog.types_tab.table.campaign_id, "hero")
    before = len(roster.model.all_rows())
    calls = answer(monkeypatch, AddUnitsDialog, AddUnits("hero", 2, "{type} {n}", None))
    viewport = roster.table.viewport()

    def drag(mime) -> bool:
        """Drag ``mime`` onto the roster's table and drop it (as Qt delivers it: the enter
        event makes the table the drop's target); whether the drop was taken."""
        args = (
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
        enter = QDragEnterEvent(QPoint(10, 10), *args)
        QApplication.sendEvent(viewport, enter)
        if not enter.isAccepted():
            return False
        drop = QDropEvent(QPointF(10, 10), *args)
        QApplication.sendEvent(viewport, drop)
        return drop.isAccepted()

    assert drag(data)
    qtbot.waitUntil(lambda: len(roster.model.all_rows()) == before + 2)
    assert calls[0][1]["type_key"] == "hero"
    assert [r.type_key for r in roster.model.all_rows()[before:]] == ["hero", "hero"]
    # A type from another campaign's catalog is not taken.
    assert not drag(unit_type_mime(catalog.types_tab.table.campaign_id + 1, "hero"))
    qtbot.wait(20)
    assert len(calls) == 1


def test_help_user_guide_shows_the_shipped_guide_with_its_pictures_offline(main, qtbot):
    from brikdesk.paths import user_guide_path

    path = user_guide_path()
    assert path.read_text(encoding="utf-8").startswith("# BrikDesk user guide")
    help_menu = main.menus.help_menu
    assert [a.text() for a in help_menu.actions() if a.text()][0] == "&User guide"
    guide = main.show_user_guide()
    qtbot.waitExposed(guide)
    text = guide.browser.toPlainText()
    assert text.startswith("BrikDesk user guide")  # the heading, rendered (no "#")
    assert "An army's roster" in text
    pictures = guide.browser.images()
    linked = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", path.read_text(encoding="utf-8"))
    assert [name for name, _w in pictures] == linked
    # Each picture is found beside the guide and drawn no wider than the page.
    room = guide.browser.viewport().width()
    for name, width in pictures:
        assert (path.parent / name).is_file()
        assert 0 < width <= room
    image = guide.browser.document().resource(
        QTextDocument.ResourceType.ImageResource, QUrl(pictures[0][0])
    )
    assert image is not None and not image.isNull()
    # Find in the guide.
    guide.find_box.setText("Duplicate army")
    assert guide.find_next()
    assert guide.browser.textCursor().selectedText() == "Duplicate army"


def test_the_guide_is_packaged_with_the_wheel_and_the_bundle() -> None:
    import tomllib

    root = Path(__file__).resolve().parents[3]
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    files = data["tool"]["setuptools"]["data-files"]
    assert files["share/brikdesk/docs"] == ["docs/user-guide.md"]
    assert files["share/brikdesk/docs/images"] == ["docs/images/*.png"]
    spec = (root / "packaging" / "brikdesk.spec").read_text(encoding="utf-8")
    assert 'datas.append((str(ROOT / "docs" / "user-guide.md"), "docs"))' in spec
    assert 'datas.append((str(ROOT / "docs" / "images"), "docs/images"))' in spec


def test_the_guide_is_found_in_a_frozen_bundle(monkeypatch, tmp_path) -> None:
    import sys

    from brikdesk import paths

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "user-guide.md").write_text("# Guide\n", encoding="utf-8")
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert paths.user_guide_path() == tmp_path / "docs" / "user-guide.md"


@pytest.mark.parametrize(
    ("screen", "least", "most"),
    [
        ((1920, 1080), QSize(1500, 850), QSize(1904, 1040)),
        ((1366, 768), QSize(1200, 700), QSize(1350, 728)),
    ],
)
def test_the_main_window_first_opens_using_the_screen_and_fits_a_small_one(
    open_main, demo_db, screen, least, most
):
    from ui.screen import pretend_screen

    with pretend_screen(*screen):
        main = open_main(demo_db, show=False)
    size = main.size()
    assert size.width() >= least.width() and size.height() >= least.height()
    assert size.width() <= most.width() and size.height() <= most.height()


def test_the_view_menu_names_the_navigator_not_the_campaign(main):
    assert main.navigator_dock.windowTitle() == main.nav.campaign.name
    assert main.main_actions.navigator_action.text() == "&Navigator"
    assert main.menus.view_menu.actions()[0].text() == "&Navigator"


def test_a_dialog_is_wide_enough_for_its_title(main):
    from PySide6.QtGui import QFont, QFontMetrics

    from ui.dialogs.campaign import PlayerDialog
    from ui.widgets.dialogs import TITLE_BAR_BUTTONS, title_room

    dialog = PlayerDialog(main, "Add player")
    title_room(dialog)
    bold = QFont(dialog.font())
    bold.setBold(True)
    assert dialog.minimumWidth() >= QFontMetrics(bold).horizontalAdvance("Add player") + (
        TITLE_BAR_BUTTONS
    )
    dialog.deleteLater()


def test_status_messages_keep_their_room_beside_a_long_database_path(open_main, demo_db, qtbot):
    main = open_main(demo_db)
    main.resize(1000, 600)
    label = main.database_label
    long_path = "/home/organizer/" + "very-long-folder-name/" * 8 + "brikdesk.sqlite3"
    main.database_opened(long_path)
    qtbot.wait(10)
    assert label.text() == f"Database: {long_path}"  # whole, and in the tooltip
    assert long_path in label.toolTip()
    shown = label.shown_text()
    assert shown.startswith("Database: /home") and "…" in shown and shown.endswith("sqlite3")
    message = "Deleted Sir Reginald Studsworth and 3 other units (Ctrl+Z brings them back)"
    main.statusBar().showMessage(message)
    room = label.geometry().left()
    assert main.statusBar().fontMetrics().horizontalAdvance(message) < room


def test_roster_columns_share_the_width_by_content_and_follow_the_window(main, roster, qtbot):
    from ui.models import roster as cols

    table = roster.table
    fm = table.fontMetrics()

    def longest(column: int) -> int:
        texts = [roster.model.index(r, column).data() or "" for r in range(roster.model.rowCount())]
        return max(fm.horizontalAdvance(t) for t in texts)

    roster.resize(1600, 800)
    qtbot.waitUntil(lambda: table.columnWidth(cols.HANDS) > longest(cols.HANDS))
    # With room, no text is cut: "Heavy Armor, Body Armor" is longer than Worn's usual limit.
    assert fm.horizontalAdvance("Heavy Armor, Body Armor") > 24 * fm.averageCharWidth()
    # Warnings: no wider than its longest text (and heading) needs, not stretched to the edge.
    header_fm = table.horizontalHeader().fontMetrics()
    warn_need = max(longest(cols.WARNINGS) + 40, header_fm.horizontalAdvance("Warnings") + 40)
    assert table.columnWidth(cols.WARNINGS) <= warn_need
    assert table.columnWidth(cols.WORN) > longest(cols.WORN)
    # Narrower: the other columns give up room before In hand and the names do.
    roster.resize(1100, 700)

    def shown() -> int:
        hh = table.horizontalHeader()
        return sum(table.columnWidth(i) for i in range(11) if not hh.isSectionHidden(i))

    qtbot.waitUntil(lambda: shown() <= table.viewport().width())
    assert table.columnWidth(cols.NAME) > longest(cols.NAME)
    hands = table.columnWidth(cols.HANDS)
    assert hands > 2 * table.columnWidth(cols.WORN) and hands > table.columnWidth(cols.WARNINGS)
    # A width set by hand is the organizer's: kept, also after reopening.
    table.setColumnWidth(cols.WARNINGS, 260)
    roster.resize(1500, 700)
    qtbot.wait(20)
    assert table.columnWidth(cols.WARNINGS) == 260
    army_id = roster.army_id
    roster.close()
    again = main.open_roster(army_id)
    qtbot.waitExposed(again)
    assert again.table.columnWidth(cols.WARNINGS) == 260


def test_fitted_columns_are_fitted_again_in_the_next_session(main, roster, qtbot):
    from ui.models import roster as cols

    roster.resize(900, 600)
    qtbot.wait(20)
    narrow = roster.table.columnWidth(cols.HANDS)
    army_id = roster.army_id
    roster.close()
    again = main.open_roster(army_id)
    again.resize(1600, 800)
    qtbot.waitExposed(again)
    qtbot.waitUntil(lambda: again.table.columnWidth(cols.HANDS) > narrow)


def test_history_charts_start_at_zero_and_say_their_units(main, qtbot):
    window = main.open_history()
    qtbot.waitUntil(lambda: window.history is not None, timeout=10_000)
    window.tabs.setCurrentWidget(window.charts_page)
    charts = window.charts
    assert charts is not None
    for attr, unit in (("value", "CP"), ("alive", "units"), ("kills", "kills")):
        chart = charts.chart(attr)
        low, high = chart.y_range()
        assert -0.05 * high <= low <= 0  # from 0 (a hair below, so that 0 is labelled)
        top = max(v for s in window.history.series for v in getattr(s, attr))
        assert top <= high <= top * 1.2 + 1
        assert chart.item.getAxis("left").labelText == unit


def test_the_main_window_comes_back_where_and_as_it_was(open_main, demo_db, qtbot):
    # Within the offscreen platform's 800x800 screen (Qt fits a restored window to it).
    main = open_main(demo_db)
    main.resize(700, 520)
    main.move(40, 30)
    main.resizeDocks([main.navigator_dock], [260], Qt.Orientation.Horizontal)
    qtbot.wait(10)
    where, dock = main.geometry(), main.navigator_dock.width()
    main.close()
    again = open_main(demo_db)
    assert again.geometry() == where
    assert abs(again.navigator_dock.width() - dock) <= 2
