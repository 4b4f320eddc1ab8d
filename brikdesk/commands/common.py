"""Argument types shared by the subcommands; errors become one-line argparse messages."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import TextIO

from brikdesk.domain.dice import ACTION_DICE, DiceExpr, DiceSyntaxError, parse
from brikdesk.limits import printable


def dice_expr_arg(text: str) -> DiceExpr:
    try:
        return parse(text)
    except DiceSyntaxError as exc:
        raise argparse.ArgumentTypeError(f"'{printable(text)}': {exc}") from None


def action_die_arg(text: str) -> int:
    """``d6``, ``6`` or ``D10``: one of the Action dice d4, d6, d8, d10, d12."""
    t = text.strip().lower().removeprefix("d")
    if not t.isdigit() or int(t) not in ACTION_DICE:
        raise argparse.ArgumentTypeError(
            f"'{printable(text)}' is not an Action die; use one of "
            + ", ".join(f"d{s}" for s in ACTION_DICE)
        )
    return int(t)


class TerminalProgress:
    """A ``progress(stage, done, total)`` callback for long commands: on a terminal, once the
    work has taken more than a second, one self-updating line on standard error
    ("Importing: Writing 42%"); nothing otherwise (pipes and files get no progress)."""

    def __init__(
        self,
        what: str,
        stream: TextIO | None = None,
        *,
        after: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what = what
        self.stream = stream if stream is not None else sys.stderr
        self.shown = False
        self._clock = clock
        self._start = clock()
        self._after = after
        self._last = ""
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self._tty or self._clock() - self._start < self._after:
            return
        percent = 100 * done // total if total > 0 else 0
        line = f"{self.what}: {stage} {percent}%"
        if line != self._last:
            self.stream.write("\r" + line.ljust(len(self._last)))
            self.stream.flush()
            self._last = line
            self.shown = True

    def finish(self) -> None:
        """Clear the progress line (before the result is printed)."""
        if self.shown:
            self.stream.write("\r" + " " * len(self._last) + "\r")
            self.stream.flush()
