"""The demo campaign: what a new user sees on first start, and what ``brikdesk demo`` rebuilds.

Three players with colours and factions, an army each (9 to 11 units with real 2020 loadouts
and names with character; one army over its budget and two units with roster warnings, so the
warnings show), a finished battle (attacks with their dice and modifiers, an Over the Top with a
Benny, a critical failure, two deaths, turns ended) whose campaign record is written, and a
battle in progress (it is the second player's turn).

The dice are typed in, not random, so the story is the same every time, and every number is
rolled through the domain's dice code (``roll_action``, ``roll_expr``, ``roll_benny``). The
campaign is built as an export document (docs/campaign-format.md) and written by the importer
in one transaction, so a demo is either all there or not there at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from brikdesk.domain.aftermath import BattleResult, fates_from_events, propose, result_to_json
from brikdesk.domain.catalog import Catalog, load_default_catalog
from brikdesk.domain.dice import parse
from brikdesk.domain.ids import BattleUnitId, PlayerId
from brikdesk.domain.modifiers import Modifier, Stat
from brikdesk.domain.rolling import TypedDice, roll_action, roll_benny, roll_expr
from brikdesk.domain.roster import Loadout, UnitSpec, unit_cost
from brikdesk.domain.statuses import BattleStatus, UnitStatus
from brikdesk.persistence.db import Database
from brikdesk.services.common import Clock, utc_now
from brikdesk.services.events import dice_payload, modifiers_payload, record_from_events
from brikdesk.services.roster import overrides_from_json
from brikdesk.services.summaries import CampaignSummary
from brikdesk.services.transfer import FORMAT, VERSION, TransferService

DEMO_NAME = "Demo: Battle for Baseplate Valley"


@dataclass(frozen=True)
class _U:
    name: str
    type: str
    hands: tuple[str | None, ...] = ()
    worn: tuple[str, ...] = ()
    carried: tuple[str, ...] = ()
    notes: str = ""
    overrides: dict[str, Any] = field(default_factory=dict)


PLAYERS = (
    ("Margo", "#c0392b", "Crimson Brickguard"),
    ("Tobias", "#2e86c1", "Blue Moon Posse"),
    ("Ines", "#27ae60", "Salty Bilge Pirates"),
)

ARMIES: tuple[tuple[int, str, int, tuple[_U, ...]], ...] = (
    (
        0,
        "The Red Vanguard",
        80,
        (
            _U(
                "Sir Reginald Studsworth",
                "hero",
                ("heavy-weapon", "shield"),
                ("body-armor",),
                notes="Has never once lost his helmet. Claims it is glued on.",
            ),
            _U("Dame Clutchpower", "minifig", ("two-handed-weapon",), ("body-armor",)),
            _U(
                "Brother Axel of the Grey Plate",
                "heavy",
                ("hand-weapon", "heavy-shield"),
                ("heavy-armor", "body-armor"),
                notes="Wears two suits of armour 'just in case' (the roster warns about it).",
            ),
            _U("Pikeman Hobb", "minifig", ("two-handed-weapon",)),
            _U("Pikeman Nobb", "minifig", ("two-handed-weapon",)),
            _U("Crossbow Kate", "minifig", ("long-ranged-weapon",)),
            _U("Fletcher Wynn", "skirmisher", ("short-ranged-weapon",), (), ("hand-weapon",)),
            _U(
                "Old Gus the Powder Monk",
                "minifig",
                ("explosive", "explosive"),
                (),
                ("explosive",),
                notes="Keeps the fuses in his beard.",
            ),
            _U("Squire Tim Two-Bricks", "incompetent", ("minifig-tool",), (), ("random-object",)),
            _U("Thunderstud", "horse", (), ("body-armor",), notes="Sir Reginald's warhorse."),
            _U("Banner Guard Brickabella", "minifig", ("hand-weapon", "shield"), ("body-armor",)),
        ),
    ),
    (
        1,
        "Moonlight Posse",
        50,
        (
            _U(
                "Marshal Dusty Flatstud",
                "hero",
                ("short-ranged-weapon", "short-ranged-weapon"),
                (),
                ("hand-weapon",),
                notes="Twin pistols, one hat, no patience.",
            ),
            _U("Deputy Lulu Grayle", "minifig", ("long-ranged-weapon",)),
            _U('Rusty "Two-Studs" McGee', "minifig", ("short-ranged-weapon", "hand-weapon")),
            _U("Dynamite Dot", "minifig", ("explosive",), (), ("explosive", "explosive")),
            _U("Big Hank the Anvil", "heavy", ("heavy-weapon",), ("body-armor",)),
            _U("Clementine", "horse", notes="The sheriff's mule. Bites."),
            _U(
                "Cactus Pete",
                "cannon-fodder",
                ("random-object",),
                notes="Armed with whatever was lying around (a cactus).",
            ),
            _U("Slim Jim Sparks", "skirmisher", ("short-ranged-weapon",)),
            _U("Doc Holloway", "minifig", ("minifig-tool",), notes="Bone saw. Rarely sterilised."),
            _U("Tumbleweed Tess", "skirmisher", ("long-ranged-weapon",)),
        ),
    ),
    (
        2,
        "The Salty Bilge Crew",
        80,
        (
            _U(
                "Captain Peg-Leg Pennywhistle",
                "hero",
                ("hand-weapon", "short-ranged-weapon"),
                notes="Lost the leg to a shark, the eye to a parrot, the ship to a bet.",
            ),
            _U("First Mate Barnacle Bess", "minifig", ("hand-weapon", "hand-weapon")),
            _U("Cannonball Carl", "heavy", ("explosive",), (), ("explosive",)),
            _U(
                "Swabbie Nils",
                "incompetent",
                notes="Brought a mop. Left the mop. Has nothing (the roster warns about it).",
            ),
            _U("Swabbie Nels", "incompetent", ("random-object",), notes="Nils's cousin."),
            _U("Gunner Magda", "minifig", ("long-ranged-weapon",)),
            _U("Parrot-Eye Pim", "skirmisher", ("short-ranged-weapon",)),
            _U("Bosun Grogg", "minifig", ("two-handed-weapon",), ("body-armor",)),
            _U("Deckhand Dory", "cannon-fodder", ("hand-weapon",)),
        ),
    ),
)

OUT_OF_RANGE = "5.1 Out of Range"
TARGET_SIZE = "5.1 Target Size"


def _t(value: datetime) -> str:
    return value.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class _Story:
    """Builds one battle's units and events in export form."""

    def __init__(self, doc_units: dict[str, tuple[int, int, _U]], start: datetime) -> None:
        self.doc_units = doc_units  # name -> (export unit id, export player id, unit)
        self.units: list[dict[str, Any]] = []
        self.local: dict[str, int] = {}
        self.events: list[dict[str, Any]] = []
        self.time = start
        self.catalog = load_default_catalog("2020")

    def muster(self, *names: str) -> None:
        for name in names:
            uid, pid, u = self.doc_units[name]
            self.local[name] = len(self.units) + 1
            self.units.append(
                {
                    "id": self.local[name],
                    "player": pid,
                    "unit": uid,
                    "name": name,
                    "spec": {
                        "type": u.type,
                        "overrides": dict(u.overrides),
                        "hands": list(u.hands),
                        "worn": list(u.worn),
                        "carried": list(u.carried),
                        "notes": u.notes,
                        "army": "",
                    },
                }
            )

    def _event(
        self, kind: str, actor: str | None, target: str | None, payload: dict[str, Any]
    ) -> None:
        self.time += timedelta(minutes=4)
        self.events.append(
            {
                "seq": len(self.events) + 1,
                "kind": kind,
                "actor": self.local[actor] if actor else None,
                "target": self.local[target] if target else None,
                "payload": payload,
                "created_at": _t(self.time),
                "reverted": False,
            }
        )

    def turn_ended(self, player: int, name: str, rnd: int) -> None:
        self._event("turn_ended", None, None, {"player": player, "round": rnd})

    def attack(
        self,
        attacker: str,
        target: str,
        weapon: str,
        faces: list[int],
        *,
        mods: tuple[Modifier, ...] = (),
        armor: int | str,
        close_combat: bool = False,
        benny: bool = False,
        text: str,
    ) -> None:
        """One attack rolled with typed ``faces``: Action die, (Benny,) Damage, (Armor dice)."""
        a = self.doc_units[attacker][2]
        action_die = {"hero": 10, "incompetent": 4}.get(a.type, 6)
        item = self.catalog.item(weapon)
        dice = TypedDice(faces)
        action_mods = tuple(m for m in mods if m.applies_to is Stat.ACTION)
        damage_mods = tuple(m for m in mods if m.applies_to is Stat.DAMAGE)
        ar = roll_action(action_die, item.use, dice, action_mods, what=f"{item.name} attack")
        rolled = list(ar.dice)
        outcome: dict[str, Any] = {
            "hit": ar.success,
            "action_total": ar.total,
            "use": item.use,
            "critical_failure": ar.critical_failure,
            "over_the_top": ar.over_the_top,
            "killed": False,
        }
        killed: list[int] = []
        if ar.success:
            dmg = roll_expr(parse(item.damage), dice, action_die, what="Damage")
            rolled += dmg.dice
            total = dmg.total + sum(m.value for m in damage_mods)
            if benny:
                extra = roll_benny(dice, 6, what="one more Damage die")
                rolled += extra
                total += sum(d.face for d in extra)
            if isinstance(armor, str):
                base, _, bonus = armor.partition("+")
                arm = roll_expr(parse(base), dice, what="Armor")
                rolled += arm.dice
                armor_total = arm.total + int(bonus or 0)
            else:
                armor_total = armor
            outcome.update(damage=max(0, total), armor=armor_total, killed=total > armor_total)
            if total > armor_total:
                killed.append(self.local[target])
        else:
            outcome["missed_by"] = -ar.margin if not ar.critical_failure else None
        dice.check_all_used()
        payload = {
            "participants": [
                {"unit": self.local[attacker], "use": "action", "hands": item.hands or 1}
            ],
            "close_combat": close_combat,
            "maneuver": "strike" if close_combat else "attack",
            "effects": [],
            "killed": killed,
            "text": text,
            "weapon": item.name,
            "dice": dice_payload(rolled),
            "modifiers": modifiers_payload(mods),
            "outcome": outcome,
        }
        self._event("attack_resolved", attacker, target, payload)

    def finished(self, note: str) -> None:
        self._event("battle_finished", None, None, {"note": note})


