"""The two kinds of expected errors ("Two kinds of errors" in docs/conventions.md).

``UserError``: bad input or a rule that forbids the action; shown where the user acted, changes
nothing. ``StorageError``: the database could not be read or written; shown and logged, the app
keeps running. Anything else is a bug.
"""

from __future__ import annotations


class UserError(Exception):
    """Bad input or a forbidden action, with a message fit to show the user."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return self.message


class StorageError(Exception):
    """The database could not be opened, read or written."""


class ConflictError(UserError):
    """A write or an undo made from a view that is no longer current: someone else (another
    BrikDesk, a command line, another window) changed the same thing since it was read.

    Nothing was changed; the message says what changed ("Sir Brickley was renamed to 'Sir
    Brick' by someone else"). Views that see it reload what they show.
    """


class BusyError(StorageError):
    """The database stayed locked by another writer for the whole busy timeout; the action was
    not applied and nothing was lost (try again)."""


class ServerError(StorageError):
    """The database server could not be reached, or stopped answering."""


class Abandoned(ServerError):
    """An action given up before its commit was sent (the server did not answer): nothing was
    changed."""


class OutcomeUnknown(ServerError):
    """An action whose commit was sent to a server that has not answered: whether it was
    saved is not known yet."""
