"""Turn and response rules of a battle: ``apply(setup, state, event) -> state``.

The battle is an event log ("Battles are an event log", docs/conventions.md):
``initial_state(setup)`` and then one ``apply`` per event; ``replay(setup, events)`` does exactly
that, so the state after any sequence of events and undos is the replay of the events that remain.
``apply`` refuses what the rules forbid with a ``RuleViolation`` (a ``UserError``) naming the reason
and the section, and changes nothing.

The rules (2020 chapters 4 and 5):

- 4.2 Action: one Action per unit per turn; a spent Action recharges at the start of its
  owner's next turn.
- 4.3 Enemy Response: a unit that did not spend its Action on its own previous turn may spend it
  in response during another player's turn; a Sprint is never a response; a Bail is.
- 5.2 Close Combat: a unit in Close Combat has one Counter per weapon or empty hand on every
  player's turn, usable whether or not its Action is spent; using one spends it. No minifig is
  the target of more than three Close Combat attackers in one player's turn; a unit in Close
  Combat cannot respond to events outside it; the outnumbered side gets -1 on Action Rolls.
- 4.1 Disrupted: no movement, Action, Counter or Parry until its next turn, on which it moves at
  Half Speed; Stopped ends at the start of its next turn.

Readings where the rules are vague (each is in ``READINGS`` under the key in brackets, for the
interface to show and a group to overrule with a house rule):

1. [action_states] 4.2/4.3: the Action is Ready on its owner's turn; if the owner's turn ends
   with it unspent it is Held; a Held Action may be spent once in response during other
   players' turns (Spent in response); at the start of its owner's next turn every Action of
   that player is Ready again.
2. [first_round] 4.3: at the start of the battle the units of players who have not had a turn
   yet hold their Action and may respond (they spent nothing on a previous turn).
3. [hands] 5.2 Close Combat Engagement: "every minifig in Close Combat can use each of his hands
   once" per player turn, so Strikes, Grabs and Shoves on its own turn use the same hands as
   Counterstrikes and Parries; "Counters used" counts all of them.
4. [parry] 5.2 Parrying: a Parry needs no unspent Action, only an unused hand, and spends the
   Action if unspent, in or out of Close Combat (a Shield Parry of incoming Damage).
5. [counter_scope] 5.2 (the Hank and Butch example): a Counter may be used against any unit of
   the same Close Combat engagement, not only the one it was paired with; they are then in
   Close Combat with each other.
6. [counterstrike_limit] 5.2 Disengaging: a Counterstrike is a Close Combat attack, so it
   counts toward the target's three attackers; a Parry does not.
7. [attacker_limit] 5.1 Combined Attacks: the three-attacker limit counts distinct attackers per
   player turn and applies to minifigs only (units set up as not minifigs have no hard limit).
8. [response_in_close_combat] 5.2: a unit in Close Combat may respond only to a unit of its
   own Close Combat engagement (the units linked to it through Close Combat), so a response
   by it must name that unit.
9. [no_ranged_in_close_combat] 5.3: a unit in Close Combat cannot take part in a resolved
   Ranged attack.
10. [recovering] 4.1 Disrupted: a Disrupted unit recovers at the start of its owner's next
    turn and moves at Half Speed for that whole turn; back to full speed when that turn ends.
11. [stopped] 4.1 Stopped: Stopped ends at the start of the unit's own next turn; Half Speed
    set by hand (Heavy Armor, a heavy load) lasts until cleared by hand.
12. [stopped_no_sprint] 4.1: a Stopped unit's movement is over, so it may not Sprint or Bail;
    a Grabbed or Grabbing unit may not Sprint, Bail or Disengage (5.2 Grabbing).
13. [bail] 4.3 Bailing: a Bail leaves the Bailer Disrupted unless it went Over the Top.
14. [disrupted_grab] 5.2: a unit knocked off its feet (Disrupted) is out of any Grab (a Shove
    breaks a Grab).
15. [mom] 5.4 Momentum: MOM is kept when a turn ends (the runner may have used all his Move);
    it is lost when the unit is Stopped, Disrupted, killed or leaves the battle, and a Stopped,
    Disrupted, Grabbed or Grabbing unit cannot gain one.
16. [outnumbered] 5.1: fighters of allied players (same team) count together; a side is
    outnumbered when the rest of its Close Combat engagement has more fighters.
17. [dead] a killed unit leaves every Close Combat and Grab; dead and removed units cannot act
    or be attacked. Heroic Feats (a Disrupted Hero acting) are left to the organizer, who can
    clear Disrupted by hand.
18. [order] turn order is fixed for the battle; after the last player a new round begins.
19. [loadout] 4.1: a status the loadout gives (Heavy Armor's Half Speed) applies from the start.
20. [recovery_by_edition] 4.1: getting up from Disruption follows the campaign's edition
    (``BattleSetup.rules``): 2005 2" of Move, 2010/2020 Half Speed, 2010 Heavy Armor a turn.
21. [long_actions] 4.2: a full-turn or extended Action makes the unit Busy and Stopped.
22. [sprint_charge] 4.1: a Charge may follow a Sprint as part of the same Action.
23. [second_strike] 5.2: a second Strike on its own turn only at the same target.
24. [charge_single] 5.4: a single Strike and a single Counter in a Charge.
25. [counter_fleeing] 5.2: one Counterstrike per opponent on a Disengaging unit.
26. [parry_stops] 4.1: a Parry on its own turn ends the unit's movement.
27. [passer_by] 4.1: a response 'passing by' does not lock the target in unless he Parries.
28. [ranged_single_target] 5.3: Ranged attacks in a turn go against a single target.
29. [collision] 5.4: a Collision costs no Action, only the MOM.
30. [bail_over_the_top] 4.3 / 4.2: a Bail lands on its feet only by an Over the Top Benny:
    refused in 2005 (no Over the Top) and for units that never go Over the Top.
31. [brawl] 5.2 Counters and Actions (Hank and Butch): several fights side by side are one
    Close Combat (a brawl) only when the organizer says so: an attack that "joins the brawl of"
    a unit links its fight to that unit's, and the tracker then treats every member as in one
    Close Combat: a Counter may go at any opponent of the brawl, a unit in it responds only
    inside it, and outnumbering counts the whole brawl. A fighter who leaves Close Combat
    takes his joins with him.
32. [disengage_brawl] 5.2 Disengaging: "up to three of his opponents can immediately take an
    Angry Inch and make one Counterstrike": every opponent of his brawl, not only those he
    fought directly, in the 2020 edition (the three-attacker limit counts them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields
from typing import Any

from brikdesk.domain.battle.events import (
    ActionSpent,
    ActionUse,
    AttackResolved,
    BattleFinished,
    CloseCombatAttack,
    CounterUse,
    CounterUsed,
    Event,
    FirstToAct,
    LongActionStarted,
    Maneuver,
    StatusChange,
    StatusCleared,
    StatusSet,
    TurnEnded,
    UnitKilled,
    Use,
    WarningOverruled,
)
from brikdesk.domain.battle.model import (
    MAX_CLOSE_COMBAT_ATTACKERS,
    ActionState,
    BattleSetup,
    BattleState,
    Status,
    UnitState,
)
from brikdesk.domain.ids import BattleUnitId, PlayerId
from brikdesk.domain.modifiers import Modifier, Stat
from brikdesk.domain.rulesets import Recovery
from brikdesk.errors import UserError

READINGS: dict[str, str] = {
    "bail_over_the_top": (
        "4.3 Bailing / 4.2 Over the Top: a Bail lands on its feet (not Disrupted) only by "
        "spending an Over the Top Benny, so only a unit that can go Over the Top, in an "
        'edition that has it, may record one. 2005 has no Over the Top: "After Bailing, a '
        'unit is Disrupted" (4.3 Bailing Out, 2005). Incompetent units "can never roll high '
        'enough to go Over the Top" (4.2), and Cannon Fodder never goes Over the Top: their '
        "Bail ends Disrupted."
    ),
    "action_states": (
        "4.2 Action / 4.3 Enemy Response: the Action is Ready on its owner's turn; if the turn "
        "ends with it unspent it is Held; a Held Action may be spent once in response during "
        "other players' turns; at the start of the owner's next turn every Action of that "
        "player is Ready again."
    ),
    "first_round": (
        "4.3 Enemy Response: at the start of the battle, units of players who have not had a "
        "turn yet hold their Action and may respond."
    ),
    "hands": (
        "5.2 Close Combat Engagement: each hand is used once per player turn, so Strikes, Grabs "
        "and Shoves on the unit's own turn use the same hands as Counterstrikes and Parries; "
        "'Counters used' counts all of them."
    ),
    "parry": (
        "5.2 Parrying: a Parry needs no unspent Action, only an unused hand, and spends the "
        "Action if it was unspent, in or out of Close Combat."
    ),
    "counter_scope": (
        "5.2 Counters and Actions (Hank and Butch): a Counter may be used against any unit of "
        "the same Close Combat engagement; they are then in Close Combat with each other."
    ),
    "counterstrike_limit": (
        "5.2 Disengaging: a Counterstrike is a Close Combat attack and counts toward the "
        "target's three attackers; a Parry does not."
    ),
    "attacker_limit": (
        "5.1 Combined Attacks: at most three distinct Close Combat attackers on one minifig in "
        "one player turn; larger units have no hard limit."
    ),
    "response_in_close_combat": (
        "5.2 Close Combat: a unit in Close Combat may respond only to a unit of its own Close "
        "Combat engagement, and must name it."
    ),
    "no_ranged_in_close_combat": (
        "5.3 Ranged Combat: a unit in Close Combat cannot take part in a Ranged attack."
    ),
    "recovering": (
        "4.1 Disrupted: a Disrupted unit recovers at the start of its owner's next turn and "
        "moves at Half Speed for that whole turn, back to full speed when the turn ends."
    ),
    "stopped": (
        "4.1 Stopped: Stopped ends at the start of the unit's own next turn; Half Speed set by "
        "hand (Heavy Armor, a heavy load) lasts until cleared by hand."
    ),
    "stopped_no_sprint": (
        "4.1 / 5.2: a Stopped unit may not Sprint or Bail; a Grabbed or Grabbing unit may not "
        "Sprint, Bail or Disengage."
    ),
    "bail": "4.3 Bailing: a Bail leaves the Bailer Disrupted unless it went Over the Top.",
    "disrupted_grab": ("5.2 Grabbing: a unit knocked off its feet (Disrupted) is out of any Grab."),
    "mom": (
        "5.4 Momentum: MOM is kept when a turn ends; it is lost when the unit is Stopped, "
        "Disrupted, killed or leaves the battle; a Stopped, Disrupted, Grabbed or Grabbing "
        "unit cannot gain one."
    ),
    "outnumbered": (
        "5.1 Combined Attacks: allied players' fighters count together; a side is outnumbered "
        "when the rest of its Close Combat engagement has more fighters (-1 Action Rolls)."
    ),
    "dead": (
        "A killed unit leaves every Close Combat and Grab; dead and removed units cannot act or "
        "be attacked. Heroic Feats are left to the organizer, who can clear Disrupted by hand."
    ),
    "order": "Turn order is fixed for the battle; after the last player a new round begins.",
    "loadout": (
        "4.1 Impaired Movement: a status a unit's loadout gives (Heavy Armor: Half Speed) "
        "applies from the start of the battle and lasts until cleared by hand."
    ),
    "recovery_by_edition": (
        "4.1 Disrupted: the campaign's edition decides how a Disrupted unit gets up on its next "
        'turn: 2005 spends 2" of Move standing up; 2010 and 2020 move at Half Speed that '
        "turn; in 2010 a Heavy Armored minifig is Busy the whole turn getting up (the organizer "
        "clears Busy when someone helps)."
    ),
    "long_actions": (
        "4.2 Long Actions: a full-turn Action is started on the unit's own turn and spends its "
        "Action; it is Stopped and Busy until that turn ends. An extended Action of N turns "
        "also takes the Action and movement of its next N-1 own turns. A Busy unit cannot "
        "respond; the organizer can end it early by clearing Busy."
    ),
    "sprint_charge": (
        "4.1 Sprinting / 5.4 Charge: a Charge may follow a Sprint in the same turn without "
        "spending another Action; only one Charge, and not a Strike."
    ),
    "second_strike": (
        "5.2 Striking: on its own turn a unit that Struck with its Action uses its other hand "
        "(a Counter) only for a second Strike at the same target, or against a unit that "
        "attacked it in response; never after a Charge (5.4 a single Strike). The tracker "
        "warns that a second weapon must be in hand."
    ),
    "charge_single": (
        "5.4 Making the Attack: the Charged defender may use a single Counter against the "
        "charger in that player turn."
    ),
    "counter_fleeing": (
        "5.2 Disengaging (Hank and Butch): after a unit Disengages on its own turn, each "
        "opponent it left may make one Counterstrike on it (an Angry Inch), with or without "
        "an unspent Action; they are not in Close Combat again. The three-attacker limit "
        "still counts."
    ),
    "brawl": (
        "5.2 Counters and Actions (Hank and Butch): fights side by side are one Close Combat "
        "(a brawl) when the organizer says an attack 'joins the brawl of' a unit; then a "
        "Counter may go at any opponent in the brawl (Hank Counterattacks the Outlaw who "
        "fought Butch), a unit in it responds only inside it, and outnumbering counts the "
        "whole brawl. A fighter leaving Close Combat takes his joins with him; without a "
        "join the fights stay apart."
    ),
    "disengage_brawl": (
        '5.2 Disengaging (2020): "up to three of his opponents can immediately take an Angry '
        'Inch and make one Counterstrike": every opponent of the brawl he leaves, not only '
        "those he fought directly; the three-attacker limit counts them. 2005 and 2010: "
        "their Close Combat chapter is not among the rules texts, so leaving Close Combat "
        "gives no free Counterstrikes."
    ),
    "parry_stops": (
        "4.1 Movement: a unit that Parries on its own turn (a response Strike as it moves past) "
        "is Stopped, and in Close Combat with the attacker when the Parry names him."
    ),
    "passer_by": (
        "4.1 Movement: a response Strike marked 'passing by' on a unit in no Close Combat does "
        "not lock him in; a Parry or Counter against that attacker does. Unmarked responses "
        "engage as before (a brawl), and the tracker warns so the organizer can choose."
    ),
    "ranged_single_target": (
        "5.3 Ranged Combat: after a Ranged attack with its Action, a unit may fire again in the "
        "same turn at the same target (another Ranged weapon, the tracker warns), never at "
        "another target."
    ),
    "collision": (
        "5.4 Minifig Collisions: an attack recorded as a 'collision' costs no Action, only the "
        "MOM, whether or not it follows a missed Charge; the tracker warns when no MOM is "
        "recorded."
    ),
}


class RuleViolation(UserError):
    """The rules forbid this event; ``rule`` names the section (``"4.3 Enemy Response"``)."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(f"{message} ({rule})" if rule else message)
        self.reason = message
        self.rule = rule


