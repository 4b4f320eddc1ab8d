"""The one undo path ("One undo path" and "Undo through reversible operations" in
docs/conventions.md).

Every undoable user action is a service call that returns a ``Done`` (its value, the
``Changes`` to publish, a text for the Edit menu, and ``redo``/``undo`` steps that each run one
transaction). :func:`perform` runs the call and, if the services accepted it, pushes one
:class:`ActionCommand` over that ``Done``; nothing else in the app writes to an undo stack.

An undo or redo may no longer apply when it is asked for: someone else (another BrikDesk, the
command line, another window) changed or deleted what it would touch, or a battle's log moved on.
The services then refuse it (``UserError``, ``ConflictError``) or cannot reach the database
(``StorageError``) and change nothing. The command contains the error: it says why in the
window's banner and the status bar, marks itself obsolete (``QUndoStack`` then drops it and
leaves the index where the other commands still make sense: below it, as before), and asks every
view to read the database again. So a refused undo leaves the stack, the database and the views
consistent, and the message says what happened instead.

Scopes (:class:`UndoScopes`): each window has its own history of what it did. The main window has
its own stack (campaigns, players, armies, battles created or deleted); a roster window one per
army; the catalog window one per campaign; a battle one per battle (the panel, its log's Undo and
the combat wizard share it). Alice's roster never offers to redo a change to Bob's army. The main
window's Edit > Undo follows what it shows: the battle's history on a battle page, its own
elsewhere. The menu texts name the action and what it changed ("Undo Rename unit Sir Brick").
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable
from functools import reduce
from operator import or_
from typing import Any, TypeVar

from PySide6.QtCore import QObject
from PySide6.QtGui import QUndoCommand, QUndoGroup, QUndoStack
from PySide6.QtWidgets import QWidget

from brikdesk.errors import ConflictError, StorageError, UserError
from brikdesk.services.changes import Changes, Done
from ui.bus import Bus
from ui.operation import run_write

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Every kind of change: what a view reloads after a refused undo (the database may hold what
#: another app wrote, so each view reads it again).
ALL_CHANGES: Changes = reduce(or_, Changes, Changes.NONE)

#: The most commands one stack holds (the oldest are forgotten first).
UNDO_LIMIT = 500

Report = Callable[[str], None]


def _quiet(_text: str) -> None:
    """A report that only logs (tests and stacks nobody watches)."""


class ActionCommand(QUndoCommand):
    """Redo and undo of one performed action, from the ``Done`` its service call returned.

    Pushing it does not run the action again (it was performed by :func:`perform`); later
    redos and undos run ``done.redo`` / ``done.undo`` and publish what they changed. A refusal
    is reported with its reason, the command leaves the stack and every view reloads.
    """

    def __init__(
        self, done: Done[Any], bus: Bus, report: Report = _quiet, *, text: str | None = None
    ) -> None:
        super().__init__(text or done.text)
        self.done = done
        self._bus = bus
        self._report = report
        self._performed = True  # push() calls redo(): the first one is what perform() did

    def redo(self) -> None:
        if self._performed:
            self._performed = False
            return
        self._run(self.done.redo, "redo")

    def undo(self) -> None:
        self._run(self.done.undo, "undo")

    def _run(self, step: Callable[[], Any], what: str) -> None:
        try:
            changes = run_write(
                step, text=f"{what.capitalize()} {self.text()}", late=_reread(self._bus)
            )
        except (UserError, StorageError) as exc:
            self.setObsolete(True)
            if isinstance(exc, StorageError):
                log.error("Storage error during %s of %s: %s", what, self.text(), exc)
            else:
                log.info("%s of %s refused: %s", what, self.text(), exc)
            self._report(refusal_text(what, self.text(), exc))
            self._bus.publish(ALL_CHANGES)
            return
        self._bus.publish(changes)
        # The status bar says what now holds, never what the step just took back ("Bridge
        # Fight is finished" after Undo reopened it).
        self._bus.say(f"{'Undone' if what == 'undo' else 'Redone'}: {self.text()}")


def refusal_text(what: str, text: str, exc: Exception) -> str:
    """'Can't undo “Rename unit”: …' with the reason, and what became of the history."""
    reason = str(exc)
    if isinstance(exc, ConflictError):
        tail = " It was left as it is now; that step is no longer in the undo history."
    elif isinstance(exc, StorageError):
        tail = " Nothing was changed; that step is no longer in the undo history."
    else:
        tail = " That step is no longer in the undo history."
    return f"Can't {what} “{text}”: {reason}.{tail}".replace("..", ".")


