"""The battle header, the status chips and the log's lines take the room the window has: in
the main window on a 1366x768 and a 1280x720 laptop and on a 1920x1080 monitor they show their
whole text (a unit's chips on two or three lines where the Status column is narrow), and only
where the window is truly too narrow do they end in "…", the whole text then in their tooltip
and said to a screen reader."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QFontMetrics

from brikdesk.domain.battle import ActionUse, Status
from ui.panels.battle_model import COLUMNS, STATUS, TYPE, UNIT, ChipsRole
from ui.panels.chips import chips_width
from ui.panels.unit_table import PAD
from ui.screen import pretend_screen, usable_size

SCREENS = [(1366, 768), (1280, 720), (1920, 1080)]


def open_battle(qtbot, main, status: str):
    battle = next(b for b in main.nav.battles if b.status == status)
    assert main.open_battle(battle.id)
    panel = main.battle_panel
    qtbot.waitUntil(lambda: panel.view is not None)
    return panel


def fight(panel) -> None:
    """What a battle has after a few Actions: a Close Combat (its chips on both units, one of
    them Attacked) and an attack in the log, over the demo's dead unit."""
    ids = {u.name: u.id for u in panel.view.units}
    assert panel.commands.close_combat_attack(ids["Bosun Grogg"], ids["Dynamite Dot"])
    assert panel.commands.spend(
        ids["Captain Peg-Leg Pennywhistle"], ActionUse.ATTACK, target=ids["Tumbleweed Tess"]
    )


def pile_up(panel) -> None:
    """After ``fight``: Dynamite Dot Disrupted too (three chips: Disrupted, in Close Combat,
    Attacked 1/3) and Bosun Grogg at Half Speed (two: Half Speed, in Close Combat)."""
    ids = {u.name: u.id for u in panel.view.units}
    assert panel.commands.set_status(ids["Dynamite Dot"], Status.DISRUPTED)
    assert panel.commands.set_status(ids["Bosun Grogg"], Status.HALF_SPEED)


def unit_rows(table) -> list[int]:
    model = table.model()
    return [r for r in range(model.rowCount()) if table.columnSpan(r, 0) == 1]


def chips(table, row: int) -> list[str]:
    """Row ``row``'s status chips, whole."""
    return [label for _key, label in table.model().index(row, STATUS).data(ChipsRole) or ()]


def grogg_row(table) -> int | None:
    """The row of the unit fighting Bosun Grogg."""
    rows = range(table.model().rowCount())
    return next((r for r in rows if "⚔ Bosun Grogg" in chips(table, r)), None)


def spoken(widget) -> str:
    iface = QAccessible.queryAccessibleInterface(widget)
    assert iface is not None
    return iface.text(QAccessible.Text.Name)


def log_texts(panel) -> list[tuple[str, str]]:
    """Each log line as shown and whole."""
    view = panel.log_pane.view
    model = view.model()
    return [(view.shown_text(r), model.index(r, 0).data()) for r in range(model.rowCount())]


