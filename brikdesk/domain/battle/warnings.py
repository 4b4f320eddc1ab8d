"""Warnings where the rules leave room: the tracker records the event, the organizer decides.

``rule_warnings(state, event)`` lists what the organizer should check before recording an event
the rules allow only in some situations the tracker cannot see (a second weapon in hand, a
minifig moving past, a MOM on the table). The interface shows them with an "overrule"
(record anyway) choice; ``apply`` never refuses for them. Each names its rule section.
"""

from __future__ import annotations

from dataclasses import dataclass

from brikdesk.domain.battle.events import (
    AttackResolved,
    CloseCombatAttack,
    CounterUse,
    CounterUsed,
    Event,
    Use,
)
from brikdesk.domain.battle.model import ActionState, BattleState, UnitState
from brikdesk.domain.ids import BattleUnitId

__all__ = ["READINGS", "RuleWarning", "rule_warnings"]

READINGS: dict[str, str] = {
    "Warnings, not refusals": (
        "Where a rule depends on what only the table shows (a second weapon in hand, a minifig "
        "moving past, a MOM), the tracker warns and the organizer may record the event anyway: "
        "a second Ranged attack at the same target (5.3), a second Strike (5.2), a "
        "Counterstrike on a Disengaging minifig (5.2), a response Strike on a minifig not yet "
        "in Close Combat (4.1), a Collision with no MOM recorded (5.4). The combat wizard asks "
        "the 4.1 question on its Attack page instead (the 'passing by' box is the answer), so "
        "a response attack within the rules is recorded without an overrule."
    ),
}


@dataclass(frozen=True)
class RuleWarning:
    """Something to check at the table before recording; ``rule`` names the section."""

    text: str
    rule: str

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})"


def _spent_here(state: BattleState, u: UnitState, as_response: bool) -> bool:
    if as_response:
        return u.action is ActionState.SPENT_RESPONSE
    return u.action is ActionState.SPENT_OWN_TURN and u.player_id == state.active


def rule_warnings(state: BattleState, event: Event) -> tuple[RuleWarning, ...]:
    """What the organizer should check before ``event`` is recorded (empty: nothing)."""
    setup = state.setup
    out: list[RuleWarning] = []
    if isinstance(event, CloseCombatAttack):
        t = state.unit(event.target)
        if (
            event.as_response
            and not event.passing_by
            and not t.close_combat
            and t.player_id == state.active
        ):
            out.append(_passing_by_warning(setup.unit(event.target).name))
    elif isinstance(event, CounterUsed) and event.how is CounterUse.COUNTERSTRIKE:
        out.extend(_counterstrike_warnings(state, event.actor, event.target))
    elif isinstance(event, AttackResolved):
        if event.maneuver.lower() == "collision":
            for p in event.participants:
                if not state.unit(p.unit).mom:
                    out.append(
                        RuleWarning(
                            f"{setup.unit(p.unit).name} has no MOM recorded: a Collision needs "
                            '4" of straight-line movement',
                            "5.4 Momentum",
                        )
                    )
            return tuple(out)
        if (
            event.close_combat
            and event.target is not None
            and not event.passing_by
            and event.maneuver.lower() != "grab"
            and any(p.use is Use.RESPONSE for p in event.participants)
        ):
            t = state.unit(event.target)
            if not t.close_combat and t.player_id == state.active:
                out.append(_passing_by_warning(setup.unit(event.target).name))
        for p in event.participants:
            u = state.unit(p.unit)
            if p.use is Use.COUNTER and event.target is not None:
                out.extend(_counterstrike_warnings(state, p.unit, event.target))
            elif (
                not event.close_combat
                and event.target is not None
                and event.target in u.shot_at
                and _spent_here(state, u, p.use is Use.RESPONSE)
            ):
                out.append(
                    RuleWarning(
                        f"{setup.unit(p.unit).name} fires again at the same target: only with "
                        "another Ranged weapon it has not fired this turn",
                        "5.3 Ranged Combat",
                    )
                )
    return tuple(out)


def _passing_by_warning(name: str) -> RuleWarning:
    return RuleWarning(
        f"If {name} is moving past, mark the attack 'passing by': he can ignore "
        "it and keep moving unless he Parries",
        "4.1 Movement",
    )


def _counterstrike_warnings(
    state: BattleState, actor: BattleUnitId, target: BattleUnitId
) -> tuple[RuleWarning, ...]:
    setup = state.setup
    u, t = state.unit(actor), state.unit(target)
    name = setup.unit(actor).name
    if actor in t.disengaged_from:
        return (
            RuleWarning(
                f"{name} may Counterstrike {setup.unit(target).name} as he Disengages only with a "
                "weapon it has not used yet this turn, taking an Angry Inch to reach him",
                "5.2 Disengaging",
            ),
        )
    if u.player_id == state.active and target in u.struck and target not in u.attackers:
        return (
            RuleWarning(
                f"A second Strike needs a second weapon ready in {name}'s hand", "5.2 Striking"
            ),
        )
    return ()
