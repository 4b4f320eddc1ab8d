"""Actions and maneuvers besides the attack roll itself: Parry (5.2), Bail (4.3), Sprint (4.1),
Charge and Collision (5.4), Shove and Grab (5.2), KnockBack.

Like :mod:`brikdesk.domain.attack`, every function is pure (a ``DiceSource`` is passed in),
returns a frozen result with ``describe()`` in plain words, and is steppable where the rules let
the organizer spend an Over the Top Benny after seeing the roll (``apply_*_benny``). Readings
chosen where the rules are vague are in :data:`READINGS` (section -> text to show).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction

from brikdesk.domain.attack import (
    MINIFIG_TOOL_USE,
    Attacker,
    AttackRoll,
    DamageRoll,
    ExplosionResult,
    SizeClass,
    Target,
    charging_weapon,
    explode,
    flat_damage,
    gains_mom,
    inches_text,
    to_inches,
)
from brikdesk.domain.catalog import CatalogItem
from brikdesk.domain.modifiers import Modifier, Stat
from brikdesk.domain.rolling import (
    ActionRoll,
    BennyUse,
    DiceSource,
    DieRoll,
    Role,
    check_benny_to_spend,
    embellishment_text,
    roll_action,
    roll_benny,
    roll_die,
)
from brikdesk.domain.rulesets import RULES_2020, RuleSet
from brikdesk.errors import UserError

__all__ = [
    "BARE_HANDS_PARRY",
    "BailResult",
    "CollisionResult",
    "GrabResult",
    "Incoming",
    "KnockBackResult",
    "ParryItem",
    "ParryResult",
    "READINGS",
    "ShoveResult",
    "SprintResult",
    "apply_bail_benny",
    "apply_parry_benny",
    "apply_sprint_benny",
    "charging_weapon",
    "collide",
    "dice_chains",
    "gains_mom",
    "grab",
    "knockback",
    "parry_use",
    "roll_bail",
    "roll_parry",
    "roll_sprint",
    "shove",
    "SHOVE_KNOCKBACK",
    "BlastExposure",
    "blast_targets",
    "explode_from_point",
]

#: A Shove Knocks Back this many inches (5.2).
SHOVE_KNOCKBACK = 2

#: Readings chosen where the rules are vague: section -> text the interface can show.
READINGS: dict[str, str] = {
    "4.1 Sprinting": (
        "The Sprint roll is the Action die rolled for distance: its highest face adds a bonus "
        'd6, and so on (4.1 "can benefit from Bonus Dice like any other roll"); a natural 6 '
        "or more also goes Over the Top (4.2 names Sprint distance as a stat a Benny adds to). "
        "A natural 1 is simply 1 inch. If a chain of bonus dice (the Sprint die's or the "
        "Benny die's) ends in a 1, the runner can't stop short of the full distance."
    ),
    "4.1 Half Speed": (
        "At Half Speed the Sprint inches cost double: the runner goes half of them, keeping a "
        'half inch (a Sprint of 5 is 2½").'
    ),
    "4.3 Bailing": (
        "The Bail roll is an Action Roll for distance (2010, 2020): no bonus d6 on the top face, "
        "a d4's natural 4 adds a bonus d4; a natural 1 falls where he stands (0\"), Disrupted. "
        "Over the Top (6 or more) earns one Benny: land on his feet (not Disrupted) or +1d6 "
        "inches, not both. At Half Speed he dives one "
        "real inch for every two Bail inches, keeping a half inch rather than rounding down, "
        "so a low roll is never turned into the critical failure's fall on the spot. Whether "
        "the dive clears the danger is the organizer's call on the table."
    ),
    "5.2 Parrying": (
        "+1 to Parry an Attack (Strike or Charge) or Shove made with a Two-Handed Weapon; not a "
        "Grab. A critical failure knocks the parrying item away by the attacker's Action Roll "
        "in inches; an Automatic Hit (Grab, Shove) has no Action Roll, so the attacker rolls "
        "his Action die for that distance. An Over the Top Benny on a successful Shield Parry "
        "of Damage buys one more level of Deflection."
    ),
    "5.4 Collisions": (
        "MOM and POP dice earn bonus dice like other distance rolls. Combined Charges from one "
        "direction add their MOMs; the target still rolls one POP. Two minifigs Charging "
        "head-on each resolve a Collision on the other."
    ),
    "KnockBack": (
        "Any Knocked Back minifig (Shove, Explosion, Collision) stopped by a larger obstacle "
        "takes 1 point of Smash damage per inch of KnockBack prevented, any part of an inch "
        "counting; it adds to other Damage from the same attack before comparing with Armor."
    ),
    "5.2 Shoving": (
        "A Charging Shove (5.4 'cause 1d6\" of KnockBack in a Collision or a Charging Shove') "
        'spends the MOM for 1d6" more KnockBack (with bonus dice) on top of the Shove\'s 2"; '
        "the target's POP resists Collisions only, not a Shove."
    ),
    "5.1 Explosions": (
        "Each target in a blast takes the size and visibility modifiers of the part of it "
        "inside the radius and visible from the point of detonation, measured for that target "
        "(not the primary target's Action Roll); a target with nothing inside and visible is "
        "not affected."
    ),
}


def _faces(dice: Iterable[DieRoll]) -> str:
    return "+".join(str(d.face) for d in dice)


def dice_chains(dice: Sequence[DieRoll]) -> tuple[tuple[DieRoll, ...], ...]:
    """The dice grouped by chain: each die with the bonus dice that follow it (1.2)."""
    groups: list[list[DieRoll]] = []
    for d in dice:
        if d.role is Role.BONUS and groups:
            groups[-1].append(d)
        else:
            groups.append([d])
    return tuple(tuple(g) for g in groups)


def _chain_ends_in_one(dice: Sequence[DieRoll]) -> bool:
    """A chain of bonus dice (at least one) whose last die shows 1 (4.1 Sprinting)."""
    return any(len(g) > 1 and g[-1].face == 1 for g in dice_chains(dice))


# --------------------------------------------------------------------------------------------
# Parry (5.2)


class Incoming(str, Enum):
    """What is being Parried."""

    STRIKE = "a Strike"
    DAMAGE = "other incoming Damage"
    CHARGE = "a Charge"
    GRAB = "a Grab"
    SHOVE = "a Shove"

    def __str__(self) -> str:
        return self.value

    @property
    def is_damage(self) -> bool:
        return self in (Incoming.STRIKE, Incoming.DAMAGE, Incoming.CHARGE)


@dataclass(frozen=True)
class ParryItem:
    """What a minifig Parries with: a Shield, another object, a Ranged weapon, or bare hands."""

    name: str
    use: int | None
    shield: bool = False
    ranged: bool = False
    bare_hands: bool = False

    @classmethod
    def from_item(cls, item: CatalogItem) -> ParryItem:
        return cls(
            item.name,
            item.use,
            shield=item.shield,
            ranged=item.range_inches is not None and not item.close_combat,
        )


#: Parrying with Bare Hands: Use 0 (5.2).
BARE_HANDS_PARRY = ParryItem("bare hands", 0, bare_hands=True)


def parry_use(item: ParryItem) -> tuple[int, str]:
    """5.2: the Use a Parry rolls against, with the reason: bare hands 0, a Ranged weapon 3
    (as a Minifig Tool), otherwise the item's own Use."""
    if item.bare_hands:
        return 0, "Bare Hands Parry at Use 0 (5.2)"
    if item.ranged:
        return (
            MINIFIG_TOOL_USE,
            f"a Ranged weapon Parries as a Minifig Tool, Use {MINIFIG_TOOL_USE} (5.2)",
        )
    if item.use is None:
        raise UserError(f"{item.name} can't be used to Parry (it has no Use)", field="parry")
    return item.use, f"{item.name} Use {item.use}"


