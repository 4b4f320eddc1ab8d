"""Resolving the attack from the dice: the Action step (Bail, every participant's Action
Roll with its Over the Top Benny, the Parry) and the Damage step (Damage against Armor,
Combined Attacks, Explosions, Missed Shots, Shoves, Grabs, KnockBack, Collisions), replayed
from every die typed so far (or rolled virtually and kept as a face), in the order the rules
ask for them; and how each Over the Top Benny may be spent."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from brikdesk.domain.actions import (
    BailResult,
    CollisionResult,
    GrabResult,
    KnockBackResult,
    ParryResult,
    ShoveResult,
    apply_bail_benny,
    apply_parry_benny,
    collide,
    explode_from_point,
    grab,
    roll_bail,
    roll_parry,
    shove,
)
from brikdesk.domain.attack import (
    AttackResult,
    AttackRoll,
    AutomaticHit,
    DamageResult,
    DamageRoll,
    ExplosionResult,
    MissedShot,
    apply_benny,
    apply_damage,
    damage_roll,
    inches_text,
    missed_shot,
    resolve_missed_shot,
    roll_attack_action,
)
from brikdesk.domain.battle import outnumbered_modifier
from brikdesk.domain.battle.first import FirstToActResult, who_acts_first
from brikdesk.domain.combat.chances import mom_spendable
from brikdesk.domain.combat.draft import AttackDraft, AttackKind, CombatContext, Reaction
from brikdesk.domain.combat.first import contenders, first_contest_possible
from brikdesk.domain.combat.participants import (
    Striker,
    blast_exposures,
    blast_kept,
    blast_members,
    blast_units,
    charging_shove,
    strikers,
    target_of,
)
from brikdesk.domain.combat.reaction import made_two_handed, parry_item_of
from brikdesk.domain.ids import BattleUnitId
from brikdesk.domain.rolling import BennyUse, DieRoll, NeedDie, Role, TypedDice
from brikdesk.domain.rulesets import FirstRule
from brikdesk.errors import UserError


@dataclass(frozen=True)
class CollisionHit(AutomaticHit):
    """5.4 Minifig Collisions: part of the charger's movement, no Action Roll and no Action
    spent; the target can only dodge it by Bailing."""

    def describe(self) -> str:
        return (
            f"Automatic Hit: {self.reason} ({self.rule}); no Action is spent; it can be "
            "dodged by Bailing"
        )


#: A Collision needs no Action Roll (5.4 "A Collision occurs as part of normal Movement and
#: does not cost an Action").
COLLISION_HIT = CollisionHit(
    "a Collision, part of his movement", "5.4 Minifig Collisions", can_be_avoided=True
)


class _Stop(Exception):
    """A decision is needed before the dice can go on: how the Benny of ``key`` is spent."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _role_of(why: str) -> Role:
    head = why.split(" ", 1)[0]
    return {"bonus": Role.BONUS, "Benny": Role.BENNY, "MOM": Role.MOM, "POP": Role.POP}.get(
        head, Role.NATURAL
    )


#: Whose roll a die belongs to: what the roll is (``ROLL_KINDS``) and the unit that rolled it
#: (``None``: nobody in particular, as the two dice of a contest).
Owner = tuple[str, BattleUnitId | None]

#: The rolls of an attack a die can belong to, as the battle log names them.
ROLL_KINDS = ("first", "bail", "action", "parry", "knocked_away", "damage", "armor", "other")


