"""Export and import: a documented, versioned format; round trips; refusals that say where."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from brikdesk.domain import battle as battle_rules
from brikdesk.domain.roster import Loadout, UnitOverrides
from brikdesk.errors import UserError
from brikdesk.persistence.db import Database
from brikdesk.services import Services
from brikdesk.services import transfer as transfer_module
from brikdesk.services.demo import DEMO_NAME
from brikdesk.services.roster import UnitPatch
from tests.services.campaign_data import demo_id, table_counts
from tests.services.conftest import TickingClock, open_fresh


def enrich(sv: Services) -> int:
    """The demo with house rules, a custom item and unit overrides, so every part is used."""
    cid = demo_id(sv)
    sv.catalog.set_item_field(cid, "long-ranged-weapon", "range", "12")
    key = sv.catalog.add_custom_item(cid, "Blunderbuss", based_on="short-ranged-weapon").value.key
    sv.catalog.add_custom_unit_type(cid, "Ship's Cat", based_on="skirmisher")
    army = sv.campaigns.list_armies(cid)[2]
    uid = sv.roster.roster(army.id).units[0].id
    sv.roster.edit_unit(
        uid,
        UnitPatch(
            overrides=UnitOverrides(move=8, armor="2d6+1"),
            loadout=Loadout((key, None), (), ("explosive",)),
        ),
    )
    return cid


def test_the_export_is_the_documented_format(demo_sv: Services) -> None:
    doc = demo_sv.transfer.export_campaign(demo_id(demo_sv))
    assert (doc["format"], doc["version"]) == ("brikdesk-campaign", 2)
    assert set(doc) == {
        "format",
        "version",
        "generator",
        "campaign",
        "players",
        "armies",
        "catalog",
        "battles",
    }
    assert [p["id"] for p in doc["players"]] == [1, 2, 3]
    assert [u["id"] for a in doc["armies"] for u in a["units"]] == list(range(1, 31))
    ford = doc["battles"][0]
    assert [u["id"] for u in ford["units"]] == list(range(1, 9))
    # Ids inside the tracker's payloads are export-local too.
    first = ford["events"][0]
    assert first["kind"] == "attack_resolved" and first["payload"]["killed"] == [8]
    assert ford["events"][1]["payload"] == {"player": 1, "round": 1}
    doc_path = Path(__file__).resolve().parents[2] / "docs" / "campaign-format.md"
    assert '"format": "brikdesk-campaign"' in doc_path.read_text(encoding="utf-8")


def test_a_round_trip_gives_an_identical_export(demo_sv: Services, db: Database) -> None:
    cid = enrich(demo_sv)
    first = demo_sv.transfer.export_json(cid)
    other = Services.open(db, TickingClock())
    imported = other.transfer.import_campaign(first).value
    assert other.transfer.export_json(imported.id) == first
    # In the same database under another name: the same apart from the name.
    copy = demo_sv.transfer.import_campaign(first, name="Copy").value
    again = json.loads(demo_sv.transfer.export_json(copy.id))
    again["campaign"]["name"] = DEMO_NAME
    assert again == json.loads(first)


def test_long_notes_and_unusual_text_survive_a_round_trip(sv: Services, db: Database) -> None:
    c = sv.campaigns.create_campaign("Ünïcødé ⚔ Campaign", notes="n" * 20_000).value
    p = sv.campaigns.add_player(c.id, 'Zoë "Z" O\'Brien', faction="Ordre du Brique").value
    army = sv.campaigns.add_army(p.id, "Légion").value
    sv.roster.add_unit(army.id, "minifig", name="Ça va", notes="line one\nline two\ttab")
    first = sv.transfer.export_json(c.id)
    done = sv.transfer.import_campaign(first.encode("utf-8"), name="Copy")
    again = json.loads(sv.transfer.export_json(done.value.id))
    again["campaign"]["name"] = "Ünïcødé ⚔ Campaign"
    assert again == json.loads(first)


def test_imported_battles_replay_the_same(demo_sv: Services) -> None:
    text = demo_sv.transfer.export_json(demo_id(demo_sv))
    copy = demo_sv.transfer.import_campaign(text, name="Copy").value

    def story(campaign_id: int) -> list[str]:
        lines = []
        for b in demo_sv.battles.list_battles(campaign_id):
            d = demo_sv.battles.battle(b.id)
            setup = battle_rules.BattleSetup(
                tuple(battle_rules.PlayerSetup(p.player_id, p.name) for p in d.players),
                tuple(battle_rules.UnitSetup(u.id, u.player_id, u.name) for u in d.units),
            )
            events = [
                battle_rules.from_payload(e.kind, e.actor_id, e.target_id, e.payload)
                for e in demo_sv.battles.events(b.id)
            ]
            battle_rules.replay(setup, events)
            lines += [battle_rules.describe(setup, e) for e in events]
        return lines

    original = story(demo_id(demo_sv))
    assert "Cactus Pete (Tobias) is killed" in original[0]
    assert story(copy.id) == original


def test_a_name_clash_is_refused_unless_renamed(demo_sv: Services, demo_db: Database) -> None:
    text = demo_sv.transfer.export_json(demo_id(demo_sv))
    before = table_counts(demo_db)
    with pytest.raises(UserError, match="already exists; import this one under another name"):
        demo_sv.transfer.import_campaign(text)
    assert table_counts(demo_db) == before
    done = demo_sv.transfer.import_campaign(text, name="Second Front")
    assert done.value.name == "Second Front" and done.value.units == 30
    done.undo()
    assert table_counts(demo_db) == before
    done.redo()
    assert demo_sv.campaigns.find_campaign("Second Front") is not None


def test_write_export_and_import_file(demo_sv: Services, tmp_path: Path) -> None:
    path = demo_sv.transfer.write_export(demo_id(demo_sv), tmp_path / "demo.json")
    # Written in place of a temporary file: nothing else is left behind.
    assert sorted(p.name for p in tmp_path.iterdir() if "json" in p.name) == ["demo.json"]
    c = demo_sv.transfer.import_file(path, name="From file").value
    assert c.battles == 2
    with pytest.raises(UserError, match="could not read"):
        demo_sv.transfer.import_file(tmp_path / "missing.json")


def mutate(doc: dict[str, Any], path: str, value: Any) -> str:
    """The document with the value at a dotted/indexed path replaced."""
    d = json.loads(json.dumps(doc))
    node: Any = d
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[int(k)] if isinstance(node, list) else node[k]
    last = keys[-1]
    if isinstance(node, list):
        node[int(last)] = value
    elif value is KeyError:
        del node[last]
    else:
        node[last] = value
    return json.dumps(d)


@pytest.mark.parametrize(
    "change, message",
    [
        (("format", "brikdesk-catalog"), "$.format: not a BrikDesk campaign export"),
        (("version", 3), "$.version: version 3 was written by a newer BrikDesk"),
        (
            ("armies.0.units.3.status", "zombie"),
            "$.armies[0].units[3].status: must be one of alive, wounded, dead",
        ),
        (("armies.1.player", 9), "$.armies[1].player: 9 is not the id of a player"),
        (("armies.0.units.0.hands.0", "Laser!"), '$.armies[0].units[0].hands[0]: "Laser!" is not'),
        (
            ("armies.0.units.0.overrides", {"action_die": 7}),
            "$.armies[0].units[0].overrides.action_die: the Action die is one of",
        ),
        (("players.1.id", 1), "$.players[1].id: id 1 is used twice"),
        (("players.0.colour", "red"), "$.players[0].colour"),
        (("campaign.default_budget", -1), "$.campaign.default_budget: must be from 0"),
        (("campaign.created_at", "yesterday"), "$.campaign.created_at: must be a UTC time"),
        (("battles.0.events.0.actor", 99), "$.battles[0].events[0].actor: 99 is not the id"),
        (
            ("battles.0.events.0.payload.killed", [42]),
            "$.battles[0].events[0].payload.killed[0]: 42 is not the id of a unit",
        ),
        (("battles.0.events.0.payload.dice.0.face", 9), "a d6 cannot show 9"),
        (("battles.0.events.0.payload.dice.0.role", []), "payload.dice[0].role: [] is not one of"),
        (("battles.0.events.0.payload.modifiers.0.applies_to", {}), "applies_to: {} is not one"),
        (
            ("battles.0.events.1.reverted", True),
            "$.battles[0].events[2].reverted: a standing event",
        ),
        (("battles.0.finished_at", None), "$.battles[0].finished_at: a finished battle"),
        (("battles.1.units.1.unit", 15), "$.battles[1].units[1].unit: unit 15 is mustered twice"),
        (("campaign.colour", "#fff"), "$.campaign: unknown field 'colour'"),
        (("campaign.name", KeyError), "$.campaign: missing field 'name'"),
    ],
)
def test_broken_files_are_refused_whole_saying_where(
    demo_sv: Services, demo_db: Database, change, message
) -> None:
    doc = demo_sv.transfer.export_campaign(demo_id(demo_sv))
    text = mutate(doc, *change)
    before = table_counts(demo_db)
    with pytest.raises(UserError) as err:
        demo_sv.transfer.import_campaign(text, name="Broken", source="broken.json")
    assert str(err.value).startswith("broken.json was not imported: ")
    assert message in str(err.value)
    assert table_counts(demo_db) == before


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "the file is empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8"),
        (b'{"format": "brikdesk-campaign", "version": 1, "campaign": {', "truncated"),
        (b"[" * 100_000, "nested too deeply"),
        (b'{"format": "brikdesk-campaign", "format": "x"}', "appears twice"),
        (b'{"format": "brikdesk-campaign", "version": NaN}', r"\$\.version: NaN is not a number"),
        (b"[1, 2, 3]", "not a BrikDesk campaign"),
        (
            json.dumps({"format": "brikdesk-catalog", "version": 1, "items": []}).encode(),
            "not a BrikDesk campaign export",
        ),
    ],
)
def test_foreign_and_hostile_files_are_refused(sv: Services, db: Database, data, message) -> None:
    before = table_counts(db)
    with pytest.raises(UserError, match=message):
        sv.transfer.import_campaign(data)
    assert table_counts(db) == before


def test_a_file_over_the_size_limit_is_refused(sv: Services, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(transfer_module, "MAX_FILE_BYTES", 1000)
    big = tmp_path / "big.json"
    big.write_text(" " * 2000, encoding="utf-8")
    with pytest.raises(UserError, match="larger than"):
        sv.transfer.import_file(big)


# -- fuzzing ---------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=8,
)


def all_paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += all_paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += all_paths(v, (*prefix, i))
    return out


def apply_mutation(doc: Any, path: tuple, action: str, value: Any) -> Any:
    d = json.loads(json.dumps(doc))
    if not path:
        return value
    parent = d
    for k in path[:-1]:
        parent = parent[k]
    last = path[-1]
    if action == "replace":
        parent[last] = value
    elif action == "delete":
        del parent[last]
    elif action == "insert" and isinstance(parent[last], dict):
        parent[last]["fuzz"] = value
    elif action == "insert" and isinstance(parent[last], list):
        parent[last].append(value)
    elif action == "duplicate" and isinstance(parent, list):
        parent.append(parent[last])
    return d


@pytest.fixture
def fuzz_source(request: pytest.FixtureRequest, backend: str, tmp_path: Path):
    db = open_fresh(request, tmp_path, "fuzz", demo=True)
    sv = Services.open(db, TickingClock())
    enrich(sv)
    doc = sv.transfer.export_campaign(demo_id(sv))
    yield db, sv, doc, all_paths(doc)
    db.close()


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzzed_exports_are_imported_or_refused_cleanly(fuzz_source, data) -> None:
    db, sv, doc, paths = fuzz_source
    kind = data.draw(st.sampled_from(["mutate", "mutate", "mutate", "truncate", "bytes"]))
    text = json.dumps(doc).encode()
    if kind == "truncate":
        payload = text[: data.draw(st.integers(0, len(text) - 1))]
    elif kind == "bytes":
        buf = bytearray(text)
        for _ in range(data.draw(st.integers(1, 5))):
            i = data.draw(st.integers(0, len(buf) - 1))
            buf[i] = data.draw(st.integers(0, 255))
        payload = bytes(buf)
    else:
        mutated: Any = doc
        for _ in range(data.draw(st.integers(1, 3))):
            path = data.draw(st.sampled_from(paths))
            action = data.draw(st.sampled_from(["replace", "delete", "insert", "duplicate"]))
            try:
                mutated = apply_mutation(mutated, path, action, data.draw(JSON_VALUES))
            except (KeyError, IndexError, TypeError):
                continue
        payload = json.dumps(mutated).encode()
    before = table_counts(db)
    try:
        done = sv.transfer.import_campaign(payload, name="Fuzzed")
    except UserError as exc:
        event(f"refused ({kind})")
        assert " was not imported: " in str(exc) or "already exists" in str(exc)
        assert table_counts(db) == before
        return
    event(f"imported ({kind})")
    # Accepted: it must read back as a document that imports again, then go away cleanly.
    again = sv.transfer.export_json(done.value.id)
    sv.transfer.check(again)
    sv.campaigns.delete_campaign(done.value.id)
    assert table_counts(db) == before
