"""Undo and redo through reversible service operations (design convention 5).

A ``ServiceCommand`` holds two callables that each run one service call (one transaction) and
return the ``Changes`` to publish. ``QUndoStack.push()`` calls ``redo()``, which does the work, so
pushing a command performs it. A service call that raises ``UserError`` in ``redo`` on first push
must not leave a command on the stack: use ``push_action`` which performs first, then records.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QUndoCommand, QUndoStack

from ui.bus import Bus

Step = Callable[[], Any]


class ServiceCommand(QUndoCommand):
    """Redo/undo of one user action; the first redo is skipped when ``done`` is true."""

    def __init__(self, text: str, redo: Step, undo: Step, bus: Bus, *, done: bool = False) -> None:
        super().__init__(text)
        self._redo = redo
        self._undo = undo
        self._bus = bus
        self._skip_first = done

    def redo(self) -> None:
        if self._skip_first:
            self._skip_first = False
            return
        self._bus.publish(self._redo())

    def undo(self) -> None:
        self._bus.publish(self._undo())


def push_action(stack: QUndoStack, bus: Bus, text: str, do: Callable[[], tuple[Any, Step, Step]]
                ) -> Any:
    """Perform ``do()`` now; if it succeeds, record it for undo.

    ``do`` returns ``(changes, redo, undo)``: the changes of the action just performed, and the
    steps to redo and undo it later. A ``UserError`` from ``do`` propagates and records nothing.
    """
    changes, redo, undo = do()
    stack.push(ServiceCommand(text, redo, undo, bus, done=True))
    bus.publish(changes)
    return changes
