"""Page 4, Damage: the Damage dice, their modifiers and Deflection, the Armor to beat, the
exact kill chance and distribution; the Damage step replayed from the faces typed."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from brikdesk.domain.actions import (
    CollisionResult,
    GrabResult,
    KnockBackResult,
    ShoveResult,
    collide,
    grab,
    shove,
)
from brikdesk.domain.attack import (
    Armor,
    AttackResult,
    DamageResult,
    DamageRoll,
    ExplosionResult,
    MissedShot,
    RangeCheck,
    Target,
    apply_damage,
    check_range,
    damage_roll,
    explode,
    inches_text,
    missed_shot,
    resolve_missed_shot,
    target_size_modifiers,
)
from brikdesk.domain.combat.chances import (
    _damage_expr,
    _damage_mod,
    _mom_spendable,
    _on_hit,
    _p_beats,
)
from brikdesk.domain.combat.draft import AttackDraft, AttackKind, CombatContext
from brikdesk.domain.combat.replay import ActionStage, _Recorder
from brikdesk.domain.combat.striker import target_of
from brikdesk.domain.distributions import Dist
from brikdesk.domain.modifiers import Stat
from brikdesk.domain.odds import expr_distribution
from brikdesk.domain.rolling import BennyUse, DieRoll, NeedDie
from brikdesk.errors import UserError


@dataclass(frozen=True)
class DamageStage:
    """The Damage step as far as the dice typed so far go (``need``: the die wanted next)."""

    damage: DamageResult | None = None
    explosion: ExplosionResult | None = None
    missed: MissedShot | None = None
    missed_damage: DamageResult | None = None
    missed_unit: int | None = None
    collision: CollisionResult | None = None
    shove: ShoveResult | None = None
    grab: GrabResult | None = None
    knockback: KnockBackResult | None = None
    weapon_knockback: int = 0
    mom_spent: bool = False
    dice: tuple[DieRoll, ...] = ()
    need: NeedDie | None = None
    error: str | None = None
    extra_faces: int = 0
    blast_units: tuple[int, ...] = ()

    @property
    def complete(self) -> bool:
        return self.need is None and self.error is None and not self.extra_faces

    @property
    def rolls_dice(self) -> bool:
        return bool(self.dice) or self.need is not None


@dataclass(frozen=True)
class TargetChance:
    """One target of a blast (or the unit a Missed Shot strikes): its Armor and the exact
    chance the Damage destroys it."""

    unit_id: int | None
    name: str
    armor: str
    kill: Fraction
    note: str = ""  # its own modifiers: Deflection, the sections inside the blast


@dataclass(frozen=True)
class DamagePreview:
    """What the Damage page shows before (and while) rolling. ``armor``, ``armor_text``,
    ``kill`` and ``distribution`` are for the attack's target, or for what a Missed Shot
    strikes; ``targets`` lists every target of a blast with its own chance."""

    lines: tuple[str, ...]
    armor_text: str
    kill: Fraction | None
    distribution: tuple[tuple[int, float, float], ...]  # (Damage, chance, chance it destroys)
    armor_line: int | None
    blast: bool = False
    missed: MissedShot | None = None
    collision_possible: bool = False
    shove: bool = False
    mom_text: str = ""
    nothing: str = ""
    armor: str = ""
    targets: tuple[TargetChance, ...] = ()
    collision_chance: Fraction | None = None


def _deflections_for(i: int, action: ActionStage) -> tuple[str, ...]:
    if i == 0 and action.parry is not None:
        return action.parry.deflections
    return ()


def _armor_text(target: Target) -> str:
    if target.armor.rolled:
        return (f"{target.name}'s Armor {target.armor} is rolled each time it takes Damage "
                f"(at least {target.armor.minimum()}), after the Damage")
    return f"Damage must be more than {target.armor} to destroy {target.name}"


def blast_units(draft: AttackDraft, hit: bool) -> tuple[int, ...]:
    """The other units the organizer marked inside the blast (3.2): never the attacker; the
    target itself too when the Explosive missed and its blast still catches it (5.3)."""
    return tuple(u for u in dict.fromkeys(draft.blast_ids)
                 if u != draft.attacker_id and (u != draft.target_id or not hit))


def _blast_chances(draft: AttackDraft, ctx: CombatContext, action: ActionStage
                   ) -> tuple[TargetChance, ...]:
    """Each target in the blast with its own chance: one shared Damage roll, each with its own
    size modifiers, Deflection and Armor (READINGS "3.2 Explosives")."""
    first = action.first
    assert first is not None
    s0 = action.strikers[0]
    benny = first.benny is BennyUse.DAMAGE
    main = target_of(draft, ctx)
    chosen: list[tuple[int | None, Target]] = [(draft.target_id, main)] if first.hit else []
    chosen += [(u, target_of(draft, ctx, unit_id=u, sections=3))
               for u in blast_units(draft, first.hit)]
    out = []
    for uid, t in chosen:
        extra = len(action.parry.deflections) if (
            action.parry is not None and first.hit and uid == draft.target_id) else 0
        s = replace(s0, attack=replace(s0.attack, target=t))
        dist = _on_hit(s, first.range, benny_die=benny, mom=False,
                       deflection=t.deflection + extra)
        notes = [m.describe() for m in target_size_modifiers(t, Stat.DAMAGE)]
        if t.deflection + extra:
            notes.append(f"Deflection {t.deflection + extra}")
        out.append(TargetChance(uid, t.name, str(t.armor), _p_beats(dist, t.armor),
                                ("; " + "; ".join(notes)) if notes else ""))
    return tuple(out)


def _missed_strike(draft: AttackDraft, ctx: CombatContext, action: ActionStage
                   ) -> tuple[Target, RangeCheck, Dist]:
    """What a tracked Missed Shot strikes, the Range measured to it, and its Damage (5.3)."""
    first = action.first
    assert first is not None and draft.missed_strikes is not None
    s0 = action.strikers[0]
    struck = target_of(draft, ctx, unit_id=draft.missed_strikes, sections=3)
    distance = draft.missed_distance if draft.missed_distance is not None else (
        first.attack.distance)
    benny_inches = sum(d.face for d in first.benny_dice) if first.benny is BennyUse.STAT \
        else 0
    rc = check_range(s0.attack.weapon, distance=distance, altitude=s0.attack.altitude,
                     benny_inches=benny_inches)
    s = replace(s0, attack=replace(s0.attack, target=struck))
    dist = _on_hit(s, rc, benny_die=first.benny is BennyUse.DAMAGE, mom=False,
                   deflection=struck.deflection)
    return struck, rc, dist


def collision_chance() -> Fraction:
    """The exact chance a Collision Knocks the target Back (5.4): the MOM's 1d6 beats the
    POP's 1d6, each with bonus dice on a 6 (READINGS "5.4 Collisions" of ``actions``).

    The two rolls are alike, so the MOM wins half of what is not a tie. They tie when the
    first dice tie below 6 (5 in 36), or both show 6 (1 in 36) and the bonus dice tie again:
    a tie is 5/36 / (1 - 1/36) = 1/7, and the KnockBack chance (1 - 1/7) / 2 = 3/7."""
    tie = Fraction(5, 36) / (1 - Fraction(1, 36))
    return (1 - tie) / 2


def damage_preview(draft: AttackDraft, ctx: CombatContext, action: ActionStage
                   ) -> DamagePreview:
    """The Damage dice of the participants that hit, their modifiers and Deflection, the Armor
    to beat, the exact chance to destroy and the Damage distribution (given the Action step);
    every target of a blast with its own chance; what a Missed Shot strikes; the chance of a
    Collision's KnockBack."""
    target = target_of(draft, ctx)
    armor_text = _armor_text(target)
    armor = str(target.armor)
    if not action.complete:
        return DamagePreview((), armor_text, None, (), None, nothing="finish the Action Roll",
                             armor=armor)
    first = action.first
    if action.avoided:
        return DamagePreview((), armor_text, None, (), None, nothing=action.avoided,
                             armor=armor)
    if draft.kind is AttackKind.SHOVE:
        return DamagePreview(("a Shove does no Damage: 2\" of KnockBack directly away and "
                              "Disrupted (5.2); an obstacle in the way turns the inches it "
                              "prevents into Smash damage",), armor_text, None, (), None,
                             shove=True, armor=armor)
    if draft.kind is AttackKind.GRAB:
        return DamagePreview(("a Grab does no Damage: both are held in the Grab (5.2)",),
                             armor_text, None, (), None, armor=armor)
    lines: list[str] = []
    parts: list[Dist] = []
    missed = None
    collision = False
    mom_text = ""
    if first is not None and not first.hit and first.attack.ranged and first.roll is not None:
        missed = missed_shot(first)
    if first is not None and not first.hit and draft.kind is AttackKind.CHARGE:
        collision = first.attack.has_mom
    explosive = bool(action.strikers) and action.strikers[0].attack.weapon.explosive
    for i, (s, r) in enumerate(zip(action.strikers, action.rolls, strict=False)):
        if not r.hit:
            continue
        rc = r.range
        mom = False
        if i == 0 and draft.kind is AttackKind.CHARGE:
            ok, why = _mom_spendable(s)
            mom = ok and draft.spend_mom
            mom_text = (f"MOM: {why}; spending it adds 1d{s.fighter.action_die} Damage (5.4)"
                        if ok else f"MOM: {why}")
        defl = _deflections_for(i, action)
        levels = s.attack.target.deflection + len(defl)
        benny = r.benny is BennyUse.DAMAGE
        expr = _damage_expr(s, benny, mom)
        after = expr.deflected(levels) if levels else expr
        mod = _damage_mod(s, rc)
        weapon = s.attack.weapon.damage
        words = f"{r.attack.label}: Damage {weapon}"
        if str(weapon) != str(expr):
            words += f" = {expr}"
        extras = []
        if benny:
            extras.append("one more die for the Benny")
        if mom:
            extras.append("the MOM's extra Action die")
        if extras:
            words += " (with " + " and ".join(extras) + ")"
        if levels:
            words += (f"; after Deflection {after}" if after.terms else
                      "; Deflection removes every die" + (f", leaving {after.flat:+d}"
                                                           if after.flat else ""))
        if mod and not explosive:
            words += f"; {mod:+d} Damage"
        lines.append(words)
        for m in rc.penalties:
            if m.applies_to is Stat.DAMAGE:
                lines.append("  " + m.describe())
        if s.attack.weapon.explosive:
            lines.append(f"  Explosive: one Damage roll for every target within "
                         f"{inches_text(s.attack.weapon.explosive_radius)} of the blast, each "
                         "with its own size modifiers, Deflection and Armor (3.2)")
        if s.attack.target.deflection:
            lines.append(f"  Deflection: {s.attack.target.name}'s worn armour, one die of each "
                         "kind (3.3)")
        for d in defl:
            lines.append(f"  Deflection: {d}, one die of each kind")
        parts.append(_on_hit(s, rc, benny_die=benny, mom=mom, deflection=levels))
    if len(parts) > 1:
        lines.append(f"Combined Attack: the {len(parts)} Damage totals are added and compared "
                     "with the Armor once (5.1)")
    targets = _blast_chances(draft, ctx, action) if explosive and first is not None and (
        first.hit or missed is not None) else ()
    if not parts:
        kill = None
        shown: tuple[tuple[int, float, float], ...] = ()
        line = None
        coll = None
        if collision:
            nothing = (f"the Charge missed: no Damage. {first.attack.attacker.name} keeps his "
                       "MOM and Collides with the target if it is directly in his path, "
                       "else runs on to the limit of his Move (5.4)")
            if draft.collide:
                coll = collision_chance()
                lines.append("Collision: MOM 1d6 against the target's POP 1d6, each with "
                             "bonus dice on a 6; any inches left Knock it Back and Disrupt it, "
                             "none lock both in Close Combat (5.4)")
        elif missed is not None:
            nothing = "the shot missed: no Damage to the target"
            if explosive:
                nothing = (f"the Explosive missed: it lands within "
                           f"{inches_text(missed.radius)} of {target.name} and blasts everything "
                           f"within {inches_text(first.attack.weapon.explosive_radius)} of "
                           "that spot (5.3, 3.2): tick what the blast catches there")
            if draft.missed_strikes is not None and not explosive:
                struck, rc, dist = _missed_strike(draft, ctx, action)
                armor_text, armor = _armor_text(struck), str(struck.armor)
                kill = _p_beats(dist, struck.armor)
                shown = _shown_totals(dist, struck.armor)
                line = struck.armor.fixed if not struck.armor.rolled else None
                lines.append(f"The Missed Shot strikes {struck.name}: "
                             f"{rc.describe()}")
                lines.extend("  " + m.describe() for m in rc.penalties
                             if m.applies_to is Stat.DAMAGE)
                lines.append("  The Action penalty is ignored for a Missed Shot (5.3)")
            elif targets:
                first_row = targets[0]
                blasted = target_of(draft, ctx, unit_id=first_row.unit_id, sections=3) \
                    if first_row.unit_id is not None else target
                armor_text, armor = _armor_text(blasted), first_row.armor
                kill = first_row.kill
        else:
            nothing = "the attack missed: no Damage"
        return DamagePreview(tuple(lines), armor_text, kill, shown, line, missed=missed,
                             collision_possible=collision, nothing=nothing,
                             blast=explosive and missed is not None, armor=armor,
                             targets=targets, collision_chance=coll)
    total = parts[0]
    for p in parts[1:]:
        total = total.plus(p)
    kill = _p_beats(total, target.armor)
    return DamagePreview(tuple(lines), armor_text, kill, _shown_totals(total, target.armor),
                         target.armor.fixed if not target.armor.rolled else None,
                         blast=explosive, mom_text=mom_text, armor=armor, targets=targets)


