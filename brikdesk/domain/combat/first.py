"""Who Acts First (4.3) in the combat wizard: when the attack is a response that collides with
the target's own Action, the facts the battle's edition needs, the contenders, and the
questions to ask; ``resolution`` rolls the contest with ``who_acts_first`` before the attack's
dice, and Finish records its ``FirstToAct`` event with the attack."""

from __future__ import annotations

from enum import Enum

from brikdesk.domain.battle import Use
from brikdesk.domain.battle.first import Contender
from brikdesk.domain.combat.draft import AttackDraft, CombatContext
from brikdesk.domain.combat.participants import default_use, strikers
from brikdesk.domain.rulesets import FirstRule
from brikdesk.errors import UserError

__all__ = ["FirstFact", "contenders", "first_contest_possible", "first_facts"]


class FirstFact(str, Enum):
    """A fact the edition's Who Acts First needs from the organizer (4.3)."""

    TO_MOVEMENT = "to_movement"  # 2005: the response answers his Movement, not an Action
    TARGET_USE = "target_use"  # 2005: the Use of what he attempts (none: no Use)
    INCH_AWAY = "inch_away"  # 2010, 2020: he is still an inch or more from acting
    SIMULTANEOUS = "simultaneous"  # both Actions can happen at once

    def __str__(self) -> str:
        return self.value


def first_contest_possible(draft: AttackDraft, ctx: CombatContext) -> bool:
    """Whether Who Acts First may matter (4.3 "If a unit is taking an Action in Response to
    enemy Movement or Actions"): the attacker pays in response, at a unit of the player whose
    turn it is (the one acting)."""
    if draft.target_id is None:
        return False
    if (draft.use or default_use(ctx, draft.attacker_id)) is not Use.RESPONSE:
        return False
    return ctx.state.unit(draft.target_id).player_id == ctx.state.active


def first_facts(ctx: CombatContext) -> tuple[FirstFact, ...]:
    """What the battle's edition asks to settle it (4.3): 2005 whether it answers Movement,
    the Use of the target's Action and whether both can happen at once (for a tie); 2010 and
    2020 whether the target is still an inch or more from acting, and whether both can happen
    at once."""
    if ctx.rules.who_acts_first is FirstRule.SKILL_CONTEST:
        return (FirstFact.TO_MOVEMENT, FirstFact.TARGET_USE, FirstFact.SIMULTANEOUS)
    return (FirstFact.INCH_AWAY, FirstFact.SIMULTANEOUS)


def contenders(draft: AttackDraft, ctx: CombatContext) -> tuple[Contender, Contender]:
    """(the target, acting on its player's turn; the attacker, responding): each with its
    Action die, the Use of what it attempts and whether it moves at Half Speed (2010)."""
    if draft.target_id is None:
        raise UserError("Who acts first needs a target unit", field="target")
    t = ctx.fighter(draft.target_id)
    me = ctx.fighter(draft.attacker_id)
    try:
        use = strikers(draft, ctx)[0].attack.weapon.use
    except UserError:
        use = None
    active = Contender(
        t.unit_id,
        t.name,
        t.action_die,
        draft.first_target_use,
        ctx.state.unit(t.unit_id).moves_at_half_speed,
    )
    responder = Contender(
        me.unit_id, me.name, me.action_die, use, ctx.state.unit(me.unit_id).moves_at_half_speed
    )
    return active, responder
