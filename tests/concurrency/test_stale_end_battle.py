"""End battle from a stale dialog: another organizer (a real process) records a kill, marks a
unit dead or undoes an event while this one's End battle dialog is open. Finishing from what the
dialog showed is refused with the reason and nothing written; read again, it finishes with the
change in it. On SQLite and on PostgreSQL (``tests/databases.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from brikdesk.errors import ConflictError
from brikdesk.persistence.db import open_database
from brikdesk.persistence.models import Battle, Unit
from brikdesk.services import Services
from brikdesk.services.demo import ensure_demo
from tests.concurrency.workers import as_other_organizer
from tests.databases import fresh_url

COVE = "Raid on Bilge Cove"


@pytest.fixture
def cove(tmp_path: Path):
    """The demo campaign; its battle in progress, and this organizer's services."""
    url = fresh_url(tmp_path, "stale")
    db = open_database(url)
    ensure_demo(db)
    sv = Services.open(db)
    with db.sessions() as s:
        bid = s.scalars(select(Battle.id).where(Battle.name == COVE)).one()
    yield url, db, sv, bid
    db.close()


def campaign_status(db, unit_id: int) -> str:
    with db.sessions() as s:
        return s.get(Unit, unit_id).status


def standing(am, player: str) -> list:
    fates = {f.unit: f for f in am.proposal.fates}
    return [u for u in am.units if u.player_name == player and not fates[u.id].fell]


def test_a_kill_recorded_elsewhere_refuses_the_stale_dialog_then_counts(cove) -> None:
    url, db, sv, bid = cove
    am = sv.aftermath.aftermath(bid)  # the dialog opens
    victim = standing(am, "Ines")[0]
    killer = standing(am, "Tobias")[0]
    assert victim.campaign_unit_id is not None
    as_other_organizer(url, "kill", bid, victim.id, killer.id)
    with pytest.raises(ConflictError) as refused:
        sv.aftermath.finish(bid, am.proposal, am.basis)
    assert str(refused.value) == (
        f"'{COVE}' was changed by someone else since the End battle dialog opened: its log "
        "changed (1 new event). The battle was not ended; check the refreshed list and end "
        "it again."
    )
    with db.sessions() as s:
        assert s.get(Battle, bid).status == "in_progress"
    assert campaign_status(db, victim.campaign_unit_id) == "alive"
    fresh = sv.aftermath.aftermath(bid)  # the dialog refreshed
    assert fresh.proposal.fate(victim.id).status == "dead"
    assert fresh.proposal.fate(victim.id).killed_by == killer.id
    done = sv.aftermath.finish(bid, fresh.proposal, fresh.basis)
    assert victim.name in done.value.casualties
    assert campaign_status(db, victim.campaign_unit_id) == "dead"


def test_a_unit_marked_dead_in_the_campaign_refuses_the_stale_dialog(cove) -> None:
    url, db, sv, bid = cove
    am = sv.aftermath.aftermath(bid)
    unit = standing(am, "Tobias")[0]
    as_other_organizer(url, "dead", unit.campaign_unit_id)
    with pytest.raises(ConflictError, match=f"{unit.name} changed in the campaign"):
        sv.aftermath.finish(bid, am.proposal, am.basis)
    assert campaign_status(db, unit.campaign_unit_id) == "dead"  # not put back to "alive"
    fresh = sv.aftermath.aftermath(bid)
    sv.aftermath.finish(bid, fresh.proposal, fresh.basis)


def test_notes_written_elsewhere_do_not_refuse_the_dialog(cove) -> None:
    """Another organizer writes in a mustered unit's notes while the dialog is open: that
    cannot change how the battle ends, so End battle goes on (the notes kept), where it was
    refused as a stale dialog."""
    url, db, sv, bid = cove
    am = sv.aftermath.aftermath(bid)
    unit = standing(am, "Tobias")[0]
    as_other_organizer(url, "notes", unit.campaign_unit_id, "Lost his hat on the pier.")
    with db.sessions() as s:
        assert s.get(Unit, unit.campaign_unit_id).version > 1  # the edit was made
    done = sv.aftermath.finish(bid, am.proposal, am.basis)
    assert done.value is not None
    with db.sessions() as s:
        assert s.get(Battle, bid).status == "finished"
        row = s.get(Unit, unit.campaign_unit_id)
        assert row.notes == "Lost his hat on the pier." and row.battles_fought >= 1


def test_an_event_undone_elsewhere_refuses_the_stale_dialog(cove) -> None:
    url, db, sv, bid = cove
    am = sv.aftermath.aftermath(bid)
    as_other_organizer(url, "undo", bid)
    with pytest.raises(ConflictError, match=r"its log changed \(1 event undone\)"):
        sv.aftermath.finish(bid, am.proposal, am.basis)
    fresh = sv.aftermath.aftermath(bid)
    sv.aftermath.finish(bid, fresh.proposal, fresh.basis)
    with db.sessions() as s:
        assert s.get(Battle, bid).status == "finished"