def _shown_totals(total: Dist, armor: Armor, keep: float = 0.999
                  ) -> tuple[tuple[int, float, float], ...]:
    """``(Damage, its chance, the chance that Damage destroys)`` for the chart: every total
    up to where ``keep`` of the chance is shown (and at least one beyond the least Armor)."""
    arm = None if armor.dice is None else expr_distribution(armor.dice)
    out = []
    seen = 0.0
    for t, p in total.float_items():
        if arm is None:
            assert armor.fixed is not None
            beats = 1.0 if t > armor.fixed else 0.0
        else:
            beats = float(1 - arm.at_least(t))
        out.append((t, p, beats))
        seen += p
        if seen >= keep and t > armor.minimum():
            break
    return tuple(out)


def resolve_damage(draft: AttackDraft, ctx: CombatContext, action: ActionStage) -> DamageStage:
    """Replay the Damage step with ``draft.damage_faces``: the Damage of every participant that
    hit against the Armor once (a Hero's Armor rolled after), an Explosion over every target in
    the blast, a Missed Shot where it lands, a Shove or Grab, a Collision for a Charge that
    missed. Stops at the first die it needs."""
    if not action.complete:
        return DamageStage(error="finish the Action Roll first")
    src = _Recorder(draft.damage_faces)
    out: dict[str, Any] = {}
    need = error = None
    target = target_of(draft, ctx)
    first = action.first
    try:
        if action.avoided:
            pass
        elif draft.kind is AttackKind.SHOVE and first is not None:
            res = shove(first.attack.attacker.name, target.name, parry=action.parry,
                        blocked_after=draft.obstacle)
            out["shove"] = res
            if res.knockback is not None:
                out["knockback"] = res.knockback
                smash = res.knockback.smash_damage(first.attack.attacker.name)
                if smash is not None:
                    out["damage"] = apply_damage(smash, target, src)
        elif draft.kind is AttackKind.GRAB and first is not None:
            out["grab"] = grab(first.attack.attacker.name, target.name, parry=action.parry)
        else:
            _resolve_hits(draft, ctx, action, target, src, out)
    except NeedDie as exc:
        need = exc
    except UserError as exc:
        error = str(exc)
    extra = 0
    if need is None and error is None:
        extra = len(draft.damage_faces) - src.typed.used
    return DamageStage(dice=tuple(src.rolled), need=need, error=error, extra_faces=extra, **out)


