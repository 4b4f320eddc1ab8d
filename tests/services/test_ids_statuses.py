"""The services hand out statuses as enums (``brikdesk.domain.statuses``) and store the same
text as before: a battle's summary, a unit's outcome and record, a roster row."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text

from brikdesk.domain.statuses import BattleStatus, UnitStatus
from brikdesk.persistence.db import Database, open_database
from brikdesk.services import Services
from brikdesk.services.summaries import Muster, UnitOutcome, UnitRecord


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = open_database(f"sqlite:///{tmp_path / 'ids.sqlite3'}")
    yield database
    database.close()


@pytest.fixture
def sv(db: Database) -> Services:
    return Services.open(db, lambda: datetime(2026, 5, 1, 12, 0, tzinfo=UTC))


def _stored(db: Database, sql: str, ident: int) -> object:
    with db.sessions() as s:
        return s.execute(text(sql), {"id": ident}).scalar_one()


def test_a_battle_and_its_units_report_statuses_as_enums(sv: Services, db: Database) -> None:
    campaign = sv.campaigns.create_campaign("Ids").value
    red = sv.campaigns.add_player(campaign.id, "Red").value
    blue = sv.campaigns.add_player(campaign.id, "Blue").value
    [knight] = sv.roster.add_unit(
        sv.campaigns.add_army(red.id, "Reds").value.id, "minifig", name="Knight"
    ).value
    [archer] = sv.roster.add_unit(
        sv.campaigns.add_army(blue.id, "Blues").value.id, "minifig", name="Archer"
    ).value
    [row] = sv.roster.unit_rows([knight])
    assert row.status is UnitStatus.ALIVE

    planned = sv.battles.create_battle(
        campaign.id, "Bridge", [Muster(red.id, (knight,)), Muster(blue.id, (archer,))]
    )
    battle = planned.value
    assert battle.status is BattleStatus.PLANNED and battle.status_text == "planned"
    sv.battles.start_battle(battle.id)
    [listed] = sv.battles.list_battles(campaign.id)
    assert listed.status is BattleStatus.IN_PROGRESS and listed.status_text == "in progress"
    assert _stored(db, "SELECT status FROM battle WHERE id = :id", battle.id) == "in_progress"

    outcomes = sv.battles.outcomes_from_log(battle.id)
    assert set(outcomes.values()) == {UnitOutcome(UnitStatus.ALIVE, 0)}
    assert all(type(o.status) is UnitStatus for o in outcomes.values())
    knight_in_battle = next(b for b, u in _links(db, battle.id).items() if u == knight)
    finished = sv.battles.finish_battle(battle.id, {knight_in_battle: UnitOutcome(UnitStatus.DEAD)})
    # The records to put back on undo: each unit as it was, its status an enum.
    assert set(finished.value) == {
        UnitRecord(knight, UnitStatus.ALIVE, 0, 0),
        UnitRecord(archer, UnitStatus.ALIVE, 0, 0),
    }
    assert all(type(r.status) is UnitStatus for r in finished.value)
    stored = _stored(db, "SELECT status FROM unit WHERE id = :id", knight)
    assert stored == "dead" and type(stored) is str
    [row] = sv.roster.unit_rows([knight])
    assert row.status is UnitStatus.DEAD

    finished.undo()
    assert _stored(db, "SELECT status FROM unit WHERE id = :id", knight) == "alive"
    [listed] = sv.battles.list_battles(campaign.id)
    assert listed.status is BattleStatus.IN_PROGRESS


def _links(db: Database, battle_id: int) -> dict[int, int]:
    with db.sessions() as s:
        return {
            b: u
            for b, u in s.execute(
                text("SELECT id, unit_id FROM battle_unit WHERE battle_id = :id"), {"id": battle_id}
            )
        }
