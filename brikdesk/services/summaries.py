"""Frozen summaries the services hand out (never ORM rows). Each row type has an ``id``.

Summaries of rows a user edits carry the row's ``version`` as read: a window passes it back
with an edit or a delete (``version=``), and the service refuses the action with a
``ConflictError`` if someone else changed the row since (``services/versions.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from brikdesk.domain.ids import (
    ArmyId,
    BattleId,
    BattlePlayerId,
    BattleUnitId,
    CampaignId,
    EventId,
    PlayerId,
    UnitId,
)
from brikdesk.domain.modifiers import Modifier
from brikdesk.domain.rolling import DieRoll
from brikdesk.domain.statuses import BattleStatus, UnitStatus, battle_status_text
from brikdesk.words import plural

# -- campaign ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CampaignSummary:
    id: CampaignId
    name: str
    edition: str
    cost_system: str
    default_budget: int
    notes: str
    created_at: datetime
    updated_at: datetime
    players: int = 0
    armies: int = 0
    units: int = 0
    battles: int = 0
    version: int = 0

    @property
    def counts(self) -> str:
        """ "2 players, 1 army, 9 units, 1 battle": what the campaign holds, in words."""
        return ", ".join(
            (
                plural(self.players, "player"),
                plural(self.armies, "army", "armies"),
                plural(self.units, "unit"),
                plural(self.battles, "battle"),
            )
        )


@dataclass(frozen=True)
class CampaignPatch:
    """Fields to change on a campaign; ``None`` leaves a field as it is."""

    name: str | None = None
    edition: str | None = None
    cost_system: str | None = None
    default_budget: int | None = None
    notes: str | None = None


@dataclass(frozen=True)
class PlayerSummary:
    id: PlayerId
    campaign_id: CampaignId
    name: str
    colour: str
    faction: str
    armies: int = 0
    version: int = 0


@dataclass(frozen=True)
class PlayerPatch:
    name: str | None = None
    colour: str | None = None
    faction: str | None = None


@dataclass(frozen=True)
class ArmySummary:
    id: ArmyId
    campaign_id: CampaignId
    player_id: PlayerId
    player_name: str
    player_colour: str
    name: str
    budget: int | None
    units: int = 0
    version: int = 0


#: ``ArmyPatch(budget=NO_BUDGET)`` removes an army's budget (``None`` means "unchanged").
NO_BUDGET = -1


@dataclass(frozen=True)
class ArmyPatch:
    name: str | None = None
    player_id: PlayerId | None = None
    budget: int | None = None  # NO_BUDGET to remove it


@dataclass(frozen=True)
class Navigator:
    """What the campaign navigator shows: the campaign, its players, armies and battles."""

    campaign: CampaignSummary
    players: tuple[PlayerSummary, ...]
    armies: tuple[ArmySummary, ...]
    battles: tuple[BattleSummary, ...]


# -- battles -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BattleSummary:
    id: BattleId
    campaign_id: CampaignId
    name: str
    status: BattleStatus
    created_at: datetime
    finished_at: datetime | None
    notes: str
    players: tuple[str, ...] = ()
    units: int = 0
    events: int = 0
    version: int = 0

    @property
    def status_text(self) -> str:
        return battle_status_text(self.status)


@dataclass(frozen=True)
class BattlePlayerSummary:
    id: BattlePlayerId
    player_id: PlayerId
    name: str
    colour: str
    faction: str
    turn_order: int


@dataclass(frozen=True)
class BattleUnitSummary:
    """A unit as mustered into a battle, with its side and its (generic) battle state."""

    id: BattleUnitId
    battle_player_id: BattlePlayerId
    player_id: PlayerId
    unit_id: UnitId | None  # None once the campaign unit was deleted
    name: str
    spec: Mapping[str, Any]
    state: Mapping[str, Any]


@dataclass(frozen=True)
class EventSummary:
    """One entry of a battle's event log."""

    id: EventId
    battle_id: BattleId
    seq: int
    kind: str
    actor_id: BattleUnitId | None
    target_id: BattleUnitId | None
    payload: Mapping[str, Any]
    created_at: datetime
    reverted: bool

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        from brikdesk.services.events import dice_from_payload

        return dice_from_payload(self.payload.get("dice", ()))

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        from brikdesk.services.events import modifiers_from_payload

        return modifiers_from_payload(self.payload.get("modifiers", ()))

    @property
    def outcome(self) -> Mapping[str, Any]:
        out = self.payload.get("outcome", {})
        return out if isinstance(out, Mapping) else {}


@dataclass(frozen=True)
class BattleDetail:
    """A battle with its players in turn order, its mustered units and its state cache."""

    battle: BattleSummary
    players: tuple[BattlePlayerSummary, ...]
    units: tuple[BattleUnitSummary, ...]
    state: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Muster:
    """Which of a player's units go into a battle (``unit_ids`` from any of their armies)."""

    player_id: PlayerId
    unit_ids: tuple[UnitId, ...]


@dataclass(frozen=True)
class UnitOutcome:
    """What a battle did to a campaign unit: its status afterwards and the kills it made."""

    status: UnitStatus
    kills: int = 0


@dataclass(frozen=True)
class UnitRecord:
    """A campaign unit's record (status, battles fought, kills), to put back on undo."""

    unit_id: UnitId
    status: UnitStatus
    battles_fought: int
    kills: int
