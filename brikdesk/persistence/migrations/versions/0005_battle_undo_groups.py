"""A battle's undo groups get a column of their own.

An undo group is the events one user action recorded together (an attack that kills its target
and spends an Action): Undo and Redo take them back and bring them back as one. They were kept
in the battle's state cache (``battle.state["tracker"]["groups"]``); they are now
``battle.undo_groups``, a JSON list of ``[first seq, last seq]`` (one per group of more than one
event). The upgrade moves what each battle held into the column and drops it from the state;
the downgrade moves it back.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_battle = sa.table(
    "battle",
    sa.column("id", sa.Integer()),
    sa.column("state", sa.JSON()),
    sa.column("undo_groups", sa.JSON()),
)


def _clean(groups: Any) -> list[list[int]]:
    """The well-formed ``[first, last]`` pairs of a stored list (anything else is dropped)."""
    out: list[list[int]] = []
    for g in groups if isinstance(groups, list) else ():
        if isinstance(g, list) and len(g) == 2 and all(type(x) is int for x in g) and g[0] <= g[1]:
            out.append([g[0], g[1]])
    return out


def upgrade() -> None:
    # A plain ADD COLUMN (SQLite has it): a batch copy of the table would drop and make
    # ``battle`` again, and its players, units and events would go with it (ON DELETE CASCADE).
    op.add_column(
        "battle",
        sa.Column("undo_groups", sa.JSON(), nullable=False, server_default=sa.text("'[]'")),
    )
    conn = op.get_bind()
    for bid, state in conn.execute(sa.select(_battle.c.id, _battle.c.state)).all():
        if not isinstance(state, Mapping):
            continue
        tracker = state.get("tracker")
        if not isinstance(tracker, Mapping) or "groups" not in tracker:
            continue
        rest = {k: v for k, v in tracker.items() if k != "groups"}
        new_state = {k: v for k, v in state.items() if k != "tracker"}
        if rest:
            new_state["tracker"] = rest
        conn.execute(
            _battle.update()
            .where(_battle.c.id == bid)
            .values(state=new_state, undo_groups=_clean(tracker["groups"]))
        )


def downgrade() -> None:
    conn = op.get_bind()
    for bid, state, groups in conn.execute(
        sa.select(_battle.c.id, _battle.c.state, _battle.c.undo_groups)
    ).all():
        groups = _clean(groups)
        if not groups:
            continue
        state = dict(state) if isinstance(state, Mapping) else {}
        tracker = state.get("tracker")
        state["tracker"] = {**(tracker if isinstance(tracker, Mapping) else {}), "groups": groups}
        conn.execute(_battle.update().where(_battle.c.id == bid).values(state=state))
    op.drop_column("battle", "undo_groups")  # SQLite 3.35+ drops a column in place