@dataclass(frozen=True)
class ParryResult:
    """A Parry's Action Roll and what it achieved."""

    parrier: Attacker
    item: ParryItem
    against: Incoming
    roll: ActionRoll
    use_reason: str
    knocked_away: int | None = None
    knock_dice: tuple[DieRoll, ...] = ()
    benny: BennyUse = BennyUse.NONE
    benny_dice: tuple[DieRoll, ...] = ()
    embellishment: str = ""
    attacker_name: str = ""  # whose attack was Parried (for the knocked-away item's words)

    @property
    def success(self) -> bool:
        return self.roll.success

    @property
    def critical_failure(self) -> bool:
        return self.roll.critical_failure

    @property
    def over_the_top(self) -> bool:
        return self.roll.over_the_top and self.parrier.over_the_top

    @property
    def cancelled(self) -> bool:
        """A successful Parry cancels a Grab or Shove (5.2)."""
        return self.success and not self.against.is_damage

    @property
    def deflections(self) -> tuple[str, ...]:
        """Deflection levels (with reasons) a Shield Parry gives against the Damage (5.2)."""
        if not (self.success and self.against.is_damage):
            return ()
        out = [f"{self.parrier.name}'s {self.item.name} Parry (5.2)"]
        if self.benny is BennyUse.EMBELLISH:
            out.append("Over the Top Benny on the Parry: one more level (5.2)")
        return tuple(out)

    def knocked_away_text(self) -> str:
        """``'the Shield is knocked out of Bob's hands, 5" directly away from Ann (Ann's Action
        Roll, 5.2)'``; empty when nothing was knocked away."""
        if self.knocked_away is None:
            return ""
        who = self.attacker_name or "the attacker"
        how = (
            f"a roll of {who}'s Action die"
            if self.knock_dice
            else f"{who}'s Action Roll"
            if self.attacker_name
            else "the attacker's Action Roll"
        )
        return (
            f"the {self.item.name} is knocked out of {self.parrier.name}'s hands, "
            f"{inches_text(self.knocked_away)} directly away from {who} ({how}, 5.2)"
        )

    def describe(self) -> str:
        r = self.roll
        mods = "".join(f"{m.value:+d}" for m in r.modifiers if m.applies_to is Stat.ACTION)
        faces = _faces((*r.dice, *r.benny_dice))
        head = (
            f"{self.parrier.name} Parries {self.against} with {self.item.name}: "
            f"{faces}{mods} = {r.total} vs Use {r.use}"
        )
        if self.critical_failure:
            text = f"{head}: natural 1, a critical failure"
            if self.knocked_away is not None:
                text += f"; {self.knocked_away_text()}"
            return text
        if not self.success:
            text = f"{head}: the Parry fails"
        elif self.against.is_damage:
            n = len(self.deflections)
            text = f"{head}: Parried, {n} level{'s' if n > 1 else ''} of Deflection"
        else:
            text = f"{head}: Parried, the {self.against.name.title()} is cancelled"
        if self.over_the_top and self.benny is BennyUse.NONE:
            text += "; Over the Top: a Benny to spend"
        elif self.benny is BennyUse.ACTION:
            text += f"; Benny spent on +1d6 ({_faces(self.benny_dice)})"
        elif self.benny is BennyUse.EMBELLISH and not self.against.is_damage:
            text += f"; Benny spent on: {self.embellishment}"
        return text


