"""The attack in words: one paragraph in plain words, what will change (read by comparing the
battle state before and after the events), every step, die and modifier, and the undo stack's
name for it; the Result page's summary."""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from enum import Enum

from brikdesk.domain.actions import ParryResult
from brikdesk.domain.attack import AttackResult, inches_text
from brikdesk.domain.battle import (
    AttackResolved,
    BattleState,
    Event,
    Status,
    apply,
    rule_warnings,
)
from brikdesk.domain.combat.draft import AttackDraft, CombatContext
from brikdesk.domain.combat.events import final_events, knocked_away
from brikdesk.domain.combat.participants import passing_by_possible, target_name
from brikdesk.domain.combat.resolution import (
    ActionStage,
    DamageStage,
    resolve_action,
    resolve_damage,
)
from brikdesk.domain.ids import BattleUnitId
from brikdesk.domain.rolling import Role
from brikdesk.errors import UserError


@dataclass(frozen=True)
class ResultSummary:
    """The Result page: one paragraph in plain words, what will change, every step."""

    paragraph: str
    changes: tuple[str, ...]
    details: tuple[str, ...]
    events: tuple[Event, ...]
    problem: str | None = None
    #: What to check at the table before recording (``rule_warnings``), as ``"text (rule)"``.
    warnings: tuple[str, ...] = ()
    #: Whether every warning is overruled (the draft's ``overruled`` covers them all).
    overruled: bool = False

    @property
    def needs_decision(self) -> bool:
        """A warning stands and the organizer has not overruled it: Finish waits."""
        return bool(self.warnings) and not self.overruled


def _paragraph(
    draft: AttackDraft, ctx: CombatContext, action: ActionStage, damage: DamageStage
) -> str:
    """The attack in plain words, in the order it happened: who acts first, the Bail, the
    Action Roll(s), the Parry, then what the Damage (or the Shove, Grab, Collision, Missed Shot) did."""
    sentences: list[str] = []
    if action.first_to_act is not None:
        sentences.append(action.first_to_act.describe())
    if action.bail is not None:
        sentences.append(action.bail.describe())
    if action.avoided and action.bail is not None:
        sentences.append(action.avoided)
    bodily = damage.shove is not None or damage.grab is not None
    # One sentence for a single plain attack: its roll and its Damage against the Armor.
    merged = (
        len(action.rolls) == 1
        and action.parry is None
        and not bodily
        and damage.explosion is None
        and damage.collision is None
    )
    sentences += _roll_sentences(action, damage, merged=merged, bodily=bodily)
    if action.parry is not None:
        sentences.append(action.parry.describe())
    sentences += [
        r.describe()
        for r in (damage.explosion, damage.shove, damage.grab, damage.collision)
        if r is not None
    ]
    if not merged:
        sentences += _damage_sentences(draft, ctx, damage)
    sentences += _missed_shot_sentences(ctx, damage)
    if action.first is not None and action.first.critical_failure:
        sentences.append("A critical failure: the players may narrate something worse")
    text = ". ".join(s[0].upper() + s[1:] if s else s for s in sentences)
    return text + ("." if text and not text.endswith(".") else "")


def _roll_sentences(
    action: ActionStage, damage: DamageStage, *, merged: bool, bodily: bool
) -> list[str]:
    """The Action Roll(s) in words (a Shove or Grab that hit automatically says so itself)."""
    first = action.first
    if first is None:
        return []
    if damage.explosion is not None:
        return [
            first.describe()
            if not first.hit
            else f"{first.attack.label} hits {first.attack.target.name}"
        ]
    if merged:
        return [AttackResult(first, damage.damage if first.hit else None).describe()]
    if bodily and first.automatic is not None:
        return []
    return [r.describe() for r in action.rolls]


def _damage_sentences(draft: AttackDraft, ctx: CombatContext, damage: DamageStage) -> list[str]:
    """The Damage against the Armor and a weapon's KnockBack, when not said with the roll."""
    out = []
    if damage.damage is not None:
        out.append(damage.damage.describe())
    if damage.weapon_knockback:
        out.append(
            f"{target_name(draft, ctx)} is Knocked Back "
            f"{inches_text(damage.weapon_knockback)} (3.1)"
        )
    return out


def _missed_shot_sentences(ctx: CombatContext, damage: DamageStage) -> list[str]:
    """What a Missed Shot struck, or that it hit nothing that matters (5.3)."""
    if damage.missed_damage is not None and damage.missed_unit is not None:
        return [
            f"The Missed Shot strikes {ctx.fighter(damage.missed_unit).name}: "
            f"{damage.missed_damage.describe()}"
        ]
    if damage.missed is not None and damage.explosion is None:
        return [
            f"The Missed Shot lands within {inches_text(damage.missed.radius)} of "
            f"{damage.missed.state.attack.target.name} and hits nothing that matters"
        ]
    return []


