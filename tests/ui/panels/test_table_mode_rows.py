"""Table mode off restores the rows: the unit table's and the battle log's rows
come back to the height they had before Table mode, not Table mode's tall ones."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from brikdesk.services import Services
from tests.ui.battle_tables import Table, make_panel


def heights(panel) -> tuple[list[int], list[int]]:
    units = panel.table
    log = panel.log_pane.view
    return (
        [units.rowHeight(r) for r in range(units.model().rowCount())],
        [log.rowHeight(r) for r in range(log.model().rowCount())],
    )


def test_table_mode_off_restores_the_rows(
    qtbot, sv: Services, table: Table, qsettings: QSettings
) -> None:
    panel = make_panel(qtbot, sv, table.battle_id, qsettings)
    panel.set_table_mode(False)
    qtbot.wait(1)
    before = heights(panel)
    assert before[0], "no unit rows"
    panel.set_table_mode(True)
    qtbot.wait(1)
    tall = heights(panel)
    assert min(tall[0]) > max(before[0])  # Table mode's rows are taller
    panel.set_table_mode(False)
    qtbot.wait(1)
    assert heights(panel) == before
