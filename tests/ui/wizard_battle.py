"""A small battle for the combat wizard's tests, screenshots and benchmark, made through the
services on a fresh SQLite file: Thieven Hood (a Hero with a longbow), Little John (a pike),
Friar Tuck (a grenade) and Will Scarlet (a sword) against Guy of Gisbourne (sword and
shield), the Sheriff (a Hero with a greatsword) and two guards."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from brikdesk.domain.roster import Loadout
from brikdesk.persistence.db import Database, open_database
from brikdesk.services import Services
from brikdesk.services.summaries import Muster

UNITS = {
    "Thieven Hood": ("outlaws", "hero", ("longbow",)),
    "Little John": ("outlaws", "minifig", ("two-handed-weapon",)),
    "Friar Tuck": ("outlaws", "minifig", ("explosive", "hand-weapon")),
    "Will Scarlet": ("outlaws", "minifig", ("hand-weapon", None)),
    "Guy of Gisbourne": ("sheriff", "minifig", ("hand-weapon", "shield")),
    "The Sheriff": ("sheriff", "hero", ("heavy-weapon",)),
    "Guard Alan": ("sheriff", "minifig", ("short-ranged-weapon",)),
    "Guard Bert": ("sheriff", "minifig", ("hand-weapon", "shield")),
}


@dataclass
class WizardBattle:
    db: Database
    services: Any
    battle_id: int
    campaign_id: int
    ids: dict[str, int]  # battle unit id by name

    def view(self) -> Any:
        return self.services.tracker.view(self.battle_id)

    def events(self) -> tuple[Any, ...]:
        return self.view().standing_events


def services_for(db: Database) -> Services:
    return Services.open(db)


def make_battle(
    path: Path, *, names: tuple[str, ...] = tuple(UNITS), edition: str = "2020", crowd: int = 0
) -> WizardBattle:
    """The battle of ``names``; ``crowd`` plain minifigs more on each side (the benchmark's
    500-unit battle)."""
    db = open_database(f"sqlite:///{path}")
    services = services_for(db)
    campaign = services.campaigns.create_campaign("Sherwood", edition=edition).value
    players = {
        "outlaws": services.campaigns.add_player(campaign.id, "Merry Men").value,
        "sheriff": services.campaigns.add_player(campaign.id, "Nottingham").value,
    }
    longbow = services.catalog.add_custom_item(
        campaign.id, "longbow", based_on="long-ranged-weapon"
    ).value.key
    armies = {
        k: services.campaigns.add_army(p.id, f"{p.name}'s army").value for k, p in players.items()
    }
    picked: dict[str, list[int]] = {"outlaws": [], "sheriff": []}
    for name in names:
        side, type_key, hands = UNITS[name]
        hands = tuple(longbow if h == "longbow" else h for h in hands)
        uid = services.roster.add_unit(
            armies[side].id, type_key, name=name, loadout=Loadout(hands)
        ).value[0]
        picked[side].append(uid)
    for side in picked if crowd else ():
        picked[side] += services.roster.add_units(armies[side].id, "minifig", crowd).value
    view = services.tracker.begin(
        campaign.id,
        "Ambush in Sherwood",
        [
            Muster(players["outlaws"].id, tuple(picked["outlaws"])),
            Muster(players["sheriff"].id, tuple(picked["sheriff"])),
        ],
    ).value
    ids = {u.name: u.id for u in view.units}
    return WizardBattle(db, services, view.id, campaign.id, ids)


Template = tuple[Path, dict[str, int], int, int]


def battle_template_at(tmp_path_factory: pytest.TempPathFactory, edition: str) -> Template:
    """A battle file made once per session, copied for each test (``battle_from``)."""
    path = tmp_path_factory.mktemp(f"wizard{edition}") / "sherwood.sqlite3"
    b = make_battle(path, edition=edition)
    with b.db.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    b.db.close()
    return path, b.ids, b.battle_id, b.campaign_id


def battle_from(template: Template, tmp_path: Path) -> Iterator[WizardBattle]:
    """A test's own copy of a template battle, closed after the test."""
    src, ids, battle_id, campaign_id = template
    path = tmp_path / "sherwood.sqlite3"
    shutil.copyfile(src, path)
    db = open_database(f"sqlite:///{path}")
    yield WizardBattle(db, services_for(db), battle_id, campaign_id, dict(ids))
    db.close()


def make_twins(path: Path) -> WizardBattle:
    """Bob's "Minifig 1" and "Archer" against Ann's "Minifig 1", swords in hand: two units of
    different owners share a name. ``ids``: "mine" (Bob's Minifig 1), "theirs" (Ann's),
    "Archer"."""
    db = open_database(f"sqlite:///{path}")
    sv = services_for(db)
    campaign = sv.campaigns.create_campaign("Twins").value
    musters = []
    for side, names in (("Bob", ("Minifig 1", "Archer")), ("Ann", ("Minifig 1",))):
        player = sv.campaigns.add_player(campaign.id, side).value
        army = sv.campaigns.add_army(player.id, f"{side}'s army").value
        units = [
            sv.roster.add_unit(
                army.id, "minifig", name=n, loadout=Loadout(("hand-weapon", None))
            ).value[0]
            for n in names
        ]
        musters.append(Muster(player.id, tuple(units)))
    view = sv.tracker.begin(campaign.id, "Mirror", musters).value
    bob = view.setup.players[0].player_id
    ids = {
        "mine": next(u.id for u in view.units if u.name == "Minifig 1" and u.player_id == bob),
        "theirs": next(u.id for u in view.units if u.name == "Minifig 1" and u.player_id != bob),
        "Archer": next(u.id for u in view.units if u.name == "Archer"),
    }
    return WizardBattle(db, sv, view.id, campaign.id, ids)
