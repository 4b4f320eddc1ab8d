"""Every participant of the attack as the rules resolve it: the domain's ``Attack`` built from
the draft."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from brikdesk.domain.attack import BARE_HANDS, Armor, Attack, SizeClass, Target, Weapon
from brikdesk.domain.battle import Use, outnumbered_modifier
from brikdesk.domain.catalog import CatalogItem
from brikdesk.domain.combat.attack_page import _can_use_kind, _participants
from brikdesk.domain.combat.draft import (
    AttackDraft,
    AttackKind,
    CombatContext,
    Fighter,
    ObjectTarget,
)
from brikdesk.errors import UserError


@dataclass(frozen=True)
class Striker:
    """One participant as the rules resolve it: who, with which weapon, how it pays."""

    fighter: Fighter
    item: CatalogItem | None
    attack: Attack
    use: Use
    hands: int

    @property
    def key(self) -> str:
        return f"attack:{self.fighter.unit_id}"


def target_of(draft: AttackDraft, ctx: CombatContext, *, unit_id: int | None = None,
              sections: int | None = None) -> Target:
    """The domain ``Target`` of the attack (or of another unit, for a blast or Missed Shot)."""
    uid = draft.target_id if unit_id is None else unit_id
    main = unit_id is None
    if uid is None:
        obj = draft.target_object or ObjectTarget()
        size = draft.size or obj.size
        visible = draft.visible_size if draft.visible_size is not None else obj.size_inches
        if size is SizeClass.MINIFIG:
            size = SizeClass.BRICK_2X4
        return Target(obj.name, Armor.parse(obj.armor), size, 3, visible, inanimate=True)
    f = ctx.fighter(uid)
    u = ctx.state.unit(uid)
    size = (draft.size or SizeClass.MINIFIG) if main else SizeClass.MINIFIG
    n = (draft.sections_visible if main else 3) if sections is None else sections
    visible = (draft.visible_size or Fraction(0)) if main else Fraction(0)
    disrupted = (u.disrupted if draft.target_disrupted is None else draft.target_disrupted) \
        if main else u.disrupted
    return Target(f.name, Armor.parse(f.armor), size, n, visible, inanimate=False,
                  disrupted=disrupted, deflection=f.deflection)


def weapon_of(item: CatalogItem | None, kind: AttackKind) -> Weapon:
    if kind in (AttackKind.SHOVE, AttackKind.GRAB) or item is None:
        return BARE_HANDS
    return Weapon.from_item(item, thrown=kind is AttackKind.THROWN)


def _has_mom(draft: AttackDraft, ctx: CombatContext) -> bool:
    return ctx.state.unit(draft.attacker_id).mom if draft.has_mom is None else draft.has_mom


def _outnumbered(draft: AttackDraft, ctx: CombatContext, unit_id: int) -> bool:
    if unit_id == draft.attacker_id and draft.outnumbered is not None:
        return draft.outnumbered
    return outnumbered_modifier(ctx.state, unit_id) is not None


def _engaged(draft: AttackDraft, ctx: CombatContext) -> bool:
    if draft.attacker_engaged is not None:
        return draft.attacker_engaged
    return bool(ctx.state.unit(draft.attacker_id).close_combat)


def strikers(draft: AttackDraft, ctx: CombatContext) -> tuple[Striker, ...]:
    """Every participant's ``Attack``; raises ``UserError`` (with ``field``) for what is missing
    (a distance not measured yet, a weapon that can't make this attack)."""
    problem = _can_use_kind(ctx.item(draft.item_key), draft.kind)
    if problem:
        raise UserError(problem, field="weapon")
    target = target_of(draft, ctx)
    parts = _participants(draft, ctx)
    out = []
    grabbed = _in_grab(ctx, draft.attacker_id) or (
        draft.target_id is not None and _in_grab(ctx, draft.target_id))
    for i, p in enumerate(parts):
        f = ctx.fighter(p.unit)
        if i == 0:
            item_key, distance, altitude = draft.item_key, draft.distance, draft.altitude
        else:
            j = draft.joiners[i - 1]
            item_key, distance, altitude = j.item_key, j.distance, j.altitude
        item = ctx.item(item_key)
        problem = _can_use_kind(item, draft.kind)
        if problem:
            raise UserError(f"{f.name}: {problem}", field="weapon")
        ranged = not draft.kind.close_combat
        if ranged and distance is None:
            raise UserError(f"measure the distance from {f.name}'s weapon to {target.name} "
                            "(5.1 Checking Range)", field="distance")
        attack = Attack(
            f.attacker, weapon_of(item, draft.kind), target, draft.kind.maneuver,
            distance=distance if ranged else None,
            in_reach=None if ranged else draft.in_reach,
            altitude=altitude if ranged else Fraction(0),
            firing_blind=draft.firing_blind and ranged and i == 0,
            outnumbered=(not ranged) and _outnumbered(draft, ctx, p.unit),
            attacker_engaged=_engaged(draft, ctx) if i == 0 else bool(
                ctx.state.unit(p.unit).close_combat),
            grab_involved=grabbed or _in_grab(ctx, p.unit),
            has_mom=_has_mom(draft, ctx) if i == 0 else False,
            both_hands=draft.both_hands, from_above=draft.from_above)
        out.append(Striker(f, item, attack, p.use, p.hands))
    return tuple(out)


def _in_grab(ctx: CombatContext, unit_id: int) -> bool:
    u = ctx.state.unit(unit_id)
    return bool(u.grabbing or u.grabbed_by)