# --- start, replay -------------------------------------------------------------------------


def initial_state(setup: BattleSetup) -> BattleState:
    """Round 1, first player active: its units Ready, all others Held (reading first_round).

    Statuses a unit's loadout gives (Heavy Armor's Half Speed, 4.1 "Walking in Heavy Armor:
    Half Speed") apply from the start (reading loadout)."""
    first = setup.players[0].player_id
    units = tuple(
        UnitState(
            unit_id=u.unit_id,
            player_id=u.player_id,
            action=ActionState.READY if u.player_id == first else ActionState.HELD,
            counters=u.counters,
            half_speed=Status.HALF_SPEED in u.start_statuses,
            stopped=Status.STOPPED in u.start_statuses,
        )
        for u in setup.units
    )
    return BattleState(setup=setup, round=1, active=first, units=units)


def replay(setup: BattleSetup, events: Iterable[Event]) -> BattleState:
    """The state the events lead to from the start of the battle."""
    state = initial_state(setup)
    for event in events:
        state = apply(setup, state, event)
    return state


def apply(setup: BattleSetup, state: BattleState, event: Event) -> BattleState:
    """The state after ``event``; raises ``RuleViolation`` (nothing changes) if it is illegal."""
    if state.finished:
        raise RuleViolation("The battle is over; nothing more can happen in it.")
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise UserError(f"Not a battle event: {event!r}")
    return handler(_Draft(setup, state), event)


