"""Counts in words: "1 battle", "3 battles" (never "1 battles"), for the windows, the reports
and the command line alike."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word``, or ``many`` (default: ``word`` + "s") when ``n`` is not 1."""
    return f"{n} {word if n == 1 else (many or word + 's')}"
