"""Live refresh never misses another process's change, whatever this app writes meanwhile.

Another BrikDesk (a real process) renames a unit; within the same poll interval this app saves
something of its own in the same campaign, so the campaign's newest stamp is this app's. The
next poll must still say "changed elsewhere": 50 rounds, 0 missed, on SQLite and on
PostgreSQL. Rounds where only this app wrote must say "not changed" (no needless reload)."""

from __future__ import annotations

from pathlib import Path

from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from tests.concurrency.workers import missed_refreshes
from tests.databases import fresh_url

ROUNDS = 50


def test_a_change_elsewhere_under_this_apps_newer_write_is_never_missed(tmp_path: Path) -> None:
    url = fresh_url(tmp_path, "live")
    db = open_database(url)
    sv = Services.open(db)
    c = sv.campaigns.create_campaign("Shared").value
    red = sv.campaigns.add_player(c.id, "Red").value
    army = sv.campaigns.add_army(red.id, "Red Army").value
    theirs, mine = sv.roster.add_units(army.id, "minifig", 2, "Trooper {n}").value
    try:
        missed, needless = missed_refreshes(url, sv, theirs, mine, ROUNDS)
        assert sv.roster.unit_rows([theirs])[0].name == f"Renamed elsewhere {ROUNDS - 1}"
    finally:
        db.close()
    print(f"\nlive refresh: missed {missed} of {ROUNDS}, needless reloads {needless} of {ROUNDS}")
    assert (missed, needless) == (0, 0)