def end_turn(setup: BattleSetup, state: BattleState) -> tuple[TurnEnded, BattleState]:
    """The event that ends the active player's turn, and the state after it."""
    event = TurnEnded(player=state.active, round=state.round)
    return event, apply(setup, state, event)


# --- query helpers for the panel -----------------------------------------------------------


def is_own_turn(state: BattleState, unit_id: BattleUnitId) -> bool:
    return state.unit(unit_id).player_id == state.active


def can_respond_now(state: BattleState, unit_id: BattleUnitId) -> bool:
    """Held Action, alive, on the table, not Disrupted, and not its owner's turn (4.3)."""
    u = state.unit(unit_id)
    return u.may_respond and u.player_id != state.active and not state.finished


def why_not_respond(state: BattleState, unit_id: BattleUnitId) -> str | None:
    """Why the unit cannot respond now, in plain words; ``None`` when it can."""
    u = state.unit(unit_id)
    name = state.setup.name(unit_id)
    if state.finished:
        return "The battle is over."
    if u.dead:
        return f"{name} is dead."
    if u.out:
        return f"{name} is out of the battle."
    if u.player_id == state.active:
        return f"It is {name}'s own turn: it acts, it does not respond."
    if u.disrupted:
        return f"{name} is Disrupted until its next turn (4.1)."
    if u.busy:
        return f"{name} is Busy {u.busy} (4.2 Long Actions)."
    if u.action is ActionState.SPENT_OWN_TURN:
        return f"{name} spent its Action on its own turn (4.3)."
    if u.action is ActionState.SPENT_RESPONSE:
        return f"{name} has already responded since its last turn (4.3)."
    return None


def close_combat_refusal(
    setup: BattleSetup,
    state: BattleState,
    actor: BattleUnitId,
    maneuver: Maneuver = Maneuver.STRIKE,
    *,
    as_response: bool,
    hands: int = 1,
) -> UserError | None:
    """Why ``actor`` can make no Close Combat attack (``maneuver``, ``hands``) now, whoever
    the target: the checks of a ``CloseCombatAttack`` that ask nothing of the target (the
    attacker alive, on the table and not Disrupted, 4.1; an Action, or a held Action in
    response, to pay with, 4.2/4.3; a hand free, 5.2), in the order the event makes them.
    ``None``: whether it may attack depends on the target (try the event itself). A refusal
    here refuses the event against every target with the same words, so a menu can say it
    once instead of trying each enemy in turn."""
    if state.finished:
        return RuleViolation("The battle is over; nothing more can happen in it.")
    d = _Draft(setup, state)
    try:
        u = d.get(actor)
        _check_can_act(d, u, f"make a {maneuver.label}")
        u = _pay_for_attack(d, u, as_response, maneuver.value, None, close=True)
        _use_hands(d, u, hands, spend=False)
    except UserError as exc:
        return exc
    return None


def disengage(unit_id: BattleUnitId) -> StatusCleared:
    """The event of the unit Disengaging from its whole Close Combat (5.2 Disengaging)."""
    return StatusCleared(unit_id, Status.IN_CLOSE_COMBAT)


def disengage_refusal(setup: BattleSetup, state: BattleState, unit_id: BattleUnitId) -> str | None:
    """Why the unit cannot Disengage now (``None``: it can). 5.2 Disengaging: "An active
    minifig who'd like to focus on something other than his Close Combat opponents can
    attempt to Disengage": on its own turn, in Close Combat, and not held in a Grab ("Neither
    minifig can move, Bail, Disengage ... until the Grab is released", 5.2 Grabbing)."""
    u = state.unit(unit_id)
    name = setup.name(unit_id)
    if not u.in_battle:
        return f"{name} is no longer in the battle."
    if not u.close_combat:
        return f"{name} is not in Close Combat."
    if not is_own_turn(state, unit_id):
        return f"{name} may Disengage only on its own turn, as the active combatant (5.2)."
    try:
        apply(setup, state, disengage(unit_id))
    except UserError as exc:
        return str(exc)
    return None


def brawl_opponents(state: BattleState, unit_id: BattleUnitId) -> tuple[BattleUnitId, ...]:
    """Whom the unit may fight in its Close Combat (reading brawl): every unit of its brawl
    but its own side's (a unit it is directly in Close Combat with always counts), then the
    units Disengaging from it this turn that it has not Counterstruck yet (5.2 Disengaging);
    in battle order."""
    me = state.unit(unit_id)
    group = engagement(state, unit_id)
    setup = state.setup
    side = setup.player(me.player_id).side
    out = []
    for u in state.units:
        uid = u.unit_id
        if uid == unit_id:
            continue
        if uid in group:
            if uid in me.close_combat or setup.player(u.player_id).side != side:
                out.append(uid)
        elif unit_id in u.disengaged_from and unit_id not in u.counterstruck_by and u.in_battle:
            out.append(uid)
    return tuple(out)


def disengage_counterstrikers(
    state: BattleState, unit_id: BattleUnitId
) -> tuple[BattleUnitId, ...]:
    """The opponents that may still make their one Counterstrike on the unit as it Disengages
    this turn (5.2 Disengaging; reading disengage_brawl), in battle order."""
    u = state.unit(unit_id)
    return tuple(
        o.unit_id
        for o in state.units
        if o.unit_id in u.disengaged_from
        and o.unit_id not in u.counterstruck_by
        and o.in_battle
        and not o.disrupted
        and o.counters_left > 0
    )


def in_close_combat(state: BattleState, unit_id: BattleUnitId) -> bool:
    return bool(state.unit(unit_id).close_combat)


def acted(state: BattleState, unit_id: BattleUnitId) -> bool:
    """Whether its Action is spent (on its own turn or in response)."""
    return state.unit(unit_id).action.spent


def engagement(state: BattleState, unit_id: BattleUnitId) -> frozenset[BattleUnitId]:
    """The unit's Close Combat engagement (its brawl): every unit linked to it through Close
    Combat or a join "joins the brawl of" (5.2; reading brawl), itself included (empty if it
    is not in Close Combat)."""
    start = state.unit(unit_id)
    if not start.close_combat:
        return frozenset()
    seen = {unit_id}
    todo = [unit_id]
    while todo:
        u = state.unit(todo.pop())
        for other in u.close_combat | u.brawl if u.brawl else u.close_combat:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return frozenset(seen)


def close_combat_sides(state: BattleState, unit_id: BattleUnitId) -> tuple[int, int]:
    """``(its side, its opponents)``: fighters in its engagement (5.1; reading outnumbered)."""
    group = engagement(state, unit_id)
    if not group:
        return 0, 0
    setup = state.setup
    side = setup.player(state.unit(unit_id).player_id).side
    ours = sum(1 for uid in group if setup.player(state.unit(uid).player_id).side == side)
    return ours, len(group) - ours


def outnumbered(state: BattleState, unit_id: BattleUnitId) -> bool:
    """Whether the unit's side of its Close Combat has fewer fighters than its opponents."""
    ours, theirs = close_combat_sides(state, unit_id)
    return ours < theirs


def outnumbered_modifier(state: BattleState, unit_id: BattleUnitId) -> Modifier | None:
    """``-1 Action Roll`` when outnumbered in Close Combat (5.1 Combined Attacks), else None."""
    ours, theirs = close_combat_sides(state, unit_id)
    if ours >= theirs:
        return None
    return Modifier(
        -1,
        Stat.ACTION,
        f"outnumbered in Close Combat, {ours} against {theirs}",
        "5.1 Combined Attacks",
    )