def roll_parry(
    parrier: Attacker,
    item: ParryItem,
    against: Incoming,
    dice: DiceSource,
    *,
    two_handed_weapon: bool = False,
    attacker_roll: int | None = None,
    attacker: Attacker | None = None,
    outnumbered: bool = False,
    extra: Sequence[Modifier] = (),
) -> ParryResult:
    """5.2 Parrying: an Action Roll against the parrying item's Use.

    Only a Shield can Parry a Strike, a Charge (5.4) or other incoming Damage; success gives one
    level of Deflection. Any item, or bare hands, can Parry a Grab or Shove; success cancels it.
    +1 against an Attack or Shove made with a Two-Handed Weapon; -1 when outnumbered in Close
    Combat. A critical failure knocks the item (not bare hands) away from the attacker by the
    attacker's Action Roll (``attacker_roll``), or, after an Automatic Hit, by a roll of the
    ``attacker``'s Action die (READINGS "5.2 Parrying").
    """
    if against.is_damage and not item.shield:
        what = "a Charge" if against is Incoming.CHARGE else "a Strike or other Damage"
        rule = "5.4 Charge" if against is Incoming.CHARGE else "5.2 Parrying"
        raise UserError(
            f"only a Shield can Parry {what}; {item.name} can't ({rule}). Bailing "
            "is the other way out",
            field="parry",
        )
    use, use_reason = parry_use(item)
    mods: list[Modifier] = []
    if two_handed_weapon and against is not Incoming.GRAB and against is not Incoming.DAMAGE:
        mods.append(
            Modifier(
                1, Stat.ACTION, f"Parrying {against} made with a Two-Handed Weapon", "5.2 Parrying"
            )
        )
    if outnumbered:
        mods.append(
            Modifier(-1, Stat.ACTION, "outnumbered in Close Combat", "5.1 Combined Attacks")
        )
    mods.extend(m for m in extra if m.applies_to is Stat.ACTION)
    roll = roll_action(
        parrier.action_die, use, dice, mods, what=f"{parrier.name}'s Parry with {item.name}"
    )
    knocked: int | None = None
    knock_dice: tuple[DieRoll, ...] = ()
    if roll.critical_failure and not item.bare_hands:
        if attacker_roll is None:
            if attacker is None:
                raise UserError(
                    "the Parry is a critical failure: give the attacker's Action "
                    "Roll (or the attacker, to roll his Action die) for how far "
                    f"the {item.name} flies (5.2)",
                    field="attacker_roll",
                )
            face = dice.roll(
                attacker.action_die,
                f"{attacker.name}'s Action die: how far the {item.name} is knocked away",
            )
            knock_dice = (
                DieRoll(
                    attacker.action_die,
                    face,
                    Role.NATURAL,
                    "distance the parrying item is knocked away",
                ),
            )
            attacker_roll = face
        knocked = max(0, attacker_roll)
    return ParryResult(
        parrier,
        item,
        against,
        roll,
        use_reason,
        knocked,
        knock_dice,
        attacker_name=attacker.name if attacker is not None else "",
    )


