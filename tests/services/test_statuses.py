"""Statuses are enums in the code and the same text as before in the database and in files."""

from __future__ import annotations

from sqlalchemy import text

from brikdesk.domain.statuses import BattleStatus, UnitStatus, battle_status_text
from brikdesk.persistence.db import Database
from brikdesk.services import Services
from brikdesk.services.roster import UnitPatch
from tests.services.conftest import Camp


def test_the_stored_texts_are_the_ones_databases_and_files_already_hold() -> None:
    # No migration: existing rows and campaign files keep working.
    assert [s.value for s in UnitStatus] == ["alive", "wounded", "dead"]
    assert [s.value for s in BattleStatus] == ["planned", "in_progress", "finished"]
    assert f"{UnitStatus.WOUNDED}" == "wounded" and str(BattleStatus.IN_PROGRESS) == "in_progress"


def test_a_status_set_in_the_app_is_stored_as_its_text(
    sv: Services, db: Database, camp: Camp
) -> None:
    [uid] = sv.roster.add_unit(camp.red_army.id, "minifig", name="Vet").value
    for status in UnitStatus:
        sv.roster.edit_unit(uid, UnitPatch(status=status))
        with db.sessions() as s:
            stored = s.execute(
                text("SELECT status FROM unit WHERE id = :id"), {"id": uid}
            ).scalar_one()
        assert stored == status.value and type(stored) is str
        [row] = sv.roster.unit_rows([uid])
        assert row.status == status


def test_the_app_says_in_progress_in_words() -> None:
    assert battle_status_text("in_progress") == "in progress"
    assert battle_status_text(BattleStatus.PLANNED) == "planned"
    assert battle_status_text("archived") == "archived"  # unknown: shown as it is
