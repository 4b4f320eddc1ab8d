"""What a unit can do, as menus: act or respond, use a Counter, set or clear a status.

The menus are filled when they open, from the battle as it stands (``BattleView``); each entry
calls one of the panel's unit actions (:class:`UnitActions`), which records it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from PySide6.QtWidgets import QMenu

from brikdesk.domain.battle import (
    MAX_CLOSE_COMBAT_ATTACKERS,
    ActionUse,
    CounterUse,
    Maneuver,
    Status,
    engagement,
    is_own_turn,
    why_not_respond,
)
from brikdesk.domain.battle.rules import READINGS
from brikdesk.domain.ids import BattleUnitId
from brikdesk.services.tracker import BattleView

#: Statuses set and cleared by a plain toggle (the ones naming other units have their own
#: entries).
TOGGLES = (Status.HALF_SPEED, Status.STOPPED, Status.DISRUPTED, Status.MOM, Status.OUT)

#: The Act menu: how, label, key, Over the Top.
USES = ((ActionUse.ATTACK, "&Attack", "A", False),
        (ActionUse.SPRINT, "&Sprint", "S", False),
        (ActionUse.BAIL, "&Bail (ends Disrupted)", "B", False),
        (ActionUse.BAIL, "Bail, &Over the Top (lands on its feet)", "Shift+B", True),
        (ActionUse.PARRY, "&Parry", "P", False),
        (ActionUse.OTHER, "O&ther…", "O", False))


class UnitActions(Protocol):
    """What the menus call (the battle panel)."""

    def spend(self, unit_id: BattleUnitId, how: ActionUse, *, target: BattleUnitId | None = None,
              over_the_top: bool = False, note: str = "") -> bool: ...

    def close_combat_attack(self, unit_id: BattleUnitId, target: BattleUnitId,
                            maneuver: Maneuver = Maneuver.STRIKE, hands: int = 1) -> bool: ...

    def use_counter(self, unit_id: BattleUnitId, target: BattleUnitId,
                    how: CounterUse = CounterUse.COUNTERSTRIKE) -> bool: ...

    def set_status(self, unit_id: BattleUnitId, status: Status, with_ids: Sequence[BattleUnitId] = ()) -> bool: ...

    def clear_status(self, unit_id: BattleUnitId, status: Status,
                     with_ids: Sequence[BattleUnitId] = ()) -> bool: ...

    def other(self, unit_id: BattleUnitId) -> None: ...

    def fight_pick(self, unit_id: BattleUnitId, maneuver: Maneuver) -> None: ...

    def join_close_combat(self, unit_id: BattleUnitId) -> None: ...


def bind(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Callable[..., None]:
    """A slot for ``triggered(bool)`` that calls ``fn(*args, **kwargs)``."""

    def slot(*_ignored: object) -> None:
        fn(*args, **kwargs)

    return slot


def opponents(view: BattleView, unit_id: BattleUnitId) -> list[BattleUnitId]:
    """The units ``unit_id`` is in Close Combat with (directly or through its engagement)."""
    return sorted(engagement(view.state, unit_id) - {unit_id})


def fill_act(menu: QMenu, view: BattleView, unit_id: BattleUnitId, act: UnitActions) -> None:
    """Spend the Action on the unit's own turn; respond (4.3) off it."""
    state = view.state
    u = state.unit(unit_id)
    own = is_own_turn(state, unit_id)
    name = view.setup.unit(unit_id).name
    if own:
        menu.addSection(f"{name}: spend the Action")
    else:
        why = why_not_respond(state, unit_id)
        menu.addSection(f"{name}: respond" + (" (cannot now)" if why else ""))
        if why:
            menu.addAction(why).setEnabled(False)
    others = opponents(view, unit_id)
    for how, label, key, ott in USES:
        if how is ActionUse.SPRINT and not own:
            continue
        if not own and u.close_combat and others:
            sub = menu.addMenu(label.replace("…", "") + " in response to")
            for other in others:
                sub.addAction(view.setup.label(other)).triggered.connect(
                    bind(act.spend, unit_id, how, target=other, over_the_top=ott))
            continue
        a = menu.addAction(f"{label}\t{key}")
        if how is ActionUse.OTHER:
            a.triggered.connect(bind(act.other, unit_id))
        else:
            a.triggered.connect(bind(act.spend, unit_id, how, over_the_top=ott))
    fight = menu.addMenu("&Close Combat attack" + ("" if own else " in response"))
    for maneuver in Maneuver:
        sub = fight.addMenu(maneuver.label)
        for other in others:
            sub.addAction(view.setup.label(other)).triggered.connect(
                bind(act.close_combat_attack, unit_id, other, maneuver))
        if others:
            sub.addSeparator()
        pick = sub.addAction("Someone else…" if others else "Pick the target…")
        pick.triggered.connect(bind(act.fight_pick, unit_id, maneuver))
    fight.setToolTipsVisible(True)
    fight.setToolTip(f"At most {MAX_CLOSE_COMBAT_ATTACKERS} Close Combat attackers on one "
                     f"minifig per player turn (5.1); {u.counters_left} hands left")


