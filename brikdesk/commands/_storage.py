"""Opening the database for the campaign subcommands (export, import, list, demo).

Imported only inside ``run()``: it pulls in SQLAlchemy, which ``roll`` and ``odds`` never need.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from brikdesk.errors import StorageError
from brikdesk.paths import DB_ENV
from brikdesk.persistence.db import Database, open_database
from brikdesk.services import Services
from brikdesk.services.summaries import CampaignSummary


@contextmanager
def opened(
    args: argparse.Namespace, *, first_start_demo: bool = True
) -> Iterator[tuple[Database, Services]]:
    """The database of ``--db`` / ``BRIKDESK_DB`` / the data folder, with its services.

    On the first start with the default data folder (no ``--db``, no ``BRIKDESK_DB``) the demo
    campaign is created, as the app does.
    """
    url = getattr(args, "db", None)
    db = open_database(url)
    if db.warning is not None:
        print(f"brikdesk: warning: {db.warning}", file=sys.stderr)
    try:
        if first_start_demo and url is None and not os.environ.get(DB_ENV, "").strip():
            from brikdesk.services.demo import ensure_demo  # only then: it loads the importer

            ensure_demo(db)
        yield db, Services.open(db)
    finally:
        db.close()


def run_storage(name: str, body: Callable[[], int]) -> int:
    """Run ``body``; a ``StorageError`` prints one line and exits 1 (``UserError`` is left to
    ``cli.main``, which prints it and exits 2)."""
    try:
        return body()
    except StorageError as exc:
        print(f"brikdesk {name}: {exc}", file=sys.stderr)
        return 1


def pick_campaign(sv: Services, ref: str | None, verb: str) -> CampaignSummary:
    """The campaign ``--campaign`` names (id, name or unique part), or the only one there is;
    with several and no ``--campaign``, a ``UserError`` listing them (``verb``: what for)."""
    from brikdesk.errors import UserError

    campaigns = sv.campaigns.list_campaigns()
    if ref is not None:
        return sv.campaigns.get_campaign(sv.printing.find_campaign(ref).id)
    if len(campaigns) == 1:
        return campaigns[0]
    if not campaigns:
        raise UserError(f"there are no campaigns to {verb}")
    raise UserError(
        "there are several campaigns; choose one with --campaign "
        "NAME_OR_ID: " + ", ".join(f"'{c.name}' (id {c.id})" for c in campaigns)
    )
