"""The demo campaign: created on the first start, recreated on demand, everything working."""

from __future__ import annotations

from pathlib import Path

from brikdesk.domain.catalog import load_default_catalog
from brikdesk.persistence.db import Database, open_database
from brikdesk.services import Services
from brikdesk.services.demo import DEMO_NAME, create_demo, ensure_demo
from tests.databases import fresh_url
from tests.services.conftest import TickingClock


def test_the_first_start_creates_the_demo_and_later_starts_do_not(
    backend: str, tmp_path: Path
) -> None:
    url = fresh_url(tmp_path, "first")
    db = open_database(url)
    demo = ensure_demo(db, clock=TickingClock())
    assert demo is not None and demo.name == DEMO_NAME
    sv = Services.open(db)
    sv.campaigns.delete_campaign(demo.id)
    db.close()
    db = open_database(url)  # not the first start any more: a deleted demo stays deleted
    assert ensure_demo(db) is None
    assert Services.open(db).campaigns.list_campaigns() == ()
    db.close()


def test_no_demo_when_the_new_database_already_has_a_campaign(sv: Services, db: Database) -> None:
    db.fresh = True  # as if just created...
    sv.campaigns.create_campaign("Mine")  # ...and already given a campaign
    assert ensure_demo(db) is None


def test_the_demo_has_players_armies_and_real_loadouts(demo_sv: Services) -> None:
    c = demo_sv.campaigns.find_campaign(DEMO_NAME)
    assert c is not None and c.edition == "2020"
    nav = demo_sv.campaigns.navigator(c.id)
    assert [(p.name, p.faction) for p in nav.players] == [
        ("Margo", "Crimson Brickguard"),
        ("Tobias", "Blue Moon Posse"),
        ("Ines", "Salty Bilge Pirates"),
    ]
    assert len({p.colour for p in nav.players}) == 3
    catalog = load_default_catalog("2020")
    for army in nav.armies:
        roster = demo_sv.roster.roster(army.id)
        assert 8 <= len(roster.units) <= 15
        assert len({u.type_key for u in roster.units}) >= 5
        assert len({u.name for u in roster.units}) == len(roster.units)
        for u in roster.units:
            for key, _where in u.loadout.placed():
                assert catalog.get_item(key) is not None
            assert "unknown" not in u.warnings_text
    # Warnings are there to be seen: one army over budget, stacked armour, a unit unarmed.
    rosters = [demo_sv.roster.roster(a.id) for a in nav.armies]
    assert [r.over_budget for r in rosters] == [True, True, False]
    texts = [u.warnings_text for r in rosters for u in r.units if u.warnings]
    assert any("armour stacked" in t for t in texts) and any("no weapon" in t for t in texts)


def test_the_finished_battle_has_dice_modifiers_a_death_and_ended_turns(demo_sv: Services) -> None:
    c = demo_sv.campaigns.find_campaign(DEMO_NAME)
    ford, cove = demo_sv.battles.list_battles(c.id)
    assert (ford.status, cove.status) == ("finished", "in_progress")
    events = demo_sv.battles.events(ford.id)
    kinds = [e.kind for e in events]
    assert kinds.count("turn_ended") == 3 and kinds[-1] == "battle_finished"
    roles = {d.role.value for e in events for d in e.dice}
    assert {"natural", "bonus", "Benny"} <= roles
    assert any(m.rule == "5.1 Out of Range" for e in events for m in e.modifiers)
    assert any(e.outcome.get("critical_failure") for e in events)
    units = {u.id: u.name for u in demo_sv.battles.battle(ford.id).units}
    killed = [units[k] for e in events for k in e.payload.get("killed", [])]
    assert killed == ["Cactus Pete", 'Rusty "Two-Studs" McGee']
    # Its campaign record was written: the dead are dead, kills counted, battles fought.
    rows = {
        u.name: u
        for a in demo_sv.campaigns.list_armies(c.id)
        for u in demo_sv.roster.roster(a.id).units
    }
    assert rows["Cactus Pete"].status == rows['Rusty "Two-Studs" McGee'].status == "dead"
    assert (rows["Crossbow Kate"].kills, rows["Sir Reginald Studsworth"].kills) == (1, 1)
    assert sorted(n for n, u in rows.items() if u.battles_fought == 1) == sorted(units.values())
    # The battle in progress has events too and it is the second player's turn.
    assert [e.kind for e in demo_sv.battles.events(cove.id)][-2:] == [
        "turn_ended",
        "attack_resolved",
    ]


def test_recreating_the_demo_replaces_it_and_leaves_other_campaigns(
    demo_sv: Services, demo_db: Database
) -> None:
    mine = demo_sv.campaigns.create_campaign("Mine").value
    old = demo_sv.campaigns.find_campaign(DEMO_NAME)
    demo_sv.campaigns.delete_army(demo_sv.campaigns.list_armies(old.id)[0].id)
    new = create_demo(demo_db)
    names = sorted(c.name for c in demo_sv.campaigns.list_campaigns())
    assert names == sorted([DEMO_NAME, "Mine"])
    assert (new.armies, new.units, new.battles) == (3, 30, 2)
    assert demo_sv.campaigns.get_campaign(mine.id).name == "Mine"
