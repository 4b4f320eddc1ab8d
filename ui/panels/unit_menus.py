"""What a unit can do, as menus: act or respond, use a Counter, set or clear a status.

The menus are filled when they open, from the battle as it stands (``BattleView``); each entry
calls one of the panel's unit actions (:class:`UnitActions`), which records it. An entry the
rules refuse now is disabled, the reason as its tooltip (``ui.panels.legal`` asks the rules);
Attack opens the combat wizard; an Action left unspent is saved for a response by itself
(4.3), so there is nothing to hold.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from brikdesk.domain.battle import (
    MAX_CLOSE_COMBAT_ATTACKERS,
    READINGS,
    ActionUse,
    CounterUse,
    CounterUsed,
    LongActionStarted,
    Maneuver,
    Status,
    StatusCleared,
    StatusSet,
    UnitKilled,
    close_combat_attack,
    disengage_refusal,
    engagement,
    is_own_turn,
    spend_action,
    why_not_respond,
)
from brikdesk.domain.battle.busy import busy_text
from brikdesk.domain.ids import BattleUnitId
from brikdesk.errors import UserError
from brikdesk.services.tracker import BattleView
from ui.panels.battle_commands import BattleCommands
from ui.panels.legal import (
    TRIAL_NOTE,
    attack_refusal,
    fight_targets,
    join_targets,
    opponents,
    reason,
    refusal,
    spend_refusal,
)

#: Statuses set and cleared by a plain toggle (the ones naming other units have their own
#: entries).
TOGGLES = (Status.HALF_SPEED, Status.STOPPED, Status.DISRUPTED, Status.MOM, Status.OUT)

#: 4.3 Enemy Response, in every edition: "If a minifig doesn't spend his Action on his own
#: turn, he can save it to use in response". Nothing to press: End Turn saves it.
SAVED_NOTE = "Not spent this turn: the Action is saved for a response (4.3)"

#: The Act menu: how, label, key, Over the Top.
USES = (
    (ActionUse.ATTACK, "&Attack", "A", False),
    (ActionUse.SPRINT, "&Sprint", "S", False),
    (ActionUse.BAIL, "&Bail (ends Disrupted)", "B", False),
    (ActionUse.BAIL, "Bail, &Over the Top (lands on its feet)", "Shift+B", True),
    (ActionUse.PARRY, "&Parry", "P", False),
    (ActionUse.OTHER, "O&ther…", "O", False),
)


class UnitActions(Protocol):
    """What the menus call (the panel's checked moves, ``ui.panels.unit_moves``)."""

    #: What records (``BattleCommands``): spend an Action, use a Counter, set a status.
    commands: BattleCommands

    def attack(self, unit_id: BattleUnitId) -> bool: ...

    def quick(self, unit_id: BattleUnitId) -> bool: ...

    def counterstrike(self, unit_id: BattleUnitId, target: BattleUnitId) -> bool: ...

    def other(self, unit_id: BattleUnitId, target: BattleUnitId | None = None) -> bool: ...

    def fight(self, unit_id: BattleUnitId, target: BattleUnitId, maneuver: Maneuver) -> bool: ...

    def fight_pick(self, unit_id: BattleUnitId, maneuver: Maneuver) -> bool: ...

    def fight_at_table(self, unit_id: BattleUnitId, maneuver: Maneuver) -> bool: ...

    def join_close_combat(self, unit_id: BattleUnitId) -> bool: ...

    def disengage(self, unit_id: BattleUnitId) -> bool: ...

    def long_action(self, unit_id: BattleUnitId) -> bool: ...

    def who_acts_first(self, unit_id: BattleUnitId, active: BattleUnitId) -> bool: ...

    def sprint(self, unit_id: BattleUnitId) -> bool: ...


def bind(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Callable[..., None]:
    """A slot for ``triggered(bool)`` that calls ``fn(*args, **kwargs)``."""

    def slot(*_ignored: object) -> None:
        fn(*args, **kwargs)

    return slot


def allow(action: QAction, why: UserError | str | None, tip: str = "") -> QAction:
    """Enable ``action`` when ``why`` is ``None``; else disable it, the reason as its tooltip
    (what the rules refuse is not offered, and says why)."""
    action.setEnabled(why is None)
    if why is not None:
        action.setToolTip(reason(why) if isinstance(why, UserError) else why)
    elif tip:
        action.setToolTip(tip)
    return action


def fill_act(menu: QMenu, view: BattleView, unit_id: BattleUnitId, act: UnitActions) -> None:
    """Spend the Action on the unit's own turn; respond (4.3) off it. Each entry is enabled
    only when the rules allow it now, its tooltip saying why not otherwise."""
    state = view.state
    u = state.unit(unit_id)
    own = is_own_turn(state, unit_id)
    name = view.setup.name(unit_id)
    menu.setToolTipsVisible(True)
    if own:
        menu.addSection(f"{name}: spend the Action")
    else:
        why = why_not_respond(state, unit_id)
        menu.addSection(f"{name}: respond" + (" (cannot now)" if why else ""))
        if why:
            menu.addAction(why).setEnabled(False)
    others = opponents(view, unit_id)
    allow(
        menu.addAction("&Attack… (combat wizard)\tA"),
        attack_refusal(view, unit_id),
        "Open the combat wizard with this unit as attacker"
        + ("" if own else ", in response (4.3)"),
    ).triggered.connect(bind(act.attack, unit_id))
    allow(
        menu.addAction("&Quick attack… (one page)\tQ"),
        attack_refusal(view, unit_id),
        "The common attack on one page: target, range, dice, Enter records",
    ).triggered.connect(bind(act.quick, unit_id))
    for how, label, key, ott in USES:
        if how is ActionUse.ATTACK or (how is ActionUse.SPRINT and not own):
            continue
        if ott and not view.setup.rules.has_over_the_top:
            continue  # 2005 has no Over the Top: not a choice its battles ever have
        if ott:  # the edition's words for it (2010: Overskill)
            label = label.replace("&Over the Top", "&" + view.setup.rules.over_the_top)
        if not own and u.close_combat and others:
            sub = menu.addMenu(label.replace("…", "") + " in response to")
            sub.setToolTipsVisible(True)
            for other in others:
                entry = sub.addAction(view.setup.label(other))
                allow(
                    entry,
                    refusal(
                        view,
                        [
                            spend_action(
                                state, unit_id, how, target=other, over_the_top=ott, note=TRIAL_NOTE
                            )
                        ],
                    ),
                )
                entry.triggered.connect(
                    bind(act.other, unit_id, other)
                    if how is ActionUse.OTHER
                    else bind(act.commands.spend, unit_id, how, target=other, over_the_top=ott)
                )
            continue
        a = allow(
            menu.addAction(f"{label}\t{key}"), spend_refusal(view, unit_id, how, over_the_top=ott)
        )
        if how is ActionUse.OTHER:
            a.triggered.connect(bind(act.other, unit_id))
        elif how is ActionUse.SPRINT:  # the Sprint dialog rolls it (4.1)
            a.triggered.connect(bind(act.sprint, unit_id))
        else:
            a.triggered.connect(bind(act.commands.spend, unit_id, how, over_the_top=ott))
    if own:
        saved = menu.addAction(SAVED_NOTE)
        saved.setObjectName("savedNote")
        saved.setEnabled(False)
    fight = menu.addMenu("&Close Combat attack" + ("" if own else " in response"))
    fight.setToolTipsVisible(True)
    fight.setToolTip(
        f"At most {MAX_CLOSE_COMBAT_ATTACKERS} Close Combat attackers on one "
        f"minifig per player turn (5.1); {u.counters_left} hands left"
    )
    for maneuver in Maneuver:
        sub = fight.addMenu(maneuver.label)
        sub.setToolTipsVisible(True)
        for other in others:
            allow(
                sub.addAction(view.setup.label(other)),
                refusal(view, [close_combat_attack(state, unit_id, other, maneuver=maneuver)]),
            ).triggered.connect(bind(act.fight, unit_id, other, maneuver))
        if others:
            sub.addSeparator()
        elsewhere, refused = fight_targets(view, unit_id, maneuver, first_only=True, exclude=others)
        pick = allow(
            sub.addAction("Someone else…" if others else "Pick the target…"),
            None if elsewhere else refused or "Nobody else can be attacked now.",
        )
        pick.triggered.connect(bind(act.fight_pick, unit_id, maneuver))
        sub.addSeparator()
        table = allow(
            sub.addAction("Resolved at the table…"),
            None if others or elsewhere else refused or "Nobody can be attacked now.",
            "The players rolled it with their own dice: name the target and what happened; "
            "the log records it as resolved at the table",
        )
        table.setObjectName("resolvedAtTable")
        table.triggered.connect(bind(act.fight_at_table, unit_id, maneuver))
    add_disengage(menu, view, unit_id, act)
    add_edition_entries(menu, view, unit_id, act)


def add_disengage(menu: QMenu, view: BattleView, unit_id: BattleUnitId, act: UnitActions) -> None:
    """Disengage from Close Combat, as the battle's edition has it (5.2 Disengaging in 2020:
    the opponents left may each make one Counterstrike first; 2005 and 2010 have no such
    rule in their texts, so the unit simply leaves; rule-set field disengage_counterstrikes)."""
    rules = view.setup.rules
    if rules.disengage_counterstrikes:
        text, tip = (
            "&Disengage from Close Combat",
            "5.2 Disengaging: up to three opponents of its brawl may first make one "
            "Counterstrike each; its Action stays free unless it Parries or Bails",
        )
    else:
        text, tip = (
            "Lea&ve Close Combat",
            f"{rules.name}: the rules texts have no Disengage maneuver; the unit leaves "
            "Close Combat with no free Counterstrikes (a held Action may still respond, 4.3)",
        )
    a = allow(menu.addAction(text), disengage_refusal(view.setup, view.state, unit_id), tip)
    a.setObjectName("disengageEntry")
    a.triggered.connect(bind(act.disengage, unit_id))


def add_edition_entries(
    menu: QMenu, view: BattleView, unit_id: BattleUnitId, act: UnitActions
) -> None:
    """The Act menu's entries that follow the battle's edition: a long Action on the unit's own
    turn (4.2), Who Acts First off it (4.3); a Busy unit's entries are disabled with why."""
    state = view.state
    rules = view.setup.rules
    menu.setToolTipsVisible(True)
    if is_own_turn(state, unit_id):
        a = allow(
            menu.addAction("&Long action…"),
            refusal(view, [LongActionStarted(unit_id, TRIAL_NOTE)]),
            f"{rules.full_turn_action[:1].upper()}{rules.full_turn_action[1:]}, or "
            f"{rules.extended_action} ({rules.name}, 4.2)",
        )
        a.setObjectName("longActionEntry")
        a.triggered.connect(bind(act.long_action, unit_id))
    else:
        near = set(opponents(view, unit_id))
        # The active player's units: its opponents in Close Combat first.
        acting = sorted(
            (u.unit_id for u in state.units if u.player_id == state.active and u.in_battle),
            key=lambda i: i not in near,
        )
        sub = menu.addMenu("Who acts &first against")
        sub.setObjectName("whoFirstMenu")
        sub.setToolTipsVisible(True)
        sub.setToolTip(f"A response meets an Action: who goes first under {rules.name} (4.3)")
        for other in acting:
            sub.addAction(view.setup.label(other)).triggered.connect(
                bind(act.who_acts_first, unit_id, other)
            )
        if not acting:
            sub.addAction("Nobody is acting").setEnabled(False)
    disable_when_busy(menu, view, unit_id)


def disable_when_busy(menu: QMenu, view: BattleView, unit_id: BattleUnitId) -> None:
    """A Busy unit can neither act nor respond (4.2): every entry disabled, the reason shown."""
    state = view.state
    if not state.unit(unit_id).busy:
        return
    why = why_not_respond(state, unit_id) if not is_own_turn(state, unit_id) else None
    because = why or busy_text(state, unit_id) + " (4.2 Long Actions)"
    entries = [a for a in menu.actions() if not a.isSeparator()]
    for a in entries:
        a.setEnabled(False)
        a.setToolTip(because)
    if why is None:  # off its turn the menu already says why it cannot respond
        note = QAction(because, menu)
        note.setObjectName("busyReason")
        note.setEnabled(False)
        if entries:
            menu.insertAction(entries[0], note)
        else:
            menu.addAction(note)


def fill_counter(menu: QMenu, view: BattleView, unit_id: BattleUnitId, act: UnitActions) -> None:
    """Counterstrike or Parry one of the unit's opponents (5.2)."""
    u = view.state.unit(unit_id)
    others = opponents(view, unit_id)
    menu.setToolTipsVisible(True)
    if not others:
        menu.addAction("Not in Close Combat: no Counters (5.2)").setEnabled(False)
        return
    menu.addAction(f"{u.counters_left} of {u.counters} Counters left this turn").setEnabled(False)
    for other in others:
        label = view.setup.label(other)
        for how in (CounterUse.COUNTERSTRIKE, CounterUse.PARRY):
            entry = allow(
                menu.addAction(f"{how.label} {label}…" if how.attacks else f"{how.label} {label}"),
                refusal(view, [CounterUsed(unit_id, other, how)]),
            )
            if how.attacks:  # through the dice: the quick form on it, paid with the Counter
                entry.triggered.connect(bind(act.counterstrike, unit_id, other))
            else:
                entry.triggered.connect(bind(act.commands.use_counter, unit_id, other, how))
    menu.addSeparator()
    note = menu.addAction(READINGS["hands"][:90] + "…")
    note.setEnabled(False)
    note.setToolTip(READINGS["hands"])


def fill_status(menu: QMenu, view: BattleView, unit_id: BattleUnitId, act: UnitActions) -> None:
    """Toggle statuses, kill or revive, engage, disengage, grab and release; what the rules
    refuse now is disabled with the reason."""
    state = view.state
    u = state.unit(unit_id)
    setup = view.setup
    menu.setToolTipsVisible(True)

    def entry(
        text: str, on: bool, status: Status, others: tuple[BattleUnitId, ...] = ()
    ) -> QAction:
        """``on``: the entry clears ``status`` (else it sets it)."""
        event = (
            StatusCleared(unit_id, status, others)
            if on
            else UnitKilled(unit_id)
            if status is Status.DEAD
            else StatusSet(unit_id, status, others)
        )
        a = allow(menu.addAction(text), refusal(view, [event]))
        a.triggered.connect(
            bind(
                act.commands.clear_status if on else act.commands.set_status,
                unit_id,
                status,
                others,
            )
        )
        return a

    for status in TOGGLES:
        on = status in u.statuses
        a = entry(status.label, on, status)
        a.setCheckable(True)
        a.setChecked(on)
    if u.busy:  # clearing it ends the long Action early (4.2)
        a = entry(busy_text(state, unit_id) + " — clear to end it early", True, Status.BUSY)
        a.setObjectName("clearBusyEntry")
        a.setCheckable(True)
        a.setChecked(True)
    if u.recovering:
        a = entry("Recovering (Half Speed this turn)", True, Status.RECOVERING)
        a.setCheckable(True)
        a.setChecked(True)
    menu.addSeparator()
    if u.dead:
        entry("Dead: bring back to life", True, Status.DEAD)
    else:
        entry("&Killed", False, Status.DEAD)
    menu.addSeparator()
    allow(
        menu.addAction("Put in Close Combat with…"), join_targets(view, unit_id, first_only=True)[1]
    ).triggered.connect(bind(act.join_close_combat, unit_id))
    for o in sorted(u.close_combat):
        entry(f"Disengage from {setup.label(o)}", True, Status.IN_CLOSE_COMBAT, (o,))
    for o in sorted(engagement(state, unit_id) - {unit_id} - u.grabbing):
        entry(f"Grabs {setup.label(o)}", False, Status.GRABBING, (o,))
    for o in sorted(u.grabbing):
        entry(f"Releases {setup.label(o)}", True, Status.GRABBING, (o,))
    for o in sorted(u.grabbed_by):
        entry(f"Breaks free of {setup.label(o)}", True, Status.GRABBED, (o,))
