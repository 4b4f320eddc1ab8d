"""A campaign's history: the timeline of its finished battles, standings, series and leaders.

Pure functions over plain records (``brikdesk.services.history`` reads them in one
transaction). Readings (also in Help > Rules reference, ``READINGS``):

- a battle counts once it is finished; its casualties and kills are its result's (the
  organizer's word, ``brikdesk.domain.aftermath``);
- army value is the cost of the army's living units (alive or wounded) as they stand now;
- the series over battles are what each army was: finishing a battle stores, for each army
  that fought, its value, units alive, casualties and kills going in and coming out
  (``ArmyRecord``); "Start" is the army going into its first battle, a point after a battle
  the army did not fight in is the point before. A battle finished before BrikDesk kept these
  is rebuilt from the mustered units (each unit's cost as mustered, and after its promotion)
  and the stored result: a unit counts from the start and leaves the count in the battle
  where it fell, one brought back counts again from the next battle it fought in; a point
  that counts a unit never mustered (its cost is today's) is marked approximate. An army
  that has not fought yet is, at every point, the army as it stands (its living units), which
  is exact: it is still before its first battle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from brikdesk.domain.aftermath import BattleResult
from brikdesk.domain.ids import ArmyId, BattleId, BattleUnitId, CampaignId, PlayerId, UnitId
from brikdesk.domain.statuses import UnitStatus

READINGS: dict[str, str] = {
    "standings": (
        "Standings count finished battles only: won (the organizer's winner), drawn (no "
        "winner) or lost. Army value is the cost of the living units (alive or wounded) as "
        "they stand now, against the sum of the armies' budgets; casualties are the player's "
        "units that fell in finished battles, kills the kills their units scored."
    ),
    "series": (
        "The charts over battles show what each army was: finishing a battle stores each "
        "army's value, units alive, casualties and kills going in and coming out, and Start "
        "is the army going into its first battle. A battle finished before BrikDesk kept "
        "these is rebuilt from the mustered units (their cost as mustered and after a "
        "promotion) and the stored result; a point that counts a unit never mustered (at "
        "today's cost) is marked approximate. An army that has not fought yet is shown as it "
        "stands (its living units) at every point: it is still before its first battle."
    ),
}


#: Why a point of a series is approximate, as the printed and exported reports say it (after
#: "a number" or "approximate:").
APPROXIMATE = (
    "rebuilt for a battle finished before BrikDesk stored each army's numbers, counting a "
    "unit never mustered at today's cost."
)


@dataclass(frozen=True)
class RecordUnit:
    """A mustered unit of a finished battle. ``id``: the battle unit; ``campaign_unit_id``
    ``None`` once deleted from the campaign."""

    id: BattleUnitId
    name: str
    player_id: PlayerId
    campaign_unit_id: UnitId | None
    #: Its cost as mustered, and after the battle (a promotion changes it); None: unknown.
    cost_in: int | None = None
    cost_out: int | None = None


@dataclass(frozen=True)
class ArmyRecord:
    """What an army was going into a finished battle (``*_in``) and coming out (``*_out``):
    the cost of its living units, how many, its casualties and kills so far."""

    army_id: ArmyId
    value_in: int
    value_out: int
    alive_in: int
    alive_out: int
    casualties_in: int
    casualties_out: int
    kills_in: int
    kills_out: int


@dataclass(frozen=True)
class BattleRecord:
    """A finished battle as the history reads it (``players``: (id, name) in turn order)."""

    id: BattleId
    name: str
    finished_at: datetime | None
    players: tuple[tuple[PlayerId, str], ...]
    units: tuple[RecordUnit, ...]
    result: BattleResult
    #: Each army's numbers stored when the battle was finished (none in battles finished by older
    #: versions).
    armies: tuple[ArmyRecord, ...] = ()


@dataclass(frozen=True)
class PoolUnit:
    id: UnitId
    name: str
    army_id: ArmyId
    status: str
    cost: int


@dataclass(frozen=True)
class ArmyInfo:
    id: ArmyId
    name: str
    player_id: PlayerId
    budget: int | None


@dataclass(frozen=True)
class PlayerInfo:
    id: PlayerId
    name: str
    colour: str


@dataclass(frozen=True)
class TopUnit:
    name: str
    player: str
    kills: int


@dataclass(frozen=True)
class TimelineEntry:
    battle_id: BattleId
    name: str
    date: datetime | None
    sides: tuple[str, ...]
    winner: str | None  # None: a draw
    casualties: tuple[tuple[str, int], ...]  # (player, units that fell), in turn order
    top: TopUnit | None  # the unit with most kills (None: no kills)
    from_log: bool = False  # finished before BrikDesk kept results: read from its log
    notes: str = ""  # the notes typed when the battle was finished

    @property
    def winner_text(self) -> str:
        return self.winner if self.winner is not None else "draw"

    @property
    def casualties_text(self) -> str:
        return ", ".join(f"{p} {n}" for p, n in self.casualties)

    @property
    def top_text(self) -> str:
        if self.top is None:
            return "-"
        return f"{self.top.name} ({self.top.player}, {self.top.kills})"


@dataclass(frozen=True)
class BattleInProgress:
    """A battle being fought: its round and its sides (in turn order)."""

    battle_id: BattleId
    name: str
    round: int
    sides: tuple[str, ...]

    @property
    def text(self) -> str:
        """``"Raid on Bilge Cove: round 2, Tobias vs Ines"``."""
        return f"{self.name}: round {self.round}, {' vs '.join(self.sides)}"


@dataclass(frozen=True)
class Standing:
    player_id: PlayerId
    name: str
    colour: str
    fought: int
    won: int
    drawn: int
    lost: int
    value: int
    budget: int | None
    alive: int
    casualties: int
    kills: int


@dataclass(frozen=True)
class ArmySeries:
    """One army over the battles: point 0 is the start, point ``i`` after battle ``i``."""

    army_id: ArmyId
    army: str
    player: str
    colour: str
    value: tuple[int, ...]
    alive: tuple[int, ...]
    casualties: tuple[int, ...]  # so far (cumulative)
    kills: tuple[int, ...]  # so far (cumulative)
    #: Per point: rebuilt from an older battle with a unit at today's cost (not stored).
    approximate: tuple[bool, ...] = ()

    @property
    def any_approximate(self) -> bool:
        return any(self.approximate)


@dataclass(frozen=True)
class Leader:
    name: str
    player: str
    kills: int
    battles: int
    status: str = ""


@dataclass(frozen=True)
class CampaignHistory:
    campaign_id: CampaignId
    campaign: str
    cost_unit: str
    timeline: tuple[TimelineEntry, ...]
    standings: tuple[Standing, ...]
    labels: tuple[str, ...]  # "Start", then the battles' names, for the series' points
    series: tuple[ArmySeries, ...]
    unit_leaders: tuple[Leader, ...]
    player_leaders: tuple[Leader, ...]
    in_progress: tuple[BattleInProgress, ...] = ()


def build_history(
    campaign_id: CampaignId,
    campaign: str,
    cost_unit: str,
    players: Sequence[PlayerInfo],
    armies: Sequence[ArmyInfo],
    units: Sequence[PoolUnit],
    battles: Sequence[BattleRecord],
    in_progress: Sequence[BattleInProgress] = (),
) -> CampaignHistory:
    """Everything the history shows; ``battles`` in the order they were finished,
    ``in_progress`` the battles being fought."""
    pname = {p.id: p.name for p in players}
    pcolour = {p.id: p.colour for p in players}
    army_of = {u.id: u.army_id for u in units}
    pool = {u.id: u for u in units}

    timeline = []
    won: dict[int, int] = {}
    drawn: dict[int, int] = {}
    fought: dict[int, int] = {}
    fallen: dict[int, int] = {}
    kills_by_player: dict[int, int] = {}
    # Per campaign unit (or, deleted, per battle unit): kills, battles, its name and player.
    leaders: dict[Any, list[Any]] = {}
    falls: dict[int, list[int]] = {}  # campaign unit -> battle indexes where it fell
    fights: dict[int, list[int]] = {}
    army_kills: dict[int, list[int]] = {}  # army -> kills per battle index
    army_falls: dict[int, list[int]] = {}
    n = len(battles)

    for i, b in enumerate(battles):
        owner = {u.id: u.player_id for u in b.units}
        kills = b.result.kills()
        dead = set(b.result.casualties())
        per_side = {pid: 0 for pid, _ in b.players}
        for u in b.units:
            key: Any = u.campaign_unit_id if u.campaign_unit_id is not None else ("b", b.id, u.id)
            entry = leaders.setdefault(key, [u.name, u.player_id, 0, 0])
            entry[2] += kills.get(u.id, 0)
            entry[3] += 1
            kills_by_player[u.player_id] = kills_by_player.get(u.player_id, 0) + kills.get(u.id, 0)
            if u.id in dead:
                per_side[u.player_id] = per_side.get(u.player_id, 0) + 1
                fallen[u.player_id] = fallen.get(u.player_id, 0) + 1
            cu = u.campaign_unit_id
            if cu is not None and cu in army_of:
                fights.setdefault(cu, []).append(i)
                army = army_of[cu]
                if u.id in dead:
                    falls.setdefault(cu, []).append(i)
                    army_falls.setdefault(army, [0] * n)[i] += 1
                army_kills.setdefault(army, [0] * n)[i] += kills.get(u.id, 0)
        for pid, _ in b.players:
            fought[pid] = fought.get(pid, 0) + 1
            if b.result.winner is None:
                drawn[pid] = drawn.get(pid, 0) + 1
            elif b.result.winner == pid:
                won[pid] = won.get(pid, 0) + 1
        top = None
        if kills:
            best = max(b.units, key=lambda u: (kills.get(u.id, 0), -u.id))
            top = TopUnit(best.name, pname.get(owner[best.id], "?"), kills[best.id])
        names = dict(b.players)
        timeline.append(
            TimelineEntry(
                b.id,
                b.name,
                b.finished_at,
                tuple(name for _, name in b.players),
                names.get(b.result.winner, pname.get(b.result.winner))
                if b.result.winner is not None
                else None,
                tuple((names[pid], per_side.get(pid, 0)) for pid, _ in b.players),
                top,
                b.result.from_log,
                b.result.notes,
            )
        )

    standings = []
    for p in players:
        mine = [a for a in armies if a.player_id == p.id]
        ids = {a.id for a in mine}
        living = [u for u in units if u.army_id in ids and u.status != UnitStatus.DEAD]
        budgets = [a.budget for a in mine if a.budget is not None]
        f = fought.get(p.id, 0)
        w, d = won.get(p.id, 0), drawn.get(p.id, 0)
        standings.append(
            Standing(
                p.id,
                p.name,
                p.colour,
                f,
                w,
                d,
                f - w - d,
                sum(u.cost for u in living),
                sum(budgets) if budgets else None,
                len(living),
                fallen.get(p.id, 0),
                kills_by_player.get(p.id, 0),
            )
        )
    standings.sort(key=lambda s: (-s.won, -(s.won * 2 + s.drawn), s.lost, -s.kills, s.name))

    musters = _musters(battles)
    series = []
    for a in armies:
        army_units = [pu for pu in units if pu.army_id == a.id]
        fought_in = sorted(
            {i for pu in army_units for i in fights.get(pu.id, ())}
            | {i for i, b in enumerate(battles) for r in b.armies if r.army_id == a.id}
        )
        rebuilt = _rebuilt(army_units, n, falls, fights, musters, army_falls, army_kills, a.id)
        stored = {i: r for i, b in enumerate(battles) for r in b.armies if r.army_id == a.id}
        if fought_in:
            points = _series_points(n, fought_in, stored, rebuilt)
        else:  # before its first battle: the army as it stands, nothing to rebuild
            living = [pu for pu in army_units if pu.status != UnitStatus.DEAD]
            points = [(sum(pu.cost for pu in living), len(living), 0, 0, False)] * (n + 1)
        series.append(
            ArmySeries(
                a.id,
                a.name,
                pname.get(a.player_id, "?"),
                pcolour.get(a.player_id, "#808080"),
                tuple(p[0] for p in points),
                tuple(p[1] for p in points),
                tuple(p[2] for p in points),
                tuple(p[3] for p in points),
                tuple(p[4] for p in points),
            )
        )

    unit_leaders = []
    for key, (name, pid, k, nb) in leaders.items():
        if k <= 0:
            continue
        known = pool.get(UnitId(key)) if isinstance(key, int) else None
        unit_leaders.append(
            Leader(
                known.name if known else name,
                pname.get(pid, "?"),
                k,
                nb,
                known.status if known else "deleted",
            )
        )
    unit_leaders.sort(key=lambda x: (-x.kills, x.battles, x.name))
    player_leaders = sorted(
        (Leader(s.name, s.name, s.kills, s.fought) for s in standings),
        key=lambda x: (-x.kills, x.name),
    )
    return CampaignHistory(
        campaign_id,
        campaign,
        cost_unit,
        tuple(timeline),
        tuple(standings),
        ("Start", *(b.name for b in battles)),
        tuple(series),
        tuple(unit_leaders),
        tuple(player_leaders),
        tuple(in_progress),
    )


_Point = tuple[int, int, int, int, bool]  # value, alive, casualties, kills, approximate


def _musters(battles: Sequence[BattleRecord]) -> dict[UnitId, list[tuple[int, int, int]]]:
    """Each campaign unit's musters: (battle index, cost going in, cost coming out)."""
    out: dict[UnitId, list[tuple[int, int, int]]] = {}
    for i, b in enumerate(battles):
        for u in b.units:
            if u.campaign_unit_id is not None and u.cost_in is not None:
                cost_out = u.cost_out if u.cost_out is not None else u.cost_in
                out.setdefault(u.campaign_unit_id, []).append((i, u.cost_in, cost_out))
    return out