FORD_NOTE = "Tobias's posse falls back across the ford; Margo holds Baseplate Ford."


def _army_records(
    armies: list[dict[str, Any]],
    local_to_unit: dict[int, int],
    result: BattleResult,
    catalog: Catalog,
) -> list[dict[str, Any]]:
    """Each army that fought the first battle, going in (every unit alive, nothing so far)
    and coming out (its fallen gone, its casualties and kills), as finishing it stores them
    (``brikdesk.services.army_records``)."""
    fell = {local_to_unit[f.unit] for f in result.fates if f.fell}
    kills = result.kills()
    kills_of = {local_to_unit[u]: k for u, k in kills.items()}
    out = []
    for a in armies:
        rows = a["units"]
        if not any(u["id"] in local_to_unit.values() for u in rows):
            continue
        costs = {
            u["id"]: unit_cost(
                UnitSpec(
                    u["name"],
                    u["type"],
                    Loadout(tuple(u["hands"]), tuple(u["worn"]), tuple(u["carried"])),
                    overrides_from_json(u["overrides"]),
                ),
                catalog,
            ).total
            for u in rows
        }
        lost = [u["id"] for u in rows if u["id"] in fell]
        out.append(
            {
                "army": a["id"],
                "name": a["name"],
                "value_in": sum(costs.values()),
                "value_out": sum(costs.values()) - sum(costs[u] for u in lost),
                "alive_in": len(rows),
                "alive_out": len(rows) - len(lost),
                "casualties_in": 0,
                "casualties_out": len(lost),
                "kills_in": 0,
                "kills_out": sum(kills_of.get(u["id"], 0) for u in rows),
            }
        )
    return out


