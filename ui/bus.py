"""The application's message bus: services report what changed, views refresh.

Service methods return a ``Changes`` flag set; whoever called the service publishes it here and
every view listening for the relevant flags reloads its frozen summaries ("One user action, one
transaction" in docs/conventions.md).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class Bus(QObject):
    """``changed(flags)``: stored data changed; ``status(text)``: a message for the status bar."""

    changed = Signal(object)
    status = Signal(str)

    def publish(self, changes: object) -> None:
        if changes:
            self.changed.emit(changes)

    def say(self, text: str) -> None:
        self.status.emit(text)
