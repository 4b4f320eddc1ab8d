"""Rolling dice by the 2020 rules (1.2 Numbers), from a random or a typed-in dice source.

- **Bonus dice** (1.2): any die that shows its highest face adds a bonus +1d6 to the same total;
  a bonus d6 showing 6 adds another, and so on. Dice rolled for a Benny follow this rule too.
- **Action Roll** (4.2): the Action die does *not* earn bonus dice; instead a natural 1 is a
  critical failure (the Action fails whatever the modifiers), and a natural 6 or more goes
  **Over the Top**, earning one Benny whether or not the roll succeeds. A d4 can never go Over
  the Top; a natural 4 on it adds a bonus +1d4, which adds another d4 whenever it shows 4
  (the reading of 1.2 Numbers).
- Modifiers apply to totals; critical results depend only on natural faces (5.1).

Two dice sources share one interface, ``DiceSource.roll(sides, why)``: ``RandomDice`` (seedable)
and ``TypedDice`` (the faces the physical dice showed, typed by the organizer). ``TypedDice``
refuses a face the die cannot show, and when it runs out raises ``NeedDie`` naming exactly the die
the engine needs next (bonus dice included), so the interface can ask for it and replay.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from brikdesk.domain.dice import DiceExpr
from brikdesk.domain.modifiers import Modifier, Stat
from brikdesk.errors import UserError

#: A chain of bonus dice longer than this is refused (a safety net for typed dice).
MAX_BONUS_CHAIN = 100


class Role(str, Enum):
    """Why a die was rolled, so the interface can show it."""

    NATURAL = "natural"  # a die of the expression or the Action die itself
    BONUS = "bonus"  # a bonus die earned by a highest face (or the d4's natural 4)
    BENNY = "Benny"  # the die bought with an Over the Top Benny
    MOM = "MOM"  # Momentum die of a Charge (5.4)
    POP = "POP"  # Physical Opposition die against a Collision (5.4)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class DieRoll:
    """One die: its size, the face it showed and its role."""

    sides: int
    face: int
    role: Role = Role.NATURAL
    why: str = ""

    def __str__(self) -> str:
        return f"d{self.sides}={self.face}" + (
            "" if self.role is Role.NATURAL else f" ({self.role})"
        )


class DiceSource(Protocol):
    """Where faces come from: ``roll(sides, why)`` returns a face in ``1..sides``."""

    def roll(self, sides: int, why: str) -> int: ...


class RandomDice:
    """Virtual dice; give a ``seed`` for a repeatable sequence."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def roll(self, sides: int, why: str = "") -> int:
        return self._rng.randint(1, sides)


class NeedDie(UserError):
    """Typed dice ran out: the engine needs one more ``d{sides}`` for ``why``."""

    def __init__(self, sides: int, why: str, index: int) -> None:
        super().__init__(f"type the face of die {index + 1}: a d{sides} ({why})", field="dice")
        self.sides = sides
        self.why = why
        self.index = index


class TypedDice:
    """Faces typed in from the physical dice, used in the order the engine asks for them.

    Each face is checked against the die asked for: a d6 cannot show 7 or 0.
    """

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces: tuple[int, ...] = tuple(int(f) for f in faces)
        self.asked: list[tuple[int, str]] = []

    @property
    def used(self) -> int:
        return len(self.asked)

    def roll(self, sides: int, why: str = "") -> int:
        i = len(self.asked)
        if i >= len(self.faces):
            raise NeedDie(sides, why, i)
        face = self.faces[i]
        if not 1 <= face <= sides:
            raise UserError(
                f"die {i + 1} is a d{sides} ({why}): it cannot show {face}; type 1 to {sides}",
                field="dice",
            )
        self.asked.append((sides, why))
        return face

    def check_all_used(self) -> None:
        """Refuse faces typed beyond the dice the rules asked for."""
        extra = len(self.faces) - len(self.asked)
        if extra > 0:
            raise UserError(
                f"{len(self.faces)} faces typed but only {len(self.asked)} dice were needed",
                field="dice",
            )


