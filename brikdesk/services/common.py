"""What every service shares: the ``Changes`` flags, reversible results, validation, clock.

Every mutating service method performs one user action in one transaction and returns a
:class:`Done`: the value it produced (a frozen summary or ids), the ``Changes`` to publish, a text
for the Undo menu, and two steps, ``redo`` and ``undo``, that each run one service call (one
transaction) and return the ``Changes`` to publish ("Undo through reversible operations" in
docs/conventions.md). The steps hold ids and old/new values (and the version each row had, so that
an undo of something someone else has changed since is refused with ``ConflictError``), never live
objects. The app records them through its one undo path, ``ui.undo.perform``::

    perform(stack, bus, lambda: services.roster.edit_unit(unit_id, UnitPatch(name="Sir B.")))
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime
from typing import ParamSpec, TypeVar, overload

from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm.exc import StaleDataError

from brikdesk.errors import BusyError, ConflictError, ServerError, StorageError, UserError
from brikdesk.limits import MAX_ID, MAX_NUMBER, NAME_LEN, NOTES_LEN, text_problem
from brikdesk.persistence.db import BUSY_TIMEOUT_MS, error_text

# Defined without SQLAlchemy (the app's window is built before the database layer loads);
# importable from here as before.
from brikdesk.services.changes import Changes as Changes
from brikdesk.services.changes import Clock as Clock
from brikdesk.services.changes import Done as Done
from brikdesk.services.changes import Step as Step
from brikdesk.services.changes import step as step
from brikdesk.services.changes import utc_now as utc_now

T = TypeVar("T")
P = ParamSpec("P")


def to_db_time(value: datetime) -> datetime:
    """Aware time -> naive UTC, as stored."""
    if value.tzinfo is None:
        return value
    return value.astimezone(UTC).replace(tzinfo=None)


@overload
def from_db_time(value: datetime) -> datetime: ...
@overload
def from_db_time(value: None) -> None: ...
def from_db_time(value: datetime | None) -> datetime | None:
    """Stored naive UTC -> aware UTC."""
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def storage_errors(method: Callable[P, T]) -> Callable[P, T]:
    """Turn database failures (locked, disk full, corrupt) into ``StorageError``.

    A database still locked by another writer when the busy timeout ran out (SQLite's
    "database is locked", after ``BEGIN IMMEDIATE`` waited ``BUSY_TIMEOUT_MS``), or a
    PostgreSQL deadlock the server broke by cancelling this transaction, is a ``BusyError``:
    the transaction was rolled back, so the action was not applied and nothing was lost.
    SQLAlchemy's version counter refusing an update (``StaleDataError``: the row changed after
    it was read) is a ``ConflictError``. ``IntegrityError`` is not caught here: the services
    check their input first, so one reaching the caller is a bug (or a clash the caller must
    handle).
    """

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return method(*args, **kwargs)
        except IntegrityError:
            raise
        except StaleDataError as exc:
            raise ConflictError(
                "someone else changed this since you opened it; nothing was "
                "changed (the view shows it as it is now)"
            ) from exc
        except OperationalError as exc:
            text = error_text(exc)
            if "locked" in text or "busy" in text or "deadlock" in text:
                raise BusyError(
                    "the database is busy (another BrikDesk or program kept it "
                    f"locked for {BUSY_TIMEOUT_MS // 1000} s); nothing was changed, "
                    f"try again in a moment ({text})"
                ) from exc
            if exc.connection_invalidated or "server" in text or "connection" in text:
                raise ServerError(
                    f"the database server could not be reached or stopped answering ({text})"
                ) from exc
            if "readonly database" in text:
                raise StorageError(
                    "nothing was changed: the database is read-only (its file "
                    "or its folder can't be written; BrikDesk opened it only "
                    f"to read) ({text})"
                ) from exc
            raise StorageError(f"the database could not be read or written: {text}") from exc
        except SQLAlchemyError as exc:
            raise StorageError(
                f"the database could not be read or written: {error_text(exc)}"
            ) from exc

    return wrapper


# -- validation ---------------------------------------------------------------------------------

_COLOUR = re.compile(r"#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})")
KEY_RE = re.compile(r"[a-z0-9][a-z0-9_\-]*")


def clean_name(value: object, what: str, *, field: str = "name", max_len: int = NAME_LEN) -> str:
    """A trimmed, non-empty, single-line name of at most ``max_len`` characters."""
    if not isinstance(value, str):
        raise UserError(f"{what} must be text", field=field)
    text = unicodedata.normalize("NFC", " ".join(value.split()))
    if not text:
        raise UserError(f"{what} can't be empty", field=field)
    problem = text_problem(text, max_len)
    if problem is not None:
        raise UserError(f"{what} {problem}", field=field)
    return text


def clean_notes(value: object, what: str = "Notes", *, field: str = "notes") -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise UserError(f"{what} must be text", field=field)
    text = value.replace("\r\n", "\n")
    problem = text_problem(text, NOTES_LEN, lines=True)
    if problem is not None:
        raise UserError(f"{what} {problem.replace('is too long', 'are too long', 1)}", field=field)
    return text


def clean_colour(value: object, *, field: str = "colour") -> str:
    """``#rrggbb`` (lower case) from ``#RRGGBB``, ``rrggbb`` or ``#rgb``."""
    if not isinstance(value, str) or not _COLOUR.fullmatch(value.strip()):
        raise UserError(f"'{value}' is not a colour; use #rrggbb, for example #c0392b", field=field)
    hexes = value.strip().lstrip("#").lower()
    if len(hexes) == 3:
        hexes = "".join(c * 2 for c in hexes)
    return "#" + hexes


def clean_int(
    value: object, what: str, *, field: str, minimum: int = 0, maximum: int = MAX_NUMBER
) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(f"{what} must be a whole number", field=field)
    if value < minimum:
        raise UserError(
            f"{what} can't be {'negative' if minimum == 0 else f'below {minimum}'} (got {value})",
            field=field,
        )
    if value > maximum:
        raise UserError(f"{what} can't be more than {maximum} (got {value})", field=field)
    return value


def is_id(value: object) -> bool:
    """A whole number that can be a row's id (``1..MAX_ID``) on any database."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_ID


def unknown(what: str, ident: object) -> UserError:
    return UserError(f"there is no {what} with id {ident} (it may have been deleted)", field="id")
