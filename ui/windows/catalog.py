"""The catalog window: the campaign's weapons, equipment and unit types, editable in place.

Two tabs (items, unit types), each a table beside a form of the selected entry. Every field is
checked as it is typed (``validate_item_field`` / ``validate_unit_type_field``): a Damage
expression is parsed on each keystroke and the error shows under the field; Use and Range take
only what the rules allow. House rules are marked (bold on amber, the rules' value in the
tooltip) and each can be reset to the rules' value; custom entries can be added and deleted.
For the selected weapon a small chart shows its Damage against a plain minifig (Armor 4) and
the kill chance for each Action die (pyqtgraph, loaded when first needed; the odds are worked
out on a worker thread). Every edit is one undoable service call, stored at once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QModelIndex, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QDrag, QFocusEvent, QKeySequence, QMouseEvent, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMainWindow,
    QPlainTextEdit,
    QScrollArea,
    QSplitter,
    QStyle,
    QTableView,
    QTabWidget,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.catalog import FIELD_LABELS, CatalogItem, Category
from brikdesk.domain.ids import ArmyId, CampaignId, UnitId
from brikdesk.errors import StorageError, UserError
from brikdesk.services import Changes, Services
from brikdesk.services.catalogs import CatalogEntry, CatalogView, EntryChange
from ui import colours
from ui.bus import Bus
from ui.models.catalog import (
    CatalogTableModel,
    differs,
    item_error,
    item_field_text,
    item_model,
    rules_value,
    unit_type_error,
    unit_type_field_text,
    unit_type_model,
)
from ui.models.table import IdRole
from ui.screen import fit_to_screen
from ui.settings import AppSettings
from ui.widgets.common import (
    Actions,
    MessageBanner,
    make_action,
    name_toolbar_extension,
    show_storage_error,
    undo_redo_actions,
)
from ui.widgets.fields import ValidatingDelegate, ValidatingLineEdit
from ui.windows.catalog_dialogs import ITEM, UNIT_TYPE, NewEntryDialog
from ui.windows.unit_dialogs import AddUnitsDialog, adding, unit_type_mime
from ui.workers import start_job

log = logging.getLogger(__name__)


def house_style(kind: str) -> str:
    """The style sheet of an editor (``kind``: its class) whose value is a house rule."""
    return f"{kind} {{ background: {colours.HOUSE_BG.hex()}; }}"


#: The army Catalog > Add to army added to last (offered first next time).
ADD_ARMY_KEY = "catalog/add_army"

if TYPE_CHECKING:
    from ui.plots.damage_chart import DamageChart


@dataclass(frozen=True)
class FieldSpec:
    field: str
    kind: str  # "text", "flag", "category", "notes"
    hint: str = ""

    @property
    def label(self) -> str:
        return FIELD_LABELS.get(self.field, self.field)


ITEM_FORM = (
    FieldSpec("name", "text"),
    FieldSpec("category", "category"),
    FieldSpec("cost", "text", "'-' or 0 to 999"),
    FieldSpec("use", "text", "'-' or 0 to 20"),
    FieldSpec("range", "text", "CC, '-' or inches"),
    FieldSpec("damage", "text", "dice, e.g. 1dA+2 or 1d10 Exp"),
    FieldSpec("hands", "text", "0, 1 or 2"),
    FieldSpec("thrown_range", "text", "'-' or inches"),
    FieldSpec("thrown_use", "text"),
    FieldSpec("thrown_range_dice", "text", "e.g. 1d6+2"),
    FieldSpec("explosive_radius", "text", "inches"),
    FieldSpec("knockback", "text", "inches"),
    FieldSpec("armor_bonus", "text"),
    FieldSpec("deflection", "text"),
    FieldSpec("parry_deflection", "text"),
    FieldSpec("move_penalty", "text", "inches"),
    FieldSpec("worn", "flag"),
    FieldSpec("shield", "flag"),
    FieldSpec("half_speed", "flag"),
    FieldSpec("cant_swim", "flag"),
    FieldSpec("charging", "flag"),
    FieldSpec("armor_piercing", "flag"),
    FieldSpec("as_object", "flag"),
    FieldSpec("notes", "notes"),
)
UNIT_TYPE_FORM = (
    FieldSpec("name", "text"),
    FieldSpec("action_die", "text", "d4, d6, d8, d10 or d12"),
    FieldSpec("move", "text", "inches"),
    FieldSpec("armor", "text", "a number or dice: 2d6"),
    FieldSpec("cost", "text", "'-' or 0 to 999"),
    FieldSpec("hands", "text", "0 to 6"),
    FieldSpec("over_the_top", "flag"),
    FieldSpec("notes", "notes"),
)


class NotesEdit(QPlainTextEdit):
    """Notes, stored when the field loses focus."""

    finished = Signal()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.finished.emit()


class EntryForm(QWidget):
    """Every field of one catalog entry, each checked as typed, with a reset per house rule.

    ``edited(field, value)``: text as typed (already valid), True/False for flags, the
    category's name; ``reset(field)``: put the rules' value back.
    """

    edited = Signal(str, object)
    reset = Signal(str)

    def __init__(
        self,
        specs: tuple[FieldSpec, ...],
        validate: Callable[[str, str], str | None],
        text_of: Callable[[Any, str], str],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.specs = specs
        self._text_of = text_of
        self.entry: CatalogEntry | None = None
        self.editors: dict[str, QWidget] = {}
        self.reset_buttons: dict[str, QToolButton] = {}
        self.labels: dict[str, QLabel] = {}
        #: The editors that show a house rule, and their class (for their style sheet).
        self._marked: dict[QWidget, str] = {}
        colours.follow_theme(self, self._restyle, now=False)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        self.title = QLabel(self)
        self.title.setObjectName("formTitle")
        self.title.setWordWrap(True)
        outer.addWidget(self.title)
        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        outer.addLayout(grid)
        flags = QGridLayout()
        flag_n = 0
        r = 0
        # The flags sit in their own grid below the fields (notes included): made after them,
        # so that Tab follows the reading order.
        in_reading_order = [s for s in specs if s.kind != "flag"] + [
            s for s in specs if s.kind == "flag"
        ]
        for spec in in_reading_order:
            if spec.kind == "flag":
                box = QCheckBox(spec.label, self)
                box.setObjectName(f"form_{spec.field}")
                box.clicked.connect(lambda checked, f=spec.field: self.edited.emit(f, checked))
                self.editors[spec.field] = box
                cell = QHBoxLayout()
                cell.setSpacing(2)
                cell.addWidget(box)
                cell.addWidget(self._reset_button(spec))
                cell.addStretch(1)
                flags.addLayout(cell, flag_n // 2, flag_n % 2)
                flag_n += 1
                continue
            label = QLabel(spec.label + ":", self)
            self.labels[spec.field] = label
            grid.addWidget(label, r, 0, Qt.AlignmentFlag.AlignTop)
            if spec.kind == "category":
                combo = QComboBox(self)
                combo.setObjectName(f"form_{spec.field}")
                for c in Category:
                    combo.addItem(c.value, c.value)
                combo.activated.connect(
                    lambda _i, f=spec.field, c=combo: self.edited.emit(f, c.currentData())
                )
                editor: QWidget = combo
            elif spec.kind == "notes":
                notes = NotesEdit(self)
                notes.setObjectName(f"form_{spec.field}")
                notes.setTabChangesFocus(True)
                notes.setFixedHeight(64)
                notes.finished.connect(self._notes_done)
                editor = notes
            else:
                error = QLabel(self)
                error.setWordWrap(True)
                line = ValidatingLineEdit(spec.field, validate, self, error)
                line.setObjectName(f"form_{spec.field}")
                line.setPlaceholderText(spec.hint)
                line.editingFinished.connect(lambda f=spec.field: self._text_done(f))
                editor = line
                grid.addWidget(error, r + 1, 1, 1, 2)
            self.editors[spec.field] = editor
            label.setBuddy(editor)
            grid.addWidget(editor, r, 1)
            grid.addWidget(self._reset_button(spec), r, 2, Qt.AlignmentFlag.AlignTop)
            r += 2
        outer.addLayout(flags)
        outer.addStretch(1)
        self.show_entry(None)

    def _reset_button(self, spec: FieldSpec) -> QToolButton:
        button = QToolButton(self)
        button.setObjectName(f"reset_{spec.field}")
        button.setText("↺")
        button.setAccessibleName(f"Put {spec.label} back to the rules' value")
        button.setAutoRaise(True)
        button.setToolTip(f"Put {spec.label} back to the rules' value")
        button.clicked.connect(lambda _=False, f=spec.field: self.reset.emit(f))
        self.reset_buttons[spec.field] = button
        return button

    def _mark(self, editor: QWidget, kind: str, marked: bool) -> None:
        """Give ``editor`` the house rule's background, or take it away."""
        if marked:
            self._marked[editor] = kind
        else:
            self._marked.pop(editor, None)
        editor.setStyleSheet(house_style(kind) if marked else "")

    def _restyle(self) -> None:
        """The theme changed: the house rules' backgrounds and the title's marks follow."""
        for editor, kind in self._marked.items():
            editor.setStyleSheet(house_style(kind))
        self._show_title(self.entry)

    def show_entry(self, entry: CatalogEntry | None) -> None:
        self.entry = entry
        self.setEnabled(entry is not None)
        self._show_title(entry)
        self._show_values(entry)

    def _show_title(self, entry: CatalogEntry | None) -> None:
        if entry is None:
            self.title.setText("Select an entry to edit all of its values.")
        else:
            mark = (
                f" · <span style='color:{colours.LINK.hex()}'>custom</span>"
                if entry.custom
                else f" · <span style='color:{colours.HOUSE_TEXT.hex()}'>house rule</span>"
                if entry.changed
                else " · as in the rules"
            )
            self.title.setText(f"<b>{entry.entry.name}</b>{mark}")

    def _show_values(self, entry: CatalogEntry | None) -> None:
        for spec in self.specs:
            editor = self.editors[spec.field]
            marked = entry is not None and differs(entry, spec.field)
            was = rules_value(entry, spec.field) if marked and entry is not None else None
            tip = f"House rule. The rules say: {was}" if was is not None else ""
            editor.blockSignals(True)
            if isinstance(editor, QCheckBox):
                editor.setChecked(bool(entry and getattr(entry.entry, spec.field)))
                self._mark(editor, "QCheckBox", marked)
            elif isinstance(editor, QComboBox):
                if entry is not None:
                    editor.setCurrentIndex(editor.findData(str(getattr(entry.entry, spec.field))))
                self._mark(editor, "QComboBox", marked)
            elif isinstance(editor, NotesEdit):
                editor.setPlainText(entry.entry.notes if entry else "")
                self._mark(editor, "QPlainTextEdit", marked)
            elif isinstance(editor, ValidatingLineEdit):
                editor.set_checked_text(self._text_of(entry.entry, spec.field) if entry else "")
                self._mark(editor, "QLineEdit", marked)
            editor.blockSignals(False)
            if spec.field in self.labels:
                font = self.labels[spec.field].font()
                font.setBold(marked)
                self.labels[spec.field].setFont(font)
            editor.setToolTip(tip)
            button = self.reset_buttons[spec.field]
            button.setEnabled(marked)
            button.setVisible(entry is not None and not entry.custom)

    def _text_done(self, field: str) -> None:
        editor = self.editors[field]
        assert isinstance(editor, ValidatingLineEdit)
        if self.entry is None or editor.check() is not None:
            return
        if editor.text().strip() != self._text_of(self.entry.entry, field):
            self.edited.emit(field, editor.text())

    def _notes_done(self) -> None:
        editor = self.editors["notes"]
        assert isinstance(editor, NotesEdit)
        if self.entry is not None and editor.toPlainText() != self.entry.entry.notes:
            self.edited.emit("notes", editor.toPlainText())


