"""What Finish records for an attack: the target's reaction, one ``AttackResolved`` with
every participant, status change (Disrupted, Close Combat, Grab, MOM), kill, die and modifier,
and the item a fumbled Parry knocked away."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from brikdesk.domain.battle import (
    ActionUse,
    AttackResolved,
    Event,
    Status,
    StatusChange,
    StatusSet,
)
from brikdesk.domain.combat.draft import AttackDraft, AttackKind, CombatContext
from brikdesk.domain.combat.participants import (
    has_mom,
    participants,
    passing_by_possible,
    target_name,
)
from brikdesk.domain.combat.reaction import reaction_event
from brikdesk.domain.combat.resolution import ActionStage, DamageStage, Owner
from brikdesk.domain.ids import BattleUnitId
from brikdesk.domain.modifiers import Modifier, Stat


def killed_units(
    draft: AttackDraft, action: ActionStage, damage: DamageStage
) -> tuple[BattleUnitId, ...]:
    out: list[BattleUnitId] = []
    if draft.target_id is not None and damage.damage is not None and damage.damage.destroyed:
        out.append(draft.target_id)
    if damage.explosion is not None:
        for uid, hit in zip(damage.blast_hit_ids, damage.explosion.hits, strict=True):
            if uid is not None and hit.damage.destroyed:
                out.append(uid)
    if (
        damage.missed_damage is not None
        and damage.missed_damage.destroyed
        and damage.missed_unit is not None
    ):
        out.append(damage.missed_unit)
    return tuple(dict.fromkeys(out))


def _effects(
    draft: AttackDraft,
    ctx: CombatContext,
    action: ActionStage,
    damage: DamageStage,
    killed: Sequence[BattleUnitId],
) -> tuple[StatusChange, ...]:
    """Every status the attack changes: the target's (Disrupted, Close Combat, Grab), the
    blast's survivors' (Disrupted) and the charger's MOM."""
    out: list[StatusChange] = []
    if draft.target_id is not None and draft.target_id not in killed:
        out += _target_effects(draft, ctx, action, damage, draft.target_id)
    if damage.explosion is not None:
        out += [
            StatusChange(uid, Status.DISRUPTED)
            for uid, hit in zip(damage.blast_hit_ids, damage.explosion.hits, strict=True)
            if uid is not None and uid not in killed and hit.disrupted
        ]
    if draft.kind in (AttackKind.CHARGE, AttackKind.SHOVE):
        out += _mom_effects(draft, ctx, damage)
    return tuple(out)


def _target_effects(
    draft: AttackDraft,
    ctx: CombatContext,
    action: ActionStage,
    damage: DamageStage,
    tid: BattleUnitId,
) -> list[StatusChange]:
    """What a Shove, a Collision, a Grab or parting does to the surviving target's status."""
    out: list[StatusChange] = []
    if damage.shove is not None and damage.knockback is not None:
        out.append(StatusChange(tid, Status.DISRUPTED))
    if damage.collision is not None:
        out.append(
            StatusChange(draft.attacker_id, Status.IN_CLOSE_COMBAT, with_ids=(tid,))
            if damage.collision.resisted
            else StatusChange(tid, Status.DISRUPTED)
        )
    if damage.grab is not None and damage.grab.held:
        out.append(StatusChange(draft.attacker_id, Status.GRABBING, with_ids=(tid,)))
    if draft.kind.close_combat and _parted(draft, action, damage):
        out += [
            StatusChange(p.unit, Status.IN_CLOSE_COMBAT, on=False, with_ids=(tid,))
            for p in participants(draft, ctx)
        ]
    return out


def _mom_effects(draft: AttackDraft, ctx: CombatContext, damage: DamageStage) -> list[StatusChange]:
    """A Charge (or a Charging Shove) spends the charger's MOM, or gives it one he earned
    and kept (5.4)."""
    had = ctx.state.unit(draft.attacker_id).mom
    if damage.mom_spent and had:
        return [StatusChange(draft.attacker_id, Status.MOM, on=False)]
    if not damage.mom_spent and not had and has_mom(draft, ctx):
        return [StatusChange(draft.attacker_id, Status.MOM)]
    return []


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


