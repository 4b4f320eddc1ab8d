"""The Skirmish at the Ford: the demo's finished battle in small, as the battle report reads
it (facts, players, units and the logged events): a kill with modifiers, a miss, an Over the
Top answered by the armour, a Close Combat kill, a critical failure, the end. Shared by the
report's content tests and its printing tests."""

from __future__ import annotations

import datetime as dt
from typing import Any

from brikdesk.domain.battle import (
    AttackResolved,
    BattleFinished,
    Participant,
    TurnEnded,
    to_record,
)
from brikdesk.domain.report import (
    BattleFacts,
    LoggedEvent,
    ReportPlayer,
    ReportUnit,
    build_battle_report,
)

RED, BLUE = 10, 20
PLAYERS = (
    ReportPlayer(RED, "Margo", "#c0392b", "Crimson Brickguard"),
    ReportPlayer(BLUE, "Tobias", "#2e86c1"),
)
UNITS = (
    ReportUnit(1, RED, "Sir Reginald"),
    ReportUnit(2, RED, "Crossbow Kate"),
    ReportUnit(3, RED, "Pikeman Hobb"),
    ReportUnit(4, BLUE, "Marshal Dusty"),
    ReportUnit(5, BLUE, "Cactus Pete"),
    ReportUnit(6, BLUE, "Rusty"),
)
FACTS = BattleFacts(
    "Skirmish at the Ford",
    "Winter War",
    "finished",
    dt.date(2026, 5, 1),
    "The first clash.",
    "2020",
)


def die(sides: int, face: int, why: str, role: str = "natural") -> dict[str, Any]:
    return {"sides": sides, "face": face, "role": role, "why": why}


def mod(value: int, applies: str, reason: str, rule: str) -> dict[str, Any]:
    return {"value": value, "applies_to": applies, "reason": reason, "rule": rule}


def attack(
    actor: int,
    target: int,
    weapon: str,
    dice,
    outcome,
    *,
    killed=(),
    mods=(),
    text: str = "",
    close_combat: bool = False,
    participants=None,
    effects=(),
):
    details = {
        "weapon": weapon,
        "dice": list(dice),
        "modifiers": list(mods),
        "outcome": outcome,
        "text": text,
    }
    return AttackResolved(
        actor,
        target,
        participants or (Participant(actor),),
        close_combat,
        "strike" if close_combat else "attack",
        tuple(effects),
        tuple(killed),
        details,
    )


def log(*events) -> list[LoggedEvent]:
    out = []
    for seq, ev in enumerate(events, 1):
        kind, actor, target, payload = ev if isinstance(ev, tuple) else to_record(ev)
        out.append(LoggedEvent(seq, kind, actor, target, payload))
    return out


# The demo's finished battle, in small: a kill with modifiers, a miss, an Over the Top answered
# by the armour, a Close Combat kill, a critical failure, the end.
KATE_SHOOTS = attack(
    2,
    5,
    "Long-Ranged Weapon",
    [die(6, 5, "Action die (Long-Ranged Weapon attack)"), die(6, 3, "d6 Damage")],
    {
        "hit": True,
        "action_total": 4,
        "use": 3,
        "critical_failure": False,
        "over_the_top": False,
        "killed": True,
        "damage": 3,
        "armor": 0,
    },
    killed=(5,),
    text="Kate drops the cactus man from 11 inches",
    mods=(
        mod(-1, "Action Roll", "1 inch beyond Range", "5.1 Out of Range"),
        mod(-1, "Damage", "1 inch beyond Range", "5.1 Out of Range"),
    ),
)
RUSTY_MISSES = attack(
    6,
    3,
    "Short-Ranged Weapon",
    [die(6, 3, "Action die (Short-Ranged Weapon attack)")],
    {
        "hit": False,
        "action_total": 2,
        "use": 3,
        "critical_failure": False,
        "over_the_top": False,
        "killed": False,
        "missed_by": 1,
    },
    mods=(mod(-1, "Action Roll", "two of three sections visible", "5.1 Target Size"),),
)
DUSTY_KAPING = attack(
    4,
    1,
    "Short-Ranged Weapon",
    [
        die(10, 7, "Action die (Short-Ranged Weapon attack)"),
        die(6, 6, "d6 Damage"),
        die(6, 2, "bonus d6 for the 6 on the d6 (Damage)", "bonus"),
        die(6, 3, "Benny d6 one more Damage die", "Benny"),
        die(6, 5, "d6 Armor"),
        die(6, 4, "d6 Armor"),
    ],
    {
        "hit": True,
        "action_total": 7,
        "use": 3,
        "critical_failure": False,
        "over_the_top": True,
        "killed": False,
        "damage": 11,
        "armor": 11,
    },
)
REGINALD_STRIKES = attack(
    1,
    6,
    "Heavy Weapon",
    [die(10, 4, "Action die (Heavy Weapon attack)"), die(10, 8, "d10 Damage")],
    {
        "hit": True,
        "action_total": 4,
        "use": 3,
        "critical_failure": False,
        "over_the_top": False,
        "killed": True,
        "damage": 10,
        "armor": 4,
    },
    killed=(6,),
    close_combat=True,
)
GUS_FIZZLES = attack(
    3,
    4,
    "Explosive",
    [die(6, 1, "Action die (Explosive attack)")],
    {
        "hit": False,
        "action_total": 1,
        "use": 1,
        "critical_failure": True,
        "over_the_top": False,
        "killed": False,
        "missed_by": None,
    },
)

FORD = log(
    KATE_SHOOTS,
    TurnEnded(RED, 1),
    RUSTY_MISSES,
    DUSTY_KAPING,
    TurnEnded(BLUE, 1),
    REGINALD_STRIKES,
    GUS_FIZZLES,
    TurnEnded(RED, 2),
    BattleFinished("Tobias falls back across the ford."),
)


def ford():
    return build_battle_report(FACTS, PLAYERS, UNITS, FORD)
