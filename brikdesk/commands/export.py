"""``brikdesk export [--campaign NAME_OR_ID] --out FILE.json``: write one whole campaign as JSON.

The format is documented in docs/campaign-format.md (``"format": "brikdesk-campaign"``,
``"version": 2``). ``--out -`` writes to standard output. The campaign is named as ``print`` and
``report`` name theirs: by its id, its name in any case, or a unique part of its name.
"""

from __future__ import annotations

import argparse
import sys

from brikdesk.limits import printable


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--campaign",
        metavar="NAME_OR_ID",
        help="the campaign to export: its id, its name or a unique part of it "
        "(needed when there are several)",
    )
    p.add_argument(
        "--out",
        metavar="FILE.json",
        required=True,
        help="the file to write ('-' for standard output)",
    )


def run(args: argparse.Namespace) -> int:
    from brikdesk.commands._storage import opened, pick_campaign, run_storage
    from brikdesk.commands.common import TerminalProgress

    def body() -> int:
        with opened(args) as (_db, sv):
            c = pick_campaign(sv, args.campaign, "export")
            if args.out == "-":
                sys.stdout.write(sv.transfer.export_json(c.id))
                return 0
            progress = TerminalProgress("Exporting")
            try:
                path = sv.transfer.write_export(c.id, args.out, progress=progress)
            finally:
                progress.finish()
            print(f"Exported '{printable(c.name)}' ({c.counts}) to {path}")
            return 0

    return run_storage("export", body)
