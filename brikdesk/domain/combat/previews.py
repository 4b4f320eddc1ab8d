"""What the wizard shows before (and while) the dice are rolled: the Action Roll preview
(every participant's modifiers, the number needed, exact odds, the chance the attack destroys
the target with the target's reaction) and the Damage preview (dice, modifiers, Deflection,
Armor to beat, exact kill chance and distribution, every target of a blast, what a Missed Shot
strikes, a Collision's chance)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from brikdesk.domain.attack import (
    AttackRoll,
    AutomaticHit,
    Maneuver,
    MissedShot,
    RangeCheck,
    Target,
    action_modifiers,
    automatic_hit,
    check_range,
    inches_text,
    missed_shot,
    target_size_modifiers,
)
from brikdesk.domain.combat.chances import (
    collision_chance,
    combined_kill,
    damage_expr,
    damage_mod,
    damage_on_hit,
    mom_spendable,
    needed_text,
    p_beats_armor,
    shown_totals,
)
from brikdesk.domain.combat.draft import AttackDraft, AttackKind, CombatContext, Reaction
from brikdesk.domain.combat.modifiers import ModifierRow, modifier_rows
from brikdesk.domain.combat.participants import (
    Striker,
    blast_kept,
    blast_members,
    charging_shove,
    strikers,
    target_of,
)
from brikdesk.domain.combat.prose import (
    CHARGING_SHOVE,
    COLLISION_LINE,
    GRAB_DAMAGE,
    SHOVE_DAMAGE,
)
from brikdesk.domain.combat.reaction import parry_preview
from brikdesk.domain.combat.resolution import COLLISION_HIT, ActionStage, deflections_for
from brikdesk.domain.dice import DiceExpr
from brikdesk.domain.distributions import Dist
from brikdesk.domain.ids import BattleUnitId
from brikdesk.domain.modifiers import Stat
from brikdesk.domain.odds import BENNY_POLICY, AttackOdds, attack_odds
from brikdesk.domain.rolling import BennyUse
from brikdesk.errors import UserError


@dataclass(frozen=True)
class StrikerPreview:
    name: str
    weapon: str
    action_die: int
    use: int | None
    rows: tuple[ModifierRow, ...]
    action_mod: int
    damage_mod: int
    automatic: AutomaticHit | None
    needed: int | None
    needed_text: str
    odds: AttackOdds | None
    damage: DiceExpr | None
    deflection: int


@dataclass(frozen=True)
class ActionPreview:
    strikers: tuple[StrikerPreview, ...]
    kill: Fraction | None
    benny_policy: str = BENNY_POLICY
    error: str | None = None
    missed_radius_text: str = ""

    @property
    def first(self) -> StrikerPreview | None:
        return self.strikers[0] if self.strikers else None


def striker_odds(
    s: Striker, rc: RangeCheck, auto: AutomaticHit | None, spend_mom: bool
) -> AttackOdds | None:
    a = s.attack
    if a.maneuver in (Maneuver.GRAB, Maneuver.SHOVE):
        return None
    mods = action_modifiers(a, rc)
    mom = spend_mom and mom_spendable(s)[0]
    expr = damage_expr(s, mom=mom)
    return attack_odds(
        a.attacker.action_die,
        a.weapon.use,
        expr,
        str(a.target.armor),
        action_mod=sum(m.value for m in mods if m.applies_to is Stat.ACTION),
        damage_mod=damage_mod(s, rc),
        deflection=a.target.deflection,
        automatic_hit=auto is not None,
        can_go_over_the_top=a.attacker.over_the_top,
    )


def action_preview(draft: AttackDraft, ctx: CombatContext) -> ActionPreview:
    """Every participant's modifiers (with the judgements), the number needed and the exact
    odds; the chance the attack destroys the target (Combined Damage included)."""
    try:
        ss = strikers(draft, ctx)
    except UserError as exc:
        return ActionPreview((), None, error=str(exc))
    previews: list[StrikerPreview] = []
    contributions: list[tuple[Striker, AttackOdds, RangeCheck]] = []
    for i, s in enumerate(ss):
        a = s.attack
        rc = check_range(a.weapon, distance=a.distance, in_reach=a.in_reach, altitude=a.altitude)
        auto = automatic_hit(a) if rc.can_attack else None
        if draft.kind is AttackKind.COLLISION:
            auto = COLLISION_HIT
        rows = modifier_rows(draft, a, rc, i == 0)
        action_mod = sum(r.modifier.value for r in rows if r.modifier.applies_to is Stat.ACTION)
        need, text = needed_text(a.attacker.action_die, a.weapon.use, action_mod, auto)
        try:
            odds = striker_odds(s, rc, auto, draft.spend_mom) if rc.can_attack else None
        except UserError as exc:
            return ActionPreview(tuple(previews), None, error=str(exc))
        if not rc.can_attack:
            text = rc.describe()
        dmg = None if odds is None else damage_expr(s, mom=draft.spend_mom and mom_spendable(s)[0])
        previews.append(
            StrikerPreview(
                a.attacker.name,
                a.weapon.name,
                a.attacker.action_die,
                a.weapon.use,
                rows,
                action_mod,
                damage_mod(s, rc),
                auto,
                need,
                text,
                odds,
                dmg,
                a.target.deflection,
            )
        )
        if odds is not None:
            contributions.append((s, odds, rc))
    kill = kill_with_reaction(draft, ctx, contributions) if contributions else None
    radius = ""
    if ss and not draft.kind.close_combat:
        radius = 'a miss by N lands within N" of the target (5.3 Missed Shots)'
    return ActionPreview(tuple(previews), kill, missed_radius_text=radius)


def kill_with_reaction(
    draft: AttackDraft,
    ctx: CombatContext,
    contributions: Sequence[tuple[Striker, AttackOdds, RangeCheck]],
) -> Fraction:
    """The chance to destroy, with the target's declared reaction: a Shield Parry that
    succeeds Deflects the first attacker's Damage (one more level); a Bail that takes the
    target out of the attack avoids it unless its die (the edition's: 2005 1d6 for every unit)
    shows a natural 1 (4.3)."""
    armor = target_of(draft, ctx).armor
    kill = combined_kill(contributions, armor, spend_mom=draft.spend_mom)
    if draft.target_id is None:
        return kill
    target = ctx.fighter(draft.target_id)
    if draft.reaction is Reaction.BAIL and draft.bail_clears:
        return kill * Fraction(1, ctx.rules.distance_die or target.action_die)
    if draft.reaction is Reaction.PARRY and draft.kind.incoming.is_damage:
        _text, parried = parry_preview(draft, ctx)
        if parried:
            first = contributions[0]
            deflected = combined_kill(
                [(first[0], first[1], first[2], 1), *contributions[1:]],
                armor,
                spend_mom=draft.spend_mom,
            )
            return (1 - parried) * kill + parried * deflected
    return kill


@dataclass(frozen=True)
class TargetChance:
    """One target of a blast (or the unit a Missed Shot strikes): its Armor and the exact
    chance the Damage destroys it."""

    unit_id: BattleUnitId | None
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


def armor_to_beat_text(target: Target) -> str:
    if target.armor.rolled:
        return (
            f"{target.name}'s Armor {target.armor} is rolled each time it takes Damage "
            f"(at least {target.armor.minimum()}), after the Damage"
        )
    return f"Damage must be more than {target.armor} to destroy {target.name}"


def blast_chances(
    draft: AttackDraft, ctx: CombatContext, action: ActionStage
) -> tuple[TargetChance, ...]:
    """Each target in the blast with its own chance: one shared Damage roll, each with its own
    size modifiers, Deflection and Armor (READINGS "3.2 Explosives")."""
    first = action.first
    assert first is not None
    s0 = action.strikers[0]
    benny = first.benny is BennyUse.DAMAGE
    chosen = blast_kept(draft, blast_members(draft, ctx, first.hit))
    out = []
    for uid, t in chosen:
        extra = (
            len(action.parry.deflections)
            if (action.parry is not None and first.hit and uid == draft.target_id)
            else 0
        )
        s = replace(s0, attack=replace(s0.attack, target=t))
        dist = damage_on_hit(
            s, first.range, benny_die=benny, mom=False, deflection=t.deflection + extra
        )
        notes = [m.describe() for m in target_size_modifiers(t, Stat.DAMAGE)]
        if t.deflection + extra:
            notes.append(f"Deflection {t.deflection + extra}")
        out.append(
            TargetChance(
                uid,
                t.name,
                str(t.armor),
                p_beats_armor(dist, t.armor),
                ("; " + "; ".join(notes)) if notes else "",
            )
        )
    return tuple(out)


def missed_strike(
    draft: AttackDraft, ctx: CombatContext, action: ActionStage
) -> tuple[Target, RangeCheck, Dist]:
    """What a tracked Missed Shot strikes, the Range measured to it, and its Damage (5.3)."""
    first = action.first
    assert first is not None and draft.missed_strikes is not None
    s0 = action.strikers[0]
    struck = target_of(draft, ctx, unit_id=draft.missed_strikes, sections=3)
    distance = (
        draft.missed_distance if draft.missed_distance is not None else (first.attack.distance)
    )
    benny_inches = sum(d.face for d in first.benny_dice) if first.benny is BennyUse.STAT else 0
    rc = check_range(
        s0.attack.weapon, distance=distance, altitude=s0.attack.altitude, benny_inches=benny_inches
    )
    s = replace(s0, attack=replace(s0.attack, target=struck))
    dist = damage_on_hit(
        s, rc, benny_die=first.benny is BennyUse.DAMAGE, mom=False, deflection=struck.deflection
    )
    return struck, rc, dist


@dataclass(frozen=True)
class _Hits:
    """The Damage of the participants that hit: one described line (and its notes) each, each
    one's distribution, and what the MOM does."""

    lines: tuple[str, ...]
    parts: tuple[Dist, ...]
    mom_text: str = ""


def damage_preview(draft: AttackDraft, ctx: CombatContext, action: ActionStage) -> DamagePreview:
    """The Damage dice of the participants that hit, their modifiers and Deflection, the Armor
    to beat, the exact chance to destroy and the Damage distribution (given the Action step);
    every target of a blast with its own chance; what a Missed Shot strikes; the chance of a
    Collision's KnockBack."""
    target = target_of(draft, ctx)
    early = _no_damage_roll(draft, action, target, charging=charging_shove(draft, ctx))
    if early is not None:
        return early
    first = action.first
    assert first is not None
    explosive = bool(action.strikers) and action.strikers[0].attack.weapon.explosive
    missed = (
        missed_shot(first)
        if not first.hit and first.attack.ranged and first.roll is not None
        else None
    )
    hits = _hits(draft, action, explosive)
    targets = (
        blast_chances(draft, ctx, action) if explosive and (first.hit or missed is not None) else ()
    )
    if not hits.parts:
        return _after_a_miss(draft, ctx, action, target, hits, missed, targets)
    total = hits.parts[0]
    for part in hits.parts[1:]:
        total = total.plus(part)
    kill = p_beats_armor(total, target.armor)
    if explosive and first.hit:  # the target as the blast sees it (5.1), or left out
        kill = next((t.kill for t in targets if t.unit_id == draft.target_id), Fraction(0))
    return DamagePreview(
        hits.lines,
        armor_to_beat_text(target),
        kill,
        shown_totals(total, target.armor),
        target.armor.fixed if not target.armor.rolled else None,
        blast=explosive,
        mom_text=hits.mom_text,
        armor=str(target.armor),
        targets=targets,
    )


def _no_damage_roll(
    draft: AttackDraft, action: ActionStage, target: Target, *, charging: bool = False
) -> DamagePreview | None:
    """The preview when there is no Damage roll to show: the Action step unfinished or
    avoided, a Shove or a Grab (``None``: there may be one)."""
    text, armor = armor_to_beat_text(target), str(target.armor)
    if not action.complete:
        return DamagePreview(
            (), text, None, (), None, nothing="finish the Action Roll", armor=armor
        )
    if action.avoided:
        return DamagePreview((), text, None, (), None, nothing=action.avoided, armor=armor)
    if draft.kind is AttackKind.SHOVE:
        lines = (SHOVE_DAMAGE, CHARGING_SHOVE) if charging else (SHOVE_DAMAGE,)
        return DamagePreview(lines, text, None, (), None, shove=True, armor=armor)
    if draft.kind is AttackKind.GRAB:
        return DamagePreview((GRAB_DAMAGE,), text, None, (), None, armor=armor)
    if draft.kind is AttackKind.COLLISION:
        return DamagePreview(
            (COLLISION_LINE,),
            text,
            None,
            (),
            None,
            armor=armor,
            collision_possible=True,
            collision_chance=collision_chance(),
        )
    return None


def _hits(draft: AttackDraft, action: ActionStage, explosive: bool) -> _Hits:
    """Every participant that hit: its Damage in words with its notes, its distribution."""
    lines: list[str] = []
    parts: list[Dist] = []
    mom_text = ""
    for i, (s, r) in enumerate(zip(action.strikers, action.rolls, strict=False)):
        if not r.hit:
            continue
        mom = False
        if i == 0 and draft.kind is AttackKind.CHARGE:
            ok, why = mom_spendable(s)
            mom = ok and draft.spend_mom
            mom_text = (
                f"MOM: {why}; spending it adds 1d{s.fighter.action_die} Damage (5.4)"
                if ok
                else f"MOM: {why}"
            )
        defl = deflections_for(i, action)
        levels = s.attack.target.deflection + len(defl)
        benny = r.benny is BennyUse.DAMAGE
        lines.append(_hit_words(s, r, benny=benny, mom=mom, levels=levels, explosive=explosive))
        lines.extend(_hit_notes(s, r.range, defl))
        parts.append(damage_on_hit(s, r.range, benny_die=benny, mom=mom, deflection=levels))
    if len(parts) > 1:
        lines.append(
            f"Combined Attack: the {len(parts)} Damage totals are added and compared "
            "with the Armor once (5.1)"
        )
    return _Hits(tuple(lines), tuple(parts), mom_text)


def _hit_words(
    s: Striker, r: AttackRoll, *, benny: bool, mom: bool, levels: int, explosive: bool
) -> str:
    """``"Will's Strike: Damage 1d6 = ... (with one more die for the Benny); after
    Deflection ...; -1 Damage"``."""
    expr = damage_expr(s, benny, mom)
    weapon = s.attack.weapon.damage
    words = f"{r.attack.label}: Damage {weapon}"
    if str(weapon) != str(expr):
        words += f" = {expr}"
    extras = (["one more die for the Benny"] if benny else []) + (
        ["the MOM's extra Action die"] if mom else []
    )
    if extras:
        words += " (with " + " and ".join(extras) + ")"
    if levels:
        after = expr.deflected(levels)
        words += (
            f"; after Deflection {after}"
            if after.terms
            else "; Deflection removes every die"
            + (f", leaving {after.flat:+d}" if after.flat else "")
        )
    mod = damage_mod(s, r.range)
    if mod and not explosive:
        words += f"; {mod:+d} Damage"
    return words


def _hit_notes(s: Striker, rc: RangeCheck, deflections: Sequence[str]) -> list[str]:
    """The indented notes under a hit: Damage penalties, the blast, Deflection."""
    notes = ["  " + m.describe() for m in rc.penalties if m.applies_to is Stat.DAMAGE]
    weapon, target = s.attack.weapon, s.attack.target
    if weapon.explosive:
        notes.append(
            f"  Explosive: one Damage roll for every target within "
            f"{inches_text(weapon.explosive_radius)} of the blast, each with its own "
            "size modifiers, Deflection and Armor (3.2)"
        )
    if target.deflection:
        notes.append(f"  Deflection: {target.name}'s worn armour, one die of each kind (3.3)")
    notes.extend(f"  Deflection: {d}, one die of each kind" for d in deflections)
    return notes


def _after_a_miss(
    draft: AttackDraft,
    ctx: CombatContext,
    action: ActionStage,
    target: Target,
    hits: _Hits,
    missed: MissedShot | None,
    targets: tuple[TargetChance, ...],
) -> DamagePreview:
    """The preview when nobody hit: a Charge's Collision, a Missed Shot (what it strikes, or
    the blast where an Explosive lands), or nothing."""
    first = action.first
    assert first is not None
    explosive = first.attack.weapon.explosive
    lines = list(hits.lines)
    preview = DamagePreview(
        (),
        armor_to_beat_text(target),
        None,
        (),
        None,
        missed=missed,
        blast=explosive and missed is not None,
        armor=str(target.armor),
        targets=targets,
    )
    if draft.kind is AttackKind.CHARGE and first.attack.has_mom:
        nothing = (
            f"the Charge missed: no Damage. {first.attack.attacker.name} keeps his "
            "MOM and Collides with the target if it is directly in his path, "
            "else runs on to the limit of his Move (5.4)"
        )
        if draft.collide:
            lines.append(COLLISION_LINE)
        return replace(
            preview,
            lines=tuple(lines),
            nothing=nothing,
            collision_possible=True,
            collision_chance=collision_chance() if draft.collide else None,
        )
    if missed is None:
        return replace(preview, lines=tuple(lines), nothing="the attack missed: no Damage")
    if explosive:
        nothing = (
            f"the Explosive missed: it lands within {inches_text(missed.radius)} of "
            f"{target.name} and blasts everything within "
            f"{inches_text(first.attack.weapon.explosive_radius)} of that spot "
            "(5.3, 3.2): tick what the blast catches there"
        )
        preview = replace(preview, lines=tuple(lines), nothing=nothing)
        return _first_in_blast(draft, ctx, preview, target) if targets else preview
    preview = replace(
        preview, lines=tuple(lines), nothing="the shot missed: no Damage to the target"
    )
    if draft.missed_strikes is None:
        return preview
    return _missed_shot_strikes(draft, ctx, action, preview)


def _missed_shot_strikes(
    draft: AttackDraft, ctx: CombatContext, action: ActionStage, preview: DamagePreview
) -> DamagePreview:
    """The preview of a Missed Shot that strikes the unit the organizer picked (5.3)."""
    struck, rc, dist = missed_strike(draft, ctx, action)
    lines = [*preview.lines, f"The Missed Shot strikes {struck.name}: {rc.describe()}"]
    lines.extend("  " + m.describe() for m in rc.penalties if m.applies_to is Stat.DAMAGE)
    lines.append("  The Action penalty is ignored for a Missed Shot (5.3)")
    return replace(
        preview,
        lines=tuple(lines),
        armor_text=armor_to_beat_text(struck),
        armor=str(struck.armor),
        kill=p_beats_armor(dist, struck.armor),
        distribution=shown_totals(dist, struck.armor),
        armor_line=struck.armor.fixed if not struck.armor.rolled else None,
    )


def _first_in_blast(
    draft: AttackDraft, ctx: CombatContext, preview: DamagePreview, target: Target
) -> DamagePreview:
    """A missed Explosive's preview shows the first unit its blast catches."""
    row = preview.targets[0]
    blasted = (
        target_of(draft, ctx, unit_id=row.unit_id, sections=3)
        if row.unit_id is not None
        else target
    )
    return replace(preview, armor_text=armor_to_beat_text(blasted), armor=row.armor, kill=row.kill)
