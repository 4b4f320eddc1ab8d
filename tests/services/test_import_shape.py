"""Import is bounded by the document's shape, not only its size: a file with more lists and
objects than a campaign at the largest size holds is refused before it is parsed, quickly and
whole; brackets inside texts do not count against it."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from brikdesk.errors import UserError
from brikdesk.limits import MAX_JSON_CONTAINERS, MAX_JSON_VALUES
from brikdesk.persistence.db import Database
from brikdesk.services import Services
from tests.services.campaign_data import table_counts


def demo_with(demo_sv: Services, tail: str) -> str:
    doc = demo_sv.transfer.export_campaign(demo_sv.campaigns.list_campaigns()[0].id)
    return json.dumps(doc)[:-1] + ', "x": [' + tail + "1]}"


@pytest.mark.parametrize(
    "shape, item, count",
    [
        ("lists nested 23 deep", "[" * 23 + "]" * 23 + ",", MAX_JSON_CONTAINERS // 23 + 100),
        ("empty objects", "{},", MAX_JSON_CONTAINERS + 100),
    ],
)
def test_too_many_lists_or_objects_are_refused_before_parsing(
    demo_sv: Services, demo_db: Database, tmp_path: Path, shape: str, item: str, count: int
) -> None:
    path = tmp_path / "shape.json"
    path.write_text(demo_with(demo_sv, item * count), encoding="utf-8")
    before = table_counts(demo_db)
    start = time.perf_counter()
    with pytest.raises(UserError) as info:
        demo_sv.transfer.import_file(path, name="Shape")
    took = time.perf_counter() - start
    assert f"$: the file holds more than {MAX_JSON_CONTAINERS:,} lists and objects" in str(
        info.value
    ), shape
    assert took < 5, (shape, took)
    assert table_counts(demo_db) == before


@pytest.mark.parametrize(
    "what, notes, limit",
    [
        ("a forum post's markup", "[b]" * 6000, MAX_JSON_CONTAINERS),
        ("a pasted CSV", "1,2,3,4,5\n" * 1818, MAX_JSON_VALUES),
    ],
)
def test_brackets_and_commas_inside_texts_do_not_count(
    demo_sv: Services, tmp_path: Path, what: str, notes: str, limit: int
) -> None:
    """Notes full of brackets or commas, over the limit counted as characters: the exact count
    leaves texts out, and the campaign is imported (what the services take reads back)."""
    doc = demo_sv.transfer.export_campaign(demo_sv.campaigns.list_campaigns()[0].id)
    doc["campaign"]["name"] = "Texts"
    army = doc["armies"][0]
    model = army["units"][0]
    base = max(u["id"] for a in doc["armies"] for u in a["units"])
    per_note = max(notes.count("["), notes.count(","))
    army["units"] += [
        dict(model, id=base + n + 1, name=f"Copy {n}", notes=notes)
        for n in range(limit // per_note + 10)
    ]
    data = json.dumps(doc)
    assert max(data.count("[") + data.count("{"), data.count(",")) > limit, what
    path = tmp_path / "texts.json"
    path.write_text(data, encoding="utf-8")
    done = demo_sv.transfer.import_file(path)
    assert done.value.name == "Texts"
