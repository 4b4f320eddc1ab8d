"""After a battle: what happened to each mustered unit, who won, and what the campaign keeps.

Pure functions over plain values (no database, no clock). The services read the log and the
units, call these, and write the result in one transaction (``brikdesk.services.aftermath``).

- :func:`fates_from_events`: from the events that stand, who died and by whose hand, who was
  wounded (the log's word, which the organizer may overrule).
- :class:`UnitFate` and :class:`BattleResult`: the post-battle update as the organizer settles
  it; :meth:`BattleResult.kills` counts each unit's kills from who killed whom, so giving a kill
  to someone else is one change (the victim's ``killed_by``).
- :func:`suggest_winner`: who holds the field (see ``READINGS["holds_the_field"]``).
- :func:`result_to_json` / :func:`result_from_json`: the stored form (``battle.result``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from brikdesk.domain.ids import BattleUnitId, PlayerId
from brikdesk.domain.statuses import UnitStatus
from brikdesk.errors import UserError

#: A campaign unit's status after a battle (the campaign pool's statuses).
ALIVE, WOUNDED, DEAD = UnitStatus.ALIVE, UnitStatus.WOUNDED, UnitStatus.DEAD
FATE_STATUSES = tuple(UnitStatus)

#: How BrikDesk reads what the rules leave open; shown in Help > Rules reference.
READINGS: dict[str, str] = {
    "holds_the_field": (
        "Who won: BrikWars leaves a battle's objectives to the players (chapters 4 and 5 set "
        "no victory condition), so BrikDesk only suggests a winner and the organizer decides. "
        "The suggestion is who holds the field: the only player with units still standing "
        "(alive and on the table) at the end; when several have units standing, the one whose "
        "standing units are worth the most (their cost as mustered); a tie, or no one "
        "standing, is suggested as a draw."
    ),
    "fates_from_log": (
        "What the log says happened: a unit killed in the log is dead and its killer gets the "
        "kill (4.2 Actions, 5 Combat: a kill belongs to the unit whose attack destroyed the "
        "target; a unit never kills itself, and a unit set Dead by hand has no killer); a "
        "unit brought back by clearing Dead loses that death and its killer the kill; a "
        "wounded outcome (house-rule events) leaves the unit wounded. Disrupted and off the "
        "table at the end are shown, not kept: the campaign keeps alive, wounded or dead."
    ),
    "casualties": (
        "Casualties leave the campaign pool: a unit that falls is dead in the campaign and can "
        "no longer be mustered, but stays in its army's roster and in the history with the "
        "battle where it fell. The organizer may bring a dead unit back (a house rule); the "
        "battle where it fell still counts it."
    ),
    "promotion": (
        "Promotion between battles (a house rule, e.g. a Minifig who earned a Hero's place): "
        "the surviving unit changes unit type and keeps its name, loadout and record; its new "
        "cost counts against the army's budget, and going over the budget is a warning, never "
        "a refusal."
    ),
}


# -- the log's word --------------------------------------------------------------------------


@dataclass(frozen=True)
class Fates:
    """What the standing events say: ``killed_by`` maps every unit that ends the battle dead to
    its killer (``None``: no killer, e.g. set Dead by hand); ``wounded`` are the wounded that
    did not die."""

    killed_by: Mapping[BattleUnitId, BattleUnitId | None]
    wounded: frozenset[BattleUnitId]

    @property
    def dead(self) -> frozenset[BattleUnitId]:
        return frozenset(self.killed_by)

    def kills(self) -> dict[BattleUnitId, int]:
        return count_kills(self.killed_by)


def count_kills(killed_by: Mapping[BattleUnitId, BattleUnitId | None]) -> dict[BattleUnitId, int]:
    """Each killer's number of kills."""
    out: dict[BattleUnitId, int] = {}
    for victim, killer in killed_by.items():
        if killer is not None and killer != victim:
            out[killer] = out.get(killer, 0) + 1
    return out