def apply_parry_benny(
    result: ParryResult, use: BennyUse, dice: DiceSource, embellishment: str = ""
) -> ParryResult:
    """4.2/5.2: spend an Over the Top Benny earned on a Parry.

    ``ACTION``: +1d6 to the Parry roll. ``EMBELLISH`` (or ``STAT``) on a successful Shield Parry
    of Damage: one more level of Deflection. Against a Grab or Shove an embellishment must say
    what it is.
    """
    if use is BennyUse.NONE:
        return result
    check_benny_to_spend(
        result.benny,
        result.roll.natural,
        who=result.parrier.name,
        can_go_over_the_top=result.parrier.over_the_top,
        roll="Parry's Action die",
    )
    if use is BennyUse.ACTION:
        bought = tuple(roll_benny(dice, 6, "+1d6 Parry roll"))
        return replace(result, roll=result.roll.with_benny(bought), benny=use, benny_dice=bought)
    if use is BennyUse.DAMAGE:
        raise UserError("a Parry does no Damage to add a die to (4.2)", field="benny")
    if result.against.is_damage:
        if not result.success:
            raise UserError(
                "the Parry failed, so there is no Deflection to add to: spend the "
                "Benny on +1d6 to the Parry roll instead (5.2)",
                field="benny",
            )
        return replace(
            result, benny=BennyUse.EMBELLISH, embellishment="one more level of Deflection"
        )
    if use is BennyUse.STAT:
        raise UserError("a Parry of a Grab or Shove has no stat to add to (4.2)", field="benny")
    return replace(result, benny=use, embellishment=embellishment_text(embellishment))


# --------------------------------------------------------------------------------------------
# Distance rolls: Bail (4.3) and Sprint (4.1)


@dataclass(frozen=True)
class _DistanceRoll:
    who: Attacker
    dice: tuple[DieRoll, ...]
    half_speed: bool = False
    benny: BennyUse = BennyUse.NONE
    benny_dice: tuple[DieRoll, ...] = ()
    embellishment: str = ""
    rules: RuleSet = RULES_2020

    @property
    def natural(self) -> int:
        return self.dice[0].face

    @property
    def over_the_top(self) -> bool:
        """A natural 6 or more on the Action die earns a Benny (4.2); never in 2005, whose
        Sprint and Bail are a plain 1d6 and whose chapter 4 has no Over the Top."""
        return (
            self.natural >= 6
            and self.who.over_the_top
            and self.rules.has_over_the_top
            and self.rules.distance_die is None
        )

    @property
    def rolled_inches(self) -> int:
        return sum(d.face for d in self.dice) + sum(d.face for d in self.benny_dice)

    @property
    def halved(self) -> bool:
        return self.half_speed

    @property
    def _inches(self) -> int:
        return self.rolled_inches

    @property
    def distance(self) -> Fraction:
        """Real inches: half the rolled inches at Half Speed (4.1, 4.3)."""
        inches = Fraction(self._inches)
        return inches / 2 if self.halved else inches

    def _check_benny(self, use: BennyUse) -> None:
        if not self.rules.has_over_the_top or self.rules.distance_die is not None:
            raise UserError(
                f"no Benny to spend: {self.rules.name}'s chapter 4 gives this roll "
                "no Over the Top (4.2)",
                field="benny",
            )
        check_benny_to_spend(
            self.benny, self.natural, who=self.who.name, can_go_over_the_top=self.who.over_the_top
        )
        if use is BennyUse.DAMAGE:
            raise UserError("there is no Damage to add a die to (4.2)", field="benny")


def _distance_dice(
    who: Attacker, dice: DiceSource, what: str, rules: RuleSet, *, action_roll: bool, bonus: bool
) -> tuple[DieRoll, ...]:
    """The dice of a Sprint or Bail: the edition's distance die (2005: 1d6, a Hero too) or the
    Action die; as an Action Roll (no bonus d6, the d4's bonus d4), with bonus dice, or plain."""
    sides = rules.distance_die or who.action_die
    if action_roll and rules.distance_die is None:
        return roll_action(sides, 0, dice, what=what).dice
    if bonus:
        return tuple(roll_die(sides, dice, Role.NATURAL, what))
    return (DieRoll(sides, dice.roll(sides, what), Role.NATURAL, what),)


