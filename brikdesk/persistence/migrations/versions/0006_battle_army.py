"""What each army was going into a finished battle and coming out of it.

``battle_army`` holds, per finished battle and army that fought in it, the army's value (the
cost of its living units), its units alive, its casualties and its kills so far, before and
after the battle. BrikDesk writes the rows when a battle is finished and removes them when that
is undone; the history's charts, ``history --json``, the Markdown and the PDF draw from them. A
battle finished before this revision has no rows: the history rebuilds its numbers from the
mustered units and the stored result and marks what it cannot rebuild as approximate.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_NUMBERS = (
    "value_in",
    "value_out",
    "alive_in",
    "alive_out",
    "casualties_in",
    "casualties_out",
    "kills_in",
    "kills_out",
)


def upgrade() -> None:
    op.create_table(
        "battle_army",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("battle_id", sa.Integer(), nullable=False),
        sa.Column("army_id", sa.Integer(), nullable=True),
        sa.Column("army", sa.String(length=100), nullable=False),
        *(sa.Column(n, sa.Integer(), nullable=False) for n in _NUMBERS),
        sa.ForeignKeyConstraint(
            ["battle_id"],
            ["battle.id"],
            name=op.f("fk_battle_army_battle_id_battle"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["army_id"],
            ["army.id"],
            name=op.f("fk_battle_army_army_id_army"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_battle_army")),
        sa.UniqueConstraint("battle_id", "army_id", name=op.f("uq_battle_army_battle_id_army_id")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_battle_army_army_id"), "battle_army", ["army_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_battle_army_army_id"), table_name="battle_army")
    op.drop_table("battle_army")
