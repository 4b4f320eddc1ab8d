"""How the battle panel opens the combat forms for one of its units: the quick attack form
and the combat wizard, through the openers the app shell gave it (``ui.panels.forms``), with
the battle's services, bus, undo history and combat context."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QSettings
from PySide6.QtGui import QUndoStack

from brikdesk.domain.battle import Maneuver, Use
from brikdesk.domain.combat import AttackKind, CombatContext
from brikdesk.domain.ids import BattleId, BattleUnitId
from brikdesk.errors import UserError
from brikdesk.services import Services
from brikdesk.services.tracker import BattleView
from ui.bus import Bus
from ui.panels.forms import CombatForms
from ui.settings import AppSettings
from ui.widgets.combat_context import combat_context


class FormHost(Protocol):
    """What opening a form uses of the battle panel (the forms' parent)."""

    services: Services
    bus: Bus
    undo_stack: QUndoStack
    battle_id: BattleId
    settings: QSettings
    forms: CombatForms
    view: BattleView | None

    def show_error(self, error: BaseException | str) -> None: ...


def form_args(
    host: FormHost, unit: BattleUnitId, view: BattleView
) -> tuple[FormHost, Services, Bus, QUndoStack, BattleId, BattleUnitId, CombatContext]:
    """What the combat forms are opened with (``CombatForms``): the panel, the battle's
    services, bus, undo history and id, the unit, and the battle's combat context."""
    return (
        host,
        host.services,
        host.bus,
        host.undo_stack,
        host.battle_id,
        unit,
        combat_context(view),
    )


def open_quick(
    host: FormHost,
    unit_id: BattleUnitId,
    target: BattleUnitId | None = None,
    use: Use | None = None,
) -> bool:
    """The quick attack form (one page) with ``unit_id`` as attacker; on ``target`` paid by
    ``use`` when given (a Counterstrike: a Counter)."""
    if host.view is None:
        return False
    try:
        form = host.forms.quick(*form_args(host, unit_id, host.view))
        if target is not None:
            preset = getattr(form, "preset", None)
            if preset is not None:
                preset(target, use=use)
    except UserError as exc:
        host.show_error(exc)
        return False
    return True


def open_wizard(
    host: FormHost,
    unit: BattleUnitId,
    target: BattleUnitId | None = None,
    maneuver: Maneuver | None = None,
) -> bool:
    """The combat wizard with ``unit`` as attacker; as a response off its owner's turn (the
    wizard pays with the held Action); on ``target`` with a Close Combat ``maneuver`` when the
    Act menu named them."""
    if host.view is None:
        return False
    try:
        wizard = host.forms.wizard(*form_args(host, unit, host.view))
    except UserError as exc:
        host.show_error(exc)
        return False
    if hasattr(wizard, "set_dice_mode"):  # Edit > Settings: virtual or typed dice first
        wizard.set_dice_mode(AppSettings(host.settings).dice_mode)
    if target is not None and hasattr(wizard, "preset"):
        wizard.preset(target, AttackKind(maneuver.value) if maneuver is not None else None)
    return True
