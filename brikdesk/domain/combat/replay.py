"""Replaying the dice of the Action step: every die typed so far (or rolled virtually and
kept as a face), in the order the rules ask for them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from brikdesk.domain.actions import (
    BailResult,
    ParryResult,
    apply_bail_benny,
    apply_parry_benny,
    roll_bail,
    roll_parry,
)
from brikdesk.domain.attack import AttackRoll, apply_benny, inches_text, roll_attack_action
from brikdesk.domain.battle import outnumbered_modifier
from brikdesk.domain.combat.draft import AttackDraft, CombatContext, Reaction
from brikdesk.domain.combat.reaction import _parry_item, made_two_handed
from brikdesk.domain.combat.striker import Striker, strikers
from brikdesk.domain.rolling import DieRoll, NeedDie, Role, TypedDice
from brikdesk.errors import UserError


class _Stop(Exception):
    """A decision is needed before the dice can go on."""


def _role_of(why: str) -> Role:
    head = why.split(" ", 1)[0]
    return {"bonus": Role.BONUS, "Benny": Role.BENNY, "MOM": Role.MOM,
            "POP": Role.POP}.get(head, Role.NATURAL)


class _Recorder:
    """Typed dice that keep every die asked for, with its role, in order."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.typed = TypedDice(faces)
        self.rolled: list[DieRoll] = []

    def roll(self, sides: int, why: str = "") -> int:
        face = self.typed.roll(sides, why)
        self.rolled.append(DieRoll(sides, face, _role_of(why), why))
        return face


@dataclass(frozen=True)
class ActionStage:
    """The Action step as far as the dice typed so far go.

    ``need`` is the die wanted next; ``pending`` the key of a Benny waiting for a decision;
    ``complete`` when neither. ``rolls`` holds each participant's ``AttackRoll`` (fewer when
    stopped early; none when a Bail took the target out of the attack).
    """

    strikers: tuple[Striker, ...]
    rolls: tuple[AttackRoll, ...]
    parry: ParryResult | None
    bail: BailResult | None
    avoided: str | None
    dice: tuple[DieRoll, ...]
    need: NeedDie | None = None
    pending: str | None = None
    error: str | None = None
    extra_faces: int = 0

    @property
    def complete(self) -> bool:
        return (self.need is None and self.pending is None and self.error is None
                and not self.extra_faces)

    @property
    def first(self) -> AttackRoll | None:
        return self.rolls[0] if self.rolls else None

    @property
    def hit(self) -> bool:
        """Whether any participant hit (and the attack was not avoided)."""
        return self.avoided is None and any(r.hit for r in self.rolls)

    @property
    def cancelled(self) -> bool:
        return self.avoided is not None

    def messages(self) -> tuple[str, ...]:
        """What happened so far in plain words, one line per step."""
        out = []
        if self.bail is not None:
            out.append(self.bail.describe())
        if self.avoided:
            out.append(self.avoided)
        for r in self.rolls:
            out.append(r.describe())
        if self.parry is not None:
            out.append(self.parry.describe())
        for r in self.rolls:
            if r.roll is not None and r.roll.rolled and not r.hit and r.attack.ranged:
                out.append(f"Missed Shot: lands within {inches_text(r.missed_by)} of "
                           f"{r.attack.target.name} (5.3)")
        return tuple(out)


def resolve_action(draft: AttackDraft, ctx: CombatContext) -> ActionStage:
    """Replay the Action step with ``draft.action_faces``: Bail first if declared, every
    participant's Automatic Hit or Action Roll (with its Benny, once decided), then the Parry
    if the first attack hit. Stops at the first die it needs or Benny it must ask about."""
    try:
        ss = strikers(draft, ctx)
    except UserError as exc:
        return ActionStage((), (), None, None, None, (), error=str(exc))
    src = _Recorder(draft.action_faces)
    rolls: list[AttackRoll] = []
    parry = bail = None
    avoided = None
    need = None
    pending = None
    error = None
    try:
        if draft.reaction is Reaction.BAIL and draft.target_id is not None:
            who = ctx.fighter(draft.target_id).attacker
            bail = roll_bail(who, src, half_speed=ctx.state.unit(
                draft.target_id).moves_at_half_speed)
            if bail.over_the_top:
                choice = draft.benny("bail")
                if choice is None:
                    pending = "bail"
                    raise _Stop
                bail = apply_bail_benny(bail, choice, src)
            if draft.bail_clears and not bail.critical_failure:
                avoided = (f"{who.name} dives out of the attack: dodged by Bailing "
                           "(the attacker's Action is still spent)")
        if avoided is None:
            for s in ss:
                r = roll_attack_action(s.attack, src)
                if r.over_the_top:
                    choice = draft.benny(s.key)
                    if choice is None:
                        rolls.append(r)
                        pending = s.key
                        raise _Stop
                    r = apply_benny(r, choice, src, draft.embellishment or
                                    "an embellishment the players agree on")
                rolls.append(r)
            if draft.reaction is Reaction.PARRY and rolls and rolls[0].hit \
                    and draft.target_id is not None:
                parrier = ctx.fighter(draft.target_id).attacker
                first = rolls[0]
                attacker_roll = (first.roll.total if first.roll is not None
                                 and first.roll.rolled else None)
                parry = roll_parry(parrier, _parry_item(ctx, draft.parry_item),
                                   draft.kind.incoming, src,
                                   two_handed_weapon=made_two_handed(draft, ctx),
                                   attacker_roll=attacker_roll, attacker=first.attack.attacker,
                                   outnumbered=_parry_outnumbered(draft, ctx))
                if parry.over_the_top:
                    choice = draft.benny("parry")
                    if choice is None:
                        pending = "parry"
                        raise _Stop
                    parry = apply_parry_benny(parry, choice, src, draft.embellishment or
                                              "an embellishment the players agree on")
                if parry.cancelled:
                    avoided = f"{parrier.name} Parries the {draft.kind.label}: cancelled"
    except NeedDie as exc:
        need = exc
    except _Stop:
        pass
    except UserError as exc:
        error = str(exc)
    extra = 0
    if need is None and pending is None and error is None:
        extra = len(draft.action_faces) - src.typed.used
    return ActionStage(ss, tuple(rolls), parry, bail, avoided, tuple(src.rolled), need,
                       pending, error, extra)


def _parry_outnumbered(draft: AttackDraft, ctx: CombatContext) -> bool:
    return (draft.kind.close_combat and draft.target_id is not None
            and outnumbered_modifier(ctx.state, draft.target_id) is not None)
