"""Print preview, print and PDF of the roster sheet of a battle's mustered units.

The same path as an army's roster sheet (``RosterPrinting``: options dialog, worker, preview,
print, PDF), over ``PrintService.battle_roster_sheet``: exactly the units mustered into the
battle, every side, each card saying whose unit it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from brikdesk.domain.ids import BattleId
from ui.windows.printing import RosterPrinting, Step

if TYPE_CHECKING:
    from brikdesk.domain.sheets import RosterSheet
    from brikdesk.services import Services
    from ui.printing.layout import SheetLayout


def _prepare_battle_sheet(
    services: Services, battle_id: int, choice: Any, step: Step
) -> tuple[_Job, SheetLayout]:
    """Read the battle's sheet (one transaction) and lay it out: on the worker."""
    from ui.printing import layout_roster_sheet
    from ui.printing.image import MeasuringDevice

    step("reading the mustered units", 0, 0)
    job = services.printing.battle_roster_sheet(BattleId(battle_id), choice.options)
    device = MeasuringDevice(job.sheet.options.paper)
    layout = layout_roster_sheet(
        job.sheet, device.writer, progress=lambda done, total: step("laying out", done, total)
    )
    return _Job(job.sheet, ()), layout


class _Job:
    """What ``RosterPrinting`` reads of a prepared sheet."""

    def __init__(self, sheet: RosterSheet, left_out: tuple[str, ...]) -> None:
        self.sheet = sheet
        self.left_out = left_out


class BattleSheetPrinting(RosterPrinting):
    """``preview(battle_id)`` / ``print(battle_id)``: the mustered units' roster sheet."""

    PREPARING = "Preparing the roster sheet of {name}"

    def _army_name(self, battle_id: int) -> str | None:
        return self._read_name(
            lambda: self._services.battles.battle(BattleId(battle_id)).battle.name,
            "Can't print this battle's units",
        )

    _prepare = staticmethod(_prepare_battle_sheet)
