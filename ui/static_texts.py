"""Texts laid out once, for widgets that paint the same few texts again and again."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QStaticText, QTransform


class StaticTexts:
    """Texts laid out once in one font, for a widget that paints the same few texts again and
    again (a modifier's reason, a value such as ``+2``, a chart's label): each is shaped and
    laid out the first time it is painted at its width, then drawn from its glyphs. Keeps the
    last ``limit`` texts; :meth:`clear` when the font changes."""

    def __init__(self, limit: int = 48) -> None:
        self.limit = limit
        self._kept: dict[tuple[str, float], QStaticText] = {}

    def get(self, text: str, font: QFont, width: float = -1) -> QStaticText:
        """``text`` in plain text, laid out in ``font`` (the cache's one font), word-wrapped at
        ``width`` (``-1``: one line)."""
        key = (text, width)
        static = self._kept.pop(key, None)
        if static is None:
            static = QStaticText(text)
            static.setTextFormat(Qt.TextFormat.PlainText)
            static.setTextWidth(width)
            static.prepare(QTransform(), font)
            if len(self._kept) >= self.limit:
                del self._kept[next(iter(self._kept))]
        self._kept[key] = static  # the most recent last
        return static

    def clear(self) -> None:
        self._kept.clear()