def _payload(
    draft: AttackDraft,
    ctx: CombatContext,
    action: ActionStage,
    damage: DamageStage,
    paragraph: str,
    details: Sequence[str],
) -> dict[str, Any]:
    """The battle log's details of the attack: its words, weapon, every die and modifier,
    the outcome, every step."""
    item = ctx.item(draft.item_key)
    payload: dict[str, Any] = {
        "text": paragraph,
        "weapon": item.name if item is not None else "bare hands",
        "kind": draft.kind.label,
        "target_name": target_name(draft, ctx),
        "dice": _dice_payload(action, damage),
        "modifiers": [
            {
                "value": m.value,
                "applies_to": m.applies_to.value,
                "reason": m.reason,
                "rule": m.rule,
                "roll": kind,
                "owner": owner,
            }
            for m, (kind, owner) in _modifiers_used(draft, action, damage)
        ],
        "outcome": _outcome(draft, ctx, action, damage),
        "lines": list(details),
    }
    if draft.target_object is not None and draft.target_id is None:
        payload["object"] = {
            "name": draft.target_object.name,
            "armor": draft.target_object.armor,
            "size": draft.target_object.size.value,
        }
    return payload


def _dice_payload(action: ActionStage, damage: DamageStage) -> list[dict[str, Any]]:
    """Every die of the attack in the order rolled, each with whose roll it is: ``"roll"``
    (bail, action, parry, damage, armor, ...) and ``"owner"`` (the battle unit rolling it)."""
    owners = (*action.owners, *damage.owners)
    out = []
    for i, d in enumerate((*action.dice, *damage.dice)):
        kind, owner = owners[i] if i < len(owners) else ("other", None)
        out.append(
            {
                "sides": d.sides,
                "face": d.face,
                "role": d.role.value,
                "why": d.why,
                "roll": kind,
                "owner": owner,
            }
        )
    return out


def _modifiers_used(
    draft: AttackDraft, action: ActionStage, damage: DamageStage
) -> list[tuple[Modifier, Owner]]:
    """Every modifier of every roll of the attack with whose roll it changes, once each per
    roll, in the order they applied: an Action Roll's own modifiers under its attacker, the
    Parry's under the target, Damage under the roll of Damage."""
    mods: list[tuple[Modifier, Owner]] = []
    for s, r in zip(action.strikers, action.rolls, strict=False):
        for m in r.modifiers:
            kind = "damage" if m.applies_to is Stat.DAMAGE else "action"
            mods.append((m, (kind, s.fighter.unit_id if kind == "action" else None)))
    if action.parry is not None:
        mods.extend((m, ("parry", draft.target_id)) for m in action.parry.roll.modifiers)
    results = [res for res in (damage.damage, damage.missed_damage) if res is not None]
    if damage.explosion is not None:
        results += [h.damage for h in damage.explosion.hits]
    for res in results:
        for p in res.parts:
            mods.extend((m, ("damage", None)) for m in p.modifiers)
    return list(dict.fromkeys(mods))


