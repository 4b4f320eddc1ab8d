"""A Sprint (4.1) rolled under the battle's edition: the dice replayed from the faces typed (or
rolled virtually and kept), the Over the Top Benny waiting for a decision, the bonus chains in
words, the runaway warning, and the ``ActionSpent`` event the tracker records.

Like the combat wizard's draft, every die is a face in ``SprintDraft.faces``: each change
replays the roll exactly (``resolve_sprint``), and nothing is written until the organizer
records it, once (``sprint_events``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from brikdesk.domain.actions import SprintResult, apply_sprint_benny, dice_chains, roll_sprint
from brikdesk.domain.attack import inches_text
from brikdesk.domain.battle import ActionUse, Event, spend_action
from brikdesk.domain.combat.choices import rules_problem
from brikdesk.domain.combat.draft import CombatContext
from brikdesk.domain.combat.resolution import BennyOption, Recorder
from brikdesk.domain.ids import BattleUnitId
from brikdesk.domain.rolling import BennyUse, DieRoll, NeedDie, Role
from brikdesk.errors import UserError

__all__ = [
    "SprintDraft",
    "group_candidates",
    "SprintStage",
    "bonus_chains",
    "resolve_sprint",
    "runaway_warning",
    "sprint_benny_options",
    "sprint_events",
    "sprint_note",
    "sprint_outcome",
    "sprint_problem",
    "sprint_rule_text",
]


@dataclass(frozen=True)
class SprintDraft:
    """What the Sprint dialog has chosen: the runner, the faces so far, the Benny's use."""

    unit_id: BattleUnitId
    faces: tuple[int, ...] = ()
    benny: BennyUse | None = None
    embellishment: str = ""
    #: Units Sprinting with the runner on his one roll (4.1 group Sprint, 2010 and 2020).
    group: tuple[BattleUnitId, ...] = ()

    @property
    def runners(self) -> tuple[BattleUnitId, ...]:
        """The runner and the units Sprinting with him, each once."""
        return tuple(dict.fromkeys((self.unit_id, *self.group)))

    def with_face(self, face: int) -> SprintDraft:
        return replace(self, faces=self.faces + (face,))

    def without_last_face(self) -> SprintDraft:
        if not self.faces:
            return self
        faces = self.faces[:-1]
        return replace(self, faces=faces, benny=self.benny if faces else None)


@dataclass(frozen=True)
class SprintStage:
    """The Sprint as far as the faces go: ``need`` the die wanted next, ``pending`` when the
    Benny's use must be chosen first; ``result`` once neither (``complete``)."""

    result: SprintResult | None
    dice: tuple[DieRoll, ...]
    need: NeedDie | None = None
    pending: bool = False
    error: str | None = None
    extra_faces: int = 0

    @property
    def complete(self) -> bool:
        return (
            self.result is not None
            and self.need is None
            and not self.pending
            and self.error is None
            and not self.extra_faces
        )


class _Pending(Exception):
    """The Sprint went Over the Top: the Benny's use is needed before any Benny die."""


def resolve_sprint(draft: SprintDraft, ctx: CombatContext) -> SprintStage:
    """Replay the Sprint with ``draft.faces`` under the battle's edition (``ctx.rules``):
    ``roll_sprint`` at the runner's Half Speed, then the Benny as chosen (4.1, 4.2)."""
    who = ctx.fighter(draft.unit_id).attacker
    half = ctx.state.unit(draft.unit_id).moves_at_half_speed
    src = Recorder(draft.faces)
    result: SprintResult | None = None
    try:
        result = roll_sprint(who, src, half_speed=half, rules=ctx.rules)
        if result.over_the_top:
            if draft.benny is None:
                raise _Pending
            result = apply_sprint_benny(
                result,
                draft.benny,
                src,
                draft.embellishment or "an embellishment the players agree on",
            )
    except NeedDie as need:
        return SprintStage(None, tuple(src.rolled), need=need)
    except _Pending:
        return SprintStage(result, tuple(src.rolled), pending=True)
    except UserError as exc:
        return SprintStage(result, tuple(src.rolled), error=str(exc))
    return SprintStage(result, tuple(src.rolled), extra_faces=len(draft.faces) - src.typed.used)


def sprint_benny_options() -> tuple[BennyOption, ...]:
    """How a Sprint's Over the Top Benny may be spent (4.2): +1d6 inches or an
    embellishment."""
    return (
        BennyOption(BennyUse.STAT, "+1d6 inches of Sprint", key="I"),
        BennyOption(BennyUse.EMBELLISH, "an embellishment the players agree on", key="E"),
        BennyOption(BennyUse.NONE, "not spent", key="N"),
    )


def bonus_chains(dice: tuple[DieRoll, ...]) -> tuple[str, ...]:
    """Each die with the bonus dice it chained, in words: ``"d6 6 → bonus d6 6 → bonus d6 2
    = 14"``; a chain ending in 1 says so (4.1)."""
    out = []
    for g in dice_chains(dice):
        head = g[0]
        kind = "Benny" if head.role is Role.BENNY else "Sprint"
        words = " → ".join(
            [f"{kind} d{head.sides} {head.face}"] + [f"bonus d{d.sides} {d.face}" for d in g[1:]]
        )
        if len(g) > 1:
            words += f" = {sum(d.face for d in g)}"
            if g[-1].face == 1:
                words += " (the chain ends in a 1)"
        out.append(words)
    return tuple(out)


