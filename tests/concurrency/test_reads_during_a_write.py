"""Read-only work never takes SQLite's write lock: while another program (a real process)
holds ``BEGIN IMMEDIATE`` on the file for longer than the busy timeout, the history, the End
battle dialog's reading and its promotion preview, the export, the battle report and the
battle's roster sheet all succeed at once; a write still waits and says busy."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from brikdesk.errors import BusyError
from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from brikdesk.services.demo import ensure_demo
from tests.concurrency.workers import sqlite_lock_held


@pytest.mark.sqlite_only  # SQLite's one write lock (PostgreSQL readers never wait for writers)
def test_reads_succeed_while_another_process_holds_the_write_lock(tmp_path: Path) -> None:
    path = tmp_path / "club.sqlite3"
    db = open_database(f"sqlite:///{path}")
    ensure_demo(db)
    sv = Services.open(db)
    campaign = sv.campaigns.list_campaigns()[0]
    battles = sv.battles.list_battles(campaign.id)
    running = next(b for b in battles if b.status == "in_progress")
    finished = next(b for b in battles if b.status == "finished")
    am = sv.aftermath.aftermath(running.id)
    survivor = next(f.unit for f in am.proposal.fates if not f.fell)
    reads = {
        "history": lambda: sv.history.history(campaign.id),
        "End battle dialog": lambda: sv.aftermath.aftermath(running.id),
        "promotion preview": lambda: sv.aftermath.promotion_preview(running.id, {survivor: "hero"}),
        "export": lambda: sv.transfer.export_json(campaign.id),
        "battle report": lambda: sv.printing.battle_report(finished.id),
        "battle roster sheet": lambda: sv.printing.battle_roster_sheet(running.id),
    }
    took: dict[str, float] = {}
    try:
        with sqlite_lock_held(path, "BEGIN IMMEDIATE"):
            for name, read in reads.items():
                start = time.perf_counter()
                assert read() is not None, name
                took[name] = time.perf_counter() - start
            start = time.perf_counter()
            with pytest.raises(BusyError):
                sv.campaigns.add_player(campaign.id, "Late")
            waited = time.perf_counter() - start
    finally:
        db.close()
    print("\nreads during another's write:", {k: f"{v * 1e3:.0f} ms" for k, v in took.items()})
    assert max(took.values()) < 2.0, took  # not the 5 s busy timeout
    assert waited >= 4.5
