"""What the battle panel's tests share: a battle between Red and Blue, a shown panel, a cell.

The fixtures that use them (``database``, ``sv``, ``table``, ``qsettings``) are in
``tests/ui/conftest.py``.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage, QUndoStack
from PySide6.QtWidgets import QTableView

from brikdesk.domain.roster import Loadout
from brikdesk.services import Services
from brikdesk.services.summaries import Muster
from ui.bus import Bus
from ui.panels import BattlePanel
from ui.panels.battle_model import GroupRole


class Table:
    """Red and Blue with three units each, and a battle between them (Red first)."""

    def __init__(self, sv: Services) -> None:
        c = sv.campaigns.create_campaign("Panel Campaign").value
        self.campaign_id = c.id
        self.red = sv.campaigns.add_player(c.id, "Red", colour="#c0392b").value
        self.blue = sv.campaigns.add_player(c.id, "Blue", colour="#2e86c1").value
        ra = sv.campaigns.add_army(self.red.id, "Reds").value
        ba = sv.campaigns.add_army(self.blue.id, "Blues").value
        sword = Loadout(("hand-weapon", "shield"))
        rifle = Loadout(("long-ranged-weapon",))
        reds = [
            *sv.roster.add_unit(ra.id, "minifig", name="Red Knight", loadout=sword).value,
            *sv.roster.add_unit(ra.id, "minifig", name="Red Rifle", loadout=rifle).value,
            *sv.roster.add_unit(ra.id, "minifig", name="Red Pike").value,
        ]
        blues = [
            *sv.roster.add_unit(ba.id, "minifig", name="Blue Knight", loadout=sword).value,
            *sv.roster.add_unit(ba.id, "minifig", name="Blue Rifle", loadout=rifle).value,
            *sv.roster.add_unit(ba.id, "minifig", name="Blue Pike").value,
        ]
        view = sv.tracker.begin(
            c.id, "Panel Battle", [Muster(self.red.id, reds), Muster(self.blue.id, blues)]
        ).value
        self.battle_id = view.id
        self.ids = {u.name: u.id for u in view.units}


def make_panel(
    qtbot,
    sv: Services,
    battle_id: int,
    settings: QSettings,
    stack: QUndoStack | None = None,
    bus: Bus | None = None,
) -> BattlePanel:
    panel = BattlePanel(sv, bus or Bus(), stack or QUndoStack(), battle_id, settings=settings)
    qtbot.addWidget(panel)
    panel.resize(1300, 800)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def cell(panel: BattlePanel, name: str, column: int) -> str:
    uid = next(u.id for u in panel.view.units if u.name == name)
    index = panel.model.index_of_unit(uid, column)
    assert index.isValid(), f"{name} is not shown"
    return index.data()


def stray_grid_pixels(table: QTableView) -> set[tuple[int, int]]:
    """Where Qt's view may leave a pixel of grid on a player's header row: on the header row's
    top line, the first pixel of each column line (it does at the top of the viewport, and
    when rows are shown out of order; elsewhere it clips its grid off the header row). The
    row painter keeps the header row whole; these pixels are the one difference allowed."""
    model = table.model()
    header = table.horizontalHeader()
    lines = [
        header.sectionViewportPosition(c) + header.sectionSize(c) - 1
        for c in range(header.count())
        if not header.isSectionHidden(c)
    ][:-1]
    return {
        (x, table.rowViewportPosition(r))
        for r in range(model.rowCount())
        if model.index(r, 0).data(GroupRole) is not None
        for x in lines
    }


def assert_looks_as_qt(table: QTableView, ours: QImage, theirs: QImage) -> None:
    """``ours`` (the viewport painted row by row) is ``theirs`` (painted by Qt's view),
    pixel for pixel but for :func:`stray_grid_pixels`, where ours has the header row's own
    colour, as on the rest of its top line."""
    if ours == theirs:
        return
    assert ours.size() == theirs.size()
    differ = {
        (x, y)
        for y in range(ours.height())
        for x in range(ours.width())
        if ours.pixel(x, y) != theirs.pixel(x, y)
    }
    stray = stray_grid_pixels(table)
    assert differ <= stray, f"{len(differ - stray)} pixels differ from Qt's own painting"
    for x, y in differ:
        assert ours.pixel(x, y) == ours.pixel(x - 1, y)
