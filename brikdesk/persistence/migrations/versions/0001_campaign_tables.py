"""Campaign tables: campaign, player, army, house-rule catalog entries, unit.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "campaign",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("edition", sa.String(length=10), nullable=False),
        sa.Column("cost_system", sa.String(length=20), nullable=False),
        sa.Column("default_budget", sa.Integer(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint(
            "cost_system IN ('CP', 'Unit Inches')", name=op.f("ck_campaign_cost_system")
        ),
        sa.CheckConstraint("default_budget >= 0", name=op.f("ck_campaign_default_budget")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_campaign")),
        sa.UniqueConstraint("name", name=op.f("uq_campaign_name")),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("colour", sa.String(length=7), nullable=False),
        sa.Column("faction", sa.String(length=100), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaign.id"],
            name=op.f("fk_player_campaign_id_campaign"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player")),
        sa.UniqueConstraint("campaign_id", "name", name=op.f("uq_player_campaign_id_name")),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "army",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("campaign_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("budget", sa.Integer(), nullable=True),
        sa.CheckConstraint("budget IS NULL OR budget >= 0", name=op.f("ck_army_budget")),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaign.id"],
            name=op.f("fk_army_campaign_id_campaign"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_army_player_id_player"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_army")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_army_campaign_id"), "army", ["campaign_id"])
    op.create_index(op.f("ix_army_player_id"), "army", ["player_id"])
    for table in ("house_item", "house_unit_type"):
        op.create_table(
            table,
            sa.Column("id", sa.Integer(), nullable=False),
            sa.Column("campaign_id", sa.Integer(), nullable=False),
            sa.Column("key", sa.String(length=64), nullable=False),
            sa.Column("data", sa.JSON(), nullable=False),
            sa.Column("custom", sa.Boolean(), nullable=False),
            sa.ForeignKeyConstraint(
                ["campaign_id"],
                ["campaign.id"],
                name=op.f(f"fk_{table}_campaign_id_campaign"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("id", name=op.f(f"pk_{table}")),
            sa.UniqueConstraint("campaign_id", "key", name=op.f(f"uq_{table}_campaign_id_key")),
            sqlite_autoincrement=True,
        )
    op.create_table(
        "unit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("army_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("type_key", sa.String(length=64), nullable=False),
        sa.Column("overrides", sa.JSON(), nullable=False),
        sa.Column("hands", sa.JSON(), nullable=False),
        sa.Column("worn", sa.JSON(), nullable=False),
        sa.Column("carried", sa.JSON(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("battles_fought", sa.Integer(), nullable=False),
        sa.Column("kills", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.CheckConstraint("status IN ('alive', 'wounded', 'dead')", name=op.f("ck_unit_status")),
        sa.CheckConstraint("battles_fought >= 0 AND kills >= 0", name=op.f("ck_unit_record")),
        sa.ForeignKeyConstraint(
            ["army_id"], ["army.id"], name=op.f("fk_unit_army_id_army"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_unit")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_unit_army_id_position"), "unit", ["army_id", "position"])


def downgrade() -> None:
    op.drop_index(op.f("ix_unit_army_id_position"), table_name="unit")
    op.drop_table("unit")
    op.drop_table("house_unit_type")
    op.drop_table("house_item")
    op.drop_index(op.f("ix_army_player_id"), table_name="army")
    op.drop_index(op.f("ix_army_campaign_id"), table_name="army")
    op.drop_table("army")
    op.drop_table("player")
    op.drop_table("campaign")
