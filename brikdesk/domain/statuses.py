"""The stored statuses: where a battle stands, and how a unit stands in the campaign.

The values are exactly what the database keeps (``battle.status``, ``unit.status``, checked
by the tables' constraints) and what a campaign file writes. A status is a ``str`` enum: it
compares equal to its stored text, so a row read back as text and a status chosen in code meet
without conversion; ``str()`` and f-strings give the stored text.
"""

from __future__ import annotations

from enum import Enum


class _Stored(str, Enum):
    """A status whose ``str()`` is the text stored for it."""

    def __str__(self) -> str:
        return str.__str__(self)  # the text itself (the value), not "BattleStatus.PLANNED"


class BattleStatus(_Stored):
    """A battle is planned (mustered, not started), in progress, or finished (ended: the
    campaign has its outcome)."""

    PLANNED = "planned"
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"

    @property
    def text(self) -> str:
        """How the app says it: "planned", "in progress", "finished"."""
        return self.value.replace("_", " ")


class UnitStatus(_Stored):
    """A campaign unit between battles: alive, wounded or dead (what an ended battle
    leaves it; a dead unit is left out of musters and, unless asked, of roster sheets)."""

    ALIVE = "alive"
    WOUNDED = "wounded"
    DEAD = "dead"


def battle_status_text(status: str) -> str:
    """The words for a stored battle status (an unknown one is shown as it is)."""
    try:
        return BattleStatus(status).text
    except ValueError:
        return status


__all__ = ["BattleStatus", "UnitStatus", "battle_status_text"]
