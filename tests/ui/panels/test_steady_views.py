"""Opening a form over the battle panel paints no more of the panel than changes (the focus
leaves the current row; the rest looks the same), and a palette whose inactive selection
differs still gets its repaint."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, QRect, QSettings
from PySide6.QtGui import QColor, QPalette, QRegion
from PySide6.QtWidgets import QApplication, QDialog, QLineEdit, QWidget

from brikdesk.services import Services
from tests.ui.battle_tables import Table, make_panel
from ui.panels import BattlePanel


class Painted(QObject):
    """The region each watched widget was asked to paint."""

    def __init__(self, *widgets: QWidget) -> None:
        super().__init__()
        self.regions = {w: QRegion() for w in widgets}
        for w in widgets:
            w.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and watched in self.regions:
            self.regions[watched] = self.regions[watched].united(event.region())
        return False

    def clear(self) -> None:
        for w in self.regions:
            self.regions[w] = QRegion()


def area(region: QRegion) -> int:
    return sum(r.width() * r.height() for r in region)


@pytest.fixture
def panel(qtbot, sv: Services, table: Table, qsettings: QSettings) -> BattlePanel:
    panel = make_panel(qtbot, sv, table.battle_id, qsettings)
    panel.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is panel)
    panel.select_unit(table.ids["Red Rifle"])
    panel.table.setFocus()
    qtbot.waitUntil(panel.table.hasFocus)
    return panel


def open_form(qtbot, panel: BattlePanel) -> QDialog:
    form = QDialog(panel)
    QLineEdit(form).setFocus()
    form.show()
    form.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is form)
    qtbot.wait(20)  # the paints it causes
    return form


def current_row(panel: BattlePanel) -> QRect:
    cell = panel.table.visualRect(panel.table.currentIndex())
    return QRect(0, cell.top(), panel.table.viewport().width(), cell.height())


def test_a_form_opened_over_the_panel_repaints_only_the_row_that_had_the_focus(
    qtbot, panel: BattlePanel
) -> None:
    units, log = panel.table.viewport(), panel.log_pane.view.viewport()
    painted = Painted(units, log)
    form = open_form(qtbot, panel)
    row = current_row(panel)
    # The row loses its focus mark: it is painted again (and nothing else of the table).
    assert painted.regions[units].contains(row.center())
    assert area(painted.regions[units]) <= row.width() * row.height()
    assert painted.regions[log].isEmpty()
    painted.clear()
    form.close()
    panel.activateWindow()
    panel.table.setFocus()
    qtbot.waitUntil(panel.table.hasFocus)
    qtbot.wait(20)
    assert painted.regions[units].contains(row.center())  # the focus mark is back
    assert area(painted.regions[units]) <= row.width() * row.height()


def test_an_inactive_selection_of_another_colour_still_shows(qtbot, panel: BattlePanel) -> None:
    """Where the platform greys the selection of an inactive window, the cells are painted
    again when a form takes the activation, as Qt does."""
    palette = QPalette(panel.table.palette())
    palette.setColor(QPalette.ColorGroup.Inactive, QPalette.ColorRole.Highlight, QColor("#888888"))
    panel.table.setPalette(palette)
    qtbot.wait(20)
    units = panel.table.viewport()
    painted = Painted(units)
    open_form(qtbot, panel)
    assert area(painted.regions[units]) >= units.width() * units.height() // 2
