"""The roster window: one army's units, one window per army (several may be open).

Top: the army header (player, budget, total cost and an over-budget warning). Left: the units
table (sortable, filtered as you type, the name edited in place). Right: the selected unit's
card (stats, each item's Use / Range / Damage, the cost breakdown, warnings) above the loadout
editor. Every edit is one service call, stored at once and undoable (Ctrl+Z / Ctrl+Shift+Z);
Delete deletes the selected units (undo brings them back, no confirmation box).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QPoint,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QCloseEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QGuiApplication,
    QKeySequence,
    QResizeEvent,
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
    QStyle,
    QTableView,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.catalog import Catalog
from brikdesk.domain.ids import ArmyId, CampaignId, UnitId
from brikdesk.domain.roster import Loadout
from brikdesk.errors import StorageError, UserError
from brikdesk.services import Changes, Services
from brikdesk.services.roster import Roster, UnitPatch, UnitRow
from brikdesk.services.summaries import NO_BUDGET, ArmyPatch
from ui.bus import Bus
from ui.glyphs import warning_sign
from ui.models.roster import HANDS, HIDDEN_BY_DEFAULT, NAME, UnitTableModel
from ui.models.table import IdRole
from ui.screen import fit_to_screen, roomy_size
from ui.settings import AppSettings
from ui.widgets.common import (
    Actions,
    MessageBanner,
    colour_swatch,
    fit_columns,
    make_action,
    plural,
    show_storage_error,
    undo_redo_actions,
)
from ui.widgets.dialogs import BOX_MAX
from ui.widgets.fields import ValidatingDelegate
from ui.windows.loadout import LoadoutEditor
from ui.windows.printing import RosterPrinting
from ui.windows.unit_card import UnitCardView
from ui.windows.unit_dialogs import (
    AddUnitsDialog,
    ChangeTypeDialog,
    UnitEditor,
    adding,
    dropped_unit_type,
)

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
        self.warning.setStyleSheet(
            "QLabel { color: white; background: #b03a2e; "
            "border-radius: 3px; padding: 3px 8px; font-weight: 600; }"
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


#: Where "Add several" remembers how many units it added last.
ADD_COUNT_KEY = "roster/add_count"
#: How many units Add several offers before it has been used.
DEFAULT_ADD_COUNT = 3
#: True when the roster's column widths are the organizer's own (set by hand): kept as they
#: are; otherwise the columns are fitted to their texts whenever the table's width changes.
OWN_COLUMNS_KEY = "roster/own_columns"
#: The most characters of a name the Name column widens for (longer names end in "…").
NAME_CHARS = 40


def typical_unit(rows: Sequence[UnitRow]) -> UnitRow | None:
    """A unit of the army's most common type carrying that type's most common equipment (the
    first such unit in roster order), or None for an empty army. Ties go to what comes first
    in the roster."""
    if not rows:
        return None
    types = Counter(r.type_key for r in rows)
    top = max(types.values())
    type_key = next(r.type_key for r in rows if types[r.type_key] == top)
    same = [r for r in rows if r.type_key == type_key]
    loadouts = Counter(r.loadout for r in same)
    best = max(loadouts.values())
    return next(r for r in same if loadouts[r.loadout] == best)


class RosterTable(QTableView):
    """The units table. It takes unit types dragged from its campaign's catalog
    (``type_dropped(key)``) and says when its width changes (``width_changed``): the table's
    own handlers, not an event filter on it (a filter's window may be half gone while the
    table's last events arrive)."""

    type_dropped = Signal(str)
    width_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.campaign_id: int | None = None
        self.setAcceptDrops(True)

    def _take(self, event: QDropEvent) -> str | None:
        key = dropped_unit_type(event.mimeData(), self.campaign_id)
        if key is not None:
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
        else:
            event.ignore()
        return key

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        self._take(event)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        self._take(event)

    def dropEvent(self, event: QDropEvent) -> None:
        key = self._take(event)
        if key is not None:
            self.type_dropped.emit(key)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.width_changed.emit()


class RosterWindow(QMainWindow):
    """The roster of army ``army_id``. ``closed(army_id)`` when it closes."""

    closed = Signal(int)
    #: A new army was made here (Army > Duplicate army): its id, for the main window to open.
    army_made = Signal(int)
    #: Asks name, player and budget for Duplicate army: the shell's army dialog (``ask`` with
    #: ``title``, ``player_id``, ``name``, ``budget``, ``cost_unit``), given by the main window;
    #: without it the action is off.
    ask_army: Callable[..., Any] | None = None

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
        self._select_after: tuple[UnitId, ...] = ()
        self._targeted: tuple[UnitId, ...] | None = None
        self._closing = False
        self._fitting = False  # the columns are being fitted (not resized by the organizer)
        self._columns_restored = False  # the organizer's own widths are shown

        self.banner = MessageBanner(self)
        self.runner = Actions(self, undo_stack, bus, self.banner)
        self.printing = RosterPrinting(self, services, self.banner)
        self._build_widgets()
        self._build_actions(undo_stack)
        self._build_menus_and_toolbar()
        self._restore_layout()

        self._card_timer = QTimer(self)
        self._card_timer.setSingleShot(True)
        self._card_timer.setInterval(0)
        self._card_timer.timeout.connect(self._show_current)

        bus.changed.connect(self._on_changed)
        bus.status.connect(self._on_status)
        if not self.reload(first=True):
            QTimer.singleShot(0, self, self.close)
        # Columns fit their texts when first shown (the table's width is known then), unless
        # the organizer's own widths were kept from an earlier session.
        self._fit_pending = not self._columns_restored
        self.table.setFocus()

    # -- construction -----------------------------------------------------------------------

    def _build_widgets(self) -> None:
        central = QWidget(self)
        outer = QVBoxLayout(central)
        outer.setContentsMargins(8, 6, 8, 4)
        outer.setSpacing(6)
        self.header = ArmyHeader(central)
        self.header.budget_edited.connect(self.set_budget)
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
        self.filter.setPlaceholderText(
            "Filter units by name, type, item, status or warning (Ctrl+F)"
        )
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._filter_changed)
        lv.addWidget(self.filter)

        self.model = UnitTableModel(self._commit_edit, self)
        self.table = RosterTable(left)
        self.table.setObjectName("unitTable")
        self.table.setModel(self.model)
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
        hh.sectionResized.connect(self._section_resized)
        for i, col in enumerate(self.model.columns):
            if col.width_hint:
                self.table.setColumnWidth(i, col.width_hint)
        for i in HIDDEN_BY_DEFAULT:
            hh.hideSection(i)
        hh.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        hh.customContextMenuRequested.connect(self._header_menu)
        hh.setToolTip("Click to sort; right-click to show or hide columns")
        hh.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.table.selectionModel().currentRowChanged.connect(self._selection_changed)
        self.table.doubleClicked.connect(self._double_clicked)
        # Unit types dragged from the catalog window are added here (``eventFilter``), and a
        # resize fits the columns again (after the layout settles: one fit per resize burst).
        self._dropped_type: str | None = None
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self._fit)
        self.table.type_dropped.connect(self._type_dropped)
        self.table.width_changed.connect(self._table_resized)
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
        self.loadout.edit_requested.connect(self._loadout_edit)
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

    def _build_actions(self, stack: QUndoStack) -> None:
        style = self.style()
        icon = style.standardIcon
        sp = QStyle.StandardPixmap
        self.undo_action, self.redo_action = undo_redo_actions(self, stack)
        self.add_action = make_action(
            self,
            "&Add unit…",
            self.add_unit,
            name="addUnitAction",
            shortcut=[QKeySequence(QKeySequence.StandardKey.New), QKeySequence("Ins")],
            tip="Add a unit of a type at the end of the roster",
            icon=icon(sp.SP_FileIcon),
        )
        self.add_many_action = make_action(
            self,
            "Add &several…",
            self.add_copies,
            name="addCopiesAction",
            shortcut="Ctrl+Shift+N",
            tip="Add several units at once (of the army's most common type and equipment)",
            icon=icon(sp.SP_FileDialogNewFolder),
        )
        self.duplicate_action = make_action(
            self,
            "D&uplicate",
            self.duplicate,
            name="duplicateAction",
            shortcut="Ctrl+D",
            tip="Copy the selected units (equipment, stats and notes)",
            icon=icon(sp.SP_FileLinkIcon),
        )
        self.rename_action = make_action(
            self,
            "&Rename",
            self.rename,
            name="renameAction",
            shortcut="F2",
            tip="Rename the unit in place",
        )
        self.edit_action = make_action(
            self,
            "&Edit unit…",
            self.edit_unit,
            name="editUnitAction",
            shortcut="Ctrl+E",
            tip="Type, stats, campaign record and notes of the unit",
            icon=icon(sp.SP_FileDialogDetailedView),
        )
        self.type_action = make_action(
            self,
            "Change &type…",
            self.change_type,
            name="changeTypeAction",
            shortcut="Ctrl+T",
            tip="Give the selected units another unit type",
        )
        self.delete_action = make_action(
            self,
            "&Delete",
            self.delete_selected,
            name="deleteAction",
            shortcut=QKeySequence(QKeySequence.StandardKey.Delete),
            tip="Delete the selected units (Undo brings them back)",
            icon=icon(sp.SP_TrashIcon),
        )
        self.loadout_action = make_action(
            self,
            "Edit &loadout",
            self.focus_loadout,
            name="loadoutAction",
            shortcut="Ctrl+L",
            tip="Go to the loadout editor of the selected unit",
        )
        self.filter_action = make_action(
            self,
            "&Filter units",
            self.focus_filter,
            name="filterAction",
            shortcut=QKeySequence(QKeySequence.StandardKey.Find),
            tip="Filter the units",
        )
        self.select_all_action = make_action(
            self,
            "Select &all",
            self.table.selectAll,
            name="selectAllAction",
            shortcut=QKeySequence(QKeySequence.StandardKey.SelectAll),
        )
        self.edit_army_action = make_action(
            self,
            "Army &budget",
            self.focus_budget,
            name="budgetAction",
            shortcut="Ctrl+B",
            tip="Change the army's budget",
        )
        self.duplicate_army_action = make_action(
            self,
            "D&uplicate army…",
            self.duplicate_army,
            name="duplicateArmyAction",
            tip="A new army with copies of these units (loadouts and notes; no battle record)",
        )
        self.copy_text_actions = {
            fmt: make_action(
                self,
                label,
                lambda _checked=False, fmt=fmt: self.copy_as_text(fmt),
                name=f"copyText_{fmt}",
                shortcut=key,
                tip=tip,
            )
            for fmt, label, key, tip in (
                ("text", "&Plain text", "Ctrl+Shift+C", "For a chat: one line per unit"),
                ("markdown", "&Markdown", None, "A table, for Markdown forums and chats"),
                ("bbcode", "&BBCode (forum)", None, "For the BrikWars forum's posts"),
            )
        }
        self.export_text_action = make_action(
            self,
            "Export as te&xt…",
            self.export_text,
            name="exportTextAction",
            tip="Save the roster as plain text (.txt), Markdown (.md) or BBCode (.bbcode)",
        )
        self.preview_action = make_action(
            self,
            "Print pre&view…",
            lambda: self.printing.preview(self.army_id),
            name="printPreviewAction",
            shortcut="Ctrl+Shift+P",
            tip="Preview the roster sheet",
            icon=icon(sp.SP_FileDialogContentsView),
        )
        self.print_action = make_action(
            self,
            "&Print…",
            lambda: self.printing.print(self.army_id),
            name="printAction",
            shortcut=QKeySequence(QKeySequence.StandardKey.Print),
            tip="Print the roster sheet",
        )
        self.pdf_action = make_action(
            self,
            "Export P&DF…",
            lambda: self.printing.export_pdf(self.army_id),
            name="exportPdfAction",
            shortcut="Ctrl+Shift+E",
            tip="Save the roster sheet as a PDF",
        )
        self.close_action = make_action(
            self,
            "&Close",
            self.close,
            name="closeAction",
            shortcut=QKeySequence(QKeySequence.StandardKey.Close),
            tip="Close this roster",
        )
        self.move_up_action = make_action(
            self,
            "Move &up",
            self.move_up,
            name="moveUpAction",
            shortcut="Alt+Up",
            tip="Move the selected units one place up the roster (its printed order)",
            icon=icon(sp.SP_ArrowUp),
        )
        self.move_down_action = make_action(
            self,
            "Move do&wn",
            self.move_down,
            name="moveDownAction",
            shortcut="Alt+Down",
            tip="Move the selected units one place down the roster",
            icon=icon(sp.SP_ArrowDown),
        )
        self.move_top_action = make_action(
            self,
            "Move to the &top",
            self.move_to_top,
            name="moveTopAction",
            shortcut="Alt+PgUp",
            tip="Put the selected units first in the roster",
        )
        self.move_bottom_action = make_action(
            self,
            "Move to the &bottom",
            self.move_to_bottom,
            name="moveBottomAction",
            shortcut="Alt+PgDown",
            tip="Put the selected units last in the roster",
        )
        self.roster_order_action = make_action(
            self,
            "Show in &roster order",
            self.show_roster_order,
            name="rosterOrderAction",
            shortcut="Ctrl+0",
            tip="Undo the sorting by a column: the units in roster order",
        )
        self._selection_actions = (
            self.duplicate_action,
            self.delete_action,
            self.type_action,
            self.move_up_action,
            self.move_down_action,
            self.move_top_action,
            self.move_bottom_action,
        )
        self._current_actions = (self.rename_action, self.edit_action, self.loadout_action)

    def _build_menus_and_toolbar(self) -> None:
        bar = self.menuBar()
        army = bar.addMenu("&Army")
        army.addAction(self.edit_army_action)
        army.addAction(self.duplicate_army_action)
        army.addSeparator()
        copy_menu = army.addMenu("&Copy as text")
        copy_menu.setObjectName("copyTextMenu")
        copy_menu.addActions(list(self.copy_text_actions.values()))
        army.addAction(self.export_text_action)
        army.addSeparator()
        for act in (self.preview_action, self.print_action, self.pdf_action):
            army.addAction(act)
        army.addSeparator()
        army.addAction(self.close_action)
        edit = bar.addMenu("&Edit")
        edit.addAction(self.undo_action)
        edit.addAction(self.redo_action)
        edit.addSeparator()
        edit.addAction(self.select_all_action)
        edit.addAction(self.filter_action)
        edit.addAction(self.roster_order_action)
        units = bar.addMenu("&Units")
        for a in (
            self.add_action,
            self.add_many_action,
            self.duplicate_action,
            None,
            self.rename_action,
            self.edit_action,
            self.type_action,
            self.loadout_action,
            None,
            self.move_up_action,
            self.move_down_action,
            self.move_top_action,
            self.move_bottom_action,
            None,
            self.delete_action,
        ):
            if a is None:
                units.addSeparator()
            else:
                units.addAction(a)
        tb = QToolBar("Roster", self)
        tb.setObjectName("rosterToolbar")
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        tb.setMovable(False)
        for a in (
            self.add_action,
            self.add_many_action,
            self.duplicate_action,
            self.edit_action,
            self.delete_action,
            None,
            self.undo_action,
            self.redo_action,
            None,
            self.preview_action,
        ):
            if a is None:
                tb.addSeparator()
            else:
                tb.addAction(a)
        self.addToolBar(tb)
        self.table.addActions(
            [
                self.add_action,
                self.duplicate_action,
                self.rename_action,
                self.edit_action,
                self.type_action,
                self.move_up_action,
                self.move_down_action,
                self.delete_action,
            ]
        )
        # Delete and F2 act on the table only: in the filter box or the loadout lists they
        # keep their own meaning.
        for a in (self.delete_action, self.rename_action):
            a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)

    def _restore_layout(self) -> None:
        if not self.settings.restore_geometry("roster", self):
            self.resize(roomy_size(self, QSize(1340, 800), 0.8))
        fit_to_screen(self, self.width(), self.height())
        state = self.settings.get_bytes("roster/splitter")
        if state is not None:
            self.splitter.restoreState(state)
        side = self.settings.get_bytes("roster/side")
        if side is not None:
            self.side.restoreState(side)
        header = self.settings.get_bytes("roster/header")
        self._columns_restored = False
        if header is not None:
            hh = self.table.horizontalHeader()
            self._fitting = True  # the restored widths are the organizer's only if flagged
            restored = hh.restoreState(header)
            self._fitting = False
            hh.setStretchLastSection(False)
            hh.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
            self._columns_restored = restored and self.settings.get_bool(OWN_COLUMNS_KEY)

    def _header_menu(self, pos: QPoint) -> None:
        from PySide6.QtWidgets import QMenu

        hh = self.table.horizontalHeader()
        menu = QMenu(self)
        for i, col in enumerate(self.model.columns):
            action = menu.addAction(col.title)
            action.setCheckable(True)
            action.setChecked(not hh.isSectionHidden(i))
            action.setEnabled(i != NAME)
            action.toggled.connect(lambda on, i=i: hh.setSectionHidden(i, not on))
        menu.popup(hh.mapToGlobal(pos))

    def _save_layout(self) -> None:
        self.settings.save_geometry("roster", self)
        self.settings.save_bytes("roster/splitter", self.splitter.saveState())
        self.settings.save_bytes("roster/side", self.side.saveState())
        self.settings.save_bytes("roster/header", self.table.horizontalHeader().saveState())
        self.settings.set(OWN_COLUMNS_KEY, self._columns_restored)

    # -- loading ----------------------------------------------------------------------------

    def reload(self, first: bool = False) -> bool:
        """Read the roster again (keeping the selection by id); False if the army is gone."""
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
        keep_current = self._current_id()
        keep = set(self.selected_ids())
        if self._select_after:
            keep = set(self._select_after)
            keep_current = self._select_after[-1]
            self._select_after = ()
        self.roster = roster
        self.model.set_cost_unit(roster.cost_unit)
        self.model.set_rows(roster.units)
        self.header.show_roster(roster)
        self.setWindowTitle(f"{roster.army.name} ({roster.army.player_name}): roster")
        if first and not keep and roster.units:
            keep, keep_current = {roster.units[0].id}, roster.units[0].id
        self._select_ids(keep, keep_current)
        self._update_counts()
        self._show_current()
        if self.isVisible():
            self._fit_names()
        return True

    def _fit_names(self) -> None:
        """Widen the Name column to its longest name (up to ``NAME_CHARS`` characters): the
        name is what tells units apart, so it is never the column cut short."""
        fm = self.table.fontMetrics()
        names = sorted((r.name for r in self.model.all_rows()), key=len, reverse=True)[:12]
        widest = max((fm.horizontalAdvance(n) for n in names), default=0)
        pad = (
            2
            * self.table.style().pixelMetric(
                QStyle.PixelMetric.PM_FocusFrameHMargin, None, self.table
            )
            + 12
        )
        needed = min(widest + pad, fm.averageCharWidth() * NAME_CHARS + pad)
        if self.table.columnWidth(NAME) < needed:
            fitting, self._fitting = self._fitting, True
            self.table.setColumnWidth(NAME, needed)
            self._fitting = fitting

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

    def _on_changed(self, changes: object) -> None:
        if self._closing or not isinstance(changes, Changes) or not changes & RELOAD_ON:
            return
        if changes & Changes.CATALOG or changes & Changes.CAMPAIGNS:
            self.catalog = None  # read it again
        if self._targeted is not None and changes == Changes.UNITS:
            ids, self._targeted = self._targeted, None
            self._refresh_units(ids)
            return
        self._targeted = None
        if not self.isVisible() or self.isMinimized():
            self._dirty = True
            return
        if not self.reload():
            self.close()

    def _on_status(self, text: str) -> None:
        self.statusBar().showMessage(text, 10_000)

    def _section_resized(self, *_args: object) -> None:
        """A column the organizer widened or narrowed by hand: keep their widths from now on
        (and in later sessions) instead of fitting them to the texts."""
        if not self._fitting and self.isVisible():
            self._columns_restored = True

    def _fit(self) -> None:
        """Fit the columns to their texts in the table's width (names and what units hold
        give up room last), unless the organizer set their own widths."""
        if self._columns_restored:
            return
        self._fitting = True
        try:
            fit_columns(self.table, keep=(NAME, HANDS))
        finally:
            self._fitting = False

    def _table_resized(self) -> None:
        """The table's width changed: fit the columns again (unless they are the organizer's)."""
        if not self._columns_restored and self.isVisible():
            self._fit_timer.start()

    def _type_dropped(self, key: str) -> None:
        """A unit type dragged from the catalog onto the table: Add units of it (the dialog
        opens once the drop is over)."""
        self._dropped_type = key
        QTimer.singleShot(0, self, self._add_dropped)

    def _add_dropped(self) -> None:
        key, self._dropped_type = self._dropped_type, None
        if key is not None:
            self.add_of_type(key)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._fit_pending:
            self._fit_pending = False
            for widget in (self, self.centralWidget()):
                layout = widget.layout() if widget is not None else None
                if layout is not None:
                    layout.activate()
            self._fit()
        self._fit_names()
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
        sm = self.table.selectionModel()
        return [UnitId(int(i.data(IdRole))) for i in sm.selectedRows(NAME)]

    def selected_rows(self) -> list[UnitRow]:
        sm = self.table.selectionModel()
        rows = sorted(i.row() for i in sm.selectedRows(NAME))
        return [self.model.row_for(r) for r in rows]

    def _current_id(self) -> UnitId | None:
        idx = self.table.currentIndex()
        return UnitId(int(idx.data(IdRole))) if idx.isValid() else None

    def current_row(self) -> UnitRow | None:
        idx = self.table.currentIndex()
        if not idx.isValid():
            return None
        row: UnitRow = self.model.row_for(idx.row())
        return row

    def _select_ids(self, ids: Iterable[UnitId], current: UnitId | None) -> None:
        rows = sorted(r for r in (self.model.row_of_id(i) for i in ids) if r >= 0)
        sm = self.table.selectionModel()
        selection = QItemSelection()
        last = self.model.columnCount() - 1
        runs: list[tuple[int, int]] = []  # contiguous runs: one range each
        for r in rows:
            if runs and r == runs[-1][1] + 1:
                runs[-1] = (runs[-1][0], r)
            else:
                runs.append((r, r))
        for start, end in runs:
            selection.select(self.model.index(start, 0), self.model.index(end, last))
        sm.blockSignals(True)
        sm.clearSelection()
        if current is not None and self.model.row_of_id(current) >= 0:
            sm.setCurrentIndex(
                self.model.index_of_id(current, NAME), QItemSelectionModel.SelectionFlag.NoUpdate
            )
        sm.select(selection, QItemSelectionModel.SelectionFlag.Select)
        sm.blockSignals(False)
        self.table.viewport().update()
        if current is not None and self.model.row_of_id(current) >= 0:
            self.table.scrollTo(self.model.index_of_id(current, NAME))
        self._update_enabled()

    def select_units(self, ids: Sequence[UnitId]) -> None:
        """Select these units (the last one current) and show its card."""
        self._select_ids(ids, ids[-1] if ids else None)
        self._show_current()

    def _selection_changed(self, *args: object) -> None:
        self._update_enabled()
        self._card_timer.start()

    def _update_enabled(self) -> None:
        has_sel = self.table.selectionModel().hasSelection()
        has_cur = self.table.currentIndex().isValid()
        for a in self._selection_actions:
            a.setEnabled(has_sel)
        for a in self._current_actions:
            a.setEnabled(has_cur)

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
            self.edit_unit()

    # -- edits ------------------------------------------------------------------------------

    def _commit_edit(self, row: UnitRow, field: str, text: str) -> bool:
        if field != "name":
            return False
        self._targeted = (row.id,)
        done = self.runner.perform(
            lambda: self.services.roster.edit_unit(
                row.id, UnitPatch(name=text), version=row.version
            )
        )
        self._targeted = None
        return done is not None

    def _perform_edit(self, patches: dict[UnitId, UnitPatch], text: str | None = None) -> bool:
        """Edit existing units (rows refreshed in place, not the whole roster). The versions
        the rows show go along: a unit someone else changed since is refused, not overwritten."""
        self._targeted = tuple(patches)
        shown = {r.id: r.version for r in self.model.all_rows()}
        versions = {uid: shown[uid] for uid in patches if uid in shown}
        done = self.runner.perform(
            lambda: self.services.roster.edit_units(patches, versions=versions), text
        )
        self._targeted = None
        return done is not None

    def _loadout_edit(self, loadouts: dict[UnitId, Loadout], text: str) -> None:
        self._perform_edit({uid: UnitPatch(loadout=lo) for uid, lo in loadouts.items()}, text)

    def add_unit(self) -> tuple[UnitId, ...]:
        """Add unit: the Add units dialog for one unit (type and equipment as Add several)."""
        return self._add(1, typical_unit(self.model.all_rows()))

    def add_copies(self) -> tuple[UnitId, ...]:
        """Add several: of the army's most common type, equipped like most units of that type,
        as many as last time in any roster (``DEFAULT_ADD_COUNT`` the first time)."""
        count = self.settings.get_int(ADD_COUNT_KEY, DEFAULT_ADD_COUNT) or DEFAULT_ADD_COUNT
        return self._add(max(1, count), typical_unit(self.model.all_rows()), several=True)

    def add_of_type(self, type_key: str) -> tuple[UnitId, ...]:
        """A unit type dragged from the catalog: Add units of that type (equipped like most
        units of that type here), as many as last time."""
        same = [r for r in self.model.all_rows() if r.type_key == type_key]
        count = self.settings.get_int(ADD_COUNT_KEY, DEFAULT_ADD_COUNT) or DEFAULT_ADD_COUNT
        return self._add(max(1, count), typical_unit(same), several=True, type_key=type_key)

    def _add(
        self,
        count: int,
        template: UnitRow | None = None,
        *,
        several: bool = False,
        type_key: str | None = None,
    ) -> tuple[UnitId, ...]:
        if self.catalog is None:
            return ()
        answer = AddUnitsDialog.ask(
            self,
            self.catalog,
            type_key=type_key or (template.type_key if template else None),
            count=count,
            template=template,
        )
        if answer is None:
            return ()
        if several:
            self.settings.set(ADD_COUNT_KEY, answer.count)
        ids = self.runner.perform(lambda: adding(self.services.roster, self.army_id, answer))
        if ids:
            self.select_units(ids)
            self.table.setFocus()
        return ids or ()

    def duplicate(self) -> tuple[UnitId, ...]:
        ids = self.selected_ids()
        if not ids:
            return ()
        new = self.runner.perform(lambda: self.services.roster.duplicate_units(ids))
        if new:
            self.select_units(new)
        return new or ()

    def rename(self) -> None:
        idx = self.table.currentIndex()
        if idx.isValid():
            self.table.setCurrentIndex(idx.siblingAtColumn(NAME))
            self.table.edit(idx.siblingAtColumn(NAME))

    def edit_unit(self) -> bool:
        row = self.current_row()
        if row is None or self.catalog is None:
            return False
        patch = UnitEditor.ask(self, row, self.catalog)
        if patch is None:
            return False
        return self._perform_edit({row.id: patch})

    def change_type(self) -> bool:
        rows = self.selected_rows()
        if not rows or self.catalog is None:
            return False
        key = ChangeTypeDialog.ask(self, self.catalog, rows[-1].type_key, len(rows))
        if key is None:
            return False
        patches = {r.id: UnitPatch(type_key=key) for r in rows if r.type_key != key}
        if not patches:
            return False
        return self._perform_edit(patches)

    def delete_selected(self) -> bool:
        rows = self.selected_rows()
        if not rows:
            return False
        # The row after the last deleted one becomes current.
        last = max(self.model.row_of_id(r.id) for r in rows)
        after = None
        if last + 1 < self.model.rowCount():
            after = self.model.row_for(last + 1).id
        elif min(self.model.row_of_id(r.id) for r in rows) > 0:
            after = self.model.row_for(min(self.model.row_of_id(r.id) for r in rows) - 1).id
        if after is not None:
            self._select_after = (after,)
        done = self.runner.perform(
            lambda: self.services.roster.delete_units(
                [r.id for r in rows], versions={r.id: r.version for r in rows}
            )
        )
        self._select_after = ()
        if done is not None:
            self.statusBar().showMessage(
                f"Deleted {rows[0].name if len(rows) == 1 else plural(len(rows), 'unit')}"
                " (Ctrl+Z brings it back)",
                8000,
            )
        return done is not None

    def set_budget(self, budget: int | None) -> bool:
        patch = ArmyPatch(budget=NO_BUDGET if budget is None else budget)
        version = self.roster.army.version if self.roster is not None else None
        return (
            self.runner.perform(
                lambda: self.services.campaigns.update_army(self.army_id, patch, version=version),
                "Change budget",
            )
            is not None
        )

    def duplicate_army(self) -> ArmyId | None:
        """Army > Duplicate army: a copy of this army under a new name, for a player, with a
        budget (one undo step); the new army's roster opens."""
        cid = self.campaign_id
        if self.roster is None or cid is None or self.ask_army is None:
            return None
        players = self.runner.read(lambda: self.services.campaigns.list_players(cid))
        if not players:
            return None
        army = self.roster.army
        answer = self.ask_army(
            self,
            players,
            title=f"Duplicate {army.name}",
            player_id=army.player_id,
            name=f"{army.name} (copy)",
            budget=army.budget,
            cost_unit=self.roster.cost_unit,
        )
        if answer is None:
            return None
        made = self.runner.perform(
            lambda: self.services.roster.duplicate_army(
                self.army_id, answer.name, player_id=answer.player_id, budget=answer.budget
            )
        )
        if made is None:
            return None
        self.army_made.emit(made.id)
        return made.id

    def _roster_text(self, fmt: str) -> str | None:
        return self.runner.read(lambda: self.services.roster.roster_text(self.army_id, fmt))

    def copy_as_text(self, fmt: str = "text") -> str | None:
        """Army > Copy as text: the roster on the clipboard, in ``fmt``, to paste into a chat
        or a forum post."""
        text = self._roster_text(fmt)
        if text is None:
            return None
        QGuiApplication.clipboard().setText(text)
        what = {"text": "plain text", "markdown": "Markdown", "bbcode": "BBCode"}[fmt]
        self.statusBar().showMessage(f"Copied the roster as {what}: paste it into a post.", 8000)
        return text

    def export_text(self) -> Path | None:
        """Army > Export as text: the file's ending chooses the format (.txt, .md, .bbcode)."""
        from brikdesk.domain.roster_text import format_for
        from brikdesk.services.printing import write_text
        from ui.widgets.dialogs import FileChooser
        from ui.windows.printing import safe_file_name

        if self.roster is None:
            return None
        path = FileChooser.save_path(
            self,
            "Export the roster as text",
            "Plain text (*.txt);;Markdown (*.md);;BBCode for forums (*.bbcode)",
            f"{safe_file_name(self.roster.army.name)}.txt",
            ".txt",
            settings=self.settings,
            kind="rosters",
        )
        if path is None:
            return None
        fmt = format_for(path)
        if fmt is None:
            self.banner.show_error(f"{path.name}: the name must end in .txt, .md or .bbcode")
            return None
        text = self._roster_text(fmt)
        if text is None:
            return None
        written = self.runner.read(lambda: write_text(path, text))
        if written is not None:
            self.statusBar().showMessage(f"Saved the roster to {written}", 8000)
        return written

    # -- roster order -----------------------------------------------------------------------

    def show_roster_order(self) -> None:
        """Drop the sorting by a column: the rows in roster order (the printed order)."""
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.model.sort(-1)

    def _reorder(self, order: list[UnitId], text: str) -> bool:
        """Store ``order`` (every unit id once) as the roster order, in one undoable step."""
        ids = self.selected_ids()
        current = [r.id for r in self.model.all_rows()]
        if not ids or order == current:
            return False
        self.show_roster_order()  # the moved units must be seen moving
        self._select_after = (*[i for i in order if i in set(ids)], self._current_id() or ids[-1])
        done = self.runner.perform(
            lambda: self.services.roster.reorder_units(self.army_id, order, current), text
        )
        self._select_after = ()
        return done is not None

    def _moved(self, step: int) -> list[UnitId]:
        """The roster order with each run of selected units moved ``step`` (+1/-1) places,
        past the next unselected unit (as far as the roster's end allows)."""
        chosen = set(self.selected_ids())
        order = [r.id for r in self.model.all_rows()]
        idx = range(1, len(order)) if step < 0 else range(len(order) - 2, -1, -1)
        for i in idx:
            j = i + step
            if order[i] in chosen and order[j] not in chosen:
                order[i], order[j] = order[j], order[i]
        return order

    def move_up(self) -> bool:
        return self._reorder(self._moved(-1), "Move units up")

    def move_down(self) -> bool:
        return self._reorder(self._moved(+1), "Move units down")

    def move_to_top(self) -> bool:
        chosen = set(self.selected_ids())
        order = [r.id for r in self.model.all_rows()]
        return self._reorder(
            [i for i in order if i in chosen] + [i for i in order if i not in chosen],
            "Move units to the top",
        )

    def move_to_bottom(self) -> bool:
        chosen = set(self.selected_ids())
        order = [r.id for r in self.model.all_rows()]
        return self._reorder(
            [i for i in order if i not in chosen] + [i for i in order if i in chosen],
            "Move units to the bottom",
        )

    def focus_loadout(self) -> None:
        self.loadout.combos["in hand"].setFocus()

    def focus_filter(self) -> None:
        self.filter.setFocus()
        self.filter.selectAll()

    def focus_budget(self) -> None:
        self.header.budget.setFocus()
        self.header.budget.selectAll()
