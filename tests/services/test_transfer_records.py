"""Export and import carry what each army was in its battles (``battles[].armies``).

A round trip keeps the history's points exactly (Start, every battle, nothing approximate); an
older file (version 1, no records) still imports and its points are rebuilt, approximate where
a unit was never mustered; a broken record section refuses the whole file with the reason and
writes nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from brikdesk.domain.history import history_to_json
from brikdesk.errors import UserError
from brikdesk.persistence.db import Database
from brikdesk.services import Services
from tests.services.campaign_data import fight_at_the_gate, table_counts
from tests.services.conftest import Camp


def _campaign(sv: Services, camp: Camp) -> None:
    """A Minifig in Red's reserve (not mustered), then the fight at the Gate (Red's Scout kills
    Blue 1 and is promoted to Hero), then a Hero joins Red."""
    sv.roster.add_unit(camp.red_army.id, "minifig", name="Reserve")
    fight_at_the_gate(sv, camp)
    sv.roster.add_unit(camp.red_army.id, "hero", name="Late Hero")


def _series(sv: Services, campaign_id: int) -> dict[str, Any]:
    """The history's series as ``history --json`` prints them, by army."""
    js = history_to_json(sv.history.history(campaign_id))
    return {a["army"]: {k: v for k, v in a.items() if k != "army"} for a in js["series"]["armies"]}


def test_a_round_trip_keeps_each_armys_start_and_end_exactly(sv: Services, camp: Camp) -> None:
    _campaign(sv, camp)
    cid = camp.campaign.id
    before = _series(sv, cid)
    # What was stored: Red fought at 4+4+4+4 CP (the reserve counts) and came out with the
    # Scout a Hero (11); Blue lost a 4 CP Minifig. The Late Hero came after.
    assert before["Red Army"]["value"] == [16, 23]
    assert before["Blue Army"]["value"] == [8, 4]
    assert before["Red Army"]["approximate"] == before["Blue Army"]["approximate"] == [False] * 2

    text = sv.transfer.export_json(cid)
    doc = json.loads(text)
    [gate] = doc["battles"]
    assert gate["armies"] == [
        {
            "army": 1,
            "name": "Red Army",
            "value_in": 16,
            "value_out": 23,
            "alive_in": 4,
            "alive_out": 4,
            "casualties_in": 0,
            "casualties_out": 0,
            "kills_in": 0,
            "kills_out": 1,
        },
        {
            "army": 2,
            "name": "Blue Army",
            "value_in": 8,
            "value_out": 4,
            "alive_in": 2,
            "alive_out": 1,
            "casualties_in": 0,
            "casualties_out": 1,
            "kills_in": 0,
            "kills_out": 0,
        },
    ]
    copy_id = sv.transfer.import_campaign(text, name="Copy").value.id
    assert _series(sv, copy_id) == before
    again = json.loads(sv.transfer.export_json(copy_id))
    again["campaign"]["name"] = doc["campaign"]["name"]
    assert again == doc


def test_an_older_file_without_records_imports_and_is_rebuilt(sv: Services, camp: Camp) -> None:
    """A version 1 export (no ``armies`` in its battles): the points are rebuilt from the
    mustered units and the result, and marked approximate where a unit was never mustered
    (the reserve and the Late Hero count at today's cost)."""
    _campaign(sv, camp)
    doc = json.loads(sv.transfer.export_json(camp.campaign.id))
    doc["version"] = 1
    for b in doc["battles"]:
        b.pop("armies", None)
    old = sv.transfer.import_campaign(json.dumps(doc), name="Old file").value
    series = _series(sv, old.id)
    # Rebuilt: the mustered units as mustered (the Scout at 4, then a Hero at 11), plus the
    # reserve (4) and the Late Hero (11) at today's cost, so approximate.
    assert series["Red Army"]["value"] == [4 + 4 + 4 + 4 + 11, 4 + 4 + 11 + 4 + 11]
    assert series["Red Army"]["approximate"] == [True, True]
    # Blue's units were all mustered: rebuilt exactly.
    assert series["Blue Army"]["value"] == [8, 4]
    assert series["Blue Army"]["approximate"] == [False, False]
    # Exported again, it is a version 2 file with no records (none were stored).
    again = json.loads(sv.transfer.export_json(old.id))
    assert again["version"] == 2 and "armies" not in again["battles"][0]


def _broken(doc: dict[str, Any], path: str, value: Any) -> str:
    d = copy.deepcopy(doc)
    *parents, last = path.split(".")
    node: Any = d
    for p in parents:
        node = node[int(p)] if p.isdigit() else node[p]
    if value is _DROP:
        del node[int(last) if last.isdigit() else last]
    else:
        node[int(last) if last.isdigit() else last] = value
    return json.dumps(d)


_DROP = object()


@pytest.mark.parametrize(
    "path, value, message",
    [
        (
            "battles.0.armies.0.kills_out",
            -1,
            r"\$\.battles\[0\]\.armies\[0\]\.kills_out: must be from 0 to",
        ),
        (
            "battles.0.armies.1.kills_in",
            3,
            r"armies\[1\]\.kills_out: 0 is less than kills_in \(3\): kills are counted so far",
        ),
        (
            "battles.0.armies.0.value_in",
            "16",
            r"armies\[0\]\.value_in: must be a whole number, not \"16\"",
        ),
        ("battles.0.armies.0.army", 7, r"armies\[0\]\.army: 7 is not the id of a army"),
        ("battles.0.armies.1.army", 1, r"armies\[1\]\.army: army 1 has two records"),
        ("battles.0.armies.0.alive_in", _DROP, r"armies\[0\]: missing field 'alive_in'"),
        ("battles.0.armies.0.name", "", r"armies\[0\]\.name: must not be empty"),
        ("battles.0.armies", {}, r"\$\.battles\[0\]\.armies: must be a list"),
        ("version", 1, r"armies: army records came with version 2 of the format; this file says"),
        ("battles.0.status", "in_progress", r"finished_at: a finished battle has a finish time"),
    ],
)
def test_a_broken_record_section_refuses_the_whole_file(
    sv: Services, camp: Camp, db: Database, path: str, value: Any, message: str
) -> None:
    _campaign(sv, camp)
    doc = json.loads(sv.transfer.export_json(camp.campaign.id))
    counts = table_counts(db)
    with pytest.raises(UserError, match=message):
        sv.transfer.import_campaign(_broken(doc, path, value), name="Broken")
    assert table_counts(db) == counts  # nothing written


def test_records_on_a_battle_not_finished_are_refused(sv: Services, camp: Camp) -> None:
    _campaign(sv, camp)
    doc = json.loads(sv.transfer.export_json(camp.campaign.id))
    b = doc["battles"][0]
    b.update(status="in_progress", finished_at=None)
    b.pop("result")
    with pytest.raises(UserError, match=r"armies: only a finished battle has army records"):
        sv.transfer.import_campaign(json.dumps(doc), name="Broken")