@dataclass(frozen=True)
class BailResult(_DistanceRoll):
    """A Bail (4.3): how far the minifig dives, and whether he ends Disrupted."""

    @property
    def critical_failure(self) -> bool:
        """A natural 1: he slips and falls on his face where he stands (4.3)."""
        return self.natural == 1

    @property
    def bail_inches(self) -> int:
        return 0 if self.critical_failure else self.rolled_inches

    @property
    def _inches(self) -> int:
        return self.bail_inches

    @property
    def halved(self) -> bool:
        """Half the Bail inches at Half Speed (READINGS "4.3 Bailing"); 2005 says nothing of
        Half Speed Bails."""
        return self.half_speed and self.rules.bail_half_speed

    @property
    def landed_on_feet(self) -> bool:
        return self.benny is BennyUse.EMBELLISH

    @property
    def disrupted(self) -> bool:
        return not self.landed_on_feet

    def describe(self) -> str:
        name = self.who.name
        if self.critical_failure:
            return (
                f"{name} Bails: natural 1, he slips and falls on his face where he stands; "
                "Disrupted"
            )
        dice = (*self.dice, *self.benny_dice)
        text = (
            f"{name} Bails: {_faces(dice)} = {self.bail_inches}"
            if len(dice) > 1
            else f"{name} Bails: rolls {self.bail_inches}"
        )
        if self.halved:
            text += f" at Half Speed, dives {inches_text(self.distance)}"
        else:
            text += f", dives up to {inches_text(self.distance)}"
        if self.landed_on_feet:
            text += "; Over the Top: lands on his feet, not Disrupted"
        else:
            text += "; ends prone and Disrupted"
            if self.over_the_top and self.benny is BennyUse.NONE:
                text += " (Over the Top: a Benny can land him on his feet)"
        return text


def roll_bail(
    who: Attacker, dice: DiceSource, *, half_speed: bool = False, rules: RuleSet = RULES_2020
) -> BailResult:
    """4.3 Bailing: "A Bailing minifig can spend an Action to dive to any spot within an Action
    Roll's worth of inches from his current position, ending up lying prone on the ground and
    Disrupted."

    2010 and 2020: the Bail is an Action Roll, so (4.2) it "doesn't score Critical Successes the
    same way as other die rolls": no bonus d6 on the top face; a natural 6 or more goes Over
    the Top instead (one Benny: +1d6 inches or land on his feet, ``apply_bail_benny``), and a
    d4's natural 4 adds a bonus d4. 2005: "within 1d6\"" for every unit (a Hero too), a plain
    distance roll with bonus dice and no Benny. A natural 1 falls where he stands. Half the
    inches at Half Speed (2010, 2020). Readings: READINGS "4.3 Bailing", rulesets.READINGS.
    """
    rolled = _distance_dice(
        who, dice, f"{who.name}'s Bail", rules, action_roll=rules.bail_is_action_roll, bonus=True
    )
    return BailResult(who, rolled, half_speed, rules=rules)


def apply_bail_benny(result: BailResult, use: BennyUse, dice: DiceSource) -> BailResult:
    """Spend a Bail's Over the Top Benny: ``EMBELLISH`` lands on his feet (no Disruption);
    ``STAT`` or ``ACTION`` adds +1d6 Bail inches (4.2, 4.3)."""
    if use is BennyUse.NONE:
        return result
    result._check_benny(use)
    if use is BennyUse.EMBELLISH:
        return replace(result, benny=use, embellishment="lands on his feet")
    bought = tuple(roll_benny(dice, 6, "+1d6 Bail inches"))
    return replace(result, benny=BennyUse.STAT, benny_dice=bought)


@dataclass(frozen=True)
class SprintResult(_DistanceRoll):
    """A Sprint (4.1): extra straight-line inches, and whether he can stop short."""

    @property
    def sprint_inches(self) -> int:
        return self.rolled_inches

    @property
    def must_run_full(self) -> bool:
        """A chain of bonus dice ending in a 1: he can't stop short (4.1; 2010 and 2020)."""
        return self.rules.sprint_runaway and (
            _chain_ends_in_one(self.dice) or _chain_ends_in_one(self.benny_dice)
        )

    def describe(self) -> str:
        rolled = (*self.dice, *self.benny_dice)
        sum_text = f"{_faces(rolled)} = " if len(rolled) > 1 else ""  # one die: no "4 = 4"
        text = f'{self.who.name} Sprints: {sum_text}{self.sprint_inches}" more Move'
        if self.half_speed:
            text += f", at Half Speed {inches_text(self.distance)}"
        text += ", all in a straight line forward"
        if self.must_run_full:
            text += (
                f"; the bonus dice ended in a 1: he can't stop and must run the full "
                f"{inches_text(self.distance)}, into walls or off the table"
            )
        if self.over_the_top and self.benny is BennyUse.NONE:
            text += "; Over the Top: a Benny to spend"
        elif self.benny is BennyUse.EMBELLISH:
            text += f"; Benny spent on: {self.embellishment}"
        return text


