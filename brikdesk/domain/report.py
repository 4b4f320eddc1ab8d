"""The battle report: a readable account of a battle written from its event log.

Pure: the caller passes the battle's facts, its players in turn order, its mustered units and
the events that stand (reverted ones left out), oldest first. ``build_battle_report`` returns a
``BattleReport``; ``report_markdown`` turns it into Markdown for a forum post; ``ui/printing``
lays it out and paints it (PDF, print preview, print).

What the report holds:

- the account, round by round and turn by turn: for each event the headline (who attacked whom
  with what, or the battle tracker's own words from ``battle.describe``), the dice as rolled
  (Action die, Damage, Armor, bonus and Benny dice, from the payload's ``dice``), the
  modifiers with their rule sections, the result, and the table's own words (``text``);
- a casualties table per player (mustered, lost, standing, kills made, the fallen by name);
- the casualties of every round per player, for a chart.

Readings (shown to the user through ``READINGS``):

- Rounds and turns come from the ``turn_ended`` events: the battle starts in round 1 with the
  first player of the turn order; each ``turn_ended`` passes to the next player, and after the
  last player a new round begins (the battle engine's reading 18). Responses made during
  another player's turn are told in that player's turn.
- A casualty is a unit killed: by an attack (its ``killed`` list), a ``unit_killed`` event, the
  status Dead set by hand, or an event of another kind whose ``outcome`` says ``killed``, as
  the campaign record reads the log when a battle is finished. A unit that gets the status
  Dead cleared (a correction) is no longer a casualty. Units that leave the table alive are not
  casualties. A kill counts for the attacker (the first participant of an attack), never for
  the victim itself.
- The report counts what the battle tracker counts: each event of the battle engine's kinds is
  replayed by the battle rules (``battle.rules.apply``), and one the rules refuse (a unit
  attacking itself, an action by a unit that is not ready, anything after the battle ended) is
  told with "Not counted: <why>", as the tracker marks it, and changes nothing: no casualty, no
  kill, no attack in the tally, no turn passed. A planned battle has not started: an event in
  its log (an imported file may hold one) is told as not counted.
- The dice are grouped by whose roll they are (stored with each die by newer versions): each
  attacker's Action Roll with its own dice (bonus and Benny dice included) and its own
  modifiers, the target's Bail or Parry under the reaction's own entry, the Damage (a Combined
  Attack's dice named by attacker) and the Armor roll. Each total is the dice shown plus the
  modifiers shown. An older log, whose dice do not say whose they are, is grouped from the
  reason stored with each die: "Action" (the Action die, a d4's bonus dice, a Benny on the
  roll), "Armor", "Damage" (bonus and Benny dice included), and a Bail's or Parry's die told on
  its own with what it was for. A flat part of Damage or Armor (the +1 of 1d6+1, the +2 of
  Body Armor) is what the stored total has beyond the dice and the listed modifiers.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypedDict

from brikdesk.domain.battle.events import (
    ActionSpent,
    ActionUse,
    AttackResolved,
    BattleFinished,
    Event,
    EventFormatError,
    StatusCleared,
    StatusSet,
    TurnEnded,
    UnitKilled,
    from_payload,
)
from brikdesk.domain.battle.model import BattleSetup, PlayerSetup, Status, UnitSetup
from brikdesk.domain.battle.rules import apply, initial_state
from brikdesk.domain.battle.text import describe
from brikdesk.domain.ids import BattleUnitId, PlayerId
from brikdesk.domain.rulesets import rules_for
from brikdesk.domain.statuses import BattleStatus, battle_status_text
from brikdesk.errors import UserError

#: What a roll line calls a natural 6 (2020's words; ``_in_edition_words`` renames it).
OVER_THE_TOP = "Over the Top"

READINGS: dict[str, str] = {
    "older_dice": "A file written before each die named its roller (export format 2) "
    "gives a Combined Attack's Action dice without their unit: each is printed on its own "
    "line with its description, never summed across the attackers.",
    "parry_order": "5.2 Parrying: a Parry is told after the Strike it answers, and a Strike "
    "Parried or Bailed out of counts as no hit in the summary.",
    "rounds": "Rounds and turns come from the End Turn events: round 1 starts with the first "
    "player of the turn order, each End Turn passes to the next player, and after "
    "the last player a new round begins. Responses are told in the turn they "
    "happened in.",
    "casualties": "A casualty is a unit killed (by an attack, a kill entered by hand or the "
    "status Dead); clearing Dead takes it off the list. Units that leave the "
    "table alive are not casualties. A kill counts for the attacker.",
    "not_counted": "The report counts what the battle tracker counts: an event the battle "
    "rules refuse (a unit attacking itself, an action after the battle ended) "
    'or any event of a battle that has not started is told as "Not counted" '
    "and changes nothing (no casualty, no kill, no attack, no turn).",
    "dice": "Each roll is printed with its own dice: every attacker's Action Roll (bonus and "
    "Benny dice with it) and its own modifiers, the Bail or Parry under the reaction, the "
    "Damage and the Armor; each total is the dice shown plus the modifiers shown. A flat part "
    "(the +1 of 1d6+1, Body Armor's +2) is what the total has beyond the dice and the "
    "modifiers.",
}


# ---------------------------------------------------------------------------------------------
# Inputs


@dataclass(frozen=True)
class ReportPlayer:
    """A player of the battle; give them in turn order."""

    player_id: PlayerId
    name: str
    colour: str = ""
    faction: str = ""


@dataclass(frozen=True)
class ReportUnit:
    """A mustered unit (``unit_id`` is its id in the battle, as events name it)."""

    unit_id: BattleUnitId
    player_id: PlayerId
    name: str


@dataclass(frozen=True)
class LoggedEvent:
    """One standing event of the log: ``(kind, actor, target, payload)`` as stored."""

    seq: int
    kind: str
    actor: BattleUnitId | None
    target: BattleUnitId | None
    payload: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BattleFacts:
    """The battle's name and circumstances. ``date`` is given by the caller (no clock here):
    the day it finished, or the day it was fought."""

    name: str
    campaign: str = ""
    status: BattleStatus = BattleStatus.FINISHED
    date: _dt.date | None = None
    notes: str = ""
    edition: str = ""


# ---------------------------------------------------------------------------------------------
# The report


class _Where(TypedDict):
    """Where in the battle an event was logged: the fields every ``ReportEntry`` starts with."""

    seq: int
    round: int
    player_id: PlayerId | None


@dataclass(frozen=True)
class ReportEntry:
    """One event told in plain words.

    ``headline``: what happened ("Crossbow Kate (Margo) attacks Cactus Pete (Tobias) with a
    Long-Ranged Weapon"); ``rolls``: one line per kind of roll ("Action Roll: d6 5, -1 = 4
    against Use 3: hit"); ``modifiers``: each with its value, what it changes, why and the rule;
    ``result``: the outcome ("Cactus Pete (Tobias) is killed."); ``note``: the table's own
    words, if any; ``deaths``: the units this event killed (battle unit ids).
    """

    seq: int
    round: int
    player_id: PlayerId | None
    kind: str
    headline: str
    rolls: tuple[str, ...] = ()
    modifiers: tuple[str, ...] = ()
    result: str = ""
    note: str = ""
    deaths: tuple[BattleUnitId, ...] = ()

    @property
    def is_attack(self) -> bool:
        return self.kind == "attack"


@dataclass(frozen=True)
class ReportTurn:
    """One player's turn within a round, with what happened in it (maybe nothing)."""

    round: int
    player_id: PlayerId | None
    player: str
    entries: tuple[ReportEntry, ...]
    current: bool = False  # the turn an unfinished battle is in

    @property
    def title(self) -> str:
        title = f"{self.player}'s turn" if self.player else "The first turn"
        return f"{title} (in progress)" if self.current else title


@dataclass(frozen=True)
class ReportRound:
    number: int
    turns: tuple[ReportTurn, ...]

    @property
    def entries(self) -> tuple[ReportEntry, ...]:
        return tuple(e for t in self.turns for e in t.entries)


@dataclass(frozen=True)
class CasualtyRow:
    """One player's line of the casualties table."""

    player_id: PlayerId
    player: str
    colour: str
    mustered: int
    lost: int
    kills: int
    fallen: tuple[str, ...]

    @property
    def standing(self) -> int:
        return self.mustered - self.lost


@dataclass(frozen=True)
class RoundCasualties:
    """Units each player lost in one round, in the order of ``BattleReport.players``."""

    round: int
    lost: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.lost)


