"""``brikdesk odds``: the exact odds of one attack (hit, destroy, Over the Top, the Damage).

    brikdesk odds --action d6 --use 3 --damage 1d6+1 --armor 4 [--mod M] [--damage-mod K]
                  [--deflection N] [--auto-hit] [--never-over-the-top]
                  [--edition 2005|2010|2020] [--json]

``--edition`` (2020 by default) gives the edition's chapter 4: its name for a natural 6 and
the Benny it brings (Over the Top in 2020, Overskill in 2010, none in 2005).

``--armor`` takes a number or dice (a Hero's ``2d6``); ``--damage`` may use ``dA``, the
attacker's Action die; ``--use -`` is a trivial Action. ``--json`` prints one JSON object with
the chances as floats and ``damage``, the Damage distribution on a hit without a Benny, keyed
by total. Imports stay light: no Qt, no SQLAlchemy (``json`` only with ``--json``).
"""

from __future__ import annotations

import argparse
import sys
import textwrap

from brikdesk.commands.common import action_die_arg, dice_expr_arg
from brikdesk.domain.catalog import CatalogError, armor_value
from brikdesk.domain.dice import DiceExpr
from brikdesk.domain.odds import BENNY_POLICY, MAX_NUMBER, AttackOdds, attack_odds
from brikdesk.domain.rulesets import RULE_SETS, RuleSet, rules_for
from brikdesk.errors import UserError
from brikdesk.limits import printable

#: attack_odds' UserError.field -> the option to name in the message.
_OPTIONS = {
    "action": "--action",
    "use": "--use",
    "damage": "--damage",
    "armor": "--armor",
    "mod": "--mod",
    "damage_mod": "--damage-mod",
    "deflection": "--deflection",
}

#: The readable table stops once the chance of a higher Damage falls below this.
_SHOWN_DOWN_TO = 0.0001


def _whole(text: str) -> int:
    t = text.strip()
    if not t.lstrip("+-").isdigit() or len(t) > 7:
        raise ValueError
    value = int(t)
    if abs(value) > MAX_NUMBER:
        raise ValueError
    return value


def use_arg(text: str) -> int | None:
    """A Use rating: a whole number, or ``-`` for a trivial Action (no roll)."""
    if text.strip() == "-":
        return None
    try:
        return _whole(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a Use rating; give a whole number from {-MAX_NUMBER} to "
            f"{MAX_NUMBER}, or - for a trivial Action"
        ) from None


def modifier_arg(text: str) -> int:
    try:
        return _whole(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a modifier; give a whole number from {-MAX_NUMBER} to "
            f"{MAX_NUMBER}, such as -2 or 1"
        ) from None


def deflection_arg(text: str) -> int:
    try:
        value = _whole(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a number of Deflection levels; give 0, 1, 2 ..."
        )
    return value