def roll_sprint(
    who: Attacker, dice: DiceSource, *, half_speed: bool = False, rules: RuleSet = RULES_2020
) -> SprintResult:
    """4.1 Sprinting: spend the Action, "rolling his Action Die and giving himself that many
    bonus inches of Move" (2020; 2010 "equal to his Skill Roll"; 2005 "1d6 extra inches").

    "The die roll for Sprinting can benefit from Bonus Dice like any other roll" (4.1): the
    die's highest face chains bonus d6s; a natural 6 or more also goes Over the Top (2010,
    2020). At Half Speed the Sprint inches are at Half Speed. "If a series of Critical
    Successes in a Sprint roll ends with a roll of one ... must run the full distance"
    (2010, 2020). ``dice`` is virtual (``RandomDice``) or typed (``TypedDice``).
    Reading: READINGS "4.1 Sprinting", rulesets.READINGS.
    """
    rolled = _distance_dice(
        who, dice, f"{who.name}'s Sprint", rules, action_roll=False, bonus=rules.sprint_bonus_dice
    )
    return SprintResult(who, rolled, half_speed, rules=rules)


def apply_sprint_benny(
    result: SprintResult, use: BennyUse, dice: DiceSource, embellishment: str = ""
) -> SprintResult:
    """Spend a Sprint's Over the Top Benny: ``STAT`` (or ``ACTION``) +1d6 inches (4.2);
    ``EMBELLISH`` with a text the players agree on."""
    if use is BennyUse.NONE:
        return result
    result._check_benny(use)
    if use is BennyUse.EMBELLISH:
        return replace(result, benny=use, embellishment=embellishment_text(embellishment))
    bought = tuple(roll_benny(dice, 6, "+1d6 Sprint inches"))
    return replace(result, benny=BennyUse.STAT, benny_dice=bought)


# --------------------------------------------------------------------------------------------
# KnockBack, Collision (5.4), Shove and Grab (5.2)


@dataclass(frozen=True)
class KnockBackResult:
    """A target pushed ``inches`` directly away; an obstacle may stop it short (Smash damage)."""

    target: str
    inches: int
    reason: str
    rule: str
    blocked_after: Fraction | None = None
    disrupts: bool = True

    @property
    def flown(self) -> Fraction:
        if self.blocked_after is None:
            return Fraction(self.inches)
        return min(Fraction(self.inches), self.blocked_after)

    @property
    def prevented(self) -> Fraction:
        return Fraction(self.inches) - self.flown

    @property
    def smash(self) -> int:
        """1 point of Smash damage per inch of KnockBack prevented (5.4; READINGS "KnockBack")."""
        return math.ceil(self.prevented)

    @property
    def disrupted(self) -> bool:
        return self.disrupts and self.inches > 0

    def smash_damage(self, attacker: str = "") -> DamageRoll | None:
        """The Smash damage as a Damage part to add to the attack's Damage (apply_damage)."""
        if not self.smash:
            return None
        return flat_damage(
            self.smash,
            f"Smash: {inches_text(self.smash)} of KnockBack stopped by an obstacle",
            "5.4 Minifig Collisions",
            attacker,
        )

    def describe(self) -> str:
        text = f"{self.target} is Knocked Back {inches_text(self.inches)} ({self.reason})"
        if self.smash:
            text += (
                f", slams into an obstacle after {inches_text(self.flown)}: "
                f"{self.smash} Smash damage"
            )
        if self.disrupted:
            text += "; Disrupted"
        return text


def knockback(
    target: str,
    inches: int,
    *,
    reason: str,
    rule: str,
    blocked_after: Fraction | int | float | str | None = None,
    disrupts: bool = True,
) -> KnockBackResult:
    """KnockBack (3.2, 5.2, 5.4): ``inches`` directly away; ``blocked_after`` is where a larger
    obstacle stops the flight. Smash damage per inch prevented (READINGS "KnockBack")."""
    if inches < 0:
        raise UserError("KnockBack can't be negative", field="knockback")
    blocked = None if blocked_after is None else to_inches(blocked_after, "obstacle distance")
    return KnockBackResult(target, inches, reason, rule, blocked, disrupts)


