"""Battle tables: battle, battle_player, battle_unit, battle_event.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "battle",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.CheckConstraint(
            "status IN ('planned', 'in_progress', 'finished')", name=op.f("ck_battle_status")
        ),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaign.id"],
            name=op.f("fk_battle_campaign_id_campaign"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_battle")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_battle_campaign_id"), "battle", ["campaign_id"])
    op.create_table(
        "battle_player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("battle_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("turn_order", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["battle_id"],
            ["battle.id"],
            name=op.f("fk_battle_player_battle_id_battle"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
            name=op.f("fk_battle_player_player_id_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_battle_player")),
        sa.UniqueConstraint(
            "battle_id", "player_id", name=op.f("uq_battle_player_battle_id_player_id")
        ),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_battle_player_player_id"), "battle_player", ["player_id"])
    op.create_table(
        "battle_unit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("battle_id", sa.Integer(), nullable=False),
        sa.Column("unit_id", sa.Integer(), nullable=True),
        sa.Column("battle_player_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("spec", sa.JSON(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["battle_id"],
            ["battle.id"],
            name=op.f("fk_battle_unit_battle_id_battle"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["battle_player_id"],
            ["battle_player.id"],
            name=op.f("fk_battle_unit_battle_player_id_battle_player"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["unit_id"], ["unit.id"], name=op.f("fk_battle_unit_unit_id_unit"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_battle_unit")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_battle_unit_battle_id"), "battle_unit", ["battle_id"])
    op.create_index(op.f("ix_battle_unit_unit_id"), "battle_unit", ["unit_id"])
    op.create_index(op.f("ix_battle_unit_battle_player_id"), "battle_unit", ["battle_player_id"])
    op.create_table(
        "battle_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("battle_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("reverted", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor_id"],
            ["battle_unit.id"],
            name=op.f("fk_battle_event_actor_id_battle_unit"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["battle_id"],
            ["battle.id"],
            name=op.f("fk_battle_event_battle_id_battle"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["target_id"],
            ["battle_unit.id"],
            name=op.f("fk_battle_event_target_id_battle_unit"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_battle_event")),
        sa.UniqueConstraint("battle_id", "seq", name=op.f("uq_battle_event_battle_id_seq")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_battle_event_actor_id"), "battle_event", ["actor_id"])
    op.create_index(op.f("ix_battle_event_target_id"), "battle_event", ["target_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_battle_event_target_id"), table_name="battle_event")
    op.drop_index(op.f("ix_battle_event_actor_id"), table_name="battle_event")
    op.drop_table("battle_event")
    op.drop_index(op.f("ix_battle_unit_battle_player_id"), table_name="battle_unit")
    op.drop_index(op.f("ix_battle_unit_unit_id"), table_name="battle_unit")
    op.drop_index(op.f("ix_battle_unit_battle_id"), table_name="battle_unit")
    op.drop_table("battle_unit")
    op.drop_index(op.f("ix_battle_player_player_id"), table_name="battle_player")
    op.drop_table("battle_player")
    op.drop_index(op.f("ix_battle_campaign_id"), table_name="battle")
    op.drop_table("battle")
