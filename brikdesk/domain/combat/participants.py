"""Who takes part in the attack and how the rules see each of them: the weapon an item makes,
the hands it uses, how each participant pays, the domain's ``Attack`` built from the draft,
and the judgements the organizer may override (MOM, outnumbered, engaged)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from brikdesk.domain.actions import BlastExposure
from brikdesk.domain.attack import BARE_HANDS, Armor, Attack, SizeClass, Target, Weapon
from brikdesk.domain.battle import (
    Participant,
    Use,
    attack_use,
    engagement,
    outnumbered_modifier,
)
from brikdesk.domain.catalog import CatalogItem
from brikdesk.domain.combat.draft import (
    AttackDraft,
    AttackKind,
    Choice,
    CombatContext,
    Fighter,
    ObjectTarget,
)
from brikdesk.domain.ids import BattleUnitId
from brikdesk.errors import UserError


def can_use_kind(item: CatalogItem | None, kind: AttackKind) -> str | None:
    """Why ``item`` can't make an attack of ``kind`` (``None``: it can)."""
    name = item.name if item is not None else "Bare hands"
    if kind is AttackKind.COLLISION:
        return None  # his body, running: whatever he holds
    if kind in (AttackKind.SHOVE, AttackKind.GRAB):
        if item is not None and item.hands == 0 and item.worn:
            return f"{name} is worn, not held"
        return None
    if item is None or item.key == "bare-hands":
        return (
            "Bare Hands do no Damage: Shove or Grab with them (chapter 3, the weapon table)"
            if kind in (AttackKind.STRIKE, AttackKind.CHARGE)
            else "Bare Hands can't shoot or throw"
        )
    if kind is AttackKind.RANGED:
        return None if item.range_inches is not None else f"{name} has no Range"
    if kind is AttackKind.THROWN:
        if item.as_object:
            return f"pick the object thrown instead of the {name} row"
        if item.thrown_range_dice and item.thrown_range is None:
            return (
                f"this edition rolls how far a {name} is thrown "
                f'({item.thrown_range_dice}"): use a house rule with a Range'
            )
        if item.thrown_range is not None:
            return None
        if item.range_inches is not None:
            return f"{name} is a Ranged weapon: shoot it"
        if item.two_handed:
            return f"a {name} is Two-Handed and can't be thrown"
        if not item.deals_damage:
            return f"a {name} does no Damage when thrown"
        return None  # a Thrown Object: 3" with its Close Combat Use and Damage
    # Strike or Charge
    if not item.close_combat:
        return f"{name} is not a Close Combat weapon"
    if not item.deals_damage:
        return f"{name} does no Damage: Parry or Shove with it"
    return None


def default_use(ctx: CombatContext, unit_id: BattleUnitId) -> Use:
    """How a unit pays by default: its Action on its own turn, else its held Action."""
    return attack_use(ctx.state, unit_id)


def hands_used(
    draft: AttackDraft, ctx: CombatContext, unit_id: BattleUnitId, item_key: str | None
) -> int:
    """Counters (hands) a participant uses (5.2; READINGS "5.2 Hands"): a Strike, Charge or
    Grab 1 (a Two-Handed Weapon is one Counter); a Shove 2, or 1 with a Shield, and never more
    than the unit's Counters (a pike held in both hands is one)."""
    item = ctx.item(item_key)
    if draft.kind is AttackKind.SHOVE:
        if item is not None and item.shield:
            return 1
        return max(1, min(2, ctx.setup.unit(unit_id).counters))
    return 1


def participants(draft: AttackDraft, ctx: CombatContext) -> tuple[Participant, ...]:
    """Every participant as the battle log records it: unit, how it pays, hands used."""
    first = Participant(
        draft.attacker_id,
        draft.use or default_use(ctx, draft.attacker_id),
        hands_used(draft, ctx, draft.attacker_id, draft.item_key),
    )
    rest = tuple(
        Participant(
            j.unit_id,
            j.use or default_use(ctx, j.unit_id),
            hands_used(draft, ctx, j.unit_id, j.item_key),
        )
        for j in draft.joiners
    )
    return (first,) + rest


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


def target_of(
    draft: AttackDraft,
    ctx: CombatContext,
    *,
    unit_id: BattleUnitId | None = None,
    sections: int | None = None,
) -> Target:
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
    disrupted = (
        (u.disrupted if draft.target_disrupted is None else draft.target_disrupted)
        if main
        else u.disrupted
    )
    return Target(
        f.name,
        Armor.parse(f.armor),
        size,
        n,
        visible,
        inanimate=False,
        disrupted=disrupted,
        deflection=f.deflection,
    )


def weapon_of(item: CatalogItem | None, kind: AttackKind) -> Weapon:
    if kind in (AttackKind.SHOVE, AttackKind.GRAB, AttackKind.COLLISION) or item is None:
        return BARE_HANDS
    return Weapon.from_item(item, thrown=kind is AttackKind.THROWN)