def _details(action: ActionStage, damage: DamageStage) -> tuple[str, ...]:
    lines: list[str] = []
    if action.first_to_act is not None:
        lines.append(action.first_to_act.describe())
    if action.bail is not None:
        lines.append(action.bail.describe())
    for r in action.rolls:
        if not r.range.close_combat:
            lines.append(f"Range: {r.range.describe()}")
        lines.append(r.describe())
        lines.extend("  " + m.describe() for m in r.modifiers)
    if action.parry is not None:
        lines.append(action.parry.describe())
        lines.extend("  " + m.describe() for m in action.parry.roll.modifiers)
    for res in (damage.damage, damage.missed_damage):
        if res is not None:
            for p in res.parts:
                lines.extend("  " + x for x in p.breakdown())
            lines.append(res.describe())
    if damage.explosion is not None:
        lines.append(damage.explosion.describe())
    if damage.knockback is not None:
        lines.append(damage.knockback.describe())
    dice = (*action.dice, *damage.dice)
    if dice:
        lines.append(
            "Dice: "
            + ", ".join(
                f"d{d.sides}={d.face}" + ("" if d.role is Role.NATURAL else f" ({d.role})")
                for d in dice
            )
        )
    return tuple(lines)


def _changes(
    ctx: CombatContext,
    events: Sequence[Event],
    action: ActionStage,
    damage: DamageStage,
    draft: AttackDraft,
) -> tuple[str, ...]:
    """What the events change, read by comparing the state before and after: each unit's
    changes, the kills, the item knocked away, the moves the table makes, the object's fate."""
    after = ctx.state
    for e in events:
        after = apply(ctx.setup, after, e)
    out = [line for f in ctx.fighters for line in [_unit_changes(ctx, f.unit_id, after)] if line]
    out.extend(_kills(ctx, events))
    knocked = knocked_away(draft, ctx, action)
    if knocked is not None and draft.target_id is not None and not after.unit(draft.target_id).dead:
        out.append(
            f"{ctx.fighter(draft.target_id).name}'s {knocked['name']} lies "
            f"{inches_text(knocked['inches'])} directly away from "
            f"{ctx.fighter(draft.attacker_id).name}: out of his hands until he picks "
            "it up (noted in the battle log)"
        )
    out.extend(_moves(draft, ctx, damage))
    if draft.target_id is None:
        verdict = (
            "destroyed" if damage.damage is not None and damage.damage.destroyed else "no effect"
        )
        out.append(f"{target_name(draft, ctx)}: {verdict}")
    out.append("the battle log: one entry with every die and modifier")
    return tuple(out)


def _unit_changes(ctx: CombatContext, unit_id: BattleUnitId, after: BattleState) -> str:
    """``"Guy: Action Ready → Spent; Disrupted"`` (``""``: nothing changes for the unit)."""
    a, b = ctx.state.unit(unit_id), after.unit(unit_id)
    if a == b:
        return ""
    bits = []
    if a.action != b.action:
        bits.append(f"Action {a.action.label} → {b.action.label}")
    if a.counters_used != b.counters_used:
        bits.append(f"Counters used {a.counters_used} → {b.counters_used} of {b.counters}")
    if b.dead and not a.dead:
        bits.append("Dead")
    shown_apart = (Status.DEAD, Status.IN_CLOSE_COMBAT)  # said below, with whom
    bits += [s.label for s in b.statuses if s not in a.statuses and s not in shown_apart]
    bits += [
        f"no longer {s.label}"
        for s in a.statuses
        if s not in b.statuses and not b.dead and s is not Status.IN_CLOSE_COMBAT
    ]
    if a.close_combat != b.close_combat and not b.dead:
        bits += _close_combat_changes(ctx, a.close_combat, b.close_combat)
    if a.attackers != b.attackers and len(b.attackers) > len(a.attackers):
        bits.append(f"Close Combat attackers this turn: {len(b.attackers)} of 3")
    return f"{ctx.fighter(unit_id).name}: " + "; ".join(bits) if bits else ""


def _close_combat_changes(
    ctx: CombatContext, before: AbstractSet[BattleUnitId], after: AbstractSet[BattleUnitId]
) -> list[str]:
    """Whom a unit is newly in Close Combat with, and whom no longer."""
    bits = []
    new, gone = sorted(after - before), sorted(before - after)
    if new:
        bits.append("in Close Combat with " + ", ".join(ctx.setup.unit(u).name for u in new))
    if gone:
        bits.append(
            "no longer in Close Combat with " + ", ".join(ctx.setup.unit(u).name for u in gone)
        )
    return bits


