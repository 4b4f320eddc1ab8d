"""Who Acts First (4.3): when a response and the enemy's Action collide, who goes first and why.

Each edition settles it its own way (``RuleSet.who_acts_first``):

- 2005: "If a unit is taking an Action in Response to enemy Movement ... his Response is
  automatically fast enough"; against an Action, each rolls his Skill and subtracts the Use
  of what he attempts; "The unit with the higher total acts first, even if their total was less
  than zero ... In the case of a tie, assume that both Actions occurred simultaneously if
  possible; otherwise, the player whose turn it is acts first."
- 2010: an inch ahead acts first; otherwise simultaneous; "If a simultaneous result isn't
  possible, then a minifig moving at regular speed takes his Action before a minifig moving at
  Half Speed"; same speed: "the higher roll goes first".
- 2020: "If a minifig is able to act or react while his opponent is still an inch or more away
  from acting himself, then the minifig acts first. Otherwise, both Actions occur
  simultaneously if possible, and with the higher Action Roll going first otherwise."

``who_acts_first`` returns a ``FirstToActResult`` with the reason in words; ``to_event`` gives
the ``FirstToAct`` battle-log event. Rolls come from a ``DiceSource`` (virtual or typed).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from brikdesk.domain.battle.events import FirstToAct
from brikdesk.domain.ids import BattleUnitId
from brikdesk.domain.rolling import ActionRoll, DiceSource, roll_action
from brikdesk.domain.rulesets import RULES_2020, FirstRule, RuleSet

__all__ = ["READINGS", "Contender", "First", "FirstToActResult", "who_acts_first"]

READINGS: dict[str, str] = {
    "4.3 Who Acts First (2005)": (
        "The contest rolls the Skill die for the Actions themselves: the same rolls decide "
        "hit or miss (High Noon). An Action with no Use (a Bail) subtracts nothing. A tie is "
        "simultaneous when the organizer says both can happen at once, else the active player "
        "acts first."
    ),
    "4.3 Who Acts First (2010, 2020)": (
        "'An inch or more away' is the organizer's call on the table (a yes/no). When the "
        "higher roll decides and the rolls tie, both roll again (the text names no winner); "
        "the engine asks for the next pair of dice."
    ),
}


class First(str, Enum):
    ACTIVE = "active"  # the unit of the player whose turn it is
    RESPONDER = "responder"
    SIMULTANEOUS = "simultaneous"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Contender:
    """One side: its name, Action die, the Use of what it attempts (``None``: no Use, such as
    a Bail) and whether it moves at Half Speed (2010)."""

    unit_id: BattleUnitId
    name: str
    action_die: int = 6
    use: int | None = None
    half_speed: bool = False


@dataclass(frozen=True)
class FirstToActResult:
    """Who goes first, why, and the rolls that decided it (if any)."""

    first: First
    active: Contender
    responder: Contender
    reason: str
    rule: str
    active_rolls: tuple[ActionRoll, ...] = ()
    responder_rolls: tuple[ActionRoll, ...] = ()

    @property
    def winner(self) -> Contender | None:
        return {First.ACTIVE: self.active, First.RESPONDER: self.responder}.get(self.first)

    def describe(self) -> str:
        if self.first is First.SIMULTANEOUS:
            head = f"{self.active.name} and {self.responder.name} act at the same time"
        else:
            other = self.responder if self.first is First.ACTIVE else self.active
            assert self.winner is not None
            head = f"{self.winner.name} acts before {other.name}"
        return f"{head}: {self.reason} ({self.rule})"

    def to_event(self) -> FirstToAct:
        """The battle-log event: the first unit as actor (the active one when simultaneous)."""
        first = self.responder if self.first is First.RESPONDER else self.active
        other = self.active if first is self.responder else self.responder
        return FirstToAct(
            first.unit_id,
            other.unit_id,
            simultaneous=self.first is First.SIMULTANEOUS,
            reason=f"{self.reason} ({self.rule})",
        )


_RULE = "4.3 Who Acts First"


def _skill(c: Contender, dice: DiceSource, what: str) -> ActionRoll:
    return roll_action(c.action_die, 0, dice, what=f"{c.name}'s {what}")


def who_acts_first(
    active: Contender,
    responder: Contender,
    dice: DiceSource,
    *,
    rules: RuleSet = RULES_2020,
    to_movement: bool = False,
    inch_or_more_away: bool = False,
    simultaneous_possible: bool = True,
) -> FirstToActResult:
    """Who acts first between the active player's unit and a responder (4.3, per edition).

    ``to_movement``: the response answers movement, not an Action (2005: automatically fast
    enough). ``inch_or_more_away``: the enemy still has an inch or more to go before acting
    (2010, 2020: the responder acts first). ``simultaneous_possible``: whether both Actions can
    happen at once. Readings: ``READINGS``.
    """
    name = rules.name
    if rules.who_acts_first is FirstRule.SKILL_CONTEST:
        if to_movement:
            return FirstToActResult(
                First.RESPONDER,
                active,
                responder,
                f"a Response to Movement is automatically fast enough ({name})",
                _RULE,
            )
        a = _skill(active, dice, "Skill Roll (who acts first)")
        r = _skill(responder, dice, "Skill Roll (who acts first)")
        a_total = a.total - (active.use or 0)
        r_total = r.total - (responder.use or 0)
        words = (
            f"Skill Roll minus Use: {active.name} {_minus(a.total, active.use)} = "
            f"{a_total}, {responder.name} {_minus(r.total, responder.use)} = {r_total}"
        )
        if a_total != r_total:
            first = First.ACTIVE if a_total > r_total else First.RESPONDER
            return FirstToActResult(
                first, active, responder, f"{words}; higher first", _RULE, (a,), (r,)
            )
        first = First.SIMULTANEOUS if simultaneous_possible else First.ACTIVE
        why = (
            "a tie: both at once"
            if simultaneous_possible
            else "a tie and both can't happen at once: the player whose turn it is first"
        )
        return FirstToActResult(first, active, responder, f"{words}; {why}", _RULE, (a,), (r,))
    if inch_or_more_away:
        return FirstToActResult(
            First.RESPONDER,
            active,
            responder,
            f"the enemy is still an inch or more from acting ({name})",
            _RULE,
        )
    if simultaneous_possible:
        return FirstToActResult(
            First.SIMULTANEOUS,
            active,
            responder,
            f"neither is automatically faster: both at once ({name})",
            _RULE,
        )
    if (
        rules.who_acts_first is FirstRule.SPEED_THEN_SKILL
        and active.half_speed != responder.half_speed
    ):
        first = First.RESPONDER if active.half_speed else First.ACTIVE
        fast = responder if active.half_speed else active
        return FirstToActResult(
            first,
            active,
            responder,
            f"{fast.name} moves at regular speed, the other at Half Speed ({name})",
            _RULE,
        )
    roll_name = rules.action_roll
    a_rolls: list[ActionRoll] = []
    r_rolls: list[ActionRoll] = []
    while True:
        a = _skill(active, dice, f"{roll_name} (who acts first)")
        r = _skill(responder, dice, f"{roll_name} (who acts first)")
        a_rolls.append(a)
        r_rolls.append(r)
        if a.total != r.total or len(a_rolls) >= 100:
            break
    first = First.ACTIVE if a.total >= r.total else First.RESPONDER
    ties = f" after {len(a_rolls) - 1} tie(s) rolled again" if len(a_rolls) > 1 else ""
    return FirstToActResult(
        first,
        active,
        responder,
        f"both can't happen at once: higher {roll_name} first, "
        f"{active.name} {a.total}, {responder.name} {r.total}{ties}",
        _RULE,
        tuple(a_rolls),
        tuple(r_rolls),
    )


def _minus(total: int, use: int | None) -> str:
    return f"{total}" if use is None else f"{total}-{use}"
