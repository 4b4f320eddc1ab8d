"""Help > User guide: ``docs/user-guide.md`` shipped with the app, shown offline.

Qt renders the Markdown itself (``QTextDocument.setMarkdown``); the images are found beside
the guide (the document's base URL is its folder) and drawn no wider than the window, so the
whole page reads without scrolling sideways. Links to web pages open in the browser.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import (
    QImageReader,
    QResizeEvent,
    QTextCursor,
    QTextImageFormat,
)
from PySide6.QtWidgets import (
    QDialog,
    QLineEdit,
    QTextBrowser,
    QWidget,
)

from brikdesk.paths import user_guide_path
from ui.screen import fit_to_screen
from ui.widgets.dialogs import lay_out_reader


class GuideBrowser(QTextBrowser):
    """A text browser whose images shrink to its width (never grow past their own)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._natural: dict[str, tuple[int, int]] = {}  # image -> its own size

    def show_guide(self, path: Path) -> None:
        base = QUrl.fromLocalFile(str(path.parent) + "/")
        self.document().setBaseUrl(base)
        self.setSearchPaths([str(path.parent)])
        self.setMarkdown(path.read_text(encoding="utf-8"))
        self._natural.clear()
        self.fit_images()

    def _image_fragments(self) -> list[tuple[int, int, QTextImageFormat]]:
        """``(position, length, format)`` of every image in the page, in order."""
        out = []
        block = self.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                frag = it.fragment()
                fmt = frag.charFormat()
                if fmt.isImageFormat():
                    out.append((frag.position(), frag.length(), fmt.toImageFormat()))
                it += 1
            block = block.next()
        return out

    def images(self) -> list[tuple[str, float]]:
        """``(name, drawn width)`` of every image in the page, in order."""
        return [(image.name(), image.width()) for _pos, _n, image in self._image_fragments()]

    def _size_of(self, name: str) -> tuple[int, int]:
        size = self._natural.get(name)
        if size is None:
            url = self.document().baseUrl().resolved(QUrl(name))
            s = QImageReader(url.toLocalFile()).size()
            size = (s.width(), s.height()) if s.isValid() else (0, 0)
            self._natural[name] = size
        return size

    def fit_images(self) -> None:
        """Draw each image at its own size, or the page's width when that is narrower."""
        margin = 2 * int(self.document().documentMargin()) + 4
        room = max(200, self.viewport().width() - margin)
        cursor = QTextCursor(self.document())
        for pos, length, image in self._image_fragments():
            width, height = self._size_of(image.name())
            if not (width and height):
                continue
            shown = min(width, room)
            if image.width() == shown:
                continue
            image.setWidth(shown)
            image.setHeight(height * shown / width)
            cursor.setPosition(pos)
            cursor.setPosition(pos + length, QTextCursor.MoveMode.KeepAnchor)
            cursor.setCharFormat(image)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_images()


class UserGuideWindow(QDialog):
    """The user guide in a window of its own (not modal: read it beside the app)."""

    def __init__(self, parent: QWidget | None = None, path: Path | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("userGuide")
        self.setWindowTitle("BrikDesk user guide")
        self.find_box = QLineEdit(self)
        self.find_box.setObjectName("guideFind")
        self.find_box.setAccessibleName("Find in the guide")
        self.find_box.setPlaceholderText("Find in the guide (Ctrl+F; Enter finds the next)")
        self.find_box.setClearButtonEnabled(True)
        self.find_box.returnPressed.connect(self.find_next)
        self.browser = GuideBrowser(self)
        self.browser.setObjectName("guideText")
        self.browser.setOpenExternalLinks(True)
        lay_out_reader(self, self.find_box, self.browser)
        self.path = path or user_guide_path()
        self.browser.show_guide(self.path)
        fit_to_screen(self, 960, 900)
        self.browser.setFocus()

    def find_next(self) -> bool:
        """Select the next place the text typed in the find box occurs (from the top again
        after the last)."""
        text = self.find_box.text().strip()
        if not text:
            return False
        if self.browser.find(text):
            return True
        cursor = self.browser.textCursor()
        cursor.movePosition(cursor.MoveOperation.Start)
        self.browser.setTextCursor(cursor)
        return self.browser.find(text)
