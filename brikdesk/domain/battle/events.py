"""Battle events: every change to a battle is one of these, stored in the battle log.

Each event is a frozen dataclass with a ``kind`` string, an ``actor`` and a ``target`` (unit ids
or ``None``) and ``to_payload()``, a JSON-ready dict of everything else. ``from_payload(kind,
actor, target, payload)`` rebuilds the event; the round trip is exact. This is the shape the
database stores: (kind, actor unit id, target unit id, JSON payload, reverted flag).

``AttackResolved`` is the combat wizard's one combined event; keys of its payload other than
its own (``participants``, ``close_combat``, ``maneuver``, ``effects``, ``killed``) are the
wizard's (dice, modifiers, outcome), kept untouched in ``details``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Self

from brikdesk.domain.battle.model import Status
from brikdesk.domain.ids import BattleUnitId, PlayerId


class EventFormatError(ValueError):
    """A stored event that cannot be read (unknown kind, missing or mistyped field)."""


class _Named(str, Enum):
    """A stored value that reads as itself (``str()``) and, capitalised, as a label."""

    def __str__(self) -> str:
        return str(self.value)

    @property
    def label(self) -> str:
        return str(self.value).capitalize()


class ActionUse(_Named):
    """What a unit spends its Action on (4.1 Sprinting, 4.2 Action, 4.3 Bailing, 5.2 Parrying)."""

    ATTACK = "attack"
    SPRINT = "sprint"
    BAIL = "bail"
    PARRY = "parry"
    OTHER = "other"


class CounterUse(_Named):
    """What a Counter is used for (5.2): a Counterstrike or a Parry."""

    COUNTERSTRIKE = "counterstrike"
    PARRY = "parry"

    @property
    def attacks(self) -> bool:
        """Whether this use of a Counter is an attack, with its Action Roll and damage (a
        Counterstrike is; a Parry answers one)."""
        return self is CounterUse.COUNTERSTRIKE


class Maneuver(_Named):
    """Active Close Combat maneuvers (5.2 Active Maneuvers, 5.4 Charge)."""

    STRIKE = "strike"
    GRAB = "grab"
    SHOVE = "shove"
    CHARGE = "charge"


class Use(_Named):
    """How a participant of a resolved attack paid for it."""

    ACTION = "action"  # its Action, on its own turn
    RESPONSE = "response"  # its held Action, in response on another player's turn
    COUNTER = "counter"  # a Counter (Counterstrike) in Close Combat


# --- payload readers -----------------------------------------------------------------------


def _req(payload: Mapping[str, Any], key: str, kind: str) -> Any:
    try:
        return payload[key]
    except KeyError:
        raise EventFormatError(f"{kind}: payload lacks {key!r}") from None


def _int(value: Any, what: str) -> int:
    if type(value) is not int:
        raise EventFormatError(f"{what} must be an integer, not {value!r}")
    return value


def _unit(value: Any, what: str) -> BattleUnitId:
    return BattleUnitId(_int(value, what))


def _opt_unit(value: Any, what: str) -> BattleUnitId | None:
    return None if value is None else _unit(value, what)


def _bool(value: Any, what: str) -> bool:
    if type(value) is not bool:
        raise EventFormatError(f"{what} must be true or false, not {value!r}")
    return value


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise EventFormatError(f"{what} must be text, not {value!r}")
    return value


def _ids(value: Any, what: str) -> tuple[BattleUnitId, ...]:
    if not isinstance(value, list | tuple):
        raise EventFormatError(f"{what} must be a list of unit ids, not {value!r}")
    return tuple(_unit(v, what) for v in value)


def _enum(cls: type[Enum], value: Any, what: str) -> Any:
    try:
        return cls(value)
    except ValueError:
        raise EventFormatError(f"{what}: unknown value {value!r}") from None


def _only(payload: Mapping[str, Any], kind: str, allowed: set[str]) -> None:
    if not isinstance(payload, Mapping):
        raise EventFormatError(f"{kind}: payload must be an object, not {payload!r}")
    extra = set(payload) - allowed
    if extra:
        raise EventFormatError(f"{kind}: unknown payload keys {sorted(extra)}")


def _json_copy(value: Any, where: str) -> Any:
    """A deep copy of JSON-ready data (dicts with text keys, lists, text, numbers, bools)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise EventFormatError(f"{where}: keys must be text, not {k!r}")
            out[k] = _json_copy(v, where)
        return out
    if isinstance(value, list | tuple):
        return [_json_copy(v, where) for v in value]
    raise EventFormatError(f"{where}: {value!r} cannot be stored as JSON")