def _cost_at(known: Sequence[tuple[int, int, int]], now: int, p: int) -> tuple[int, bool]:
    """A unit's cost at point ``p`` (0: the start, ``i + 1``: after battle ``i``) from its
    musters: as it came out of the last battle before, else as it went into the next; today's
    cost (approximate) when it was never mustered."""
    before = [m for m in known if m[0] < p]
    if before:
        return before[-1][2], False
    after = [m for m in known if m[0] >= p]
    if after:
        return after[0][1], False
    return now, True


def _rebuilt(
    army_units: Sequence[PoolUnit],
    n: int,
    falls: dict[int, list[int]],
    fights: dict[int, list[int]],
    musters: dict[UnitId, list[tuple[int, int, int]]],
    army_falls: dict[int, list[int]],
    army_kills: dict[int, list[int]],
    army: ArmyId,
) -> list[_Point]:
    """The army's points rebuilt from the mustered units and the stored results (for battles
    finished before each army's numbers were stored)."""
    casualties = _cumulative(army_falls.get(army, [0] * n))
    kills = _cumulative(army_kills.get(army, [0] * n))
    out = []
    for p in range(n + 1):
        value = alive = 0
        approximate = False
        for pu in army_units:
            if pu.id in falls and not _alive_at(falls[pu.id], fights.get(pu.id, ()), p - 1):
                continue
            cost, guessed = _cost_at(musters.get(pu.id, ()), pu.cost, p)
            value += cost
            alive += 1
            approximate = approximate or guessed
        out.append((value, alive, casualties[p], kills[p], approximate))
    return out