def automatic_hit_reasons(state: BattleState, unit_id: BattleUnitId) -> tuple[str, ...]:
    """Why Close Combat attacks on the unit hit automatically, if they do."""
    u = state.unit(unit_id)
    reasons = []
    if u.disrupted:
        reasons.append("Disrupted: attackers close enough to touch it hit automatically (4.1)")
    if u.grabbed_by or u.grabbing:
        reasons.append("in a Grab: Close Combat attacks on it are Automatic Hits (5.2 Grabbing)")
    return tuple(reasons)


def attackers_left(state: BattleState, unit_id: BattleUnitId) -> int | None:
    """How many more Close Combat attackers it may take this player turn; None = no limit."""
    if not state.setup.unit(unit_id).minifig:
        return None
    return max(0, MAX_CLOSE_COMBAT_ATTACKERS - len(state.unit(unit_id).attackers))


# --- event builders (derive "in response" from whose turn it is) ----------------------------


def spend_action(
    state: BattleState,
    unit_id: BattleUnitId,
    how: ActionUse,
    *,
    target: BattleUnitId | None = None,
    over_the_top: bool = False,
    note: str = "",
) -> ActionSpent:
    return ActionSpent(
        actor=unit_id,
        how=how,
        as_response=not is_own_turn(state, unit_id),
        target=target,
        over_the_top=over_the_top,
        note=note,
    )


def close_combat_attack(
    state: BattleState,
    unit_id: BattleUnitId,
    target: BattleUnitId,
    *,
    maneuver: Maneuver = Maneuver.STRIKE,
    hands: int = 1,
) -> CloseCombatAttack:
    return CloseCombatAttack(
        actor=unit_id,
        target=target,
        maneuver=maneuver,
        hands=hands,
        as_response=not is_own_turn(state, unit_id),
    )


def attack_use(state: BattleState, unit_id: BattleUnitId) -> Use:
    """``Use.ACTION`` on the unit's own turn, else ``Use.RESPONSE``."""
    return Use.ACTION if is_own_turn(state, unit_id) else Use.RESPONSE


# --- the machinery -------------------------------------------------------------------------


_UNIT_FIELDS = tuple(f.name for f in fields(UnitState))
_UNIT_FIELD_SET = frozenset(_UNIT_FIELDS)


def _evolve(unit: UnitState, **changes: object) -> UnitState:
    """``dataclasses.replace`` for ``UnitState``, five times as fast: it runs for every unit
    at each End Turn (500 units: 750 calls took 7 ms of the End Turn's frame). The new unit's
    fields are the old one's ``__dict__`` with ``changes`` over it."""
    if not _UNIT_FIELD_SET.issuperset(changes):
        raise TypeError(f"UnitState has no field {sorted(set(changes) - _UNIT_FIELD_SET)}")
    new = object.__new__(UnitState)
    values = new.__dict__
    values.update(unit.__dict__)
    values.update(changes)
    return new


class _Draft:
    """The units changed so far by one event; thrown away if the event is refused."""

    __slots__ = ("setup", "state", "changed")

    def __init__(self, setup: BattleSetup, state: BattleState) -> None:
        self.setup = setup
        self.state = state
        self.changed: dict[int, UnitState] = {}

    def get(self, unit_id: BattleUnitId | None) -> UnitState:
        if unit_id is None:
            raise UserError("This event needs a unit.")
        try:
            idx = self.setup.unit_index[unit_id]
        except KeyError:
            raise UserError(f"No unit {unit_id} in this battle.") from None
        return self.changed.get(idx) or self.state.units[idx]

    def put(self, unit: UnitState) -> None:
        self.changed[self.setup.unit_index[unit.unit_id]] = unit

    def name(self, unit_id: BattleUnitId) -> str:
        """The unit's name in a refusal, with its owner when another side has the name."""
        return self.setup.name(unit_id)

    def player_name(self, player_id: PlayerId) -> str:
        return self.setup.player(player_id).name

    def own_turn(self, u: UnitState) -> bool:
        return u.player_id == self.state.active

    def build(self) -> BattleState:
        if not self.changed:
            return self.state
        units = list(self.state.units)
        for idx, unit in self.changed.items():
            units[idx] = unit
        st = self.state
        return BattleState(
            setup=st.setup,
            round=st.round,
            active=st.active,
            units=tuple(units),
            finished=st.finished,
        )


def _check_can_act(d: _Draft, u: UnitState, doing: str = "act") -> None:
    if not (u.dead or u.out or u.disrupted):
        return
    name = d.name(u.unit_id)
    if u.dead:
        raise RuleViolation(f"{name} is dead and cannot {doing}.")
    if u.out:
        raise RuleViolation(f"{name} is out of the battle and cannot {doing}.")
    if u.disrupted:
        raise RuleViolation(
            f"{name} is Disrupted and cannot {doing} until its next turn.", "4.1 Disrupted"
        )


def _check_target(d: _Draft, actor: UnitState, target: UnitState) -> None:
    if actor.unit_id == target.unit_id:
        raise RuleViolation(f"{d.name(actor.unit_id)} cannot target itself.")
    if target.dead:
        raise RuleViolation(f"{d.name(target.unit_id)} is already dead.")
    if target.out:
        raise RuleViolation(f"{d.name(target.unit_id)} is out of the battle.")


def _check_turn(d: _Draft, u: UnitState, as_response: bool) -> None:
    own = d.own_turn(u)
    if own != as_response:
        return
    name = d.name(u.unit_id)
    active = d.player_name(d.state.active)
    if own and as_response:
        raise RuleViolation(
            f"It is {active}'s turn: {name} acts normally, not in response.", "4.3 Enemy Response"
        )
    if not own and not as_response:
        raise RuleViolation(
            f"It is {active}'s turn: {name} can only act in response.", "4.3 Enemy Response"
        )


def _spend_action(d: _Draft, u: UnitState, as_response: bool) -> UnitState:
    """Spend the unit's Action as its own turn's Action or as a response."""
    _check_turn(d, u, as_response)
    a = u.action
    if not as_response:
        if a is ActionState.READY:
            return _evolve(u, action=ActionState.SPENT_OWN_TURN)
        raise RuleViolation(
            f"{d.name(u.unit_id)} has already spent its Action this turn.", "4.2 Action"
        )
    if a is ActionState.HELD or a is ActionState.READY:
        return _evolve(u, action=ActionState.SPENT_RESPONSE)
    name = d.name(u.unit_id)
    if a is ActionState.SPENT_OWN_TURN:
        raise RuleViolation(
            f"{name} spent its Action on its own turn; it can respond only with an Action "
            "saved from its previous turn.",
            "4.3 Enemy Response",
        )
    raise RuleViolation(f"{name} has already responded since its last turn.", "4.3 Enemy Response")


def _spend_or_sprint_charge(d: _Draft, u: UnitState, as_response: bool, maneuver: str) -> UnitState:
    """Spend the Action, except for a Charge after a Sprint this turn: "Sprinting can be
    combined with a Charge attack (5.4: Charge!) as part of a single Action" (4.1)."""
    if (
        maneuver == Maneuver.CHARGE.value
        and u.sprinted
        and not as_response
        and d.own_turn(u)
        and u.action is ActionState.SPENT_OWN_TURN
    ):
        return _evolve(u, sprinted=False)
    return _spend_action(d, u, as_response)


def _use_hands(d: _Draft, u: UnitState, hands: int, spend: bool = True) -> UnitState:
    """Use ``hands`` of the unit's Counters this player turn (5.2); spends the Action if
    ``spend`` and it was unspent."""
    if hands < 0:
        raise UserError("A maneuver cannot use fewer than no hands.")
    if u.counters_used + hands > u.counters:
        raise RuleViolation(
            f"{d.name(u.unit_id)} has used {u.counters_used} of its {u.counters} Counters this "
            f"turn and has {u.counters_left} left, not {hands}.",
            "5.2 Counters and Actions",
        )
    action = u.action
    if spend:
        if action is ActionState.READY:
            action = ActionState.SPENT_OWN_TURN if d.own_turn(u) else ActionState.SPENT_RESPONSE
        elif action is ActionState.HELD:
            action = ActionState.SPENT_RESPONSE
    return _evolve(u, counters_used=u.counters_used + hands, action=action)