# --- events --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnEnded:
    """The active ``player`` ends their turn in ``round``; the next player becomes active."""

    kind: ClassVar[str] = "turn_ended"
    actor: ClassVar[None] = None
    target: ClassVar[None] = None

    player: PlayerId
    round: int

    def to_payload(self) -> dict[str, Any]:
        return {"player": self.player, "round": self.round}

    @classmethod
    def from_payload(
        cls, actor: int | None, target: int | None, payload: Mapping[str, Any]
    ) -> TurnEnded:
        _only(payload, cls.kind, {"player", "round"})
        return cls(
            player=PlayerId(_int(_req(payload, "player", cls.kind), "player")),
            round=_int(_req(payload, "round", cls.kind), "round"),
        )


@dataclass(frozen=True)
class ActionSpent:
    """``actor`` spends its Action (``how``), on its own turn or ``as_response``.

    ``target`` is the unit it acts on or responds to, if any (a unit in Close Combat must name
    one inside its Close Combat to respond, 5.2). ``over_the_top`` matters for a Bail: the
    Bailer lands on its feet and is not Disrupted (4.3). ``note`` says what "other" was.
    """

    kind: ClassVar[str] = "action_spent"

    actor: BattleUnitId
    how: ActionUse
    as_response: bool = False
    target: BattleUnitId | None = None
    over_the_top: bool = False
    note: str = ""

    def to_payload(self) -> dict[str, Any]:
        return {
            "how": self.how.value,
            "as_response": self.as_response,
            "over_the_top": self.over_the_top,
            "note": self.note,
        }

    @classmethod
    def from_payload(
        cls, actor: int | None, target: int | None, payload: Mapping[str, Any]
    ) -> ActionSpent:
        _only(payload, cls.kind, {"how", "as_response", "over_the_top", "note"})
        return cls(
            actor=_unit(actor, "actor"),
            how=_enum(ActionUse, _req(payload, "how", cls.kind), "how"),
            as_response=_bool(_req(payload, "as_response", cls.kind), "as_response"),
            target=_opt_unit(target, "target"),
            over_the_top=_bool(_req(payload, "over_the_top", cls.kind), "over_the_top"),
            note=_str(_req(payload, "note", cls.kind), "note"),
        )


@dataclass(frozen=True)
class CounterUsed:
    """``actor``, in Close Combat with ``target``, uses one Counter against it (5.2)."""

    kind: ClassVar[str] = "counter_used"

    actor: BattleUnitId
    target: BattleUnitId
    how: CounterUse = CounterUse.COUNTERSTRIKE

    def to_payload(self) -> dict[str, Any]:
        return {"how": self.how.value}

    @classmethod
    def from_payload(
        cls, actor: int | None, target: int | None, payload: Mapping[str, Any]
    ) -> CounterUsed:
        _only(payload, cls.kind, {"how"})
        return cls(
            actor=_unit(actor, "actor"),
            target=_unit(target, "target"),
            how=_enum(CounterUse, _req(payload, "how", cls.kind), "how"),
        )


@dataclass(frozen=True)
class CloseCombatAttack:
    """``actor`` spends its Action on a Close Combat maneuver against ``target`` (5.2).

    ``hands`` it uses (a Strike with two weapons 2, a Shove 2, or 1 with a Shield). It counts
    toward the target's three attackers this player turn and puts both in Close Combat.
    """

    kind: ClassVar[str] = "close_combat_attack"

    actor: BattleUnitId
    target: BattleUnitId
    maneuver: Maneuver = Maneuver.STRIKE
    hands: int = 1
    as_response: bool = False
    #: A response at a minifig moving past: he is not locked in Close Combat unless he Parries
    #: (4.1 "If he declines to Parry and survives, he can ignore the attack").
    passing_by: bool = False
    #: What came of it when the players resolved it at the table with their own dice (the
    #: organizer's words); empty when the combat wizard rolled it (its ``AttackResolved``).
    outcome: str = ""
    #: The organizer's choice that the fight joins the brawl of this unit (5.2: several units
    #: in one Close Combat); ``None``: a fight of its own, or the target's brawl.
    brawl: BattleUnitId | None = None

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "maneuver": self.maneuver.value,
            "hands": self.hands,
            "as_response": self.as_response,
        }
        if self.passing_by:
            payload["passing_by"] = True
        if self.outcome:
            payload["at_table"] = self.outcome
        if self.brawl is not None:
            payload["brawl"] = self.brawl
        return payload

    @classmethod
    def from_payload(
        cls, actor: int | None, target: int | None, payload: Mapping[str, Any]
    ) -> CloseCombatAttack:
        _only(
            payload,
            cls.kind,
            {"maneuver", "hands", "as_response", "passing_by", "at_table", "brawl"},
        )
        return cls(
            actor=_unit(actor, "actor"),
            target=_unit(target, "target"),
            maneuver=_enum(Maneuver, _req(payload, "maneuver", cls.kind), "maneuver"),
            hands=_int(_req(payload, "hands", cls.kind), "hands"),
            as_response=_bool(_req(payload, "as_response", cls.kind), "as_response"),
            passing_by=_bool(payload.get("passing_by", False), "passing_by"),
            outcome=_str(payload.get("at_table", ""), "at_table"),
            brawl=_opt_unit(payload.get("brawl"), "brawl"),
        )


