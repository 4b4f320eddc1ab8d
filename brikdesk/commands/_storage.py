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
from brikdesk.persistence.db import DB_ENV, Database, open_database
from brikdesk.services import Services
from brikdesk.services.demo import ensure_demo


@contextmanager
def opened(args: argparse.Namespace, *, first_start_demo: bool = True
           ) -> Iterator[tuple[Database, Services]]:
    """The database of ``--db`` / ``BRIKDESK_DB`` / the data folder, with its services.

    On the first start with the default data folder (no ``--db``, no ``BRIKDESK_DB``) the demo
    campaign is created, as the app does.
    """
    url = getattr(args, "db", None)
    db = open_database(url)
    try:
        if first_start_demo and url is None and not os.environ.get(DB_ENV, "").strip():
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
