"""The battle's cast and its state: who plays in which order, which units, and where each stands.

``BattleSetup`` is fixed for a battle (players in turn order, mustered units); ``BattleState`` is
what the event log says at one moment (round, active player, one ``UnitState`` per unit). Both
are frozen; the rules in ``rules.py`` make a new state from an old one and an event.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum

from brikdesk.domain.catalog import CatalogItem
from brikdesk.domain.ids import BattleUnitId, PlayerId
from brikdesk.domain.rulesets import RULES_2020, RuleSet
from brikdesk.errors import UserError

#: 5.1 Combined Attacks: no more than three Close Combat attackers on one minifig in one turn.
MAX_CLOSE_COMBAT_ATTACKERS = 3


class ActionState(str, Enum):
    """Where a unit's one Action stands (4.2 Action, 4.3 Enemy Response)."""

    READY = "ready"  # its owner's turn, not spent yet
    SPENT_OWN_TURN = "spent_own_turn"  # spent on its owner's turn; recharges on the next one
    HELD = "held"  # saved from its owner's last turn: it may respond once
    SPENT_RESPONSE = "spent_response"  # spent during another player's turn

    def __str__(self) -> str:
        return self.value

    @property
    def label(self) -> str:
        return _ACTION_LABELS[self]

    @property
    def spent(self) -> bool:
        return self in (ActionState.SPENT_OWN_TURN, ActionState.SPENT_RESPONSE)


_ACTION_LABELS = {
    ActionState.READY: "Ready",
    ActionState.SPENT_OWN_TURN: "Spent",
    ActionState.HELD: "Held (may respond)",
    ActionState.SPENT_RESPONSE: "Spent in response",
}


class Status(str, Enum):
    """Statuses a unit can carry (4.1 Impaired Movement, 5.2 Close Combat, 5.4 Charge)."""

    HALF_SPEED = "half_speed"
    STOPPED = "stopped"
    DISRUPTED = "disrupted"
    RECOVERING = "recovering"  # up from Disruption: Half Speed for its whole own turn
    DEAD = "dead"
    IN_CLOSE_COMBAT = "in_close_combat"
    GRABBED = "grabbed"
    GRABBING = "grabbing"
    MOM = "mom"
    OUT = "out"  # out of the battle (fled, removed from the table)
    BUSY = "busy"  # in a full-turn or extended Action (4.2): Stopped, Action spent
    STANDING_UP = "standing_up"  # 2005: up from Disruption, 2" of Move spent standing up

    def __str__(self) -> str:
        return self.value

    @property
    def label(self) -> str:
        return _STATUS_LABELS[self]

    @property
    def takes_units(self) -> bool:
        """Whether the status names other units ("in Close Combat with ...")."""
        return self in (Status.IN_CLOSE_COMBAT, Status.GRABBED, Status.GRABBING)


_STATUS_LABELS = {
    Status.HALF_SPEED: "Half Speed",
    Status.STOPPED: "Stopped",
    Status.DISRUPTED: "Disrupted",
    Status.RECOVERING: "Recovering (Half Speed)",
    Status.DEAD: "Dead",
    Status.IN_CLOSE_COMBAT: "In Close Combat",
    Status.GRABBED: "Grabbed",
    Status.GRABBING: "Grabbing",
    Status.MOM: "MOM",
    Status.OUT: "Out of the battle",
    Status.BUSY: "Busy",
    Status.STANDING_UP: 'Standing up (-2")',
}


def counters_for_loadout(hands: int, held: Iterable[CatalogItem]) -> int:
    """Counters per player turn: one per weapon or empty hand (5.2 Counters and Actions).

    ``held`` are the items in hand; worn items (``hands == 0``) do not count. A minifig with a
    sword and a shield has 2, with a two-handed pike 1, with nothing in hand 2.
    """
    if hands < 0:
        raise UserError("A unit cannot have fewer than no hands.", field="hands")
    in_hand = [item for item in held if item.hands > 0]
    used = sum(item.hands for item in in_hand)
    if used > hands:
        raise UserError(
            f"The items in hand need {used} hands but the unit has {hands}.", field="hands"
        )
    return len(in_hand) + (hands - used)


@dataclass(frozen=True)
class PlayerSetup:
    """A player in the battle. Players with the same ``team`` are allies (5.1 outnumbered)."""

    player_id: PlayerId
    name: str
    team: str | None = None

    @property
    def side(self) -> str:
        return f"team:{self.team}" if self.team else f"player:{self.player_id}"


