"""The filters above the unit table: can respond now, in Close Combat, not yet acted, and a
search field. Each filter has a checkable action (Alt+1, Alt+2, Alt+3) for the Battle menu."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QToolButton, QWidget

from ui.panels.battle_model import Filters


class FilterBar(QWidget):
    """``changed(Filters)`` whenever a filter or the search text changes."""

    changed = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(6)
        self.respond = self._button("Can respond now", "filterRespond")
        self.close_combat = self._button("In Close Combat", "filterCloseCombat")
        self.not_acted = self._button("Not yet acted", "filterNotActed")
        self.filter_actions: list[QAction] = []
        for button, key in (
            (self.respond, "Alt+1"),
            (self.close_combat, "Alt+2"),
            (self.not_acted, "Alt+3"),
        ):
            row.addWidget(button)
            button.setToolTip(f"Show only units that are: {button.text().lower()} ({key})")
            a = QAction(button.text(), self)
            a.setCheckable(True)
            a.setShortcut(QKeySequence(key))
            a.toggled.connect(button.setChecked)
            button.toggled.connect(a.setChecked)
            self.filter_actions.append(a)
        self.search = QLineEdit(self)
        self.search.setObjectName("unitSearch")
        self.search.setAccessibleName("Find a unit")
        self.search.setPlaceholderText("Find a unit…")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._changed)
        row.addWidget(self.search, 1)

    def _button(self, text: str, name: str) -> QToolButton:
        b = QToolButton(self)
        b.setObjectName(name)
        b.setText(text)
        b.setCheckable(True)
        b.toggled.connect(self._changed)
        return b

    def filters(self) -> Filters:
        return Filters(
            can_respond=self.respond.isChecked(),
            in_close_combat=self.close_combat.isChecked(),
            not_acted=self.not_acted.isChecked(),
            text=self.search.text().strip(),
        )

    def set_filters(
        self,
        *,
        can_respond: bool | None = None,
        in_close_combat: bool | None = None,
        not_acted: bool | None = None,
        text: str | None = None,
    ) -> None:
        for button, on in (
            (self.respond, can_respond),
            (self.close_combat, in_close_combat),
            (self.not_acted, not_acted),
        ):
            if on is not None:
                button.setChecked(on)
        if text is not None:
            self.search.setText(text)

    def _changed(self, *_args: object) -> None:
        self.changed.emit(self.filters())
