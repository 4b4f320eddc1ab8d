"""Exact odds of one attack: critical failure, Over the Top, hit, destroy, and the Damage.

The rules (1.2 Numbers, 4.2 and chapter 5):

- **Action Roll** (4.2): roll the Action die, add the Action modifiers, hit when the total
  reaches the Use rating. The Action die earns no bonus d6. A natural 1 is a **critical failure**
  and misses whatever the modifiers. A natural 6 or more goes **Over the Top** and earns one
  Benny, whether or not it hits. A d4 never goes Over the Top; a natural 4 on it adds a bonus d4,
  which adds another whenever it shows 4. Use ``-`` (``use=None``) and automatic hits need no
  roll: they hit, with no critical failure and no Over the Top.
- **Damage** (5): on a hit, roll the weapon's Damage; every die showing its highest face adds a
  bonus d6, which chains on 6. ``dA`` is the attacker's Action die. The total is dice + flat part
  + Damage modifier, and counts as 0 below 0. The target is destroyed when Damage exceeds its
  Armor, a number or dice (a Hero's 2d6, with bonus dice on 6s, rolled each time).
- **Deflection** (3.3, 5.2): each level removes one Damage die of each kind.
- **The Benny** of an Over the Top attack is spent as ``BENNY_POLICY`` says.

How exact: every answer is a ``Fraction`` computed with integer weights; no term is dropped.
Bonus chains are cut and sums capped (``brikdesk.domain.distributions``) beyond the Use and
Armor compared with, the cut-off chance lumped at the cut rather than dropped. So critical
failure, Over the Top and hit are exact, and so is kill against a fixed Armor. Against Armor
dice, kill is within 1e-12 (the chains of the dice are endless), and the Damage distribution
is within 1e-12 for each total, its last entry holding "that total or more". ``error_bound``
gives the bound for each answer (the sum of the lumped chances).
The engine is hand-written, not ``icepool``: the distributions module says why.

``attack_odds`` is cached (``functools.lru_cache`` on its hashable, frozen arguments).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import accumulate
from operator import mul

from brikdesk.domain.dice import ACTION_DICE, DiceExpr, DiceSyntaxError, parse
from brikdesk.domain.distributions import (
    EPSILON,
    Dist,
    chain_depth,
    clear_caches,
    depth_for,
    dice_sum,
    die_distribution,
    fine_depth,
    lumped_mass,
    sum_distribution,
    tail_cap,
)
from brikdesk.errors import UserError
from brikdesk.limits import MAX_DICE as MAX_EXPR_DICE

__all__ = [
    "BENNY_POLICY",
    "READINGS",
    "AttackOdds",
    "attack_odds",
    "clear_odds_cache",
    "die_distribution",
    "expr_distribution",
    "percent",
]

#: How the odds spend an Over the Top Benny (the UI shows this sentence next to the odds).
BENNY_POLICY = (
    "If the natural roll with modifiers already hits, the Benny adds one more of the weapon's "
    "largest Damage die (+1d6 if it has none); otherwise it is spent as +1d6 on the Action Roll "
    "(that d6 with its own bonus chain)."
)

#: Readings of vague rules that the odds rely on, with their sections, for the UI to show.
READINGS: dict[str, str] = {
    "benny": "4.2 Over the Top: " + BENNY_POLICY,
    "benny_and_deflection": (
        "4.2 Over the Top, 5.2 Parry: a Benny's extra Damage die is part of the incoming Damage "
        "roll, so Deflection removes one die of each kind after the Benny's die is added (2d6 "
        "with a Benny against one level of Deflection rolls 2d6)."
    ),
    "benny_largest_die": (
        "4.2 Over the Top: 'one more of the attack's existing Damage dice' is read as one more "
        "of its largest die (a 1dA+1d6 Hero weapon gets +1d10), +1d6 if it has no dice."
    ),
    "critical_failure": (
        "4.2 Action Roll: a natural 1 on the Action die misses whatever the modifiers "
        "(2005/2010 rule, confirmed by the High Noon example)."
    ),
    "d4_bonus": (
        "4.2 Over the Top: a d4 Action die never goes Over the Top; a natural 4 adds a bonus d4, "
        "which adds another d4 whenever it shows 4."
    ),
    "armor_dice": (
        "5 Damage, 6 Heroes: Armor given as dice (a Hero's 2d6) is rolled each time the target "
        "takes Damage, with bonus dice on its highest faces; Damage must exceed that roll."
    ),
    "floor": "1.2 Numbers: a Damage total below 0 counts as 0.",
    "automatic_hit": (
        "4.2, 5.1: a trivial Action (Use '-') or an Automatic Hit rolls no Action die, so it can "
        "neither fail critically nor go Over the Top."
    ),
}

#: Odds are computed for at most this many dice of Damage (Benny included) and Armor together:
#: any Damage and any Armor the dice parser accepts (``brikdesk.limits``), plus the Benny's die.
MAX_DICE = 2 * MAX_EXPR_DICE + 1
#: Use, Armor and modifiers beyond this either way are refused.
MAX_NUMBER = 1000


@dataclass(frozen=True)
class AttackOdds:
    """The exact odds of one attack. Probabilities are ``Fraction``s.

    ``damage`` is the Damage distribution on a hit without a Benny, after the Damage modifier
    and the floor at 0: ``(total, probability)`` pairs in increasing order. ``kill`` includes
    the Benny's effect (``BENNY_POLICY``). ``action_totals`` is the distribution of the Action
    Roll total (natural face, a d4's bonus dice and the Action modifier; no Benny), empty when
    no roll is made. ``benny_damage`` is the chance that the attack goes Over the Top with a
    roll that already hits (the Benny adds a Damage die); ``benny_rescue`` the chance that it
    goes Over the Top, misses, and the Benny's +1d6 makes it hit. ``error_bound`` bounds the
    absolute error of any probability here (0 when all are exact; see the module docstring).
    """

    critical_failure: Fraction
    over_the_top: Fraction
    hit: Fraction
    kill: Fraction
    benny_damage: Fraction
    benny_rescue: Fraction
    error_bound: float
    damage_dist: Dist = field(repr=False)
    action_dist: Dist | None = field(repr=False, default=None)

    @functools.cached_property
    def damage(self) -> tuple[tuple[int, Fraction], ...]:
        return self.damage_dist.items()

    @functools.cached_property
    def action_totals(self) -> tuple[tuple[int, Fraction], ...]:
        return () if self.action_dist is None else self.action_dist.items()

    def damage_exactly(self, total: int) -> Fraction:
        """P(Damage = total) on a hit, without a Benny."""
        return self.damage_dist.probability(total)

    def damage_at_least(self, total: int) -> Fraction:
        """P(Damage >= total) on a hit, without a Benny."""
        return self.damage_dist.at_least(total)

    @property
    def kill_given_hit(self) -> Fraction:
        """P(destroyed | hit), the Benny's effect included; 0 if the attack cannot hit."""
        return self.kill / self.hit if self.hit else Fraction(0)

    @property
    def miss(self) -> Fraction:
        return 1 - self.hit

    def to_floats(self) -> dict[str, float]:
        """The four chances as floats, for display."""
        return {
            "critical_failure": float(self.critical_failure),
            "over_the_top": float(self.over_the_top),
            "hit": float(self.hit),
            "kill": float(self.kill),
        }

    def damage_floats(self) -> tuple[tuple[int, float], ...]:
        """``damage`` as floats, for a chart."""
        return self.damage_dist.float_items()


def expr_distribution(expr: DiceExpr | str, action_die: int | None = None) -> Dist:
    """The distribution of a dice expression's total: its dice with their bonus chains plus its
    flat part, not floored, up to the total whose chance falls below 1e-12 (the last entry
    holds "that total or more"). ``dA`` needs ``action_die``."""
    e = _resolve(_parse_field(expr, "dice"), action_die, "dice")
    return sum_distribution(_dice_of(e), e.flat)


def clear_odds_cache() -> None:
    """Forget every cached answer and distribution (for cold-start measurements)."""
    attack_odds.cache_clear()
    clear_caches()


@functools.lru_cache(maxsize=2048)
def attack_odds(
    action_die: int,
    use: int | None,
    damage: DiceExpr | str,
    armor: int | DiceExpr | str,
    *,
    action_mod: int = 0,
    damage_mod: int = 0,
    deflection: int = 0,
    automatic_hit: bool = False,
    can_go_over_the_top: bool = True,
) -> AttackOdds:
    """The exact odds of an attack (see the module docstring for the rules).

    ``action_die`` is the attacker's Action die (4, 6, 8, 10 or 12); ``use`` the weapon's Use
    (``None`` for a trivial Action); ``damage`` its Damage (may use ``dA``); ``armor`` the
    target's Armor, a number or dice such as ``"2d6"``; ``action_mod`` and ``damage_mod`` the
    final modifiers (the caller decides which apply, e.g. none to Explosive Damage from Out of
    Range); ``deflection`` the target's levels of Deflection; ``can_go_over_the_top=False`` for
    units that never do (Cannon Fodder). Raises ``UserError`` (with ``field``) on bad input.
    """
    _check_inputs(action_die, use, action_mod, damage_mod, deflection)
    weapon = _resolve(_parse_field(damage, "damage"), action_die, "damage")
    armor_value = _armor(armor)

    rolls = not automatic_hit and use is not None
    over_top = rolls and can_go_over_the_top and action_die >= 6
    benny_sides = weapon.largest_die() or 6
    dmg_dice = _dice_of(weapon.deflected(deflection))
    benny_dice = _dice_of(weapon.plus_dice(1, benny_sides).resolve(None).deflected(deflection))
    armor_dice = () if isinstance(armor_value, int) else _dice_of(armor_value)
    if len(benny_dice) + len(armor_dice) > MAX_DICE:
        raise UserError(
            f"odds are computed for at most {MAX_DICE} dice of Damage and Armor together",
            field="damage",
        )

    # Each sum is computed as min(sum, cap), every die's bonus chain cut at `depth` (the
    # distributions module): both beyond the totals compared with, so those answers are exact.
    flat = weapon.flat + damage_mod
    above = armor_value - flat if isinstance(armor_value, int) else 0
    chained = (benny_dice if over_top else dmg_dice) + armor_dice
    depth = chain_depth(chained, above, epsilon=EPSILON / 4)
    cap = max(
        tail_cap(benny_dice if over_top else dmg_dice, EPSILON / 4), above + 1, len(benny_dice)
    )
    error = float(sum(lumped_mass(s, depth) for s in chained))
    if dmg_dice:
        error += EPSILON / 4  # the last, lumped Damage total holds "or more"

    on_hit = dice_sum(dmg_dice, depth, cap).shifted(flat).floored(0)
    armor_dist: int | Dist
    if isinstance(armor_value, int):
        armor_dist = armor_value
    else:
        armor_cap = tail_cap(armor_dice, EPSILON / 4)
        armor_dist = dice_sum(armor_dice, depth, armor_cap).shifted(armor_value.flat)
        error += EPSILON / 4  # P(the Armor roll reaches its cap)
    kill_plain = _p_exceeds(on_hit, armor_dist)

    zero = Fraction(0)
    if not rolls:
        return AttackOdds(zero, zero, Fraction(1), kill_plain, zero, zero, error, on_hit)
    assert use is not None
    need = use - action_mod  # the natural total (with a d4's bonus dice) that hits

    if action_die == 4:
        # The bonus d4 chain is followed until the chart's last total is below EPSILON and
        # beyond `need`, so the hit chance is exact.
        depth = max(depth_for(4, need, bonus_sides=4), fine_depth(4, bonus_sides=4))
        totals = die_distribution(4, depth, bonus_sides=4)
        # Only a natural 1 totals 1; every other total hits when it reaches `need`.
        hit = totals.at_least(max(need, 2))
        error += float(lumped_mass(4, depth, bonus_sides=4))  # action_totals' last entry
        return AttackOdds(
            Fraction(1, 4),
            zero,
            hit,
            hit * kill_plain,
            zero,
            zero,
            error,
            on_hit,
            totals.shifted(action_mod),
        )

    sides = action_die
    plain = benny_damage_count = 0
    rescue_weights = 0
    # The Benny's d6 with its chain, cut beyond the largest total the Action Roll may need.
    benny_d6 = die_distribution(6, depth_for(6, need - 6))
    for natural in range(2, sides + 1):
        hits = natural >= need
        if over_top and natural >= 6:
            if hits:
                benny_damage_count += 1
            else:  # the Benny is spent as +1d6 on the Action Roll
                rescue_weights += sum(benny_d6.weights[max(need - natural - 1, 0) :])
        elif hits:
            plain += 1
    rescue = Fraction(rescue_weights, sides * benny_d6.denom)
    benny_damage = Fraction(benny_damage_count, sides)
    hit = Fraction(plain, sides) + benny_damage + rescue
    kill = (Fraction(plain, sides) + rescue) * kill_plain
    if benny_damage_count:  # the Benny adds one more of the largest Damage die
        if benny_dice == tuple(sorted(dmg_dice + (benny_sides,))):  # reuse the Damage sum
            raw = dice_sum(dmg_dice, depth, cap).plus(dice_sum((benny_sides,), depth, cap), cap)
        else:  # Deflection took the Benny's die away too
            raw = dice_sum(benny_dice, depth, cap)
        kill += benny_damage * _p_exceeds(raw.shifted(flat).floored(0), armor_dist)
    ott = Fraction(sides - 5, sides) if over_top else zero
    action = Dist(1 + action_mod, (1,) * sides, sides)
    return AttackOdds(
        Fraction(1, sides), ott, hit, kill, benny_damage, rescue, error, on_hit, action
    )


def _p_exceeds(damage: Dist, armor: int | Dist) -> Fraction:
    """P(Damage > Armor) for independent Damage and Armor."""
    if isinstance(armor, int):
        return damage.at_least(armor + 1)
    # suffix[i]: weight of the Damage totals from index i on; Armor total a needs index
    # a + 1 - damage.lo, which is `first + j` for the j-th Armor weight.
    suffix = list(accumulate(reversed(damage.weights)))[::-1]
    n = len(suffix)
    first = armor.lo + 1 - damage.lo
    wa = armor.weights
    j0 = min(max(-first, 0), len(wa))  # Armor totals every Damage total beats
    j1 = min(max(n - first, 0), len(wa))  # Armor totals from j1 on no Damage total beats
    num = sum(wa[:j0]) * damage.denom
    num += sum(map(mul, wa[j0:j1], suffix[first + j0 : first + j1]))
    return Fraction(num, armor.denom * damage.denom)


def _check_inputs(
    action_die: int, use: int | None, action_mod: int, damage_mod: int, deflection: int
) -> None:
    if action_die not in ACTION_DICE:
        raise UserError(
            f"the Action die must be one of {', '.join(f'd{s}' for s in ACTION_DICE)}"
            f", not {action_die!r}",
            field="action",
        )
    for name, value in (("use", use), ("mod", action_mod), ("damage_mod", damage_mod)):
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_NUMBER
        ):
            raise UserError(
                f"{name.replace('_', ' ')} must be a whole number from "
                f"{-MAX_NUMBER} to {MAX_NUMBER}, not {value!r}",
                field=name,
            )
    if (
        isinstance(deflection, bool)
        or not isinstance(deflection, int)
        or not (0 <= deflection <= MAX_NUMBER)
    ):
        raise UserError(
            f"deflection must be a whole number of levels, 0 or more, not {deflection!r}",
            field="deflection",
        )


