"""The result of a finished battle: winner, notes and what happened to each mustered unit.

``battle.result`` is NULL until BrikDesk's post-battle update finishes the battle (and again
after that is undone); a battle finished before this revision keeps NULL and its outcomes are
read from its log. See ``brikdesk.services.aftermath`` for the JSON's shape.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("battle") as batch:
        batch.add_column(sa.Column("result", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("battle") as batch:
        batch.drop_column("result")