@dataclass(frozen=True)
class UnitSetup:
    """A mustered unit. ``counters``: one per weapon or empty hand (normally 2, more allowed).

    ``minifig``: the three-attacker limit applies to it (5.1: larger targets have no hard limit).
    """

    unit_id: BattleUnitId
    player_id: PlayerId
    name: str
    counters: int = 2
    minifig: bool = True
    #: Statuses its loadout gives it from the start (Heavy Armor: Half Speed, 4.1).
    start_statuses: tuple[Status, ...] = ()
    #: Wears Heavy Armor (2010: getting up from Disruption takes the whole turn, 4.1).
    heavy_armor: bool = False
    #: Can go Over the Top (4.2): not an Incompetent unit (a d4) nor Cannon Fodder.
    over_the_top: bool = True

    def __post_init__(self) -> None:
        statuses = tuple(self.start_statuses)
        object.__setattr__(self, "start_statuses", statuses)
        allowed = (Status.HALF_SPEED, Status.STOPPED)
        for status in statuses:
            if status not in allowed:
                raise UserError(
                    f"{self.name} cannot start the battle {status.label}; a loadout "
                    "gives only Half Speed or Stopped.",
                    field="statuses",
                )


@dataclass(frozen=True)
class BattleSetup:
    """Players in turn order, the mustered units and the campaign edition's rule set (chapter
    4: recovery from Disruption, long Actions, Who Acts First); fixed for the whole battle."""

    players: tuple[PlayerSetup, ...]
    units: tuple[UnitSetup, ...]
    rules: RuleSet = RULES_2020
    unit_index: Mapping[BattleUnitId, int] = field(init=False, repr=False, compare=False)
    player_index: Mapping[PlayerId, int] = field(init=False, repr=False, compare=False)
    #: The unit names that units of two different players share ("Minifig 1" on both sides).
    shared_names: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        players = tuple(self.players)
        units = tuple(self.units)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "units", units)
        if not players:
            raise UserError("A battle needs at least one player.", field="players")
        player_index: dict[PlayerId, int] = {}
        for i, p in enumerate(players):
            if p.player_id in player_index:
                raise UserError(f"Player {p.name!r} is in the turn order twice.", field="players")
            player_index[p.player_id] = i
        unit_index: dict[BattleUnitId, int] = {}
        for i, u in enumerate(units):
            if u.unit_id in unit_index:
                raise UserError(f"Unit id {u.unit_id} ({u.name}) is mustered twice.", field="units")
            if u.player_id not in player_index:
                raise UserError(f"{u.name} belongs to no player of this battle.", field="units")
            if u.counters < 0:
                raise UserError(f"{u.name} cannot have fewer than no Counters.", field="counters")
            unit_index[u.unit_id] = i
        object.__setattr__(self, "unit_index", unit_index)
        object.__setattr__(self, "player_index", player_index)
        owners: dict[str, PlayerId] = {}
        shared: set[str] = set()
        for u in units:
            if owners.setdefault(u.name, u.player_id) != u.player_id:
                shared.add(u.name)
        object.__setattr__(self, "shared_names", frozenset(shared))

    def player(self, player_id: PlayerId) -> PlayerSetup:
        try:
            return self.players[self.player_index[player_id]]
        except KeyError:
            raise UserError(f"No player {player_id} in this battle.") from None

    def unit(self, unit_id: BattleUnitId) -> UnitSetup:
        try:
            return self.units[self.unit_index[unit_id]]
        except KeyError:
            raise UserError(f"No unit {unit_id} in this battle.") from None

    def has_unit(self, unit_id: BattleUnitId) -> bool:
        return unit_id in self.unit_index

    def units_of(self, player_id: PlayerId) -> Iterator[UnitSetup]:
        return (u for u in self.units if u.player_id == player_id)

    def label(self, unit_id: BattleUnitId | None) -> str:
        """``"Sir Bob (Red)"`` for the battle log; a unit no longer known is named plainly."""
        if unit_id is None or unit_id not in self.unit_index:
            return "a removed unit" if unit_id is None else f"unit {unit_id}"
        u = self.units[self.unit_index[unit_id]]
        return f"{u.name} ({self.players[self.player_index[u.player_id]].name})"

    def name(self, unit_id: BattleUnitId | None) -> str:
        """The unit's name where it cannot be confused: its name alone, or with its owner
        (``label``) when a unit of another player has the same name."""
        if unit_id is None or unit_id not in self.unit_index:
            return self.label(unit_id)
        u = self.units[self.unit_index[unit_id]]
        return self.label(unit_id) if u.name in self.shared_names else u.name