def _series_points(
    n: int, fought_in: Sequence[int], stored: dict[int, ArmyRecord], rebuilt: Sequence[_Point]
) -> list[_Point]:
    """Point 0 (Start) and one after each battle: what was stored when the army's battles
    were finished, the rebuilt numbers for older battles; after a battle it did not fight in,
    the army is as it was before."""
    first = fought_in[0] if fought_in else None
    if first is not None and first in stored:
        r = stored[first]
        points: list[_Point] = [(r.value_in, r.alive_in, r.casualties_in, r.kills_in, False)]
    else:
        points = [rebuilt[0]]
    fought = set(fought_in)
    for i in range(n):
        if i in stored:
            r = stored[i]
            points.append((r.value_out, r.alive_out, r.casualties_out, r.kills_out, False))
        elif i in fought:
            points.append(rebuilt[i + 1])
        else:
            points.append(points[-1])
    return points


def _alive_at(falls: Sequence[int], fights: Sequence[int], k: int) -> bool:
    """Standing after battle ``k`` (-1: at the start): no fall so far, or it fought again
    after its last fall (brought back)."""
    last = max((i for i in falls if i <= k), default=None)
    return last is None or any(last < j <= k for j in fights)


def _cumulative(values: Sequence[int]) -> tuple[int, ...]:
    out, total = [0], 0
    for v in values:
        total += v
        out.append(total)
    return tuple(out)