def _check_response_scope(d: _Draft, u: UnitState, target: BattleUnitId | None) -> None:
    """5.2: a unit in Close Combat cannot respond to events outside its Close Combat."""
    if d.own_turn(u) or not u.close_combat:
        return
    name = d.name(u.unit_id)
    if target is None:
        raise RuleViolation(
            f"{name} is in Close Combat: name the Close Combat opponent it responds to.",
            "5.2 Close Combat",
        )
    group = _engagement(d, u.unit_id)
    if target not in group:
        raise RuleViolation(
            f"{name} is in Close Combat and cannot respond to {d.name(target)}, who is outside it.",
            "5.2 Close Combat",
        )


def _engagement(d: _Draft, unit_id: BattleUnitId) -> set[BattleUnitId]:
    seen = {unit_id}
    todo = [unit_id]
    while todo:
        u = d.get(todo.pop())
        for other in u.close_combat | u.brawl if u.brawl else u.close_combat:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def _add_attacker(d: _Draft, attacker: BattleUnitId, target: UnitState) -> UnitState:
    if attacker in target.attackers:
        return target
    if d.setup.unit(target.unit_id).minifig and len(target.attackers) >= MAX_CLOSE_COMBAT_ATTACKERS:
        names = ", ".join(d.name(a) for a in target.attackers)
        raise RuleViolation(
            f"{d.name(target.unit_id)} already has three Close Combat attackers this turn "
            f"({names}); no minifig can be attacked by more than three in one player's turn.",
            "5.2 Close Combat",
        )
    return _evolve(target, attackers=target.attackers + (attacker,))


def _link(d: _Draft, a: BattleUnitId, b: BattleUnitId) -> None:
    ua, ub = d.get(a), d.get(b)
    if b not in ua.close_combat:
        d.put(_evolve(ua, close_combat=ua.close_combat | {b}))
    if a not in ub.close_combat:
        d.put(_evolve(ub, close_combat=ub.close_combat | {a}))


def _unlink(d: _Draft, a: BattleUnitId, b: BattleUnitId) -> None:
    ua, ub = d.get(a), d.get(b)
    d.put(_evolve(ua, close_combat=ua.close_combat - {b}))
    d.put(_evolve(ub, close_combat=ub.close_combat - {a}))
    for unit_id in (a, b):
        u = d.get(unit_id)
        if not u.close_combat and u.brawl:  # out of Close Combat: his joins go (reading brawl)
            for other in u.brawl:
                o = d.get(other)
                d.put(_evolve(o, brawl=o.brawl - {unit_id}))
            d.put(_evolve(d.get(unit_id), brawl=frozenset()))


def _join_brawl(d: _Draft, actor: BattleUnitId, brawl: BattleUnitId | None) -> None:
    """The organizer's "joins the brawl of ``brawl``" (5.2; reading brawl): the actor's fight
    and that unit's are one Close Combat from now on."""
    if brawl is None or brawl == actor:
        return
    if not d.get(actor).close_combat or brawl in _engagement(d, actor):
        return  # not locked in, or already one brawl
    u, b = d.get(actor), d.get(brawl)
    d.put(_evolve(u, brawl=u.brawl | {brawl}))
    d.put(_evolve(b, brawl=b.brawl | {actor}))


def _check_join(d: _Draft, brawl: BattleUnitId | None, passing_by: bool) -> None:
    """A brawl to join is one that was going on before the attack (5.2; reading brawl)."""
    if brawl is None:
        return
    if passing_by:
        raise UserError(
            "A response 'passing by' locks nobody in Close Combat, so it joins no brawl "
            "(4.1 Movement, 5.2 Close Combat)."
        )
    d.get(brawl)  # must exist
    b = d.state.unit(brawl)
    if not b.in_battle:
        raise RuleViolation(f"{d.name(brawl)} is no longer in the battle: no brawl to join.")
    if not b.close_combat:
        raise RuleViolation(
            f"{d.name(brawl)} is in no Close Combat: there is no brawl to join.",
            "5.2 Close Combat",
        )


def _grab(d: _Draft, grabber: BattleUnitId, grabbed: BattleUnitId) -> None:
    _link(d, grabber, grabbed)
    g, t = d.get(grabber), d.get(grabbed)
    d.put(_evolve(g, grabbing=g.grabbing | {grabbed}))
    d.put(_evolve(t, grabbed_by=t.grabbed_by | {grabber}, mom=False))


def _release(d: _Draft, grabber: BattleUnitId, grabbed: BattleUnitId) -> None:
    g, t = d.get(grabber), d.get(grabbed)
    d.put(_evolve(g, grabbing=g.grabbing - {grabbed}))
    d.put(_evolve(t, grabbed_by=t.grabbed_by - {grabber}))


def _release_all(d: _Draft, unit_id: BattleUnitId) -> None:
    u = d.get(unit_id)
    for other in u.grabbing:
        _release(d, unit_id, other)
    for other in u.grabbed_by:
        _release(d, other, unit_id)


def _leave_battle(d: _Draft, unit_id: BattleUnitId) -> None:
    """Out of every Close Combat and Grab; MOM lost (readings mom, dead)."""
    _release_all(d, unit_id)
    for other in d.get(unit_id).close_combat:
        _unlink(d, unit_id, other)
    d.put(_evolve(d.get(unit_id), mom=False))


def _kill(d: _Draft, unit_id: BattleUnitId, strict: bool) -> None:
    u = d.get(unit_id)
    if u.dead:
        if strict:
            raise RuleViolation(f"{d.name(unit_id)} is already dead.")
        return
    _leave_battle(d, unit_id)
    d.put(_evolve(d.get(unit_id), dead=True, disrupted=False, recovering=False, stopped=False))


def _set_status(
    d: _Draft,
    unit_id: BattleUnitId,
    status: Status,
    with_ids: tuple[BattleUnitId, ...],
    strict: bool,
) -> None:
    """Give ``status`` to the unit. ``strict``: refuse a change that changes nothing."""
    u = d.get(unit_id)
    name = d.name(unit_id)
    if status.takes_units:
        if not with_ids:
            raise UserError(f"{status.label} needs the units it is with.")
    elif with_ids:
        raise UserError(f"{status.label} does not name other units.")
    if status is Status.DEAD:
        if u.out:
            raise RuleViolation(f"{name} is out of the battle.")
        _kill(d, unit_id, strict)
        return
    if u.dead:
        raise RuleViolation(f"{name} is dead.")
    if status is Status.OUT:
        if u.out and strict:
            raise RuleViolation(f"{name} is already out of the battle.")
        _leave_battle(d, unit_id)
        d.put(_evolve(d.get(unit_id), out=True))
        return
    if u.out:
        raise RuleViolation(f"{name} is out of the battle.")
    if status.takes_units:
        before = d.get(unit_id)
        for other in with_ids:
            o = d.get(other)
            if other == unit_id:
                raise RuleViolation(f"{name} cannot be {status.label} with itself.")
            if not o.in_battle:
                raise RuleViolation(f"{d.name(other)} is no longer in the battle.")
            if status is Status.IN_CLOSE_COMBAT:
                _link(d, unit_id, other)
            elif status is Status.GRABBING:
                if u.disrupted:
                    raise RuleViolation(f"{name} is Disrupted and cannot Grab.", "4.1 Disrupted")
                _grab(d, unit_id, other)
            else:
                if o.disrupted:
                    raise RuleViolation(
                        f"{d.name(other)} is Disrupted and cannot Grab.", "4.1 Disrupted"
                    )
                _grab(d, other, unit_id)
        if strict and d.get(unit_id) == before:
            raise RuleViolation(f"{name} is already {status.label} with them.")
        return
    if status is Status.BUSY:
        raise UserError(
            f"{name} becomes Busy by starting a full-turn or extended Action "
            "(4.2 Long Actions), not by setting a status."
        )
    flag = _FLAGS[status]
    if getattr(u, flag):
        if strict:
            raise RuleViolation(f"{name} is already {status.label}.")
        return
    changes: dict[str, object] = {flag: True}
    if status is Status.DISRUPTED:
        changes.update(recovering=False, mom=False)
        _release_all(d, unit_id)
        u = d.get(unit_id)
    elif status is Status.STOPPED:
        changes["mom"] = False
    elif status is Status.RECOVERING and u.disrupted:
        raise RuleViolation(
            f"{name} is still Disrupted; it recovers at its next turn.", "4.1 Disrupted"
        )
    elif status is Status.MOM and (u.disrupted or u.stopped or u.grabbed_by or u.grabbing):
        raise RuleViolation(
            f"{name} cannot gain a MOM while Disrupted, Stopped or in a Grab.", "5.4 Momentum"
        )
    d.put(_evolve(u, **changes))