def _unit_id(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _battle_unit(value: Any) -> BattleUnitId | None:
    v = _unit_id(value)
    return None if v is None else BattleUnitId(v)


def _player(value: Any) -> PlayerId | None:
    v = _unit_id(value)
    return None if v is None else PlayerId(v)


def fates_from_events(
    events: Iterable[tuple[str, BattleUnitId | None, BattleUnitId | None, Mapping[str, Any]]],
) -> Fates:
    """From (kind, actor, target, payload) of the events that stand, in order, who ends the
    battle dead (and by whom) and who wounded (``READINGS["fates_from_log"]``).

    The battle tracker's kinds: ``unit_killed`` (the target dies, by the actor),
    ``attack_resolved`` (every id in ``killed`` dies, by the actor), ``status_set`` /
    ``status_cleared`` with status ``dead`` (the actor dies with no killer / lives again);
    any other kind by its generic ``outcome``: ``killed`` (the target dies, by the actor) or
    ``wounded`` (the target is wounded).
    """
    # The battle domain is imported here, not at the top: the campaign's first screen reads
    # this module's results but never a log, and need not load the battle engine to show.
    from brikdesk.domain.battle.model import Status

    killed_by: dict[BattleUnitId, BattleUnitId | None] = {}
    wounded: set[BattleUnitId] = set()

    def die(victim: Any, killer: BattleUnitId | None) -> None:
        v = _battle_unit(victim)
        if v is None or v in killed_by:
            return
        killed_by[v] = killer if killer != v else None

    for kind, actor, target, payload in events:
        if not isinstance(payload, Mapping):
            continue
        if kind == "unit_killed":
            die(target, actor)
        elif kind == "attack_resolved":
            victims = payload.get("killed", [])
            for victim in victims if isinstance(victims, list) else ():
                die(victim, actor)
        elif kind in ("status_set", "status_cleared"):
            if payload.get("status") != Status.DEAD or actor is None:
                continue
            if kind == "status_set":
                die(actor, None)
            else:
                killed_by.pop(actor, None)
        else:
            outcome = payload.get("outcome", {})
            if not isinstance(outcome, Mapping) or target is None:
                continue
            if outcome.get("killed") is True:
                die(target, actor)
            elif outcome.get("wounded") is True:
                wounded.add(target)
    return Fates(killed_by, frozenset(wounded - set(killed_by)))


# -- the organizer's word --------------------------------------------------------------------


@dataclass(frozen=True)
class UnitFate:
    """One mustered unit after the battle. ``unit`` is the battle-unit id.

    ``status``: alive, wounded or dead (what the campaign keeps); ``killed_by``: the battle
    unit that killed it (dead units only; ``None``: no one); ``disrupted`` and ``out``: how it
    stood at the end (shown, not kept); ``promote_to``: a unit type key to promote a survivor
    to, or ``None``.
    """

    unit: BattleUnitId
    status: UnitStatus = ALIVE
    killed_by: BattleUnitId | None = None
    disrupted: bool = False
    out: bool = False
    promote_to: str | None = None

    @property
    def fell(self) -> bool:
        return self.status == DEAD

    @property
    def standing(self) -> bool:
        """Alive (or wounded) and on the table at the end: holds the field."""
        return self.status != DEAD and not self.out


@dataclass(frozen=True)
class BattleResult:
    """The post-battle update: every mustered unit's fate, the winner (a campaign player id,
    ``None`` for a draw) and the organizer's notes."""

    fates: tuple[UnitFate, ...]
    winner: PlayerId | None = None
    notes: str = ""
    from_log: bool = field(default=False, compare=False)  # read from an old battle's log

    @property
    def draw(self) -> bool:
        return self.winner is None

    def fate(self, unit: BattleUnitId) -> UnitFate:
        for f in self.fates:
            if f.unit == unit:
                return f
        raise UserError(f"battle unit {unit} is not in this battle")

    def kills(self) -> dict[BattleUnitId, int]:
        """Each battle unit's kills: the victims that name it as ``killed_by``."""
        return count_kills({f.unit: f.killed_by for f in self.fates if f.fell})

    def casualties(self) -> tuple[BattleUnitId, ...]:
        return tuple(f.unit for f in self.fates if f.fell)


def propose(
    units: Sequence[BattleUnitId],
    fates: Fates,
    *,
    disrupted: Iterable[BattleUnitId] = (),
    out: Iterable[BattleUnitId] = (),
    dead: Iterable[BattleUnitId] = (),
) -> tuple[UnitFate, ...]:
    """The log's word for each mustered unit (``units`` in order). ``disrupted`` / ``out``:
    units the tracker's state has Disrupted or off the table at the end; ``dead``: units the
    tracker's state has dead that no event names (kept dead, no killer)."""
    dis, off, also_dead = set(disrupted), set(out), set(dead)
    out_fates = []
    for u in units:
        if u in fates.killed_by or u in also_dead:
            out_fates.append(UnitFate(u, DEAD, fates.killed_by.get(u)))
        else:
            out_fates.append(
                UnitFate(u, WOUNDED if u in fates.wounded else ALIVE, None, u in dis, u in off)
            )
    return tuple(out_fates)


def check_result(
    result: BattleResult, units: Mapping[BattleUnitId, PlayerId], players: Iterable[PlayerId]
) -> BattleResult:
    """Refuse a result that does not fit the battle: ``units`` maps every battle unit to its
    player. Every unit once, statuses known, killers from this battle (never the victim),
    the winner one of the battle's players. A killer on a unit that did not die is dropped;
    so is a promotion of a unit that fell (with a message: promote survivors only)."""
    seen: set[BattleUnitId] = set()
    fixed = []
    for f in result.fates:
        if f.unit not in units:
            raise UserError(f"battle unit {f.unit} is not in this battle", field="units")
        if f.unit in seen:
            raise UserError(f"battle unit {f.unit} is listed twice", field="units")
        seen.add(f.unit)
        if f.status not in FATE_STATUSES:
            raise UserError(
                f"'{f.status}' is not a status; use " + ", ".join(FATE_STATUSES), field="status"
            )
        killer = f.killed_by if f.fell else None
        if killer is not None and (killer not in units or killer == f.unit):
            raise UserError(
                f"battle unit {killer} can't be the killer of battle unit {f.unit}",
                field="killed_by",
            )
        if f.promote_to is not None and f.fell:
            raise UserError("only a unit that survived can be promoted", field="promote_to")
        fixed.append(
            f
            if killer == f.killed_by
            else UnitFate(f.unit, f.status, killer, f.disrupted, f.out, f.promote_to)
        )
    missing = sorted(set(units) - seen)
    if missing:
        raise UserError(
            f"battle unit {missing[0]} has no fate; every mustered unit needs one", field="units"
        )
    if result.winner is not None and result.winner not in set(players):
        raise UserError(f"player {result.winner} did not play in this battle", field="winner")
    return BattleResult(tuple(fixed), result.winner, result.notes)


@dataclass(frozen=True)
class Suggestion:
    """A suggested winner (``None``: a draw) and why, in words."""

    winner: PlayerId | None
    reason: str


def suggest_winner(
    players: Sequence[tuple[PlayerId, str]],
    standing: Mapping[PlayerId, tuple[int, int]],
    cost_unit: str = "CP",
) -> Suggestion:
    """Who holds the field (``READINGS["holds_the_field"]``). ``players``: (id, name) in turn
    order; ``standing``: player id -> (units standing, their value)."""
    holding = [(pid, name, *standing.get(pid, (0, 0))) for pid, name in players]
    holding = [h for h in holding if h[2] > 0]
    if not holding:
        return Suggestion(None, "No one has units standing: a draw.")
    if len(holding) == 1:
        pid, name, n, _v = holding[0]
        return Suggestion(
            pid, f"{name} holds the field: the only player with units standing ({_units(n)})."
        )
    holding.sort(key=lambda h: (-h[3], -h[2]))
    parts = ", ".join(f"{name} {_units(n)} ({v} {cost_unit})" for _p, name, n, v in holding)
    if holding[0][3] == holding[1][3]:
        return Suggestion(
            None, f"Several players hold the field with the same value: {parts}. Suggested: a draw."
        )
    return Suggestion(
        holding[0][0], f"{holding[0][1]} holds the field with the most standing: {parts}."
    )


def _units(n: int) -> str:
    return f"{n} unit{'s' if n != 1 else ''} standing"


# -- the stored form -------------------------------------------------------------------------


def result_to_json(result: BattleResult) -> dict[str, Any]:
    return {
        "winner": result.winner,
        "notes": result.notes,
        "units": [
            {
                "unit": f.unit,
                "status": f.status,
                "killed_by": f.killed_by,
                "disrupted": f.disrupted,
                "out": f.out,
                "promote_to": f.promote_to,
            }
            for f in result.fates
        ],
    }


def result_from_json(data: Any) -> BattleResult | None:
    """A stored result, read leniently (entries that do not make sense are skipped); ``None``
    when there is none."""
    if not isinstance(data, Mapping):
        return None
    fates = []
    units = data.get("units")
    for u in units if isinstance(units, list) else ():
        if not isinstance(u, Mapping) or _unit_id(u.get("unit")) is None:
            continue
        status = u.get("status")
        promote = u.get("promote_to")
        fates.append(
            UnitFate(
                u["unit"],
                UnitStatus(status) if status in FATE_STATUSES else ALIVE,
                _battle_unit(u.get("killed_by")),
                u.get("disrupted") is True,
                u.get("out") is True,
                promote if isinstance(promote, str) else None,
            )
        )
    notes = data.get("notes")
    return BattleResult(
        tuple(fates), _player(data.get("winner")), notes if isinstance(notes, str) else ""
    )


def remap_result(
    data: Any, units: Mapping[int, int], players: Mapping[int, int], where: str = "result"
) -> dict[str, Any]:
    """A stored result (``result_to_json``'s shape) checked strictly and with its ids
    translated: battle units through ``units``, the winner through ``players`` (export and
    import). Anything that does not fit is a ``UserError`` naming its path (a file is refused
    whole)."""
    if not isinstance(data, Mapping):
        raise UserError(f"{where}: must be an object")
    unknown = set(data) - {"winner", "notes", "units"}
    if unknown:
        raise UserError(f"{where}: unknown field '{sorted(unknown)[0]}'")
    winner = data.get("winner")
    if winner is not None and (_unit_id(winner) is None or winner not in players):
        raise UserError(f"{where}.winner: {winner!r} is not a player of this battle")
    notes = data.get("notes", "")
    if not isinstance(notes, str):
        raise UserError(f"{where}.notes: must be text")
    rows = data.get("units")
    if not isinstance(rows, list):
        raise UserError(f"{where}.units: must be a list")
    out, seen = [], set()
    fields = {"unit", "status", "killed_by", "disrupted", "out", "promote_to"}
    for i, u in enumerate(rows):
        at = f"{where}.units[{i}]"
        if not isinstance(u, Mapping) or set(u) - fields:
            raise UserError(f"{at}: must be an object with the fields " + ", ".join(sorted(fields)))
        unit = _unit_id(u.get("unit"))
        if unit is None or unit not in units or unit in seen:
            raise UserError(f"{at}.unit: {u.get('unit')!r} is not a unit of this battle (or twice)")
        seen.add(unit)
        if u.get("status") not in FATE_STATUSES:
            raise UserError(
                f"{at}.status: {u.get('status')!r} is not one of " + ", ".join(FATE_STATUSES)
            )
        killer = u.get("killed_by")
        if killer is not None and (_unit_id(killer) is None or killer not in units):
            raise UserError(f"{at}.killed_by: {killer!r} is not a unit of this battle")
        promote = u.get("promote_to")
        if promote is not None and not isinstance(promote, str):
            raise UserError(f"{at}.promote_to: must be a unit type key or null")
        for flag in ("disrupted", "out"):
            if not isinstance(u.get(flag, False), bool):
                raise UserError(f"{at}.{flag}: must be true or false")
        out.append(
            {
                "unit": units[unit],
                "status": u["status"],
                "killed_by": units[killer] if killer is not None else None,
                "disrupted": u.get("disrupted", False),
                "out": u.get("out", False),
                "promote_to": promote,
            }
        )
    return {"winner": players[winner] if winner is not None else None, "notes": notes, "units": out}
