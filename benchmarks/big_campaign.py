"""A long campaign for benchmarks and screenshots: N finished battles over M units.

``build(url, battles=100, units=2000)`` writes the campaign through the importer (one
transaction: players, armies, units and the battles in progress with their logs of kills), then
ends every battle through ``AftermathService.finish`` as an organizer would (each battle's
proposal, with the suggested winner), so every battle has its stored result.
Run directly to make a database: ``python benchmarks/big_campaign.py FILE.sqlite3``.
"""

from __future__ import annotations

import json
import random
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

PLAYERS = (("Margo", "#c0392b"), ("Tobias", "#2e86c1"), ("Ines", "#27ae60"), ("Kofi", "#8e44ad"))
KINDS = (
    ("minifig", ["hand-weapon", "shield"]),
    ("minifig", ["long-ranged-weapon"]),
    ("hero", ["heavy-weapon"]),
    ("heavy", ["two-handed-weapon"]),
    ("skirmisher", ["short-ranged-weapon"]),
    ("cannon-fodder", ["minifig-tool"]),
)


def document(battles: int, units: int, seed: int = 7) -> dict[str, Any]:
    from brikdesk.services.transfer import FORMAT, VERSION

    rnd = random.Random(seed)
    start = datetime(2026, 1, 1, tzinfo=UTC)

    def t(x: datetime) -> str:
        return x.strftime("%Y-%m-%dT%H:%M:%S.%fZ")

    per = units // len(PLAYERS)
    armies, pool = [], {}
    uid = 0
    for i, _p in enumerate(PLAYERS):
        rows = []
        for _ in range(per):
            uid += 1
            kind, hands = KINDS[uid % len(KINDS)]
            rows.append(
                {
                    "id": uid,
                    "name": f"{PLAYERS[i][0]}'s trooper {uid:04d}",
                    "type": kind,
                    "overrides": {},
                    "hands": hands,
                    "worn": [],
                    "carried": [],
                    "notes": "",
                    "status": "alive",
                    "battles_fought": 0,
                    "kills": 0,
                }
            )
            pool.setdefault(i + 1, []).append(uid)
        armies.append(
            {
                "id": i + 1,
                "player": i + 1,
                "name": f"{PLAYERS[i][0]}'s Legion",
                "budget": per * 6,
                "units": rows,
            }
        )
    fallen: set[int] = set()
    out_battles = []
    when = start
    for b in range(battles):
        a, c = rnd.sample(range(1, len(PLAYERS) + 1), 2)
        bunits = []
        for p in (a, c):
            alive = [u for u in pool[p] if u not in fallen]
            for u in rnd.sample(alive, min(10, len(alive))):
                bunits.append(
                    {
                        "id": len(bunits) + 1,
                        "player": p,
                        "unit": u,
                        "name": f"{PLAYERS[p - 1][0]}'s trooper {u:04d}",
                        "spec": {
                            "type": KINDS[u % len(KINDS)][0],
                            "overrides": {},
                            "hands": KINDS[u % len(KINDS)][1],
                            "worn": [],
                            "carried": [],
                            "notes": "",
                            "army": "",
                        },
                    }
                )
        events = []
        dead: set[int] = set()
        for _ in range(rnd.randint(0, 7)):
            killer, victim = rnd.sample(bunits, 2)
            if killer["player"] == victim["player"] or victim["id"] in dead or killer["id"] in dead:
                continue
            dead.add(victim["id"])
            fallen.add(victim["unit"])
            when += timedelta(minutes=3)
            events.append(
                {
                    "seq": len(events) + 1,
                    "kind": "unit_killed",
                    "actor": killer["id"],
                    "target": victim["id"],
                    "payload": {"cause": ""},
                    "created_at": t(when),
                    "reverted": False,
                }
            )
        when += timedelta(days=3)
        out_battles.append(
            {
                "id": b + 1,
                "name": f"Battle {b + 1:03d} of the long war",
                "status": "in_progress",
                "created_at": t(when),
                "finished_at": None,
                "notes": "",
                "players": [{"player": a, "turn_order": 0}, {"player": c, "turn_order": 1}],
                "units": bunits,
                "events": events,
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "campaign": {
            "name": "The Long War",
            "edition": "2020",
            "cost_system": "CP",
            "default_budget": per * 6,
            "notes": "",
            "created_at": t(start),
            "updated_at": t(when),
        },
        "players": [
            {"id": i + 1, "name": n, "colour": c, "faction": ""} for i, (n, c) in enumerate(PLAYERS)
        ],
        "armies": armies,
        "catalog": {"items": [], "unit_types": []},
        "battles": out_battles,
    }


def build(url: str, battles: int = 100, units: int = 2000) -> int:
    """Write the campaign into the database at ``url``; returns the campaign id."""
    from brikdesk.persistence.db import open_database
    from brikdesk.services import Services

    db = open_database(url)
    try:
        sv = Services.open(db)
        c = sv.transfer.import_campaign(
            json.dumps(document(battles, units)), source="the benchmark"
        ).value
        for b in sv.battles.list_battles(c.id):
            am = sv.aftermath.aftermath(b.id)
            sv.aftermath.finish(b.id, am.proposal)
        return c.id
    finally:
        db.close()


if __name__ == "__main__":
    print(build(f"sqlite:///{sys.argv[1]}", *(int(a) for a in sys.argv[2:4])))
