"""Stand-ins for what a window hands its parts, for building a part without its window."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QMainWindow


class Calls:
    """Stands in for a part of a window: each method called is recorded with its arguments
    (attributes set on it are plain values)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return lambda *args, **_kwargs: self.calls.append((name, args))

    def names(self) -> list[str]:
        return [name for name, _args in self.calls]


def bare_window(qtbot) -> QMainWindow:
    """A plain QMainWindow to parent a part to (its menus, toolbar and status bar)."""
    window = QMainWindow()
    qtbot.addWidget(window)
    return window
