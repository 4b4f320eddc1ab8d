"""``brikdesk roll EXPR [--seed N] [--action-die dN]``: roll and show every die."""

from __future__ import annotations

import argparse
import json

from brikdesk.commands.common import action_die_arg, dice_expr_arg
from brikdesk.domain.rolling import RandomDice, Role, roll_expr


class _Joined(argparse.Action):
    """The words of the expression, joined by spaces and parsed: ``roll 1d10 Exp`` and
    ``roll 1d6 + 2`` work unquoted, as ``roll '1d10 Exp'`` does."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        words = values if isinstance(values, list) else [str(values)]
        try:
            setattr(namespace, self.dest, dice_expr_arg(" ".join(str(w) for w in words)))
        except argparse.ArgumentTypeError as exc:
            raise argparse.ArgumentError(self, str(exc)) from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "expr",
        nargs="+",
        action=_Joined,
        metavar="EXPR",
        help="dice expression such as 2d6+1, 1dA-2, 1d10 Exp or '1d6 + 1d10 + 2'",
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
