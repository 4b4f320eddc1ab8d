"""An Action that is not an attack (4.2 Use Ratings): its Action Roll against a Use, 3 unless
the players agree on another, its success or failure, and the Over the Top Benny it may earn.

"Besides weapon attacks, there are lesser alternate tasks that minifigs might attempt ...
Most will have a default Use rating of 3; players may agree on a higher or lower difficulty
as seems appropriate." (2020, 4.2 Use Ratings). The faces are typed from the table, one at
a time, as for the Sprint (:func:`resolve_task`); the result is the log's words.
"""

from __future__ import annotations

from dataclasses import dataclass

from brikdesk.domain.combat.resolution import BennyOption
from brikdesk.domain.rolling import (
    ActionRoll,
    BennyUse,
    DieRoll,
    NeedDie,
    Role,
    TypedDice,
    roll_action,
)
from brikdesk.domain.rulesets import RuleSet

#: 4.2 Use Ratings: "Most will have a default Use rating of 3".
DEFAULT_USE = 3

#: The reading shown in Help > Rules reference.
READINGS = {
    "4.2 Use Ratings": "An Action that is not an attack (picking a lock, lighting a fuse) makes "
    "its Action Roll against a Use of 3 unless the players agree on another; a natural 6 "
    "goes Over the Top (Overskill in 2010) and earns a Benny: +1d6 to the roll or an "
    "embellishment. Act > Other… (O) asks for the die and records the roll with the Action."
}


@dataclass(frozen=True)
class TaskStage:
    """Where a non-attack Action stands: the die still to type (``need``), a Benny to decide
    (``pending``), or the finished ``roll``."""

    need: NeedDie | None = None
    pending: bool = False
    roll: ActionRoll | None = None
    dice: tuple[DieRoll, ...] = ()

    @property
    def complete(self) -> bool:
        return self.roll is not None and self.need is None and not self.pending


def task_benny_options() -> tuple[BennyOption, ...]:
    """How a non-attack Action's Benny may be spent (4.2): +1d6 to the roll or an
    embellishment."""
    return (
        BennyOption(BennyUse.ACTION, "+1d6 to the Action Roll", key="A"),
        BennyOption(BennyUse.EMBELLISH, "an embellishment the players agree on", key="E"),
        BennyOption(BennyUse.NONE, "not spent", key="N"),
    )


def resolve_task(
    action_die: int,
    use: int,
    faces: tuple[int, ...],
    benny: BennyUse | None,
    rules: RuleSet,
    *,
    can_go_over_the_top: bool = True,
) -> TaskStage:
    """The Action Roll of ``faces`` typed so far on the unit's ``action_die`` against ``use``;
    a natural 6 asks how its Benny is spent where the edition has one (``rules``)."""
    source = TypedDice(faces)
    try:
        roll = roll_action(action_die, use, source, what="the Action")
    except NeedDie as need:
        return TaskStage(need=need, dice=_typed(action_die, faces[: need.index]))
    earned = roll.over_the_top and rules.has_over_the_top and can_go_over_the_top
    if earned and benny is None:
        return TaskStage(pending=True, roll=roll, dice=roll.dice)
    if earned and benny is BennyUse.ACTION:
        why = "Benny: +1d6 to the Action Roll"
        try:
            face = source.roll(6, why)
        except NeedDie as need:
            return TaskStage(need=need, roll=roll, dice=roll.dice)
        roll = roll.with_benny((DieRoll(6, face, Role.BENNY, why),))
    return TaskStage(roll=roll, dice=(*roll.dice, *roll.benny_dice))


def _typed(action_die: int, faces: tuple[int, ...]) -> tuple[DieRoll, ...]:
    return tuple(
        DieRoll(action_die, f, Role.NATURAL if i == 0 else Role.BONUS) for i, f in enumerate(faces)
    )


def task_text(what: str, roll: ActionRoll, benny: BennyUse | None, rules: RuleSet) -> str:
    """The log's words after "spends its Action": "picks the lock, Action Roll d6 5 vs Use 3:
    success" (what the unit attempted, the die, the Use, the verdict, the Benny spent)."""
    faces = "+".join(str(d.face) for d in (*roll.dice, *roll.benny_dice))
    verdict = (
        "critical failure" if roll.critical_failure else "success" if roll.success else "failure"
    )
    text = f"{what or 'an Action'}, Action Roll d{roll.action_sides} {faces} vs Use {roll.use}"
    text += f": {verdict}"
    if roll.over_the_top and rules.has_over_the_top and benny not in (None, BennyUse.NONE):
        text += f" ({rules.over_the_top}: {benny})"
    return text