def history_to_json(h: CampaignHistory) -> dict[str, Any]:
    """The history as one JSON object (``brikdesk history --json``)."""

    def time(t: datetime | None) -> str | None:
        return t.isoformat() if t is not None else None

    return {
        "campaign": {"id": h.campaign_id, "name": h.campaign, "cost_unit": h.cost_unit},
        "timeline": [
            {
                "battle": e.battle_id,
                "name": e.name,
                "date": time(e.date),
                "sides": list(e.sides),
                "winner": e.winner,
                "casualties": {p: n for p, n in e.casualties},
                "top_unit": None
                if e.top is None
                else {"name": e.top.name, "player": e.top.player, "kills": e.top.kills},
                "read_from_log": e.from_log,
                "notes": e.notes,
            }
            for e in h.timeline
        ],
        "in_progress": [
            {"battle": b.battle_id, "name": b.name, "round": b.round, "sides": list(b.sides)}
            for b in h.in_progress
        ],
        "standings": [
            {
                "player": s.name,
                "fought": s.fought,
                "won": s.won,
                "drawn": s.drawn,
                "lost": s.lost,
                "value": s.value,
                "budget": s.budget,
                "units_alive": s.alive,
                "casualties": s.casualties,
                "kills": s.kills,
            }
            for s in h.standings
        ],
        "series": {
            "points": list(h.labels),
            "armies": [
                {
                    "army": s.army,
                    "player": s.player,
                    "value": list(s.value),
                    "units_alive": list(s.alive),
                    "casualties": list(s.casualties),
                    "kills": list(s.kills),
                    "approximate": list(s.approximate),
                }
                for s in h.series
            ],
        },
        "leaderboard": {
            "units": [
                {
                    "name": u.name,
                    "player": u.player,
                    "kills": u.kills,
                    "battles": u.battles,
                    "status": u.status,
                }
                for u in h.unit_leaders
            ],
            "players": [
                {"name": p.name, "kills": p.kills, "battles": p.battles} for p in h.player_leaders
            ],
        },
    }


