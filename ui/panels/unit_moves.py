"""The battle panel's unit actions as the menus and keys call them: check first, then ask only
what can be done, then record.

Each move asks the rules (``ui.panels.legal``) before it opens anything: a move the rules
refuse opens no dialog and shows the reason in the message strip; a target or a note is asked
only among what the rules allow (the one opponent a response names is taken without asking). Attack opens the
combat wizard with the unit as attacker (a response off its owner's turn: the wizard pays with
the held Action). There is nothing to hold: an Action left unspent is Held when its owner's
turn ends (4.3 in every edition; reading action_states). Recording is ``BattleCommands``' (the one
helper that records a tracker call as an undoable step).
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from brikdesk.domain.battle import (
    ActionState,
    ActionUse,
    CounterUse,
    CounterUsed,
    Maneuver,
    Status,
    Use,
    disengage,
    disengage_counterstrikers,
    disengage_refusal,
    is_own_turn,
    why_not_respond,
)
from brikdesk.domain.ids import BattleUnitId
from brikdesk.errors import UserError
from brikdesk.services.tracker import BattleView
from ui.panels import rules_commands
from ui.panels.action_roll import ActionRollDialog
from ui.panels.battle_commands import BattleCommands
from ui.panels.legal import (
    attack_refusal,
    counter_refusal,
    fight_targets,
    join_targets,
    refusal,
    spend_targets,
)
from ui.panels.pickers import OutcomeAsker, UnitPicker
from ui.widgets.combat_context import combat_context


class Host(Protocol):
    """What the moves need of the panel."""

    view: BattleView | None

    def current_unit(self) -> BattleUnitId | None: ...

    def select_unit(self, unit_id: BattleUnitId) -> bool: ...

    def show_error(self, error: BaseException | str) -> None: ...

    def show_info(self, text: str) -> None: ...

    def open_quick(
        self,
        unit_id: BattleUnitId,
        target: BattleUnitId | None = None,
        use: Use | None = None,
    ) -> bool: ...

    def open_wizard(
        self,
        unit_id: BattleUnitId | None = None,
        target: BattleUnitId | None = None,
        maneuver: Maneuver | None = None,
    ) -> bool: ...


class Menus(Protocol):
    """The buttons whose menus the C, R and T keys open."""

    def popup_act(self) -> None: ...

    def popup_counter(self) -> None: ...

    def popup_status(self) -> None: ...


class UnitMoves(QObject):
    """The unit actions of :class:`ui.panels.unit_menus.UnitActions`, checked first, and the
    keys on the current unit; see the module docstring."""

    def __init__(self, host: Host, commands: BattleCommands, parent: QWidget) -> None:
        super().__init__(parent)
        self.host = host
        self.commands = commands
        self.widget = parent  # the dialogs' parent
        self.menus: Menus | None = None

    # -- what the menus call (recording itself is ``self.commands``') ----------------------

    def attack(self, unit_id: BattleUnitId) -> bool:
        """Open the combat wizard with the unit as attacker, when it may attack at all."""
        return self._may_attack(unit_id) and self.host.open_wizard(unit_id)

    def quick(self, unit_id: BattleUnitId) -> bool:
        """The quick attack form (one page) with the unit as attacker, when it may attack."""
        return self._may_attack(unit_id) and self.host.open_quick(unit_id)

    def counterstrike(self, unit_id: BattleUnitId, target: BattleUnitId) -> bool:
        """A Counterstrike on ``target`` (5.2 Counters and Actions): the quick attack form on
        it, a Close Combat Strike paid with a Counter, so that its dice and result are
        recorded with the Counter spent, in one undo step."""
        view = self._view(unit_id)
        if view is None:
            return False
        why = refusal(view, [CounterUsed(unit_id, target, CounterUse.COUNTERSTRIKE)])
        if why is not None:
            self.host.show_error(why)
            return False
        self.host.select_unit(unit_id)
        return self.host.open_quick(unit_id, target, Use.COUNTER)

    def _may_attack(self, unit_id: BattleUnitId) -> bool:
        """Whether the unit may attack at all; if not, the reason is shown."""
        view = self._view(unit_id)
        if view is None:
            return False
        why = attack_refusal(view, unit_id)
        if why is not None:
            self.host.show_error(why)
            return False
        return True

    def other(self, unit_id: BattleUnitId, target: BattleUnitId | None = None) -> bool:
        """Spend the Action on something that is not an attack, with its Action Roll (4.2 Use
        Ratings: Use 3 by default) and the user's words (asked once it is legal)."""
        view = self._view(unit_id)
        if view is None:
            return False
        if target is None:
            targets = self._spend_target(view, unit_id, ActionUse.OTHER)
            if targets is None:
                return False
            target = targets[0]
        fighter = combat_context(view).fighter(unit_id)

        def done(note: str) -> None:
            self.commands.spend(unit_id, ActionUse.OTHER, target=target, note=note)

        ActionRollDialog.start(
            self.widget,
            view.setup.name(unit_id),
            fighter.action_die,
            view.setup.rules,
            done,
            can_go_over_the_top=fighter.over_the_top,
        )
        return True

    def fight(self, unit_id: BattleUnitId, target: BattleUnitId, maneuver: Maneuver) -> bool:
        """A Close Combat attack goes through the dice like any attack: the combat wizard on
        ``target`` with the ``maneuver``, once the rules allow it."""
        view = self._view(unit_id)
        if view is None:
            return False
        why = attack_refusal(view, unit_id)
        if why is not None:
            self.host.show_error(why)
            return False
        return self.host.open_wizard(unit_id, target, maneuver)

    def fight_pick(self, unit_id: BattleUnitId, maneuver: Maneuver) -> bool:
        """A Close Combat attack (through the dice) on a target picked among those the rules
        allow."""
        target = self._fight_target(unit_id, maneuver)
        return target is not None and self.fight(unit_id, target, maneuver)

    def fight_at_table(self, unit_id: BattleUnitId, maneuver: Maneuver) -> bool:
        """A Close Combat attack the players resolved at the table with their own dice: the
        target and the outcome are asked, and recorded as resolved at the table."""
        target = self._fight_target(unit_id, maneuver)
        view = self.host.view
        if target is None or view is None:
            return False
        outcome = OutcomeAsker.ask(
            self.widget,
            f"{view.setup.name(unit_id)} — {maneuver.label}",
            view.setup.name(target),
        )
        if outcome is None:
            return False
        return self.commands.close_combat_attack(unit_id, target, maneuver, outcome=outcome)

    def _fight_target(self, unit_id: BattleUnitId, maneuver: Maneuver) -> BattleUnitId | None:
        view = self._view(unit_id)
        if view is None:
            return None
        allowed, why = fight_targets(view, unit_id, maneuver)
        return self._pick(view, allowed, why, f"{maneuver.label}: on whom?", ask_one=True)

    def join_close_combat(self, unit_id: BattleUnitId) -> bool:
        view = self._view(unit_id)
        if view is None:
            return False
        allowed, why = join_targets(view, unit_id)
        target = self._pick(view, allowed, why, "In Close Combat with whom?", ask_one=True)
        return target is not None and self.commands.set_status(
            unit_id, Status.IN_CLOSE_COMBAT, (target,)
        )

    def disengage(self, unit_id: BattleUnitId) -> bool:
        """Act > Disengage (5.2): leave the whole Close Combat on its own turn; then say who
        may make one Counterstrike on the fleeing unit (2020) with the Counter menu."""
        view = self._view(unit_id)
        if view is None:
            return False
        why = disengage_refusal(view.setup, view.state, unit_id)
        if why is not None:
            self.host.show_error(why)
            return False
        if not self.commands.record([disengage(unit_id)]):
            return False
        after = self.host.view
        strikers = () if after is None else disengage_counterstrikers(after.state, unit_id)
        if strikers and after is not None:
            names = ", ".join(after.setup.name(o) for o in strikers)
            self.host.show_info(
                f"{after.setup.name(unit_id)} Disengages: {names} may each make one "
                "Counterstrike first (5.2 Disengaging): select one, C for its Counter menu, "
                "or A to roll it in the wizard."
            )
        return True

    # The edition's turn rules (chapter 4): ``rules_commands`` asks and records.

    def long_action(self, unit_id: BattleUnitId) -> bool:
        """A full-turn or extended Action (4.2), asked per the battle's edition."""
        return rules_commands.start_long_action(self.commands, unit_id)

    def who_acts_first(self, unit_id: BattleUnitId, active: BattleUnitId) -> bool:
        """Who acts first, ``unit_id`` responding to ``active`` (4.3)."""
        return rules_commands.settle_who_first(self.commands, unit_id, active)

    def sprint(self, unit_id: BattleUnitId) -> bool:
        """The Sprint dialog (4.1) when the rules allow a Sprint now."""
        return rules_commands.sprint(self.commands, unit_id)

    # -- the keys: on the current unit ------------------------------------------------------

    def attack_current(self) -> None:
        unit = self.host.current_unit()
        if unit is not None:
            self.attack(unit)

    def quick_current(self) -> None:
        unit = self.host.current_unit()
        if unit is not None:
            self.quick(unit)

    def sprint_current(self) -> None:
        unit = self.host.current_unit()
        if unit is not None:
            self.sprint(unit)

    def bail_current(self) -> None:
        self._spend_current(ActionUse.BAIL)

    def bail_over_the_top_current(self) -> None:
        self._spend_current(ActionUse.BAIL, over_the_top=True)

    def parry_current(self) -> None:
        self._spend_current(ActionUse.PARRY)

    def other_current(self) -> None:
        unit = self.host.current_unit()
        if unit is not None:
            self.other(unit)

    def fight_current(self) -> None:
        unit = self.host.current_unit()
        if unit is not None:
            self.fight_pick(unit, Maneuver.STRIKE)

    def counter_current(self) -> None:
        """C: the Counter menu, when the unit may use a Counter."""
        unit = self.host.current_unit()
        view = self._view(unit) if unit is not None else None
        if unit is None or view is None or self.menus is None:
            return
        why = counter_refusal(view, unit)
        if why is not None:
            self.host.show_error(why)
            return
        self.menus.popup_counter()

    def respond_current(self) -> None:
        """R: the Respond menu, when the unit may respond now (4.3)."""
        unit = self.host.current_unit()
        view = self._view(unit) if unit is not None else None
        if unit is None or view is None or self.menus is None:
            return
        state = view.state
        name = view.setup.name(unit)
        if is_own_turn(state, unit):
            ready = state.unit(unit).action is ActionState.READY
            self.host.show_error(
                f"It is {name}'s own turn: R is for responding on another player's turn; "
                + (
                    "it acts now, or its Action is saved for a response when the turn ends (4.3)."
                    if ready
                    else "it has spent its Action."
                )
            )
            return
        why = why_not_respond(state, unit)
        if why is not None:
            self.host.show_error(why)
            return
        self.menus.popup_act()

    def status_current(self) -> None:
        if self.menus is not None and self.host.current_unit() is not None:
            self.menus.popup_status()

    # -- helpers ----------------------------------------------------------------------------

    def _view(self, unit_id: BattleUnitId) -> BattleView | None:
        view = self.host.view
        if view is None:
            return None
        self.host.select_unit(unit_id)
        return view

    def _spend_current(self, how: ActionUse, *, over_the_top: bool = False) -> None:
        unit = self.host.current_unit()
        view = self._view(unit) if unit is not None else None
        if unit is None or view is None:
            return
        targets = self._spend_target(view, unit, how, over_the_top=over_the_top)
        if targets is not None:
            self.commands.spend(unit, how, target=targets[0], over_the_top=over_the_top)

    def _spend_target(
        self, view: BattleView, unit_id: BattleUnitId, how: ActionUse, *, over_the_top: bool = False
    ) -> list[BattleUnitId | None] | None:
        """``[target]`` for spending the Action this way (``[None]``: no target needed; a
        response from Close Combat names its opponent, asked when there are several), or
        ``None`` after showing why it cannot."""
        allowed, why = spend_targets(view, unit_id, how, over_the_top=over_the_top)
        if not allowed:
            self.host.show_error(why if why is not None else "Not possible now.")
            return None
        if allowed == [None]:
            return [None]
        picked = self._pick(view, [t for t in allowed if t is not None], None, "Respond to whom?")
        return None if picked is None else [picked]

    def _pick(
        self,
        view: BattleView,
        allowed: list[BattleUnitId],
        why: UserError | None,
        prompt: str,
        *,
        ask_one: bool = False,
    ) -> BattleUnitId | None:
        """One of ``allowed`` (asked when there are several, or ``ask_one``: a target to
        confirm), or ``None`` after showing ``why`` there is none."""
        if not allowed:
            self.host.show_error(why if why is not None else "Nobody can be picked now.")
            return None
        if len(allowed) == 1 and not ask_one:
            return allowed[0]
        return UnitPicker.ask(
            self.widget, "Pick a unit", prompt, [(i, view.setup.label(i)) for i in allowed]
        )