@dataclass(frozen=True)
class CollisionResult:
    """5.4 Minifig Collisions: MOM KnockBack against one POP."""

    charger: str
    target: str
    mom_dice: tuple[DieRoll, ...]
    pop_dice: tuple[DieRoll, ...]
    knockback: KnockBackResult | None

    @property
    def mom_total(self) -> int:
        return sum(d.face for d in self.mom_dice)

    @property
    def pop_total(self) -> int:
        return sum(d.face for d in self.pop_dice)

    @property
    def remaining(self) -> int:
        return self.mom_total - self.pop_total

    @property
    def resisted(self) -> bool:
        """No inches left: both stop dead and are locked in Close Combat."""
        return self.remaining <= 0

    def describe(self) -> str:
        head = (
            f"{self.charger} Collides with {self.target}: KnockBack "
            f"{_faces(self.mom_dice)} (MOM) - {_faces(self.pop_dice)} (POP) = "
            f"{self.remaining}"
        )
        if self.resisted:
            return (
                f"{head}: resisted; {self.charger} stops dead and both are locked in Close Combat"
            )
        assert self.knockback is not None
        return (
            f"{head}: {self.knockback.describe()}; {self.charger} runs on to the limit of his Move"
        )


def collide(
    charger: str,
    target: str,
    dice: DiceSource,
    *,
    moms: int = 1,
    blocked_after: Fraction | int | float | str | None = None,
) -> CollisionResult:
    """5.4 Minifig Collisions (part of movement, no Action; an Automatic Hit unless dodged).

    Each MOM spent is 1d6" of KnockBack (combined Charges from one direction add theirs); the
    target resists with one POP, 1d6. Inches left: the target flies that far, Disrupted, and the
    charger runs on; none: both stop and are in Close Combat. An obstacle at ``blocked_after``
    inches turns the rest into Smash damage. Reading: READINGS "5.4 Collisions".
    """
    if moms < 1:
        raise UserError('a Collision needs a MOM: 4" in a straight line (5.4)', field="mom")
    mom: list[DieRoll] = []
    for i in range(moms):
        mom.extend(
            roll_die(
                6,
                dice,
                Role.MOM,
                f"KnockBack from {charger}'s MOM" + (f" #{i + 1}" if moms > 1 else ""),
            )
        )
    pop = tuple(roll_die(6, dice, Role.POP, f"{target}'s Physical Opposition"))
    left = sum(d.face for d in mom) - sum(d.face for d in pop)
    kb = None
    if left > 0:
        kb = knockback(
            target,
            left,
            reason=f"Collision with {charger}",
            rule="5.4 Minifig Collisions",
            blocked_after=blocked_after,
        )
    return CollisionResult(charger, target, tuple(mom), pop, kb)


@dataclass(frozen=True)
class ShoveResult:
    """5.2 Shoving: an Automatic Hit, 2" KnockBack and Disrupted, unless Parried or Bailed."""

    shover: str
    target: str
    avoided: str | None
    knockback: KnockBackResult | None
    mom_dice: tuple[DieRoll, ...] = ()  # a Charging Shove's MOM (5.4)

    def describe(self) -> str:
        if self.avoided:
            return f"{self.shover} Shoves {self.target}, who {self.avoided}: no effect"
        assert self.knockback is not None
        return f"{self.shover} Shoves {self.target} (Automatic Hit): {self.knockback.describe()}"


def shove(
    shover: str,
    target: str,
    *,
    parry: ParryResult | None = None,
    bailed: bool = False,
    blocked_after: Fraction | int | float | str | None = None,
    mom_dice: DiceSource | None = None,
) -> ShoveResult:
    """5.2 Shoving: an Automatic Hit pushing the target 2" directly away, Disrupted, unless a
    Parry cancels it or the target dodged by Bailing.

    A Charging Shove: give ``mom_dice`` to spend the shover's MOM, 5.4 "He might also use it to
    cause 1d6\" of KnockBack in a Collision or a Charging Shove": 1d6 more inches (bonus dice
    chain) on top of the 2" (READINGS "5.2 Shoving")."""
    if parry is not None and parry.against is not Incoming.SHOVE:
        raise UserError(f"that Parry was against {parry.against}, not a Shove", field="parry")
    if parry is not None and parry.cancelled:
        return ShoveResult(shover, target, "Parried it", None)
    if bailed:
        return ShoveResult(shover, target, "dodged by Bailing", None)
    inches, reason = SHOVE_KNOCKBACK, "Shove"
    mom: tuple[DieRoll, ...] = ()
    if mom_dice is not None:
        mom = tuple(
            roll_die(6, mom_dice, Role.MOM, f"KnockBack from {shover}'s MOM (Charging Shove)")
        )
        inches += sum(d.face for d in mom)
        reason = f'Charging Shove: 2" + MOM {_faces(mom)}'
    kb = knockback(
        target, inches, reason=reason, rule="5.2 Shoving, 5.4 Momentum", blocked_after=blocked_after
    )
    return ShoveResult(shover, target, None, kb, mom)