def history_to_text(h: CampaignHistory, *, limit: int = 10) -> str:
    """The history as plain text (``brikdesk history``)."""
    cu = h.cost_unit
    out = [f"Campaign: {h.campaign}", "", "Standings"]
    rows: list[tuple[str, ...]] = [
        (
            "Player",
            "Fought",
            "Won",
            "Drawn",
            "Lost",
            f"Value ({cu})",
            "Budget",
            "Alive",
            "Casualties",
            "Kills",
        )
    ]
    rows += [standing_cells(s) for s in h.standings]
    out += _table(rows)
    out += ["", "Timeline"]
    if not h.timeline:
        out.append("  No finished battles yet.")
    rows = [("Date", "Battle", "Sides", "Winner", "Casualties", "Most kills")]
    for e in h.timeline:
        rows.append(
            (
                e.date.strftime("%Y-%m-%d") if e.date else "-",
                e.name + (" (from its log)" if e.from_log else ""),
                " vs ".join(e.sides),
                e.winner_text,
                e.casualties_text,
                e.top_text,
            )
        )
    if h.timeline:
        out += _table(rows)
    out += [f"  Notes of {e.name}: {e.notes}" for e in h.timeline if e.notes]
    if h.in_progress:
        out += ["", "Battles in progress"]
        out += [f"  {b.text}" for b in h.in_progress]
    out += ["", "Armies over the battles (start, then after each battle)"]
    for a in h.series:
        out.append(
            f"  {a.army} ({a.player}): value {_ends(a.value)} {cu}, units alive "
            f"{_ends(a.alive)}, casualties {a.casualties[-1]}, kills {a.kills[-1]}"
        )
    out += ["", "Leaderboard: units by kills"]
    if not h.unit_leaders:
        out.append("  No kills yet.")
    for i, u in enumerate(h.unit_leaders[:limit], 1):
        status = f", {u.status}" if u.status != UnitStatus.ALIVE else ""
        out.append(
            f"  {i:>2}. {u.name} ({u.player}{status}): {u.kills} kill"
            f"{'s' if u.kills != 1 else ''} in {u.battles} battle"
            f"{'s' if u.battles != 1 else ''}"
        )
    out += ["", "Leaderboard: players by kills"]
    for i, p in enumerate(h.player_leaders, 1):
        out.append(f"  {i:>2}. {p.name}: {p.kills}")
    return "\n".join(out)