@dataclass(frozen=True)
class StatusEvent:
    """What setting and clearing a status share: the unit, the status and the others it is
    with (Close Combat, Grabs). :class:`StatusSet` and :class:`StatusCleared` are its two
    kinds."""

    kind: ClassVar[str]
    target: ClassVar[None] = None

    actor: BattleUnitId
    status: Status
    with_ids: tuple[BattleUnitId, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "with_ids", tuple(self.with_ids))

    def to_payload(self) -> dict[str, Any]:
        return {"status": self.status.value, "with": list(self.with_ids)}

    @classmethod
    def from_payload(
        cls, actor: int | None, target: int | None, payload: Mapping[str, Any]
    ) -> Self:
        _only(payload, cls.kind, {"status", "with"})
        return cls(
            actor=_unit(actor, "actor"),
            status=_enum(Status, _req(payload, "status", cls.kind), "status"),
            with_ids=_ids(_req(payload, "with", cls.kind), "with"),
        )


@dataclass(frozen=True)
class StatusSet(StatusEvent):
    """``actor`` gains ``status``; ``with_ids`` name the others for Close Combat and Grabs."""

    kind: ClassVar[str] = "status_set"


@dataclass(frozen=True)
class StatusCleared(StatusEvent):
    """``actor`` loses ``status``; for Close Combat and Grabs only with ``with_ids`` (all if
    empty): clearing In Close Combat is Disengaging, clearing Grabbing releases the Grab."""

    kind: ClassVar[str] = "status_cleared"


@dataclass(frozen=True)
class UnitKilled:
    """``target`` is killed, by ``actor`` if known; ``cause`` in plain words, optional."""

    kind: ClassVar[str] = "unit_killed"

    target: BattleUnitId
    actor: BattleUnitId | None = None
    cause: str = ""

    def to_payload(self) -> dict[str, Any]:
        return {"cause": self.cause}

    @classmethod
    def from_payload(
        cls, actor: int | None, target: int | None, payload: Mapping[str, Any]
    ) -> UnitKilled:
        _only(payload, cls.kind, {"cause"})
        return cls(
            target=_unit(target, "target"),
            actor=_opt_unit(actor, "actor"),
            cause=_str(_req(payload, "cause", cls.kind), "cause"),
        )


@dataclass(frozen=True)
class Participant:
    """One attacker of a resolved attack: how it paid (``use``) and the hands it used in Close
    Combat (ignored for a Ranged attack)."""

    unit: BattleUnitId
    use: Use = Use.ACTION
    hands: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "use": self.use.value, "hands": self.hands}

    @classmethod
    def from_json(cls, data: Any) -> Participant:
        _only(data, "participant", {"unit", "use", "hands"})
        return cls(
            unit=_unit(_req(data, "unit", "participant"), "participant unit"),
            use=_enum(Use, _req(data, "use", "participant"), "participant use"),
            hands=_int(_req(data, "hands", "participant"), "participant hands"),
        )


@dataclass(frozen=True)
class StatusChange:
    """A status an attack gave or took away (``on``), e.g. Disrupted by a Shove."""

    unit: BattleUnitId
    status: Status
    on: bool = True
    with_ids: tuple[BattleUnitId, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "with_ids", tuple(self.with_ids))

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "status": self.status.value,
            "on": self.on,
            "with": list(self.with_ids),
        }

    @classmethod
    def from_json(cls, data: Any) -> StatusChange:
        _only(data, "effect", {"unit", "status", "on", "with"})
        return cls(
            unit=_unit(_req(data, "unit", "effect"), "effect unit"),
            status=_enum(Status, _req(data, "status", "effect"), "effect status"),
            on=_bool(_req(data, "on", "effect"), "effect on"),
            with_ids=_ids(_req(data, "with", "effect"), "effect with"),
        )


