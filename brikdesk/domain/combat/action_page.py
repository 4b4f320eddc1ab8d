"""Page 3, Action Roll: every modifier with its rule, the judgements the organizer makes, the
number needed on the die, exact odds, and how an Over the Top Benny may be spent."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from brikdesk.domain.attack import (
    Attack,
    AutomaticHit,
    Maneuver,
    RangeCheck,
    SizeClass,
    Target,
    action_modifiers,
    automatic_hit,
    check_range,
    target_size_modifiers,
)
from brikdesk.domain.combat.chances import (
    _damage_expr,
    _damage_mod,
    _mom_spendable,
    combined_kill,
    needed_text,
)
from brikdesk.domain.combat.draft import AttackDraft, Choice, CombatContext, Reaction
from brikdesk.domain.combat.reaction import parry_preview
from brikdesk.domain.combat.replay import ActionStage
from brikdesk.domain.combat.striker import Striker, strikers, target_of
from brikdesk.domain.dice import DiceExpr
from brikdesk.domain.modifiers import Modifier, Stat
from brikdesk.domain.odds import BENNY_POLICY, AttackOdds, attack_odds
from brikdesk.domain.rolling import BennyUse
from brikdesk.errors import UserError


@dataclass(frozen=True)
class ModifierRow:
    """A line of the modifier list: the modifier (value 0 when a judgement gives none) and,
    for a judgement the organizer makes, its key (``size``, ``disrupted``, ``outnumbered``,
    ``engaged``)."""

    modifier: Modifier
    judgement: str | None = None


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


def size_options(target: Target) -> tuple[Choice, ...]:
    """The target size and visibility choices (5.1) with their modifiers."""
    out = []
    if not target.inanimate:
        out.append(Choice((SizeClass.MINIFIG, 3), "3 of 3 sections (0)"))
        out.append(Choice((SizeClass.MINIFIG, 2), "2 of 3 sections (-1)"))
        out.append(Choice((SizeClass.MINIFIG, 1), "1 of 3 sections (-2)"))
    out.append(Choice((SizeClass.LARGE, 3), "large: +1 per 2\""))
    out.append(Choice((SizeClass.BRICK_2X4, 3), "2x4 brick (0)"))
    out.append(Choice((SizeClass.BRICK_2X2, 3), "2x2 brick (-1)"))
    out.append(Choice((SizeClass.STUD_1X1, 3), "1x1 stud, item (-2)"))
    return tuple(out)



def _rows(draft: AttackDraft, attack: Attack, rc: RangeCheck, first: bool
          ) -> tuple[ModifierRow, ...]:
    mods = action_modifiers(attack, rc)
    rows: list[ModifierRow] = []
    size_mods = target_size_modifiers(attack.target)
    if size_mods:
        rows.extend(ModifierRow(m, "size" if first else None) for m in size_mods)
    else:
        t = attack.target
        what = ("minifig, all 3 sections visible" if t.is_minifig else f"target {t.size}")
        rule = "5.1 Minifig Visibility" if t.is_minifig else "5.1 Target Size"
        rows.append(ModifierRow(Modifier(0, Stat.ACTION, what, rule), "size" if first else None))
    used = set(size_mods)
    for m in mods:
        if m in used:
            continue
        key = None
        if m.rule == "4.1 Disrupted":
            key = "disrupted"
        elif m.reason == "outnumbered in Close Combat":
            key = "outnumbered"
        rows.append(ModifierRow(m, key if first else None))
    if first and not attack.target.inanimate:
        if attack.ranged and not attack.target.disrupted:
            rows.append(ModifierRow(Modifier(0, Stat.ACTION, f"{attack.target.name} is not "
                                             "Disrupted", "4.1 Disrupted"), "disrupted"))
        if not attack.ranged and not attack.target.disrupted:
            rows.append(ModifierRow(Modifier(0, Stat.ACTION, f"{attack.target.name} is not "
                                             "Disrupted (Disrupted: an Automatic Hit)",
                                             "4.1 Disrupted"), "disrupted"))
    if first and not attack.ranged and not attack.outnumbered:
        rows.append(ModifierRow(Modifier(0, Stat.ACTION, "not outnumbered in Close Combat",
                                         "5.1 Combined Attacks"), "outnumbered"))
    if first and not attack.ranged and attack.target.inanimate:
        rows.append(ModifierRow(Modifier(0, Stat.ACTION, "someone else is attacking the "
                                         "attacker" if attack.attacker_engaged else
                                         "nobody else is attacking the attacker",
                                         "5.1 Automatic Hits"), "engaged"))
    return tuple(rows)


def _odds(s: Striker, rc: RangeCheck, auto: AutomaticHit | None, spend_mom: bool
          ) -> AttackOdds | None:
    a = s.attack
    if a.maneuver in (Maneuver.GRAB, Maneuver.SHOVE):
        return None
    mods = action_modifiers(a, rc)
    mom = spend_mom and _mom_spendable(s)[0]
    expr = _damage_expr(s, mom=mom)
    return attack_odds(a.attacker.action_die, a.weapon.use, expr, str(a.target.armor),
                       action_mod=sum(m.value for m in mods if m.applies_to is Stat.ACTION),
                       damage_mod=_damage_mod(s, rc), deflection=a.target.deflection,
                       automatic_hit=auto is not None,
                       can_go_over_the_top=a.attacker.over_the_top)


def action_preview(draft: AttackDraft, ctx: CombatContext) -> ActionPreview:
    """Every participant's modifiers (with the judgements), the number needed and the exact
    odds; the chance the attack destroys the target (Combined Damage included)."""
    try:
        ss = strikers(draft, ctx)
    except UserError as exc:
        return ActionPreview((), None, error=str(exc))
    previews = []
    contributions = []
    for i, s in enumerate(ss):
        a = s.attack
        rc = check_range(a.weapon, distance=a.distance, in_reach=a.in_reach,
                         altitude=a.altitude)
        auto = automatic_hit(a) if rc.can_attack else None
        rows = _rows(draft, a, rc, i == 0)
        action_mod = sum(r.modifier.value for r in rows if r.modifier.applies_to is Stat.ACTION)
        need, text = needed_text(a.attacker.action_die, a.weapon.use, action_mod, auto)
        try:
            odds = _odds(s, rc, auto, draft.spend_mom) if rc.can_attack else None
        except UserError as exc:
            return ActionPreview(tuple(previews), None, error=str(exc))
        if not rc.can_attack:
            text = rc.describe()
        dmg = None if odds is None else _damage_expr(
            s, mom=draft.spend_mom and _mom_spendable(s)[0])
        previews.append(StrikerPreview(a.attacker.name, a.weapon.name, a.attacker.action_die,
                                       a.weapon.use, rows, action_mod, _damage_mod(s, rc),
                                       auto, need, text, odds, dmg, a.target.deflection))
        if odds is not None:
            contributions.append((s, odds, rc))
    kill = _kill_with_reaction(draft, ctx, contributions) if contributions else None
    radius = ""
    if ss and not draft.kind.close_combat:
        radius = "a miss by N lands within N\" of the target (5.3 Missed Shots)"
    return ActionPreview(tuple(previews), kill, missed_radius_text=radius)


def _kill_with_reaction(draft: AttackDraft, ctx: CombatContext,
                        contributions: Sequence[tuple[Striker, AttackOdds, RangeCheck]]
                        ) -> Fraction:
    """The chance to destroy, with the target's declared reaction: a Shield Parry that
    succeeds Deflects the first attacker's Damage (one more level); a Bail that takes the
    target out of the attack avoids it unless its die shows a natural 1 (4.3)."""
    armor = target_of(draft, ctx).armor
    kill = combined_kill(contributions, armor, spend_mom=draft.spend_mom)
    if draft.target_id is None:
        return kill
    target = ctx.fighter(draft.target_id)
    if draft.reaction is Reaction.BAIL and draft.bail_clears:
        return kill * Fraction(1, target.action_die)
    if draft.reaction is Reaction.PARRY and draft.kind.incoming.is_damage:
        _text, parried = parry_preview(draft, ctx)
        if parried:
            first = contributions[0]
            deflected = combined_kill([(first[0], first[1], first[2], 1), *contributions[1:]],
                                      armor, spend_mom=draft.spend_mom)
            return (1 - parried) * kill + parried * deflected
    return kill


@dataclass(frozen=True)
class BennyOption:
    use: BennyUse
    label: str
    problem: str | None = None
    key: str = ""  # the keyboard letter that picks it


def benny_options(draft: AttackDraft, ctx: CombatContext, key: str,
                  stage: ActionStage | None = None) -> tuple[BennyOption, ...]:
    """How the Over the Top Benny of ``key`` may be spent (rules facts §1), each with why not,
    and the keyboard letter that picks it. The first allowed one is the BENNY_POLICY default."""
    if key == "bail":
        return (BennyOption(BennyUse.EMBELLISH, "land on his feet: not Disrupted", key="L"),
                BennyOption(BennyUse.STAT, "+1d6 inches of dive", key="I"),
                BennyOption(BennyUse.NONE, "not spent", key="N"))
    if key == "parry":
        damage = draft.kind.incoming.is_damage
        return (BennyOption(BennyUse.ACTION, "+1d6 to the Parry roll", key="A"),
                BennyOption(BennyUse.EMBELLISH, "one more level of Deflection" if damage else
                            "an embellishment the players agree on", key="E"),
                BennyOption(BennyUse.NONE, "not spent", key="N"))
    ranged = not draft.kind.close_combat
    has_damage = True
    try:
        s = next(s for s in strikers(draft, ctx) if s.key == key)
        has_damage = bool(s.attack.weapon.damage.terms)
    except (UserError, StopIteration):
        pass
    opts = [
        BennyOption(BennyUse.ACTION, "+1d6 to the Action Roll", key="A"),
        BennyOption(BennyUse.DAMAGE, "one more Damage die", None if has_damage else
                    "this attack has no Damage dice", key="D"),
        BennyOption(BennyUse.STAT, "+1d6 inches of Range", None if ranged else
                    "Close Combat has no Range to add to (4.2)", key="R"),
        BennyOption(BennyUse.EMBELLISH, "an embellishment (e.g. a precise spot)", key="E"),
        BennyOption(BennyUse.NONE, "not spent", key="N"),
    ]
    # BENNY_POLICY: Damage when the roll already hits, else +1d6 Action.
    if stage is not None:
        roll = next((r for r, s in zip(stage.rolls, stage.strikers, strict=False)
                     if s.key == key), None)
        if roll is not None and roll.hit and has_damage:
            opts.insert(0, opts.pop(1))
    return tuple(opts)
