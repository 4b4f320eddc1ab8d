"""Texts laid out once, for widgets that paint the same few texts again and again."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QStaticText, QTransform

from brikdesk.cache import LruCache


class StaticTexts:
    """Texts laid out once in one font, for a widget that paints the same few texts again and
    again (a modifier's reason, a value such as ``+2``): each is shaped and laid out the first
    time it is painted at its width, then drawn from its glyphs. A cache of the last ``limit``
    texts; :meth:`clear` when the font changes."""

    def __init__(self, limit: int = 48) -> None:
        self.cache: LruCache[tuple[str, float], QStaticText] = LruCache(limit)

    def get(self, text: str, font: QFont, width: float = -1) -> QStaticText:
        """``text`` in plain text, laid out in ``font`` (the cache's one font), word-wrapped at
        ``width`` (``-1``: one line)."""

        def lay_out() -> QStaticText:
            static = QStaticText(text)
            static.setTextFormat(Qt.TextFormat.PlainText)
            static.setTextWidth(width)
            static.prepare(QTransform(), font)
            return static

        return self.cache.get((text, width), lay_out)

    def clear(self) -> None:
        self.cache.clear()
