"""Starting a new battle from the main window: muster, order, create and start, undoably."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from brikdesk.domain.ids import BattleId, CampaignId
from brikdesk.errors import StorageError, UserError
from brikdesk.services import Services
from ui.bus import Bus
from ui.operation import run_write
from ui.panels.start_dialog import StartBattleDialog
from ui.undo import UndoScopes, perform


def start_new_battle(
    parent: QWidget, services: Services, bus: Bus, scopes: UndoScopes, campaign_id: CampaignId
) -> BattleId | None:
    """Ask which units fight and in which order, create and start the battle (the first step of
    the new battle's undo history: undoing it deletes the battle); return its id, or ``None`` if
    cancelled or refused (the reason is shown)."""
    request = StartBattleDialog.ask(parent, services, campaign_id)
    if request is None:
        return None
    try:
        done = run_write(  # as a background operation, as every write is
            lambda: services.tracker.begin(
                campaign_id, request.name, request.musters, notes=request.notes
            ),
            window=parent,
            text=f"Start battle {request.name}",
        )
    except (UserError, StorageError) as exc:
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "New battle",
            f"The battle could not be started: {exc}",
            QMessageBox.StandardButton.Ok,
            parent,
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        return None
    battle_id: BattleId = done.value.id
    perform(scopes.battle(battle_id), bus, lambda: done, text=f"Start battle {request.name}")
    return battle_id