def has_mom(draft: AttackDraft, ctx: CombatContext) -> bool:
    """Whether the attacker has a MOM (5.4 Momentum): the organizer's word, else the battle
    state's."""
    return ctx.state.unit(draft.attacker_id).mom if draft.has_mom is None else draft.has_mom


def charging_shove(draft: AttackDraft, ctx: CombatContext) -> bool:
    """Whether a Shove spends the shover's MOM (5.4 Momentum: "He might also use it to cause
    1d6\" of KnockBack in a Collision or a Charging Shove"): he has one and the organizer
    spends it (READINGS "5.2 Shoving")."""
    return draft.kind is AttackKind.SHOVE and draft.spend_mom and has_mom(draft, ctx)


def attacker_outnumbered(
    draft: AttackDraft, ctx: CombatContext, unit_id: BattleUnitId | None = None
) -> bool:
    """Whether a participant (the attacker by default) is outnumbered in Close Combat (5.1
    Combined Attacks): the organizer's word for the attacker, else the battle state's."""
    if unit_id is None:
        unit_id = draft.attacker_id
    if unit_id == draft.attacker_id and draft.outnumbered is not None:
        return draft.outnumbered
    return outnumbered_modifier(ctx.state, unit_id) is not None


def attacker_engaged(draft: AttackDraft, ctx: CombatContext) -> bool:
    """Whether someone else is attacking the attacker (5.1 Automatic Hits): the organizer's
    word, else whether it is in Close Combat."""
    if draft.attacker_engaged is not None:
        return draft.attacker_engaged
    return bool(ctx.state.unit(draft.attacker_id).close_combat)


def strikers(draft: AttackDraft, ctx: CombatContext) -> tuple[Striker, ...]:
    """Every participant's ``Attack``; raises ``UserError`` (with ``field``) for what is missing
    (a distance not measured yet, a weapon that can't make this attack)."""
    problem = can_use_kind(ctx.item(draft.item_key), draft.kind)
    if problem:
        raise UserError(problem, field="weapon")
    target = target_of(draft, ctx)
    parts = participants(draft, ctx)
    out = []
    grabbed = in_grab(ctx, draft.attacker_id) or (
        draft.target_id is not None and in_grab(ctx, draft.target_id)
    )
    for i, p in enumerate(parts):
        f = ctx.fighter(p.unit)
        if i == 0:
            item_key, distance, altitude = draft.item_key, draft.distance, draft.altitude
        else:
            j = draft.joiners[i - 1]
            item_key, distance, altitude = j.item_key, j.distance, j.altitude
        item = ctx.item(item_key)
        problem = can_use_kind(item, draft.kind)
        if problem:
            raise UserError(f"{f.name}: {problem}", field="weapon")
        ranged = not draft.kind.close_combat
        if ranged and distance is None:
            raise UserError(
                f"measure the distance from {f.name}'s weapon to {target.name} "
                "(5.1 Checking Range)",
                field="distance",
            )
        attack = Attack(
            f.attacker,
            weapon_of(item, draft.kind),
            target,
            draft.kind.maneuver,
            distance=distance if ranged else None,
            in_reach=None if ranged else draft.in_reach,
            altitude=altitude if ranged else Fraction(0),
            firing_blind=draft.firing_blind and ranged and i == 0,
            outnumbered=(not ranged) and attacker_outnumbered(draft, ctx, p.unit),
            attacker_engaged=attacker_engaged(draft, ctx)
            if i == 0
            else bool(ctx.state.unit(p.unit).close_combat),
            grab_involved=grabbed or in_grab(ctx, p.unit),
            has_mom=has_mom(draft, ctx) if i == 0 else False,
            both_hands=draft.both_hands,
            from_above=draft.from_above,
        )
        out.append(Striker(f, item, attack, p.use, p.hands))
    return tuple(out)


def in_grab(ctx: CombatContext, unit_id: BattleUnitId) -> bool:
    """Whether the unit is Grabbing or Grabbed (5.2 Grab)."""
    u = ctx.state.unit(unit_id)
    return bool(u.grabbing or u.grabbed_by)


def blast_units(draft: AttackDraft, hit: bool) -> tuple[BattleUnitId, ...]:
    """The other units the organizer marked inside the blast (3.2): never the attacker; the
    target itself too when the Explosive missed and its blast still catches it (5.3)."""
    return tuple(
        u
        for u in dict.fromkeys(draft.blast_ids)
        if u != draft.attacker_id and (u != draft.target_id or not hit)
    )


def target_name(draft: AttackDraft, ctx: CombatContext) -> str:
    """The name of the attack's target: the unit's, or the object's."""
    if draft.target_id is not None:
        return ctx.fighter(draft.target_id).name
    return (draft.target_object or ObjectTarget()).name