def sprint_rule_text(ctx: CombatContext, unit_id: BattleUnitId) -> str:
    """What the runner rolls in this edition (4.1), for the dialog's intro."""
    rules = ctx.rules
    f = ctx.fighter(unit_id)
    die = rules.distance_die or f.action_die
    text = (
        f'{f.name} spends his Action to Sprint: 1d{die}" more Move ({rules.name}), all of '
        "his Movement this turn in a straight line"
    )
    if rules.sprint_bonus_dice:
        text += "; the highest face adds a bonus d6, and so on"
    if f.over_the_top:
        text += f"; a natural 6 or more goes {rules.over_the_top}: one Benny"
    if rules.sprint_runaway:
        text += "; bonus dice ending in a 1: he must run the full distance"
    if ctx.state.unit(unit_id).moves_at_half_speed:
        text += "; at Half Speed he goes half the inches"
    return text + ". He may still Charge at the end of it, as the same Action (4.1, 5.4)."


def sprint_events(draft: SprintDraft, ctx: CombatContext, stage: SprintStage) -> tuple[Event, ...]:
    """What recording the Sprint stores: each runner's Action spent on a Sprint, the roll in
    the note (the battle log shows it); a group Sprint (4.1) gives every runner the same roll,
    the note naming the group."""
    if stage.result is None or not stage.complete:
        raise UserError("roll the Sprint first", field="dice")
    note = sprint_note(stage.result)
    runners = draft.runners
    if len(runners) > 1:
        names = ", ".join(ctx.fighter(uid).name for uid in runners)
        note += f"; one roll for the group: {names} (4.1)"
    return tuple(spend_action(ctx.state, uid, ActionUse.SPRINT, note=note) for uid in runners)


def group_candidates(ctx: CombatContext, unit_id: BattleUnitId) -> tuple[BattleUnitId, ...]:
    """4.1 (2010, 2020): "Minifigs Sprinting in a group can roll a single Action Die for the
    entire group's Sprint distance." The units that may Sprint on ``unit_id``'s one roll: his
    side's, free to Sprint now, rolling the same die at the same speed (a Hero's d10 or a
    runner at Half Speed rolls on his own). Empty where the edition has no group Sprint."""
    rules = ctx.rules
    if not rules.group_sprint:
        return ()
    state = ctx.state
    runner = state.unit(unit_id)

    def die(uid: BattleUnitId) -> int:
        return rules.distance_die or ctx.fighter(uid).action_die

    return tuple(
        u.unit_id
        for u in state.units
        if u.unit_id != unit_id
        and u.player_id == runner.player_id
        and u.in_battle
        and die(u.unit_id) == die(unit_id)
        and u.moves_at_half_speed == runner.moves_at_half_speed
        and sprint_problem(SprintDraft(u.unit_id), ctx) is None
    )


def sprint_note(result: SprintResult) -> str:
    """The roll in the battle log's words: inches, Half Speed, runaway, Benny."""
    text = f'{result.sprint_inches}" more Move'
    if result.half_speed:
        text += f", at Half Speed {inches_text(result.distance)}"
    if result.must_run_full:
        text += f"; must run the full {inches_text(result.distance)}"
    if result.benny is BennyUse.EMBELLISH:
        text += f"; Benny spent on: {result.embellishment}"
    return text


def sprint_outcome(draft: SprintDraft, ctx: CombatContext, result: SprintResult) -> str:
    """The Sprint in words (``SprintResult.describe``), saying so when the organizer chose
    not to spend the Benny rather than still offering it; the runaway is left to
    ``runaway_warning``."""
    text = result.describe()
    runaway = (
        f"; the bonus dice ended in a 1: he can't stop and must run the full "
        f"{inches_text(result.distance)}, into walls or off the table"
    )
    text = text.replace(runaway, "")
    offer = "; Over the Top: a Benny to spend"
    if draft.benny is BennyUse.NONE and text.endswith(offer):
        text = text[: -len(offer)] + f"; {ctx.rules.over_the_top}: the Benny is not spent"
    if len(draft.runners) > 1:
        names = ", ".join(ctx.fighter(uid).name for uid in draft.runners)
        text = f"Group Sprint, one roll (4.1): {names}. {text}"
    return text


def runaway_warning(result: SprintResult) -> str | None:
    """4.1 (2010, 2020): "If a series of Critical Successes in a Sprint roll ends with a roll
    of one ... must run the full distance"; the warning to show, or ``None``."""
    if not result.must_run_full:
        return None
    return (
        f"The bonus dice ended in a 1: he can't stop short and must run the full "
        f"{inches_text(result.distance)}, into walls or off the table (4.1)"
    )


def sprint_problem(draft: SprintDraft, ctx: CombatContext) -> str | None:
    """Why the rules refuse this Sprint now (a Stopped unit, a response, a spent Action),
    asked of the battle rules with a trial event; ``None``: it may Sprint."""
    trials: list[Event] = [spend_action(ctx.state, uid, ActionUse.SPRINT) for uid in draft.runners]
    return rules_problem(ctx, trials)