def demo_document(now: datetime) -> dict[str, Any]:
    """The demo campaign as an export document (times relative to ``now``)."""
    start = now - timedelta(days=14)
    players = [
        {"id": i + 1, "name": n, "colour": c, "faction": f} for i, (n, c, f) in enumerate(PLAYERS)
    ]
    doc_units: dict[str, tuple[int, int, _U]] = {}
    armies: list[dict[str, Any]] = []
    uid = 0
    for aid, (player, name, budget, units) in enumerate(ARMIES):
        rows = []
        for u in units:
            uid += 1
            doc_units[u.name] = (uid, player + 1, u)
            rows.append(
                {
                    "id": uid,
                    "name": u.name,
                    "type": u.type,
                    "overrides": dict(u.overrides),
                    "hands": list(u.hands),
                    "worn": list(u.worn),
                    "carried": list(u.carried),
                    "notes": u.notes,
                    "status": UnitStatus.ALIVE,
                    "battles_fought": 0,
                    "kills": 0,
                }
            )
        armies.append(
            {"id": aid + 1, "player": player + 1, "name": name, "budget": budget, "units": rows}
        )

    # -- a finished battle: Margo against Tobias -------------------------------------------
    ford_start = now - timedelta(days=7)
    ford = _Story(doc_units, ford_start)
    ford.muster(
        "Sir Reginald Studsworth",
        "Pikeman Hobb",
        "Crossbow Kate",
        "Old Gus the Powder Monk",
        "Marshal Dusty Flatstud",
        "Deputy Lulu Grayle",
        'Rusty "Two-Studs" McGee',
        "Cactus Pete",
    )
    ford.attack(
        "Crossbow Kate",
        "Cactus Pete",
        "long-ranged-weapon",
        [5, 3],
        armor=0,
        mods=(
            Modifier(-1, Stat.ACTION, "1 inch beyond Range", OUT_OF_RANGE),
            Modifier(-1, Stat.DAMAGE, "1 inch beyond Range", OUT_OF_RANGE),
        ),
        text="Crossbow Kate shoots Cactus Pete from 11 inches: a hit, and the cactus "
        "goes down with him",
    )
    ford.turn_ended(1, "Margo", 1)
    ford.attack(
        'Rusty "Two-Studs" McGee',
        "Pikeman Hobb",
        "short-ranged-weapon",
        [3],
        armor=4,
        mods=(
            Modifier(
                -1, Stat.ACTION, "two of three sections visible behind the fence", TARGET_SIZE
            ),
        ),
        text="Rusty fires at Pikeman Hobb behind the fence and misses by 1",
    )
    ford.attack(
        "Marshal Dusty Flatstud",
        "Sir Reginald Studsworth",
        "short-ranged-weapon",
        [7, 6, 2, 3, 5, 4],
        armor="2d6+2",
        benny=True,
        text="Marshal Dusty goes Over the Top and spends the Benny on one more Damage "
        "die: 11 Damage, but Sir Reginald's armour rolls 11. Ka-ping!",
    )
    ford.turn_ended(2, "Tobias", 1)
    ford.attack(
        "Sir Reginald Studsworth",
        'Rusty "Two-Studs" McGee',
        "heavy-weapon",
        [4, 8],
        armor=4,
        close_combat=True,
        text="Sir Reginald strikes Rusty with his greatsword: 10 Damage against Armor 4",
    )
    ford.attack(
        "Old Gus the Powder Monk",
        "Deputy Lulu Grayle",
        "explosive",
        [1],
        armor=4,
        text="Old Gus lights the fuse and rolls a natural 1: the dynamite fizzles in his beard",
    )
    ford.turn_ended(1, "Margo", 2)
    ford.finished(FORD_NOTE)

    # The campaign record of the finished battle, as finishing it would write it.
    local_to_unit = {u["id"]: u["unit"] for u in ford.units}
    dead, wounded, kills = record_from_events(
        (e["kind"], e["actor"], e["target"], e["payload"]) for e in ford.events
    )
    by_id = {u["id"]: u for a in armies for u in a["units"]}
    for local, unit in local_to_unit.items():
        row = by_id[unit]
        row["battles_fought"] += 1
        row["kills"] += kills.get(local, 0)
        row["status"] = (
            UnitStatus.DEAD
            if local in dead
            else UnitStatus.WOUNDED
            if local in wounded
            else row["status"]
        )

    # ... and what finishing it stores: the result (the log's word, Margo the winner) and what
    # each army was going in and coming out, so the history is exact from the start.
    ford_result = BattleResult(
        propose(
            [BattleUnitId(u["id"]) for u in ford.units],
            fates_from_events(
                (e["kind"], e["actor"], e["target"], e["payload"]) for e in ford.events
            ),
        ),
        PlayerId(1),
        FORD_NOTE,
    )
    ford_records = _army_records(armies, local_to_unit, ford_result, ford.catalog)

    # -- a battle in progress: Tobias against Ines -------------------------------------------
    cove_start = now - timedelta(hours=3)
    cove = _Story(doc_units, cove_start)
    cove.muster(
        "Dynamite Dot",
        "Big Hank the Anvil",
        "Slim Jim Sparks",
        "Tumbleweed Tess",
        "Captain Peg-Leg Pennywhistle",
        "First Mate Barnacle Bess",
        "Gunner Magda",
        "Bosun Grogg",
        "Deckhand Dory",
    )
    cove.attack(
        "Dynamite Dot",
        "Deckhand Dory",
        "explosive",
        [4, 7],
        armor=0,
        text="Dynamite Dot lobs a stick onto the pier: Deckhand Dory is blown into the "
        "bay (Barnacle Bess, 3 inches away, is outside the blast)",
    )
    cove.attack(
        "Tumbleweed Tess",
        "Gunner Magda",
        "long-ranged-weapon",
        [2],
        armor=4,
        mods=(
            Modifier(
                -1, Stat.ACTION, "two of three sections visible behind the cannon", TARGET_SIZE
            ),
        ),
        text="Tumbleweed Tess fires at Gunner Magda behind the cannon and misses by 2",
    )
    cove.turn_ended(2, "Tobias", 1)
    cove.attack(
        "Gunner Magda",
        "Big Hank the Anvil",
        "long-ranged-weapon",
        [6, 4, 2],
        armor=7,
        benny=True,
        text="Gunner Magda goes Over the Top against Big Hank and adds a Benny die: 7 "
        "Damage against Armor 7. Ka-ping!",
    )

    battles: list[dict[str, Any]] = [
        {
            "id": 1,
            "name": "Skirmish at Baseplate Ford",
            "status": BattleStatus.FINISHED,
            "created_at": _t(ford_start),
            "finished_at": _t(ford.time + timedelta(minutes=10)),
            "notes": "The first clash of the campaign.",
            "players": [{"player": 1, "turn_order": 0}, {"player": 2, "turn_order": 1}],
            "units": ford.units,
            "events": ford.events,
            "result": result_to_json(ford_result),
            "armies": ford_records,
        },
        {
            "id": 2,
            "name": "Raid on Bilge Cove",
            "status": BattleStatus.IN_PROGRESS,
            "created_at": _t(cove_start),
            "finished_at": None,
            "notes": "Tobias's posse raids the pirates' harbour. It is Ines's turn.",
            "players": [{"player": 2, "turn_order": 0}, {"player": 3, "turn_order": 1}],
            "units": cove.units,
            "events": cove.events,
        },
    ]
    for b in battles:
        for u in b["units"]:
            army = next(a for a in armies if any(x["id"] == u["unit"] for x in a["units"]))
            u["spec"]["army"] = army["name"]
    return {
        "format": FORMAT,
        "version": VERSION,
        "campaign": {
            "name": DEMO_NAME,
            "edition": "2020",
            "cost_system": "CP",
            "default_budget": 80,
            "notes": (
                "A demo campaign to explore BrikDesk: three players, their armies, a "
                "finished battle and one in progress. Change anything you like: the "
                "command “brikdesk demo” (in a terminal) brings it back as it "
                "was."
            ),
            "created_at": _t(start),
            "updated_at": _t(now),
        },
        "players": players,
        "armies": armies,
        "catalog": {"items": [], "unit_types": []},
        "battles": battles,
    }


def create_demo(db: Database, *, replace: bool = True, clock: Clock = utc_now) -> CampaignSummary:
    """Write the demo campaign (replacing an existing one of the same name), one transaction."""
    import json

    doc = demo_document(clock())
    transfer = TransferService(db.sessions, clock)
    return transfer.import_campaign(json.dumps(doc), source="the demo", replace=replace).value


def ensure_demo(db: Database, *, clock: Clock = utc_now) -> CampaignSummary | None:
    """On the first start (the database was just created and holds no campaign), create the
    demo campaign and return it; otherwise do nothing and return None."""
    from sqlalchemy import func, select

    from brikdesk.persistence.models import Campaign

    if not db.fresh:
        return None
    with db.sessions.begin() as s:
        if s.scalar(select(func.count()).select_from(Campaign)):
            return None
    return create_demo(db, replace=False, clock=clock)
