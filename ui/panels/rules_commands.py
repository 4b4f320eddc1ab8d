"""The panel's actions that follow the battle's edition (chapter 4): a long Action (4.2), Who
Acts First (4.3) and the Sprint dialog (4.1, which the app shell gives the panel in its
``forms``). ``BattleCommands`` delegates to these; each records through its one helper
(``BattleCommands.record``), so each is one undo step and the log shows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from brikdesk.domain.battle import ActionUse, LongActionStarted
from brikdesk.domain.ids import BattleUnitId
from ui.panels.legal import spend_refusal
from ui.panels.long_action import LongActionDialog
from ui.panels.who_first import WhoFirstDialog

if TYPE_CHECKING:
    from ui.panels.battle_commands import BattleCommands


def start_long_action(commands: BattleCommands, unit_id: BattleUnitId) -> bool:
    """Ask what the unit is busy with and for how long (per the edition), then record it."""
    view = commands.host.view
    if view is None:
        return False
    commands.host.select_unit(unit_id)
    answer = LongActionDialog.ask(commands.widget, view.setup.name(unit_id), view.setup.rules)
    if answer is None:
        return False
    return commands.record([LongActionStarted(unit_id, answer.what, answer.turns)])


def settle_who_first(
    commands: BattleCommands, responder: BattleUnitId, active: BattleUnitId
) -> bool:
    """Who acts first between the acting ``active`` unit and ``responder`` (4.3, per the
    battle's edition); the decision goes in the log."""
    view = commands.host.view
    if view is None:
        return False
    commands.host.select_unit(responder)
    result = WhoFirstDialog.ask(commands.widget, view, active, responder)
    if result is None:
        return False
    if not commands.record([result.to_event()]):
        return False
    commands.host.show_info(result.describe())
    return True


def sprint(commands: BattleCommands, unit_id: BattleUnitId) -> bool:
    """Open the Sprint dialog (it rolls and records) if the rules allow a Sprint now, else say
    why."""
    host = commands.host
    view = host.view
    if view is None:
        return False
    host.select_unit(unit_id)
    why = spend_refusal(view, unit_id, ActionUse.SPRINT)
    if why is not None:  # refused here, before any dice are rolled
        host.show_error(why)
        return False
    host.forms.sprint(
        commands.widget,
        host.services,
        host.battle_id,
        unit_id,
        bus=host.bus,
        undo_stack=host.undo_stack,
    )
    return True
