"""Making attacks by the 2020 rules (chapter 5.1 to 5.4): range, Action Roll, Damage vs Armor.

Every attack follows three steps (5.1): check Range (or reach), make the Action Roll against the
weapon's Use, and roll Damage against the target's Armor. Each step returns an itemised
breakdown: every number is a :class:`~brikdesk.domain.modifiers.Modifier` with its value, what
it modifies, the reason and the rule section, and every result has ``describe()`` giving plain
words the combat wizard can show.

The resolution is steppable, because the organizer decides how to spend an Over the Top Benny
*after* seeing the Action die:

1. :func:`roll_attack_action` -> :class:`AttackRoll` (Range checked, Automatic Hit or the roll);
2. :func:`apply_benny` -> a new :class:`AttackRoll` (+1d6 Action, +1d6 Range, one more Damage
   die, or an embellishment);
3. :func:`roll_attack_damage` -> :class:`DamageResult` (or :func:`damage_roll` for each
   participant of a Combined Attack, then :func:`apply_damage` once);
4. for a miss, :func:`missed_shot` and :func:`resolve_missed_shot` (5.3); for Explosives,
   :func:`explode` over every target in the blast.

:func:`resolve_attack` does steps 1 to 3 in one call. With ``TypedDice`` every call replays the
same dice in the same order. Where the rules are vague the reading chosen is in :data:`READINGS`
(section -> text the interface can show), and named in the docstring that applies it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from typing import TypedDict

from brikdesk.domain.catalog import CatalogItem, Category
from brikdesk.domain.dice import ACTION_DICE, DiceExpr, DiceTerm, parse
from brikdesk.domain.modifiers import Modifier, Stat
from brikdesk.domain.rolling import (
    ActionRoll,
    BennyUse,
    DiceSource,
    DieRoll,
    Role,
    RollResult,
    check_benny_to_spend,
    embellishment_text,
    roll_action,
    roll_benny,
    roll_die,
    roll_expr,
)
from brikdesk.errors import UserError
from brikdesk.limits import MAX_INCHES

#: Height Advantage never adds more than this many inches of Range (5.1).
HEIGHT_ADVANTAGE_MAX = 5
#: Close Combat attackers that may gang up on one minifig in one player's turn (5.1, 5.2).
MAX_CLOSE_COMBAT_ATTACKERS = 3
#: Range of a thrown object that has no thrown Range of its own (chapter 3, the weapon table: Thrown Object).
THROWN_OBJECT_RANGE = 3
#: Use of a Ranged weapon when it Parries: it counts as a Minifig Tool (5.2).
MINIFIG_TOOL_USE = 3
#: A Charging minifig gains a MOM after this many inches in a straight line (5.4).
MOM_DISTANCE = 4

#: Readings chosen where the rules are vague: section -> text the interface can show.
READINGS: dict[str, str] = {
    "5.1 Out of Range": (
        '"For every inch past Range": any part of an inch beyond the effective Range counts '
        'as a whole inch, so 12½" against a Range of 12" is 1 inch Out of Range (-1).'
    ),
    "5.1 Height Advantage": (
        'Only whole inches of altitude count: 2½" above the target gives +2" Range, never '
        'more than +5". An attacker level with or below the target gets nothing and loses '
        "nothing."
    ),
    "5.1 Target Size": (
        'A large target gives +1 for every full 2" of its visible, in-range Size (3" gives '
        '+1); a target of 2" or less uses the brick sizes instead.'
    ),
    "4.1 Disrupted": (
        "The +1 to hit with Ranged attacks is for Disrupted units; other inanimate objects get "
        "no Ranged bonus (the rope in the Thieven Hood example took none). Standing close "
        "enough to touch the target with the weapon makes any attack an Automatic Hit."
    ),
    "4.2 Over the Top": (
        "A Benny is earned only by the natural face of the Action die, is spent once, and the "
        "organizer chooses how after seeing the roll. Planned in advance (resolve_attack), it "
        "is spent only if the roll really goes Over the Top."
    ),
    "5.1 Action and Damage Rolls": (
        "A Damage total below 0 counts as 0. Armor that is rolled (a Hero's 2d6) is rolled "
        "after the Damage, with bonus dice, and only when the Damage could beat it: Damage no "
        'higher than the least the Armor dice can show is a "ka-ping" with no roll.'
    ),
    "5.1 Combined Attacks": (
        "Each participant's Damage total is floored at 0 before the totals are added, so an "
        "Out of Range shot never subtracts from its friends' Damage."
    ),
    "5.3 Missed Shots": (
        'A Missed Shot lands within as many inches as the Action Roll missed by, at least 1" '
        "(a critical failure that would otherwise have hit still misses by 1). Its Damage takes "
        "the Out of Range penalty measured to what it hits; the Action penalty is ignored. A "
        "critical failure may have a worse consequence the players narrate (High Noon: Wayne "
        "shoots himself in the foot)."
    ),
    "3.2 Explosives": (
        "A blast rolls its Damage once; every target in it applies its own size and "
        "visibility modifiers (only the part inside the blast counts) and its own Armor. A "
        "target with Deflection loses, from that shared roll, the last die of each kind (with "
        'its bonus dice) per level. A survivor is Knocked Back 1" and Disrupted.'
    ),
    "3.3 Deflection": (
        "Deflection removes a die of each kind before rolling; where a Benny or MOM die is "
        "of the same kind as the weapon's dice, the extra die is the one removed (the total "
        "is the same either way)."
    ),
    "5.4 Charging Weapons": (
        "A Charging Weapon is a Two-Handed Weapon, or a Heavy Weapon held in both hands; on "
        "foot it must be built for spear-like thrusts (lances, rams, bayonets), while flying "
        "or falling any Heavy or Two-Handed weapon will do. Exotic ones (horns, a spiked "
        "shield) are a house rule the players agree on."
    ),
    "3.1 Weapon KnockBack": (
        "A Heavy or Two-Handed weapon's 1\" KnockBack is reported on a hit that does not "
        "destroy the target; it does not Disrupt."
    ),
    "Thrown weapons": (
        "A thrown weapon uses its thrown Use and Range; an object with no thrown Range is a "
        'Thrown Object with Range 3" and its Close Combat Use and Damage. Two-Handed weapons '
        "can't be thrown."
    ),
}


# --------------------------------------------------------------------------------------------
# Inches


def to_inches(
    value: Fraction | int | float | str, what: str = "distance", *, allow_negative: bool = False
) -> Fraction:
    """A measurement in inches as an exact ``Fraction`` (half inches allowed: ``7.5``, ``"15/2"``).

    Raises ``UserError`` for text that is not a number, for NaN or infinity, for more than
    ``MAX_INCHES`` either way (no table is that large; a distance of 999999999999" would make
    an Action Roll of -999999999989), and for negative values unless ``allow_negative``.
    """
    if isinstance(value, bool):
        raise UserError(f"{what} must be a number of inches", field=what)
    try:
        if isinstance(value, Fraction):
            out = value
        elif isinstance(value, int):
            out = Fraction(value)
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise ValueError(value)
            out = Fraction(value).limit_denominator(1000)
        elif isinstance(value, str):
            text = value.strip().rstrip('"').replace("½", ".5").strip()
            if len(text) > 20 or "e" in text.lower():  # 1e999999999 takes long to build
                raise ValueError(text)
            out = Fraction(text)
        else:
            raise TypeError(type(value))
    except (ValueError, TypeError, ZeroDivisionError) as exc:
        raise UserError(f"{what} must be a number of inches, not {value!r}", field=what) from exc
    if out < 0 and not allow_negative:
        raise UserError(f"{what} can't be negative ({inches_text(out)})", field=what)
    if abs(out) > MAX_INCHES:
        raise UserError(
            f"{what} can't be more than {MAX_INCHES} inches either way, not "
            f"{inches_text(out) if abs(out) < 10**15 else 'more'}",
            field=what,
        )
    return out


def inches_text(value: Fraction | int) -> str:
    """``15"``, ``3½"``, ``-2"``; other fractions as decimals (``2.25"``)."""
    x = Fraction(value)
    if x.denominator == 1:
        return f'{x.numerator}"'
    if x.denominator == 2:
        whole = math.floor(abs(x))
        sign = "-" if x < 0 else ""
        return f'{sign}{whole if whole else ""}½"'
    return f'{float(x):g}"'


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else ("es" if word.endswith("ch") else "s"))


# --------------------------------------------------------------------------------------------
# Who, with what, at what


class SizeClass(str, Enum):
    """Target size for the Action Roll (5.1 Target Size and Visibility)."""

    MINIFIG = "minifig"
    LARGE = "large target"
    BRICK_2X4 = "the size of a 2x4 brick"
    BRICK_2X2 = "the size of a 2x2 brick"
    STUD_1X1 = "the size of a 1x1 stud or an item"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Armor:
    """A target's Armor: a fixed number (a minifig's 4) or dice rolled each time (a Hero's 2d6)."""

    fixed: int | None = 4
    dice: DiceExpr | None = None

    def __post_init__(self) -> None:
        if (self.fixed is None) == (self.dice is None):
            raise UserError("Armor is either a number or dice", field="armor")
        if self.fixed is not None and self.fixed < 0:
            raise UserError("Armor can't be negative", field="armor")
        if self.dice is not None and (self.dice.uses_action_die or not self.dice.terms):
            raise UserError("rolled Armor needs plain dice such as 2d6", field="armor")

    @classmethod
    def parse(cls, text: str | int) -> Armor:
        """``4`` or ``"4"`` is fixed Armor; ``"2d6"`` is rolled each time damage arrives."""
        if isinstance(text, int) and not isinstance(text, bool):
            return cls(text)
        s = str(text).strip()
        if s.isdigit():
            return cls(int(s))
        expr = parse(s)
        if not expr.terms:
            return cls(expr.flat)
        return cls(None, expr)

    @property
    def rolled(self) -> bool:
        return self.dice is not None

    def minimum(self) -> int:
        """The least this Armor can be (each die shows at least 1)."""
        if self.dice is None:
            assert self.fixed is not None
            return self.fixed
        return self.dice.dice_count + self.dice.flat

    def __str__(self) -> str:
        return str(self.fixed) if self.dice is None else str(self.dice)


@dataclass(frozen=True)
class Attacker:
    """Who attacks (or Parries, Bails, Sprints): a name and an Action die.

    ``over_the_top`` is False for units that never go Over the Top (Cannon Fodder; a d4 never
    can anyway).
    """

    name: str
    action_die: int = 6
    over_the_top: bool = True

    def __post_init__(self) -> None:
        if self.action_die not in ACTION_DICE:
            sizes = ", ".join(f"d{s}" for s in ACTION_DICE)
            raise UserError(
                f"an Action die is one of {sizes}, not d{self.action_die}", field="action_die"
            )


@dataclass(frozen=True)
class Target:
    """What is attacked.

    ``size`` and ``sections_visible`` (for a minifig: head, torso, legs) give the 5.1 size and
    visibility modifiers; ``visible_size`` is the inches of a large target that are visible and
    in range. ``deflection`` is worn Deflection (Heavy Armor: 1 level). ``inanimate`` and
    ``disrupted`` matter for Automatic Hits and the Ranged +1.
    """

    name: str
    armor: Armor = field(default_factory=Armor)
    size: SizeClass = SizeClass.MINIFIG
    sections_visible: int = 3
    visible_size: Fraction = Fraction(0)
    inanimate: bool = False
    disrupted: bool = False
    deflection: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.armor, (int, str)):
            object.__setattr__(self, "armor", Armor.parse(self.armor))
        object.__setattr__(self, "visible_size", to_inches(self.visible_size, "visible size"))
        if self.size is SizeClass.MINIFIG and not 1 <= self.sections_visible <= 3:
            raise UserError(
                "a minifig target has 1, 2 or 3 sections visible; with none "
                "visible the attack is Firing Blind at a spot",
                field="sections",
            )
        if self.deflection < 0:
            raise UserError("Deflection can't be negative", field="deflection")

    @property
    def is_minifig(self) -> bool:
        return self.size is SizeClass.MINIFIG


