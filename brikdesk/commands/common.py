"""Argument types shared by the subcommands; errors become one-line argparse messages."""

from __future__ import annotations

import argparse

from brikdesk.domain.dice import ACTION_DICE, DiceExpr, DiceSyntaxError, parse


def dice_expr_arg(text: str) -> DiceExpr:
    try:
        return parse(text)
    except DiceSyntaxError as exc:
        raise argparse.ArgumentTypeError(f"'{text}': {exc}") from None


def action_die_arg(text: str) -> int:
    """``d6``, ``6`` or ``D10``: one of the Action dice d4, d6, d8, d10, d12."""
    t = text.strip().lower().removeprefix("d")
    if not t.isdigit() or int(t) not in ACTION_DICE:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not an Action die; use one of "
            + ", ".join(f"d{s}" for s in ACTION_DICE))
    return int(t)
