"""The roster as text (Army > Copy as text, Export as text): for a chat or a forum post, in plain
text, Markdown or BBCode (``brikdesk.domain.roster_text``)."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow

from brikdesk.domain.ids import ArmyId
from brikdesk.services.roster import Roster
from ui.widgets.common import MessageBanner, ServicesHost

__all__ = ["RosterText"]

#: The formats' names as the status bar says them.
FORMAT_NAMES = {"text": "plain text", "markdown": "Markdown", "bbcode": "BBCode"}


class RosterTextHost(ServicesHost, Protocol):
    """What the roster as text uses of its window: the army and its roster as last read, the
    services that write the text, and the window's settings, runner and banner."""

    @property
    def army_id(self) -> ArmyId: ...
    @property
    def roster(self) -> Roster | None: ...
    @property
    def banner(self) -> MessageBanner: ...


class RosterText(QObject):
    """Copy or save the roster of ``host`` as text (a child of ``window``, whose status bar
    says what was done)."""

    def __init__(self, window: QMainWindow, host: RosterTextHost) -> None:
        super().__init__(window)
        self._window = window
        self._w = host

    def _text(self, fmt: str) -> str | None:
        w = self._w
        return w.runner.read(lambda: w.services.roster.roster_text(w.army_id, fmt))

    def copy(self, fmt: str = "text") -> str | None:
        """Army > Copy as text: the roster on the clipboard, in ``fmt``, to paste into a chat
        or a forum post."""
        text = self._text(fmt)
        if text is None:
            return None
        QGuiApplication.clipboard().setText(text)
        self._window.statusBar().showMessage(
            f"Copied the roster as {FORMAT_NAMES[fmt]}: paste it into a post.", 8000
        )
        return text

    def export(self) -> Path | None:
        """Army > Export as text: the file's ending chooses the format (.txt, .md, .bbcode)."""
        from brikdesk.domain.roster_text import format_for
        from brikdesk.services.printing import write_text
        from ui.widgets.dialogs import FileChooser
        from ui.windows.printing import safe_file_name

        w = self._w
        if w.roster is None:
            return None
        path = FileChooser.save_path(
            self._window,
            "Export the roster as text",
            "Plain text (*.txt);;Markdown (*.md);;BBCode for forums (*.bbcode)",
            f"{safe_file_name(w.roster.army.name)}.txt",
            ".txt",
            settings=w.settings,
            kind="rosters",
        )
        if path is None:
            return None
        fmt = format_for(path)
        if fmt is None:
            w.banner.show_error(f"{path.name}: the name must end in .txt, .md or .bbcode")
            return None
        text = self._text(fmt)
        if text is None:
            return None
        written = w.runner.read(lambda: write_text(path, text))
        if written is not None:
            self._window.statusBar().showMessage(f"Saved the roster to {written}", 8000)
        return written