def roll_bonus_chain(
    last_sides: int, last_face: int, source: DiceSource, what: str = ""
) -> list[DieRoll]:
    """The bonus d6 chain after a die showed ``last_face`` on ``last_sides`` sides.

    Each bonus die's ``why`` names the face that earned it and what the roll is for:
    ``"bonus die for the 6 on the d6, Damage of Robin's bow"``.
    """
    out: list[DieRoll] = []
    while last_face == last_sides:
        if len(out) >= MAX_BONUS_CHAIN:
            raise UserError(f"more than {MAX_BONUS_CHAIN} bonus dice in a row", field="dice")
        why = f"bonus die for the {last_face} on the d{last_sides}" + (f", {what}" if what else "")
        face = source.roll(6, why)
        out.append(DieRoll(6, face, Role.BONUS, why))
        last_sides, last_face = 6, face
    return out


def die_purpose(role: Role, what: str) -> str:
    """The ``why`` of a die: what it is for, never its size again (the message that asks for
    it already says "a d6"). A natural die is ``what`` itself (``"Damage of Robin's bow"``);
    another role leads with the role's name (``"Benny die: +1d6 Range"``), which is how a
    replay tells a Benny, MOM or POP die from a natural one."""
    if role is Role.NATURAL:
        return what or "a roll"
    return f"{role} die: {what}" if what else f"{role} die"


def roll_die(
    sides: int, source: DiceSource, role: Role = Role.NATURAL, what: str = ""
) -> list[DieRoll]:
    """One die and its bonus chain (1.2 bonus dice); ``what`` says what the die is for."""
    why = die_purpose(role, what)
    face = source.roll(sides, why)
    return [DieRoll(sides, face, role, why), *roll_bonus_chain(sides, face, source, what)]


@dataclass(frozen=True)
class RollResult:
    """A rolled dice expression: every die with its role, the flat part and the total."""

    expr: DiceExpr
    dice: tuple[DieRoll, ...]
    flat: int

    @property
    def dice_total(self) -> int:
        return sum(d.face for d in self.dice)

    @property
    def total(self) -> int:
        return self.dice_total + self.flat

    def describe(self) -> str:
        """``"4+6+3+1 = 14"``: faces then the flat part."""
        parts = [str(d.face) for d in self.dice]
        text = "+".join(parts) if parts else "0"
        if self.flat:
            text += f"{self.flat:+d}"
        return f"{text} = {self.total}"


def roll_expr(
    expr: DiceExpr, source: DiceSource, action_sides: int | None = None, what: str = ""
) -> RollResult:
    """Roll every die of ``expr`` (``dA`` as ``action_sides``), each with its bonus chain.

    ``what`` says what the roll is for (``"Damage of Robin's bow"``); without it the dice are
    named after the expression (``"the roll 2d6+1"``).
    """
    resolved = expr.resolve(action_sides) if expr.uses_action_die else expr
    what = what or f"the roll {resolved}"
    dice: list[DieRoll] = []
    for term in resolved.terms:
        assert term.sides is not None
        for _ in range(term.count):
            dice.extend(roll_die(term.sides, source, Role.NATURAL, what))
    return RollResult(resolved, tuple(dice), resolved.flat)


def roll_benny(source: DiceSource, sides: int = 6, what: str = "") -> list[DieRoll]:
    """The die a Benny buys (normally +1d6), with its own bonus chain (1.2 Numbers)."""
    return roll_die(sides, source, Role.BENNY, what)


class BennyUse(str, Enum):
    """How an Over the Top Benny is spent (4.2 Over the Top)."""

    ACTION = "+1d6 to the Action Roll"
    DAMAGE = "one more of the attack's Damage dice"
    STAT = "+1d6 to an associated stat (Range, Sprint or Bail inches)"
    EMBELLISH = "an embellishment the players agree on"
    NONE = "not spent"

    def __str__(self) -> str:
        return self.value


def check_benny_to_spend(
    spent: BennyUse,
    natural: int | None,
    *,
    who: str,
    can_go_over_the_top: bool = True,
    roll: str = "Action die",
) -> None:
    """Refuse to spend a Benny (4.2 Over the Top) that is already spent or was never earned.

    ``natural`` is the natural face of the Action die (``None``: no die was rolled, as for an
    Automatic Hit); ``can_go_over_the_top`` is False for units that never do (Cannon Fodder).
    The one check behind every ``apply_*_benny`` of the attack, the Parry, the Bail and the
    Sprint, so each refusal says the same thing for the same reason.
    """
    if spent is not BennyUse.NONE:
        raise UserError(f"the Benny is already spent ({spent})", field="benny")
    if natural is None:
        why = "no Action die was rolled, and an Action with no Action Roll earns no Benny"
    elif not can_go_over_the_top:
        why = f"{who} never goes Over the Top"
    elif natural < 6:
        why = f"the {roll} showed {natural}; Over the Top needs a natural 6 or more"
    else:
        return
    raise UserError(f"no Benny to spend: {why} (4.2 Over the Top)", field="benny")


