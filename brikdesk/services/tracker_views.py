"""What the battle tracker hands out: frozen views of a battle, its players, units and log.

``brikdesk.services.tracker`` builds them (and re-exports every name here); the panel and the
reports read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from brikdesk.domain.battle import BattleSetup, BattleState, Event
from brikdesk.domain.catalog import Catalog
from brikdesk.domain.ids import BattleId, BattleUnitId, CampaignId, EventId, PlayerId, UnitId
from brikdesk.domain.roster import Loadout, UnitSpec, UnitStats
from brikdesk.domain.statuses import BattleStatus
from brikdesk.errors import UserError

if TYPE_CHECKING:  # the combat rules load with the first attack, not with the app's start
    from brikdesk.domain.combat import CombatContext

__all__ = ["BattleView", "LoggedEvent", "TrackedPlayer", "TrackedUnit"]


@dataclass(frozen=True)
class TrackedPlayer:
    """A player of the battle, in turn order. ``id`` is the campaign player's id."""

    id: PlayerId
    name: str
    colour: str
    faction: str
    turn_order: int


@dataclass(frozen=True)
class TrackedUnit:
    """A mustered unit: the battle's copy of it, its player, loadout and effective stats.

    ``id`` is the battle unit id, the id the rules engine and the event log use.
    """

    id: BattleUnitId
    name: str
    player_id: PlayerId
    player_name: str
    player_colour: str
    type_key: str
    type_name: str
    spec: UnitSpec
    stats: UnitStats
    army: str = ""
    campaign_unit_id: UnitId | None = None
    minifig: bool = True
    notes: tuple[str, ...] = ()  # e.g. "unknown unit type 'x': Minifig stats used"

    @property
    def unit_id(self) -> BattleUnitId:
        return self.id

    @property
    def loadout(self) -> Loadout:
        return self.spec.loadout


@dataclass(frozen=True)
class LoggedEvent:
    """One entry of the battle log in plain words.

    ``round`` and ``player`` say when it happened (the round and the active player before it;
    ``None`` for an undone event). ``note`` is the recorder's own words, if any (the combat
    wizard's story of an attack). ``problem`` says why a stored event does not count (it cannot
    be read, or the rules refuse it where it stands); such an event is skipped by the replay.
    """

    id: EventId
    seq: int
    kind: str
    text: str
    time: datetime | None
    reverted: bool
    actor_id: BattleUnitId | None = None
    target_id: BattleUnitId | None = None
    round: int | None = None
    player: str | None = None
    note: str = ""
    problem: str | None = None
    event: Event | None = None


@dataclass(frozen=True)
class BattleView:
    """A battle as the tracker shows it. ``events`` are the whole log, oldest first (undone
    events last, marked ``reverted``); ``can_undo`` / ``can_redo`` are the texts of what Undo
    and Redo would take back or bring back, ``None`` when there is nothing; ``undo_seen`` /
    ``redo_seen`` go with them to ``TrackerService.undo(seen=...)`` / ``redo(seen=...)``."""

    id: BattleId
    campaign_id: CampaignId
    name: str
    status: BattleStatus
    notes: str
    setup: BattleSetup
    state: BattleState
    players: tuple[TrackedPlayer, ...]
    units: tuple[TrackedUnit, ...]
    catalog: Catalog
    events: tuple[LoggedEvent, ...]
    can_undo: str | None = None
    can_redo: str | None = None
    #: What to pass as ``seen`` to ``undo`` / ``redo`` from this view (None: nothing to do).
    undo_seen: EventId | None = None
    redo_seen: EventId | None = None

    @property
    def in_progress(self) -> bool:
        return self.status is BattleStatus.IN_PROGRESS

    @property
    def status_text(self) -> str:
        return self.status.text

    def unit(self, unit_id: BattleUnitId) -> TrackedUnit:
        i = self.setup.unit_index.get(unit_id)
        if i is None:
            raise UserError(f"No unit {unit_id} in this battle.")
        return self.units[i]

    def player(self, player_id: PlayerId) -> TrackedPlayer:
        i = self.setup.player_index.get(player_id)
        if i is None:
            raise UserError(f"No player {player_id} in this battle.")
        return self.players[i]

    @property
    def active_player(self) -> TrackedPlayer:
        return self.player(self.state.active)

    @property
    def standing_events(self) -> tuple[LoggedEvent, ...]:
        return tuple(e for e in self.events if not e.reverted)

    def changed_units(self, before: BattleView) -> tuple[BattleUnitId, ...] | None:
        """The units whose state differs from ``before``'s, for a view to update only their
        rows; ``None`` when every row may differ (another battle or muster, a new round or
        active player, the battle's end). The tracker's states share every unit an event
        left alone, so this compares references, not values."""
        if before.id != self.id or before.setup is not self.setup:
            return None
        a, b = before.state, self.state
        if a.active != b.active or a.round != b.round or a.finished != b.finished:
            return None
        return tuple(x.unit_id for x, y in zip(a.units, b.units, strict=True) if x is not y)


def context_from_view(view: BattleView) -> CombatContext:
    """The combat forms' battle from the tracker's ``BattleView`` (its standing events tell
    which items a fumbled Parry knocked away earlier): what the quick form, the combat wizard
    and a player's proposal from the players' page judge an attack on."""
    from brikdesk.domain.combat import context_from

    return context_from(
        view.setup,
        view.state,
        view.catalog,
        [
            (u.id, view.setup.name(u.id), u.player_id, u.spec, u.stats, u.minifig)
            for u in view.units
        ],
        events=[e.event for e in view.standing_events],
    )