_FLAGS = {
    Status.HALF_SPEED: "half_speed",
    Status.STOPPED: "stopped",
    Status.DISRUPTED: "disrupted",
    Status.RECOVERING: "recovering",
    Status.MOM: "mom",
    Status.DEAD: "dead",
    Status.OUT: "out",
    Status.STANDING_UP: "standing_up",
}


def _clear_status(
    d: _Draft,
    unit_id: BattleUnitId,
    status: Status,
    with_ids: tuple[BattleUnitId, ...],
    strict: bool,
) -> None:
    u = d.get(unit_id)
    name = d.name(unit_id)
    if with_ids and not status.takes_units:
        raise UserError(f"{status.label} does not name other units.")
    if status is Status.IN_CLOSE_COMBAT:
        others = with_ids or tuple(sorted(u.close_combat))
        for other in others:
            if other not in u.close_combat:
                if strict:
                    raise RuleViolation(f"{name} is not in Close Combat with {d.name(other)}.")
                continue
            if other in u.grabbing or other in u.grabbed_by:
                raise RuleViolation(
                    f"{name} and {d.name(other)} are in a Grab: release or break it before "
                    "they part.",
                    "5.2 Grabbing",
                )
            _unlink(d, unit_id, other)
        if strict and not others:
            raise RuleViolation(f"{name} is not in Close Combat.")
        return
    if status in (Status.GRABBING, Status.GRABBED):
        held = u.grabbing if status is Status.GRABBING else u.grabbed_by
        others = with_ids or tuple(sorted(held))
        if strict and not others:
            raise RuleViolation(f"{name} is not {status.label}.")
        for other in others:
            if other not in held:
                if strict:
                    raise RuleViolation(f"{name} is not {status.label} with {d.name(other)}.")
                continue
            if status is Status.GRABBING:
                _release(d, unit_id, other)
            else:
                _release(d, other, unit_id)
        return
    if status is Status.BUSY:
        if not u.busy:
            if strict:
                raise RuleViolation(f"{name} is not Busy.")
            return
        d.put(_evolve(u, busy="", busy_turns=0))
        return
    flag = _FLAGS[status]
    if not getattr(u, flag):
        if strict:
            raise RuleViolation(f"{name} is not {status.label}.")
        return
    d.put(_evolve(u, **{flag: False}))


# --- handlers ------------------------------------------------------------------------------


def _turn_ended(d: _Draft, e: TurnEnded) -> BattleState:
    state, setup = d.state, d.setup
    if e.player != state.active or e.round != state.round:
        raise RuleViolation(
            f"The turn to end is {state.active_player.name}'s in round {state.round}, not "
            f"{setup.player(e.player).name if e.player in setup.player_index else e.player}'s "
            f"in round {e.round}."
        )
    ending = state.active
    i = setup.player_index[ending]
    j = (i + 1) % len(setup.players)
    starting = setup.players[j].player_id
    new_round = state.round + 1 if j == 0 else state.round
    units = []
    for u in state.units:
        pid = u.player_id
        marked = _has_turn_marks(u)
        if pid != ending and pid != starting and not marked:
            units.append(u)
            continue
        changes: dict[str, object] = dict(_TURN_MARKS) if marked else {}
        if pid == ending:
            changes.update(_ending_turn(u))
        if pid == starting:
            # What the turn's start reads (alive, busy, Disrupted) only the ending turn
            # changes: with one player, the unit as its own turn left it.
            changes.update(_starting_turn(setup, _evolve(u, **changes) if pid == ending else u))
        units.append(_evolve(u, **changes))
    return BattleState(
        setup=state.setup, round=new_round, active=starting, units=tuple(units), finished=False
    )


#: What lasts one player turn: Counters used, attackers, and the marks of Close Combat and
#: Ranged attacks (5.1, 5.2, 5.3, 5.4). All reset when any turn ends.
_TURN_MARKS: dict[str, object] = {
    "counters_used": 0,
    "attackers": (),
    "struck": (),
    "charged": False,
    "charged_by": frozenset(),
    "countered": (),
    "disengaged_from": frozenset(),
    "counterstruck_by": frozenset(),
    "shot_at": (),
    "sprinted": False,
}


def _has_turn_marks(u: UnitState) -> bool:
    return bool(
        u.counters_used
        or u.attackers
        or u.struck
        or u.charged
        or u.charged_by
        or u.countered
        or u.disengaged_from
        or u.counterstruck_by
        or u.shot_at
        or u.sprinted
    )


def _ending_turn(u: UnitState) -> dict[str, object]:
    """Its owner's turn ends: an unspent Action is Held (reading action_states), recovery and
    standing up are over, a one-turn busy Action is done (4.2)."""
    changes: dict[str, object] = {"recovering": False, "standing_up": False}
    if u.action is ActionState.READY:
        changes["action"] = ActionState.HELD
    if u.busy and u.busy_turns <= 0:
        changes.update(busy="", busy_turns=0)
    return changes


def _starting_turn(setup: BattleSetup, u: UnitState) -> dict[str, object]:
    """Its owner's turn starts: the Action is Ready, Stopped ends; a busy unit spends this turn
    on its extended Action (4.2); a Disrupted one recovers the edition's way (4.1)."""
    changes: dict[str, object] = {"action": ActionState.READY, "stopped": False}
    if u.dead or u.out:
        return changes
    if u.busy:
        if u.busy_turns > 0:
            changes.update(
                action=ActionState.SPENT_OWN_TURN, stopped=True, busy_turns=u.busy_turns - 1
            )
        else:  # a busy Action started on another's turn (organizer's entry) ends here
            changes.update(busy="", busy_turns=0)
    if u.disrupted:
        rules = setup.rules
        changes["disrupted"] = False
        if setup.unit(u.unit_id).heavy_armor and rules.heavy_armor_full_turn_recovery:
            changes.update(
                busy=HEAVY_ARMOR_GETTING_UP,
                busy_turns=0,
                action=ActionState.SPENT_OWN_TURN,
                stopped=True,
            )
        elif rules.recovery is Recovery.STAND_UP:
            changes["standing_up"] = True
        else:
            changes["recovering"] = True
    return changes


#: The ``maneuver`` of an ``AttackResolved`` that is a bodily Collision (5.4): part of
#: movement, no Action, the MOM spent; any MOM-carrying unit, not only after a missed Charge.
COLLISION = "collision"

#: What a Heavy Armored minifig is busy with on the turn after a Disruption (2010, 4.1).
HEAVY_ARMOR_GETTING_UP = "getting up in Heavy Armor"