def _reread(bus: Bus) -> Callable[[Any, BaseException | None], None]:
    """What to do when a write nobody waits for any more (the server did not answer its
    commit) ends after all: every view reads the database again, and the status bar says how
    it ended."""

    def late(_result: Any, error: BaseException | None) -> None:
        if error is None:
            log.warning("the database server answered: the change was saved")
            bus.say("The database server answered: the change was saved.")
        else:
            log.warning("the database server answered: the change was not saved (%s)", error)
            bus.say(f"The database server answered: the change was not saved ({error}).")
        bus.publish(ALL_CHANGES)

    return late


def perform(
    stack: QUndoStack,
    bus: Bus,
    call: Callable[[], Done[T]],
    *,
    text: str | None = None,
    report: Report = _quiet,
    window: QWidget | None = None,
) -> Done[T]:
    """Run ``call`` (a service method returning ``Done``) as a background operation
    (``ui.operation.run_write``: off the GUI thread, ``window``'s input held meanwhile);
    if it succeeds, record it on ``stack`` as one undo step and publish its changes. Returns
    the ``Done``.

    A ``UserError`` or ``StorageError`` from ``call`` propagates (the caller shows it where the
    user acted) and nothing is recorded; so does ``Abandoned`` (the server did not answer and
    the user cancelled: nothing changed) and ``OutcomeUnknown`` (the user stopped waiting for a
    commit the server has not answered; the views read the database again when it does).
    """
    done = run_write(call, window=window, text=text or "", late=_reread(bus))
    stack.push(ActionCommand(done, bus, report, text=text))
    bus.publish(done.changes)
    return done


def chain(first: Done[Any], second: Done[Any] | None, text: str | None = None) -> Done[Any]:
    """Two performed actions as one ``Done`` (one undo step): redo in order, undo in reverse.
    The value is the first's."""
    if second is None:
        return first

    def redo() -> Changes:
        return first.redo() | second.redo()

    def undo() -> Changes:
        return second.undo() | first.undo()

    return Done(first.value, first.changes | second.changes, text or first.text, redo, undo)


Scope = tuple[str, Hashable]


class UndoScopes(QUndoGroup):
    """The undo histories of one main window: a ``QUndoStack`` per scope, made on first use.

    Scopes: ``("main", 0)`` the main window's own actions, ``("army", id)`` a roster window,
    ``("catalog", campaign_id)`` the catalog window, ``("battle", id)`` a battle. A history
    outlives its window (its undo steps stay when a roster is closed and opened again).
    """

    MAIN: Scope = ("main", 0)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._stacks: dict[Scope, QUndoStack] = {}

    def stack(self, kind: str, ident: Hashable = 0) -> QUndoStack:
        scope = (kind, ident)
        stack = self._stacks.get(scope)
        if stack is None:
            stack = QUndoStack(self)
            stack.setObjectName(f"undo:{kind}:{ident}")
            stack.setUndoLimit(UNDO_LIMIT)
            self.addStack(stack)
            self._stacks[scope] = stack
        return stack

    def main(self) -> QUndoStack:
        return self.stack(*self.MAIN)

    def army(self, army_id: int) -> QUndoStack:
        return self.stack("army", army_id)

    def catalog(self, campaign_id: int) -> QUndoStack:
        return self.stack("catalog", campaign_id)

    def battle(self, battle_id: int) -> QUndoStack:
        return self.stack("battle", battle_id)

    def scopes(self) -> tuple[Scope, ...]:
        return tuple(self._stacks)
