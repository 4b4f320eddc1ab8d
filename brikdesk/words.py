"""Words said the same way everywhere: counts ("1 battle", "3 battles", never "1 battles") and
how a battle ended, for the windows, the reports and the command line alike."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word``, or ``many`` (default: ``word`` + "s") when ``n`` is not 1."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def outcome_words(winner: str | None) -> str:
    """How a finished battle ended, in the same words wherever it is said (the battle bar,
    the report, the players' page): "Margo won", or "a draw" for ``None``."""
    return f"{winner} won" if winner is not None else "a draw"