def _ends(values: Sequence[int]) -> str:
    return f"{values[0]} → {values[-1]}" if len(values) > 1 else str(values[0])


def standing_cells(s: Standing) -> tuple[str, ...]:
    """A player's standings row as the text and Markdown reports print it: name, fought, won,
    drawn, lost, army value, budget ("-" for none), alive, casualties, kills."""
    return (
        s.name,
        str(s.fought),
        str(s.won),
        str(s.drawn),
        str(s.lost),
        str(s.value),
        "-" if s.budget is None else str(s.budget),
        str(s.alive),
        str(s.casualties),
        str(s.kills),
    )


def _table(rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  "
        + "  ".join(
            c.ljust(w) if i == 0 or not c.lstrip("-").isdigit() else c.rjust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in rows
    ]


def history_markdown(h: CampaignHistory) -> str:
    """The campaign report as Markdown (for a forum post): standings, timeline, each army's
    numbers over the battles and the leaderboard."""
    cu = h.cost_unit

    def row(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    def table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
        return [row(head), row(["---"] * len(head)), *(row(r) for r in rows)]

    def md(text: str) -> str:
        return " ".join(text.split()).replace("|", "\\|").replace("*", "\\*")

    out = [
        f"# {h.campaign}: campaign report",
        "",
        f"{len(h.timeline)} finished battle{'s' if len(h.timeline) != 1 else ''}.",
        "",
        "## Standings",
        "",
    ]
    out += table(
        (
            "Player",
            "Fought",
            "Won",
            "Drawn",
            "Lost",
            f"Value ({cu})",
            "Budget",
            "Alive",
            "Casualties",
            "Kills",
        ),
        [standing_cells(s) for s in h.standings],
    )
    out += ["", "## Timeline", ""]
    if h.timeline:
        out += table(
            ("#", "Date", "Battle", "Sides", "Winner", "Casualties", "Most kills"),
            [
                (
                    str(i),
                    e.date.strftime("%Y-%m-%d") if e.date else "-",
                    e.name + (" (from its log)" if e.from_log else ""),
                    " vs ".join(e.sides),
                    e.winner_text,
                    e.casualties_text,
                    e.top_text,
                )
                for i, e in enumerate(h.timeline, 1)
            ],
        )
    else:
        out.append("No finished battles yet.")
    noted = [(i, e) for i, e in enumerate(h.timeline, 1) if e.notes]
    if noted:
        out += ["", *(f"- **{i}. {md(e.name)}**: {md(e.notes)}" for i, e in noted)]
    if h.in_progress:
        out += ["", "## Battles in progress", ""]
        out += [f"- {md(b.text)}" for b in h.in_progress]
    out += [
        "",
        "## The armies over the battles",
        "",
        "Start, then after each battle (numbered as in the timeline).",
        "",
    ]
    if any(s.any_approximate for s in h.series):
        out += [
            f"≈ marks a number {APPROXIMATE}",
            "",
        ]
    for s in h.series:
        marks = s.approximate or (False,) * len(s.value)
        out += [
            f"**{s.army}** ({s.player})",
            "",
            f"- value ({cu}): "
            + ", ".join(("≈" if m else "") + str(v) for v, m in zip(s.value, marks, strict=True)),
            "- units alive: "
            + ", ".join(("≈" if m else "") + str(v) for v, m in zip(s.alive, marks, strict=True)),
            "- casualties so far: " + ", ".join(map(str, s.casualties)),
            "- kills so far: " + ", ".join(map(str, s.kills)),
            "",
        ]
    out += ["## Leaderboard: units by kills", ""]
    if h.unit_leaders:
        out += table(
            ("#", "Unit", "Player", "Kills", "Battles", "Status"),
            [
                (str(i), u.name, u.player, str(u.kills), str(u.battles), u.status)
                for i, u in enumerate(h.unit_leaders[:20], 1)
            ],
        )
    else:
        out.append("No kills yet.")
    return "\n".join(out) + "\n"