def _kills(ctx: CombatContext, events: Sequence[Event]) -> list[str]:
    """``"2 kills for Will Scarlet"`` for each attack that kills."""
    out = []
    for e in events:
        if isinstance(e, AttackResolved) and e.killed:
            n = len(e.killed)
            out.append(f"{n} kill{'s' if n > 1 else ''} for {ctx.fighter(e.actor).name}")
    return out


def _moves(draft: AttackDraft, ctx: CombatContext, damage: DamageStage) -> list[str]:
    """The models the table moves: KnockBack, a weapon's KnockBack, a blast's survivors."""
    out = []
    if damage.knockback is not None and damage.knockback.inches:
        out.append(
            f"move {damage.knockback.target} {inches_text(damage.knockback.inches)} "
            "directly away (KnockBack)"
        )
    if damage.weapon_knockback:
        out.append(
            f"move {target_name(draft, ctx)} "
            f"{inches_text(damage.weapon_knockback)} directly away (KnockBack, "
            "not Disrupted)"
        )
    if damage.explosion is not None:
        out.extend(
            f"move {h.target.name} {inches_text(h.knockback)} away from the blast"
            for h in damage.explosion.hits
            if h.disrupted
        )
    return out


def result_summary(
    draft: AttackDraft,
    ctx: CombatContext,
    action: ActionStage | None = None,
    damage: DamageStage | None = None,
) -> ResultSummary:
    """The Result page: the paragraph, what will change, every step, and the events to record
    (``problem`` says why Finish can't record them yet)."""
    action = action or resolve_action(draft, ctx)
    if not action.complete:
        why = action.error or (
            "type the dice of the Action Roll" if action.need else "decide how the Benny is spent"
        )
        return ResultSummary("", (), (), (), why)
    damage = damage or resolve_damage(draft, ctx, action)
    if not damage.complete:
        why = damage.error or (
            "type the Damage dice"
            if damage.need
            else f"{damage.extra_faces} faces typed beyond the dice needed"
        )
        return ResultSummary("", (), (), (), why)
    paragraph = _paragraph(draft, ctx, action, damage)
    details = _details(action, damage)
    events = final_events(draft, ctx, action, damage, paragraph, details)
    try:
        warnings = attack_warnings(ctx, events, answered=answered_rules(draft, ctx))
        changes = _changes(ctx, events, action, damage, draft)
    except UserError as exc:
        return ResultSummary(paragraph, (), details, events, str(exc))
    overruled = bool(warnings) and set(warnings) <= set(draft.overruled)
    if overruled:
        events = with_overruled(events, warnings)
    return ResultSummary(
        paragraph, changes, details, events, warnings=warnings, overruled=overruled
    )


def answered_rules(draft: AttackDraft, ctx: CombatContext) -> tuple[str, ...]:
    """The rule sections whose question the attack itself answers, so that no warning asks it
    again: a response Strike or Shove at a unit of the active player in no Close Combat yet
    asks on the Attack page whether he is passing by (4.1 Movement: "If he declines to Parry
    and survives, he can ignore the attack and continue moving normally"); the box ticked or
    not is the organizer's answer, and such a response is within the rules either way
    (4.3 Enemy Response), so it needs no overrule."""
    return ("4.1 Movement",) if passing_by_possible(draft, ctx) else ()


def attack_warnings(
    ctx: CombatContext, events: Sequence[Event], *, answered: Sequence[str] = ()
) -> tuple[str, ...]:
    """What the organizer should check at the table before these events are recorded
    (``rule_warnings`` of each, in order, on the state the ones before it leave): a response
    Strike on a minifig who may be passing by (4.1), a second Strike (5.2), a second Ranged
    attack at the same target (5.3), a Collision with no MOM (5.4). Warnings of a rule in
    ``answered`` are left out: the attack's own choices settled them (:func:`answered_rules`).
    Each names its rule section."""
    out: list[str] = []
    state = ctx.state
    for e in events:
        out += [str(w) for w in rule_warnings(state, e) if w.rule not in answered]
        state = apply(ctx.setup, state, e)
    return tuple(dict.fromkeys(out))


def with_overruled(events: Sequence[Event], warnings: Sequence[str]) -> tuple[Event, ...]:
    """The events with the overruled warnings noted in the attack's details (the battle log
    says the organizer recorded it anyway)."""
    return tuple(
        replace(e, details={**e.details, "overruled": list(warnings)})
        if isinstance(e, AttackResolved)
        else e
        for e in events
    )


def overruled_text(summary: ResultSummary) -> str:
    """The undo step's and the message's words for the overruled warnings (``""``: none)."""
    if not summary.overruled:
        return ""
    return "; organizer overruled: " + "; ".join(summary.warnings)