def _roll_outcomes(draft: AttackDraft, action: ActionStage) -> list[dict[str, Any]]:
    """Each roll of the Action step with its total: the Bail, every attacker's Action Roll
    (or Automatic Hit), the Parry; ``owner`` the unit that rolled it."""
    out: list[dict[str, Any]] = []
    bail = action.bail
    if bail is not None:
        out.append(
            {
                "roll": "bail",
                "owner": draft.target_id,
                "total": bail.rolled_inches,
                "critical_failure": bail.critical_failure,
                "over_the_top": bail.over_the_top,
            }
        )
    for s, r in zip(action.strikers, action.rolls, strict=False):
        entry: dict[str, Any] = {"roll": "action", "owner": s.fighter.unit_id, "hit": r.hit}
        if r.automatic is not None:
            entry["automatic_hit"] = r.automatic.describe()
        elif r.roll is not None and r.roll.rolled:
            entry.update(
                total=r.roll.total,
                use=r.roll.use,
                critical_failure=r.critical_failure,
                over_the_top=r.over_the_top,
            )
            if not r.hit:
                entry["missed_by"] = r.missed_by
        out.append(entry)
    parry = action.parry
    if parry is not None:
        out.append(
            {
                "roll": "parry",
                "owner": draft.target_id,
                "total": parry.roll.total,
                "use": parry.roll.use,
                "success": parry.success,
                "critical_failure": parry.critical_failure,
                "over_the_top": parry.over_the_top,
            }
        )
    return out


def _outcome(
    draft: AttackDraft, ctx: CombatContext, action: ActionStage, damage: DamageStage
) -> dict[str, Any]:
    """The attack's outcome as the battle log keeps it: hit, killed, the Action Roll and its
    Use, the Damage and Armor, what avoided it, the item knocked away."""
    first = action.first
    outcome: dict[str, Any] = {
        "hit": action.hit,
        "killed": bool(
            draft.target_id is not None and draft.target_id in killed_units(draft, action, damage)
        ),
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
    outcome["rolls"] = _roll_outcomes(draft, action)
    if action.avoided:
        outcome["avoided"] = action.avoided
    knocked = knocked_away(draft, ctx, action)
    if knocked is not None:
        outcome["knocked_away"] = knocked
    return outcome


def knocked_away(
    draft: AttackDraft, ctx: CombatContext, action: ActionStage
) -> dict[str, Any] | None:
    """The item a critical failure on the Parry knocked away (5.2), when the organizer records
    it: ``{"unit", "item" (catalog key, or its name), "name", "inches", "round"}``."""
    parry = action.parry
    if (
        parry is None
        or parry.knocked_away is None
        or draft.target_id is None
        or not draft.record_knocked_away
    ):
        return None
    return {
        "unit": draft.target_id,
        "item": draft.parry_item or parry.item.name,
        "name": parry.item.name,
        "inches": parry.knocked_away,
        "round": ctx.state.round,
    }


def final_events(
    draft: AttackDraft,
    ctx: CombatContext,
    action: ActionStage,
    damage: DamageStage,
    paragraph: str = "",
    details: Sequence[str] = (),
) -> tuple[Event, ...]:
    """What Finish records: who acts first (4.3, when asked), the target's reaction (its Parry
    or Bail spends its Action or a hand) and one ``AttackResolved`` holding every participant, status change, kill, die and
    modifier."""
    events: list[Event] = []
    if action.first_to_act is not None:
        events.append(action.first_to_act.to_event())
    if action.bail is not None:
        events.append(
            reaction_event(draft, ctx, ActionUse.BAIL, over_the_top=action.bail.landed_on_feet)
        )
    if action.parry is not None:
        events.append(reaction_event(draft, ctx, ActionUse.PARRY))
    if (
        draft.kind is AttackKind.COLLISION
        and has_mom(draft, ctx)
        and not ctx.state.unit(draft.attacker_id).mom
    ):
        events.append(StatusSet(draft.attacker_id, Status.MOM))  # he ran 4": a MOM (5.4)
    killed = killed_units(draft, action, damage)
    effects = _effects(draft, ctx, action, damage, killed)
    parts = participants(draft, ctx)
    close = draft.kind.engages and draft.target_id is not None
    payload = _payload(draft, ctx, action, damage, paragraph, details)
    events.append(
        AttackResolved(
            actor=parts[0].unit,
            target=draft.target_id,
            participants=parts,
            close_combat=close,
            maneuver=draft.kind.event_name,
            effects=effects,
            killed=killed,
            details=payload,
            passing_by=draft.passing_by and passing_by_possible(draft, ctx),
        )
    )
    return tuple(events)
