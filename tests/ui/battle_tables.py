"""What the battle panel's tests share: a battle between Red and Blue, a shown panel, a cell.

The fixtures that use them (``database``, ``sv``, ``table``, ``qsettings``) are in
``tests/ui/conftest.py``.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtGui import QUndoStack

from brikdesk.domain.roster import Loadout
from brikdesk.services import Services
from brikdesk.services.summaries import Muster
from ui.bus import Bus
from ui.main_window import combat_forms
from ui.panels import BattlePanel


class Table:
    """Red and Blue with three units each, and a battle between them (Red first)."""

    def __init__(self, sv: Services, edition: str = "2020") -> None:
        c = sv.campaigns.create_campaign("Panel Campaign", edition=edition).value
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
    panel = BattlePanel(
        sv, bus or Bus(), stack or QUndoStack(), battle_id, settings=settings, forms=combat_forms()
    )
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
