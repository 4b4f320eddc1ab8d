"""Modifiers: every number the rules add or subtract, with its reason and rule section.

"Explain every number" (docs/conventions.md): rule functions return breakdowns made of these,
and the combat wizard and the printed sheets show exactly them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum


class Stat(str, Enum):
    """What a modifier changes."""

    ACTION = "Action Roll"
    RANGE = "Range"
    DAMAGE = "Damage"
    ARMOR = "Armor"
    MOVE = "Move"
    KNOCKBACK = "KnockBack"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Modifier:
    """One modifier: ``value`` added to ``applies_to``, because of ``reason`` under ``rule``."""

    value: int
    applies_to: Stat
    reason: str
    rule: str

    def describe(self) -> str:
        """``"-2 Action Roll: target the size of a 1x1 stud (5.1 Target Size)"``."""
        unit = '"' if self.applies_to in (Stat.RANGE, Stat.MOVE, Stat.KNOCKBACK) else ""
        return f"{self.value:+d}{unit} {self.applies_to}: {self.reason} ({self.rule})"


def total(modifiers: Iterable[Modifier], stat: Stat) -> int:
    """Sum of the modifiers that apply to ``stat``."""
    return sum(m.value for m in modifiers if m.applies_to is stat)


def only(modifiers: Iterable[Modifier], stat: Stat) -> tuple[Modifier, ...]:
    """The modifiers that apply to ``stat``, in order."""
    return tuple(m for m in modifiers if m.applies_to is stat)