def event_text(draft: AttackDraft, ctx: CombatContext) -> str:
    """The undo stack's name for the whole attack."""
    me = ctx.fighter(draft.attacker_id)
    item = ctx.item(draft.item_key)
    what = item.name if item is not None else "bare hands"
    return f"{draft.kind.label}: {me.name} ({what}) at {target_name(draft, ctx)}"


class Tone(str, Enum):
    """How a verdict reads: the pages colour it by this."""

    NONE = "none"
    HIT = "hit"
    MISS = "miss"
    CRITICAL = "critical"
    DESTROYED = "destroyed"
    DAMAGE = "damage"
    MOVED = "moved"


@dataclass(frozen=True)
class Verdict:
    """An outcome in two or three words (``"Hit! Over the Top!"``) and how it reads."""

    text: str = ""
    tone: Tone = Tone.NONE


def action_verdict(stage: ActionStage) -> Verdict:
    """The Action step's outcome in a few words (also while a Benny waits for its decision);
    empty while dice are missing or wrong."""
    if stage.need is not None or stage.error or stage.extra_faces:
        return Verdict()
    if stage.avoided:
        return Verdict(
            "Parried!"
            if stage.parry is not None and stage.parry.cancelled
            else "Dodged by Bailing"
            if stage.bail is not None
            else "Avoided",
            Tone.MISS,
        )
    first = stage.first
    if first is None:
        return Verdict()
    if first.critical_failure:
        return Verdict("Critical failure!", Tone.CRITICAL)
    hits = sum(1 for r in stage.rolls if r.hit)
    ott = " Over the Top!" if first.over_the_top else ""
    parry = _parry_words(stage.parry)
    if first.automatic is not None:
        return Verdict("Automatic Hit" + parry, Tone.HIT)
    if hits == len(stage.rolls):
        return Verdict("Hit!" + ott + parry, Tone.HIT)
    if hits:
        return Verdict(f"{hits} of {len(stage.rolls)} hit" + ott + parry, Tone.HIT)
    return Verdict(f"Miss by {first.missed_by}" + ott, Tone.MISS)


def _parry_words(parry: ParryResult | None) -> str:
    """The Parry's outcome after the attack's verdict: ``" · Parried: Deflection"``."""
    if parry is None:
        return ""
    if parry.critical_failure:
        return (
            f" · Parry fumbled: {parry.item.name} knocked away"
            if parry.knocked_away is not None
            else " · Parry fumbled"
        )
    if not parry.success:
        return " · the Parry fails"
    return " · Parried: Deflection" if parry.against.is_damage else " · Parried"


def damage_verdict(stage: DamageStage) -> Verdict:
    """The Damage step's outcome in a few words: destroyed, ka-ping, Knocked Back, Grabbed,
    resisted (empty while dice are missing, or when nothing happened)."""
    if not stage.complete:
        return Verdict()
    results = [r for r in (stage.damage, stage.missed_damage) if r is not None]
    if stage.explosion is not None:
        results += [h.damage for h in stage.explosion.hits]
    destroyed = sum(1 for r in results if r.destroyed)
    if destroyed:
        return Verdict(
            "Destroyed!" if destroyed == 1 else f"{destroyed} destroyed!", Tone.DESTROYED
        )
    if results:
        return Verdict("Ka-ping!", Tone.DAMAGE)
    if stage.knockback is not None and stage.knockback.inches:
        return Verdict(f"Knocked Back {inches_text(stage.knockback.inches)}!", Tone.MOVED)
    if stage.grab is not None and stage.grab.held:
        return Verdict("Grabbed!", Tone.MOVED)
    if stage.collision is not None and stage.collision.resisted:
        return Verdict("Resisted: locked in Close Combat", Tone.MISS)
    return Verdict()


def result_verdict(action: ActionStage, damage: DamageStage | None) -> Verdict:
    """The whole attack's outcome: the Damage step's, else the Action step's (a hit that
    did nothing is "No effect")."""
    verdict = damage_verdict(damage) if action.complete and damage is not None else Verdict()
    if verdict.text:
        return verdict
    verdict = action_verdict(action)
    return Verdict("No effect", Tone.DAMAGE) if verdict.text.startswith("Hit") else verdict


def unit_facts(ctx: CombatContext, unit_id: BattleUnitId) -> str:
    """``"Guard Alan: Action die d6, Armor 4; Action Held (may respond); In Close Combat"``."""
    f = ctx.fighter(unit_id)
    u = ctx.state.unit(unit_id)
    bits = [f"Action die d{f.action_die}", f"Armor {f.armor}"]
    if f.deflection:
        bits.append(f"Deflection {f.deflection}")
    text = f"{f.name}: " + ", ".join(bits) + f"; Action {u.action.label}"
    if u.close_combat:
        text += f"; Counters used {u.counters_used} of {u.counters}"
    statuses = [s.label for s in u.statuses]
    if statuses:
        text += "; " + ", ".join(statuses)
    return text
