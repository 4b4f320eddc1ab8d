"""Revision 0006 (each army's numbers going into and out of a finished battle) upgrades a
database of 0005 whose battles were finished without them: the table is there, empty, and the
history rebuilds the old battle from its musters; a battle finished afterwards stores them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from alembic import command
from sqlalchemy import create_engine, func, inspect, select

from brikdesk.domain.battle import UnitKilled
from brikdesk.persistence.db import alembic_config, head_revision, open_database
from brikdesk.persistence.models import BattleArmy
from brikdesk.services import Services
from brikdesk.services.summaries import Muster
from tests.databases import fresh_url


def _finish_a_battle(sv: Services, c, musters, name: str) -> int:
    view = sv.tracker.begin(c.id, name, musters).value
    u = {t.name: t.id for t in view.units}
    sv.tracker.record(view.id, [UnitKilled(u["Blue 1"], u["Red 1"], "shot")])
    am = sv.aftermath.aftermath(view.id)
    sv.aftermath.finish(view.id, replace(am.proposal, winner=musters[0].player_id))
    return view.id


def test_a_database_at_0005_gets_the_army_records(backend: str, tmp_path: Path) -> None:
    url = fresh_url(tmp_path, "records")
    db = open_database(url)
    try:
        sv = Services.open(db)
        c = sv.campaigns.create_campaign("Old war").value
        musters = []
        for name in ("Red", "Blue"):
            p = sv.campaigns.add_player(c.id, name).value
            army = sv.campaigns.add_army(p.id, f"{name} army").value
            musters.append(
                Muster(p.id, sv.roster.add_units(army.id, "minifig", 2, f"{name} {{n}}").value)
            )
        _finish_a_battle(sv, c, musters, "Old Fight")
    finally:
        db.close()
    engine = create_engine(url)
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0005")
        assert "battle_army" not in inspect(conn).get_table_names()
    engine.dispose()

    db = open_database(url)
    try:
        assert db.revision == head_revision() == "0006"
        with db.engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(BattleArmy)).scalar_one() == 0
        sv = Services.open(db)
        h = sv.history.history(c.id)
        blue = next(s for s in h.series if s.army == "Blue army")
        assert blue.value == (8, 4) and blue.alive == (2, 1)  # rebuilt from the musters
        assert blue.approximate == (False, False)
    finally:
        db.close()
