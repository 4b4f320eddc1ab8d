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


# -- the checks before the parse take constant memory -------------------------------------------

#: Texts with what the count must pass over: commas, brackets, escaped quotes and backslashes.
TRICKY = [
    '"a,b[c{d"',
    '"\\\\"',
    '"\\"[,{"',
    '"x\\\\\\"y,"',
    '""',
    '"' + ",[{" * 40 + '"',
]


def tricky_document(n: int) -> str:
    items = [TRICKY[i % len(TRICKY)] if i % 3 else f'[{{"k{i}": {i}}}]' for i in range(n)]
    return '{"x": [' + ",".join(items) + "]}"


@pytest.mark.parametrize("piece", [1, 2, 3, 5, 7, 64, 1 << 18])
def test_the_exact_count_leaves_texts_out_wherever_the_pieces_end(
    monkeypatch: pytest.MonkeyPatch, piece: int
) -> None:
    """Piece by piece, a text cut by a piece's end (inside an escape too) is passed over
    whole: the count equals the values and brackets json itself finds."""
    from brikdesk.services import transfer

    monkeypatch.setattr(transfer, "_SHAPE_PIECE", piece)
    text = tricky_document(300)
    values = len(json.loads(text)["x"])
    lists = 1 + sum(1 for i in range(300) if i % 3 == 0)  # the outer list and one a third
    objects = 1 + sum(1 for i in range(300) if i % 3 == 0)
    for data in (text, text.encode()):
        assert transfer._count_outside_texts(data, (10**9, 10**9)) == (values - 1, lists + objects)


def test_an_unended_text_stops_the_count_and_is_left_to_the_parse() -> None:
    from brikdesk.services import transfer

    assert transfer._count_outside_texts(b'[1,2,"3,4', (10, 10)) == (2, 1)


@pytest.mark.parametrize(
    "shape, item",
    [("short texts", '"a",'), ("small objects", '{"a":1},'), ("nested objects", '{"a":{"b":{}}},')],
)
def test_a_hostile_shape_is_refused_in_constant_memory(
    monkeypatch: pytest.MonkeyPatch, shape: str, item: str
) -> None:
    """Short texts, small objects or nested objects over a bound (here a quarter of the real
    ones, for a file a quarter of 26 MB), and over it only once the texts are left out (the
    exact count), are refused by the check before the parse while it holds less than half
    the file beyond the file itself: a piece at a time, never a copy of the whole (a
    whole-file expression took 2.8 GB for 63 MB of short texts)."""
    import tracemalloc

    from brikdesk.services import transfer

    monkeypatch.setattr(transfer, "MAX_JSON_VALUES", MAX_JSON_VALUES // 4)
    monkeypatch.setattr(transfer, "MAX_JSON_CONTAINERS", MAX_JSON_CONTAINERS // 4)
    padding = '"' + ",[" * 1_000_000 + '",'  # commas and brackets in a text: the exact count
    data = ('{"x": [' + padding + item * (6_500_000 // len(item)) + "1]}").encode()
    tracemalloc.start()
    try:
        with pytest.raises(transfer._Refused, match="the file holds more than"):
            transfer._check_shape(data)
        _size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < len(data) // 2, (shape, peak)


def test_checking_a_long_list_of_objects_stacks_no_items() -> None:
    """``check_json`` walks 100,000 small objects holding one iterator a level: a few kB, not
    the 15 MB of every item stacked with its path."""
    import tracemalloc

    from brikdesk.services.events import check_json

    doc = {"x": [{"a": 1, "b": [1, 2]} for _ in range(100_000)]}
    tracemalloc.start()
    try:
        check_json(doc, "$")
        _size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024, peak
