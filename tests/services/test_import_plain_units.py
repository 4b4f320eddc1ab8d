"""The import reads a plain unit (the bulk of a large file) by a quicker path than the field by
field check: it must take exactly what the full check takes, with the same row, and leave
everything else to it (so a bad unit is refused with the same message, naming its path).
And the quicker JSON writer of the database writes what ``json.dumps`` writes."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brikdesk.limits import MAX_LOADOUT, MAX_NUMBER, NAME_LEN, NOTES_LEN
from brikdesk.persistence.db import dumps_json, open_database
from brikdesk.services import Services, transfer


@pytest.fixture(scope="module")
def demo_doc(demo_template: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The demo campaign's export (from a copy of the session's demo database)."""
    path = tmp_path_factory.mktemp("plain") / "demo.sqlite3"
    shutil.copyfile(demo_template, path)
    db = open_database(f"sqlite:///{path}")
    try:
        sv = Services.open(db)
        return sv.transfer.export_campaign(sv.campaigns.list_campaigns()[0].id)
    finally:
        db.close()


def outcome(doc: dict[str, Any]) -> Any:
    """What ``check_document`` makes of ``doc``: its rows, or the refusal's words."""
    try:
        plan = transfer.check_document(copy.deepcopy(doc))
    except Exception as exc:  # the refusal (a private exception type) or anything else
        return (type(exc).__name__, str(exc))
    return plan.units


def full_check_only(doc: dict[str, Any]) -> Any:
    with mock.patch.object(transfer, "_plain_unit", lambda raw, ids: None):
        return outcome(doc)


TEXTS = st.one_of(
    st.text(max_size=8),
    st.sampled_from(
        [
            "Trooper 1",
            " Trooper",
            "Two  spaces",
            "x" * (NAME_LEN + 1),
            "Sgt \u202ekills",
            "zero\u200bwidth",
            "tab\there",
            "line\nbreak",
            "lone \ud800",
            "",
            "   ",
            "n" * (NOTES_LEN + 1),
        ]
    ),
)
ODD = st.sampled_from([None, True, 0, -1, 1.5, MAX_NUMBER + 1, [], {}, "1", float("nan")])
KEYS = st.sampled_from(["hand-weapon", "body-armor", "Hand-Weapon", "bad key", "", "-x", None, 3])
VALUES = {
    "id": st.one_of(st.integers(-1, 3), st.just(MAX_NUMBER), st.just(10**9), ODD),
    "name": st.one_of(TEXTS, ODD),
    "type": st.one_of(st.sampled_from(["minifig", "hero", "Minifig", "no such"]), ODD),
    "overrides": st.one_of(
        st.just({}),
        st.sampled_from([{"move": 6}, {"armor": "5"}, {"armor": 5}, {"colour": 1}, {"cost": -1}]),
        ODD,
    ),
    "hands": st.one_of(st.lists(KEYS, max_size=MAX_LOADOUT + 1), ODD),
    "worn": st.one_of(st.lists(KEYS, max_size=3), ODD),
    "carried": st.one_of(st.lists(KEYS, max_size=3), ODD),
    "notes": st.one_of(TEXTS, ODD),
    "status": st.one_of(st.sampled_from(["alive", "dead", "wounded", "Alive", "gone"]), ODD),
    "battles_fought": st.one_of(st.integers(-2, 3), st.just(MAX_NUMBER), ODD),
    "kills": st.one_of(st.integers(-2, 3), st.just(MAX_NUMBER + 1), ODD),
}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    changes=st.dictionaries(st.sampled_from(sorted(VALUES)), st.none(), max_size=4).flatmap(
        lambda chosen: st.fixed_dictionaries({k: VALUES[k] for k in chosen})
    ),
    dropped=st.sampled_from([None, "notes", "kills"]),
    extra=st.booleans(),
)
def test_the_quick_path_takes_exactly_what_the_full_check_takes(
    demo_doc: dict[str, Any], changes: dict[str, Any], dropped: str | None, extra: bool
) -> None:
    doc = copy.deepcopy(demo_doc)
    unit = doc["armies"][0]["units"][1]
    unit.update(changes)
    if dropped is not None:
        del unit[dropped]
    if extra:
        unit["colour"] = "red"
    assert outcome(doc) == full_check_only(doc)


def test_a_plain_unit_takes_the_quick_path_and_a_bad_one_is_named(
    demo_doc: dict[str, Any],
) -> None:
    calls: list[int] = []
    real = transfer._plain_unit

    def counted(raw: Any, ids: Any) -> Any:
        row = real(raw, ids)
        calls.append(row is not None)
        return row

    with mock.patch.object(transfer, "_plain_unit", counted):
        transfer.check_document(copy.deepcopy(demo_doc))
    assert sum(calls) >= len(calls) - 1  # the demo's units are plain (one has an override)
    doc = copy.deepcopy(demo_doc)
    doc["armies"][1]["units"][2]["kills"] = -1
    assert outcome(doc) == (
        "_Refused",
        "$.armies[1].units[2].kills: must be from 0 to " + f"{MAX_NUMBER}, not -1",
    )


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(value=JSON | st.lists(st.text(), max_size=6) | st.just({}))
def test_the_database_writes_json_as_json_dumps_does(value: Any) -> None:
    assert dumps_json(value) == json.dumps(value)
