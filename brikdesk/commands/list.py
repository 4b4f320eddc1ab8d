"""``brikdesk list [--json]``: the campaigns with their players, armies and battles, and ids."""

from __future__ import annotations

import argparse
import builtins
import json

from brikdesk.words import plural


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace) -> int:
    from brikdesk.commands._storage import opened, run_storage
    from brikdesk.limits import printable

    def print(line: str = "") -> None:
        # Names stored by an older BrikDesk may hold control characters: shown as escapes,
        # never sent to the terminal as they are.
        builtins.print("\n".join(printable(part) for part in line.split("\n")))

    def body() -> int:
        with opened(args) as (db, sv):
            navs = [sv.campaigns.navigator(c.id) for c in sv.campaigns.list_campaigns()]
            if args.json:
                print(
                    json.dumps(
                        {
                            "database": db.display_name,
                            "campaigns": [
                                {
                                    "id": n.campaign.id,
                                    "name": n.campaign.name,
                                    "edition": n.campaign.edition,
                                    "cost_system": n.campaign.cost_system,
                                    "players": [
                                        {
                                            "id": p.id,
                                            "name": p.name,
                                            "colour": p.colour,
                                            "faction": p.faction,
                                        }
                                        for p in n.players
                                    ],
                                    "armies": [
                                        {
                                            "id": a.id,
                                            "name": a.name,
                                            "player": a.player_name,
                                            "units": a.units,
                                            "budget": a.budget,
                                        }
                                        for a in n.armies
                                    ],
                                    "battles": [
                                        {
                                            "id": b.id,
                                            "name": b.name,
                                            "status": b.status,
                                            "players": list(b.players),
                                            "units": b.units,
                                            "events": b.events,
                                        }
                                        for b in n.battles
                                    ],
                                }
                                for n in navs
                            ],
                        },
                        indent=2,
                        ensure_ascii=False,
                    )
                )
                return 0
            print(f"Database: {db.display_name}")
            if not navs:
                print(
                    "No campaigns yet. 'brikdesk demo' creates the demo campaign; "
                    "'brikdesk import FILE.json' reads one in."
                )
            for n in navs:
                c = n.campaign
                print(
                    f"\nCampaign {c.id}: {c.name}  ({c.edition} rules, costs in "
                    f"{c.cost_system}, default budget {c.default_budget})"
                )
                if n.players:
                    print("  Players:")
                    for p in n.players:
                        faction = f", {p.faction}" if p.faction else ""
                        print(f"    {p.id:>5}  {p.name} ({p.colour}{faction})")
                print("  Armies:" if n.armies else "  Armies: none")
                for a in n.armies:
                    budget = "no budget" if a.budget is None else f"budget {a.budget}"
                    print(
                        f"    {a.id:>5}  {a.name} ({a.player_name}; {a.units} unit"
                        f"{'s' if a.units != 1 else ''}, {budget})"
                    )
                print("  Battles:" if n.battles else "  Battles: none")
                for b in n.battles:
                    who = " vs ".join(b.players)
                    print(
                        f"    {b.id:>5}  {b.name} ({b.status_text}; {who}; "
                        f"{plural(b.units, 'unit')}, {plural(b.events, 'event')})"
                    )
            return 0

    return run_storage("list", body)