class Recorder:
    """Typed dice that keep every die asked for, with its role and whose roll it is, in order.

    ``rolling`` says whose roll the next dice are for; the replay sets it before each step."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.typed = TypedDice(faces)
        self.rolled: list[DieRoll] = []
        self.owners: list[Owner] = []
        self.rolling: Owner = ("other", None)
        self.again: list[int] = []

    def reuse(self, face: int) -> None:
        """Let the next die asked for show ``face`` again, without a new face typed (the 2005
        contest's Skill Roll is also the attack's Action Roll, READINGS "4.3 Who Acts
        First (2005)")."""
        self.again.append(face)

    def roll(self, sides: int, why: str = "") -> int:
        if self.again and 1 <= self.again[0] <= sides:
            return self.again.pop(0)  # the same physical die: shown and kept once
        self.again.clear()
        face = self.typed.roll(sides, why)
        self.rolled.append(DieRoll(sides, face, _role_of(why), why))
        kind, owner = self.rolling
        if "knocked away" in why:  # the parried item's flight, rolled within the Parry
            kind = "knocked_away"
        elif kind == "damage" and "Armor of" in why:  # a blast's or Missed Shot's
            kind, owner = "armor", None
        self.owners.append((kind, owner))
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
    first_to_act: FirstToActResult | None = None
    #: Whose roll each of ``dice`` belongs to (``Recorder.owners``).
    owners: tuple[Owner, ...] = ()

    @property
    def complete(self) -> bool:
        return (
            self.need is None
            and self.pending is None
            and self.error is None
            and not self.extra_faces
        )

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
        if self.first_to_act is not None:
            out.append(self.first_to_act.describe())
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
                out.append(
                    f"Missed Shot: lands within {inches_text(r.missed_by)} of "
                    f"{r.attack.target.name} (5.3)"
                )
        return tuple(out)


def resolve_action(draft: AttackDraft, ctx: CombatContext) -> ActionStage:
    """Replay the Action step with ``draft.action_faces``: Bail first if declared, every
    participant's Automatic Hit or Action Roll (with its Benny, once decided), then the Parry
    if the first attack hit. Stops at the first die it needs or Benny it must ask about."""
    try:
        ss = strikers(draft, ctx)
    except UserError as exc:
        return ActionStage((), (), None, None, None, (), error=str(exc))
    replay = _ActionReplay(draft, ctx, Recorder(draft.action_faces))
    need = pending = error = None
    try:
        replay.who_first()
        replay.bail()
        if replay.avoided is None:
            replay.attacks(ss)
            replay.parry()
    except NeedDie as exc:
        need = exc
    except _Stop as stop:
        pending = stop.key
    except UserError as exc:
        error = str(exc)
    extra = 0
    if need is None and pending is None and error is None:
        extra = len(draft.action_faces) - replay.src.typed.used
    return ActionStage(
        ss,
        tuple(replay.rolls),
        replay.parried,
        replay.bailed,
        replay.avoided,
        tuple(replay.src.rolled),
        need,
        pending,
        error,
        extra,
        replay.first_to_act,
        tuple(replay.src.owners),
    )


class _ActionReplay:
    """The steps of the Action step, in order, each adding what it rolled."""

    def __init__(self, draft: AttackDraft, ctx: CombatContext, src: Recorder) -> None:
        self.draft, self.ctx, self.src = draft, ctx, src
        self.rolls: list[AttackRoll] = []
        self.bailed: BailResult | None = None
        self.parried: ParryResult | None = None
        self.avoided: str | None = None
        self.first_to_act: FirstToActResult | None = None
        self.contest_face: int | None = None

    def who_first(self) -> None:
        """Who Acts First (4.3), when the organizer says the response collides with the
        target's Action: the edition's contest, its dice first. In 2005 the responder's Skill
        Roll is also his attack's Action Roll (the High Noon example)."""
        draft, ctx = self.draft, self.ctx
        if not draft.who_first or not first_contest_possible(draft, ctx):
            return
        self.src.rolling = ("first", None)
        active, responder = contenders(draft, ctx)
        res = who_acts_first(
            active,
            responder,
            self.src,
            rules=ctx.rules,
            to_movement=draft.first_to_movement,
            inch_or_more_away=draft.first_inch_away,
            simultaneous_possible=draft.first_simultaneous,
        )
        self.first_to_act = res
        if ctx.rules.who_acts_first is FirstRule.SKILL_CONTEST and res.responder_rolls:
            self.contest_face = res.responder_rolls[-1].natural

    def _benny(self, key: str) -> BennyUse:
        """How the Benny of ``key`` is spent; stops the replay while nobody has said."""
        choice = self.draft.benny(key)
        if choice is None:
            raise _Stop(key)
        return choice

    @property
    def _embellishment(self) -> str:
        return self.draft.embellishment or "an embellishment the players agree on"

    def bail(self) -> None:
        """The target's Bail, declared before the attack (4.3)."""
        draft, ctx = self.draft, self.ctx
        if draft.reaction is not Reaction.BAIL or draft.target_id is None:
            return
        who = ctx.fighter(draft.target_id).attacker
        self.src.rolling = ("bail", draft.target_id)
        bail = roll_bail(
            who,
            self.src,
            half_speed=ctx.state.unit(draft.target_id).moves_at_half_speed,
            rules=ctx.rules,
        )
        self.bailed = bail
        if bail.over_the_top:
            bail = apply_bail_benny(bail, self._benny("bail"), self.src)
            self.bailed = bail
        if draft.bail_clears and not bail.critical_failure:
            self.avoided = (
                f"{who.name} dives out of the attack: dodged by Bailing "
                "(the attacker's Action is still spent)"
            )

    def attacks(self, ss: Sequence[Striker]) -> None:
        """Every participant's Automatic Hit or Action Roll, with its Benny."""
        for i, s in enumerate(ss):
            self.src.rolling = ("action", s.fighter.unit_id)
            if i == 0 and self.contest_face is not None:
                self.src.reuse(self.contest_face)
            r = roll_attack_action(s.attack, self.src)
            if self.draft.kind is AttackKind.COLLISION:
                r = replace(r, automatic=COLLISION_HIT)
            self.src.again.clear()  # an Automatic Hit rolls nothing: the face is not kept
            if r.over_the_top:
                self.rolls.append(r)
                choice = self._benny(s.key)
                self.rolls.pop()
                r = apply_benny(r, choice, self.src, self._embellishment)
            self.rolls.append(r)

    def parry(self) -> None:
        """The target's Parry of the first attack, when it hit (5.2)."""
        draft, ctx, rolls = self.draft, self.ctx, self.rolls
        if (
            draft.reaction is not Reaction.PARRY
            or not rolls
            or not rolls[0].hit
            or draft.target_id is None
        ):
            return
        parrier = ctx.fighter(draft.target_id).attacker
        self.src.rolling = ("parry", draft.target_id)
        first = rolls[0]
        attacker_roll = first.roll.total if first.roll is not None and first.roll.rolled else None
        parry = roll_parry(
            parrier,
            parry_item_of(ctx, draft.parry_item),
            draft.kind.incoming,
            self.src,
            two_handed_weapon=made_two_handed(draft, ctx),
            attacker_roll=attacker_roll,
            attacker=first.attack.attacker,
            outnumbered=_parry_outnumbered(draft, ctx),
        )
        self.parried = parry
        if parry.over_the_top:
            parry = apply_parry_benny(parry, self._benny("parry"), self.src, self._embellishment)
            self.parried = parry
        if parry.cancelled:
            self.avoided = f"{parrier.name} Parries the {draft.kind.label}: cancelled"


def _parry_outnumbered(draft: AttackDraft, ctx: CombatContext) -> bool:
    return (
        draft.kind.close_combat
        and draft.target_id is not None
        and outnumbered_modifier(ctx.state, draft.target_id) is not None
    )


@dataclass(frozen=True)
class DamageStage:
    """The Damage step as far as the dice typed so far go (``need``: the die wanted next)."""

    damage: DamageResult | None = None
    explosion: ExplosionResult | None = None
    missed: MissedShot | None = None
    missed_damage: DamageResult | None = None
    missed_unit: BattleUnitId | None = None
    collision: CollisionResult | None = None
    shove: ShoveResult | None = None
    grab: GrabResult | None = None
    knockback: KnockBackResult | None = None
    weapon_knockback: int = 0
    mom_spent: bool = False
    dice: tuple[DieRoll, ...] = ()
    need: NeedDie | None = None
    error: str | None = None
    extra_faces: int = 0
    blast_units: tuple[BattleUnitId, ...] = ()
    #: The unit (``None``: the object) of each of the Explosion's hits, in order.
    blast_hit_ids: tuple[BattleUnitId | None, ...] = ()
    #: Whose roll each of ``dice`` belongs to (``Recorder.owners``).
    owners: tuple[Owner, ...] = ()

    @property
    def complete(self) -> bool:
        return self.need is None and self.error is None and not self.extra_faces

    @property
    def rolls_dice(self) -> bool:
        return bool(self.dice) or self.need is not None


def deflections_for(i: int, action: ActionStage) -> tuple[str, ...]:
    if i == 0 and action.parry is not None:
        return action.parry.deflections
    return ()


def resolve_damage(draft: AttackDraft, ctx: CombatContext, action: ActionStage) -> DamageStage:
    """Replay the Damage step with ``draft.damage_faces``: the Damage of every participant that
    hit against the Armor once (a Hero's Armor rolled after), an Explosion over every target in
    the blast, a Missed Shot where it lands, a Shove or Grab, a Collision for a Charge that
    missed. Stops at the first die it needs (what was resolved before it is kept)."""
    if not action.complete:
        return DamageStage(error="finish the Action Roll first")
    step = _DamageReplay(draft, ctx, action, Recorder(draft.damage_faces))
    try:
        step.run()
    except NeedDie as exc:
        return replace(
            step.out, dice=tuple(step.src.rolled), owners=tuple(step.src.owners), need=exc
        )
    except UserError as exc:
        return replace(
            step.out, dice=tuple(step.src.rolled), owners=tuple(step.src.owners), error=str(exc)
        )
    return replace(
        step.out,
        dice=tuple(step.src.rolled),
        owners=tuple(step.src.owners),
        extra_faces=len(draft.damage_faces) - step.src.typed.used,
    )


class _DamageReplay:
    """The steps of the Damage step; ``out`` holds what is resolved so far."""

    def __init__(
        self, draft: AttackDraft, ctx: CombatContext, action: ActionStage, src: Recorder
    ) -> None:
        self.draft, self.ctx, self.action, self.src = draft, ctx, action, src
        self.target = target_of(draft, ctx)
        self.out = DamageStage()

    def run(self) -> None:
        draft, action, first = self.draft, self.action, self.action.first
        if action.avoided or first is None:
            return
        self.src.rolling = ("damage", action.strikers[0].fighter.unit_id)
        attacker = first.attack.attacker.name
        if draft.kind is AttackKind.COLLISION:
            col = collide(attacker, self.target.name, self.src, blocked_after=draft.obstacle)
            self.out = replace(self.out, collision=col, mom_spent=True)
            self.knocked_back(col.knockback, attacker)
        elif draft.kind is AttackKind.SHOVE:
            res = shove(
                attacker,
                self.target.name,
                parry=action.parry,
                blocked_after=draft.obstacle,
                mom_dice=self.src if charging_shove(draft, self.ctx) else None,
            )
            self.out = replace(self.out, shove=res, mom_spent=bool(res.mom_dice))
            self.knocked_back(res.knockback, attacker)
        elif draft.kind is AttackKind.GRAB:
            self.out = replace(self.out, grab=grab(attacker, self.target.name, parry=action.parry))
        elif action.strikers[0].attack.weapon.explosive and (first.hit or first.attack.ranged):
            self.explosion(first)
        else:
            self.hits(first)
            self.missed_shot(first)
            self.collision(first)

    def explosion(self, first: AttackRoll) -> None:
        """An Explosive's blast over the target (when it hit) and every unit marked inside
        it, each seen from the point of detonation (5.1: ``explode_from_point``), and where a
        missed one lands (3.2, 5.3)."""
        draft, action, target = self.draft, self.action, self.target
        members = blast_members(draft, self.ctx, first.hit)
        kept = blast_kept(draft, members)
        if kept:
            defl: dict[str, Sequence[str]] | None = (
                {target.name: action.parry.deflections} if action.parry and first.hit else None
            )
            self.out = replace(
                self.out,
                explosion=explode_from_point(
                    first,
                    [t for _uid, t in members],
                    blast_exposures(draft, members),
                    self.src,
                    deflections=defl,
                ),
                blast_units=blast_units(draft, first.hit),
                blast_hit_ids=tuple(uid for uid, _t in kept),
            )
        if not first.hit:
            self.out = replace(self.out, missed=missed_shot(first))

    def hits(self, first: AttackRoll) -> None:
        """The Damage of every participant that hit, against the Armor once (5.1 Combined
        Attacks), and a Heavy or Two-Handed weapon's KnockBack (3.1)."""
        draft, action = self.draft, self.action
        parts: list[DamageRoll] = []
        for i, (s, r) in enumerate(zip(action.strikers, action.rolls, strict=False)):
            if not r.hit or not (s.attack.weapon.damage.terms or s.attack.weapon.damage.flat):
                continue
            mom = (
                i == 0
                and draft.kind is AttackKind.CHARGE
                and draft.spend_mom
                and mom_spendable(s)[0]
            )
            if mom:
                self.out = replace(self.out, mom_spent=True)
            self.src.rolling = ("damage", s.fighter.unit_id)
            parts.append(
                damage_roll(r, self.src, deflections=deflections_for(i, action), spend_mom=mom)
            )
        if parts:
            self.src.rolling = ("armor", draft.target_id)
            damage = apply_damage(parts, self.target, self.src)
            self.out = replace(
                self.out,
                damage=damage,
                weapon_knockback=AttackResult(first, damage).knockback if first.hit else 0,
            )

    def missed_shot(self, first: AttackRoll) -> None:
        """Where a missed Ranged attack lands, and what it strikes there (5.3)."""
        draft = self.draft
        if first.hit or not first.attack.ranged or first.roll is None:
            return
        self.out = replace(self.out, missed=missed_shot(first))
        if draft.missed_strikes is None:
            return
        struck = target_of(draft, self.ctx, unit_id=draft.missed_strikes, sections=3)
        distance = (
            draft.missed_distance if draft.missed_distance is not None else (first.attack.distance)
        )
        assert distance is not None  # a Ranged attack is measured before it is rolled
        self.out = replace(
            self.out,
            missed_damage=resolve_missed_shot(first, struck, distance, self.src),
            missed_unit=draft.missed_strikes,
        )

    def collision(self, first: AttackRoll) -> None:
        """A Charge that missed Collides with the target in its path, spending the MOM
        (5.4)."""
        draft = self.draft
        if (
            first.hit
            or draft.kind is not AttackKind.CHARGE
            or not first.attack.has_mom
            or not draft.collide
        ):
            return
        attacker = first.attack.attacker.name
        col = collide(attacker, self.target.name, self.src, blocked_after=draft.obstacle)
        self.out = replace(self.out, collision=col, mom_spent=True)
        self.knocked_back(col.knockback, attacker)

    def knocked_back(self, knockback: KnockBackResult | None, attacker: str) -> None:
        """A Shove's or Collision's KnockBack, and the Smash damage of an obstacle in the
        way."""
        if knockback is None:
            return
        self.out = replace(self.out, knockback=knockback)
        smash = knockback.smash_damage(attacker)
        if smash is not None:
            self.out = replace(self.out, damage=apply_damage(smash, self.target, self.src))


@dataclass(frozen=True)
class BennyOption:
    use: BennyUse
    label: str
    problem: str | None = None
    key: str = ""  # the keyboard letter that picks it


def benny_options(
    draft: AttackDraft, ctx: CombatContext, key: str, stage: ActionStage | None = None
) -> tuple[BennyOption, ...]:
    """How the Over the Top Benny of ``key`` may be spent (4.2 Over the Top), each with why not,
    and the keyboard letter that picks it. The first allowed one is the BENNY_POLICY default."""
    if key == "bail":
        return (
            BennyOption(BennyUse.EMBELLISH, "land on his feet: not Disrupted", key="L"),
            BennyOption(BennyUse.STAT, "+1d6 inches of dive", key="I"),
            BennyOption(BennyUse.NONE, "not spent", key="N"),
        )
    if key == "parry":
        damage = draft.kind.incoming.is_damage
        return (
            BennyOption(BennyUse.ACTION, "+1d6 to the Parry roll", key="A"),
            BennyOption(
                BennyUse.EMBELLISH,
                "one more level of Deflection"
                if damage
                else "an embellishment the players agree on",
                key="E",
            ),
            BennyOption(BennyUse.NONE, "not spent", key="N"),
        )
    ranged = not draft.kind.close_combat
    has_damage = True
    try:
        s = next(s for s in strikers(draft, ctx) if s.key == key)
        has_damage = bool(s.attack.weapon.damage.terms)
    except (UserError, StopIteration):
        pass
    opts = [
        BennyOption(BennyUse.ACTION, "+1d6 to the Action Roll", key="A"),
        BennyOption(
            BennyUse.DAMAGE,
            "one more Damage die",
            None if has_damage else "this attack has no Damage dice",
            key="D",
        ),
        BennyOption(
            BennyUse.STAT,
            "+1d6 inches of Range",
            None if ranged else "Close Combat has no Range to add to (4.2)",
            key="R",
        ),
        BennyOption(BennyUse.EMBELLISH, "an embellishment (e.g. a precise spot)", key="E"),
        BennyOption(BennyUse.NONE, "not spent", key="N"),
    ]
    # BENNY_POLICY: Damage when the roll already hits, else +1d6 Action.
    if stage is not None:
        roll = next(
            (r for r, s in zip(stage.rolls, stage.strikers, strict=False) if s.key == key), None
        )
        if roll is not None and roll.hit and has_damage:
            opts.insert(0, opts.pop(1))
    return tuple(opts)