class _Traits(TypedDict):
    """What a weapon profile takes over from its catalog item besides Use, Damage and Range."""

    two_handed: bool
    heavy: bool
    thrust: bool
    explosive_radius: int
    knockback: int
    shield: bool


@dataclass(frozen=True)
class Weapon:
    """An attack profile: Use, Damage, Range (``None`` = Close Combat) and what the rules ask.

    ``damage`` may be given as text (``"1dA+2"``). ``heavy`` marks a Heavy Weapon, ``thrust`` one
    built for spear-like thrusts (5.4 Charging Weapons). ``thrown`` marks a thrown profile.
    """

    name: str
    use: int | None
    damage: DiceExpr = field(default_factory=DiceExpr)
    range_inches: int | None = None
    two_handed: bool = False
    heavy: bool = False
    thrust: bool = False
    explosive_radius: int = 0
    knockback: int = 0
    thrown: bool = False
    shield: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.damage, str):
            text = self.damage.strip()
            object.__setattr__(self, "damage", parse(text) if text else DiceExpr())
        if self.range_inches is not None and self.range_inches <= 0:
            raise UserError('a Range must be at least 1"', field="range")

    @property
    def close_combat(self) -> bool:
        return self.range_inches is None

    @property
    def explosive(self) -> bool:
        return self.damage.explosive

    @property
    def range_text(self) -> str:
        return "CC" if self.range_inches is None else inches_text(self.range_inches)

    @classmethod
    def from_item(
        cls, item: CatalogItem, *, thrown: bool = False, thrown_range: int | None = None
    ) -> Weapon:
        """The attack profile of a catalog item, or its thrown profile (READINGS "Thrown
        weapons"). An item that can only be thrown (an Explosive) always gets its thrown
        profile. ``thrown_range`` gives the distance where the edition rolls it (2005
        Explosive ``1d6+2``). ``thrust`` starts from the catalog's Charging flag; the organizer
        can change it for a model that is not built for thrusts (5.4).
        """
        if item.as_object:
            raise UserError(
                f"a {item.name} uses the Use and Damage of the object thrown: "
                "pick that object and throw it",
                field="weapon",
            )
        heavy = item.category is Category.WEAPON and (
            "heavy" in item.key.lower() or item.name.lower().startswith("heavy")
        )
        common = _Traits(
            two_handed=item.two_handed,
            heavy=heavy,
            thrust=item.charging,
            explosive_radius=item.explosive_radius,
            knockback=item.knockback,
            shield=item.shield,
        )
        damage = item.damage_expr or DiceExpr()
        throwable = item.thrown_range is not None or bool(item.thrown_range_dice)
        thrown_only = not item.close_combat and item.range_inches is None and throwable
        if not (thrown or thrown_only) or (item.range_inches is not None and not throwable):
            return cls(item.name, item.use, damage, item.range_inches, **common)
        if not throwable and item.two_handed:
            raise UserError(f"a {item.name} is Two-Handed and can't be thrown", field="thrown")
        rng = thrown_range if thrown_range is not None else item.thrown_range
        if rng is None and item.thrown_range_dice:
            raise UserError(
                f"this edition rolls how far a {item.name} is thrown "
                f'({item.thrown_range_dice}"): roll it and give the Range',
                field="thrown_range",
            )
        if rng is None:
            rng = THROWN_OBJECT_RANGE
        use = item.thrown_use if item.thrown_use is not None else item.use
        name = item.name if thrown_only else f"thrown {item.name}"
        return cls(name, use, damage, rng, thrown=True, **common)