@dataclass(frozen=True)
class AttackTally:
    attacks: int = 0
    hits: int = 0
    kills: int = 0
    over_the_top: int = 0
    critical_failures: int = 0

    @property
    def text(self) -> str:
        """``"5 attacks: 3 hits, 2 kills; 2 Over the Top, 1 critical failure"``."""
        if not self.attacks:
            return "no attacks"
        parts = [_plural(self.hits, "hit", "hits"), _plural(self.kills, "kill", "kills")]
        extra = []
        if self.over_the_top:
            extra.append(f"{self.over_the_top} Over the Top")
        if self.critical_failures:
            extra.append(_plural(self.critical_failures, "critical failure", "critical failures"))
        return (
            f"{_plural(self.attacks, 'attack', 'attacks')}: "
            + ", ".join(parts)
            + ("; " + ", ".join(extra) if extra else "")
        )


@dataclass(frozen=True)
class BattleReport:
    facts: BattleFacts
    players: tuple[ReportPlayer, ...]
    rounds: tuple[ReportRound, ...]
    casualties: tuple[CasualtyRow, ...]
    per_round: tuple[RoundCasualties, ...]
    result: str  # the note of the "battle is over" event, if any
    tally: AttackTally
    finished: bool
    #: Who won, as the organizer decided at End battle: ``"Margo won"``, ``"A draw"``; empty
    #: while the battle goes on or when no result was stored (a battle finished before results
    #: were kept).
    outcome: str = ""

    @property
    def title(self) -> str:
        return self.facts.name

    @property
    def sides_text(self) -> str:
        """``"Margo (Crimson Brickguard) vs Tobias (Blue Moon Posse)"``."""
        return " vs ".join(f"{p.name} ({p.faction})" if p.faction else p.name for p in self.players)

    @property
    def status_text(self) -> str:
        status = battle_status_text(self.facts.status)
        return f"{status} {self.facts.date.isoformat()}" if self.facts.date else status

    @property
    def entries(self) -> tuple[ReportEntry, ...]:
        return tuple(e for r in self.rounds for e in r.entries)

    @property
    def total_lost(self) -> int:
        return sum(r.lost for r in self.casualties)


# ---------------------------------------------------------------------------------------------
# Building it


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _with(name: str) -> str:
    """``"with a Heavy Weapon"``, ``"with an Explosive"``, ``"with Bare Hands"``."""
    if name.endswith("s") and not name.endswith("ss"):
        return f"with {name}"
    return f"with {'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _unit(value: Any) -> BattleUnitId | None:
    v = _int(value)
    return None if v is None else BattleUnitId(v)


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"-{-n}"


