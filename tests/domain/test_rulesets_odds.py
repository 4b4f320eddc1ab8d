"""The odds engine agrees with exact enumeration of the rolling code in every edition: weapons
from each edition's catalog, the Benny only where the edition's chapter 4 gives one (4.2)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from brikdesk.domain.catalog import load_default_catalog
from brikdesk.domain.dice import parse
from brikdesk.domain.odds import attack_odds
from brikdesk.domain.rolling import NeedDie, TypedDice, roll_action, roll_benny, roll_expr
from brikdesk.domain.rulesets import RULE_SETS, RuleSet

#: (rule set, Use, Damage) of every weapon with a Use and a short Damage, per edition.
WEAPONS = tuple(
    (rules, item.use, item.damage)
    for rules in RULE_SETS
    for item in load_default_catalog(rules.edition).items
    if item.use is not None and item.damage and "Exp" not in item.damage and len(item.damage) <= 6
)


def enumerate_rolls(
    play: Callable[[TypedDice], tuple[bool, bool]], max_dice: int
) -> tuple[dict[tuple[bool, bool], F], F]:
    outcomes: dict[tuple[bool, bool], F] = defaultdict(F)
    unfinished = F(0)
    stack: list[tuple[tuple[int, ...], F]] = [((), F(1))]
    while stack:
        faces, p = stack.pop()
        try:
            outcomes[play(TypedDice(faces))] += p
        except NeedDie as need:
            if len(faces) >= max_dice:
                unfinished += p
                continue
            for face in range(1, need.sides + 1):
                stack.append(((*faces, face), p / need.sides))
    return outcomes, unfinished


def play_attack(rules: RuleSet, action: int, use: int, damage: str, armor: int):
    weapon = parse(damage).resolve(action)

    def play(dice: TypedDice) -> tuple[bool, bool]:
        roll = roll_action(action, use, dice)
        hits = not roll.critical_failure and roll.total >= use
        expr = weapon
        benny = roll.over_the_top and rules.has_over_the_top
        if benny and hits:
            expr = weapon.plus_dice(1, weapon.largest_die() or 6)
        elif benny:
            hits = roll.total + sum(d.face for d in roll_benny(dice)) >= use
        if not hits:
            return False, False
        return True, max(roll_expr(expr, dice, action).total, 0) > armor

    return play


def test_every_edition_has_weapons_to_draw_from():
    assert {rules.edition for rules, _u, _d in WEAPONS} == {r.edition for r in RULE_SETS}


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(WEAPONS), st.sampled_from([4, 6]), st.integers(0, 7))
def test_odds_match_enumeration_in_every_edition(weapon, action, armor):
    rules, use, damage = weapon
    outcomes, unfinished = enumerate_rolls(play_attack(rules, action, use, damage, armor), 5)
    odds = attack_odds(action, use, damage, armor, can_go_over_the_top=rules.has_over_the_top)
    hit = sum(p for (h, _), p in outcomes.items() if h)
    kill = sum(p for (_, k), p in outcomes.items() if k)
    slack = unfinished + F(odds.error_bound)
    assert hit <= odds.hit <= hit + slack
    assert kill <= odds.kill + F(odds.error_bound)
    assert odds.kill <= kill + slack
