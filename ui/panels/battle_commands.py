"""What the battle panel records: every action goes through :meth:`BattleCommands.perform`,
the one helper that runs a tracker call and pushes it on this battle's undo history
(``ui.undo.perform``: an ``ActionCommand`` over the service's ``Done``); a refusal is shown
where the user acted and nothing is recorded.

The unit actions (spend an Action, a Close Combat attack, a Counter, a status) build the
domain's events and record them; the menus and keys reach them through
``ui.panels.unit_moves``, which asks the rules first and asks the user only what can be done. Rule decisions are the domain's (``is_own_turn``: off its owner's turn a
unit's Action is a response, 4.3).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QWidget

from brikdesk.domain.battle import (
    ActionUse,
    CloseCombatAttack,
    CounterUse,
    CounterUsed,
    Event,
    Maneuver,
    Status,
    StatusCleared,
    StatusSet,
    UnitKilled,
    describe,
    is_own_turn,
    spend_action,
)
from brikdesk.domain.battle.momentum import moms_at_turn_end
from brikdesk.domain.ids import BattleId, BattleUnitId
from brikdesk.domain.statuses import BattleStatus
from brikdesk.errors import ConflictError, StorageError, UserError
from brikdesk.services import Services
from brikdesk.services.changes import Done
from brikdesk.services.tracker import BattleView
from ui.bus import Bus
from ui.panels.forms import CombatForms
from ui.panels.mom_question import MomQuestion
from ui.panels.overrule_box import confirm_overrule
from ui.panels.start_dialog import OrderDialog, PlayerChoice
from ui.undo import perform

log = logging.getLogger(__name__)


def short(text: str | None, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters with "…" (for menu entries)."""
    if not text:
        return ""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Host(Protocol):
    """What the commands need of the panel (a widget, the parent of the dialogs they ask)."""

    services: Services
    bus: Bus
    undo_stack: QUndoStack
    battle_id: BattleId
    view: BattleView | None
    #: The combat forms the app shell gave the panel (the Sprint dialog is opened from here).
    forms: CombatForms

    def refresh(self) -> None: ...

    def select_unit(self, unit_id: BattleUnitId) -> bool: ...

    def current_unit(self) -> BattleUnitId | None: ...

    def show_error(self, error: BaseException | str) -> None: ...

    def show_info(self, text: str) -> None: ...

    def clear_message(self) -> None: ...