#: Bare hands: Use 0, no Damage; they Grab, Shove and Parry Grabs and Shoves (chapter 3, the weapon table).
BARE_HANDS = Weapon("bare hands", 0)


class Maneuver(str, Enum):
    """What kind of attack (5.1 to 5.4)."""

    STRIKE = "Strike"
    RANGED = "Ranged attack"
    GRAB = "Grab"
    SHOVE = "Shove"
    CHARGE = "Charge"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Attack:
    """One attack as the organizer describes it on the wizard's pages.

    Ranged attacks need the measured ``distance`` (inches, halves allowed) and may have the
    attacker's ``altitude`` above the target. Close Combat maneuvers need ``in_reach``, which
    the organizer confirms ("can the weapon's striking surface touch the target?").
    ``attacker_engaged`` is someone else attacking the attacker in the meantime (it stops the
    Automatic Hit on an inanimate object); ``grab_involved`` means the attacker or the target
    is in a Grab (5.2: every Close Combat attack on either is an Automatic Hit).
    ``has_mom`` and ``both_hands``/``from_above`` describe a Charge (5.4). ``extra`` holds
    house-rule modifiers the organizer adds.
    """

    attacker: Attacker
    weapon: Weapon
    target: Target
    maneuver: Maneuver | None = None
    distance: Fraction | None = None
    in_reach: bool | None = None
    altitude: Fraction = Fraction(0)
    firing_blind: bool = False
    outnumbered: bool = False
    attacker_engaged: bool = False
    grab_involved: bool = False
    has_mom: bool = False
    both_hands: bool = True
    from_above: bool = False
    extra: tuple[Modifier, ...] = ()

    def __post_init__(self) -> None:
        if self.maneuver is None:
            object.__setattr__(
                self, "maneuver", Maneuver.STRIKE if self.weapon.close_combat else Maneuver.RANGED
            )
        if self.distance is not None:
            object.__setattr__(self, "distance", to_inches(self.distance))
        object.__setattr__(
            self, "altitude", to_inches(self.altitude, "altitude", allow_negative=True)
        )
        object.__setattr__(self, "extra", tuple(self.extra))
        if self.maneuver is Maneuver.RANGED:
            if self.weapon.close_combat:
                raise UserError(
                    f"{self.weapon.name} has no Range: throw it (thrown profile) or Strike with it",
                    field="maneuver",
                )
            if self.outnumbered:
                raise UserError(
                    "a minifig engaged in Close Combat may not make Ranged attacks "
                    "(5.3 Ranged Combat)",
                    field="maneuver",
                )
        elif not self.weapon.close_combat:
            raise UserError(
                f"a {self.maneuver} is a Close Combat maneuver; {self.weapon.name} "
                f"is a Ranged weapon ({self.weapon.range_text})",
                field="maneuver",
            )

    @property
    def ranged(self) -> bool:
        return self.maneuver is Maneuver.RANGED

    @property
    def label(self) -> str:
        """``"Thieven Hood's longbow"``."""
        return f"{self.attacker.name}'s {self.weapon.name}"


# --------------------------------------------------------------------------------------------
# Step 1: Range (5.1 Checking Range, Height Advantage, Out of Range)


def height_advantage(altitude: Fraction | int | float) -> Modifier | None:
    """5.1 Height Advantage: +1" Range per whole inch of altitude above the target, at most +5".

    A lower (or level) attacker gets neither bonus nor penalty. Reading (READINGS "5.1 Height
    Advantage"): only whole inches of altitude count.
    """
    alt = to_inches(altitude, "altitude", allow_negative=True)
    whole = math.floor(alt)
    if whole < 1:
        return None
    bonus = min(HEIGHT_ADVANTAGE_MAX, whole)
    reason = f"{inches_text(alt)} of altitude above the target"
    if whole > HEIGHT_ADVANTAGE_MAX:
        reason += f' (at most +{HEIGHT_ADVANTAGE_MAX}")'
    return Modifier(bonus, Stat.RANGE, reason, "5.1 Height Advantage")


def inches_out_of_range(
    distance: Fraction | int | float, effective_range: Fraction | int | float
) -> int:
    """5.1 Out of Range: whole inches past the effective Range, any part of an inch counting.

    Reading (READINGS "5.1 Out of Range"): 12½" against Range 12" is 1 inch Out of Range.
    """
    over = to_inches(distance) - to_inches(effective_range, "Range")
    return max(0, math.ceil(over))


def out_of_range_modifiers(inches_out: int, *, explosive: bool = False) -> tuple[Modifier, ...]:
    """5.1 Out of Range: -1 Action Roll and -1 Damage per inch; Explosive Damage is exempt."""
    if inches_out <= 0:
        return ()
    reason = f"{_plural(inches_out, 'inch')} beyond Range"
    mods = [Modifier(-inches_out, Stat.ACTION, reason, "5.1 Out of Range")]
    if not explosive:
        mods.append(Modifier(-inches_out, Stat.DAMAGE, reason, "5.1 Out of Range"))
    return tuple(mods)