def _parse_field(value: DiceExpr | str, name: str) -> DiceExpr:
    if isinstance(value, DiceExpr):
        return value
    if not isinstance(value, str):
        raise UserError(f"{name} must be dice such as 1d6+1, not {value!r}", field=name)
    try:
        return parse(value)
    except DiceSyntaxError as exc:
        raise UserError(f"{name} '{value}': {exc}", field=name) from None


def _resolve(expr: DiceExpr, action_die: int | None, name: str) -> DiceExpr:
    """``dA`` replaced by the Action die and terms of one die merged."""
    try:
        return expr.resolve(action_die)
    except UserError as exc:
        raise UserError(f"{name}: {exc}", field=name) from None


def _armor(armor: int | DiceExpr | str) -> int | DiceExpr:
    if isinstance(armor, bool):
        raise UserError("armor must be a number or dice such as 2d6", field="armor")
    if isinstance(armor, int):
        value: int | DiceExpr = armor
    else:
        if isinstance(armor, str) and armor.strip().lstrip("+-").isdigit():
            value = int(armor.strip())
        else:
            expr = _parse_field(armor, "armor")
            if expr.uses_action_die:
                raise UserError("armor cannot use dA: give the dice, such as 2d6", field="armor")
            value = expr.resolve(None) if expr.terms else expr.flat
    if isinstance(value, int) and abs(value) > MAX_NUMBER:
        raise UserError(
            f"armor must be from {-MAX_NUMBER} to {MAX_NUMBER}, not {value}", field="armor"
        )
    return value


def _dice_of(expr: DiceExpr) -> tuple[int, ...]:
    """The sides of every die of a resolved expression, sorted."""
    return tuple(sorted(s for t in expr.terms if t.sides is not None for s in [t.sides] * t.count))


def percent(p: Fraction | float | None) -> str:
    """``"41.7%"``; ``"<0.1%"`` for a tiny chance that is not zero; ``"-"`` for none."""
    if p is None:
        return "-"
    x = float(p)
    if x in (0, 1):
        return f"{x:.0%}"
    if x < 0.001:
        return "<0.1%"
    if x > 0.999:
        return ">99.9%"
    return f"{x * 100:.1f}%"
