"""``brikdesk demo``: (re)create the demo campaign, replacing an earlier demo of that name."""

from __future__ import annotations

import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Create the demo campaign (three players, their armies, a finished battle "
        "and one in progress), replacing an existing demo campaign."
    )


def run(args: argparse.Namespace) -> int:
    from brikdesk.commands._storage import opened, run_storage
    from brikdesk.services.demo import create_demo

    def body() -> int:
        with opened(args, first_start_demo=False) as (db, _sv):
            c = create_demo(db, replace=True)
            print(f"Created the demo campaign '{c.name}' (campaign {c.id}): {c.counts}")
            return 0

    return run_storage("demo", body)
