"""Snapshots of deleted rows, so that an undone delete puts everything back with the same ids.

``take(session, table, where)`` collects the rows a delete of ``table WHERE where`` removes:
those rows, every row that the database's ``ON DELETE CASCADE`` removes with them (found by
walking the models' foreign keys), and the references that ``ON DELETE SET NULL`` clears
(``Relink``). ``restore(session, snapshot)`` inserts the rows again, parents first, and sets the
cleared references back. Rows are plain column dicts: nothing in a snapshot is a live ORM object.

Child rows are selected through subqueries (``fk IN (SELECT id ...)``), never long lists of ids,
so a snapshot of an army of 10,000 units is a handful of queries on any database.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    ColumnElement,
    Select,
    Table,
    bindparam,
    delete,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.orm import Session

from brikdesk.persistence.models import Base

Row = dict[str, Any]


@dataclass(frozen=True)
class Relink:
    """``table.column`` of the row ``row_id`` pointed at ``value`` before the delete."""

    table: str
    column: str
    row_id: int
    value: int


@dataclass(frozen=True)
class Snapshot:
    """Deleted rows by table (in insertion order) and the references the delete cleared."""

    root: str
    rows: tuple[tuple[str, tuple[Row, ...]], ...]
    relinks: tuple[Relink, ...] = ()

    def ids(self, table: str) -> tuple[int, ...]:
        for name, rows in self.rows:
            if name == table:
                return tuple(r["id"] for r in rows)
        return ()

    def count(self, table: str) -> int:
        return len(self.ids(table))

    def table_rows(self, table: str) -> tuple[Row, ...]:
        for name, rows in self.rows:
            if name == table:
                return rows
        return ()


def _children(table: Table) -> Iterable[tuple[Table, Column[int], str]]:
    """(child table, child fk column, ondelete) for every foreign key that points at ``table``."""
    for child in Base.metadata.sorted_tables:
        for fk in child.foreign_keys:
            if fk.column.table is table:
                yield child, fk.parent, (fk.ondelete or "").upper()


def take(session: Session, table: Table, where: ColumnElement[bool]) -> Snapshot:
    """Everything a ``DELETE FROM table WHERE where`` removes or clears, as plain rows."""
    found: dict[str, list[Row]] = {}
    relinks: list[Relink] = []
    # Each entry: (table, a SELECT of the ids of the rows that are deleted in it).
    deleted: dict[str, Select[Any]] = {}
    pending: list[tuple[Table, Select[Any]]] = [(table, select(table.c.id).where(where))]
    while pending:
        tbl, ids = pending.pop(0)
        if tbl.name in deleted:  # reached by a second path (e.g. army and player): union them
            ids = select(tbl.c.id).where(tbl.c.id.in_(deleted[tbl.name]) | tbl.c.id.in_(ids))
        deleted[tbl.name] = ids
        for child, col, ondelete in _children(tbl):
            child_ids = select(child.c.id).where(col.in_(ids))
            if ondelete == "CASCADE":
                pending.append((child, child_ids))
            # SET NULL references are collected below, once every cascading path is known.
    for name, ids in deleted.items():
        tbl = Base.metadata.tables[name]
        found[name] = [
            dict(r._mapping)
            for r in session.execute(select(tbl).where(tbl.c.id.in_(ids)).order_by(tbl.c.id))
        ]
    gone = {name: {r["id"] for r in rows} for name, rows in found.items()}
    for name, ids in deleted.items():
        tbl = Base.metadata.tables[name]
        for child, col, ondelete in _children(tbl):
            if ondelete != "SET NULL":
                continue
            pointing: Iterable[tuple[int, int]] = session.execute(
                select(child.c.id, col).where(col.in_(ids)).order_by(child.c.id)
            )
            for rid, value in pointing:
                if rid not in gone.get(child.name, ()):
                    relinks.append(Relink(child.name, col.name, rid, value))
    order = [t.name for t in Base.metadata.sorted_tables if t.name in found]
    return Snapshot(
        root=table.name,
        rows=tuple((name, tuple(found[name])) for name in order if found[name]),
        relinks=tuple(relinks),
    )


def delete_rows(session: Session, table: Table, where: ColumnElement[bool]) -> None:
    """Delete; the database's own ON DELETE rules remove and clear the dependants."""
    session.execute(delete(table).where(where))


def restore(session: Session, snap: Snapshot) -> None:
    """Insert the snapshot's rows again (same ids) and set back the cleared references."""
    for name, rows in snap.rows:
        tbl = Base.metadata.tables[name]
        session.execute(insert(tbl), [dict(r) for r in rows])
        _advance_id_sequence(session, name, max(r["id"] for r in rows))
    by_column: dict[tuple[str, str], list[dict[str, int]]] = {}
    for rl in snap.relinks:
        by_column.setdefault((rl.table, rl.column), []).append(
            {"rid": rl.row_id, "value": rl.value}
        )
    for (name, column), params in by_column.items():
        tbl = Base.metadata.tables[name]
        session.execute(
            update(tbl).where(tbl.c.id == bindparam("rid")).values({column: bindparam("value")}),
            params,
        )


def _advance_id_sequence(session: Session, table: str, top: int) -> None:
    """After rows were inserted with their own ids, new rows must still get higher ones.

    SQLite's AUTOINCREMENT does this by itself; a PostgreSQL sequence does not notice explicit
    ids, so it is moved up to ``top`` when it is below (never down: ids are never reused).
    """
    if session.get_bind().dialect.name != "postgresql":
        return
    session.execute(
        text(
            "SELECT setval(seq, :top) FROM (SELECT pg_get_serial_sequence(:table, 'id')::regclass "
            "AS seq) AS s WHERE :top > COALESCE(pg_sequence_last_value(seq), 0)"
        ),
        {"table": table, "top": top},
    )


def existing_ids(session: Session, snap: Snapshot) -> dict[str, int]:
    """Per table, how many of the snapshot's ids are in use again (a restore would clash)."""
    clashes: dict[str, int] = {}
    for name, rows in snap.rows:
        tbl = Base.metadata.tables[name]
        ids = [r["id"] for r in rows]
        n = 0
        for i in range(0, len(ids), 500):
            n += len(session.execute(select(tbl.c.id).where(tbl.c.id.in_(ids[i : i + 500]))).all())
        if n:
            clashes[name] = n
    return clashes
