"""Revision 0004 (the battle's result) upgrades a database holding battles and keeps them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from alembic import command
from sqlalchemy import create_engine, text

from brikdesk.persistence.db import alembic_config, head_revision, open_database
from brikdesk.services import Services

T = "'2025-01-02 03:04:05.000000'"


def test_a_database_at_0002_with_battles_is_upgraded_and_keeps_them(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0002")
        run = conn.execute
        run(
            text(
                "INSERT INTO campaign (id, name, edition, cost_system, default_budget, notes, "
                f"created_at, updated_at) VALUES (1, 'Old', '2020', 'CP', 60, '', {T}, {T})"
            )
        )
        for pid, name in ((1, "Ann"), (2, "Bo")):
            run(
                text(
                    f"INSERT INTO player (id, campaign_id, name, colour, faction) VALUES "
                    f"({pid}, 1, '{name}', '#112233', '')"
                )
            )
            run(
                text(
                    f"INSERT INTO army (id, campaign_id, player_id, name, budget) VALUES "
                    f"({pid}, 1, {pid}, '{name} army', 60)"
                )
            )
            run(
                text(
                    "INSERT INTO unit (id, army_id, name, type_key, overrides, hands, worn, "
                    f"carried, notes, status, battles_fought, kills, position) VALUES ({pid}, "
                    f"{pid}, '{name} fig', 'minifig', '{{}}', '[]', '[]', '[]', '', "
                    f"'{'dead' if pid == 2 else 'alive'}', 1, {1 if pid == 1 else 0}, 0)"
                )
            )
        run(
            text(
                "INSERT INTO battle (id, campaign_id, name, status, created_at, finished_at, "
                f"notes, state) VALUES (1, 1, 'Old Fight', 'finished', {T}, {T}, 'kept', "
                "'{}')"
            )
        )
        for bp in (1, 2):
            run(
                text(
                    f"INSERT INTO battle_player (id, battle_id, player_id, turn_order) VALUES "
                    f"({bp}, 1, {bp}, {bp - 1})"
                )
            )
            run(
                text(
                    "INSERT INTO battle_unit (id, battle_id, unit_id, battle_player_id, name, "
                    f"spec, state) VALUES ({bp}, 1, {bp}, {bp}, "
                    f"'{'Ann' if bp == 1 else 'Bo'} fig', '{{\"type\": \"minifig\"}}', '{{}}')"
                )
            )
        run(
            text(
                "INSERT INTO battle_event (id, battle_id, seq, kind, actor_id, target_id, "
                f"payload, created_at, reverted) VALUES (1, 1, 1, 'unit_killed', 1, 2, "
                f'\'{{"cause": ""}}\', {T}, 0)'
            )
        )
    engine.dispose()

    db = open_database(f"sqlite:///{path}")
    try:
        assert db.revision == head_revision() and db.backup is not None
        with sqlite3.connect(path) as conn:
            assert conn.execute("SELECT name, status, notes, result FROM battle").fetchall() == [
                ("Old Fight", "finished", "kept", None)
            ]
        sv = Services.open(db)
        am = sv.aftermath.aftermath(1)
        # No stored result: the old battle is read from its log.
        assert am.finished and am.result is None
        [dead] = [f for f in am.proposal.fates if f.fell]
        assert (dead.unit, dead.killed_by) == (2, 1)
        assert am.suggestion.winner == 1
        history = sv.history.history(1)
        [entry] = history.timeline
        assert (entry.name, entry.winner, entry.casualties) == (
            "Old Fight",
            "Ann",
            (("Ann", 0), ("Bo", 1)),
        )
    finally:
        db.close()
