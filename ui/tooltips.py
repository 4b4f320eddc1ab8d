"""Tooltips set on every update (the battle panel's header and buttons after each action)."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget


def set_tooltip(widget: QWidget, text: str) -> None:
    """Give ``widget`` the tooltip ``text``, only if it has another one: Qt does not compare,
    and each tooltip set sends the widget (and its event filters) an event."""
    if widget.toolTip() != text:
        widget.setToolTip(text)