_ATTACK_KEYS = frozenset(
    {"participants", "close_combat", "maneuver", "effects", "killed", "passing_by", "brawl"}
)


@dataclass(frozen=True)
class AttackResolved:
    """One attack as the combat wizard resolved it (a combined attack has several participants).

    ``actor`` is the first participant. Each participant pays with its Action, a response or a
    Counter; a Close Combat attack (``close_combat``) counts every participant toward the
    target's three attackers and puts them in Close Combat with it. ``effects`` (statuses given
    or taken) and ``killed`` follow. ``details`` holds the wizard's own keys (dice, modifiers,
    outcome), JSON-ready and opaque to the rules.
    """

    kind: ClassVar[str] = "attack_resolved"

    actor: BattleUnitId
    target: BattleUnitId | None
    participants: tuple[Participant, ...]
    close_combat: bool = False
    maneuver: str = "attack"
    effects: tuple[StatusChange, ...] = ()
    killed: tuple[BattleUnitId, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict, hash=False)
    #: A response at a minifig moving past (4.1): see ``CloseCombatAttack.passing_by``.
    passing_by: bool = False
    #: The fight joins the brawl of this unit (5.2): see ``CloseCombatAttack.brawl``.
    brawl: BattleUnitId | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "participants", tuple(self.participants))
        object.__setattr__(self, "effects", tuple(self.effects))
        object.__setattr__(self, "killed", tuple(self.killed))
        clash = _ATTACK_KEYS.intersection(self.details)
        if clash:
            raise EventFormatError(f"attack details may not use the keys {sorted(clash)}")
        object.__setattr__(self, "details", _json_copy(self.details, "attack details"))

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = _json_copy(self.details, "attack details")
        payload.update(
            {
                "participants": [p.to_json() for p in self.participants],
                "close_combat": self.close_combat,
                "maneuver": self.maneuver,
                "effects": [e.to_json() for e in self.effects],
                "killed": list(self.killed),
            }
        )
        if self.passing_by:
            payload["passing_by"] = True
        if self.brawl is not None:
            payload["brawl"] = self.brawl
        return payload

    @classmethod
    def from_payload(
        cls, actor: int | None, target: int | None, payload: Mapping[str, Any]
    ) -> AttackResolved:
        if not isinstance(payload, Mapping):
            raise EventFormatError(f"{cls.kind}: payload must be an object")
        parts = _req(payload, "participants", cls.kind)
        effects = _req(payload, "effects", cls.kind)
        if not isinstance(parts, list | tuple) or not isinstance(effects, list | tuple):
            raise EventFormatError(f"{cls.kind}: participants and effects must be lists")
        return cls(
            actor=_unit(actor, "actor"),
            target=_opt_unit(target, "target"),
            participants=tuple(Participant.from_json(p) for p in parts),
            close_combat=_bool(_req(payload, "close_combat", cls.kind), "close_combat"),
            maneuver=_str(_req(payload, "maneuver", cls.kind), "maneuver"),
            effects=tuple(StatusChange.from_json(e) for e in effects),
            killed=_ids(_req(payload, "killed", cls.kind), "killed"),
            passing_by=_bool(payload.get("passing_by", False), "passing_by"),
            brawl=_opt_unit(payload.get("brawl"), "brawl"),
            details={k: v for k, v in payload.items() if k not in _ATTACK_KEYS},
        )


@dataclass(frozen=True)
class BattleFinished:
    """The battle is over; ``note`` says how (e.g. who won). No event may follow."""

    kind: ClassVar[str] = "battle_finished"
    actor: ClassVar[None] = None
    target: ClassVar[None] = None

    note: str = ""

    def to_payload(self) -> dict[str, Any]:
        return {"note": self.note}

    @classmethod
    def from_payload(
        cls, actor: int | None, target: int | None, payload: Mapping[str, Any]
    ) -> BattleFinished:
        _only(payload, cls.kind, {"note"})
        return cls(note=_str(_req(payload, "note", cls.kind), "note"))