def content_width(panel, column: int) -> int:
    """What the widest text of ``column`` (its header's too) takes, in the font it is drawn in,
    with the room around a cell's text. A dead unit's type is shown without its die: the
    column keeps room for it alive (an Undo brings it back)."""
    table = panel.table
    model = table.model()
    header = QFontMetrics(table.horizontalHeader().font())
    widths = [header.horizontalAdvance(COLUMNS[column])]
    if column == TYPE:
        alive = {f"{u.type_name} d{u.stats.action_die}" for u in panel.view.units}
        widths += [table.fontMetrics().horizontalAdvance(t) for t in alive]
    for row in range(model.rowCount()):
        if table.columnSpan(row, 0) > 1:
            continue  # a player's row, across the table
        index = model.index(row, column)
        font = index.data(Qt.ItemDataRole.FontRole) or table.font()
        widths.append(QFontMetrics(font).horizontalAdvance(index.data() or ""))
    return max(widths) + PAD


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_the_header_chips_and_log_show_their_whole_text_where_there_is_room(
    qtbot, open_main, demo_db, width: int, height: int
) -> None:
    with pretend_screen(width, height):
        main = open_main(demo_db)
        main.resize(usable_size(main))
        finished = open_battle(qtbot, main, "finished")
        name = finished.header.name_label
        assert name.text().endswith("— finished")
        assert name.shown_text() == name.text()
        panel = open_battle(qtbot, main, "in_progress")
        fight(panel)
        pile_up(panel)
        qtbot.wait(10)
    header = panel.header
    for label in (header.name_label, header.edition_label):
        assert label.shown_text() == label.text()
    lines = log_texts(panel)
    assert any("Bosun Grogg" in whole for _shown, whole in lines)
    assert [shown for shown, _whole in lines] == [whole for _shown, whole in lines]
    table = panel.table
    assert grogg_row(table) is not None
    one_line = table.verticalHeader().defaultSectionSize()
    for turn in ("before End Turn", "after End Turn"):
        # Every chip whole, without hovering: a unit's chips on one line where the Status
        # column has room (a monitor), on two or three lines of its row where not (a laptop).
        rows = unit_rows(table)
        counts = [len(chips(table, r)) for r in rows]
        if turn == "before End Turn":  # a unit with two chips, one with three
            assert 2 in counts and 3 in counts
        else:  # End Turn ends some statuses
            assert max(counts) >= 2
        for row in rows:
            whole = chips(table, row)
            assert table.shown_chips(row) == whole, (turn, whole)
            if len(whole) < 2:  # the rows without several chips keep one line
                assert table.rowHeight(row) == one_line, (turn, whole)
        if turn == "before End Turn":
            # A name is cut only for the widest chip to show whole (1280x720).
            if table.columnWidth(UNIT) < content_width(panel, UNIT):
                fm = table.fontMetrics()
                widest = max(chips_width(fm, (c,)) for r in rows for c in chips(table, r))
                assert table.columnWidth(STATUS) <= widest + 1
            assert panel.end_turn()  # the rows move: their heights go with them
            qtbot.wait(10)
    if width >= 1920:  # a monitor has room for the longest name and type too
        for column in (UNIT, TYPE):
            assert table.columnWidth(column) >= content_width(panel, column), COLUMNS[column]


def test_a_narrow_window_cuts_them_with_the_whole_text_in_tooltips(
    qtbot, open_main, demo_db
) -> None:
    with pretend_screen(1366, 768):
        main = open_main(demo_db)
        main.resize(usable_size(main))
        finished = open_battle(qtbot, main, "finished")
        name = finished.header.name_label
        whole = name.text()
        for narrower in range(main.width(), 600, -20):  # till the name is cut
            main.resize(narrower, main.height())
            qtbot.wait(1)
            if name.shown_text() != whole:
                break
        assert whole.endswith("— finished")
        assert name.shown_text().endswith("…") and name.shown_text() != whole
        assert name.toolTip().startswith(whole)
        assert spoken(name) == whole
        # Narrower still, the rules' edition gives way too, its whole text kept.
        edition = finished.header.edition_label
        for narrower in range(main.width(), 500, -20):
            main.resize(narrower, main.height())
            qtbot.wait(1)
            if edition.shown_text() != edition.text():
                break
        assert edition.text() == "BrikWars 2020 rules"
        assert edition.shown_text() != edition.text()
        assert edition.text() in edition.toolTip() and spoken(edition) == edition.text()
        panel = open_battle(qtbot, main, "in_progress")
        fight(panel)
        qtbot.wait(10)
    # The log pane dragged narrow: its longest lines give way, their whole text kept.
    splitter = panel.splitter
    splitter.setSizes([splitter.width() - 120, 120])
    qtbot.wait(10)
    view = panel.log_pane.view
    model = view.model()
    cut = [r for r, (shown, whole) in enumerate(log_texts(panel)) if shown != whole]
    assert cut, "no line is cut in a 120-pixel pane"
    for row in cut:
        event = panel.log_pane.model.events()[row]
        assert view.shown_text(row).endswith("…")
        assert event.text in model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
        assert model.index(row, 0).data() == log_texts(panel)[row][1]  # what a reader says
    # The Status column too narrow for a Close Combat's chips.
    table = panel.table
    row = grogg_row(table)
    assert row is not None
    shown, whole = table.shown_chips(row), chips(table, row)
    assert shown != whole
    assert len(shown) < len(whole) or shown[-1].endswith("…")
    index = table.model().index(row, STATUS)
    tip = index.data(Qt.ItemDataRole.ToolTipRole)
    assert "In Close Combat with Bosun Grogg" in tip and all(c in tip for c in whole[1:])
    assert all(c in index.data() for c in whole)  # the cell's text, said by a screen reader