def _action_spent(d: _Draft, e: ActionSpent) -> BattleState:
    u = d.get(e.actor)
    how = e.how
    _check_can_act(d, u, "act" if how is ActionUse.ATTACK or how is ActionUse.OTHER else how.label)
    if e.target is not None:
        _check_target(d, u, d.get(e.target))
    if how is ActionUse.ATTACK or how is ActionUse.OTHER:
        d.put(_spend_action(d, u, e.as_response))
        _check_response_scope(d, u, e.target)
        return d.build()
    name = d.name(e.actor)
    if e.how is ActionUse.BAIL and e.over_the_top:
        _check_bail_over_the_top(d, e.actor, name)
    if e.how is ActionUse.SPRINT:
        if e.as_response:
            raise RuleViolation(
                f"{name} cannot Sprint as a response; it may Bail instead.", "4.3 Bailing"
            )
        if u.stopped:
            raise RuleViolation(
                f"{name} is Stopped: its movement is over for the turn.", "4.1 Stopped"
            )
    if e.how in (ActionUse.SPRINT, ActionUse.BAIL) and (u.grabbing or u.grabbed_by):
        raise RuleViolation(f"{name} is in a Grab and cannot move or Bail.", "5.2 Grabbing")
    if e.how is ActionUse.BAIL and u.stopped:
        raise RuleViolation(f"{name} is Stopped: its movement is over for the turn.", "4.1 Stopped")
    if e.how is ActionUse.PARRY:
        _check_turn(d, u, e.as_response)
        u = _use_hands(d, u, 1)
    else:
        u = _spend_action(d, u, e.as_response)
        if e.how is ActionUse.SPRINT:
            u = _evolve(u, sprinted=True)
    _check_response_scope(d, u, e.target)
    d.put(u)
    if e.how is ActionUse.PARRY and not e.as_response:
        if e.target is not None:
            _link(d, e.actor, e.target)
        _movement_over(d, e.actor)
    if e.how is ActionUse.BAIL and not e.over_the_top:
        _set_status(d, e.actor, Status.DISRUPTED, (), strict=False)
    return d.build()


def _check_bail_over_the_top(d: _Draft, unit: BattleUnitId, name: str) -> None:
    """READINGS "bail_over_the_top": landing on its feet needs an Over the Top Benny."""
    rules = d.setup.rules
    if not rules.has_over_the_top:
        raise RuleViolation(
            f"{rules.name} has no Over the Top: after Bailing, {name} is Disrupted.",
            "4.3 Bailing Out",
        )
    if not d.setup.unit(unit).over_the_top:
        raise RuleViolation(
            f"{name} can never go {rules.over_the_top} (Incompetent or Cannon Fodder): its Bail "
            "ends Disrupted.",
            "4.2 Over the Top",
        )


def _counter_used(d: _Draft, e: CounterUsed) -> BattleState:
    u = d.get(e.actor)
    t = d.get(e.target)
    _check_can_act(d, u, "use a Counter")
    _check_target(d, u, t)
    fleeing = _check_counter(d, u, t, counterstrike=e.how is CounterUse.COUNTERSTRIKE)
    d.put(_evolve(_use_hands(d, u, 1), countered=u.countered + (e.target,)))
    if e.how is CounterUse.COUNTERSTRIKE:
        d.put(_add_attacker(d, e.actor, d.get(e.target)))
    if fleeing:
        t = d.get(e.target)
        d.put(_evolve(t, counterstruck_by=t.counterstruck_by | {e.actor}))
        return d.build()
    _link(d, e.actor, e.target)
    if e.how is CounterUse.PARRY and d.own_turn(u):
        _movement_over(d, e.actor)
    return d.build()


def _check_counter(d: _Draft, u: UnitState, t: UnitState, *, counterstrike: bool) -> bool:
    """Whether ``u`` may use a Counter on ``t``; True when ``t`` is fleeing it (Disengaged
    this turn): 5.2 "up to three of his opponents can immediately take an Angry Inch and make
    one Counterstrike" (the Hank and Butch example; reading counter_fleeing)."""
    name, other = d.name(u.unit_id), d.name(t.unit_id)
    if u.unit_id in t.disengaged_from:
        if not counterstrike:
            raise RuleViolation(
                f"{other} is Disengaging from {name}: there is nothing to "
                "Parry, only a Counterstrike to make.",
                "5.2 Disengaging",
            )
        if u.unit_id in t.counterstruck_by:
            raise RuleViolation(
                f"{name} already made its one Counterstrike on {other} as {other} Disengaged.",
                "5.2 Disengaging",
            )
        return True
    if t.unit_id in u.attackers and t.unit_id not in u.close_combat:
        return False  # a minifig passing by Parries (or strikes back): now in Close Combat
    if not u.close_combat:
        raise RuleViolation(
            f"{name} is not in Close Combat; Counters are only for Close Combat.",
            "5.2 Counters and Actions",
        )
    if t.unit_id not in _engagement(d, u.unit_id):
        raise RuleViolation(
            f"{name} is not in Close Combat with {other}.", "5.2 Counters and Actions"
        )
    if t.unit_id not in u.close_combat and _same_side(d, u.unit_id, t.unit_id):
        raise RuleViolation(
            f"{other} is on {name}'s side of the brawl: a Counter goes at an opponent.",
            "5.2 Counters and Actions",
        )
    if d.own_turn(u) and u.struck and t.unit_id not in u.attackers:
        # Its other hand on its own turn: a second Strike (or a Counter to a response on it).
        if u.charged:
            raise RuleViolation(
                f"{name} Charged this turn: a Charge allows a single Strike.",
                "5.4 Making the Attack",
            )
        if t.unit_id not in u.struck:
            raise RuleViolation(
                f"{name}'s second Strike must be against the same target, {d.name(u.struck[0])}.",
                "5.2 Striking",
            )
    if t.unit_id in u.charged_by and t.unit_id in u.countered:
        raise RuleViolation(
            f"{other} Charged {name}: the defender is limited to a single Counter.",
            "5.4 Making the Attack",
        )
    return False


def _movement_over(d: _Draft, unit_id: BattleUnitId) -> None:
    """4.1: "If the minifig decides to Parry the attack, they are both entered into Close
    Combat and the minifig's movement is over for the turn."
    """
    u = d.get(unit_id)
    if not u.stopped:
        d.put(_evolve(u, stopped=True, mom=False))


def _close_combat_attack(d: _Draft, e: CloseCombatAttack) -> BattleState:
    u = d.get(e.actor)
    t = d.get(e.target)
    _check_can_act(d, u, f"make a {e.maneuver.label}")
    _check_target(d, u, t)
    u = _pay_for_attack(d, u, e.as_response, e.maneuver.value, e.target, close=True)
    _check_response_scope(d, u, e.target)
    d.put(_use_hands(d, u, e.hands, spend=False))
    passing_by = e.as_response and e.passing_by
    _check_join(d, e.brawl, passing_by)
    _engage(d, e.actor, e.target, e.maneuver.value, passing_by)
    _join_brawl(d, e.actor, e.brawl)
    return d.build()


def _pay_for_attack(
    d: _Draft,
    u: UnitState,
    as_response: bool,
    maneuver: str,
    target: BattleUnitId | None,
    *,
    close: bool,
) -> UnitState:
    """Spend the Action on an attack, or let it continue the Action already spent on one:

    - a Charge after a Sprint this turn (4.1 "Sprinting can be combined with a Charge attack
      (5.4: Charge!) as part of a single Action");
    - another Ranged attack at the same target (5.3 "A minifig can only make Ranged attacks
      against a single target in a turn, even if they have multiple Ranged weapons").
    """
    name = d.name(u.unit_id)
    spent_here = (
        u.action is ActionState.SPENT_RESPONSE
        if as_response
        else u.action is ActionState.SPENT_OWN_TURN and d.own_turn(u)
    )
    if close and maneuver == Maneuver.CHARGE.value:
        u = _spend_or_sprint_charge(d, u, as_response, maneuver)
        return _evolve(u, struck=u.struck + ((target,) if target is not None else ()), charged=True)
    if not close and spent_here and u.shot_at:
        if target not in u.shot_at:
            raise RuleViolation(
                f"{name} already fired at {d.name(u.shot_at[0])} this turn: Ranged attacks "
                "go against a single target in a turn, even with several Ranged weapons.",
                "5.3 Ranged Combat",
            )
        return u
    u = _spend_action(d, u, as_response)
    if target is None:
        return u
    if close and maneuver == Maneuver.STRIKE.value:
        return _evolve(u, struck=u.struck + (target,))
    if not close:
        return _evolve(u, shot_at=(target,))
    return u