@dataclass(frozen=True)
class GrabResult:
    """5.2 Grabbing: an Automatic Hit unless Parried or Bailed; no Damage."""

    grabber: str
    target: str
    avoided: str | None

    @property
    def held(self) -> bool:
        return self.avoided is None

    def describe(self) -> str:
        if self.avoided:
            return f"{self.grabber} tries to Grab {self.target}, who {self.avoided}"
        return (
            f"{self.grabber} Grabs {self.target} (Automatic Hit): neither can move, Bail, "
            "Disengage or use Angry Inches; every Close Combat attack on either is an "
            "Automatic Hit until the Grab is released or broken by a Shove (5.2)"
        )


def grab(
    grabber: str, target: str, *, parry: ParryResult | None = None, bailed: bool = False
) -> GrabResult:
    """5.2 Grabbing: an Automatic Hit unless a Parry cancels it or the target Bails."""
    if parry is not None and parry.against is not Incoming.GRAB:
        raise UserError(f"that Parry was against {parry.against}, not a Grab", field="parry")
    if parry is not None and parry.cancelled:
        return GrabResult(grabber, target, "Parried it")
    if bailed:
        return GrabResult(grabber, target, "dodged by Bailing")
    return GrabResult(grabber, target, None)


# --------------------------------------------------------------------------------------------
# Explosions: visibility from the point of detonation (5.1)


@dataclass(frozen=True)
class BlastExposure:
    """How much of one target an Explosion reaches, seen from its point of detonation.

    ``sections``: a minifig's sections (head, torso, legs) both inside the radius and visible
    from the detonation point (0: untouched). ``visible_size``: a large target's inches inside
    the radius and visible from there. ``None`` keeps the target's own value.
    """

    name: str
    sections: int | None = None
    visible_size: Fraction | int | None = None

    def __post_init__(self) -> None:
        if self.sections is not None and not 0 <= self.sections <= 3:
            raise UserError(
                f"{self.name}: a minifig has 0 to 3 sections in the blast", field="sections"
            )
        if self.visible_size is not None:
            object.__setattr__(
                self, "visible_size", to_inches(self.visible_size, "size inside the blast")
            )


def blast_targets(
    targets: Sequence[Target], exposure: Sequence[BlastExposure]
) -> tuple[Target, ...]:
    """The targets as the blast sees them (5.1): "Only the sections of the target within the
    area of effect are considered. Even if a minifig is fully visible from an Explosion's point
    of detonation, if his head and body are outside the two inch radius then the Explosion
    affects his pants only, doing -2 Damage."

    Each target's visibility is its own, measured from the detonation point, never the
    primary target's from the attacker; a minifig with no section exposed is left out.
    """
    by_name = {e.name: e for e in exposure}
    unknown = set(by_name) - {t.name for t in targets}
    if unknown:
        raise UserError(f"not in the blast: {', '.join(sorted(unknown))}", field="targets")
    out: list[Target] = []
    for t in targets:
        e = by_name.get(t.name)
        if e is None:
            out.append(t)
            continue
        if t.size is SizeClass.MINIFIG and e.sections is not None:
            if e.sections == 0:
                continue
            t = replace(t, sections_visible=e.sections)
        if t.size is SizeClass.LARGE and e.visible_size is not None:
            t = replace(t, visible_size=Fraction(e.visible_size))
        out.append(t)
    return tuple(out)


def explode_from_point(
    state: AttackRoll,
    targets: Sequence[Target],
    exposure: Sequence[BlastExposure],
    dice: DiceSource,
    *,
    deflections: dict[str, Sequence[str]] | None = None,
) -> ExplosionResult:
    """An Explosion with each target's size and visibility measured from the point of
    detonation (5.1; READINGS "5.1 Explosions"): ``blast_targets`` then the attack module's
    ``explode`` (one shared Damage roll, per-target modifiers, Deflection and Armor)."""
    kept = blast_targets(targets, exposure)
    if not kept:
        raise UserError(
            "nothing is inside the blast and visible from the detonation point", field="targets"
        )
    return explode(state, kept, dice, deflections=deflections)
