"""What the combat wizard and the quick attack form share: each is opened on one battle for
one attacker, records into that battle's undo history, and rolls with the same dice."""

from __future__ import annotations

from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QWidget

from brikdesk.domain.combat import AttackDraft, CombatContext, default_draft
from brikdesk.domain.ids import BattleId, BattleUnitId
from brikdesk.domain.rolling import DiceSource, RandomDice
from ui.bus import Bus
from ui.widgets.battle_context import CombatServices
from ui.widgets.combat_context import context_for


class AttackForm:
    """The opening both attack forms share. It comes before the form's Qt class
    (``class QuickAttack(AttackForm, QDialog)``): its ``__init__`` makes the Qt dialog, holds
    the battle, reads it, drafts the attacker's default attack, then calls ``build``, where
    each form makes its own content."""

    def __init__(
        self,
        services: CombatServices,
        bus: Bus,
        undo_stack: QUndoStack,
        battle_id: BattleId,
        attacker_id: BattleUnitId,
        parent: QWidget | None = None,
        *,
        dice: DiceSource | None = None,
        ctx: CombatContext | None = None,
    ) -> None:
        super().__init__(parent)  # type: ignore[call-arg]  # the Qt dialog after this class
        self.services = services
        self.bus = bus
        self.undo_stack = undo_stack
        self.battle_id = battle_id
        self.dice: DiceSource = dice if dice is not None else RandomDice()
        self.view = services.tracker.view(battle_id)
        # The battle panel hands over the context it holds for its own checks (500 units: the
        # fighters are not made again) while it is the battle as the tracker has it now.
        self.ctx = context_for(self.view, ctx)
        self.draft: AttackDraft = default_draft(self.ctx, attacker_id)
        self.build(attacker_id)

    def build(self, attacker_id: BattleUnitId) -> None:  # pragma: no cover - overridden
        raise NotImplementedError