def _engage(
    d: _Draft, actor: BattleUnitId, target: BattleUnitId, maneuver: str, passing_by: bool
) -> None:
    """Count the attacker toward the target's three and put both in Close Combat, except for
    a response at a minifig ``passing_by`` who is in no Close Combat yet: 4.1 "If he declines
    to Parry and survives, he can ignore the attack and continue moving" (reading passer_by);
    a Parry (or a Grab) locks them in."""
    t = d.get(target)
    d.put(_add_attacker(d, actor, t))
    if maneuver == Maneuver.CHARGE.value:
        t = d.get(target)
        d.put(_evolve(t, charged_by=t.charged_by | {actor}))
    if passing_by and maneuver != Maneuver.GRAB.value and not d.get(target).close_combat:
        return
    _link(d, actor, target)


def _status_set(d: _Draft, e: StatusSet) -> BattleState:
    _set_status(d, e.actor, e.status, e.with_ids, strict=True)
    return d.build()


def _status_cleared(d: _Draft, e: StatusCleared) -> BattleState:
    u = d.get(e.actor)
    if e.status is Status.IN_CLOSE_COMBAT and (u.grabbed_by or u.grabbing):
        raise RuleViolation(
            f"{d.name(e.actor)} is in a Grab and cannot Disengage until it is released.",
            "5.2 Grabbing",
        )
    before = u.close_combat
    brawl = _engagement(d, e.actor) if e.status is Status.IN_CLOSE_COMBAT else set()
    _clear_status(d, e.actor, e.status, e.with_ids, strict=True)
    if (
        e.status is Status.IN_CLOSE_COMBAT
        and d.own_turn(u)
        and d.setup.rules.disengage_counterstrikes
    ):
        now = d.get(e.actor)
        left = before - now.close_combat
        if not now.close_combat:  # out of the brawl: all its opponents (disengage_brawl)
            left = left | {o for o in brawl if not _same_side(d, o, e.actor)}
        d.put(_evolve(now, disengaged_from=now.disengaged_from | left))
    return d.build()


def _same_side(d: _Draft, a: BattleUnitId, b: BattleUnitId) -> bool:
    setup = d.setup
    return setup.player(setup.unit(a).player_id).side == setup.player(setup.unit(b).player_id).side


def _unit_killed(d: _Draft, e: UnitKilled) -> BattleState:
    if e.actor is not None:
        d.get(e.actor)  # must exist
    t = d.get(e.target)
    if t.out:
        raise RuleViolation(f"{d.name(e.target)} is out of the battle.")
    _kill(d, e.target, strict=True)
    return d.build()


def _attack_resolved(d: _Draft, e: AttackResolved) -> BattleState:
    if not e.participants:
        raise UserError("An attack needs at least one attacker.")
    if e.participants[0].unit != e.actor:
        raise UserError("The attack's actor must be its first participant.")
    seen: set[BattleUnitId] = set()
    for p in e.participants:
        if p.unit in seen:
            raise UserError(f"{d.name(p.unit)} is listed twice in one attack.")
        seen.add(p.unit)
    target = None
    if e.target is not None:
        target = d.get(e.target)
    elif e.close_combat:
        raise UserError("A Close Combat attack needs a target unit.")
    maneuver = e.maneuver.lower()
    collision = maneuver == COLLISION
    if e.brawl is not None and not e.close_combat:
        raise UserError("Only a Close Combat attack joins a brawl (5.2).")
    _check_join(d, e.brawl, e.passing_by and any(p.use is Use.RESPONSE for p in e.participants))
    for p in e.participants:
        u = d.get(p.unit)
        name = d.name(p.unit)
        _check_can_act(d, u, "attack")
        if target is not None:
            _check_target(d, u, target)
        if not e.close_combat and u.close_combat and not collision:
            raise RuleViolation(
                f"{name} is in Close Combat and cannot make Ranged attacks.", "5.3 Ranged Combat"
            )
        fleeing = False
        if collision:
            # 5.4: "A Collision occurs as part of normal Movement and does not cost an Action."
            d.put(_evolve(u, mom=False))
            continue
        if p.use is Use.COUNTER:
            if (
                not e.close_combat
                or target is None
                or (
                    p.unit not in target.disengaged_from
                    and target.unit_id not in _engagement(d, p.unit)
                )
            ):
                raise RuleViolation(
                    f"{name} can Counterstrike only an opponent it is in Close Combat with.",
                    "5.2 Counters and Actions",
                )
            fleeing = _check_counter(d, u, target, counterstrike=True)
            u = _evolve(_use_hands(d, u, p.hands), countered=u.countered + (target.unit_id,))
        else:
            u = _pay_for_attack(
                d, u, p.use is Use.RESPONSE, maneuver, e.target, close=e.close_combat
            )
            _check_response_scope(d, u, e.target)
            if e.close_combat:
                u = _use_hands(d, u, p.hands, spend=False)
        d.put(u)
        if e.close_combat and e.target is not None:
            if fleeing:
                t = _add_attacker(d, p.unit, d.get(e.target))
                d.put(_evolve(t, counterstruck_by=t.counterstruck_by | {p.unit}))
            else:
                _engage(d, p.unit, e.target, maneuver, p.use is Use.RESPONSE and e.passing_by)
    if e.close_combat:
        _join_brawl(d, e.actor, e.brawl)
    for change in e.effects:
        _apply_change(d, change)
    for uid in e.killed:
        _kill(d, uid, strict=False)
    return d.build()


def _apply_change(d: _Draft, change: StatusChange) -> None:
    if change.on:
        _set_status(d, change.unit, change.status, change.with_ids, strict=False)
    else:
        _clear_status(d, change.unit, change.status, change.with_ids, strict=False)


def _long_action(d: _Draft, e: LongActionStarted) -> BattleState:
    u = d.get(e.actor)
    name = d.name(e.actor)
    what = e.what.strip()
    if not what:
        raise UserError("Say what the long Action is (piloting, rowing, putting on armor...).")
    if e.turns < 1:
        raise UserError("A long Action takes at least the rest of this turn.")
    _check_can_act(d, u, "start a long Action")
    if not d.own_turn(u):
        raise RuleViolation(
            f"{name} can start a full-turn Action only on its own turn: it takes up the "
            "minifig's entire turn.",
            "4.2 Long Actions",
        )
    if u.busy:
        raise RuleViolation(f"{name} is already Busy {u.busy}.", "4.2 Long Actions")
    u = _spend_action(d, u, as_response=False)
    d.put(_evolve(u, busy=what, busy_turns=e.turns - 1, stopped=True, mom=False, sprinted=False))
    return d.build()


def _first_to_act(d: _Draft, e: FirstToAct) -> BattleState:
    if e.actor == e.target:
        raise UserError("Who acts first is between two different units.")
    d.get(e.actor)
    d.get(e.target)
    return d.state


def _warning_overruled(d: _Draft, e: WarningOverruled) -> BattleState:
    d.get(e.actor)
    return d.state


def _battle_finished(d: _Draft, e: BattleFinished) -> BattleState:
    return BattleState(
        setup=d.state.setup,
        round=d.state.round,
        active=d.state.active,
        units=d.state.units,
        finished=True,
    )


_HANDLERS: dict[type, Callable[[_Draft, Any], BattleState]] = {
    TurnEnded: _turn_ended,
    ActionSpent: _action_spent,
    CounterUsed: _counter_used,
    CloseCombatAttack: _close_combat_attack,
    StatusSet: _status_set,
    StatusCleared: _status_cleared,
    UnitKilled: _unit_killed,
    AttackResolved: _attack_resolved,
    BattleFinished: _battle_finished,
    LongActionStarted: _long_action,
    FirstToAct: _first_to_act,
    WarningOverruled: _warning_overruled,
}