def armor_arg(text: str) -> int | DiceExpr:
    """Armor: a number (a minifig's 4) or dice (a Hero's 2d6), checked as the unit editor and
    the catalog check it (``catalog.armor_value``: 0 to 99, or dice without dA or Exp)."""
    try:
        return armor_value(text)
    except CatalogError as exc:
        raise argparse.ArgumentTypeError(f"'{printable(text)}': {exc.reason}") from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--action",
        type=action_die_arg,
        default=6,
        metavar="dN",
        help="the attacker's Action die: d4, d6 (default, a minifig), d8, d10 (a Hero), d12",
    )
    p.add_argument(
        "--use",
        type=use_arg,
        required=True,
        metavar="USE",
        help="the weapon's Use rating, or - for a trivial Action",
    )
    p.add_argument(
        "--damage",
        type=dice_expr_arg,
        required=True,
        metavar="DICE",
        help="the weapon's Damage, such as 1d6+1 or 2dA (dA: the Action die)",
    )
    p.add_argument(
        "--armor",
        type=armor_arg,
        required=True,
        metavar="ARMOR",
        help="the target's Armor: a number such as 4, or dice such as 2d6 (a Hero)",
    )
    p.add_argument(
        "--mod",
        type=modifier_arg,
        default=0,
        metavar="M",
        help="total modifier to the Action Roll (default 0)",
    )
    p.add_argument(
        "--damage-mod",
        type=modifier_arg,
        default=0,
        metavar="K",
        help="total modifier to the Damage (default 0)",
    )
    p.add_argument(
        "--deflection",
        type=deflection_arg,
        default=0,
        metavar="N",
        help="levels of Deflection: each removes one Damage die of each kind",
    )
    p.add_argument("--auto-hit", action="store_true", help="an Automatic Hit: no Action Roll")
    p.add_argument(
        "--never-over-the-top",
        action="store_true",
        help="the attacker never goes Over the Top (Cannon Fodder)",
    )
    p.add_argument(
        "--edition",
        choices=[r.edition for r in RULE_SETS],
        default="2020",
        help="the edition's rules for a natural 6: Over the Top (2020, the default), "
        "Overskill (2010), none (2005)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    rules = rules_for(args.edition)
    try:
        odds = attack_odds(
            args.action,
            args.use,
            args.damage,
            args.armor,
            action_mod=args.mod,
            damage_mod=args.damage_mod,
            deflection=args.deflection,
            automatic_hit=args.auto_hit,
            can_go_over_the_top=not args.never_over_the_top and rules.has_over_the_top,
        )
    except UserError as exc:
        option = _OPTIONS.get(exc.field or "", "")
        where = f"argument {option}: " if option else ""
        print(f"brikdesk odds: {where}{exc}", file=sys.stderr)
        return 2
    if args.json:
        import json

        print(json.dumps({**odds_json(odds), "edition": rules.edition}))
    else:
        print(odds_table(odds, args, rules))
    return 0


def odds_json(odds: AttackOdds) -> dict[str, object]:
    """The ``--json`` object: the chances as floats and the Damage distribution on a hit."""
    out: dict[str, object] = dict(odds.to_floats())
    out["damage"] = {str(total): p for total, p in odds.damage_floats()}
    out["error_bound"] = odds.error_bound
    out["benny_policy"] = BENNY_POLICY
    return out


def _percent(p: float) -> str:
    return f"{100 * p:7.2f}%"


def odds_table(odds: AttackOdds, args: argparse.Namespace, rules: RuleSet | None = None) -> str:
    """The readable table; a natural 6 named as ``rules``' edition names it (2020's by
    default)."""
    rules = rules if rules is not None else rules_for("2020")
    natural_six = (
        f"  {rules.over_the_top:<17}{_percent(odds.to_floats()['over_the_top'])}"
        if rules.has_over_the_top
        else f"  (no Over the Top in {rules.edition})"
    )
    use = "-" if args.use is None else str(args.use)
    roll = (
        "Automatic Hit"
        if args.auto_hit
        else "trivial Action (no roll)"
        if args.use is None
        else f"d{args.action} Action die {args.mod:+d} vs Use {use}"
    )
    damage = f"{args.damage}" + (
        f" (Damage modifier {args.damage_mod:+d})" if args.damage_mod else ""
    )
    deflect = f", Deflection {args.deflection}" if args.deflection else ""
    f = odds.to_floats()
    lines = [
        f"{roll}; Damage {damage} vs Armor {args.armor}{deflect}",
        f"  critical failure {_percent(f['critical_failure'])}",
        natural_six,
        f"  hit              {_percent(f['hit'])}",
        f"  destroy          {_percent(f['kill'])}"
        + (f"  ({100 * float(odds.kill_given_hit):.2f}% of hits)" if odds.hit else ""),
    ]
    if odds.over_the_top:
        lines.append(
            textwrap.fill(
                BENNY_POLICY, width=80, initial_indent="  Benny: ", subsequent_indent="    "
            )
        )
    lines += ["", "Damage on a hit (without a Benny):", "  total  exactly  at least"]
    dist = odds.damage_dist
    remaining = dist.denom  # weight of the totals from this row on
    for i, w in enumerate(dist.weights):
        if not w:
            continue
        at_least = remaining / dist.denom
        if at_least < _SHOWN_DOWN_TO and remaining != w:
            lines.append(f"  {dist.lo + i:>4}+          {_percent(at_least)}")
            break
        lines.append(f"  {dist.lo + i:>5} {_percent(w / dist.denom)} {_percent(at_least)}")
        remaining -= w
    return "\n".join(lines)
