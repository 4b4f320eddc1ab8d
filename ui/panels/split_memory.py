"""The split between the battle panel's unit table and its log, remembered in the settings
for each of the panel's styles (normal, table mode)."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QSplitter

from ui.panels.theme import TABLE, Theme

SPLITTER_KEY = "battle/splitter"


class SplitMemory:
    """Saves the splitter's state under the style's name and brings it back; a style never
    saved gets its default share for the log, kept as the window grows or shrinks."""

    def __init__(self, splitter: QSplitter, settings: QSettings) -> None:
        self.splitter = splitter
        self.settings = settings

    def save(self, theme: Theme) -> None:
        self.settings.setValue(f"{SPLITTER_KEY}/{theme.name}", self.splitter.saveState())

    def restore(self, theme: Theme) -> None:
        state = self.settings.value(f"{SPLITTER_KEY}/{theme.name}")
        if state is not None:
            try:
                if self.splitter.restoreState(state):
                    return
            except TypeError:
                pass
        log_share = 0.22 if theme is TABLE else 0.3
        # Growing or shrinking keeps the proportion: stretch factors in the same ratio.
        self.splitter.setStretchFactor(0, int(100 * (1 - log_share)))
        self.splitter.setStretchFactor(1, int(100 * log_share))
        total = max(self.splitter.width(), 1000)
        self.splitter.setSizes([int(total * (1 - log_share)), int(total * log_share)])