def _dice(payload: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The payload's dice that make sense (as the services check them), in order."""
    out = []
    raw = payload.get("dice", ())
    for d in raw if isinstance(raw, list | tuple) else ():
        if not isinstance(d, Mapping):
            continue
        sides, face = _int(d.get("sides")), _int(d.get("face"))
        if sides is None or face is None or not 1 <= face <= sides:
            continue
        out.append(
            {
                "sides": sides,
                "face": face,
                "role": str(d.get("role", "natural")),
                "why": str(d.get("why", "")),
                "roll": str(d.get("roll", "")),
                "owner": _unit(d.get("owner")),
            }
        )
    return out


def _whose_modifiers(payload: Mapping[str, Any]) -> list[tuple[int, str, str, BattleUnitId | None]]:
    """``(value, applies to, roll, owner)`` of each modifier (roll ``""`` when not said)."""
    out = []
    raw = payload.get("modifiers", ())
    for m in raw if isinstance(raw, list | tuple) else ():
        if not isinstance(m, Mapping) or (v := _int(m.get("value"))) is None:
            continue
        out.append((v, str(m.get("applies_to", "")), str(m.get("roll", "")), _unit(m.get("owner"))))
    return out


def _modifiers(payload: Mapping[str, Any]) -> list[tuple[int, str, str, str]]:
    out = []
    raw = payload.get("modifiers", ())
    for m in raw if isinstance(raw, list | tuple) else ():
        if not isinstance(m, Mapping) or _int(m.get("value")) is None:
            continue
        out.append(
            (
                m["value"],
                str(m.get("applies_to", "")),
                str(m.get("reason", "")),
                str(m.get("rule", "")),
            )
        )
    return out


def _group(why: str) -> str:
    if "'s Bail" in why or "'s Parry" in why or "knocked away" in why:
        return "other"  # a reaction's die (an older log): told with what it was for
    if "Action" in why:
        return "action"
    if "Armor" in why or "Armour" in why:
        return "armor"
    if "Damage" in why:
        return "damage"
    return "other"


def _faces(dice: list[dict[str, Any]]) -> str:
    """``"d6 6 + bonus d6 2 + Benny d6 3"``: every die with its size, its face and its role."""
    parts = []
    for d in dice:
        role = d["role"]
        prefix = "" if role == "natural" else f"{role} "
        whose = f" ({d['label']})" if d.get("label") else ""
        parts.append(f"{prefix}d{d['sides']} {d['face']}{whose}")
    return " + ".join(parts)


def _sum_line(
    label: str,
    dice: list[dict[str, Any]],
    mods: list[int],
    total: int | None,
    *,
    floor_zero: bool = False,
    keep_total: bool = False,
) -> str:
    """``"Damage: d6 3, +1, -1 = 3"``: the dice, the flat part, the modifiers and the total
    (``keep_total``: always say the total, even of one die and no modifier)."""
    if total is None:
        return f"{label}: {_faces(dice)}" if dice else label
    dice_sum = sum(d["face"] for d in dice)
    flat = total - dice_sum - sum(mods)
    if floor_zero and total == 0 and flat < 0:
        flat = 0  # a total below 0 counts as 0: the stored total hides the flat part
    if not dice:
        return (
            f"{label} {flat}, {', '.join(_signed(m) for m in mods)} = {total}"
            if mods
            else f"{label} {total}"
        )
    bits = ([_signed(flat)] if flat else []) + [_signed(m) for m in mods]
    text = f"{label}: {_faces(dice)}"
    if not bits and len(dice) == 1 and not keep_total:
        return text
    return text + (", " + ", ".join(bits) if bits else "") + f" = {total}"


def _of_several_units(dice: list[dict[str, Any]]) -> bool:
    """Whether Action dice without an owner are of several units: more than one natural die,
    their descriptions naming different rollers ("Action die for Will Scarlet's sword")."""
    naturals = [d for d in dice if d["role"] == "natural" and d["owner"] is None]
    return len(naturals) > 1 and len({d["why"] for d in naturals}) > 1


def _attack_rolls(payload: Mapping[str, Any]) -> tuple[tuple[str, ...], bool, bool]:
    """(roll lines, Over the Top, critical failure)."""
    outcome = payload.get("outcome", {})
    outcome = outcome if isinstance(outcome, Mapping) else {}
    dice = _dice(payload)
    mods = _modifiers(payload)
    groups: dict[str, list[dict[str, Any]]] = {"action": [], "damage": [], "armor": [], "other": []}
    for d in dice:
        groups[_group(d["why"])].append(d)
    action_mods = [m[0] for m in mods if m[1] == "Action Roll"]
    damage_mods = [m[0] for m in mods if m[1] == "Damage"]
    armor_mods = [m[0] for m in mods if m[1] == "Armor"]
    lines = []
    ott = outcome.get("over_the_top") is True
    crit = outcome.get("critical_failure") is True
    hit = outcome.get("hit")
    use = _int(outcome.get("use"))
    total = _int(outcome.get("action_total"))
    split = _of_several_units(groups["action"])
    if split:
        # An older file's Combined Attack: no owner on its dice, one per attacker. Each die
        # is told on its own line with its description, never summed across the units
        # (READINGS "older_dice").
        lines += [f"Action Roll: {_faces([d])} ({d['why']})" for d in groups["action"]]
        groups["action"] = []
        total = None
    if groups["action"] or total is not None or split:
        line = _sum_line("Action Roll", groups["action"], action_mods, total)
        if use is not None:
            line += f" against Use {use}"
        verdict = ""
        if crit:
            verdict = "a natural 1, critical failure"
        elif hit is True:
            verdict = "hit"
        elif hit is False:
            missed = _int(outcome.get("missed_by"))
            verdict = f"missed by {missed}" if missed else "miss"
        if verdict:
            line += f": {verdict}"
        if ott:
            line += f" ({OVER_THE_TOP}: a Benny)"
        lines.append(line)
    damage = _int(outcome.get("damage"))
    armor = _int(outcome.get("armor"))
    if groups["damage"] or damage is not None:
        line = _sum_line("Damage", groups["damage"], damage_mods, damage, floor_zero=True)
        if armor is not None:
            line += f" against Armor {armor}"
        lines.append(line)
    if groups["armor"]:
        lines.append(_sum_line("Armor roll", groups["armor"], armor_mods, armor))
    for d in groups["other"]:
        lines.append(f"{d['why'] or 'Die'}: {_faces([d])}")
    return tuple(lines), ott, crit


#: How the report names each roll of an attack (the ``roll`` of its dice).
_ROLL_LABELS = {
    "first": "Who Acts First",
    "bail": "Bail",
    "parry": "Parry roll",
    "knocked_away": "Parried item knocked away",
    "armor": "Armor roll",
}


def _warded_off(outcome: Mapping[str, Any]) -> bool:
    """Whether the target dodged the attack that rolled a hit: Bailed out of it, or Parried it
    (READINGS "parry_order")."""
    rolls = outcome.get("rolls")
    parried = isinstance(rolls, list) and any(
        isinstance(r, Mapping) and r.get("roll") == "parry" and r.get("success") is True
        for r in rolls
    )
    return parried or bool(outcome.get("avoided"))


def _owned(payload: Mapping[str, Any]) -> bool:
    """Whether the attack's dice say whose roll each is (newer versions record it)."""
    dice = _dice(payload)
    return bool(dice) and all(d["roll"] for d in dice)


@dataclass(frozen=True)
class _Rolls:
    """An attack's roll lines, split into the attack's own and its target's reaction's."""

    attack: tuple[str, ...]
    reaction: tuple[str, ...]
    ott: bool
    crit: bool


def _verdict(entry: Mapping[str, Any]) -> str:
    if entry.get("critical_failure") is True:
        return "a natural 1, critical failure"
    if entry.get("hit") is True:
        return "hit"
    if entry.get("hit") is False:
        missed = _int(entry.get("missed_by"))
        return f"missed by {missed}" if missed else "miss"
    return ""


_Key = tuple[str, BattleUnitId | None]


def _owned_rolls(payload: Mapping[str, Any], name: Callable[[BattleUnitId | None], str]) -> _Rolls:
    """Each roll of an attack whose dice say whose they are, with exactly its own dice and
    its own modifiers: every attacker's Action Roll, the target's Bail or Parry (for the
    reaction's entry), the Damage against the Armor."""
    outcome = payload.get("outcome", {})
    outcome = outcome if isinstance(outcome, Mapping) else {}
    raw = outcome.get("rolls", ())
    totals: dict[_Key, Mapping[str, Any]] = {}
    for r in raw if isinstance(raw, list | tuple) else ():
        if isinstance(r, Mapping):
            totals[(str(r.get("roll", "")), _unit(r.get("owner")))] = r
    groups: dict[_Key, list[dict[str, Any]]] = {}
    for d in _dice(payload):
        groups.setdefault((d["roll"], d["owner"] if d["roll"] != "damage" else None), []).append(d)
    for key in totals:  # an Automatic Hit rolls no dice but has its line
        groups.setdefault(key, [])
    if _int(outcome.get("damage")) is not None:  # Damage with no dice (Deflection took them)
        groups.setdefault(("damage", None), [])
    mods = _whose_modifiers(payload)
    attack: list[str] = []
    reaction: list[str] = []
    for (kind, owner), dice in groups.items():
        entry = totals.get((kind, owner), {})
        if kind == "action":
            attack.append(_roll_line(kind, dice, entry, mods, owner, name))
        elif kind in ("bail", "parry"):
            reaction.append(_roll_line(kind, dice, entry, mods, owner, name))
        elif kind == "damage":
            attack.append(_damage_line(outcome, _named_dice(dice, name), mods))
        elif kind == "armor":
            armor = [v for v, applies, _k, _o in mods if applies == "Armor"]
            who = f" ({name(owner)})" if owner is not None else ""
            attack.append(_sum_line(f"Armor roll{who}", dice, armor, _int(outcome.get("armor"))))
        elif kind in _ROLL_LABELS:
            who = f" ({name(owner)})" if owner is not None else ""
            line = f"{_ROLL_LABELS[kind]}{who}: {_faces(dice)}"
            (reaction if kind == "knocked_away" else attack).append(line)
        else:
            attack.extend(f"{d['why'] or 'Die'}: {_faces([d])}" for d in dice)
    rolled = [r for (k, _o), r in totals.items() if k == "action"]
    ott = any(r.get("over_the_top") is True for r in rolled)
    crit = any(r.get("critical_failure") is True for r in rolled)
    return _Rolls(tuple(attack), tuple(reaction), ott, crit)


def _own_mods(
    mods: list[tuple[int, str, str, BattleUnitId | None]],
    kind: str,
    owner: BattleUnitId | None,
) -> list[int]:
    return [v for v, applies, k, o in mods if k == kind and o == owner and applies == "Action Roll"]


def _roll_line(
    kind: str,
    dice: list[dict[str, Any]],
    entry: Mapping[str, Any],
    mods: list[tuple[int, str, str, BattleUnitId | None]],
    owner: BattleUnitId | None,
    name: Callable[[BattleUnitId | None], str],
) -> str:
    """One roll with its own dice and modifiers: ``"Action Roll (Archer 2): d6 5, -2 = 3
    against Use 3: hit"``, ``"Parry roll (Brute 2): d6 3, +1 = 4 against Use 2: success"``,
    ``"Bail (Grunt 1): d6 1 = 1: a natural 1, fails"``."""
    auto = entry.get("automatic_hit")
    if isinstance(auto, str) and not dice:
        return f"{name(owner)}: {auto}"
    label = f"{_ROLL_LABELS.get(kind, 'Action Roll')} ({name(owner)})"
    line = _sum_line(
        label, dice, _own_mods(mods, kind, owner), _int(entry.get("total")), keep_total=True
    )
    if (use := _int(entry.get("use"))) is not None:
        line += f" against Use {use}"
    if kind == "action":
        verdict = _verdict(entry)
    elif entry.get("critical_failure") is True:
        verdict = "a natural 1, fails"
    else:
        success = entry.get("success")
        verdict = "success" if success is True else "fails" if success is False else ""
    if verdict:
        line += f": {verdict}"
    if entry.get("over_the_top") is True:
        line += f" ({OVER_THE_TOP}: a Benny)"
    return line


def _damage_line(
    outcome: Mapping[str, Any],
    dice: list[dict[str, Any]],
    mods: list[tuple[int, str, str, BattleUnitId | None]],
) -> str:
    own = [v for v, applies, _k, _o in mods if applies == "Damage"]
    line = _sum_line("Damage", dice, own, _int(outcome.get("damage")), floor_zero=True)
    if (armor := _int(outcome.get("armor"))) is not None:
        line += f" against Armor {armor}"
    return line


def _named_dice(
    dice: list[dict[str, Any]], name: Callable[[BattleUnitId | None], str]
) -> list[dict[str, Any]]:
    """The Damage dice of a Combined Attack each named with its attacker's name."""
    owners = {d["owner"] for d in dice}
    if len(owners) <= 1:
        return dice
    return [dict(d, label=name(d["owner"])) for d in dice]


def _modifier_lines(payload: Mapping[str, Any]) -> tuple[str, ...]:
    """``"-1 Action Roll: 1 inch beyond Range (5.1 Out of Range)"``."""
    out = []
    for value, applies, reason, rule in _modifiers(payload):
        text = f"{_signed(value)} {applies}".rstrip()
        if reason:
            text += f": {reason}"
        if rule:
            text += f" ({rule})"
        out.append(text)
    return tuple(out)


def _owned_modifier_lines(
    payload: Mapping[str, Any], name: Callable[[BattleUnitId | None], str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The modifier lines of an attack whose modifiers say whose roll they change: (the
    attack's, the reaction's); ``"-1 Action Roll (Archer 2): 1 inch beyond Range (5.1)"``."""
    attack: list[str] = []
    reaction: list[str] = []
    raw = payload.get("modifiers", ())
    for m in raw if isinstance(raw, list | tuple) else ():
        if not isinstance(m, Mapping) or (value := _int(m.get("value"))) is None:
            continue
        kind, owner = str(m.get("roll", "")), _unit(m.get("owner"))
        text = f"{_signed(value)} {m.get('applies_to', '')}".rstrip()
        if owner is not None:
            text += f" ({name(owner)})"
        if reason := str(m.get("reason", "")):
            text += f": {reason}"
        if rule := str(m.get("rule", "")):
            text += f" ({rule})"
        (reaction if kind in ("bail", "parry") else attack).append(text)
    return tuple(attack), tuple(reaction)


_MANEUVER_VERBS = {
    "strike": "strikes",
    "grab": "tries to Grab",
    "shove": "Shoves",
    "charge": "Charges",
    "attack": "attacks",
    "ranged attack": "shoots at",
    "thrown attack": "throws at",
}


def _verb(maneuver: str, together: bool) -> str:
    """``"shoots at"``; ``"shoot at"``, ``"strike"`` for several attackers."""
    verb = _MANEUVER_VERBS.get(maneuver, maneuver)
    if together and verb.endswith("s") and " " not in verb:
        return verb[:-1]
    if together and verb.endswith("s at"):
        return verb[:-4] + " at"
    return verb


def _names(labels: list[str]) -> str:
    if len(labels) <= 1:
        return "".join(labels)
    return ", ".join(labels[:-1]) + " and " + labels[-1]


class _Builder:
    def __init__(
        self, facts: BattleFacts, players: Sequence[ReportPlayer], units: Sequence[ReportUnit]
    ) -> None:
        self.facts = facts
        self.players = tuple(players)
        self.units = tuple(units)
        self.unit_player = {u.unit_id: u.player_id for u in self.units}
        self.setup = BattleSetup(
            tuple(PlayerSetup(p.player_id, p.name) for p in self.players),
            tuple(
                UnitSetup(u.unit_id, u.player_id, u.name)
                for u in self.units
                if u.player_id in {p.player_id for p in self.players}
            ),
        )
        self.order = [p.player_id for p in self.players]
        self.state = initial_state(self.setup) if self.setup.players else None
        self.round = 1
        self.active = 0  # index into order
        self.dead: dict[BattleUnitId, int] = {}  # unit id -> round it died
        self.killers: dict[BattleUnitId, BattleUnitId | None] = {}
        self.tally = {"attacks": 0, "hits": 0, "kills": 0, "ott": 0, "crit": 0}
        self.result = ""
        self.finished = False
        # (round, player index) -> entries, in the order turns were reached
        self.turns: dict[tuple[int, int], list[ReportEntry]] = {(1, 0): []}
        self.seen = 0  # events read
        self.names = {u.unit_id: u.name for u in self.units}
        # the entry of the Bail or Parry just told, by the reacting unit: its roll is in the
        # attack that follows and is printed under it
        self.reactions: dict[BattleUnitId, tuple[tuple[int, int], int]] = {}
        #: The entries of Parries (told after the Strike they answer).
        self.parries: set[tuple[tuple[int, int], int]] = set()

    def label(self, unit: BattleUnitId | None) -> str:
        return self.setup.label(unit)

    def name(self, unit: BattleUnitId | None) -> str:
        """A unit's own name, for the roll lines of an attack it is a side of."""
        if unit is None:
            return "?"
        return self.names.get(unit) or self.label(unit)

    # -- deaths -------------------------------------------------------------------------------

    def _kill(self, victim: Any, killer: BattleUnitId | None) -> BattleUnitId | None:
        v = _unit(victim)
        if v is None or v in self.dead:
            return None
        self.dead[v] = self.round
        self.killers[v] = killer if killer != v else None
        return v

    def _revive(self, unit: BattleUnitId | None) -> None:
        if unit is not None:
            self.dead.pop(unit, None)
            self.killers.pop(unit, None)

    # -- turns --------------------------------------------------------------------------------

    def _turn_ended(self, ev: TurnEnded) -> None:
        if ev.player in self.order:
            i = self.order.index(ev.player)
            self.round = max(ev.round, 1)
        else:
            i = self.active
        nxt = i + 1
        if nxt >= len(self.order):
            nxt = 0
            self.round += 1
        self.active = nxt
        self.turns.setdefault((self.round, self.active), [])

    # -- events -------------------------------------------------------------------------------

    def add(self, logged: LoggedEvent) -> None:
        self.seen += 1
        payload = logged.payload if isinstance(logged.payload, Mapping) else {}
        try:
            event: Event | None = from_payload(logged.kind, logged.actor, logged.target, payload)
        except (EventFormatError, UserError):
            event = None
        refused = self._refusal(event)
        if refused is not None:
            player = self.order[self.active] if self.order else None
            headline = (
                self._describe(event)
                if event is not None
                else str(payload.get("text", "") or "").strip()
                or logged.kind.replace("_", " ").capitalize()
            )
            self.turns.setdefault((self.round, self.active), []).append(
                ReportEntry(
                    seq=logged.seq,
                    round=self.round,
                    player_id=player,
                    kind="other",
                    headline=headline,
                    result=f"Not counted: {refused}",
                )
            )
            return
        if isinstance(event, TurnEnded):
            self.reactions.clear()
            self._turn_ended(event)
            return
        here = (self.round, self.active)
        parry = (
            self.reactions.get(event.target)
            if isinstance(event, AttackResolved) and event.target is not None
            else None
        )
        entry = self._entry(logged, event, payload)
        if entry is not None:
            where = self.turns.setdefault(here, [])
            where.append(entry)
            if parry is not None and parry in self.parries and parry[0] == here:
                # READINGS "parry_order": the Parry is told after the Strike it answers.
                where.append(where.pop(parry[1]))
                self.parries.discard(parry)
            if isinstance(event, ActionSpent) and event.how in (ActionUse.BAIL, ActionUse.PARRY):
                self.reactions[event.actor] = (here, len(where) - 1)
                if event.how is ActionUse.PARRY:
                    self.parries.add((here, len(where) - 1))
            elif not isinstance(event, StatusSet):
                self.reactions.clear()

    def _refusal(self, event: Event | None) -> str | None:
        """Why the tracker would not count this event (replaying it by the rules), or None;
        a counted event of the battle engine moves the replayed state on."""
        if self.facts.status == BattleStatus.PLANNED:
            return "the battle has not started"
        if event is None or self.state is None:
            return None  # another tool's kind: told from its own text and outcome
        try:
            self.state = apply(self.setup, self.state, event)
        except UserError as exc:
            return str(exc)
        return None

    def _entry(
        self, logged: LoggedEvent, event: Event | None, payload: Mapping[str, Any]
    ) -> ReportEntry | None:
        note = str(payload.get("text", "") or "").strip()
        player = self.order[self.active] if self.order else None
        base = _Where(seq=logged.seq, round=self.round, player_id=player)
        if isinstance(event, AttackResolved):
            return self._attack(event, payload, note, base)
        if isinstance(event, BattleFinished):
            self.finished = True
            self.result = event.note
            return ReportEntry(
                **base, kind="finish", headline="The battle is over", result=event.note
            )
        deaths: list[BattleUnitId] = []
        if isinstance(event, UnitKilled):
            if (v := self._kill(event.target, event.actor)) is not None:
                deaths.append(v)
        elif isinstance(event, StatusSet) and event.status is Status.DEAD:
            if (v := self._kill(event.actor, None)) is not None:
                deaths.append(v)
        elif isinstance(event, StatusCleared) and event.status is Status.DEAD:
            self._revive(event.actor)
        if event is not None:
            headline = self._describe(event)
            kind = {
                "unit_killed": "kill",
                "status_set": "status",
                "status_cleared": "status",
                "action_spent": "action",
                "counter_used": "action",
                "close_combat_attack": "action",
            }.get(event.kind, "other")
            if note == headline:
                note = ""
            return ReportEntry(
                **base, kind=kind, headline=headline, note=note, deaths=tuple(deaths)
            )
        return self._generic(logged, payload, note, base)

    def _describe(self, event: Event) -> str:
        try:
            return describe(self.setup, event)
        except (TypeError, KeyError, UserError):
            return event.kind.replace("_", " ")

    def _generic(
        self, logged: LoggedEvent, payload: Mapping[str, Any], note: str, base: _Where
    ) -> ReportEntry:
        """An event of a kind the battle engine does not know: its text and its outcome."""
        outcome = payload.get("outcome", {})
        outcome = outcome if isinstance(outcome, Mapping) else {}
        deaths = []
        result = ""
        if logged.target is not None and outcome.get("killed") is True:
            if (v := self._kill(logged.target, logged.actor)) is not None:
                deaths.append(v)
                result = f"{self.label(v)} is killed."
        elif logged.target is not None and outcome.get("wounded") is True:
            result = f"{self.label(logged.target)} is wounded."
        headline = note or logged.kind.replace("_", " ").capitalize()
        rolls: tuple[str, ...] = ()
        if _dice(payload):
            rolls = self._in_edition_words(_attack_rolls(payload)[0])
        return ReportEntry(
            **base,
            kind="other",
            headline=headline,
            rolls=rolls,
            modifiers=_modifier_lines(payload),
            result=result,
            deaths=tuple(deaths),
        )

    def _attack(
        self, e: AttackResolved, payload: Mapping[str, Any], note: str, base: _Where
    ) -> ReportEntry:
        who = []
        for p in e.participants:
            text = self.label(p.unit)
            if p.use.value == "response":
                text += " in response"
            elif p.use.value == "counter":
                text += " with a Counter"
            who.append(text)
        if not who:
            who = [self.label(e.actor)]
        together = len(who) > 1
        headline = f"{_names(who)} {_verb(e.maneuver, together)}"
        if e.target is not None:
            headline += f" {self.label(e.target)}"
        if together:
            headline += " together"
        if e.close_combat:
            headline += " in Close Combat"
        weapon = str(payload.get("weapon", "") or "").strip()
        if weapon:
            headline += f" {_with(weapon)}"
        rolls, modifiers, ott, crit = self._attack_lines(e, payload)
        deaths = [v for k in e.killed if (v := self._kill(k, e.actor)) is not None]
        effects = []
        for c in e.effects:
            ev: Event = (
                StatusSet(c.unit, c.status, c.with_ids)
                if c.on
                else StatusCleared(c.unit, c.status, c.with_ids)
            )
            effects.append(self._describe(ev))
        outcome = payload.get("outcome", {})
        outcome = outcome if isinstance(outcome, Mapping) else {}
        results = [f"{self.label(k)} is killed" for k in e.killed]
        results += effects
        damage, armor = _int(outcome.get("damage")), _int(outcome.get("armor"))
        if not results:
            if crit or outcome.get("hit") is False:
                pass  # the Action Roll's line says it: "missed by 1", "critical failure"
            elif damage is not None and armor is not None and damage <= armor:
                results.append(f"{damage} Damage does not beat Armor {armor}: no effect")
            else:
                results.append("No effect")
        self.tally["attacks"] += 1
        # A Strike Parried (or Bailed out of) did not hit the unit: it is no hit in the tally.
        self.tally["hits"] += outcome.get("hit") is True and not _warded_off(outcome)
        self.tally["kills"] += len(deaths)
        self.tally["ott"] += ott
        self.tally["crit"] += crit
        if note == headline:
            note = ""
        return ReportEntry(
            **base,
            kind="attack",
            headline=headline,
            rolls=rolls,
            modifiers=modifiers,
            result="; ".join(results) + "." if results else "",
            note=note,
            deaths=tuple(deaths),
        )

    def _attack_lines(
        self, e: AttackResolved, payload: Mapping[str, Any]
    ) -> tuple[tuple[str, ...], tuple[str, ...], bool, bool]:
        """(roll lines, modifier lines, Over the Top, critical failure) of an attack; the
        reaction's roll goes under the reaction's own entry."""
        if not _owned(payload):
            rolls, ott, crit = _attack_rolls(payload)
            return self._in_edition_words(rolls), _modifier_lines(payload), ott, crit
        owned = _owned_rolls(payload, self.name)
        modifiers, reaction_mods = _owned_modifier_lines(payload, self.name)
        rolls = self._in_edition_words(owned.attack)
        if owned.reaction or reaction_mods:
            rolls, modifiers = self._reaction_rolls(
                e.target, self._in_edition_words(owned.reaction), reaction_mods, rolls, modifiers
            )
        return rolls, modifiers, owned.ott, owned.crit

    def _in_edition_words(self, lines: Sequence[str]) -> tuple[str, ...]:
        """Roll lines naming a natural 6 as the battle's edition does (2010: Overskill)."""
        term = rules_for(self.facts.edition or None).over_the_top if self.facts.edition else ""
        if not term or term == OVER_THE_TOP:
            return tuple(lines)
        return tuple(
            line.replace(f"({OVER_THE_TOP}: a Benny)", f"({term}: a Benny)") for line in lines
        )

    def _reaction_rolls(
        self,
        target: BattleUnitId | None,
        rolls: tuple[str, ...],
        mods: tuple[str, ...],
        attack_rolls: tuple[str, ...],
        attack_mods: tuple[str, ...],
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Put the reaction's roll under the reaction's own entry (the Bail or Parry told just
        before); with no such entry, first among the attack's rolls. Returns the attack's."""
        at = self.reactions.pop(target, None) if target is not None else None
        if at is None:
            return rolls + attack_rolls, mods + attack_mods
        key, index = at
        entries = self.turns[key]
        old = entries[index]
        entries[index] = replace(old, rolls=old.rolls + rolls, modifiers=old.modifiers + mods)
        return attack_rolls, attack_mods

    # -- the result ---------------------------------------------------------------------------

    def report(self) -> BattleReport:
        rounds: list[ReportRound] = []
        by_round: dict[int, list[ReportTurn]] = {}
        going_on = not (self.finished or self.facts.status == BattleStatus.FINISHED)
        last = (self.round, self.active)
        turns = list(self.turns.items()) if self.seen else []  # nothing logged: no rounds
        if not going_on:  # a finished battle: no empty turns after its last event
            while len(turns) > 1 and not turns[-1][1]:
                turns.pop()
        for (rnd, idx), entries in turns:
            pid = self.order[idx] if self.order else None
            name = self.players[idx].name if self.players else ""
            by_round.setdefault(rnd, []).append(
                ReportTurn(rnd, pid, name, tuple(entries), going_on and (rnd, idx) == last)
            )
        for rnd in sorted(by_round):
            in_order = tuple(
                sorted(
                    by_round[rnd],
                    key=lambda t: self.order.index(t.player_id) if t.player_id in self.order else 0,
                )
            )
            rounds.append(ReportRound(rnd, in_order))
        last_round = max(by_round) if by_round else 0
        rows = []
        for p in self.players:
            mine = [u for u in self.units if u.player_id == p.player_id]
            names = {u.unit_id: u.name for u in mine}
            fallen = tuple(names[v] for v in self.dead if v in names)  # in the order they fell
            kills = sum(
                1
                for k in self.killers.values()
                if k is not None and self.unit_player.get(k) == p.player_id
            )
            rows.append(
                CasualtyRow(p.player_id, p.name, p.colour, len(mine), len(fallen), kills, fallen)
            )
        per_round = []
        for rnd in range(1, last_round + 1):
            lost = tuple(
                sum(
                    1
                    for u, r in self.dead.items()
                    if r == rnd and self.unit_player.get(u) == p.player_id
                )
                for p in self.players
            )
            per_round.append(RoundCasualties(rnd, lost))
        t = self.tally
        tally = AttackTally(t["attacks"], t["hits"], t["kills"], t["ott"], t["crit"])
        return BattleReport(
            self.facts,
            self.players,
            tuple(rounds),
            tuple(rows),
            tuple(per_round),
            self.result,
            tally,
            self.finished or self.facts.status == BattleStatus.FINISHED,
        )


def build_battle_report(
    facts: BattleFacts,
    players: Sequence[ReportPlayer],
    units: Sequence[ReportUnit],
    events: Sequence[LoggedEvent],
) -> BattleReport:
    """The report of one battle from its standing events (oldest first).

    ``players`` in turn order; ``units`` every mustered unit. Events the battle engine cannot
    read (another tool's kinds) are told with their own ``text`` and ``outcome``.
    """
    if not players:
        raise UserError("a battle report needs the battle's players", field="players")
    b = _Builder(facts, players, units)
    for e in sorted(events, key=lambda e: e.seq):
        b.add(e)
    return b.report()


# ---------------------------------------------------------------------------------------------
# Markdown

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|<>#~])")


def md_escape(text: str) -> str:
    """Text safe to put in Markdown (and in a table cell): markup characters escaped."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def bar(n: int) -> str:
    """A bar of ``n`` blocks for the text chart (at most 40, then the number says the rest)."""
    return "█" * min(n, 40)


def report_markdown(report: BattleReport) -> str:
    """The report as Markdown for a forum post: summary, casualties, a chart of casualties per
    round as a small text table, and the account round by round."""
    e = md_escape
    f = report.facts
    out = [f"# {e(f.name)}", ""]
    meta = [
        m
        for m in (
            f"*{e(f.campaign)}*" if f.campaign else "",
            e(f"BrikWars {f.edition}") if f.edition else "",
            e(report.status_text),
        )
        if m
    ]
    out += [" · ".join(meta), "", f"**{e(report.sides_text)}**", ""]
    if f.notes:
        out += [f"> {e(f.notes)}", ""]
    if report.outcome:
        out += [f"**Outcome:** {e(report.outcome)}", ""]
    if report.result:
        out += [f"**Result:** {e(report.result)}", ""]
    tally = e(report.tally.text)
    out += [f"{tally[:1].upper()}{tally[1:]}.", ""]

    out += [
        "## Casualties",
        "",
        "| Player | Mustered | Lost | Standing | Kills | Fallen |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for r in report.casualties:
        fallen = ", ".join(e(n) for n in r.fallen) or "-"
        out.append(
            f"| {e(r.player)} | {r.mustered} | {r.lost} | {r.standing} | {r.kills} | {fallen} |"
        )
    out.append("")
    out += ["### Casualties per round", ""]
    if report.per_round:
        heads = " | ".join(e(p.name) for p in report.players)
        out += [f"| Round | {heads} | Total |", "|---:|" + "---:|" * len(report.players) + "---|"]
        for rc in report.per_round:
            cells = " | ".join(str(n) for n in rc.lost)
            total = f"{bar(rc.total)} {rc.total}" if rc.total else "0"
            out.append(f"| {rc.round} | {cells} | {total} |")
    else:
        out.append("No rounds have been played yet.")
    out.append("")

    out += ["## The battle, round by round", ""]
    if not report.rounds:
        out += ["Nothing has happened yet.", ""]
    for rnd in report.rounds:
        out += [f"### Round {rnd.number}", ""]
        for turn in rnd.turns:
            out += [f"**{e(turn.title)}**", ""]
            if not turn.entries:
                out += ["Nothing was recorded in this turn.", ""]
                continue
            for n, entry in enumerate(turn.entries, 1):
                out += _md_entry(n, entry)
            out.append("")
    return "\n".join(out).rstrip() + "\n"


def _md_entry(n: int, entry: ReportEntry) -> list[str]:
    e = md_escape
    head = e(entry.headline)
    if entry.kind == "finish":
        line = f"{n}. **{head}**" + (f": {e(entry.result)}" if entry.result else ".")
        return [line]
    lines = [f"{n}. **{head}.**" if not head.endswith((".", "!", "?")) else f"{n}. **{head}**"]
    for roll in entry.rolls:
        lines.append(f"   - {e(roll)}")
    for mod in entry.modifiers:
        lines.append(f"   - Modifier {e(mod)}")
    if entry.result:
        result = e(entry.result)
        lines.append(f"   - **{result}**" if entry.deaths else f"   - {result}")
    if entry.note:
        lines.append(f"   - *{e(entry.note)}*")
    return lines


__all__ = [
    "READINGS",
    "AttackTally",
    "BattleFacts",
    "BattleReport",
    "CasualtyRow",
    "LoggedEvent",
    "ReportEntry",
    "ReportPlayer",
    "ReportRound",
    "ReportTurn",
    "ReportUnit",
    "RoundCasualties",
    "bar",
    "build_battle_report",
    "md_escape",
    "report_markdown",
]
