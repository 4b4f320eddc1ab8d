"""A battle state as JSON-ready data, for a cache beside the event log.

The event log is the truth (``replay``); a stored snapshot only saves replaying a long log.
``state_from_json(setup, state_to_json(state)) == state`` for every state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from brikdesk.domain.battle.events import EventFormatError
from brikdesk.domain.battle.model import ActionState, BattleSetup, BattleState, UnitState
from brikdesk.domain.ids import BattleUnitId, PlayerId

SNAPSHOT_VERSION = 1

_FLAGS = (
    "half_speed",
    "stopped",
    "disrupted",
    "recovering",
    "dead",
    "out",
    "mom",
    "sprinted",
    "standing_up",
)
#: Fields added after version 1 snapshots were written: read with their defaults.
_LATER = frozenset(
    {
        "sprinted",
        "standing_up",
        "busy",
        "busy_turns",
        "struck",
        "charged",
        "charged_by",
        "countered",
        "disengaged_from",
        "counterstruck_by",
        "shot_at",
        "brawl",
    }
)
_LATER_SETS = ("charged_by", "disengaged_from", "counterstruck_by", "brawl")
_LATER_LISTS = ("struck", "countered", "shot_at")
_SETS = ("close_combat", "grabbing", "grabbed_by")


def unit_to_json(u: UnitState) -> dict[str, Any]:
    data: dict[str, Any] = {
        "unit": u.unit_id,
        "player": u.player_id,
        "action": u.action.value,
        "counters": u.counters,
        "counters_used": u.counters_used,
    }
    for flag in _FLAGS:
        data[flag] = getattr(u, flag)
    for name in _SETS:
        data[name] = sorted(getattr(u, name))
    data["attackers"] = list(u.attackers)
    data["busy"] = u.busy
    data["busy_turns"] = u.busy_turns
    data["charged"] = u.charged
    for name in _LATER_SETS:
        data[name] = sorted(getattr(u, name))
    for name in _LATER_LISTS:
        data[name] = list(getattr(u, name))
    return data


def state_to_json(state: BattleState) -> dict[str, Any]:
    return {
        "version": SNAPSHOT_VERSION,
        "round": state.round,
        "active": state.active,
        "finished": state.finished,
        "units": [unit_to_json(u) for u in state.units],
    }


def _unit_from_json(data: Mapping[str, Any]) -> UnitState:
    def flag(name: str) -> bool:
        return bool(data.get(name, False)) if name in _LATER else bool(data[name])

    def raw(name: str) -> Any:
        return data.get(name, ()) if name in _LATER else data[name]

    def ids(name: str) -> frozenset[BattleUnitId]:
        return frozenset(BattleUnitId(int(i)) for i in raw(name))

    def seq(name: str) -> tuple[BattleUnitId, ...]:
        return tuple(BattleUnitId(int(i)) for i in raw(name))

    return UnitState(
        unit_id=BattleUnitId(int(data["unit"])),
        player_id=PlayerId(int(data["player"])),
        action=ActionState(data["action"]),
        counters=int(data["counters"]),
        counters_used=int(data["counters_used"]),
        half_speed=flag("half_speed"),
        stopped=flag("stopped"),
        disrupted=flag("disrupted"),
        recovering=flag("recovering"),
        dead=flag("dead"),
        out=flag("out"),
        mom=flag("mom"),
        close_combat=ids("close_combat"),
        grabbing=ids("grabbing"),
        grabbed_by=ids("grabbed_by"),
        attackers=seq("attackers"),
        busy=str(data.get("busy", "")),
        busy_turns=int(data.get("busy_turns", 0)),
        sprinted=flag("sprinted"),
        standing_up=flag("standing_up"),
        struck=seq("struck"),
        charged=flag("charged"),
        charged_by=ids("charged_by"),
        countered=seq("countered"),
        disengaged_from=ids("disengaged_from"),
        counterstruck_by=ids("counterstruck_by"),
        shot_at=seq("shot_at"),
        brawl=ids("brawl"),
    )


def state_from_json(setup: BattleSetup, data: Mapping[str, Any]) -> BattleState:
    """Rebuild a snapshot; raises ``EventFormatError`` if it does not fit ``setup``."""
    try:
        if data["version"] != SNAPSHOT_VERSION:
            raise EventFormatError(
                f"snapshot version {data['version']!r} is not {SNAPSHOT_VERSION}"
            )
        units = tuple(_unit_from_json(u) for u in data["units"])
        state = BattleState(
            setup=setup,
            round=int(data["round"]),
            active=PlayerId(int(data["active"])),
            units=units,
            finished=bool(data["finished"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, EventFormatError):
            raise
        raise EventFormatError(f"unreadable battle snapshot: {exc!r}") from None
    if tuple(u.unit_id for u in units) != tuple(u.unit_id for u in setup.units):
        raise EventFormatError("the snapshot's units are not the battle's units")
    if state.active not in setup.player_index:
        raise EventFormatError("the snapshot's active player is not in the battle")
    return state
