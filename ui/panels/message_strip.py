"""The strip above the unit table: what the last action said, a refusal with its reason and
rule, or (when there is nothing to say, outside table mode) the keys that work on the current
unit now."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from brikdesk.domain.battle import RuleViolation
from ui.glyphs import refusal_sign
from ui.panels.theme import NORMAL, TABLE, Theme


def error_text(error: BaseException | str) -> str:
    """A refusal as the strip shows it: the reason, and the rule when it names one (after a
    refusal sign the application's font has)."""
    mark = refusal_sign()
    if isinstance(error, RuleViolation):
        return f"{mark} {error.reason}" + (f"  ({error.rule})" if error.rule else "")
    return f"{mark} {error}"


class MessageStrip(QLabel):
    """Always there with room for two lines, so a message never moves the table."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("battleMessage")
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.kind = ""  # "info", "error" or "" (the keys)
        self.message = ""
        self._style = ""
        self._theme: Theme = NORMAL
        self.keys = ""  # the keys that work on the current unit (``keys.keys_legend``)

    def show_message(self, text: str, kind: str) -> None:
        self.kind = kind
        self.message = text
        self._restyle()
        self.setText(text)

    def clear_message(self) -> None:
        if self.kind or self.message:
            self.kind = ""
            self.message = ""
            self._restyle()

    def set_keys(self, text: str) -> None:
        """The keys legend, shown when there is no message."""
        if text != self.keys:
            self.keys = text
            if not self.kind:
                self._restyle()

    def set_theme(self, theme: Theme) -> None:
        self._theme = theme
        self._restyle()
        self.setFixedHeight(self.fontMetrics().lineSpacing() * 2 + 12)

    def _restyle(self) -> None:
        theme = self._theme
        if self.kind:
            bg, fg = theme.banner_error if self.kind == "error" else theme.banner_info
        else:
            bg, fg = "transparent", theme.muted
        style = (f"QLabel#battleMessage {{ background: {bg}; color: {fg}; border-radius: 6px;"
                 " padding: 4px 10px; }")
        if style != self._style:  # setting a style sheet costs a re-polish
            self._style = style
            self.setStyleSheet(style)
        if not self.kind:
            self.setText("" if theme is TABLE or not self.keys else "Keys: " + self.keys)
