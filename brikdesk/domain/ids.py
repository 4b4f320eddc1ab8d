"""The ids of stored rows, one type per table, so the type checker tells them apart.

Each is a ``NewType`` of ``int``: at run time it *is* the int the database gave the row (no
wrapping cost, stored and compared as before), but to the type checker a ``UnitId`` (a unit of
the campaign's roster) is not a ``BattleUnitId`` (that unit as mustered into one battle), and
neither is a plain ``int``. Code that reads an id from outside the typed world (a database
column, a JSON payload, a Qt item's data) names its kind once, where it reads it:
``BattleUnitId(row.id)``; from there on the id keeps its kind.
"""

from __future__ import annotations

from typing import NewType

#: A campaign (``campaign.id``).
CampaignId = NewType("CampaignId", int)
#: A player of a campaign (``player.id``); a battle names its players by these too.
PlayerId = NewType("PlayerId", int)
#: An army of a campaign (``army.id``).
ArmyId = NewType("ArmyId", int)
#: A unit of a campaign's roster (``unit.id``): what it keeps between battles.
UnitId = NewType("UnitId", int)
#: A battle (``battle.id``).
BattleId = NewType("BattleId", int)
#: A player's seat in one battle (``battle_player.id``).
BattlePlayerId = NewType("BattlePlayerId", int)
#: A unit as mustered into one battle (``battle_unit.id``): what the battle log names.
BattleUnitId = NewType("BattleUnitId", int)
#: One entry of a battle's log (``battle_event.id``).
EventId = NewType("EventId", int)

__all__ = [
    "ArmyId",
    "BattleId",
    "BattlePlayerId",
    "BattleUnitId",
    "CampaignId",
    "EventId",
    "PlayerId",
    "UnitId",
]
