"""Page 5, Result: one paragraph in plain words, what will change, every step, and the
events Finish records."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from brikdesk.domain.attack import AttackResult, inches_text
from brikdesk.domain.battle import ActionUse, AttackResolved, Event, Status, StatusChange, apply
from brikdesk.domain.combat.attack_page import _participants
from brikdesk.domain.combat.damage_page import DamageStage, resolve_damage
from brikdesk.domain.combat.draft import AttackDraft, AttackKind, CombatContext, ObjectTarget
from brikdesk.domain.combat.reaction import _reaction_event
from brikdesk.domain.combat.replay import ActionStage, resolve_action
from brikdesk.domain.combat.striker import _has_mom
from brikdesk.domain.modifiers import Modifier
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


def _killed(draft: AttackDraft, action: ActionStage, damage: DamageStage) -> tuple[int, ...]:
    out: list[int] = []
    if draft.target_id is not None and damage.damage is not None and damage.damage.destroyed:
        out.append(draft.target_id)
    if damage.explosion is not None:
        ids = ([draft.target_id] if action.first is not None and action.first.hit else [])
        ids += list(damage.blast_units)
        for uid, hit in zip(ids, damage.explosion.hits, strict=False):
            if uid is not None and hit.damage.destroyed:
                out.append(uid)
    if damage.missed_damage is not None and damage.missed_damage.destroyed \
            and damage.missed_unit is not None:
        out.append(damage.missed_unit)
    return tuple(dict.fromkeys(out))


def _effects(draft: AttackDraft, ctx: CombatContext, action: ActionStage,
             damage: DamageStage, killed: Sequence[int]) -> tuple[StatusChange, ...]:
    out: list[StatusChange] = []
    tid = draft.target_id
    if tid is not None and tid not in killed:
        if damage.shove is not None and damage.knockback is not None:
            out.append(StatusChange(tid, Status.DISRUPTED))
        if damage.collision is not None:
            if damage.collision.resisted:
                out.append(StatusChange(draft.attacker_id, Status.IN_CLOSE_COMBAT,
                                        with_ids=(tid,)))
            else:
                out.append(StatusChange(tid, Status.DISRUPTED))
        if damage.grab is not None and damage.grab.held:
            out.append(StatusChange(draft.attacker_id, Status.GRABBING, with_ids=(tid,)))
        if draft.kind.close_combat and _parted(draft, action, damage):
            for p in _participants(draft, ctx):
                out.append(StatusChange(p.unit, Status.IN_CLOSE_COMBAT, on=False,
                                        with_ids=(tid,)))
    if damage.explosion is not None:
        ids = ([tid] if action.first is not None and action.first.hit else [])
        ids += list(damage.blast_units)
        for uid, hit in zip(ids, damage.explosion.hits, strict=False):
            if uid is not None and uid not in killed and hit.disrupted:
                out.append(StatusChange(uid, Status.DISRUPTED))
    if draft.kind is AttackKind.CHARGE:
        had = ctx.state.unit(draft.attacker_id).mom
        if damage.mom_spent and had:
            out.append(StatusChange(draft.attacker_id, Status.MOM, on=False))
        elif not damage.mom_spent and not had and _has_mom(draft, ctx):
            out.append(StatusChange(draft.attacker_id, Status.MOM))
    return tuple(out)


def _parted(draft: AttackDraft, action: ActionStage, damage: DamageStage) -> bool:
    """Whether a Close Combat maneuver leaves attacker and target apart (READINGS "Parting"):
    the target dived away, was Shoved or Collided away, or the Charge missed and ran on."""
    if action.bail is not None and action.avoided:
        return True
    if damage.shove is not None and damage.knockback is not None and damage.knockback.flown:
        return True
    if draft.kind is AttackKind.CHARGE and action.avoided is None and not action.hit:
        return not (damage.collision is not None and damage.collision.resisted)
    return False


def _target_name(draft: AttackDraft, ctx: CombatContext) -> str:
    if draft.target_id is not None:
        return ctx.fighter(draft.target_id).name
    return (draft.target_object or ObjectTarget()).name


def _paragraph(draft: AttackDraft, ctx: CombatContext, action: ActionStage,
               damage: DamageStage) -> str:
    sentences: list[str] = []
    if action.bail is not None:
        sentences.append(action.bail.describe())
    if action.avoided and action.bail is not None:
        sentences.append(action.avoided)
    single = len(action.rolls) == 1
    first = action.first
    parry = action.parry
    bodily = damage.shove is not None or damage.grab is not None
    # In the order it happened: the Action Roll(s), the Parry, then the Damage against Armor.
    merged = (single and parry is None and not bodily and damage.explosion is None
              and damage.collision is None)
    if first is not None:
        if damage.explosion is not None:
            sentences.append(first.describe() if not first.hit else
                             f"{first.attack.label} hits {first.attack.target.name}")
        elif merged:
            sentences.append(AttackResult(first, damage.damage if first.hit else None)
                             .describe())
        elif not (bodily and first.automatic is not None):  # a Shove says it hit itself
            sentences.extend(r.describe() for r in action.rolls)
    if parry is not None:
        sentences.append(parry.describe())
    if damage.explosion is not None:
        sentences.append(damage.explosion.describe())
    if damage.shove is not None:
        sentences.append(damage.shove.describe())
    if damage.grab is not None:
        sentences.append(damage.grab.describe())
    if damage.collision is not None:
        sentences.append(damage.collision.describe())
    if damage.damage is not None and not merged:
        sentences.append(damage.damage.describe())
    if damage.weapon_knockback and not merged:
        sentences.append(f"{_target_name(draft, ctx)} is Knocked Back "
                         f"{inches_text(damage.weapon_knockback)} (3.1)")
    if damage.missed_damage is not None and damage.missed_unit is not None:
        sentences.append(f"The Missed Shot strikes {ctx.fighter(damage.missed_unit).name}: "
                         f"{damage.missed_damage.describe()}")
    elif damage.missed is not None and damage.explosion is None:
        sentences.append(f"The Missed Shot lands within {inches_text(damage.missed.radius)} "
                         f"of {damage.missed.state.attack.target.name} and hits nothing that "
                         "matters")
    if first is not None and first.critical_failure:
        sentences.append("A critical failure: the players may narrate something worse")
    text = ". ".join(s[0].upper() + s[1:] if s else s for s in sentences)
    return text + ("." if text and not text.endswith(".") else "")


def _payload(draft: AttackDraft, ctx: CombatContext, action: ActionStage,
             damage: DamageStage, paragraph: str, details: Sequence[str]) -> dict[str, Any]:
    first = action.first
    mods: list[Modifier] = []
    for r in action.rolls:
        mods.extend(r.modifiers)
    if action.parry is not None:
        mods.extend(action.parry.roll.modifiers)
    for res in (damage.damage, damage.missed_damage):
        if res is not None:
            for p in res.parts:
                mods.extend(p.modifiers)
    if damage.explosion is not None:
        for h in damage.explosion.hits:
            for p in h.damage.parts:
                mods.extend(p.modifiers)
    seen: list[Modifier] = []
    for m in mods:
        if m not in seen:
            seen.append(m)
    item = ctx.item(draft.item_key)
    outcome: dict[str, Any] = {
        "hit": action.hit,
        "killed": bool(draft.target_id is not None and draft.target_id in
                       _killed(draft, action, damage)),
        "critical_failure": bool(first is not None and first.critical_failure),
        "over_the_top": bool(first is not None and first.over_the_top),
    }
    if first is not None and first.roll is not None and first.roll.rolled:
        outcome.update(action_total=first.roll.total, use=first.roll.use)
        if not first.hit:
            outcome["missed_by"] = first.missed_by
    if first is not None and first.automatic is not None:
        outcome["automatic_hit"] = first.automatic.describe()
    if damage.damage is not None:
        outcome["damage"] = damage.damage.total
        if damage.damage.armor_value is not None:
            outcome["armor"] = damage.damage.armor_value
    if action.avoided:
        outcome["avoided"] = action.avoided
    knocked = _knocked_away(draft, ctx, action)
    if knocked is not None:
        outcome["knocked_away"] = knocked
    payload: dict[str, Any] = {
        "text": paragraph,
        "weapon": item.name if item is not None else "bare hands",
        "kind": draft.kind.label,
        "target_name": _target_name(draft, ctx),
        "dice": [{"sides": d.sides, "face": d.face, "role": d.role.value, "why": d.why}
                 for d in (*action.dice, *damage.dice)],
        "modifiers": [{"value": m.value, "applies_to": m.applies_to.value,
                       "reason": m.reason, "rule": m.rule} for m in seen],
        "outcome": outcome,
        "lines": list(details),
    }
    if draft.target_object is not None and draft.target_id is None:
        payload["object"] = {"name": draft.target_object.name,
                             "armor": draft.target_object.armor,
                             "size": draft.target_object.size.value}
    return payload


def _knocked_away(draft: AttackDraft, ctx: CombatContext, action: ActionStage
                  ) -> dict[str, Any] | None:
    """The item a critical failure on the Parry knocked away (5.2), when the organizer records
    it: ``{"unit", "item" (catalog key, or its name), "name", "inches", "round"}``."""
    parry = action.parry
    if parry is None or parry.knocked_away is None or draft.target_id is None \
            or not draft.record_knocked_away:
        return None
    return {"unit": draft.target_id, "item": draft.parry_item or parry.item.name,
            "name": parry.item.name, "inches": parry.knocked_away, "round": ctx.state.round}


def _details(action: ActionStage, damage: DamageStage) -> tuple[str, ...]:
    lines: list[str] = []
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
        lines.append("Dice: " + ", ".join(f"d{d.sides}={d.face}"
                                          + ("" if d.role is Role.NATURAL else f" ({d.role})")
                                          for d in dice))
    return tuple(lines)


def final_events(draft: AttackDraft, ctx: CombatContext, action: ActionStage,
                 damage: DamageStage, paragraph: str = "",
                 details: Sequence[str] = ()) -> tuple[Event, ...]:
    """What Finish records: the target's reaction (its Parry or Bail spends its Action or a
    hand) and one ``AttackResolved`` holding every participant, status change, kill, die and
    modifier."""
    events: list[Event] = []
    if action.bail is not None:
        events.append(_reaction_event(draft, ctx, ActionUse.BAIL,
                                      over_the_top=action.bail.landed_on_feet))
    if action.parry is not None:
        events.append(_reaction_event(draft, ctx, ActionUse.PARRY))
    killed = _killed(draft, action, damage)
    effects = _effects(draft, ctx, action, damage, killed)
    participants = _participants(draft, ctx)
    close = draft.kind.close_combat and draft.target_id is not None
    payload = _payload(draft, ctx, action, damage, paragraph, details)
    events.append(AttackResolved(actor=participants[0].unit, target=draft.target_id,
                                 participants=participants, close_combat=close,
                                 maneuver=draft.kind.event_name, effects=effects, killed=killed,
                                 details=payload))
    return tuple(events)


def _changes(ctx: CombatContext, events: Sequence[Event], action: ActionStage,
             damage: DamageStage,
             draft: AttackDraft) -> tuple[str, ...]:
    """What the events change, read by comparing the state before and after."""
    before = ctx.state
    after = before
    for e in events:
        after = apply(ctx.setup, after, e)
    out: list[str] = []
    for f in ctx.fighters:
        a, b = before.unit(f.unit_id), after.unit(f.unit_id)
        if a == b:
            continue
        bits = []
        if a.action != b.action:
            bits.append(f"Action {a.action.label} → {b.action.label}")
        if a.counters_used != b.counters_used:
            bits.append(f"Counters used {a.counters_used} → {b.counters_used} of "
                        f"{b.counters}")
        gained = [s for s in b.statuses if s not in a.statuses]
        lost = [s for s in a.statuses if s not in b.statuses and not b.dead]
        if b.dead and not a.dead:
            bits.append("Dead")
        shown_apart = (Status.DEAD, Status.IN_CLOSE_COMBAT)  # said below, with whom
        bits += [s.label for s in gained if s not in shown_apart]
        bits += [f"no longer {s.label}" for s in lost if s is not Status.IN_CLOSE_COMBAT]
        if a.close_combat != b.close_combat and not b.dead:
            new = sorted(b.close_combat - a.close_combat)
            gone = sorted(a.close_combat - b.close_combat)
            if new:
                bits.append("in Close Combat with " + ", ".join(
                    ctx.setup.unit(u).name for u in new))
            if gone:
                bits.append("no longer in Close Combat with " + ", ".join(
                    ctx.setup.unit(u).name for u in gone))
        if a.attackers != b.attackers and len(b.attackers) > len(a.attackers):
            bits.append(f"Close Combat attackers this turn: {len(b.attackers)} of 3")
        if bits:
            out.append(f"{f.name}: " + "; ".join(bits))
    for e in events:
        if isinstance(e, AttackResolved):
            if e.killed:
                n = len(e.killed)
                out.append(f"{n} kill{'s' if n > 1 else ''} for {ctx.fighter(e.actor).name}")
    knocked = _knocked_away(draft, ctx, action)
    if knocked is not None and draft.target_id is not None \
            and not after.unit(draft.target_id).dead:
        out.append(f"{ctx.fighter(draft.target_id).name}'s {knocked['name']} lies "
                   f"{inches_text(knocked['inches'])} directly away from "
                   f"{ctx.fighter(draft.attacker_id).name}: out of his hands until he picks "
                   "it up (noted in the battle log)")
    if damage.knockback is not None and damage.knockback.inches:
        out.append(f"move {damage.knockback.target} {inches_text(damage.knockback.inches)} "
                   "directly away (KnockBack)")
    if damage.weapon_knockback:
        out.append(f"move {_target_name(draft, ctx)} "
                   f"{inches_text(damage.weapon_knockback)} directly away (KnockBack, "
                   "not Disrupted)")
    if damage.explosion is not None:
        for h in damage.explosion.hits:
            if h.disrupted:
                out.append(f"move {h.target.name} {inches_text(h.knockback)} away from the "
                           "blast")
    if draft.target_id is None:
        verdict = ("destroyed" if damage.damage is not None and damage.damage.destroyed
                   else "no effect")
        out.append(f"{_target_name(draft, ctx)}: {verdict}")
    out.append("the battle log: one entry with every die and modifier")
    return tuple(out)


def result_summary(draft: AttackDraft, ctx: CombatContext, action: ActionStage | None = None,
                   damage: DamageStage | None = None) -> ResultSummary:
    """The Result page: the paragraph, what will change, every step, and the events to record
    (``problem`` says why Finish can't record them yet)."""
    action = action or resolve_action(draft, ctx)
    if not action.complete:
        why = action.error or ("type the dice of the Action Roll" if action.need else
                               "decide how the Benny is spent")
        return ResultSummary("", (), (), (), why)
    damage = damage or resolve_damage(draft, ctx, action)
    if not damage.complete:
        why = damage.error or ("type the Damage dice" if damage.need else
                               f"{damage.extra_faces} faces typed beyond the dice needed")
        return ResultSummary("", (), (), (), why)
    paragraph = _paragraph(draft, ctx, action, damage)
    details = _details(action, damage)
    events = final_events(draft, ctx, action, damage, paragraph, details)
    try:
        changes = _changes(ctx, events, action, damage, draft)
    except UserError as exc:
        return ResultSummary(paragraph, (), details, events, str(exc))
    return ResultSummary(paragraph, changes, details, events)


def event_text(draft: AttackDraft, ctx: CombatContext) -> str:
    """The undo stack's name for the whole attack."""
    me = ctx.fighter(draft.attacker_id)
    item = ctx.item(draft.item_key)
    what = item.name if item is not None else "bare hands"
    return f"{draft.kind.label}: {me.name} ({what}) at {_target_name(draft, ctx)}"