def _resolve_hits(draft: AttackDraft, ctx: CombatContext, action: ActionStage,
                  target: Target, src: _Recorder, out: dict[str, Any]) -> None:
    first = action.first
    assert first is not None
    explosive = action.strikers[0].attack.weapon.explosive
    if explosive and (first.hit or first.attack.ranged):
        units = blast_units(draft, first.hit)
        targets = [target] if first.hit else []
        targets += [target_of(draft, ctx, unit_id=u, sections=3) for u in units]
        if targets:
            defl = {target.name: action.parry.deflections} if (
                action.parry and first.hit) else None
            out["explosion"] = explode(first, targets, src, deflections=defl)
            out["blast_units"] = units
        if not first.hit:
            out["missed"] = missed_shot(first)
        return
    parts: list[DamageRoll] = []
    for i, (s, r) in enumerate(zip(action.strikers, action.rolls, strict=False)):
        if not r.hit or not (s.attack.weapon.damage.terms or s.attack.weapon.damage.flat):
            continue
        mom = i == 0 and draft.kind is AttackKind.CHARGE and draft.spend_mom \
            and _mom_spendable(s)[0]
        if mom:
            out["mom_spent"] = True
        parts.append(damage_roll(r, src, deflections=_deflections_for(i, action),
                                 spend_mom=mom))
    if parts:
        damage = apply_damage(parts, target, src)
        out["damage"] = damage
        out["weapon_knockback"] = AttackResult(first, damage).knockback if first.hit else 0
    if not first.hit and first.attack.ranged and first.roll is not None:
        out["missed"] = missed_shot(first)
        if draft.missed_strikes is not None:
            struck = target_of(draft, ctx, unit_id=draft.missed_strikes, sections=3)
            distance = draft.missed_distance if draft.missed_distance is not None else (
                first.attack.distance)
            out["missed_damage"] = resolve_missed_shot(first, struck, distance, src)
            out["missed_unit"] = draft.missed_strikes
    if not first.hit and draft.kind is AttackKind.CHARGE and first.attack.has_mom \
            and draft.collide:
        col = collide(first.attack.attacker.name, target.name, src,
                      blocked_after=draft.obstacle)
        out["collision"] = col
        out["mom_spent"] = True
        if col.knockback is not None:
            out["knockback"] = col.knockback
            smash = col.knockback.smash_damage(first.attack.attacker.name)
            if smash is not None:
                out["damage"] = apply_damage(smash, target, src)
