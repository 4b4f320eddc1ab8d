"""Live refresh never misses another process's change, whatever this app writes meanwhile.

Another BrikDesk (a real process) renames a unit; within the same poll interval this app saves
something of its own in the same campaign, so the campaign's newest stamp is this app's. The
next poll must still say "changed elsewhere": 50 rounds, 0 missed, on SQLite and on
PostgreSQL. Rounds where only this app wrote must say "not changed" (no needless reload)."""

from __future__ import annotations

from pathlib import Path

from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from brikdesk.services.roster import UnitPatch
from tests.concurrency.workers import CONTEXT, renamer
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
    watch = sv.change_watch()
    orders, answers = CONTEXT.Queue(), CONTEXT.Queue()
    other = CONTEXT.Process(target=renamer, args=(url, theirs, orders, answers))
    other.start()
    missed = needless = 0
    try:
        assert answers.get(timeout=60) == "ready"
        watch.poll()
        for n in range(ROUNDS):
            orders.put(f"rename {n}")
            assert answers.get(timeout=30) == f"ok {n}"
            sv.roster.edit_unit(mine, UnitPatch(notes=f"note {n}"))  # this app, just after
            missed += watch.poll() is False
            sv.roster.edit_unit(mine, UnitPatch(notes=f"again {n}"))  # this app alone
            needless += watch.poll() is True
        orders.put("stop")
        assert sv.roster.unit_rows([theirs])[0].name == f"Renamed elsewhere {ROUNDS - 1}"
    finally:
        other.join(timeout=30)
        if other.is_alive():
            other.kill()
        watch.close()
        db.close()
    print(f"\nlive refresh: missed {missed} of {ROUNDS}, needless reloads {needless} of {ROUNDS}")
    assert (missed, needless) == (0, 0)
