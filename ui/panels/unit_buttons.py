"""The buttons under the unit table: Act (Respond off the unit's turn), Hold to respond,
Counter and Status menus for the current unit, and the combat wizard. Hold is enabled only
when the rules allow it, its tooltip saying why not otherwise."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QMenu, QPushButton, QToolButton, QWidget

from brikdesk.domain.battle import is_own_turn
from brikdesk.domain.ids import BattleUnitId
from brikdesk.services.tracker import BattleView
from ui.panels.battle_header import FixedWidths
from ui.panels.unit_menus import UnitActions, fill_act, fill_counter, fill_status
from ui.panels.unit_table import UnitTable
from ui.tooltips import set_tooltip

Fill = Callable[[QMenu, BattleView, BattleUnitId, UnitActions], None]


class UnitButtons(QWidget):
    """Menus filled when they open, from the battle as it stands (``view()``)."""

    def __init__(
        self,
        table: UnitTable,
        actions: UnitActions,
        view: Callable[[], BattleView | None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.table = table
        self.unit_actions = actions
        self.view = view
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(6)
        self.act_button = self._menu_button("Act", "actButton", fill_act)
        self.counter_button = self._menu_button("Counter", "counterButton", fill_counter)
        self.status_button = self._menu_button("Status", "statusButton", fill_status)
        self.wizard_button = QPushButton("Combat wizard…", self)
        self.wizard_button.setObjectName("wizardButton")
        FixedWidths(self).set_texts(self.act_button, ("Act", "Respond"))  # as wide for both
        for b in (
            self.act_button,
            self.counter_button,
            self.status_button,
            self.wizard_button,
        ):
            row.addWidget(b)
        row.addStretch(1)

    def _menu_button(self, text: str, name: str, fill: Fill) -> QToolButton:
        b = QToolButton(self)
        b.setObjectName(name)
        b.setText(text)
        b.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        menu = QMenu(b)
        b.setMenu(menu)

        def fill_menu() -> None:
            menu.clear()
            unit, view = self.table.current_unit(), self.view()
            if unit is not None and view is not None:
                fill(menu, view, unit, self.unit_actions)

        menu.aboutToShow.connect(fill_menu)
        return b

    def set_enabled(self, on_unit: bool, unit: BattleUnitId | None) -> None:
        """Enabled on a unit of a battle in progress; "Respond" off the unit's turn (4.3)."""
        for b in (self.act_button, self.counter_button, self.status_button):
            b.setEnabled(on_unit)
        view = self.view()
        if view is not None and unit is not None and not is_own_turn(view.state, unit):
            self.act_button.setText("Respond")
            set_tooltip(self.act_button, "Spend the held Action in response (4.3): R")
        else:
            self.act_button.setText("Act")
            set_tooltip(
                self.act_button,
                "Spend the Action: A attack (combat wizard), S Sprint, "
                "B Bail, P Parry, O other; F Close Combat. An Action left unspent is "
                "saved for a response on another player's turn (4.3).",
            )

    def popup(self, button: QToolButton) -> None:
        """Open ``button``'s menu under the current row (the C, R and T keys)."""
        if button.isEnabled():
            rect = self.table.visualRect(self.table.currentIndex())
            menu = button.menu()
            menu.aboutToShow.emit()
            menu.popup(self.table.viewport().mapToGlobal(rect.bottomLeft()))

    def popup_act(self) -> None:
        self.popup(self.act_button)

    def popup_counter(self) -> None:
        self.popup(self.counter_button)

    def popup_status(self) -> None:
        self.popup(self.status_button)
