"""What differs between databases behaves the same on every one: ids out of range, the NUL
character, the order of text, ids after rows come back, one-line storage errors.

These run on SQLite by default and on PostgreSQL with ``BRIKDESK_TEST_DB_URL``
(``tests/databases.py``); each was seen to fail there before its fix.
"""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from brikdesk.domain.battle import UnitKilled
from brikdesk.errors import StorageError, UserError
from brikdesk.persistence import snapshots
from brikdesk.persistence.db import Database, open_database
from brikdesk.persistence.models import MAX_ID, Campaign
from brikdesk.services import Services
from brikdesk.services.battles import Muster
from tests.services.campaign_data import table_counts
from tests.services.conftest import Camp

#: Ids no row can have: PostgreSQL's INTEGER stops at 2**31 - 1, SQLite's at 2**63 - 1.
IMPOSSIBLE_IDS = [MAX_ID + 1, 2**40, 2**63, 2**70, -(2**70)]


@pytest.mark.parametrize("ident", IMPOSSIBLE_IDS)
def test_an_id_no_row_can_have_is_not_found_rather_than_a_storage_error(
    sv: Services, camp: Camp, ident: int
) -> None:
    with pytest.raises(UserError, match=f"there is no campaign with id {ident}"):
        sv.campaigns.get_campaign(ident)
    with pytest.raises(UserError, match=f"there is no army with id {ident}"):
        sv.roster.roster(ident)
    with pytest.raises(UserError, match=f"there is no unit with id {ident}"):
        sv.roster.delete_units([ident])
    with pytest.raises(UserError, match=f"there is no unit with id {ident}"):
        sv.roster.unit_card(ident)
    blue = sv.roster.add_unit(camp.blue_army.id, "minifig").value[0]
    with pytest.raises(UserError, match=f"there is no unit with id {ident}"):
        sv.battles.create_battle(
            camp.campaign.id,
            "Skirmish",
            [Muster(camp.red.id, (ident,)), Muster(camp.blue.id, (blue,))],
        )
    assert sv.battles.list_battles(camp.campaign.id) == ()


def test_a_battle_unit_id_no_row_can_have_is_not_in_the_battle(sv: Services, camp: Camp) -> None:
    red = sv.roster.add_unit(camp.red_army.id, "minifig").value[0]
    blue = sv.roster.add_unit(camp.blue_army.id, "minifig").value[0]
    b = sv.tracker.begin(
        camp.campaign.id, "Skirmish", [Muster(camp.red.id, (red,)), Muster(camp.blue.id, (blue,))]
    ).value
    with pytest.raises(UserError, match=f"{2**40}"):
        sv.tracker.record(b.id, [UnitKilled(2**40)])
    assert sv.battles.events(b.id) == ()


def test_the_nul_character_is_refused_in_names_and_in_imported_files(
    sv: Services, db: Database, camp: Camp
) -> None:
    nul = "contains the control character U\\+0000"
    with pytest.raises(UserError, match=nul) as err:
        sv.campaigns.create_campaign("Null\x00Campaign")
    assert err.value.field == "name"
    with pytest.raises(UserError, match=f"The faction {nul}"):
        sv.campaigns.add_player(camp.campaign.id, "Nul", faction="Zero\x00")
    with pytest.raises(UserError, match=f"The unit's name {nul}"):
        sv.roster.add_unit(camp.red_army.id, "minifig", name="Bit\x00")
    doc = sv.transfer.export_campaign(camp.campaign.id)
    doc["players"][1]["faction"] = "Blue\x00"
    before = table_counts(db)
    with pytest.raises(UserError, match=rf"\$\.players\[1\]\.faction: {nul}"):
        sv.transfer.import_campaign(json.dumps(doc), name="Copy")
    assert table_counts(db) == before
    # In catalog entries too (the same check as every text BrikDesk keeps).
    item = sv.catalog.add_custom_item(camp.campaign.id, "Zero Ray").value
    with pytest.raises(UserError, match=nul):
        sv.catalog.set_item_field(camp.campaign.id, item.key, "name", "Zero\x00Ray")
    assert sv.catalog.catalog(camp.campaign.id).item(item.key).name == "Zero Ray"


def test_house_rules_are_exported_in_code_point_order_of_their_keys(
    sv: Services, camp: Camp
) -> None:
    # Database collations differ: glibc's en_US ignores '-' (laserbeam before laser-pike),
    # ICU's en-US puts '_' before '-' (laser_a before laser-a). Code points: '-' (0x2d),
    # '2' (0x32), '_' (0x5f), 'b' (0x62).
    for name in ("Laserbeam", "Laser-Pike", "Laser2", "Laser-A"):
        entry = sv.catalog.add_custom_item(camp.campaign.id, name).value.after
    sv.catalog.put_entry(camp.campaign.id, "item", "laser_a", {**entry, "key": "laser_a"})
    doc = sv.transfer.export_campaign(camp.campaign.id)
    assert [e["key"] for e in doc["catalog"]["items"]] == [
        "laser-a",
        "laser-pike",
        "laser2",
        "laser_a",
        "laserbeam",
    ]


def test_rows_put_back_with_higher_ids_are_never_reused(sv: Services, db: Database) -> None:
    first = sv.campaigns.create_campaign("First").value
    done = sv.campaigns.delete_campaign(first.id)
    # A snapshot whose ids are above anything handed out yet (as rows written by another
    # tool, or a sequence reset, would leave them).
    [(table, (row,))] = done.value.rows
    moved = snapshots.Snapshot(done.value.root, ((table, ({**row, "id": 5000},)),))
    with db.sessions.begin() as s:
        snapshots.restore(s, moved)
    second = sv.campaigns.create_campaign("Second").value
    assert second.id == 5001
    with db.sessions.begin() as s:
        assert s.scalars(select(Campaign.id).order_by(Campaign.id)).all() == [5000, 5001]
    # Putting back rows below the counter leaves it where it is: 5002 is next, not 3.
    sv.campaigns.delete_campaign(second.id).undo()
    assert sv.campaigns.create_campaign("Third").value.id == 5002


def test_a_server_that_cannot_be_reached_is_one_line_without_the_password() -> None:
    # Port 1 on the loopback: nothing listens there. Without the driver installed the
    # message says how to install it instead; either way one line, password hidden.
    with pytest.raises(StorageError) as err:
        open_database("postgresql+psycopg://nobody:s3cret@127.0.0.1:1/nothing")
    text = str(err.value)
    assert "\n" not in text and "s3cret" not in text
    assert text.startswith("cannot ")
    assert "postgresql+psycopg://nobody:***@127.0.0.1:1/nothing" in text