class BattleCommands(QObject):
    """The panel's actions on one battle; see the module docstring."""

    def __init__(self, host: Host, parent: QWidget) -> None:
        super().__init__(parent)
        self.host = host
        self.widget = parent  # the dialogs' parent

    # -- performing -------------------------------------------------------------------------

    def perform(self, text: str, call: Callable[[], Done[Any]]) -> Done[Any] | None:
        """Perform ``call`` (a tracker method) as one step of this battle's undo history; a
        refusal is shown where the user acted and nothing is recorded (``None``)."""
        try:
            return perform(
                self.host.undo_stack,
                self.host.bus,
                call,
                text=text,
                report=self.host.show_error,
                window=self.widget,
            )
        except ConflictError as exc:
            self.host.show_error(exc)
            self.host.refresh()
        except UserError as exc:
            self.host.show_error(exc)
        except StorageError as exc:
            self.host.show_error(f"The battle could not be saved: {exc}")
            log.warning("storage error in the battle panel: %s", exc)
        return None

    def record(self, events: Sequence[Event], text: str | None = None) -> bool:
        """Record ``events`` as one action (validated by the rules, one undo step)."""
        view = self.host.view
        if view is None or not events:
            return False
        if text is None:
            text = describe(view.setup, events[0])
            if len(events) > 1:
                text += f" (+{len(events) - 1} more)"
        checked = confirm_overrule(self.widget, view.state, events)  # warnings: ask first
        if checked is None:
            return False
        events = checked
        tracker, battle_id, what = self.host.services.tracker, self.host.battle_id, text
        if self.perform(text, lambda: tracker.record(battle_id, events, text=what)):
            self.host.clear_message()
            return True
        return False

    def end_turn(self) -> bool:
        """End the active player's turn; the strip says what changed. A unit of that player
        holding a MOM is asked about first (5.4): did it use up its Move?"""
        view = self.host.view
        if view is None or not view.in_progress:
            if view is not None and view.status is BattleStatus.PLANNED:
                self.host.show_error("Start the battle first: set the turn order.")
            return False
        player = view.active_player.name
        asked = moms_at_turn_end(view.setup, view.state)
        lost: tuple[BattleUnitId, ...] = ()
        if asked is not None and asked.lost_by_rule:  # 5.4: asked, never dropped unseen
            answer = MomQuestion.ask(self.widget, player, asked)
            if answer is None:
                return False
            lost = answer
        tracker, battle_id = self.host.services.tracker, self.host.battle_id
        done = self.perform(
            f"End {player}'s turn", lambda: tracker.end_turn(battle_id, mom_lost=lost)
        )
        if done is None:
            return False
        self.host.show_info(" · ".join(done.value.lines))
        return True

    def undo(self) -> bool:
        """Take back this battle's last step (its undo history); when the history is empty
        (the app was restarted), the last action of the log, as a new step of the history."""
        return self._step_history(undo=True)

    def redo(self) -> bool:
        """Redo this battle's last undone step; with none, the log's first undone action."""
        return self._step_history(undo=False)

    def _step_history(self, *, undo: bool) -> bool:
        stack = self.host.undo_stack
        if stack.canUndo() if undo else stack.canRedo():
            # The command publishes what changed (the views refresh) or reports a refusal.
            stack.undo() if undo else stack.redo()
            return True
        view = self.host.view
        if view is None:
            return False
        what, seen = (view.can_undo, view.undo_seen) if undo else (view.can_redo, view.redo_seen)
        if not what:
            return False
        # Refused if another table's log moved on since this view.
        tracker, battle_id = self.host.services.tracker, self.host.battle_id
        step = tracker.undo if undo else tracker.redo
        if (
            self.perform(
                f"{'Undo' if undo else 'Redo'}: {short(what)}", lambda: step(battle_id, seen=seen)
            )
            is None
        ):
            return False
        self.host.clear_message()
        return True

    def start_battle(self) -> bool:
        view = self.host.view
        if view is None or view.status is not BattleStatus.PLANNED:
            return False
        order = OrderDialog.ask(
            self.widget, view.name, [PlayerChoice(p.id, p.name, p.colour) for p in view.players]
        )
        if order is None:
            return False
        tracker, battle_id = self.host.services.tracker, self.host.battle_id
        if self.perform(f"Start battle {view.name}", lambda: tracker.start(battle_id, order)):
            self.host.show_info(
                f"{self.host.view.active_player.name if self.host.view else ''} starts. Round 1."
            )
            return True
        return False

    # -- unit actions (the menus, the keys and tests call them) -----------------------------

    def spend(
        self,
        unit_id: BattleUnitId,
        how: ActionUse,
        *,
        target: BattleUnitId | None = None,
        over_the_top: bool = False,
        note: str = "",
    ) -> bool:
        """Spend the unit's Action (on its own turn) or its held Action (in response)."""
        if self.host.view is None:
            return False
        self.host.select_unit(unit_id)
        return self.record(
            [
                spend_action(
                    self.host.view.state,
                    unit_id,
                    how,
                    target=target,
                    over_the_top=over_the_top,
                    note=note,
                )
            ]
        )

    def close_combat_attack(
        self,
        unit_id: BattleUnitId,
        target: BattleUnitId,
        maneuver: Maneuver = Maneuver.STRIKE,
        hands: int = 1,
        *,
        outcome: str = "",
    ) -> bool:
        """A Close Combat attack: off its owner's turn, a response (4.3). With an ``outcome``
        the players resolved it at the table with their own dice; the log says so."""
        view = self.host.view
        if view is None:
            return False
        self.host.select_unit(unit_id)
        response = not is_own_turn(view.state, unit_id)
        return self.record(
            [
                CloseCombatAttack(
                    unit_id, target, maneuver, hands, as_response=response, outcome=outcome
                )
            ]
        )

    def use_counter(
        self,
        unit_id: BattleUnitId,
        target: BattleUnitId,
        how: CounterUse = CounterUse.COUNTERSTRIKE,
    ) -> bool:
        self.host.select_unit(unit_id)
        return self.record([CounterUsed(unit_id, target, how)])

    def set_status(
        self, unit_id: BattleUnitId, status: Status, with_ids: Sequence[BattleUnitId] = ()
    ) -> bool:
        self.host.select_unit(unit_id)
        if status is Status.DEAD:
            return self.record([UnitKilled(unit_id)])
        return self.record([StatusSet(unit_id, status, tuple(with_ids))])

    def clear_status(
        self, unit_id: BattleUnitId, status: Status, with_ids: Sequence[BattleUnitId] = ()
    ) -> bool:
        self.host.select_unit(unit_id)
        return self.record([StatusCleared(unit_id, status, tuple(with_ids))])