@dataclass(frozen=True)
class RangeCheck:
    """The outcome of 5.1 Checking Range: reach, or distance against the effective Range."""

    close_combat: bool
    in_reach: bool | None
    distance: Fraction | None
    base_range: int | None
    range_modifiers: tuple[Modifier, ...] = ()
    inches_out: int = 0
    penalties: tuple[Modifier, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def effective_range(self) -> int | None:
        if self.base_range is None:
            return None
        return self.base_range + sum(m.value for m in self.range_modifiers)

    @property
    def can_attack(self) -> bool:
        """A Close Combat weapon must touch; a Ranged weapon may always fire (with penalties)."""
        return bool(self.in_reach) if self.close_combat else True

    def describe(self) -> str:
        if self.close_combat:
            return (
                "in reach: the weapon can touch the target"
                if self.in_reach
                else "out of reach: a Close Combat weapon must touch the target (5.1)"
            )
        assert self.distance is not None and self.base_range is not None
        rng = f'Range {self.base_range}"'
        for m in self.range_modifiers:
            rng += f' {m.value:+d}" ({m.reason})'
        if self.range_modifiers:
            rng += f' = {self.effective_range}"'
        text = f"{inches_text(self.distance)} vs {rng}: "
        if self.inches_out:
            text += f"{_plural(self.inches_out, 'inch')} Out of Range"
            text += "".join(f", {m.value:+d} {m.applies_to}" for m in self.penalties)
        else:
            text += "in Range"
        for note in self.notes:
            text += f"; {note}"
        return text


def check_range(
    weapon: Weapon,
    *,
    distance: Fraction | int | float | str | None = None,
    in_reach: bool | None = None,
    altitude: Fraction | int | float = 0,
    benny_inches: int = 0,
) -> RangeCheck:
    """5.1 Checking Range.

    A Close Combat weapon must touch the target with its striking surface: the organizer
    confirms ``in_reach``. A Ranged weapon measures ``distance`` from its business end; Height
    Advantage and a Benny's +1d6 add to its Range, and every inch (or part of one) beyond the
    effective Range is -1 to the Action Roll and to Damage (Explosive Damage exempt).
    """
    if weapon.close_combat:
        if in_reach is None:
            raise UserError(
                f"confirm whether the {weapon.name} can touch the target: a Close "
                "Combat weapon must reach it (5.1 Checking Range)",
                field="in_reach",
            )
        return RangeCheck(True, in_reach, None, None)
    if distance is None:
        raise UserError(
            f"measure the distance from the {weapon.name} to the target (5.1 Checking Range)",
            field="distance",
        )
    dist = to_inches(distance)
    assert weapon.range_inches is not None
    mods: list[Modifier] = []
    notes: list[str] = []
    height = height_advantage(altitude)
    if height is not None:
        mods.append(height)
    elif to_inches(altitude, "altitude", allow_negative=True) < 0:
        notes.append("no penalty for firing upwards (5.1 Height Advantage)")
    if benny_inches:
        mods.append(
            Modifier(
                benny_inches,
                Stat.RANGE,
                f"Over the Top Benny: +1d6 Range rolled {benny_inches}",
                "4.2 Over the Top",
            )
        )
    effective = weapon.range_inches + sum(m.value for m in mods)
    out = inches_out_of_range(dist, effective)
    penalties = out_of_range_modifiers(out, explosive=weapon.explosive)
    if out and weapon.explosive:
        notes.append("Explosive Damage is not lowered Out of Range (5.1)")
    return RangeCheck(
        False, in_reach, dist, weapon.range_inches, tuple(mods), out, penalties, tuple(notes)
    )


# --------------------------------------------------------------------------------------------
# Step 2: the Action Roll (5.1 Action Modifiers, Automatic Hits)


def target_size_modifiers(target: Target, applies_to: Stat = Stat.ACTION) -> tuple[Modifier, ...]:
    """5.1 Target Size and Visibility, for the Action Roll or (``Stat.DAMAGE``) Explosion Damage.

    Large: +1 per full 2" of the visible, in-range Size; 2x4 brick or a fully visible minifig:
    none; 2x2 brick or 2 of 3 minifig sections: -1; 1x1 stud, an item, or 1 section: -2.
    """
    size = target.size
    if size is SizeClass.MINIFIG:
        n = target.sections_visible
        if n == 3:
            return ()
        return (
            Modifier(
                n - 3, applies_to, f"{n} of 3 minifig sections visible", "5.1 Minifig Visibility"
            ),
        )
    if size is SizeClass.LARGE:
        bonus = math.floor(target.visible_size / 2)
        if bonus <= 0:
            return ()
        return (
            Modifier(
                bonus,
                applies_to,
                f"large target, {inches_text(target.visible_size)} visible and in range",
                "5.1 Target Size",
            ),
        )
    value = {SizeClass.BRICK_2X4: 0, SizeClass.BRICK_2X2: -1, SizeClass.STUD_1X1: -2}[size]
    if not value:
        return ()
    return (Modifier(value, applies_to, f"target {size}", "5.1 Target Size"),)


@dataclass(frozen=True)
class AutomaticHit:
    """An attack that needs no Action Roll (the Action is still spent), with its reason."""

    reason: str
    rule: str
    can_be_avoided: bool = False

    def describe(self) -> str:
        text = f"Automatic Hit: {self.reason} ({self.rule}); the Action is still spent"
        if self.can_be_avoided:
            text += "; it can be Parried or dodged by Bailing"
        return text


def automatic_hit(attack: Attack) -> AutomaticHit | None:
    """5.1 Automatic Hits, 5.2 Grabs and Shoves, 4.1 Disrupted targets. ``None``: roll for it.

    Grabs and Shoves always hit unless Parried or dodged by Bailing; so does any Close Combat
    attack while the attacker or target is in a Grab. An attacker close enough to touch a
    Disrupted target with his weapon hits automatically, and so does one touching an inanimate
    object while nobody else is attacking him.
    """
    if attack.maneuver is Maneuver.GRAB:
        return AutomaticHit("a Grab", "5.2 Grabbing", can_be_avoided=True)
    if attack.maneuver is Maneuver.SHOVE:
        return AutomaticHit("a Shove", "5.2 Shoving", can_be_avoided=True)
    target = attack.target
    if attack.grab_involved and not attack.ranged:
        return AutomaticHit("a Close Combat attack on a minifig in a Grab", "5.2 Grabbing")
    if attack.in_reach and target.disrupted:
        return AutomaticHit(
            f"{target.name} is Disrupted and within touch of the weapon", "4.1 Disrupted"
        )
    if attack.in_reach and target.inanimate and not attack.attacker_engaged:
        return AutomaticHit(
            f"{target.name} is an inanimate object within touch of the weapon "
            "and nobody is attacking the attacker",
            "5.1 Automatic Hits",
        )
    return None


def action_modifiers(attack: Attack, range_check: RangeCheck) -> tuple[Modifier, ...]:
    """Every modifier to the attack's Action Roll (5.1 Action Modifiers), in the order shown.

    Target size and visibility, Firing Blind -5, Disrupted target +1 (Ranged), outnumbered in
    Close Combat -1, Out of Range -1 per inch, and the organizer's extra Action modifiers.
    """
    mods: list[Modifier] = list(target_size_modifiers(attack.target))
    if attack.firing_blind:
        mods.append(
            Modifier(
                -5, Stat.ACTION, 'Firing Blind at a target known within 1"', "5.1 Firing Blind"
            )
        )
    if attack.ranged and attack.target.disrupted:
        mods.append(Modifier(1, Stat.ACTION, f"{attack.target.name} is Disrupted", "4.1 Disrupted"))
    if attack.outnumbered and not attack.ranged:
        mods.append(
            Modifier(-1, Stat.ACTION, "outnumbered in Close Combat", "5.1 Combined Attacks")
        )
    mods.extend(m for m in range_check.penalties if m.applies_to is Stat.ACTION)
    mods.extend(m for m in attack.extra if m.applies_to is Stat.ACTION)
    return tuple(mods)


@dataclass(frozen=True)
class AttackRoll:
    """Steps 1 and 2 of an attack: the Range check, and the Automatic Hit or the Action Roll.

    ``benny`` says how the Over the Top Benny was spent; ``benny_dice`` holds the dice it
    bought (for +1d6 Action they are also in ``roll.benny_dice``; a Damage die is rolled with
    the Damage).
    """

    attack: Attack
    range: RangeCheck
    automatic: AutomaticHit | None
    roll: ActionRoll | None
    benny: BennyUse = BennyUse.NONE
    benny_dice: tuple[DieRoll, ...] = ()
    embellishment: str = ""

    @property
    def hit(self) -> bool:
        if self.automatic is not None:
            return True
        assert self.roll is not None
        return self.roll.success

    @property
    def critical_failure(self) -> bool:
        return self.roll is not None and self.roll.critical_failure

    @property
    def over_the_top(self) -> bool:
        """A natural 6 or more on the Action die earns a Benny (4.2)."""
        return (
            self.roll is not None and self.roll.over_the_top and self.attack.attacker.over_the_top
        )

    @property
    def benny_available(self) -> bool:
        return self.over_the_top and self.benny is BennyUse.NONE

    @property
    def missed_by(self) -> int:
        """How many points the Action Roll missed by (0 on a hit; at least 1 on a miss)."""
        if self.hit:
            return 0
        assert self.roll is not None
        return max(1, -self.roll.margin)

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        """Every modifier of the attack so far: Range, Action, and Damage penalties."""
        out = list(self.range.range_modifiers)
        if self.roll is not None:
            out.extend(self.roll.modifiers)
        out.extend(m for m in self.range.penalties if m.applies_to is Stat.DAMAGE)
        return tuple(out)

    def roll_text(self) -> str:
        """``"8-2-3 = 3 vs Use 3"``."""
        assert self.roll is not None
        r = self.roll
        faces = "+".join(str(d.face) for d in (*r.dice, *r.benny_dice))
        mods = "".join(f"{m.value:+d}" for m in r.modifiers if m.applies_to is Stat.ACTION)
        return f"{faces}{mods} = {r.total} vs Use {r.use}"

    def describe(self) -> str:
        a = self.attack
        if self.automatic is not None:
            text = f"{a.label} hits {a.target.name}: {self.automatic.describe()}"
        elif self.roll is None or not self.roll.rolled:
            text = f"{a.label} hits {a.target.name} (Use -: no roll needed)"
        elif self.critical_failure:
            text = (
                f"{a.label} at {a.target.name}: natural 1, a critical failure; the attack "
                "fails whatever the modifiers (4.2)"
            )
        else:
            verdict = "hit" if self.hit else f"miss by {self.missed_by}"
            text = f"{a.label} at {a.target.name}: {self.roll_text()}: {verdict}"
        if self.over_the_top:
            text += "; Over the Top: " + self._benny_text()
        return text

    def _benny_text(self) -> str:
        if self.benny is BennyUse.NONE:
            return "a Benny to spend"
        if self.benny is BennyUse.ACTION:
            faces = "+".join(str(d.face) for d in self.benny_dice)
            return f"Benny spent on +1d6 Action Roll ({faces})"
        if self.benny is BennyUse.STAT:
            rolled = "+".join(str(d.face) for d in self.benny_dice)
            return (
                f'Benny spent on +1d6 Range: rolled {rolled}, Range {self.range.effective_range}"'
            )
        if self.benny is BennyUse.DAMAGE:
            return "Benny spent on one more Damage die"
        return f"Benny spent on an embellishment: {self.embellishment}"


def roll_attack_action(attack: Attack, dice: DiceSource) -> AttackRoll:
    """Steps 1 and 2 of 5.1: check Range, then the Automatic Hit or the Action Roll vs Use.

    Raises ``UserError`` when a Close Combat weapon can't reach. Critical failure on a natural
    1 and Over the Top on 6+ come from the Action die's natural face (4.2).
    """
    rc = check_range(
        attack.weapon, distance=attack.distance, in_reach=attack.in_reach, altitude=attack.altitude
    )
    if not rc.can_attack:
        raise UserError(
            f"{attack.label} cannot reach {attack.target.name}: a Close Combat "
            "weapon must touch the target (5.1 Checking Range)",
            field="in_reach",
        )
    auto = automatic_hit(attack)
    if auto is not None:
        return AttackRoll(attack, rc, auto, None)
    mods = action_modifiers(attack, rc)
    roll = roll_action(
        attack.attacker.action_die,
        attack.weapon.use,
        dice,
        mods,
        what=f"{attack.label} at {attack.target.name}",
    )
    return AttackRoll(attack, rc, None, roll)


def apply_benny(
    state: AttackRoll, use: BennyUse, dice: DiceSource, embellishment: str = ""
) -> AttackRoll:
    """4.2 Over the Top: spend the Benny after seeing the roll.

    ``ACTION``: +1d6 to the Action Roll. ``STAT``: +1d6 to the Range of a Ranged weapon (never
    for Close Combat: there is no Range to add to), which lowers the Out of Range penalties.
    ``DAMAGE``: one more of the attack's largest Damage die (a 1d10 Exp grenade gets another
    1d10 Exp), rolled with the Damage. ``EMBELLISH``: what the players agree on (say what).
    Benny dice earn bonus dice like any other roll.
    """
    if use is BennyUse.NONE:
        return state
    attack = state.attack
    natural = state.roll.natural if state.roll is not None and state.roll.rolled else None
    check_benny_to_spend(
        state.benny,
        natural,
        who=attack.attacker.name,
        can_go_over_the_top=attack.attacker.over_the_top,
    )
    assert state.roll is not None
    if use is BennyUse.ACTION:
        bought = tuple(roll_benny(dice, 6, "+1d6 Action Roll"))
        return replace(state, roll=state.roll.with_benny(bought), benny=use, benny_dice=bought)
    if use is BennyUse.STAT:
        if not attack.ranged:
            raise UserError(
                "a Close Combat attack has no Range stat to add to: spend the "
                "Benny on the Action Roll, Damage or an embellishment "
                "(4.2 Over the Top)",
                field="benny",
            )
        bought = tuple(roll_benny(dice, 6, "+1d6 Range"))
        rc = check_range(
            attack.weapon,
            distance=attack.distance,
            in_reach=attack.in_reach,
            altitude=attack.altitude,
            benny_inches=sum(d.face for d in bought),
        )
        r = state.roll
        roll = ActionRoll(r.action_sides, r.use, r.dice, action_modifiers(attack, rc), r.benny_dice)
        return replace(state, range=rc, roll=roll, benny=use, benny_dice=bought)
    if use is BennyUse.DAMAGE:
        if not attack.weapon.damage.terms:
            raise UserError(
                f"the {attack.weapon.name} has no Damage dice to add one more of "
                "(4.2 Over the Top)",
                field="benny",
            )
        return replace(state, benny=use)
    return replace(state, benny=use, embellishment=embellishment_text(embellishment))


# --------------------------------------------------------------------------------------------
# Step 3: Damage vs Armor (5.1 Action and Damage Rolls, Combined Attacks, 3.3 Deflection)


@dataclass(frozen=True)
class DamageRoll:
    """One participant's rolled Damage: dice (with roles), flat part, modifiers, Deflection."""

    source: str
    attacker: str
    expr: DiceExpr
    dice: tuple[DieRoll, ...]
    flat: int
    modifiers: tuple[Modifier, ...] = ()
    deflections: tuple[str, ...] = ()
    close_combat: bool = False
    before: DiceExpr | None = None  # the Damage dice before Deflection (when any was taken)

    @property
    def raw_total(self) -> int:
        return (
            sum(d.face for d in self.dice)
            + self.flat
            + sum(m.value for m in self.modifiers if m.applies_to is Stat.DAMAGE)
        )

    @property
    def total(self) -> int:
        """A Damage total below 0 counts as 0 (1.2 Numbers)."""
        return max(0, self.raw_total)

    def describe(self) -> str:
        """``"2+1-3 = 0"``; ``"1+1-3 = -1, counts as 0"``; when Deflection took every die,
        ``"Deflection removed every die: 0"`` (``"...: 1-1 = 0"`` with a flat part or
        modifiers); Damage that is not rolled (Smash) is its points alone, ``"2"``."""
        numbers = [d.face for d in self.dice]
        if self.flat:
            numbers.append(self.flat)
        numbers += [m.value for m in self.modifiers if m.applies_to is Stat.DAMAGE]
        if not numbers:
            numbers = [0]
        text = str(numbers[0]) + "".join(f"{n:+d}" for n in numbers[1:])
        if len(numbers) > 1 or self.dice:
            text += f" = {self.raw_total}"
        if self.raw_total < 0:
            text += ", counts as 0"
        if self.deflections and not self.dice and self.before is not None and self.before.terms:
            text = f"Deflection removed every die: {text}"
        return text

    def breakdown(self) -> tuple[str, ...]:
        """One line per die, Deflection level and modifier, for the wizard's detail view."""
        if self.before is not None and str(self.before) != str(self.expr):
            left = (
                str(self.expr)
                if self.expr.terms
                else ("no dice" + (f", {self.expr.flat:+d}" if self.expr.flat else ""))
            )
            lines = [f"Damage {self.before}, after Deflection {left}"]
        else:
            lines = [f"Damage {self.expr}"]
        lines += [f"Deflection: {d}" for d in self.deflections]
        lines += [
            f"d{d.sides} showed {d.face}" + ("" if d.role is Role.NATURAL else f" ({d.role})")
            for d in self.dice
        ]
        lines += [m.describe() for m in self.modifiers if m.applies_to is Stat.DAMAGE]
        return tuple(lines)


def roll_damage(
    expr: DiceExpr,
    dice: DiceSource,
    *,
    action_sides: int | None,
    modifiers: Iterable[Modifier] = (),
    deflections: Sequence[str] = (),
    extra_dice: Sequence[tuple[int, Role, str]] = (),
    source: str = "",
    attacker: str = "",
    close_combat: bool = False,
) -> DamageRoll:
    """Roll Damage: ``expr`` plus ``extra_dice`` (Benny, MOM), less one die of each kind per
    Deflection level (3.3), each die with its bonus dice; modifiers are added to the total.

    Reading (READINGS "3.3 Deflection"): an extra die of a kind the weapon already has is the
    one Deflection removes.
    """
    resolved = expr.resolve(action_sides) if expr.uses_action_die else expr
    counts: dict[int, int] = {}
    for t in resolved.terms:
        assert t.sides is not None
        counts[t.sides] = counts.get(t.sides, 0) + t.count
    extras = list(extra_dice)
    for _ in deflections:
        kinds = set(counts) | {s for s, _, _ in extras}
        for sides in kinds:
            idx = max((i for i, e in enumerate(extras) if e[0] == sides), default=None)
            if idx is not None:
                extras.pop(idx)
            elif counts.get(sides, 0) > 0:
                counts[sides] -= 1
    terms = tuple(DiceTerm(n, s) for s, n in sorted(counts.items(), reverse=True) if n > 0)
    after = DiceExpr(terms, resolved.flat, resolved.explosive)
    what = f"Damage of {source}" if source else "Damage"
    rolled: list[DieRoll] = list(roll_expr(after, dice, what=what).dice)
    for sides, role, why in extras:
        rolled.extend(roll_die(sides, dice, role, why))
        after = after.plus_dice(1, sides)
    mods = tuple(m for m in modifiers if m.applies_to is Stat.DAMAGE)
    before = None
    if deflections:
        before = resolved
        for sides, _role, _why in extra_dice:
            before = before.plus_dice(1, sides)
    return DamageRoll(
        source,
        attacker,
        after,
        tuple(rolled),
        resolved.flat,
        mods,
        tuple(deflections),
        close_combat,
        before,
    )


def flat_damage(points: int, reason: str, rule: str, attacker: str = "") -> DamageRoll:
    """Damage that is not rolled, such as Smash damage from KnockBack (5.4)."""
    return DamageRoll(
        reason, attacker, DiceExpr(), (), 0, (Modifier(points, Stat.DAMAGE, reason, rule),)
    )


def check_close_combat_attackers(target: Target, attackers: Iterable[str]) -> None:
    """5.1/5.2: no more than three Close Combat attackers on one minifig in one player's turn.

    Larger targets have no such limit. Raises ``UserError`` naming the rule.
    """
    names = list(dict.fromkeys(attackers))
    if target.is_minifig and len(names) > MAX_CLOSE_COMBAT_ATTACKERS:
        raise UserError(
            f"{target.name} can't take a Close Combat attack from {names[3]}: no "
            "more than three Close Combat attackers can gang up on a single "
            f"minifig in one player's turn ({', '.join(names[:3])} already are; "
            "5.1 Combined Attacks)",
            field="attackers",
        )


@dataclass(frozen=True)
class DamageResult:
    """Damage (one attack or a Combined Attack) compared once with the target's Armor."""

    target: Target
    parts: tuple[DamageRoll, ...]
    armor_roll: RollResult | None
    armor_value: int | None

    @property
    def total(self) -> int:
        return sum(p.total for p in self.parts)

    @property
    def destroyed(self) -> bool:
        """Damage greater than Armor destroys; equal or less glances off ("ka-ping")."""
        return self.armor_value is not None and self.total > self.armor_value

    def armor_text(self) -> str:
        armor = self.target.armor
        if not armor.rolled:
            return f"Armor {armor}"
        if self.armor_roll is None:
            return f"Armor {armor} (at least {armor.minimum()}, no roll needed)"
        return f"Armor {armor} (rolled {self.armor_roll.describe()})"

    def verdict(self) -> str:
        return f"{self.target.name} is destroyed" if self.destroyed else "ka-ping"

    def describe(self) -> str:
        """``"2+1-3 = 0 Damage does not beat Armor 1: ka-ping"``."""
        beats = "beats" if self.destroyed else "does not beat"
        if len(self.parts) == 1:
            damage = f"{self.parts[0].describe()} Damage"
        else:
            each = "; ".join(f"{p.source or p.attacker}: {p.describe()}" for p in self.parts)
            damage = f"combined Damage ({each}) {self.total}"
        return f"{damage} {beats} {self.armor_text()}: {self.verdict()}"


def apply_damage(
    parts: DamageRoll | Sequence[DamageRoll], target: Target, dice: DiceSource
) -> DamageResult:
    """Compare Damage with Armor once (5.1); several parts are a Combined Attack (added first).

    Rolled Armor (a Hero's 2d6) is rolled now, with bonus dice, unless the Damage can't beat it
    anyway (READINGS "5.1 Action and Damage Rolls"). Refuses a fourth Close Combat attacker on
    one minifig.
    """
    parts = (parts,) if isinstance(parts, DamageRoll) else tuple(parts)
    if not parts:
        raise UserError("no Damage to apply", field="damage")
    check_close_combat_attackers(target, (p.attacker for p in parts if p.close_combat))
    total = sum(p.total for p in parts)
    armor = target.armor
    if armor.dice is None:
        return DamageResult(target, parts, None, armor.fixed)
    if total <= armor.minimum():
        return DamageResult(target, parts, None, None)
    roll = roll_expr(armor.dice, dice, what=f"Armor of {target.name}")
    return DamageResult(target, parts, roll, roll.total)


def charging_weapon(weapon: Weapon, *, both_hands: bool, from_above: bool) -> tuple[bool, str]:
    """5.4 Charging Weapons: ``(qualifies, reason)``; see READINGS "5.4 Charging Weapons"."""
    if not (weapon.two_handed or (weapon.heavy and both_hands)):
        if weapon.heavy:
            return False, "a Heavy Weapon Charges only when held in both hands (5.4)"
        return False, (
            f"the {weapon.name} is not a Two-Handed or Heavy Weapon: a Charge with "
            "it adds no Damage (5.4 Charging Weapons)"
        )
    if from_above:
        return True, "a Heavy or Two-Handed weapon in a mighty downward strike (5.4)"
    if not weapon.thrust:
        return False, (
            f"on foot, a Charging weapon must be built for spear-like thrusts; the "
            f"{weapon.name} is not (5.4 Charging Weapons)"
        )
    return True, "a thrusting weapon built for Charging (5.4)"


def gains_mom(straight_inches: Fraction | int | float) -> bool:
    """5.4 Momentum: a MOM after at least 4" run (or flown, or fallen) in a straight line."""
    return to_inches(straight_inches, "straight-line run") >= MOM_DISTANCE


def damage_roll(
    state: AttackRoll, dice: DiceSource, *, deflections: Sequence[str] = (), spend_mom: bool = False
) -> DamageRoll:
    """One attack's Damage Roll (5.1), without comparing with Armor (for Combined Attacks).

    Adds the Benny's Damage die (4.2) and, for a Charge that hit with a Charging Weapon, the
    MOM's extra Action die (5.4). Out of Range lowers Damage (not Explosive Damage); an
    Explosive's target size and visibility modify its Damage (5.1). ``deflections`` are the
    reasons for extra Deflection levels (a Shield Parry); the target's own worn Deflection is
    added here.
    """
    attack = state.attack
    if not state.hit:
        raise UserError(
            f"{attack.label} missed {attack.target.name}: no Damage (a tracked "
            "Missed Shot is resolved with resolve_missed_shot, 5.3)",
            field="damage",
        )
    if attack.maneuver is Maneuver.GRAB:
        raise UserError("a Grab does no Damage (5.2 Grabbing)", field="damage")
    if attack.maneuver is Maneuver.SHOVE:
        raise UserError(
            'a Shove does no Damage: it Knocks Back 2" and Disrupts (5.2 Shoving)', field="damage"
        )
    extras = _extra_damage_dice(state, spend_mom)
    mods = [m for m in state.range.penalties if m.applies_to is Stat.DAMAGE]
    if attack.weapon.explosive:
        mods.extend(target_size_modifiers(attack.target, Stat.DAMAGE))
    mods.extend(m for m in attack.extra if m.applies_to is Stat.DAMAGE)
    return roll_damage(
        attack.weapon.damage,
        dice,
        action_sides=attack.attacker.action_die,
        modifiers=mods,
        deflections=_deflections(attack.target, deflections),
        extra_dice=extras,
        source=attack.label,
        attacker=attack.attacker.name,
        close_combat=not attack.ranged,
    )


def _deflections(target: Target, more: Sequence[str]) -> tuple[str, ...]:
    worn = tuple(
        f"{target.name}'s worn Deflection (3.3 Bodily Protection)" for _ in range(target.deflection)
    )
    return worn + tuple(more)


def _extra_damage_dice(state: AttackRoll, spend_mom: bool) -> list[tuple[int, Role, str]]:
    attack = state.attack
    extras: list[tuple[int, Role, str]] = []
    if state.benny is BennyUse.DAMAGE:
        sides = attack.weapon.damage.largest_die(attack.attacker.action_die)
        assert sides is not None
        extras.append((sides, Role.BENNY, "one more Damage die (4.2 Over the Top)"))
    if spend_mom:
        if attack.maneuver is not Maneuver.CHARGE:
            raise UserError("a MOM adds Damage only to a Charge (5.4)", field="mom")
        if not attack.has_mom:
            raise UserError(
                f'{attack.attacker.name} has no MOM: it takes {MOM_DISTANCE}" in a '
                "straight line (5.4 Momentum)",
                field="mom",
            )
        ok, why = charging_weapon(
            attack.weapon, both_hands=attack.both_hands, from_above=attack.from_above
        )
        if not ok:
            raise UserError(why, field="mom")
        extras.append(
            (attack.attacker.action_die, Role.MOM, "extra Damage from the Charge's Momentum (5.4)")
        )
    return extras


def roll_attack_damage(
    state: AttackRoll, dice: DiceSource, *, deflections: Sequence[str] = (), spend_mom: bool = False
) -> DamageResult:
    """Step 3 of 5.1: roll the Damage and compare it with the target's Armor."""
    return apply_damage(
        damage_roll(state, dice, deflections=deflections, spend_mom=spend_mom),
        state.attack.target,
        dice,
    )


@dataclass(frozen=True)
class AttackResult:
    """A whole attack: the Action step and, on a hit that does Damage, the Damage step."""

    roll: AttackRoll
    damage: DamageResult | None = None

    @property
    def hit(self) -> bool:
        return self.roll.hit

    @property
    def destroyed(self) -> bool:
        return self.damage is not None and self.damage.destroyed

    @property
    def knockback(self) -> int:
        """A Heavy or Two-Handed weapon's KnockBack on a surviving target (3.1, no Disruption)."""
        a = self.roll.attack
        if self.damage is None or self.destroyed or a.ranged or a.weapon.explosive:
            return 0
        return a.weapon.knockback

    def describe(self) -> str:
        """``"Thieven Hood's longbow hits the rope; 2+1-3 = 0 Damage does not beat Armor 1:
        ka-ping"``."""
        a = self.roll.attack
        if not self.hit:
            text = self.roll.describe()
            if a.ranged:
                text += (
                    f"; a tracked Missed Shot lands within {inches_text(self.roll.missed_by)} (5.3)"
                )
            elif a.maneuver is Maneuver.CHARGE:
                text += (
                    "; he keeps his MOM and Collides with the target if it is in his "
                    "path, else runs on (5.4)"
                )
            return text
        text = f"{a.label} hits {a.target.name}"
        if self.damage is not None:
            text += f"; {self.damage.describe()}"
        if self.knockback:
            text += f'; {a.target.name} is Knocked Back {self.knockback}" (3.1)'
        return text

    def details(self) -> tuple[str, ...]:
        """The step-by-step lines: Range, Action Roll, modifiers, Benny, Damage."""
        lines = []
        if not self.roll.range.close_combat:
            lines.append(f"Range: {self.roll.range.describe()}")
        lines.append(self.roll.describe())
        lines += [m.describe() for m in self.roll.modifiers]
        if self.damage is not None:
            for part in self.damage.parts:
                lines += part.breakdown()
            lines.append(self.damage.describe())
        return tuple(lines)


def resolve_attack(
    attack: Attack,
    dice: DiceSource,
    benny: BennyUse = BennyUse.NONE,
    *,
    embellishment: str = "",
    deflections: Sequence[str] = (),
    spend_mom: bool = False,
) -> AttackResult:
    """The three steps of 5.1 in one call: Action Roll, the Benny if earned, Damage vs Armor.

    ``benny`` is the plan for an Over the Top Benny; it is spent only if the roll earns one
    (READINGS "4.2 Over the Top"). A Grab or Shove hits but does no Damage here (see
    ``actions``). A miss stops after the Action Roll; track a Missed Shot with
    :func:`missed_shot`.
    """
    state = roll_attack_action(attack, dice)
    if benny is not BennyUse.NONE and state.over_the_top:
        state = apply_benny(state, benny, dice, embellishment)
    if not state.hit or attack.maneuver in (Maneuver.GRAB, Maneuver.SHOVE):
        return AttackResult(state)
    if not attack.weapon.damage.terms and not attack.weapon.damage.flat:
        return AttackResult(state)
    damage = roll_attack_damage(state, dice, deflections=deflections, spend_mom=spend_mom)
    return AttackResult(state, damage)


# --------------------------------------------------------------------------------------------
# Missed Shots (5.3)


@dataclass(frozen=True)
class MissedShot:
    """Where a missed Ranged attack may land: within ``radius`` inches of the target (5.3)."""

    state: AttackRoll
    radius: int

    def describe(self) -> str:
        a = self.state.attack
        return (
            f"{a.label} missed {a.target.name} by {self.state.missed_by}: the shot lands "
            f"within {inches_text(self.radius)} of {a.target.name}, at a spot the target's "
            "owner picks (or, for the attacker's own target, one of his enemies); only "
            "units of the attacker or of the picking player may be chosen; its Damage "
            "takes Out of Range penalties but not the Action penalty (5.3 Missed Shots)"
        )


def missed_shot(state: AttackRoll) -> MissedShot:
    """5.3 Missed Shots: a Ranged attack that missed by N lands within N inches (at least 1").

    Reading (READINGS "5.3 Missed Shots").
    """
    if not state.attack.ranged:
        raise UserError("only a Ranged attack leaves a Missed Shot (5.3)", field="missed_shot")
    if state.hit:
        raise UserError(f"{state.attack.label} hit: there is no Missed Shot", field="missed_shot")
    return MissedShot(state, state.missed_by)


def resolve_missed_shot(
    state: AttackRoll,
    struck: Target,
    distance: Fraction | int | float | str,
    dice: DiceSource,
    *,
    altitude: Fraction | int | float | None = None,
    deflections: Sequence[str] = (),
) -> DamageResult:
    """5.3: the Missed Shot strikes ``struck`` at ``distance`` from the attacker.

    Its Damage (with a Benny's Damage die, if one was bought) takes the Out of Range Damage
    penalty measured to the new spot (Explosive Damage exempt); the Action penalty does not
    matter. The Range still has the Benny's inches and Height Advantage (``altitude`` defaults
    to the original one). For Explosives, use :func:`explode` at the spot.
    """
    missed_shot(state)
    attack = state.attack
    if attack.weapon.explosive:
        raise UserError(
            "an Explosive Missed Shot blasts where it lands: use explode() with the "
            "targets within its radius (5.3, 3.2)",
            field="missed_shot",
        )
    benny_inches = sum(d.face for d in state.benny_dice) if state.benny is BennyUse.STAT else 0
    rc = check_range(
        attack.weapon,
        distance=distance,
        altitude=attack.altitude if altitude is None else altitude,
        benny_inches=benny_inches,
    )
    mods = [m for m in rc.penalties if m.applies_to is Stat.DAMAGE]
    mods.extend(m for m in attack.extra if m.applies_to is Stat.DAMAGE)
    part = roll_damage(
        attack.weapon.damage,
        dice,
        action_sides=attack.attacker.action_die,
        modifiers=mods,
        deflections=_deflections(struck, deflections),
        extra_dice=_extra_damage_dice(state, False),
        source=f"{attack.label} (Missed Shot)",
        attacker=attack.attacker.name,
    )
    return apply_damage(part, struck, dice)


# --------------------------------------------------------------------------------------------
# Explosions (5.1 size modifiers on Explosion Damage, 3.2 blast)


@dataclass(frozen=True)
class BlastHit:
    """One target caught in a blast: its Damage result and, if it survives, 1" KnockBack."""

    damage: DamageResult
    knockback: int

    @property
    def target(self) -> Target:
        return self.damage.target

    @property
    def disrupted(self) -> bool:
        return not self.damage.destroyed and self.knockback > 0

    def describe(self) -> str:
        text = f"{self.target.name}: {self.damage.describe()}"
        if self.disrupted:
            text += f"; Knocked Back {inches_text(self.knockback)} and Disrupted"
        return text


@dataclass(frozen=True)
class ExplosionResult:
    """A blast: one shared Damage roll applied to every target within the radius."""

    source: str
    radius: int
    roll: DamageRoll
    hits: tuple[BlastHit, ...]

    def describe(self) -> str:
        head = (
            f"{self.source} explodes (every target within {inches_text(self.radius)}); "
            f"Damage {self.roll.describe()}"
        )
        return "; ".join([head, *(h.describe() for h in self.hits)])


def explode(
    state: AttackRoll,
    targets: Sequence[Target],
    dice: DiceSource,
    *,
    deflections: dict[str, Sequence[str]] | None = None,
) -> ExplosionResult:
    """An Explosive's blast (3.2, 5.1): every target within the radius, from one Damage roll.

    Out of Range never lowers Explosive Damage. Each target adds its own size and visibility
    modifiers for the part of it inside the blast, loses dice to its own Deflection, and is
    compared with its own Armor; survivors are Knocked Back 1" and Disrupted. Works for a hit
    and for a tracked Missed Shot (the blast where it lands). Reading: READINGS "3.2
    Explosives". ``deflections`` maps a target's name to extra Deflection reasons (a Shield).
    """
    attack = state.attack
    if not attack.weapon.explosive:
        raise UserError(f"the {attack.weapon.name} is not Explosive", field="weapon")
    if not state.hit and not attack.ranged:
        raise UserError("the attack missed", field="damage")
    if not targets:
        raise UserError("name the targets within the blast", field="targets")
    deflections = deflections or {}
    extras = _extra_damage_dice(state, False)
    extra_mods = tuple(m for m in attack.extra if m.applies_to is Stat.DAMAGE)
    shared = roll_damage(
        attack.weapon.damage,
        dice,
        action_sides=attack.attacker.action_die,
        modifiers=extra_mods,
        extra_dice=extras,
        source=attack.label,
        attacker=attack.attacker.name,
    )
    knock = attack.weapon.knockback or 1
    hits: list[BlastHit] = []
    for target in targets:
        levels = _deflections(target, deflections.get(target.name, ()))
        kept = _deflect_rolled(shared.dice, len(levels))
        part = DamageRoll(
            shared.source,
            shared.attacker,
            shared.expr,
            kept,
            shared.flat,
            extra_mods + target_size_modifiers(target, Stat.DAMAGE),
            levels,
            before=shared.expr if levels else None,
        )
        hits.append(BlastHit(apply_damage(part, target, dice), knock))
    return ExplosionResult(attack.label, attack.weapon.explosive_radius, shared, tuple(hits))


def _deflect_rolled(dice: tuple[DieRoll, ...], levels: int) -> tuple[DieRoll, ...]:
    """Remove, per level, the last rolled die of each kind together with its bonus dice."""
    groups: list[list[DieRoll]] = []
    for d in dice:
        if d.role is Role.BONUS and groups:
            groups[-1].append(d)
        else:
            groups.append([d])
    for _ in range(levels):
        for sides in {g[0].sides for g in groups}:
            idx = max(i for i, g in enumerate(groups) if g[0].sides == sides)
            groups.pop(idx)
    return tuple(d for g in groups for d in g)
