"""``brikdesk history [--campaign NAME_OR_ID] [--json]``: a campaign's history.

The timeline of finished battles (date, sides, winner, casualties per side, the unit with most
kills), the standings per player, each army's series over the battles (value, units alive,
casualties, kills) and the leaderboards of units and players by kills, as text or one JSON
object. No Qt.
"""

from __future__ import annotations

import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--campaign",
        metavar="NAME_OR_ID",
        help="the campaign: its id, its name or a unique part of it (needed when "
        "there are several)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    import json

    from brikdesk.commands._storage import opened, pick_campaign, run_storage
    from brikdesk.domain.history import history_to_json, history_to_text

    def body() -> int:
        with opened(args) as (_db, sv):
            c = pick_campaign(sv, args.campaign, "show")
            h = sv.history.history(c.id)
        if args.json:
            print(json.dumps(history_to_json(h), indent=2, ensure_ascii=False))
        else:
            print(history_to_text(h))
        return 0

    return run_storage("history", body)
