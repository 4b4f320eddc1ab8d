"""Noticing what another app or a command wrote (``brikdesk.services.watch``): another
connection's commits are seen, this app's own are not, an idle database costs nothing."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator

import pytest

from brikdesk.persistence.db import Database, open_database
from brikdesk.services import Services
from brikdesk.services.roster import UnitPatch
from brikdesk.services.watch import ChangeWatch
from tests.services.conftest import Camp


@pytest.fixture
def other(db: Database) -> Iterator[Services]:
    """Another BrikDesk on the same database (own engine; the wall clock)."""
    second = open_database(db.url)
    yield Services.open(second)
    second.close()


@pytest.fixture
def watch(sv: Services) -> Iterator[ChangeWatch]:
    w = sv.change_watch()
    yield w
    w.close()


def test_own_writes_are_not_news_and_others_are(
    sv: Services, other: Services, camp: Camp, watch: ChangeWatch
) -> None:
    unit = sv.roster.add_unit(camp.red_army.id, "minifig", name="Scout").value[0]
    assert watch.poll() is False  # the first look
    sv.roster.edit_unit(unit, UnitPatch(name="Scout Sam"))
    sv.campaigns.add_player(camp.campaign.id, "Green")
    assert watch.poll() is False  # this app's own changes: its views already know
    assert watch.poll() is False  # nothing new
    other.roster.edit_unit(unit, UnitPatch(name="Scout Sally"))
    assert watch.poll() is True
    assert watch.poll() is False  # told once
    other.campaigns.create_campaign("Elsewhere")  # a new campaign is news too
    assert watch.poll() is True
    other.campaigns.delete_campaign(other.campaigns.find_campaign("Elsewhere").id)
    assert watch.poll() is True


def test_a_battle_recorded_elsewhere_is_news(demo_sv: Services, demo_db: Database) -> None:
    watch = demo_sv.change_watch()
    try:
        battle = next(
            b
            for c in demo_sv.campaigns.list_campaigns()
            for b in demo_sv.battles.list_battles(c.id)
            if b.status == "in_progress"
        )
        assert watch.poll() is False
        second = open_database(demo_db.url)
        try:
            Services.open(second).tracker.end_turn(battle.id)
        finally:
            second.close()
        assert watch.poll() is True
        demo_sv.tracker.end_turn(battle.id)  # and this app's own End Turn is not
        assert watch.poll() is False
    finally:
        watch.close()


def test_a_command_in_another_process_is_news(
    sv: Services, camp: Camp, db: Database, watch: ChangeWatch
) -> None:
    unit = sv.roster.add_unit(camp.red_army.id, "minifig", name="Scout").value[0]
    watch.poll()
    script = textwrap.dedent(f"""
        from brikdesk.persistence.db import open_database
        from brikdesk.services import Services
        from brikdesk.services.roster import UnitPatch
        db = open_database({db.url!r})
        Services.open(db).roster.edit_unit({unit}, UnitPatch(name="Renamed Elsewhere"))
        db.close()
    """)
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
    assert watch.poll() is True
    assert sv.roster.unit_rows([unit])[0].name == "Renamed Elsewhere"


def test_a_watch_of_every_change_sees_this_apps_own_writes_too(
    sv: Services, other: Services, camp: Camp
) -> None:
    watch = sv.change_watch(others_only=False)  # the players' page shows every change
    try:
        assert watch.poll() is False  # the first look
        sv.campaigns.add_player(camp.campaign.id, "Green")
        assert watch.poll() is True
        assert watch.poll() is False  # told once
        other.campaigns.add_player(camp.campaign.id, "Yellow")
        assert watch.poll() is True
    finally:
        watch.close()