@dataclass(frozen=True)
class UnitState:
    """One unit at one moment of the battle.

    No ``__slots__``: End Turn copies every unit, and copying an instance's ``__dict__`` is
    four times as fast as copying 27 slots (``rules._evolve``).

    ``counters_used`` counts the hands it has used this player turn (Strikes, Grabs, Shoves,
    Counterstrikes and Parries all use a hand, 5.2); ``counters`` is how many it has.
    ``attackers`` are the units that made Close Combat attacks on it this player turn, in order.
    ``close_combat``, ``grabbing``, ``grabbed_by`` and ``brawl`` are kept symmetric with the
    other units.
    """

    unit_id: BattleUnitId
    player_id: PlayerId
    action: ActionState
    counters: int
    counters_used: int = 0
    half_speed: bool = False
    stopped: bool = False
    disrupted: bool = False
    recovering: bool = False
    dead: bool = False
    out: bool = False
    mom: bool = False
    close_combat: frozenset[BattleUnitId] = frozenset()
    grabbing: frozenset[BattleUnitId] = frozenset()
    grabbed_by: frozenset[BattleUnitId] = frozenset()
    #: Units its fight was joined to by the organizer's choice "joins the brawl of" (5.2):
    #: one Close Combat with them without fighting them directly. Symmetric; dropped when the
    #: unit leaves Close Combat.
    brawl: frozenset[BattleUnitId] = frozenset()
    attackers: tuple[BattleUnitId, ...] = ()
    #: What its full-turn or extended Action is (4.2); "" when not busy.
    busy: str = ""
    #: Own turns the busy Action still takes after the current (or next) one.
    busy_turns: int = 0
    #: Sprinted this turn: a Charge may still follow as part of the same Action (4.1, 5.4).
    sprinted: bool = False
    #: 2005: up from Disruption this turn, 2" of its Move spent standing up (4.3).
    standing_up: bool = False
    #: Close Combat attacks (Strike, Charge) it made with its Action this player turn: the
    #: targets, in order; a second Strike must hit the same target (5.2).
    struck: tuple[BattleUnitId, ...] = ()
    #: It Charged this player turn: a single Strike (5.4 Making the Attack).
    charged: bool = False
    #: Units that Charged it this player turn: a single Counter against each (5.4).
    charged_by: frozenset[BattleUnitId] = frozenset()
    #: Units it used a Counter against this player turn, in order (5.2, 5.4).
    countered: tuple[BattleUnitId, ...] = ()
    #: Opponents it Disengaged from this player turn: each may make one Counterstrike (5.2).
    disengaged_from: frozenset[BattleUnitId] = frozenset()
    #: Opponents that made their one Counterstrike on it as it Disengaged (5.2).
    counterstruck_by: frozenset[BattleUnitId] = frozenset()
    #: The target of its Ranged attacks this player turn (5.3: a single target).
    shot_at: tuple[BattleUnitId, ...] = ()

    @property
    def in_battle(self) -> bool:
        """Alive and on the table."""
        return not (self.dead or self.out)

    @property
    def may_respond(self) -> bool:
        """Whether it may spend a response Action now (4.3): held, alive, not Disrupted."""
        return (
            self.action is ActionState.HELD
            and self.in_battle
            and not self.disrupted
            and not self.busy
        )

    @property
    def action_available(self) -> bool:
        return self.action in (ActionState.READY, ActionState.HELD)

    @property
    def counters_left(self) -> int:
        return max(0, self.counters - self.counters_used)

    @property
    def in_close_combat(self) -> bool:
        return bool(self.close_combat)

    @property
    def grabbed(self) -> bool:
        return bool(self.grabbed_by)

    @property
    def moves_at_half_speed(self) -> bool:
        """Half Speed by a condition or while recovering from Disruption (4.1)."""
        return self.half_speed or self.recovering

    @property
    def statuses(self) -> tuple[Status, ...]:
        """Status chips in a fixed order; a dead unit shows only Dead."""
        if self.dead:
            return (Status.DEAD,)
        flags = (
            (self.out, Status.OUT),
            (self.disrupted, Status.DISRUPTED),
            (bool(self.busy), Status.BUSY),
            (self.standing_up, Status.STANDING_UP),
            (self.recovering, Status.RECOVERING),
            (self.half_speed, Status.HALF_SPEED),
            (self.stopped, Status.STOPPED),
            (bool(self.close_combat), Status.IN_CLOSE_COMBAT),
            (bool(self.grabbed_by), Status.GRABBED),
            (bool(self.grabbing), Status.GRABBING),
            (self.mom, Status.MOM),
        )
        return tuple(status for on, status in flags if on)


@dataclass(frozen=True, slots=True)
class BattleState:
    """The battle at one moment: round, active player, one ``UnitState`` per mustered unit.

    ``units`` is in the order of ``setup.units``. ``setup`` is carried along (not compared) so
    the query helpers need only the state.
    """

    setup: BattleSetup = field(compare=False, repr=False)
    round: int
    active: PlayerId
    units: tuple[UnitState, ...]
    finished: bool = False

    def unit(self, unit_id: BattleUnitId) -> UnitState:
        try:
            return self.units[self.setup.unit_index[unit_id]]
        except KeyError:
            raise UserError(f"No unit {unit_id} in this battle.") from None

    @property
    def active_player(self) -> PlayerSetup:
        return self.setup.player(self.active)

    def players_from_active(self) -> tuple[PlayerSetup, ...]:
        """Players in turn order starting with the active one (the panel's grouping)."""
        players = self.setup.players
        i = self.setup.player_index[self.active]
        return players[i:] + players[:i]