def embellishment_text(text: str) -> str:
    """The embellishment a Benny is spent on, which the players must say (4.2 Over the Top)."""
    text = text.strip()
    if not text:
        raise UserError("say what the embellishment is (4.2 Over the Top)", field="embellishment")
    return text


@dataclass(frozen=True)
class ActionRoll:
    """An Action Roll (4.2): the Action die (and the d4's bonus dice), modifiers, the verdict.

    ``use is None`` means a trivial Action (Use ``-``): no roll, success.
    ``benny_dice`` holds the dice of a Benny spent as +1d6 on this roll.
    """

    action_sides: int
    use: int | None
    dice: tuple[DieRoll, ...]
    modifiers: tuple[Modifier, ...] = ()
    benny_dice: tuple[DieRoll, ...] = ()

    @property
    def natural(self) -> int:
        return self.dice[0].face if self.dice else 0

    @property
    def rolled(self) -> bool:
        return bool(self.dice)

    @property
    def critical_failure(self) -> bool:
        """A natural 1 on the Action die (4.2; 1.2 Numbers)."""
        return self.rolled and self.natural == 1

    @property
    def over_the_top(self) -> bool:
        """A natural 6 or more on the Action die earns a Benny (4.2). Never on a d4."""
        return self.rolled and self.natural >= 6

    @property
    def modifier_total(self) -> int:
        return sum(m.value for m in self.modifiers if m.applies_to is Stat.ACTION)

    @property
    def total(self) -> int:
        return (
            sum(d.face for d in self.dice)
            + sum(d.face for d in self.benny_dice)
            + self.modifier_total
        )

    @property
    def success(self) -> bool:
        if self.use is None:
            return True
        if not self.rolled:
            return True
        return not self.critical_failure and self.total >= self.use

    @property
    def margin(self) -> int:
        """Total minus Use: negative by how much a miss missed (5.3 Missed Shots)."""
        return 0 if self.use is None or not self.rolled else self.total - self.use

    def with_benny(self, benny: Sequence[DieRoll]) -> ActionRoll:
        return ActionRoll(self.action_sides, self.use, self.dice, self.modifiers, tuple(benny))

    def describe(self) -> str:
        if self.use is None or not self.rolled:
            return "no roll needed"
        faces = "+".join(str(d.face) for d in (*self.dice, *self.benny_dice))
        mods = "".join(f"{m.value:+d}" for m in self.modifiers if m.applies_to is Stat.ACTION)
        verdict = (
            "critical failure"
            if self.critical_failure
            else "success"
            if self.success
            else "failure"
        )
        return f"{faces}{mods} = {self.total} vs Use {self.use}: {verdict}"


def roll_action(
    action_sides: int,
    use: int | None,
    source: DiceSource,
    modifiers: Iterable[Modifier] = (),
    what: str = "an Action Roll",
) -> ActionRoll:
    """Roll the Action die for an Action Roll; trivial Actions (``use is None``) roll nothing.

    The die's ``why`` is ``"Action die for <what>"`` (``"Action die for Robin's bow at the
    rope"``).
    """
    mods = tuple(modifiers)
    if use is None:
        return ActionRoll(action_sides, None, (), mods)
    why = f"Action die for {what}"
    face = source.roll(action_sides, why)
    dice = [DieRoll(action_sides, face, Role.NATURAL, why)]
    if action_sides == 4:
        last = face
        while last == 4:
            if len(dice) > MAX_BONUS_CHAIN:
                raise UserError(f"more than {MAX_BONUS_CHAIN} bonus dice in a row", field="dice")
            why = f"bonus die for a natural 4 on the d4 Action die, {what}"
            last = source.roll(4, why)
            dice.append(DieRoll(4, last, Role.BONUS, why))
    return ActionRoll(action_sides, use, tuple(dice), mods)
