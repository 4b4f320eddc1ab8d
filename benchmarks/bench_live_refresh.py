"""Live refresh benchmark: what one poll of ``ChangeWatch`` costs (prints numbers; no test).

    .venv/bin/python benchmarks/bench_live_refresh.py [--db URL ...] [--polls 300]

For each database (default: a fresh SQLite file; add ``--db postgresql+psycopg://...`` for a
server, or set ``BRIKDESK_TEST_DB_URL``), with the demo campaign in it:

- an idle poll (nothing changed): median and p95;
- a poll right after another connection changed a campaign (it must say yes): median;
- a poll after this app's own change (it must say no): median.

The app polls once a second on a worker thread; these numbers say whether polling is enough or
a server would need LISTEN/NOTIFY.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from speed_rule import quick

from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from brikdesk.services.demo import create_demo
from brikdesk.services.summaries import CampaignPatch


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    return (
        f"median {statistics.median(ordered) * 1e3:.3f} ms, "
        f"p95 {ordered[int(len(ordered) * 0.95)] * 1e3:.3f} ms"
    )


def run(url: str, polls: int) -> None:
    db = open_database(url)
    try:
        create_demo(db)
        sv = Services.open(db)
        watch = sv.change_watch()
        other_db = open_database(url)
        other = Services.open(other_db)
        cid = sv.campaigns.list_campaigns()[0].id
        watch.poll()
        idle, foreign, own = [], [], []
        for _ in range(polls):
            t = time.perf_counter()
            assert not watch.poll()
            idle.append(time.perf_counter() - t)
        for i in range(max(polls // 3, 10)):
            other.campaigns.update_campaign(cid, CampaignPatch(notes=f"elsewhere {i}"))
            t = time.perf_counter()
            assert watch.poll(), "a change made elsewhere was not seen"
            foreign.append(time.perf_counter() - t)
            sv.campaigns.update_campaign(cid, CampaignPatch(notes=f"here {i}"))
            t = time.perf_counter()
            assert not watch.poll(), "this app's own change was taken for someone else's"
            own.append(time.perf_counter() - t)
        print(
            f"{db.engine.dialect.name:>10}: idle poll {_ms(idle)}; after another's change "
            f"{_ms(foreign)}; after one's own {_ms(own)}"
        )
        watch.close()
        other_db.close()
    finally:
        db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", action="append", default=[], help="a database URL (repeat)")
    parser.add_argument("--polls", type=int, default=quick(300, 3))
    args = parser.parse_args()
    urls = list(args.db)
    if os.environ.get("BRIKDESK_TEST_DB_URL") and not urls:
        urls.append(os.environ["BRIKDESK_TEST_DB_URL"])
    with tempfile.TemporaryDirectory() as tmp:
        for url in [f"sqlite:///{Path(tmp) / 'live.sqlite3'}", *urls]:
            run(url, args.polls)


if __name__ == "__main__":
    main()
