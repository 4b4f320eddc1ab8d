"""The roster window: one army's units, one window per army (several may be open).

Top: the army header (player, budget, total cost and an over-budget warning). Left: the units
table (sortable, filtered as you type, the name edited in place). Right: the selected unit's
card (stats, each item's Use / Range / Damage, the cost breakdown, warnings) above the loadout
editor. Every edit is one service call, stored at once and undoable (Ctrl+Z / Ctrl+Shift+Z);
Delete deletes the selected units (undo brings them back, no confirmation box).

The window lays out and loads; its parts do one job each: :class:`RosterTable` (dropped unit
types, the selection by id), :class:`RosterColumns` (column widths), :class:`RosterCommands`
(actions, menus and toolbar), :class:`RosterEdits` (every change to the units or the army),
:class:`RosterText` (the roster as text) and ``RosterPrinting`` (the roster sheet).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QCloseEvent,
    QShowEvent,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.catalog import Catalog
from brikdesk.domain.ids import ArmyId, CampaignId, UnitId
from brikdesk.errors import StorageError, UserError
from brikdesk.services import Changes, Services
from brikdesk.services.roster import Roster, UnitRow
from brikdesk.words import plural
from ui import colours
from ui.bus import Bus
from ui.glyphs import warning_sign
from ui.models.roster import HIDDEN_BY_DEFAULT, NAME, UnitTableModel
from ui.screen import available_geometry, fit_to_screen, roomy_size
from ui.settings import AppSettings
from ui.widgets.common import (
    Actions,
    MessageBanner,
    colour_swatch,
    show_storage_error,
)
from ui.widgets.dialogs import BOX_MAX
from ui.widgets.fields import ValidatingDelegate
from ui.windows.loadout import LoadoutEditor
from ui.windows.printing import RosterPrinting
from ui.windows.roster_columns import RosterColumns
from ui.windows.roster_commands import RosterCommands
from ui.windows.roster_edits import RosterEdits
from ui.windows.roster_table import RosterTable
from ui.windows.roster_text import RosterText
from ui.windows.unit_card import UnitCardView

log = logging.getLogger(__name__)

RELOAD_ON = Changes.UNITS | Changes.ARMIES | Changes.PLAYERS | Changes.CATALOG | Changes.CAMPAIGNS


class ArmyHeader(QFrame):
    """Army name, player, budget (editable), total cost and the over-budget warning."""

    budget_edited = Signal(object)  # int, or None for "no budget"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("armyHeader")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        layout.setSpacing(14)
        names = QVBoxLayout()
        names.setSpacing(0)
        self.army = QLabel(self)
        self.army.setObjectName("armyName")
        font = self.army.font()
        font.setPointSizeF(font.pointSizeF() * 1.45)
        font.setBold(True)
        self.army.setFont(font)
        names.addWidget(self.army)
        player_row = QHBoxLayout()
        player_row.setSpacing(6)
        self.swatch = QLabel(self)
        player_row.addWidget(self.swatch)
        self.player = QLabel(self)
        self.player.setObjectName("playerName")
        player_row.addWidget(self.player)
        player_row.addStretch(1)
        names.addLayout(player_row)
        layout.addLayout(names, 1)

        self.budget_label = QLabel("&Budget:", self)
        layout.addWidget(self.budget_label)
        self.budget = QSpinBox(self)
        self.budget.setObjectName("budgetSpin")
        self.budget.setRange(-1, BOX_MAX)  # above the limit: refused with the reason
        self.budget.setSpecialValueText("none")
        self.budget.setKeyboardTracking(False)
        self.budget.setToolTip("The army's budget; 'none' (below 0) for no budget")
        self.budget.setMinimumWidth(96)
        self.budget_label.setBuddy(self.budget)
        self.budget.editingFinished.connect(self._budget_done)
        layout.addWidget(self.budget)

        self.total = QLabel(self)
        self.total.setObjectName("totalCost")
        tfont = self.total.font()
        tfont.setPointSizeF(tfont.pointSizeF() * 1.3)
        tfont.setBold(True)
        self.total.setFont(tfont)
        layout.addWidget(self.total)
        self.warning = QLabel(self)
        self.warning.setObjectName("budgetWarning")
        colours.text_style(
            self.warning,
            colours.ALERT_TEXT,
            "border-radius: 3px; padding: 3px 8px; font-weight: 600;",
            background=colours.ALERT_BG,
        )
        self.warning.hide()
        layout.addWidget(self.warning)
        self._shown_budget: int | None = None

    def show_roster(self, roster: Roster, total: int | None = None) -> None:
        a = roster.army
        total = roster.total if total is None else total
        unit = roster.cost_unit
        self.army.setText(a.name)
        self.swatch.setPixmap(colour_swatch(a.player_colour, 14).pixmap(14, 14))
        self.player.setText(f"Player: {a.player_name}")
        self._shown_budget = roster.budget
        self.budget.blockSignals(True)
        self.budget.setSuffix(f" {unit}")
        self.budget.setValue(-1 if roster.budget is None else roster.budget)
        self.budget.blockSignals(False)
        self.show_total(total, roster.budget, unit)

    def show_total(self, total: int, budget: int | None, unit: str) -> None:
        self.total.setText(
            f"Total {total} {unit}" if budget is None else f"Total {total} / {budget} {unit}"
        )
        if budget is not None and total > budget:
            self.warning.setText(
                f"{warning_sign(self.warning.font())} Over budget by {total - budget} {unit}"
            )
            self.warning.setToolTip(f"The army costs {total} {unit}, its budget is {budget} {unit}")
            self.warning.show()
        else:
            self.warning.hide()

    def _budget_done(self) -> None:
        value = self.budget.value()
        new = None if value < 0 else value
        if new != self._shown_budget:
            self._shown_budget = new
            self.budget_edited.emit(new)


class RosterWindow(QMainWindow):
    """The roster of army ``army_id``. ``closed(army_id)`` when it closes."""

    closed = Signal(int)
    #: A new army was made here (Army > Duplicate army): its id, for the main window to open.
    army_made = Signal(int)
    #: Asks name, player and budget for Duplicate army: the shell's army dialog (``ask`` with
    #: ``title``, ``player_id``, ``name``, ``budget``, ``cost_unit``), given by the main window;
    #: without it the action is off.
    ask_army: Callable[..., Any] | None = None
    #: The units' table and its model (made by ``_build_widgets``; the parts use them).
    table: RosterTable
    model: UnitTableModel

    def __init__(
        self,
        services: Services,
        bus: Bus,
        undo_stack: QUndoStack,
        settings: AppSettings,
        army_id: ArmyId,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setObjectName(f"RosterWindow_{army_id}")
        self.services = services
        self.bus = bus
        self.settings = settings
        self.army_id = army_id
        self.roster: Roster | None = None
        self.catalog: Catalog | None = None
        self.campaign_id: CampaignId | None = None
        self._dirty = False
        self._closing = False

        self.banner = MessageBanner(self)
        self.runner = Actions(self, undo_stack, bus, self.banner)
        self.printing = RosterPrinting(self, services, self.banner)
        self.text = RosterText(self, self)
        self.edits = RosterEdits(self, self)
        self.edits.army_made.connect(self.army_made)
        self._build_widgets()
        self.commands = RosterCommands(self, self, undo_stack)
        self._restore_layout()

        self._card_timer = QTimer(self)
        self._card_timer.setSingleShot(True)
        self._card_timer.setInterval(0)
        self._card_timer.timeout.connect(self._show_current)

        bus.changed.connect(self._on_changed)
        bus.status.connect(self._on_status)
        if not self.reload(first=True):
            QTimer.singleShot(0, self, self.close)
        self.table.setFocus()

    # -- construction -----------------------------------------------------------------------

    def _build_widgets(self) -> None:
        central = QWidget(self)
        outer = QVBoxLayout(central)
        outer.setContentsMargins(8, 6, 8, 4)
        outer.setSpacing(6)
        self.header = ArmyHeader(central)
        self.header.budget_edited.connect(self.edits.set_budget)
        outer.addWidget(self.header)
        outer.addWidget(self.banner)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, central)
        self.splitter.setObjectName("rosterSplitter")
        left = QWidget(self.splitter)
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.setSpacing(4)
        self.filter = QLineEdit(left)
        self.filter.setObjectName("unitFilter")
        self.filter.setAccessibleName("Filter units")
        self.filter.setPlaceholderText(
            "Filter units by name, type, item, status or warning (Ctrl+F)"
        )
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._filter_changed)
        lv.addWidget(self.filter)

        self.model = UnitTableModel(self.edits.commit_name, self)
        self.table = RosterTable(self.model, left)
        self.table.setObjectName("unitTable")
        self.table.setAccessibleName("Units of the army")
        self.table.setItemDelegate(ValidatingDelegate(self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setTabKeyNavigation(False)
        self.table.verticalHeader().hide()
        vh = self.table.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        hh = self.table.horizontalHeader()
        hh.setSectionsMovable(True)
        hh.setHighlightSections(False)
        # Columns as wide as their texts (``_fit``), not the last one stretched to the edge:
        # Warnings took the room that In hand needed.
        hh.setStretchLastSection(False)
        for i, col in enumerate(self.model.columns):
            if col.width_hint:
                self.table.setColumnWidth(i, col.width_hint)
        for i in HIDDEN_BY_DEFAULT:
            hh.hideSection(i)
        hh.setToolTip("Click to sort; right-click to show or hide columns")
        hh.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.table.selectionModel().currentRowChanged.connect(self._selection_changed)
        self.table.doubleClicked.connect(self._double_clicked)
        # Unit types dragged from the catalog window are added here; the columns fit their
        # texts until the organizer sets their own widths.
        self._dropped_type: str | None = None
        self.table.type_dropped.connect(self._type_dropped)
        self.columns = RosterColumns(self, self.table, self.model)
        lv.addWidget(self.table, 1)
        self.splitter.addWidget(left)

        side = QSplitter(Qt.Orientation.Vertical, self.splitter)
        side.setObjectName("rosterSide")
        self.side = side
        self.card = UnitCardView(side)
        side.addWidget(self.card)
        loadout_box = QFrame(side)
        lb = QVBoxLayout(loadout_box)
        lb.setContentsMargins(4, 4, 4, 4)
        self.loadout = LoadoutEditor(loadout_box)
        self.loadout.edit_requested.connect(self.edits.loadout)
        lb.addWidget(self.loadout)
        side.addWidget(loadout_box)
        side.setStretchFactor(0, 3)
        side.setStretchFactor(1, 2)
        self.splitter.addWidget(side)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([1000, 340])
        outer.addWidget(self.splitter, 1)
        self.setCentralWidget(central)

        self.count_label = QLabel(self)
        self.count_label.setObjectName("unitCount")
        self.statusBar().addPermanentWidget(self.count_label)
        QWidget.setTabOrder(self.header.budget, self.filter)
        QWidget.setTabOrder(self.filter, self.table)
        # Then the card (read with the arrow keys) above the loadout editor, as they are seen.
        QWidget.setTabOrder(self.table, self.card)
        QWidget.setTabOrder(self.card, self.loadout.lists["in hand"])

    def _restore_layout(self) -> None:
        restored = self.settings.restore_geometry("roster", self, exactly=True)
        if not restored:
            self.resize(roomy_size(self, QSize(1340, 800), 0.8))
        #: It comes back where a roster was closed (on this screen): it stays there.
        self.came_back = restored and available_geometry(self).intersects(self.geometry())
        fit_to_screen(self, self.width(), self.height())
        state = self.settings.get_bytes("roster/splitter")
        if state is not None:
            self.splitter.restoreState(state)
        side = self.settings.get_bytes("roster/side")
        if side is not None:
            self.side.restoreState(side)
        self.columns.restore(self.settings)

    def _save_layout(self) -> None:
        self.settings.save_geometry("roster", self)
        self.settings.save_bytes("roster/splitter", self.splitter.saveState())
        self.settings.save_bytes("roster/side", self.side.saveState())
        self.columns.save(self.settings)

    # -- loading ----------------------------------------------------------------------------

    def reload(self, first: bool = False) -> bool:
        """Read the roster again (the selection stays, by id); False if the army is gone."""
        try:
            roster = self.services.roster.roster(self.army_id)
            if first or self.catalog is None or self.campaign_id != roster.army.campaign_id:
                self.campaign_id = roster.army.campaign_id
                self.table.campaign_id = self.campaign_id
                self.catalog = self.services.catalog.catalog(self.campaign_id)
                self.loadout.set_catalog(self.catalog)
        except UserError:
            self.roster = None
            return False
        except StorageError as exc:
            show_storage_error(self, exc)
            return self.roster is not None
        self._dirty = False
        current = self.table.current_id()
        chosen = set(self.selected_ids())
        if self.edits.select_after:
            chosen = set(self.edits.select_after)
            current = self.edits.select_after[-1]
            self.edits.select_after = ()
        self.roster = roster
        self.model.set_cost_unit(roster.cost_unit)
        self.model.set_rows(roster.units)
        self.header.show_roster(roster)
        self.setWindowTitle(f"{roster.army.name} ({roster.army.player_name}): roster")
        if first and not chosen and roster.units:
            chosen, current = {roster.units[0].id}, roster.units[0].id
        self._select_ids(chosen, current)
        self._update_counts()
        self._show_current()
        self.columns.rows_changed()
        return True

    def _refresh_units(self, ids: Sequence[UnitId]) -> None:
        """Update only these rows (an edit made here); the header total from the rows."""
        try:
            rows = self.services.roster.unit_rows(list(ids))
        except (UserError, StorageError):
            self.reload()
            return
        if len(rows) != len(ids):
            self.reload()
            return
        for row in rows:
            self.model.update_row(row)
        if self.roster is not None:
            total = sum(r.cost for r in self.model.all_rows())
            self.header.show_total(total, self.roster.budget, self.roster.cost_unit)
        self._update_counts()
        self._show_current()
        self.columns.rows_changed()

    def _on_changed(self, changes: object) -> None:
        if self._closing or not isinstance(changes, Changes) or not changes & RELOAD_ON:
            return
        if changes & Changes.CATALOG or changes & Changes.CAMPAIGNS:
            self.catalog = None  # read it again
        if self.edits.targeted is not None and changes == Changes.UNITS:
            ids, self.edits.targeted = self.edits.targeted, None
            self._refresh_units(ids)
            return
        self.edits.targeted = None
        if not self.isVisible() or self.isMinimized():
            self._dirty = True
            return
        if not self.reload():
            self.close()

    def _on_status(self, text: str) -> None:
        self.statusBar().showMessage(text, 10_000)

    def _type_dropped(self, key: str) -> None:
        """A unit type dragged from the catalog onto the table: Add units of it (the dialog
        opens once the drop is over)."""
        self._dropped_type = key
        QTimer.singleShot(0, self, self._add_dropped)

    def _add_dropped(self) -> None:
        key, self._dropped_type = self._dropped_type, None
        if key is not None:
            self.edits.add_of_type(key)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.columns.shown()
        if self._dirty and not self.reload():
            QTimer.singleShot(0, self, self.close)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._closing = True
        self._save_layout()
        try:
            self.bus.changed.disconnect(self._on_changed)
            self.bus.status.disconnect(self._on_status)
        except (RuntimeError, TypeError):
            pass
        self.closed.emit(self.army_id)
        super().closeEvent(event)

    # -- selection --------------------------------------------------------------------------

    def selected_ids(self) -> list[UnitId]:
        return self.table.selected_ids()

    def selected_rows(self) -> list[UnitRow]:
        return self.table.selected_rows()

    def current_row(self) -> UnitRow | None:
        return self.table.current_row()

    def _select_ids(self, ids: Iterable[UnitId], current: UnitId | None) -> None:
        self.table.select_ids(ids, current)
        self._update_enabled()

    def select_units(self, ids: Sequence[UnitId]) -> None:
        """Select these units (the last one current) and show its card."""
        self._select_ids(ids, ids[-1] if ids else None)
        self._show_current()

    def _selection_changed(self, *args: object) -> None:
        self._update_enabled()
        self._card_timer.start()

    def _update_enabled(self) -> None:
        self.commands.update_enabled(
            self.table.selectionModel().hasSelection(), self.table.currentIndex().isValid()
        )

    def _show_current(self) -> None:
        row = self.current_row()
        selected = self.selected_rows()
        if row is None and selected:
            row = selected[-1]
        if row is not None and row.id not in {r.id for r in selected}:
            selected = selected if selected else [row]
        card = None
        if row is not None:
            try:
                card = self.services.roster.unit_card(row.id)
            except (UserError, StorageError):
                card = None
        unit = self.roster.cost_unit if self.roster is not None else "CP"
        self.card.show_card(card, unit, len(selected))
        if self.catalog is None and self.campaign_id is not None:
            try:
                self.catalog = self.services.catalog.catalog(self.campaign_id)
                self.loadout.set_catalog(self.catalog)
            except (UserError, StorageError):
                pass
        self.loadout.set_units(selected if selected else ([row] if row else []), row)

    def _update_counts(self) -> None:
        rows = self.model.all_rows()
        warned = sum(1 for r in rows if r.warnings)
        shown = self.model.rowCount()
        text = plural(len(rows), "unit")
        if warned:
            text += f" · {warned} with warnings"
        if shown != len(rows):
            text += f" · {shown} shown"
        self.count_label.setText(text)

    def _filter_changed(self, text: str) -> None:
        self.model.set_filter(text)
        self._update_counts()

    def _double_clicked(self, index: QModelIndex) -> None:
        if index.column() != NAME:
            self.edits.edit_unit()

    # -- roster order -----------------------------------------------------------------------

    def show_roster_order(self) -> None:
        """Drop the sorting by a column: the rows in roster order (the printed order)."""
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.model.sort(-1)

    def focus_loadout(self) -> None:
        self.loadout.combos["in hand"].setFocus()

    def focus_filter(self) -> None:
        self.filter.setFocus()
        self.filter.selectAll()

    def focus_budget(self) -> None:
        self.header.budget.setFocus()
        self.header.budget.selectAll()
