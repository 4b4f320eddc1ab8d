"""``brikdesk roll EXPR [--seed N] [--action-die dN]``: roll and show every die."""

from __future__ import annotations

import argparse
import json

from brikdesk.commands.common import action_die_arg, dice_expr_arg
from brikdesk.domain.rolling import RandomDice, Role, roll_expr


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "expr",
        type=dice_expr_arg,
        metavar="EXPR",
        help="dice expression such as 2d6+1, 1dA-2 or '1d6 + 1d10 + 2'",
    )
    p.add_argument("--seed", type=int, default=None, help="seed for a repeatable roll")
    p.add_argument(
        "--action-die",
        type=action_die_arg,
        default=6,
        metavar="dN",
        help="the Action die that dA stands for (default d6)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    result = roll_expr(args.expr, RandomDice(args.seed), args.action_die)
    if args.json:
        print(
            json.dumps(
                {
                    "expr": str(result.expr),
                    "total": result.total,
                    "flat": result.flat,
                    "dice": [
                        {"sides": d.sides, "face": d.face, "role": d.role.value}
                        for d in result.dice
                    ],
                }
            )
        )
        return 0
    print(f"{result.expr}: {result.describe()}")
    earner = None  # the die whose highest face earned the next bonus die
    for d in result.dice:
        note = (
            f"  (for the {earner.face} on the d{earner.sides})"
            if d.role is Role.BONUS and earner is not None
            else ""
        )
        print(f"  d{d.sides:<3} {d.face:>3}  {d.role}{note}")
        earner = d
    return 0
