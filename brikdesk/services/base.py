"""The base every service builds on: transactions, snapshots for undo, campaign touch.

Transactions: ``with self._sessions.begin() as s:`` for an action that writes (on SQLite it
begins ``IMMEDIATE``: it waits for the write lock up front, see ``persistence/db.py``), and
``with self._reading() as s:`` for one that only reads (deferred on SQLite: it never holds up a
writer). Rows a write depends on are read with :meth:`ServiceBase._lock` and checked against
the version the caller saw (``services/versions.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, Table, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from brikdesk.domain.ids import CampaignId, UnitId
from brikdesk.errors import UserError
from brikdesk.persistence import snapshots
from brikdesk.persistence.db import reading
from brikdesk.persistence.models import Army, Base, Campaign, Unit
from brikdesk.persistence.snapshots import Snapshot
from brikdesk.services.common import (
    Changes,
    Clock,
    Done,
    is_id,
    step,
    storage_errors,
    to_db_time,
    unknown,
    utc_now,
)
from brikdesk.services.versions import Expected, check, lock, seen_from_dict

#: What a change to each table means for the views.
TABLE_CHANGES: dict[str, Changes] = {
    "campaign": Changes.CAMPAIGNS,
    "player": Changes.PLAYERS,
    "army": Changes.ARMIES,
    "unit": Changes.UNITS,
    "house_item": Changes.CATALOG,
    "house_unit_type": Changes.CATALOG,
    "battle": Changes.BATTLES,
    "battle_player": Changes.BATTLES,
    "battle_unit": Changes.BATTLES,
    "battle_event": Changes.EVENTS,
}


#: A mapped class (``ServiceBase._get`` returns a row of the class it is given).
M = TypeVar("M", bound=Base)


def changes_of(snap: Snapshot) -> Changes:
    out = Changes.NONE
    for name, _rows in snap.rows:
        out |= TABLE_CHANGES.get(name, Changes.NONE)
    for rl in snap.relinks:
        out |= TABLE_CHANGES.get(rl.table, Changes.NONE)
    return out


class ServiceBase:
    """Holds the session factory and the clock; helpers for one-transaction actions."""

    def __init__(self, sessions: sessionmaker[Session], clock: Clock = utc_now) -> None:
        self._sessions = sessions
        self._clock = clock

    def _now(self) -> datetime:
        return to_db_time(self._clock())

    def _reading(self) -> AbstractContextManager[Session]:
        """A transaction that only reads (deferred on SQLite; see ``persistence/db.py``)."""
        return reading(self._sessions)

    @staticmethod
    def _lock(
        s: Session,
        model: type[Any],
        ident: object,
        what: str,
        expected: Expected = None,
        *,
        fields: tuple[str, ...] = (),
    ) -> Any:
        """The row, locked for this transaction and checked against what the caller saw.

        No row: ``ConflictError`` if the caller had seen one (``expected``), else the usual
        "there is no ... with id" ``UserError``."""
        if not is_id(ident):
            raise unknown(what, ident)
        row = lock(s, model, ident)
        if row is None and expected is None:
            raise unknown(what, ident)
        check(row, expected, model.__tablename__, fields=fields)
        return row

    def _touch(self, s: Session, campaign_id: CampaignId) -> None:
        """Mark the campaign as changed now (its ``updated_at``)."""
        s.execute(update(Campaign).where(Campaign.id == campaign_id).values(updated_at=self._now()))

    @staticmethod
    def _get(s: Session, model: type[M], ident: object, what: str) -> M:
        """The row of ``model`` with id ``ident``; "there is no ... with id" if none."""
        if not is_id(ident):
            raise unknown(what, ident)
        row = s.get(model, ident)
        if row is None:
            raise unknown(what, ident)
        return row

    @staticmethod
    def _campaign_of_units(s: Session, unit_ids: Sequence[UnitId]) -> CampaignId:
        ids = set(unit_ids)
        for i in ids:
            if not is_id(i):
                raise unknown("unit", i)
        rows = s.execute(
            select(Unit.id, Army.campaign_id)
            .join(Army, Army.id == Unit.army_id)
            .where(Unit.id.in_(ids))
        ).all()
        if len(rows) != len(ids):
            missing = sorted(ids - {r[0] for r in rows})
            raise unknown("unit", missing[0])
        campaigns = {r[1] for r in rows}
        if len(campaigns) != 1:
            raise UserError("those units belong to different campaigns", field="id")
        return campaigns.pop()

    # -- delete with a snapshot, restore it (the undo of a delete and the redo of a create) ----

    def _snapshot_delete(self, s: Session, table: Table, where: ColumnElement[bool]) -> Snapshot:
        snap = snapshots.take(s, table, where)
        snapshots.delete_rows(s, table, where)
        return snap

    def _deleted(self, snap: Snapshot, campaign_id: CampaignId | None, text: str) -> Done[Snapshot]:
        """The ``Done`` of a delete: undo restores the snapshot, redo deletes the same ids."""
        return Done(
            snap,
            changes_of(snap),
            text,
            redo=step(
                self._delete_again,
                snap.root,
                snap.ids(snap.root),
                campaign_id,
                text,
                _root_rows(snap),
            ),
            undo=step(self.restore, snap, campaign_id, text),
        )

    @storage_errors
    def restore(
        self, snap: Snapshot, campaign_id: CampaignId | None = None, text: str = "Restore"
    ) -> Done[Snapshot]:
        """Put back rows a delete removed, with the same ids (one transaction)."""
        with self._sessions.begin() as s:
            clashes = snapshots.existing_ids(s, snap)
            if clashes:
                raise UserError(
                    "can't undo: the deleted rows' ids are in use again ("
                    + ", ".join(f"{n} {t}" for t, n in clashes.items())
                    + ")"
                )
            for name, rows in snap.rows:
                tbl = Base.metadata.tables[name]
                parent_fks = [
                    fk
                    for fk in tbl.foreign_keys
                    if fk.column.table.name not in {n for n, _ in snap.rows}
                ]
                for fk in parent_fks:
                    needed = {r[fk.parent.name] for r in rows if r[fk.parent.name] is not None}
                    if not needed:
                        continue
                    have: set[object] = set(
                        s.scalars(select(fk.column).where(fk.column.in_(needed)))
                    )
                    if needed - have:
                        raise UserError(
                            f"can't undo: the {fk.column.table.name} these "
                            f"{name} rows belonged to was deleted"
                        )
            try:
                with s.begin_nested():
                    snapshots.restore(s, snap)
            except IntegrityError:
                raise UserError(
                    "can't undo: something made since has the same name (rename it and try again)"
                ) from None
            if campaign_id is not None:
                self._touch(s, campaign_id)
        return Done(
            snap,
            changes_of(snap),
            text,
            redo=step(self.restore, snap, campaign_id, text),
            undo=step(
                self._delete_again,
                snap.root,
                snap.ids(snap.root),
                campaign_id,
                text,
                _root_rows(snap),
            ),
        )

    @storage_errors
    def _delete_again(
        self,
        table_name: str,
        ids: tuple[int, ...],
        campaign_id: CampaignId | None,
        text: str,
        expect: Mapping[int, Any] | None = None,
    ) -> Done[Snapshot]:
        """Delete the rows a restore put back (an undo of an undone delete, a redo of an
        undone create). ``expect``: their rows as restored; a row changed since is refused."""
        table = Base.metadata.tables[table_name]
        with self._sessions.begin() as s:
            if expect and "version" in table.c:
                model = next(m.class_ for m in Base.registry.mappers if m.local_table is table)
                for rid, row in expect.items():
                    check(lock(s, model, rid), seen_from_dict(table_name, row), table_name)
            snap = self._snapshot_delete(s, table, table.c.id.in_(ids))
            if campaign_id is not None:
                self._touch(s, campaign_id)
        return self._deleted(snap, campaign_id, text)


def _root_rows(snap: Snapshot) -> dict[int, Any]:
    return {r["id"]: r for r in snap.table_rows(snap.root)}