def blast_members(
    draft: AttackDraft, ctx: CombatContext, hit: bool
) -> tuple[tuple[BattleUnitId | None, Target], ...]:
    """Every target the blast may catch (3.2, 5.1), as ``(unit id or None for an object,
    Target)``: the attack's target when it hit, then each unit marked inside it; each as the
    attacker saw it (the blast's own view is applied by :func:`blast_exposures`)."""
    out: list[tuple[BattleUnitId | None, Target]] = (
        [(draft.target_id, target_of(draft, ctx))] if hit else []
    )
    out += [(u, target_of(draft, ctx, unit_id=u, sections=3)) for u in blast_units(draft, hit)]
    return tuple(out)


def blast_exposures(
    draft: AttackDraft, members: Sequence[tuple[BattleUnitId | None, Target]]
) -> tuple[BlastExposure, ...]:
    """Each minifig's sections inside the radius and visible from the point of detonation
    (5.1 "Only the sections of the target within the area of effect are considered"), as the
    organizer set them on the Damage page (3 unless said; 0: not affected)."""
    return tuple(
        BlastExposure(t.name, sections=draft.sections_in_blast(uid))
        for uid, t in members
        if uid is not None and t.size is SizeClass.MINIFIG
    )


def blast_kept(
    draft: AttackDraft, members: Sequence[tuple[BattleUnitId | None, Target]]
) -> tuple[tuple[BattleUnitId | None, Target], ...]:
    """The members the blast affects, each with its own sections from the detonation point
    (a minifig with none inside and visible is left out), in the order of the Explosion's
    hits (``explode_from_point``)."""
    out = []
    for uid, t in members:
        if uid is not None and t.size is SizeClass.MINIFIG:
            n = draft.sections_in_blast(uid)
            if n == 0:
                continue
            t = replace(t, sections_visible=n)
        out.append((uid, t))
    return tuple(out)


def blast_section_rows(
    draft: AttackDraft, ctx: CombatContext, hit: bool
) -> tuple[tuple[BattleUnitId, str, int], ...]:
    """The Damage page's rows for the blast (5.1): ``(unit id, name, sections inside the
    radius and visible from the detonation point)`` for each minifig the blast may catch."""
    return tuple(
        (uid, t.name, draft.sections_in_blast(uid))
        for uid, t in blast_members(draft, ctx, hit)
        if uid is not None and t.size is SizeClass.MINIFIG
    )


def passing_by_possible(draft: AttackDraft, ctx: CombatContext) -> bool:
    """Whether the attack may be marked "passing by" (4.1 Movement: "If he declines to Parry
    and survives, he can ignore the attack and continue moving normally"): a Strike or Shove
    paid for in response, at a unit of the active player that is in no Close Combat yet."""
    if draft.kind not in (AttackKind.STRIKE, AttackKind.SHOVE) or draft.target_id is None:
        return False
    if (draft.use or default_use(ctx, draft.attacker_id)) is not Use.RESPONSE:
        return False
    t = ctx.state.unit(draft.target_id)
    return not t.close_combat and t.player_id == ctx.state.active


def brawl_options(
    draft: AttackDraft, ctx: CombatContext
) -> tuple[Choice[BattleUnitId | None], ...]:
    """Where a Close Combat attack may fight (5.2 Counters and Actions, the Hank and Butch
    brawl; battle reading brawl): a fight of its own (``None``) or joined to each brawl going
    on that neither the attacker nor the target is in, named by one of its members (the
    attacker's own side first). Empty when there is no other brawl to join."""
    if not draft.kind.engages or draft.target_id is None:
        return ()
    state = ctx.state
    taken = engagement(state, draft.attacker_id) | engagement(state, draft.target_id)
    side = ctx.side(draft.attacker_id)
    seen: set[BattleUnitId] = set(taken)
    out: list[Choice[BattleUnitId | None]] = []
    for f in ctx.fighters:
        if f.unit_id in seen or not state.unit(f.unit_id).close_combat:
            continue
        members = engagement(state, f.unit_id)
        seen |= members
        ordered = sorted(members, key=lambda u: (ctx.side(u) != side, ctx.fighter(u).name))
        names = ", ".join(ctx.fighter(u).name for u in ordered)
        out.append(Choice(ordered[0], f"Joins the brawl of {names}"))
    if not out:
        return ()
    return (Choice(None, "A fight of its own"), *out)


def brawl_joined(draft: AttackDraft, ctx: CombatContext) -> BattleUnitId | None:
    """The brawl the attack joins, if the draft's choice is still one of the options (not
    passing by, which locks nobody in)."""
    if draft.brawl is None or (draft.passing_by and passing_by_possible(draft, ctx)):
        return None
    offered = {c.value for c in brawl_options(draft, ctx)}
    return draft.brawl if draft.brawl in offered else None


def blast_candidates(draft: AttackDraft, ctx: CombatContext, hit: bool) -> tuple[Fighter, ...]:
    """The units the organizer may mark inside the blast (3.2): every unit still in the battle
    but the attacker, and the target only when the Explosive missed (5.3); see
    :func:`blast_units`."""
    return tuple(
        f
        for f in ctx.fighters
        if f.unit_id in blast_units(replace(draft, blast_ids=(f.unit_id,)), hit)
        and ctx.state.unit(f.unit_id).in_battle
    )