class ChartPanel(QFrame):
    """Holds the Damage chart, made (and pyqtgraph imported) when a weapon is first shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chartPanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(6, 6, 6, 6)
        self.note = QLabel(self)
        self.note.setObjectName("chartNote")
        self.note.setWordWrap(True)
        self._layout.addWidget(self.note)
        self.chart: DamageChart | None = None  # made once needed (loads pyqtgraph)
        self._token = 0
        self.pending = False
        self.show_item(None)

    def show_item(self, entry: CatalogEntry | None) -> None:
        self._token += 1
        it = entry.entry if entry is not None else None
        if not isinstance(it, CatalogItem) or not it.damage:
            if self.chart is not None:
                self.chart.hide()
            self.note.setText(
                ""
                if not isinstance(it, CatalogItem)
                else f"{it.name} has no Damage roll of its own: no chart."
            )
            self.note.setVisible(isinstance(it, CatalogItem))
            self.pending = False
            return
        self.note.setText(f"Working out the odds of {it.name}…")
        self.note.show()
        token = self._token
        from ui.plots import damage_chart  # pyqtgraph loads here, not at start-up

        if self.chart is None:
            self.chart = damage_chart.DamageChart(self)
            self._layout.addWidget(self.chart, 1)
        self.pending = True
        # The relay lives with the application, not this panel: the window may close while
        # the worker computes, and the late result is then dropped.
        start_job(
            QCoreApplication.instance() or self,
            lambda _progress: damage_chart.damage_odds(it),
            on_done=lambda odds: self._done(token, odds),
            on_error=lambda exc, _details: self._failed(token, exc),
        )

    def _done(self, token: int, odds: Any) -> None:
        if not shiboken6.isValid(self) or token != self._token or self.chart is None:
            return
        self.pending = False
        self.note.hide()
        self.chart.show_odds(odds)
        self.chart.show()

    def _failed(self, token: int, exc: BaseException) -> None:
        if not shiboken6.isValid(self) or token != self._token:
            return
        self.pending = False
        if self.chart is not None:
            self.chart.hide()
        self.note.setText(f"No chart: {exc}")
        self.note.show()


class UnitTypeTable(QTableView):
    """The unit types' table: a row dragged onto an open roster adds units of that type."""

    def __init__(self, campaign_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.campaign_id = campaign_id
        self._press: QPoint | None = None
        self.setToolTip("Drag a unit type onto an open roster to add units of it")

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press = (
            event.position().toPoint() if event.button() == Qt.MouseButton.LeftButton else None
        )
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        press = self._press
        if (
            press is not None
            and event.buttons() & Qt.MouseButton.LeftButton
            and (event.position().toPoint() - press).manhattanLength()
            >= QApplication.startDragDistance()
        ):
            self._press = None
            key = self.drag_key()
            if key is not None:
                drag = QDrag(self)
                drag.setMimeData(unit_type_mime(self.campaign_id, key))
                drag.exec(Qt.DropAction.CopyAction)
                return
        super().mouseMoveEvent(event)

    def drag_key(self) -> str | None:
        """The key of the unit type a drag takes (the current row's)."""
        idx = self.currentIndex()
        return str(idx.data(IdRole)) if idx.isValid() else None


class CatalogTab(QWidget):
    """A table of entries beside the selected entry's form (and chart, for items)."""

    def __init__(
        self,
        kind: str,
        model: CatalogTableModel,
        form: EntryForm,
        parent: QWidget | None = None,
        *,
        campaign_id: int = 0,
    ) -> None:
        super().__init__(parent)
        self.kind = kind
        self.model = model
        self.form = form
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.table = (
            UnitTypeTable(campaign_id, self.splitter)
            if kind == UNIT_TYPE
            else QTableView(self.splitter)
        )
        self.table.setObjectName("itemTable" if kind == ITEM else "unitTypeTable")
        self.table.setAccessibleName("Weapons and equipment" if kind == ITEM else "Unit types")
        self.table.setModel(model)
        self.table.setItemDelegate(ValidatingDelegate(self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setTabKeyNavigation(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        hh = self.table.horizontalHeader()
        hh.setStretchLastSection(True)
        hh.setHighlightSections(False)
        for i, col in enumerate(model.columns):
            if col.width_hint:
                self.table.setColumnWidth(i, col.width_hint)
        hh.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.splitter.addWidget(self.table)
        side = QWidget(self.splitter)
        sv = QVBoxLayout(side)
        sv.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea(side)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes from the table to the form
        scroll.setWidget(form)
        sv.addWidget(scroll, 1)
        self.chart: ChartPanel | None = None
        if kind == ITEM:
            self.chart = ChartPanel(side)
            self.chart.setMinimumHeight(120)
            sv.addWidget(self.chart, 1)
        self.splitter.addWidget(side)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([800, 480])
        layout.addWidget(self.splitter)

    def current_key(self) -> str | None:
        idx = self.table.currentIndex()
        return str(idx.data(IdRole)) if idx.isValid() else None

    def current_entry(self) -> CatalogEntry | None:
        idx = self.table.currentIndex()
        return self.model.row_for(idx.row()) if idx.isValid() else None

    def select_key(self, key: str | None) -> None:
        if key is None:
            return
        idx = self.model.index_of_id(key)
        if idx.isValid():
            self.table.setCurrentIndex(idx)
            self.table.scrollTo(idx)


class CatalogWindow(QMainWindow):
    """The catalog of campaign ``campaign_id``. ``closed(campaign_id)`` when it closes."""

    closed = Signal(int)

    def __init__(
        self,
        services: Services,
        bus: Bus,
        undo_stack: QUndoStack,
        settings: AppSettings,
        campaign_id: CampaignId,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowFlag(Qt.WindowType.Window, True)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setObjectName("CatalogWindow")
        self.services = services
        self.bus = bus
        self.settings = settings
        self.campaign_id = campaign_id
        self.view: CatalogView | None = None
        self._closing = False
        self.banner = MessageBanner(self)
        self.runner = Actions(self, undo_stack, bus, self.banner)
        self._build(undo_stack)
        bus.changed.connect(self._on_changed)
        bus.status.connect(self._on_status)
        self.resize(1300, 800)
        settings.restore_geometry("catalog", self)
        fit_to_screen(self, self.width(), self.height())
        for tab, key in ((self.items_tab, "catalog/items"), (self.types_tab, "catalog/types")):
            state = settings.get_bytes(key)
            if state is not None:
                tab.splitter.restoreState(state)
            columns = settings.get_bytes(f"{key}/columns")  # the organizer's column widths
            if columns is not None:
                hh = tab.table.horizontalHeader()
                hh.restoreState(columns)
                hh.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        if not self.reload():
            QTimer.singleShot(0, self, self.close)

    # -- construction -----------------------------------------------------------------------

    def _build(self, stack: QUndoStack) -> None:
        central = QWidget(self)
        outer = QVBoxLayout(central)
        outer.setContentsMargins(8, 6, 8, 4)
        outer.setSpacing(6)
        top = QHBoxLayout()
        self.heading = QLabel(central)
        self.heading.setObjectName("catalogHeading")
        self.heading.setWordWrap(True)
        top.addWidget(self.heading, 1)
        self.filter = QLineEdit(central)
        self.filter.setObjectName("catalogFilter")
        self.filter.setAccessibleName("Filter the catalog")
        self.filter.setPlaceholderText("Filter (Ctrl+F)")
        self.filter.setClearButtonEnabled(True)
        self.filter.setMinimumWidth(260)
        self.filter.textChanged.connect(self._filter_changed)
        top.addWidget(self.filter)
        outer.addLayout(top)
        outer.addWidget(self.banner)

        self.item_model = item_model(self._commit_item, self)
        self.type_model = unit_type_model(self._commit_type, self)
        self.item_form = EntryForm(ITEM_FORM, item_error, item_field_text)
        self.type_form = EntryForm(UNIT_TYPE_FORM, unit_type_error, unit_type_field_text)
        self.item_form.edited.connect(lambda f, v: self._set(ITEM, f, v))
        self.item_form.reset.connect(lambda f: self._reset_field(ITEM, f))
        self.type_form.edited.connect(lambda f, v: self._set(UNIT_TYPE, f, v))
        self.type_form.reset.connect(lambda f: self._reset_field(UNIT_TYPE, f))
        self.tabs = QTabWidget(central)
        self.tabs.setObjectName("catalogTabs")
        self.items_tab = CatalogTab(ITEM, self.item_model, self.item_form, self.tabs)
        self.types_tab = CatalogTab(
            UNIT_TYPE, self.type_model, self.type_form, self.tabs, campaign_id=self.campaign_id
        )
        self.tabs.addTab(self.items_tab, "&Weapons and equipment")
        self.tabs.addTab(self.types_tab, "&Unit types")
        self.tabs.currentChanged.connect(self._tab_changed)
        for tab in (self.items_tab, self.types_tab):
            tab.table.selectionModel().currentRowChanged.connect(self._current_changed)
        outer.addWidget(self.tabs, 1)
        legend = QLabel(central)
        colours.follow_theme(
            legend,
            lambda: legend.setText(
                f"<span style='background:{colours.HOUSE_BG.hex()}; "
                f"color:{colours.HOUSE_TEXT.hex()}'>&nbsp;<b>bold on amber</b>&nbsp;"
                "</span> differs from the rules (a house rule; its tooltip gives the "
                "rules' value) · ↺ puts one value back · double-click, F2 or start "
                "typing to edit a cell"
            ),
        )
        legend.setObjectName("catalogLegend")
        legend.setWordWrap(True)
        outer.addWidget(legend)
        self.setCentralWidget(central)

        style = self.style()
        sp = QStyle.StandardPixmap
        self.undo_action, self.redo_action = undo_redo_actions(self, stack)
        self.add_action = make_action(
            self,
            "&Add custom entry…",
            self.add_custom,
            name="addEntryAction",
            shortcut=[QKeySequence(QKeySequence.StandardKey.New), QKeySequence("Ins")],
            tip="A new item or unit type of this campaign only",
            icon=style.standardIcon(sp.SP_FileIcon),
        )
        self.delete_action = make_action(
            self,
            "&Delete custom entry",
            self.delete_current,
            name="deleteEntryAction",
            shortcut=QKeySequence(QKeySequence.StandardKey.Delete),
            tip="Delete the selected custom entry (Undo brings it back)",
            icon=style.standardIcon(sp.SP_TrashIcon),
        )
        self.reset_action = make_action(
            self,
            "&Reset to the rules",
            self.reset_current,
            name="resetEntryAction",
            shortcut="Ctrl+R",
            tip="Put every value of the entry back to the rules'",
            icon=style.standardIcon(sp.SP_BrowserReload),
        )
        self.reset_cell_action = make_action(
            self,
            "Reset this &value",
            self.reset_current_cell,
            name="resetCellAction",
            shortcut="Ctrl+Shift+R",
            tip="Put the selected cell's value back to the rules'",
        )
        self.filter_action = make_action(
            self,
            "&Filter",
            self.focus_filter,
            name="catalogFilterAction",
            shortcut=QKeySequence(QKeySequence.StandardKey.Find),
            tip="Filter the entries",
        )
        self.add_to_army_action = make_action(
            self,
            "Add to a&rmy…",
            self.add_to_army,
            name="addToArmyAction",
            shortcut="Ctrl+Shift+A",
            tip="Add units of the selected unit type to an army (or drag the type onto an open "
            "roster)",
            icon=style.standardIcon(sp.SP_ArrowForward),
        )
        self.close_action = make_action(
            self,
            "&Close",
            self.close,
            name="closeCatalogAction",
            shortcut=QKeySequence(QKeySequence.StandardKey.Close),
            tip="Close the catalog",
        )
        catalog_menu = self.menuBar().addMenu("&Catalog")
        for a in (
            self.add_action,
            self.delete_action,
            None,
            self.reset_action,
            self.reset_cell_action,
            None,
            self.add_to_army_action,
            None,
            self.close_action,
        ):
            if a is None:
                catalog_menu.addSeparator()
            else:
                catalog_menu.addAction(a)
        edit = self.menuBar().addMenu("&Edit")
        edit.addAction(self.undo_action)
        edit.addAction(self.redo_action)
        edit.addSeparator()
        edit.addAction(self.filter_action)
        tb = QToolBar("Catalog", self)
        tb.setObjectName("catalogToolbar")
        tb.setMovable(False)
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        for a in (
            self.add_action,
            self.delete_action,
            self.reset_action,
            None,
            self.add_to_army_action,
            None,
            self.undo_action,
            self.redo_action,
        ):
            if a is None:
                tb.addSeparator()
            else:
                tb.addAction(a)
        self.addToolBar(tb)
        name_toolbar_extension(tb)
        for tab in (self.items_tab, self.types_tab):
            tab.table.addActions([self.reset_cell_action, self.reset_action, self.delete_action])
            tab.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.types_tab.table.insertAction(self.reset_cell_action, self.add_to_army_action)
        # Delete acts on the tables only: in a field it deletes text.
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        QWidget.setTabOrder(self.filter, self.tabs)

    # -- loading ----------------------------------------------------------------------------

    def current_tab(self) -> CatalogTab:
        return self.types_tab if self.tabs.currentWidget() is self.types_tab else self.items_tab

    def reload(self) -> bool:
        try:
            view = self.services.catalog.view(self.campaign_id)
            campaign = self.services.campaigns.get_campaign(self.campaign_id)
        except UserError:
            return False
        except StorageError as exc:
            show_storage_error(self, exc)
            return self.view is not None
        self.view = view
        keys = {tab: tab.current_key() for tab in (self.items_tab, self.types_tab)}
        self.item_model.set_rows(view.items)
        self.type_model.set_rows(view.unit_types)
        house = sum(1 for e in view.items + view.unit_types if e.house_rule)
        self.heading.setText(
            f"<b style='font-size:large'>{campaign.name}</b>: BrikWars {campaign.edition} "
            f"catalog · costs in {campaign.cost_system} · "
            f"{len(view.items)} items, {len(view.unit_types)} unit types · "
            f"{house} house rule{'s' if house != 1 else ''}"
        )
        self.setWindowTitle(f"Catalog: {campaign.name} (BrikWars {campaign.edition})")
        for tab, key in keys.items():
            if key is not None and tab.model.row_of_id(key) >= 0:
                tab.select_key(key)
            elif tab.model.rowCount():
                tab.table.setCurrentIndex(tab.model.index(0, 0))
        self._show_current()
        return True

    def _on_changed(self, changes: object) -> None:
        if self._closing or not isinstance(changes, Changes):
            return
        if changes & (Changes.CATALOG | Changes.CAMPAIGNS) and not self.reload():
            self.close()

    def _on_status(self, text: str) -> None:
        self.statusBar().showMessage(text, 10_000)

    def _tab_changed(self) -> None:
        self.current_tab().model.set_filter(self.filter.text())
        self._show_current()

    def _filter_changed(self, text: str) -> None:
        for model in (self.item_model, self.type_model):  # one filter for both tabs
            model.set_filter(text)

    def _current_changed(self, *args: object) -> None:
        self._show_current()

    def _show_current(self) -> None:
        tab = self.current_tab()
        entry = tab.current_entry()
        tab.form.show_entry(entry)
        if tab.chart is not None:
            tab.chart.show_item(entry)
        self.delete_action.setEnabled(entry is not None and entry.custom)
        self.add_to_army_action.setEnabled(tab is self.types_tab and entry is not None)
        self.reset_action.setEnabled(entry is not None and not entry.custom and bool(entry.changed))
        idx = tab.table.currentIndex()
        field = tab.model.fields[idx.column()] if idx.isValid() else ""
        self.reset_cell_action.setEnabled(
            entry is not None and bool(field) and differs(entry, field)
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        self._closing = True
        self.settings.save_geometry("catalog", self)
        self.settings.save_bytes("catalog/items", self.items_tab.splitter.saveState())
        self.settings.save_bytes("catalog/types", self.types_tab.splitter.saveState())
        for tab, key in ((self.items_tab, "catalog/items"), (self.types_tab, "catalog/types")):
            self.settings.save_bytes(f"{key}/columns", tab.table.horizontalHeader().saveState())
        try:
            self.bus.changed.disconnect(self._on_changed)
            self.bus.status.disconnect(self._on_status)
        except (RuntimeError, TypeError):
            pass
        self.closed.emit(self.campaign_id)
        super().closeEvent(event)

    # -- edits ------------------------------------------------------------------------------

    def _commit_item(self, entry: CatalogEntry, field: str, text: str) -> bool:
        return self._set(ITEM, field, text, entry.key)

    def _commit_type(self, entry: CatalogEntry, field: str, text: str) -> bool:
        return self._set(UNIT_TYPE, field, text, entry.key)

    def _set(self, kind: str, field: str, value: object, key: str | None = None) -> bool:
        tab = self.items_tab if kind == ITEM else self.types_tab
        key = key or tab.current_key()
        if key is None:
            return False
        cat = self.services.catalog
        call = cat.set_item_field if kind == ITEM else cat.set_unit_type_field
        version = _shown_version(tab, key)
        return (
            self.runner.perform(lambda: call(self.campaign_id, key, field, value, version=version))
            is not None
        )

    def set_field(self, kind: str, key: str, field: str, value: object) -> bool:
        """Set one field of an entry (as the table or the form would)."""
        return self._set(kind, field, value, key)

    def _reset_field(self, kind: str, field: str) -> bool:
        key = (self.items_tab if kind == ITEM else self.types_tab).current_key()
        if key is None:
            return False
        cat = self.services.catalog
        call = cat.reset_item_field if kind == ITEM else cat.reset_unit_type_field
        version = _shown_version(self.items_tab if kind == ITEM else self.types_tab, key)
        return (
            self.runner.perform(lambda: call(self.campaign_id, key, field, version=version))
            is not None
        )

    def reset_current(self) -> bool:
        tab = self.current_tab()
        entry = tab.current_entry()
        if entry is None:
            return False
        if entry.custom:
            self.banner.show_error(
                f"{entry.entry.name} is a custom entry: it has no rules' value (delete it instead)"
            )
            return False
        cat = self.services.catalog
        call = cat.reset_item if tab.kind == ITEM else cat.reset_unit_type
        return (
            self.runner.perform(lambda: call(self.campaign_id, entry.key, version=entry.version))
            is not None
        )

    def reset_current_cell(self) -> bool:
        tab = self.current_tab()
        idx = tab.table.currentIndex()
        if not idx.isValid():
            return False
        field = tab.model.fields[idx.column()]
        if not field or field == "rules":
            return False
        return self._reset_field(tab.kind, field)

    def add_custom(self) -> str | None:
        tab = self.current_tab()
        if self.view is None:
            return None
        answer = NewEntryDialog.ask(self, tab.kind, self.view.catalog, tab.current_key())
        if answer is None:
            return None
        cat = self.services.catalog
        if tab.kind == ITEM:
            change = self.runner.perform(
                lambda: cat.add_custom_item(
                    self.campaign_id,
                    answer.name,
                    based_on=answer.based_on,
                    category=answer.category,
                )
            )
        else:
            change = self.runner.perform(
                lambda: cat.add_custom_unit_type(
                    self.campaign_id, answer.name, based_on=answer.based_on or "minifig"
                )
            )
        if isinstance(change, EntryChange):
            self.filter.clear()
            tab.select_key(change.key)
            tab.table.setFocus()
            return change.key
        return None

    def delete_current(self) -> bool:
        tab = self.current_tab()
        entry = tab.current_entry()
        if entry is None:
            return False
        if not entry.custom:
            self.banner.show_error(
                f"{entry.entry.name} is in the rules and can't be deleted; "
                "Reset to the rules (Ctrl+R) undoes house rules"
            )
            return False
        row = tab.model.row_of_id(entry.key)
        cat = self.services.catalog
        call = cat.delete_custom_item if tab.kind == ITEM else cat.delete_custom_unit_type
        done = self.runner.perform(lambda: call(self.campaign_id, entry.key, version=entry.version))
        if done is not None and tab.model.rowCount():
            tab.table.setCurrentIndex(tab.model.index(min(row, tab.model.rowCount() - 1), 0))
        return done is not None

    def add_to_army(self, type_key: str | None = None) -> tuple[UnitId, ...]:
        """Catalog > Add to army: units of the selected unit type (or ``type_key``) at the end
        of an army chosen in the Add units dialog (the one chosen last time first), as many
        as Add several added last; one undo step."""
        from ui.windows.roster_edits import ADD_COUNT_KEY, DEFAULT_ADD_COUNT

        key = type_key or (
            self.types_tab.current_key() if self.current_tab() is self.types_tab else None
        )
        if key is None or self.view is None:
            return ()
        armies = self.runner.read(lambda: self.services.campaigns.list_armies(self.campaign_id))
        if not armies:
            if armies is not None:
                self.banner.show_error("Add an army first (Campaign > Add army).")
            return ()
        count = self.settings.get_int(ADD_COUNT_KEY, DEFAULT_ADD_COUNT) or DEFAULT_ADD_COUNT
        answer = AddUnitsDialog.ask(
            self,
            self.view.catalog,
            type_key=key,
            count=count,
            armies=[(a.id, f"{a.name} ({a.player_name})") for a in armies],
            army_id=self.settings.get_int(ADD_ARMY_KEY),
        )
        if answer is None or answer.army_id is None:
            return ()
        army_id = ArmyId(answer.army_id)
        self.settings.set(ADD_COUNT_KEY, answer.count)
        self.settings.set(ADD_ARMY_KEY, army_id)
        ids = self.runner.perform(lambda: adding(self.services.roster, army_id, answer))
        if ids:
            army = next(a.name for a in armies if a.id == army_id)
            self.statusBar().showMessage(
                f"Added {len(ids)} unit{'s' if len(ids) != 1 else ''} to {army} "
                "(Ctrl+Z takes them back)",
                8000,
            )
        return ids or ()

    def focus_filter(self) -> None:
        self.filter.setFocus()
        self.filter.selectAll()

    def select(self, kind: str, key: str) -> None:
        """Show the entry ``key`` (tab and row)."""
        tab = self.items_tab if kind == ITEM else self.types_tab
        self.tabs.setCurrentWidget(tab)
        tab.select_key(key)

    def table_index(self, kind: str, key: str, field: str) -> QModelIndex:
        tab = self.items_tab if kind == ITEM else self.types_tab
        return tab.model.index_of_id(key, tab.model.fields.index(field))


__all__ = ["CatalogWindow", "EntryForm"]


def _shown_version(tab: CatalogTab, key: str) -> int | None:
    """The version of the entry as the tab shows it (passed with an edit: an entry someone
    else changed since is refused, not overwritten); None if the tab does not show it."""
    return next((e.version for e in tab.model.all_rows() if e.key == key), None)
