"""The roster table: one row per unit (``brikdesk.services.roster.UnitRow``).

Columns: name, type, Action die, Move, Armor, items in hand, worn, carried, cost, campaign
status and warnings. The name is edited in place; numbers sort as numbers; a unit with
warnings shows a warning sign and its warnings in words; dead units are greyed.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QBrush, QFont, QIcon
from PySide6.QtWidgets import QApplication, QStyle

from brikdesk.domain.statuses import UnitStatus
from brikdesk.services.roster import UnitRow
from ui import colours
from ui.models.editable import Commit, EditableTableModel, Editor
from ui.models.table import Column

NAME, TYPE, ACTION, MOVE, ARMOR, HANDS, WORN, CARRIED, COST, STATUS, WARNINGS = range(11)
#: Columns hidden until the organizer shows them (right-click the header).
HIDDEN_BY_DEFAULT = (CARRIED,)

#: Statuses in the order the Status column sorts them (an unknown one last).
STATUS_ORDER = tuple(UnitStatus)
WARNING_COLOUR = colours.WARNING
DEAD_COLOUR = colours.DEAD


def _armor_key(row: UnitRow) -> tuple[int, str]:
    text = row.armor
    return (int(text), "") if text.isdigit() else (1000, text)


def _warning_tip(row: UnitRow) -> str | None:
    if not row.warnings:
        return None
    return "\n".join(f"• {w.message} ({w.rule})" for w in row.warnings)


def _die(row: UnitRow) -> str:
    return "?" if row.action_die is None else f"d{row.action_die}"


def _move(row: UnitRow) -> str:
    return "?" if row.move is None else f'{row.move}"'


def _warnings_short(row: UnitRow) -> str:
    return "; ".join(w.headline for w in row.warnings)


def unit_columns(cost_unit: str = "CP") -> tuple[Column, ...]:
    """The roster's columns. Long texts are cut with "…" and given whole in the tooltip; the
    Warnings column names each problem in a few words (the tooltip and the unit card say it in
    full, with the rule)."""
    return (
        Column("Name", lambda r: r.name, width_hint=190, fit_chars=30, tooltip=lambda r: r.name),
        Column("Type", lambda r: r.type_name, width_hint=92, fit_chars=14),
        Column("Action", _die, sort_key=lambda r: r.action_die or 0, width_hint=50),
        Column(
            "Move",
            _move,
            sort_key=lambda r: r.move if r.move is not None else -1,
            align_right=True,
            width_hint=46,
        ),
        Column("Armor", lambda r: r.armor, sort_key=_armor_key, width_hint=52),
        Column(
            "In hand",
            lambda r: r.hands_text,
            width_hint=150,
            fit_chars=34,
            tooltip=lambda r: r.hands_text,
        ),
        Column(
            "Worn",
            lambda r: r.worn_text,
            width_hint=84,
            fit_chars=24,
            tooltip=lambda r: r.worn_text,
        ),
        Column(
            "Carried",
            lambda r: r.carried_text,
            width_hint=96,
            fit_chars=24,
            tooltip=lambda r: r.carried_text,
        ),
        Column(
            "Cost",
            lambda r: f"{r.cost} {cost_unit}",
            sort_key=lambda r: r.cost,
            align_right=True,
            width_hint=56,
            fit_chars=8,
            tooltip=lambda r: (
                "This unit has its own cost (Edit unit)" if r.overrides.cost is not None else None
            ),
        ),
        Column(
            "Status",
            lambda r: str(r.status),
            sort_key=lambda r: STATUS_ORDER.index(r.status) if r.status in STATUS_ORDER else 9,
            width_hint=56,
        ),
        Column(
            "Warnings",
            _warnings_short,
            sort_key=lambda r: -len(r.warnings),
            tooltip=_warning_tip,
            width_hint=120,
            fit_chars=30,
        ),
    )


def _filter_text(row: UnitRow) -> str:
    return " ".join(
        (
            row.name,
            row.type_name,
            row.hands_text,
            row.worn_text,
            row.carried_text,
            row.status,
            row.warnings_text,
            row.notes,
        )
    )


class UnitTableModel(EditableTableModel):
    """Units of one army; ``commit(row, "name", text)`` renames."""

    def __init__(
        self, commit: Commit | None = None, parent: QObject | None = None, cost_unit: str = "CP"
    ) -> None:
        super().__init__(
            unit_columns(cost_unit),
            {NAME: Editor("name", lambda r: r.name)},
            commit,
            None,
            parent,
            filter_text=_filter_text,
        )
        self._warning_icon: QIcon | None = None
        self._bold: QFont | None = None

    def set_cost_unit(self, cost_unit: str) -> None:
        self._columns = unit_columns(cost_unit)
        self._haystack = None

    def _icon(self) -> QIcon:
        if self._warning_icon is None:
            app = QApplication.instance()
            style = app.style() if isinstance(app, QApplication) else None
            self._warning_icon = (
                style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
                if style is not None
                else QIcon()
            )
        return self._warning_icon

    def extra_data(self, row: Any, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.ForegroundRole:
            if row.status == UnitStatus.DEAD:
                return QBrush(DEAD_COLOUR.q())
            if column == WARNINGS and row.warnings:
                return QBrush(WARNING_COLOUR.q())
        elif role == Qt.ItemDataRole.DecorationRole:
            if column == WARNINGS and row.warnings:
                return self._icon()
        elif role == Qt.ItemDataRole.FontRole and column == COST and row.overrides.cost is not None:
            if self._bold is None:
                self._bold = QFont()
                self._bold.setItalic(True)
            return self._bold
        return None
