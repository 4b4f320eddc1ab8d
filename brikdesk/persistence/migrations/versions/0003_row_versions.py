"""Row versions: a ``version`` counter on every table whose rows a user edits.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24

Existing rows get version 1 (the server default), as new rows do. SQLite batch mode is told
never to rebuild a table: ``ALTER TABLE ... ADD COLUMN`` with a constant default does the job,
and a rebuild would lose the tables' AUTOINCREMENT (ids never reused) and, with foreign keys on,
drop a parent table's children through ``ON DELETE CASCADE``. The default is a plain string for
that reason (Alembic rebuilds the table for an SQL expression default).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

#: The versioned tables (``brikdesk.persistence.models.Versioned``).
TABLES = ("campaign", "player", "army", "house_item", "house_unit_type", "unit", "battle")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table, recreate="never") as batch:
            batch.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="1"))


def downgrade() -> None:
    for table in reversed(TABLES):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("version")
