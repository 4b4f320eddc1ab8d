"""Exact chances the pages show: each participant's Damage on a hit, a Combined Attack's
added Damage against the Armor once."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from brikdesk.domain.attack import (
    Armor,
    AutomaticHit,
    Maneuver,
    RangeCheck,
    charging_weapon,
    target_size_modifiers,
)
from brikdesk.domain.combat.participants import Striker
from brikdesk.domain.dice import DiceExpr
from brikdesk.domain.distributions import Dist
from brikdesk.domain.modifiers import Stat
from brikdesk.domain.odds import AttackOdds, attack_odds, expr_distribution


def damage_expr(s: Striker, benny_die: bool = False, mom: bool = False) -> DiceExpr:
    """The Damage dice of a participant: its weapon's, plus a Benny's die and the MOM's die."""
    a = s.attack
    expr = a.weapon.damage
    die = a.attacker.action_die
    if expr.uses_action_die:
        expr = expr.resolve(die)
    if benny_die:
        expr = expr.plus_dice(1, expr.largest_die() or 6)
    if mom:
        expr = expr.plus_dice(1, die)
    return expr.resolve(None) if expr.terms else expr


def damage_mod(s: Striker, rc: RangeCheck) -> int:
    a = s.attack
    mods = [m for m in rc.penalties if m.applies_to is Stat.DAMAGE]
    if a.weapon.explosive:
        mods.extend(target_size_modifiers(a.target, Stat.DAMAGE))
    return sum(m.value for m in mods)


def mom_spendable(s: Striker) -> tuple[bool, str]:
    a = s.attack
    if a.maneuver is not Maneuver.CHARGE:
        return False, "not a Charge"
    if not a.has_mom:
        return False, f'{a.attacker.name} has no MOM: it takes 4" in a straight line (5.4)'
    return charging_weapon(a.weapon, both_hands=a.both_hands, from_above=a.from_above)


def _mix(parts: Sequence[tuple[Fraction, Dist]]) -> Dist:
    """The mixture of distributions: ``p`` of each (the ``p`` sum to 1)."""
    parts = [(p, d) for p, d in parts if p]
    lo = min(d.lo for _p, d in parts)
    hi = max(d.hi for _p, d in parts)
    denom = math.lcm(*(p.denominator * d.denom for p, d in parts))
    weights = [0] * (hi - lo + 1)
    for p, d in parts:
        scale = p.numerator * (denom // (p.denominator * d.denom))
        off = d.lo - lo
        for i, w in enumerate(d.weights):
            if w:
                weights[off + i] += w * scale
    return Dist(lo, tuple(weights), denom)


_ZERO = Dist(0, (1,), 1)


def p_beats_armor(total: Dist, armor: Armor) -> Fraction:
    """P(Damage > Armor), Armor a number or dice rolled independently."""
    if armor.dice is None:
        assert armor.fixed is not None
        return total.at_least(armor.fixed + 1)
    arm = expr_distribution(armor.dice)
    num = 0
    for i, w in enumerate(arm.weights):
        if w:
            p = total.at_least(arm.lo + i + 1)
            num += (
                w * p.numerator * (arm.denom * total.denom // (arm.denom * p.denominator))
                if p
                else 0
            )
    return Fraction(num, arm.denom * total.denom)


def damage_on_hit(
    s: Striker, rc: RangeCheck, *, benny_die: bool, mom: bool, deflection: int
) -> Dist:
    """The Damage distribution of one participant's hit (floored at 0)."""
    a = s.attack
    odds = attack_odds(
        a.attacker.action_die,
        None,
        damage_expr(s, benny_die, mom),
        str(a.target.armor),
        damage_mod=damage_mod(s, rc),
        deflection=deflection,
        automatic_hit=True,
    )
    return odds.damage_dist


#: A participant's share of a Combined Attack: its striker, odds and Range check, and the
#: extra levels of Deflection on its Damage (a Shield Parry), if any.
Contribution = tuple[Striker, AttackOdds, RangeCheck] | tuple[Striker, AttackOdds, RangeCheck, int]


def combined_kill(
    contributions: Sequence[Contribution], armor: Armor, *, spend_mom: bool = True
) -> Fraction:
    """P(the added Damage of every participant that hits beats the Armor once) (5.1 Combined
    Attacks). ``contributions`` are ``(striker, its AttackOdds, its RangeCheck)``, with an
    optional fourth item: extra levels of Deflection on its Damage (a Shield Parry). Each
    participant hits or not independently, with its Benny spent as ``BENNY_POLICY`` says; with
    one participant and no extra Deflection this is exactly ``AttackOdds.kill``."""
    total = _ZERO
    for s, odds, rc, *more in contributions:
        extra = more[0] if more else 0
        mom = spend_mom and mom_spendable(s)[0]
        defl = s.attack.target.deflection + extra
        plain = odds.hit - odds.benny_damage
        on_hit = (
            odds.damage_dist
            if not extra
            else damage_on_hit(s, rc, benny_die=False, mom=mom, deflection=defl)
        )
        parts: list[tuple[Fraction, Dist]] = [(1 - odds.hit, _ZERO), (plain, on_hit)]
        if odds.benny_damage:
            parts.append(
                (odds.benny_damage, damage_on_hit(s, rc, benny_die=True, mom=mom, deflection=defl))
            )
        total = total.plus(_mix(parts))
    return p_beats_armor(total, armor)


def needed_text(
    action_die: int, use: int | None, action_mod: int, automatic: AutomaticHit | None
) -> tuple[int | None, str]:
    """The natural face needed on the Action die, in words: ``(6, "6 or more on the d10")``."""
    if automatic is not None:
        return None, "no roll: " + automatic.describe()
    if use is None:
        return None, "no roll: a trivial Action (Use -)"
    need = use - action_mod
    die = f"d{action_die}"
    if need <= 2:
        return 2, f"2 or more on the {die}: only a natural 1 fails"
    if need > action_die:
        if action_die == 4:
            return need, f"{need}: only the d4's bonus dice on a 4 can reach it"
        return need, (f"{need}: more than a {die} shows; only an Over the Top Benny can make it")
    return need, f"{need} or more on the {die}"


def collision_chance() -> Fraction:
    """The exact chance a Collision Knocks the target Back (5.4): the MOM's 1d6 beats the
    POP's 1d6, each with bonus dice on a 6 (READINGS "5.4 Collisions" of ``actions``).

    The two rolls are alike, so the MOM wins half of what is not a tie. They tie when the
    first dice tie below 6 (5 in 36), or both show 6 (1 in 36) and the bonus dice tie again:
    a tie is 5/36 / (1 - 1/36) = 1/7, and the KnockBack chance (1 - 1/7) / 2 = 3/7."""
    tie = Fraction(5, 36) / (1 - Fraction(1, 36))
    return (1 - tie) / 2


def shown_totals(
    total: Dist, armor: Armor, keep: float = 0.999
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
