"""Stale views and stale undo steps: the conflict rule for every row a user edits.

Two BrikDesks (or a BrikDesk and ``brikdesk import``) may change the same row. The rule ("Shared
data is versioned" in docs/conventions.md): **a write made from a view that is no longer current is
refused**, with a message that says what changed, and nothing is written. Never last-writer-wins.

- An edit or delete from a window passes ``version=``, the version its summary showed
  (``UnitRow.version``, ``ArmySummary.version`` ...). The row is read with ``FOR UPDATE`` (a row
  lock on PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` already serialises writers), and a different
  version raises :class:`~brikdesk.errors.ConflictError`. ``version=None`` (the command line, a
  script) skips the check.
- An undo or redo step passes a :class:`Seen`: the version its action left *and* the row's
  values then. The step applies if the row still has that version, or, failing that, still has
  those values. The second half matters: versions only grow, so a unit that was added (v1),
  renamed (v2) and un-renamed (v3) by one organizer's own undo stack must still be deletable by
  the undo of the add, and it is, because its values are again the ones the add left. Equal
  values mean reverting loses nobody's work; different values mean someone changed it since,
  and the step is refused naming the change (``A renames, B renames, A's Undo`` is refused with
  "Sir Brickley was renamed to 'Sir Brick' by someone else").
- A row that is gone raises ``ConflictError`` ("... was deleted by someone else").

SQLAlchemy's version counter (``UPDATE ... WHERE version = ?``) is the last line: a write that
slipped past the check raises ``StaleDataError``, which ``storage_errors`` turns into a
``ConflictError`` as well.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import inspect, select
from sqlalchemy.orm import Session

from brikdesk.errors import ConflictError
from brikdesk.persistence.models import Base, Versioned

#: Columns that are not the user's edits (bookkeeping and caches), per table.
_IGNORED: dict[str, frozenset[str]] = {
    "campaign": frozenset({"created_at", "updated_at"}),
    "battle": frozenset({"state", "created_at", "finished_at"}),
    "unit": frozenset({"position"}),
}
_ALWAYS_IGNORED = frozenset({"id", "version"})

#: How a column is named in a message.
_FIELD_NAMES = {
    "type_key": "type",
    "hands": "loadout",
    "worn": "loadout",
    "carried": "loadout",
    "overrides": "stat overrides",
    "battles_fought": "battles fought",
    "default_budget": "default budget",
    "cost_system": "cost system",
    "data": "values",
    "player_id": "player",
    "army_id": "army",
    "campaign_id": "campaign",
}
#: Columns whose values are too long or too technical to quote.
_UNQUOTED = frozenset(
    {
        "hands",
        "worn",
        "carried",
        "overrides",
        "notes",
        "data",
        "player_id",
        "army_id",
        "campaign_id",
    }
)

KIND_NAMES = {
    "campaign": "campaign",
    "player": "player",
    "army": "army",
    "unit": "unit",
    "battle": "battle",
    "house_item": "item",
    "house_unit_type": "unit type",
}


@dataclass(frozen=True)
class Seen:
    """What an undo or redo step expects to find: the row's version and its values then."""

    version: int
    values: Mapping[str, Any]


Expected = int | Seen | None


def values_of(table: str, row: Mapping[str, Any]) -> dict[str, Any]:
    """The user's fields of a row given as a column dict (a snapshot's row)."""
    skip = _ALWAYS_IGNORED | _IGNORED.get(table, frozenset())
    return {k: v for k, v in row.items() if k not in skip}


def row_values(row: Versioned) -> dict[str, Any]:
    """The user's fields of a mapped row (call after a flush: values as stored)."""
    table = row.__table__  # type: ignore[attr-defined]
    return values_of(table.name, {c.key: _plain(getattr(row, c.key)) for c in table.columns})


def seen(row: Versioned) -> Seen:
    """What a step that undoes or redoes this row's change expects: the row as it is now."""
    return Seen(row.version, row_values(row))


def seen_from_dict(table: str, row: Mapping[str, Any]) -> Seen:
    return Seen(int(row.get("version") or 1), values_of(table, row))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def lock(s: Session, model: type[Base], ident: object) -> Any:
    """The row with ``ident``, read afresh and locked for this transaction (``FOR UPDATE`` on a
    server; a no-op on SQLite, whose write transactions are already exclusive), or None."""
    key = inspect(model).primary_key[0]
    return s.scalar(
        select(model)
        .where(key == ident)
        .with_for_update()
        .execution_options(populate_existing=True)
    )


def check(
    row: Versioned | None, expected: Expected, kind: str, *, fields: tuple[str, ...] = ()
) -> None:
    """Refuse (``ConflictError``) when ``row`` is not what the caller saw.

    ``kind``: the table name; ``fields``: the columns the caller means to change (named in the
    message when only a version is known)."""
    if expected is None:
        return
    what = KIND_NAMES.get(kind, kind.replace("_", " "))
    since = "you changed it" if isinstance(expected, Seen) else "you opened it"
    if row is None:
        name = expected.values.get("name") if isinstance(expected, Seen) else None
        if name is None and isinstance(expected, Seen):
            name = expected.values.get("key")
        label = _label(kind, name) if name else f"This {what}"
        raise ConflictError(
            f"{label} was deleted by someone else since {since}; nothing was changed"
        )
    if row.version == (expected.version if isinstance(expected, Seen) else expected):
        return
    now = row_values(row)
    if isinstance(expected, Seen):
        if _same(expected.values, now):
            return
        before = expected.values
        label = _label(kind, before.get("name") or before.get("key") or now.get("name"))
        raise ConflictError(
            f"{label} {describe_changes(before, now)} by someone else since "
            f"{since}; nothing was changed"
        )
    label = _label(kind, now.get("name") or now.get("key"))
    shown = [f for f in fields if f in now and f not in _UNQUOTED]
    detail = ""
    if shown:
        detail = (
            " ("
            + ", ".join(
                f"{_FIELD_NAMES.get(f, f.replace('_', ' '))} now {_show(now[f])}" for f in shown
            )
            + ")"
        )
    raise ConflictError(
        f"{label} was changed by someone else since you opened it{detail}; nothing was changed"
    )


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return all(_plain(a.get(k)) == _plain(b.get(k)) for k in set(a) | set(b))


def _label(kind: str, name: object) -> str:
    if kind in ("unit", "house_item", "house_unit_type") and name:
        return str(name)
    what = KIND_NAMES.get(kind, kind)
    return f"The {what} {name}" if name else f"This {what}"


def _show(value: Any) -> str:
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f"'{text}'"
    if value is None:
        return "none"
    return str(value)


def describe_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """``"was renamed to 'Sir Brick' and its kills changed from 0 to 1"``."""
    parts: list[str] = []
    named: set[str] = set()
    for key in before:
        if _plain(before.get(key)) == _plain(after.get(key)):
            continue
        field = _FIELD_NAMES.get(key, key.replace("_", " "))
        if field in named:
            continue
        named.add(field)
        if key == "name":
            parts.insert(0, f"renamed to {_show(after.get(key))}")
        elif key in _UNQUOTED:
            parts.append(f"its {field} changed")
        else:
            parts.append(
                f"its {field} changed from {_show(before.get(key))} to {_show(after.get(key))}"
            )
    if not parts:
        return "was changed"
    if parts[0].startswith("renamed"):
        rest = parts[1:]
        return "was " + " and ".join([parts[0], *rest])
    return "had " + " and ".join(parts)