def fill_counter(menu: QMenu, view: BattleView, unit_id: BattleUnitId, act: UnitActions) -> None:
    """Counterstrike or Parry one of the unit's opponents (5.2)."""
    u = view.state.unit(unit_id)
    others = opponents(view, unit_id)
    menu.setToolTipsVisible(True)
    if not others:
        menu.addAction("Not in Close Combat: no Counters (5.2)").setEnabled(False)
        return
    menu.addAction(f"{u.counters_left} of {u.counters} Counters left this turn").setEnabled(
        False)
    for other in others:
        label = view.setup.label(other)
        menu.addAction(f"Counterstrike {label}").triggered.connect(
            bind(act.use_counter, unit_id, other, CounterUse.COUNTERSTRIKE))
        menu.addAction(f"Parry {label}").triggered.connect(
            bind(act.use_counter, unit_id, other, CounterUse.PARRY))
    menu.addSeparator()
    note = menu.addAction(READINGS["hands"][:90] + "…")
    note.setEnabled(False)
    note.setToolTip(READINGS["hands"])


def fill_status(menu: QMenu, view: BattleView, unit_id: BattleUnitId, act: UnitActions) -> None:
    """Toggle statuses, kill or revive, engage, disengage, grab and release."""
    state = view.state
    u = state.unit(unit_id)
    setup = view.setup
    for status in TOGGLES:
        on = status in u.statuses
        a = menu.addAction(status.label)
        a.setCheckable(True)
        a.setChecked(on)
        a.triggered.connect(bind(act.clear_status if on else act.set_status, unit_id, status))
    if u.recovering:
        a = menu.addAction("Recovering (Half Speed this turn)")
        a.setCheckable(True)
        a.setChecked(True)
        a.triggered.connect(bind(act.clear_status, unit_id, Status.RECOVERING))
    menu.addSeparator()
    if u.dead:
        menu.addAction("Dead: bring back to life").triggered.connect(
            bind(act.clear_status, unit_id, Status.DEAD))
    else:
        menu.addAction("&Killed").triggered.connect(bind(act.set_status, unit_id, Status.DEAD))
    menu.addSeparator()
    menu.addAction("Put in Close Combat with…").triggered.connect(
        bind(act.join_close_combat, unit_id))
    entries = ([(f"Disengage from {setup.label(o)}", act.clear_status, Status.IN_CLOSE_COMBAT,
                 o) for o in sorted(u.close_combat)]
               + [(f"Grabs {setup.label(o)}", act.set_status, Status.GRABBING, o)
                  for o in sorted(engagement(state, unit_id) - {unit_id} - u.grabbing)]
               + [(f"Releases {setup.label(o)}", act.clear_status, Status.GRABBING, o)
                  for o in sorted(u.grabbing)]
               + [(f"Breaks free of {setup.label(o)}", act.clear_status, Status.GRABBED, o)
                  for o in sorted(u.grabbed_by)])
    for text, fn, status, other in entries:
        menu.addAction(text).triggered.connect(bind(fn, unit_id, status, (other,)))
