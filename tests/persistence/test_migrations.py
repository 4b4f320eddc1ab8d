"""Opening databases: migrations to head, no drift, upgrades keep data, backups, refusals."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text

from brikdesk.errors import StorageError
from brikdesk.persistence.db import (
    alembic_config,
    default_url,
    head_revision,
    open_database,
)
from brikdesk.persistence.models import Base
from brikdesk.services import Services
from tests.databases import fresh_url

ROOT = Path(__file__).resolve().parents[2]


def url(path: Path) -> str:
    return f"sqlite:///{path}"


def test_an_empty_database_is_migrated_to_head_with_no_drift(backend: str, tmp_path: Path) -> None:
    new = fresh_url(tmp_path, "new")
    db = open_database(new)
    try:
        assert db.fresh and db.backup is None
        assert db.revision == head_revision() == "0006"
        with db.engine.connect() as conn:
            ctx = MigrationContext.configure(conn, opts={"compare_type": True})
            assert compare_metadata(ctx, Base.metadata) == []
            tables = set(inspect(conn).get_table_names())
        assert set(Base.metadata.tables) <= tables
    finally:
        db.close()
    # Opening it again changes nothing and makes no backup.
    again = open_database(new)
    assert not again.fresh and again.backup is None
    again.close()
    assert list(tmp_path.glob("*.bak-*")) == []


def test_the_revisions_are_in_one_line() -> None:
    script = ScriptDirectory.from_config(alembic_config())
    revs = {s.revision: s.down_revision for s in script.walk_revisions()}
    assert revs == {
        "0006": "0005",
        "0005": "0004",
        "0004": "0003",
        "0003": "0002",
        "0002": "0001",
        "0001": None,
    }
    assert script.get_heads() == ["0006"]


def test_every_revision_downgrades_to_an_empty_schema(backend: str, tmp_path: Path) -> None:
    db = open_database(fresh_url(tmp_path, "down"))
    with db.engine.begin() as conn:
        command.downgrade(alembic_config(conn), "base")
    with db.engine.connect() as conn:
        assert (
            set(inspect(conn).get_table_names()) - {"alembic_version", "sqlite_sequence"} == set()
        )
    db.close()


def test_sqlite_connections_have_foreign_keys_wal_and_a_busy_timeout(tmp_path: Path) -> None:
    db = open_database(url(tmp_path / "p.sqlite3"))
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
    db.close()


def test_a_database_made_at_revision_0001_keeps_its_data_when_upgraded(
    backend: str, tmp_path: Path
) -> None:
    old_url = fresh_url(tmp_path, "old")
    engine = create_engine(old_url)
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0001")
        conn.execute(
            text(
                "INSERT INTO campaign (id, name, edition, cost_system, default_budget, notes, "
                "created_at, updated_at) VALUES (1, 'Old Campaign', '2020', 'CP', 60, 'kept', "
                "'2025-01-02 03:04:05.000000', '2025-01-02 03:04:05.000000')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO player (id, campaign_id, name, colour, faction) "
                "VALUES (1, 1, 'Ann', '#112233', 'Owls')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO army (id, campaign_id, player_id, name, budget) "
                "VALUES (1, 1, 1, 'Owl Guard', 60)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO unit (id, army_id, name, type_key, overrides, hands, worn, carried, "
                "notes, status, battles_fought, kills, position) VALUES (1, 1, 'Hoot', "
                "'minifig', '{\"move\": 6}', '[\"long-ranged-weapon\"]', '[\"body-armor\"]', '[]', "
                "'', 'wounded', 3, 2, 1)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO house_item (id, campaign_id, key, data, custom) VALUES "
                '(1, 1, \'laser\', \'{"key": "laser", "name": "Laser", '
                '"category": "weapon", "cost": 6, "use": 3, '
                '"range_inches": 12, "close_combat": false, '
                '"damage": "1d8", "hands": 1}\', TRUE)'
            )
        )
    engine.dispose()

    db = open_database(old_url)
    try:
        assert db.revision == head_revision() and not db.fresh
        if db.is_sqlite:
            # The backup was made before migrating, named after the old revision, and holds
            # the old schema with the data (a server database is backed up with pg_dump).
            assert db.backup is not None and db.backup.exists()
            assert re.fullmatch(r"old\.sqlite3\.bak-0001-\d{8}T\d{6}", db.backup.name)
            with sqlite3.connect(db.backup) as old:
                assert old.execute("SELECT version_num FROM alembic_version").fetchone() == (
                    "0001",
                )
                assert old.execute("SELECT name FROM unit").fetchall() == [("Hoot",)]
                assert not old.execute(
                    "SELECT name FROM sqlite_master WHERE name='battle'"
                ).fetchall()
        else:
            assert db.backup is None
        sv = Services.open(db)
        [c] = sv.campaigns.list_campaigns()
        assert (c.name, c.default_budget, c.notes) == ("Old Campaign", 60, "kept")
        [army] = sv.campaigns.list_armies(c.id)
        roster = sv.roster.roster(army.id)
        [u] = roster.units
        assert (u.name, u.status, u.battles_fought, u.kills) == ("Hoot", "wounded", 3, 2)
        assert u.move == 6 and u.armor == "6" and u.hands == ("Long-Ranged Weapon",)
        assert sv.catalog.catalog(c.id).item("laser").house_rule
        # The new battle tables work on the upgraded file.
        assert sv.battles.list_battles(c.id) == ()
    finally:
        db.close()


def test_a_database_made_at_revision_0002_keeps_its_data_and_gets_version_1(
    backend: str, tmp_path: Path
) -> None:
    """0003 adds the row versions: every existing row is at version 1, nothing is lost (the
    battle with its log included), and the first edit after the upgrade makes it 2."""
    from brikdesk.services.roster import UnitPatch

    old = fresh_url(tmp_path, "v0002")
    engine = create_engine(old)
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0002")
        for sql in (
            "INSERT INTO campaign (id, name, edition, cost_system, default_budget, notes, "
            "created_at, updated_at) VALUES (1, 'Old Campaign', '2020', 'CP', 60, 'kept', "
            "'2025-01-02 03:04:05', '2025-01-02 03:04:05')",
            "INSERT INTO player (id, campaign_id, name, colour, faction) VALUES "
            "(1, 1, 'Ann', '#112233', 'Owls'), (2, 1, 'Bo', '#332211', '')",
            "INSERT INTO army (id, campaign_id, player_id, name, budget) VALUES "
            "(1, 1, 1, 'Owl Guard', 60), (2, 1, 2, 'Crows', NULL)",
            "INSERT INTO unit (id, army_id, name, type_key, overrides, hands, worn, carried, "
            "notes, status, battles_fought, kills, position) VALUES "
            "(1, 1, 'Hoot', 'minifig', '{}', '[]', '[]', '[]', '', 'alive', 1, 2, 1), "
            "(2, 2, 'Caw', 'minifig', '{}', '[]', '[]', '[]', '', 'alive', 1, 0, 1)",
            "INSERT INTO house_unit_type (id, campaign_id, key, data, custom) VALUES (1, 1, "
            '\'owl\', \'{"key": "owl", "name": "Owl", "action_die": 6, '
            '"move": 5, "armor": "4", "cost": 4}\', true)',
            "INSERT INTO battle (id, campaign_id, name, status, created_at, notes, state) "
            "VALUES (1, 1, 'Night Raid', 'in_progress', '2025-01-03 10:00:00', '', '{}')",
            "INSERT INTO battle_player (id, battle_id, player_id, turn_order) VALUES "
            "(1, 1, 1, 0), (2, 1, 2, 1)",
            "INSERT INTO battle_unit (id, battle_id, unit_id, battle_player_id, name, spec, "
            "state) VALUES (1, 1, 1, 1, 'Hoot', '{\"type\": \"minifig\"}', '{}'), "
            "(2, 1, 2, 2, 'Caw', '{\"type\": \"minifig\"}', '{}')",
            "INSERT INTO battle_event (id, battle_id, seq, kind, actor_id, target_id, payload, "
            "created_at, reverted) VALUES (1, 1, 1, 'turn_ended', NULL, NULL, '{}', "
            "'2025-01-03 10:05:00', false)",
        ):
            conn.execute(text(sql))
    engine.dispose()

    db = open_database(old)
    try:
        assert db.revision == head_revision()
        with db.engine.connect() as conn:
            for table in ("campaign", "player", "army", "unit", "house_unit_type", "battle"):
                assert conn.execute(text(f"SELECT version FROM {table}")).scalars().all() in (
                    [1],
                    [1, 1],
                ), table
            assert conn.execute(text("SELECT count(*) FROM battle_event")).scalar() == 1
            assert conn.execute(text("SELECT count(*) FROM battle_unit")).scalar() == 2
        sv = Services.open(db)
        [c] = sv.campaigns.list_campaigns()
        assert (c.name, c.notes, c.version) == ("Old Campaign", "kept", 1)
        armies = sv.campaigns.list_armies(c.id)
        assert [(a.name, a.version) for a in armies] == [("Owl Guard", 1), ("Crows", 1)]
        [hoot] = sv.roster.roster(armies[0].id).units
        assert (hoot.name, hoot.kills, hoot.version) == ("Hoot", 2, 1)
        assert [e.kind for e in sv.battles.events(1)] == ["turn_ended"]
        sv.roster.edit_unit(hoot.id, UnitPatch(kills=3), version=1)
        [hoot] = sv.roster.roster(armies[0].id).units
        assert (hoot.kills, hoot.version) == (3, 2)
        if db.is_sqlite:  # the tables were altered, not rebuilt: ids are still never reused
            sv.roster.delete_unit(2)
            assert sv.roster.add_unit(armies[1].id, "minifig").value == (3,)
    finally:
        db.close()


def test_a_file_that_is_not_a_brikdesk_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE recipes (id INTEGER PRIMARY KEY, name TEXT)")
    with pytest.raises(StorageError, match="not a BrikDesk database"):
        open_database(url(path))
    assert list(tmp_path.glob("*.bak-*")) == []


def test_a_database_from_a_newer_brikdesk_is_refused(backend: str, tmp_path: Path) -> None:
    newer = fresh_url(tmp_path, "newer")
    db = open_database(newer)
    with db.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    db.close()
    with pytest.raises(StorageError, match="newer BrikDesk"):
        open_database(newer)


def test_a_database_in_a_missing_folder_is_a_storage_error(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="does not exist"):
        open_database(url(tmp_path / "nowhere" / "x.sqlite3"))


def test_a_corrupt_file_is_a_storage_error(tmp_path: Path) -> None:
    path = tmp_path / "corrupt.sqlite3"
    path.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StorageError, match="not a BrikDesk database .it is not an SQLite file"):
        open_database(url(path))


def test_default_url_follows_brikdesk_db_then_brikdesk_home(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("BRIKDESK_DB", raising=False)
    monkeypatch.setenv("BRIKDESK_HOME", str(tmp_path / "home"))
    assert default_url() == f"sqlite:///{tmp_path / 'home' / 'brikdesk.sqlite3'}"
    assert (tmp_path / "home").is_dir()
    monkeypatch.setenv("BRIKDESK_DB", "sqlite:////somewhere/else.db")
    assert default_url() == "sqlite:////somewhere/else.db"


def test_production_code_never_calls_create_all() -> None:
    offenders = [
        p
        for p in (ROOT / "brikdesk").rglob("*.py")
        if re.search(r"\.create_all\(", p.read_text(encoding="utf-8"))
    ]
    assert offenders == []


def test_the_head_revision_constant_matches_the_migration_scripts(tmp_path):
    """Opening a database reads HEAD_REVISION without importing Alembic; it must be true."""
    from brikdesk.persistence.db import HEAD_REVISION

    assert head_revision() == HEAD_REVISION


def test_opening_an_up_to_date_database_does_not_import_alembic(tmp_path):
    url = f"sqlite:///{tmp_path / 'b.sqlite3'}"
    open_database(url).close()
    script = (
        "import sys; from brikdesk.persistence.db import open_database; "
        f"open_database({url!r}).close(); print('alembic' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, encoding="utf-8", check=True
    ).stdout.strip()
    assert out == "False"