@dataclass(frozen=True)
class LongActionStarted:
    """``actor`` spends its Action on something that takes its whole turn (``turns`` 1: a
    full-turn Action) or several of its own turns (an extended Action), 4.2 Long Actions.

    It is Stopped and Busy with ``what`` until the end of its ``turns``-th own turn; a busy unit
    cannot respond.
    """

    kind: ClassVar[str] = "long_action"
    target: ClassVar[None] = None

    actor: BattleUnitId
    what: str
    turns: int = 1

    def to_payload(self) -> dict[str, Any]:
        return {"what": self.what, "turns": self.turns}

    @classmethod
    def from_payload(
        cls, actor: int | None, target: int | None, payload: Mapping[str, Any]
    ) -> LongActionStarted:
        _only(payload, cls.kind, {"what", "turns"})
        return cls(
            actor=_unit(actor, "actor"),
            what=_str(_req(payload, "what", cls.kind), "what"),
            turns=_int(_req(payload, "turns", cls.kind), "turns"),
        )


@dataclass(frozen=True)
class FirstToAct:
    """Who Acts First (4.3): ``actor`` acts before ``target`` (or both at once when
    ``simultaneous``); ``reason`` says why in the edition's words. It changes no state; it puts
    the decision in the battle log."""

    kind: ClassVar[str] = "first_to_act"

    actor: BattleUnitId
    target: BattleUnitId
    simultaneous: bool = False
    reason: str = ""

    def to_payload(self) -> dict[str, Any]:
        return {"simultaneous": self.simultaneous, "reason": self.reason}

    @classmethod
    def from_payload(
        cls, actor: int | None, target: int | None, payload: Mapping[str, Any]
    ) -> FirstToAct:
        _only(payload, cls.kind, {"simultaneous", "reason"})
        return cls(
            actor=_unit(actor, "actor"),
            target=_unit(target, "target"),
            simultaneous=_bool(_req(payload, "simultaneous", cls.kind), "simultaneous"),
            reason=_str(_req(payload, "reason", cls.kind), "reason"),
        )


@dataclass(frozen=True)
class WarningOverruled:
    """The organizer recorded ``actor``'s action despite a warning of ``rule_warnings`` (the
    rules leave the call to the table). It changes no state; it puts the decision in the log,
    recorded with the action it concerns (one undo step)."""

    kind: ClassVar[str] = "warning_overruled"
    target: ClassVar[None] = None

    actor: BattleUnitId
    warning: str
    rule: str = ""

    def to_payload(self) -> dict[str, Any]:
        return {"warning": self.warning, "rule": self.rule}

    @classmethod
    def from_payload(
        cls, actor: int | None, target: int | None, payload: Mapping[str, Any]
    ) -> WarningOverruled:
        _only(payload, cls.kind, {"warning", "rule"})
        return cls(
            actor=_unit(actor, "actor"),
            warning=_str(_req(payload, "warning", cls.kind), "warning"),
            rule=_str(_req(payload, "rule", cls.kind), "rule"),
        )


Event = (
    TurnEnded
    | ActionSpent
    | CounterUsed
    | CloseCombatAttack
    | StatusSet
    | StatusCleared
    | UnitKilled
    | AttackResolved
    | BattleFinished
    | LongActionStarted
    | FirstToAct
    | WarningOverruled
)

EVENT_TYPES: tuple[type, ...] = (
    TurnEnded,
    ActionSpent,
    CounterUsed,
    CloseCombatAttack,
    StatusSet,
    StatusCleared,
    UnitKilled,
    AttackResolved,
    BattleFinished,
    LongActionStarted,
    FirstToAct,
    WarningOverruled,
)

_READERS: dict[str, Callable[[int | None, int | None, Mapping[str, Any]], Event]] = {
    cls.kind: cls.from_payload  # type: ignore[attr-defined]
    for cls in EVENT_TYPES
}

#: Every event kind string, for the database's check or a filter.
EVENT_KINDS: tuple[str, ...] = tuple(_READERS)


def from_payload(
    kind: str, actor: int | None, target: int | None, payload: Mapping[str, Any]
) -> Event:
    """Rebuild a stored event; raises ``EventFormatError`` for anything it cannot read."""
    try:
        reader = _READERS[kind]
    except KeyError:
        raise EventFormatError(f"unknown event kind {kind!r}") from None
    return reader(actor, target, payload)


def to_record(event: Event) -> tuple[str, BattleUnitId | None, BattleUnitId | None, dict[str, Any]]:
    """``(kind, actor, target, payload)``: the columns the battle log stores."""
    return event.kind, event.actor, event.target, event.to_payload()
