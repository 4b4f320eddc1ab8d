"""The history window's tables: each column as wide as what it shows, none stretched across the
window's spare room."""

from __future__ import annotations


def shown_table(qtbot, open_main, demo_db: str, name: str):
    """The demo's history window, 1340x740, on the tab of its table ``name``, filled."""
    main = open_main(demo_db)
    window = main.open_history()
    window.resize(1340, 740)
    table = getattr(window, name)
    qtbot.waitUntil(lambda: window.history is not None and table.rowCount() > 0)
    window.tabs.setCurrentWidget(table)
    qtbot.waitUntil(lambda: table.isVisible() and table.viewport().width() > 1000)
    return table


def test_standings_columns_fit_their_texts(qtbot, open_main, demo_db) -> None:
    table = shown_table(qtbot, open_main, demo_db, "standings")
    header = table.horizontalHeader()
    kills = table.columnCount() - 1
    assert table.horizontalHeaderItem(kills).text() == "Kills"
    widest = max(
        [header.fontMetrics().horizontalAdvance("Kills")]
        + [table.fontMetrics().horizontalAdvance(table.item(r, kills).text()) for r in range(2)]
    )
    # Kills is as wide as "Kills" and its numbers (with the sort arrow's room), not ~650 px.
    assert table.columnWidth(kills) < widest + 60, table.columnWidth(kills)
    # Every text reads whole.
    for c in range(table.columnCount()):
        for r in range(table.rowCount()):
            text = table.item(r, c).text()
            assert table.columnWidth(c) >= table.fontMetrics().horizontalAdvance(text), text


def test_the_timelines_notes_take_the_room_the_other_columns_leave(
    qtbot, open_main, demo_db
) -> None:
    table = shown_table(qtbot, open_main, demo_db, "timeline")
    notes = table.columnCount() - 1
    assert table.horizontalHeaderItem(notes).text() == "Notes"
    # The notes reach the table's right edge: no empty band beside them.
    header = table.horizontalHeader()
    assert header.sectionViewportPosition(notes) + table.columnWidth(notes) == (
        table.viewport().width()
    )
    # And the other columns stay as wide as their texts.
    for c in range(notes):
        texts = [table.item(r, c).text() for r in range(table.rowCount())]
        widest = max(table.fontMetrics().horizontalAdvance(t) for t in texts)
        head = header.fontMetrics().horizontalAdvance(table.horizontalHeaderItem(c).text())
        assert table.columnWidth(c) < max(widest, head) + 60, table.horizontalHeaderItem(c).text()
