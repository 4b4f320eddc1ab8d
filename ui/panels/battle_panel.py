"""The initiative and response panel: whose turn it is, who has acted, who may still respond.

One row per unit, grouped by player with the active player on top; the round and the active
player in large type; per unit its Action, Counters used of available, status chips and a
marker when it can respond now. Filters: can respond now, in Close Combat, not yet acted.
Actions from the row's menu, the buttons under the table or single keys (the table has focus):

    A attack · S Sprint · B Bail · Shift+B Bail, Over the Top · P Parry · O other
    F Close Combat attack · C use a Counter · R respond (menu) · T status · W combat wizard
    Ctrl+E or F12: End Turn · Ctrl+T: table mode · Alt+1, Alt+2, Alt+3: the filters

Off its owner's turn a unit's Action is a response (4.3): the same keys then respond, and a
unit in Close Combat asks whom it responds to (5.2).

Every action is recorded through the battle tracker (``services.tracker``, the only writer of
a battle's log) and this battle's undo history (``ui.undo.perform``; the combat wizard adds to
the same history); the rules refuse what they forbid and the reason appears in the bar above
the table. The battle log beside the table lists every event, newest first, with Undo and Redo:
they take back this battle's last step, or, when its history is empty (after a restart), the
log's last action. Table mode (large type, high contrast) is remembered in the settings.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

import shiboken6
from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QSettings, QSize, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QFontMetrics,
    QKeySequence,
    QPalette,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.battle import (
    MAX_CLOSE_COMBAT_ATTACKERS,
    ActionUse,
    CloseCombatAttack,
    CounterUse,
    CounterUsed,
    Event,
    Maneuver,
    RuleViolation,
    Status,
    StatusCleared,
    StatusSet,
    UnitKilled,
    describe,
    engagement,
    spend_action,
    why_not_respond,
)
from brikdesk.domain.battle.rules import READINGS
from brikdesk.errors import ConflictError, StorageError, UserError
from brikdesk.services import Changes, Services
from brikdesk.services.changes import Done
from brikdesk.services.tracker import BattleView
from ui.bus import Bus
from ui.models.table import IdRole
from ui.panels.aftermath_bar import AftermathBar
from ui.panels.battle_model import (
    ACTION,
    COUNTERS,
    RESPOND,
    STATUS,
    TYPE,
    UNIT,
    BattleUnitModel,
    Filters,
    LogModel,
    log_tooltip,
)
from ui.panels.chips import StatusChipDelegate
from ui.panels.pickers import NoteAsker, UnitPicker
from ui.panels.start_dialog import OrderDialog, PlayerChoice
from ui.panels.theme import NORMAL, TABLE, Theme, readable_on
from ui.settings import AppSettings
from ui.undo import UndoScopes, perform

log = logging.getLogger(__name__)

TABLE_MODE_KEY = "battle/tableMode"
SPLITTER_KEY = "battle/splitter"
KEYS_HELP = ("A attack · S Sprint · B Bail (Shift+B Over the Top) · P Parry · O other · "
             "F Close Combat · C Counter · R respond · T status · W wizard · "
             "Ctrl+E End Turn")

_REFRESH_ON = (Changes.EVENTS | Changes.BATTLES | Changes.PLAYERS | Changes.CATALOG
               | Changes.UNITS)

#: Statuses set and cleared by a plain toggle (the ones naming other units have their own
#: entries).
_TOGGLES = (Status.HALF_SPEED, Status.STOPPED, Status.DISRUPTED, Status.MOM, Status.OUT)


def wizard_opener() -> Callable[..., Any] | None:
    """``ui.wizard.open_combat_wizard`` if the combat wizard is installed, else ``None``."""
    try:
        module = importlib.import_module("ui.wizard")
    except ImportError:
        return None
    opener = getattr(module, "open_combat_wizard", None)
    return opener if callable(opener) else None


def read_bool(settings: QSettings, key: str, default: bool = False) -> bool:
    value = settings.value(key)
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in ("1", "true", "yes", "on")


class BattlePanel(QWidget):
    """The battle tracker for one battle; see the module docstring."""

    #: The battle could not be read (deleted); the panel shows a notice.
    battle_gone = Signal(int)
    table_mode_changed = Signal(bool)

    def __init__(self, services: Services, bus: Bus, undo_stack: QUndoStack, battle_id: int,
                 *, settings: QSettings | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("battlePanel")
        self.services = services
        self.bus = bus
        #: This battle's undo history (``ui.undo.UndoScopes.battle``): the panel, its log's
        #: Undo and the combat wizard add to it.
        self.undo_stack = undo_stack
        self.battle_id = battle_id
        self.settings = settings if settings is not None else QSettings()
        self.view: BattleView | None = None
        self.theme: Theme = NORMAL
        self._app_font = QFont(self.font())
        self._app_palette = QPalette(self.palette())
        self._refreshing = False
        self._gone = False
        self._hidden = False
        self._shown_once = False
        self.open_wizard_fn = wizard_opener()

        self.model = BattleUnitModel(self)
        self.log_model = LogModel(self, theme=lambda: self.theme)
        self._build()
        self._build_actions()
        self.model.groups_changed.connect(self._span_groups)
        bus.changed.connect(self._on_changed)
        undo_stack.indexChanged.connect(self._history_moved)
        self.refresh()
        self.set_table_mode(read_bool(self.settings, TABLE_MODE_KEY), remember=False)
        if self.model.unit_ids():
            self.select_unit(self.model.unit_ids()[0])

    # -- construction ---------------------------------------------------------------------

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 8, 8, 8)
        outer.setSpacing(6)

        self.header = QFrame(self)
        self.header.setObjectName("battleHeader")
        head = QHBoxLayout(self.header)
        head.setContentsMargins(14, 8, 14, 8)
        head.setSpacing(16)
        self.round_label = QLabel(self.header)
        self.round_label.setObjectName("roundLabel")
        self.turn_label = QLabel(self.header)
        self.turn_label.setObjectName("turnLabel")
        self.name_label = QLabel(self.header)
        self.name_label.setObjectName("battleNameLabel")
        self.name_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        head.addWidget(self.round_label)
        head.addWidget(self.turn_label)
        head.addWidget(self.name_label, 1)
        self.table_mode_button = QToolButton(self.header)
        self.table_mode_button.setObjectName("tableModeButton")
        head.addWidget(self.table_mode_button)
        self.end_turn_button = QPushButton(self.header)
        self.end_turn_button.setObjectName("endTurnButton")
        self.end_turn_button.setMinimumHeight(40)
        head.addWidget(self.end_turn_button)
        outer.addWidget(self.header)
        self.aftermath_bar = AftermathBar(self)
        outer.addWidget(self.aftermath_bar)

        self.start_bar = QFrame(self)
        self.start_bar.setObjectName("startBar")
        bar = QHBoxLayout(self.start_bar)
        bar.setContentsMargins(10, 6, 10, 6)
        self.start_text = QLabel("This battle has not started yet.", self.start_bar)
        bar.addWidget(self.start_text, 1)
        self.start_button = QPushButton("Set turn order and &start…", self.start_bar)
        self.start_button.setObjectName("startButton")
        self.start_button.clicked.connect(self.start_battle)
        bar.addWidget(self.start_button)
        outer.addWidget(self.start_bar)

        filters = QHBoxLayout()
        filters.setSpacing(6)
        self.filter_respond = self._filter_button("Can respond now", "filterRespond",
                                                  "Alt+1")
        self.filter_close = self._filter_button("In Close Combat", "filterCloseCombat",
                                                "Alt+2")
        self.filter_not_acted = self._filter_button("Not yet acted", "filterNotActed",
                                                    "Alt+3")
        for b in (self.filter_respond, self.filter_close, self.filter_not_acted):
            filters.addWidget(b)
        self.search = QLineEdit(self)
        self.search.setObjectName("unitSearch")
        self.search.setPlaceholderText("Find a unit…")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._filters_changed)
        filters.addWidget(self.search, 1)
        outer.addLayout(filters)

        self.message = QLabel(self)
        self.message.setObjectName("battleMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Always there with room for two lines, so a message never moves the table.
        self.message_kind = ""
        self._message = ""
        self._message_style = ""
        outer.addWidget(self.message)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("battleSplitter")
        left = QWidget(self.splitter)
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        self.table = QTableView(left)
        self.table.setObjectName("unitTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(False)
        self.table.setShowGrid(True)
        self.table.setWordWrap(False)
        self.table.setCornerButtonEnabled(False)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setSectionResizeMode(STATUS, QHeaderView.ResizeMode.Stretch)
        hh.setHighlightSections(False)
        self.chips = StatusChipDelegate(self.table)
        self.table.setItemDelegateForColumn(STATUS, self.chips)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.doubleClicked.connect(self._double_clicked)
        self.table.viewport().installEventFilter(self)  # its size is final when it resizes
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        lv.addWidget(self.table, 1)

        actions = QHBoxLayout()
        actions.setSpacing(6)
        self.act_button = self._menu_button("Act", "actButton")
        self.counter_button = self._menu_button("Counter", "counterButton")
        self.status_button = self._menu_button("Status", "statusButton")
        self.wizard_button = QPushButton("Combat wizard…", left)
        self.wizard_button.setObjectName("wizardButton")
        self.wizard_button.clicked.connect(self.open_wizard)
        for b in (self.act_button, self.counter_button, self.status_button,
                  self.wizard_button):
            actions.addWidget(b)
        actions.addStretch(1)
        lv.addLayout(actions)

        right = QWidget(self.splitter)
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        title = QHBoxLayout()
        self.log_title = QLabel("<b>Battle log</b> (newest first)", right)
        self.log_title.setObjectName("logTitle")
        self.log_title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.log_title.setMinimumWidth(40)
        title.addWidget(self.log_title, 1)
        self.undo_button = QPushButton("Undo", right)
        self.undo_button.setObjectName("logUndo")
        self.undo_button.clicked.connect(self.undo)
        self.redo_button = QPushButton("Redo", right)
        self.redo_button.setObjectName("logRedo")
        self.redo_button.clicked.connect(self.redo)
        title.addWidget(self.undo_button)
        title.addWidget(self.redo_button)
        rv.addLayout(title)
        # A one-column table, one line per event: unlike a list view it never lays out
        # every row again when an event is added at the top. The event picked, or the
        # newest, is shown in full below.
        self.log_view = QTableView(right)
        self.log_view.setObjectName("battleLog")
        self.log_view.setModel(self.log_model)
        self.log_view.horizontalHeader().hide()
        self.log_view.verticalHeader().hide()
        self.log_view.horizontalHeader().setStretchLastSection(True)
        self.log_view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.log_view.setShowGrid(False)
        self.log_view.setWordWrap(False)
        self.log_view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.log_view.setAlternatingRowColors(True)
        self.log_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.log_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.log_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.log_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.log_view.selectionModel().currentChanged.connect(self._log_current_changed)
        rv.addWidget(self.log_view, 1)
        self.log_detail = QLabel(right)
        self.log_detail.setObjectName("logDetail")
        self.log_detail.setWordWrap(True)
        self.log_detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.log_detail.setMinimumHeight(self.fontMetrics().height() * 3)
        self.log_detail.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        rv.addWidget(self.log_detail)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([780, 420])
        self.splitter.splitterMoved.connect(self._save_splitter)
        outer.addWidget(self.splitter, 1)

    def _filter_button(self, text: str, name: str, key: str) -> QToolButton:
        b = QToolButton(self)
        b.setObjectName(name)
        b.setText(text)
        b.setCheckable(True)
        b.setToolTip(f"Show only units that are: {text.lower()} ({key})")
        b.setShortcut(QKeySequence(key))
        b.toggled.connect(self._filters_changed)
        return b

    def _menu_button(self, text: str, name: str) -> QToolButton:
        b = QToolButton(self)
        b.setObjectName(name)
        b.setText(text)
        b.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        menu = QMenu(b)
        b.setMenu(menu)
        return b

    def _build_actions(self) -> None:
        def action(text: str, name: str, slot: Callable[[], Any],
                   keys: Sequence[str] = (), *, table_only: bool = True,
                   tip: str = "") -> QAction:
            a = QAction(text, self)
            a.setObjectName(name)
            if keys:
                a.setShortcuts([QKeySequence(k) for k in keys])
            a.setShortcutContext(Qt.ShortcutContext.WidgetShortcut if table_only
                                 else Qt.ShortcutContext.WindowShortcut)
            if tip:
                a.setToolTip(tip)
                a.setStatusTip(tip)
            a.triggered.connect(slot)
            (self.table if table_only else self).addAction(a)
            return a

        self.end_turn_action = action(
            "&End Turn", "endTurnAction", self.end_turn, ("Ctrl+E", "F12"), table_only=False,
            tip="End the active player's turn: their units keep unspent Actions to respond; "
                "the next player's Actions recharge; Counters reset (4.2, 5.2)")
        self.end_turn_button.clicked.connect(self.end_turn_action.trigger)
        self.table_mode_action = action(
            "&Table mode", "tableModeAction", self._toggle_table_mode, ("Ctrl+T",),
            table_only=False, tip="Large type and high contrast, for a screen turned towards "
                                  "the players")
        self.table_mode_action.setCheckable(True)
        self.table_mode_button.setDefaultAction(self.table_mode_action)
        self.undo_battle_action = action("&Undo last battle action", "undoBattleAction",
                                         self.undo, table_only=False)
        self.redo_battle_action = action("&Redo battle action", "redoBattleAction",
                                         self.redo, table_only=False)
        self.start_action = action("&Start battle…", "startBattleAction", self.start_battle,
                                   table_only=False)
        self.attack_action = action("Attack", "attackAction",
                                    lambda: self._spend_current(ActionUse.ATTACK), ("A",))
        self.sprint_action = action("Sprint", "sprintAction",
                                    lambda: self._spend_current(ActionUse.SPRINT), ("S",))
        self.bail_action = action("Bail (ends Disrupted)", "bailAction",
                                  lambda: self._spend_current(ActionUse.BAIL), ("B",))
        self.bail_ott_action = action(
            "Bail, Over the Top (lands on its feet)", "bailOverTheTopAction",
            lambda: self._spend_current(ActionUse.BAIL, over_the_top=True), ("Shift+B",))
        self.parry_action = action("Parry", "parryAction",
                                   lambda: self._spend_current(ActionUse.PARRY), ("P",))
        self.other_action = action("Other…", "otherAction", self._other_current, ("O",))
        self.fight_action = action("Close Combat attack…", "fightAction", self._fight_current,
                                   ("F",))
        self.counter_action = action("Use a Counter…", "counterAction",
                                     lambda: self._popup(self.counter_button), ("C",))
        self.respond_action = action("Respond…", "respondAction",
                                     lambda: self._popup(self.act_button), ("R",))
        self.status_action = action("Status…", "statusAction",
                                    lambda: self._popup(self.status_button), ("T",))
        self.wizard_action = action("Combat &wizard…", "wizardAction", self.open_wizard,
                                    ("W",))
        self.filter_actions = []
        for button in (self.filter_respond, self.filter_close, self.filter_not_acted):
            a = QAction(button.text(), self)
            a.setCheckable(True)
            a.setShortcut(button.shortcut())
            a.toggled.connect(button.setChecked)
            button.toggled.connect(a.setChecked)
            self.filter_actions.append(a)
            button.setShortcut(QKeySequence())
        for a in self.filter_actions:
            self.addAction(a)
        self.act_button.menu().aboutToShow.connect(self._fill_act_menu)
        self.counter_button.menu().aboutToShow.connect(self._fill_counter_menu)
        self.status_button.menu().aboutToShow.connect(self._fill_status_menu)

    def menu_actions(self) -> list[QAction | None]:
        """For a Battle menu: End Turn, undo/redo, filters, table mode (``None``: a separator)."""
        return [self.end_turn_action, None, self.undo_battle_action, self.redo_battle_action,
                None, *self.filter_actions, None, self.table_mode_action, None,
                self.start_action]

    # -- refreshing -------------------------------------------------------------------------

    def _on_changed(self, changes: object) -> None:
        if isinstance(changes, Changes) and changes & _REFRESH_ON:
            self.refresh()

    def _history_moved(self, _index: int = 0) -> None:
        # A stack being destroyed empties itself first: nothing to show then.
        if self.view is not None and shiboken6.isValid(self.undo_stack):
            self._update_enabled()

    def refresh(self) -> None:
        """Read the battle from the tracker and update everything in place."""
        if self._refreshing:
            return
        self._refreshing = True
        try:
            try:
                view = self.services.tracker.view(self.battle_id)
            except UserError:
                self._battle_deleted()
                return
            except StorageError as exc:
                self.show_error(f"The battle could not be read: {exc}")
                return
            self._gone = False
            resize = self.view is None or self.view.id != view.id or len(
                self.view.units) != len(view.units)
            self.view = view
            if resize:  # the names to fit change only with the units mustered
                self._size_columns()
            self.model.set_view(view)
            self.log_model.set_events(view.id, view.events)
            self._show_log_detail()
            self._update_header(view)
            self.aftermath_bar.show_view(view)
            self._update_enabled()
        finally:
            self._refreshing = False

    def _battle_deleted(self) -> None:
        self._gone = True
        self.view = None
        self.show_error("This battle no longer exists (it was deleted).")
        self._update_enabled()
        self.battle_gone.emit(self.battle_id)

    def _update_header(self, view: BattleView) -> None:
        state = view.state
        player = view.active_player
        self.round_label.setText(f"Round {state.round}")
        if view.status == "planned":
            self.turn_label.setText(f"{player.name} will start")
        elif view.status == "finished" or state.finished:
            self.turn_label.setText("Battle over")
        else:
            self.turn_label.setText(f"{player.name}'s turn")
        band = player.colour
        style = (f"QLabel#turnLabel {{ background: {band}; color: {readable_on(band)};"
                 " border-radius: 6px; padding: 2px 14px; }")
        if style != self.turn_label.styleSheet():
            self.turn_label.setStyleSheet(style)
        status = "" if view.in_progress else f" — {view.status_text}"
        self.name_label.setText(f"{view.name}{status}")
        self.name_label.setToolTip(view.notes or view.name)
        self.end_turn_button.setText(f"End {player.name}'s turn")
        self.end_turn_button.setToolTip(self.end_turn_action.toolTip() + "  (Ctrl+E or F12)")
        self.start_bar.setVisible(view.status == "planned")

    def _update_enabled(self) -> None:
        view = self.view
        live = view is not None and view.in_progress and not view.state.finished
        self.end_turn_action.setEnabled(live and not self._hidden)
        self.end_turn_button.setEnabled(live)
        # This battle's history first; with none, the log's own last action (after a restart).
        stack = self.undo_stack
        can_undo = (stack.undoText() if stack.canUndo()
                    else view.can_undo if view is not None else None)
        can_redo = (stack.redoText() if stack.canRedo()
                    else view.can_redo if view is not None else None)
        for a, b, text, what in ((self.undo_battle_action, self.undo_button, can_undo, "Undo"),
                                 (self.redo_battle_action, self.redo_button, can_redo, "Redo")):
            a.setEnabled(bool(text))
            b.setEnabled(bool(text))
            b.setToolTip(f"{what}: {text}" if text else f"Nothing to {what.lower()}")
            a.setText(f"{what} battle: {_short(text)}" if text else f"{what} battle action")
        self.start_action.setEnabled(view is not None and view.status == "planned")
        unit = self.current_unit()
        for a in (self.attack_action, self.sprint_action, self.bail_action,
                  self.bail_ott_action, self.parry_action, self.other_action,
                  self.fight_action, self.counter_action, self.respond_action,
                  self.status_action):
            a.setEnabled(live and unit is not None)
        for b in (self.act_button, self.counter_button, self.status_button):
            b.setEnabled(live and unit is not None)
        self._update_act_label()
        opener_ok = self.open_wizard_fn is not None
        self.wizard_action.setEnabled(live and unit is not None and opener_ok)
        self.wizard_button.setEnabled(live and unit is not None and opener_ok)
        tip = ("Open the combat wizard for this unit (W)" if opener_ok else
               "The combat wizard is not available in this version of BrikDesk")
        self.wizard_button.setToolTip(tip)
        self.wizard_action.setToolTip(tip)

    def _update_act_label(self) -> None:
        view, unit = self.view, self.current_unit()
        if view is not None and unit is not None and \
                view.state.unit(unit).player_id != view.state.active:
            self.act_button.setText("Respond")
            self.act_button.setToolTip("Spend the held Action in response (4.3): R")
        else:
            self.act_button.setText("Act")
            self.act_button.setToolTip("Spend the Action: A attack, S Sprint, B Bail, P Parry, "
                                       "O other; F Close Combat")

    def showEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt name)
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            self._restore_splitter()
        self._hidden = False
        self._update_enabled()

    def hideEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt name)
        """Hidden (another page of the window shows): End Turn's window-wide keys rest."""
        super().hideEvent(event)
        self._hidden = True
        self.end_turn_action.setEnabled(False)

    # -- messages ---------------------------------------------------------------------------

    def show_info(self, text: str) -> None:
        self._show_message(text, "info")

    def show_error(self, error: BaseException | str) -> None:
        if isinstance(error, RuleViolation):
            text = f"⛔ {error.reason}" + (f"  ({error.rule})" if error.rule else "")
        else:
            text = f"⛔ {error}"
        self._show_message(text, "error")

    def _show_message(self, text: str, kind: str) -> None:
        self.message_kind = kind
        self._message = text
        self._style_message()
        self.message.setText(text)
        self.bus.say(text.lstrip("⛔ "))

    def _style_message(self) -> None:
        """Messages in their colours; when there is none, the keys in muted type (not in
        table mode: the players do not need them)."""
        kind = self.message_kind
        if kind:
            bg, fg = self.theme.banner_error if kind == "error" else self.theme.banner_info
        else:
            bg, fg = "transparent", self.theme.muted
        style = (f"QLabel#battleMessage {{ background: {bg}; color: {fg}; border-radius: 6px;"
                 " padding: 4px 10px; }")
        if style != self._message_style:  # setting a style sheet costs a re-polish
            self._message_style = style
            self.message.setStyleSheet(style)
        if not kind:
            self.message.setText("" if self.theme is TABLE else "Keys: " + KEYS_HELP)

    def clear_message(self) -> None:
        if self.message_kind or self._message:
            self.message_kind = ""
            self._message = ""
            self._style_message()

    @property
    def message_text(self) -> str:
        """The message shown (empty when the strip only shows the keys)."""
        return self._message

    # -- selection --------------------------------------------------------------------------

    def current_unit(self) -> int | None:
        index = self.table.currentIndex()
        if not index.isValid():
            return None
        uid = index.data(IdRole)
        return uid if isinstance(uid, int) else None

    def select_unit(self, unit_id: int) -> bool:
        index = self.model.index_of_unit(unit_id)
        if not index.isValid():
            return False
        self.table.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(index)
        return True

    def _current_changed(self, *_args: object) -> None:
        self._update_enabled()

    def _double_clicked(self, index: QModelIndex) -> None:
        if isinstance(index.data(IdRole), int) and self.open_wizard_fn is not None:
            self.open_wizard()

    # -- filters ----------------------------------------------------------------------------

    def _filters_changed(self, *_args: object) -> None:
        self.model.set_filters(Filters(
            can_respond=self.filter_respond.isChecked(),
            in_close_combat=self.filter_close.isChecked(),
            not_acted=self.filter_not_acted.isChecked(),
            text=self.search.text().strip()))
        self._span_groups()
        self._update_enabled()

    def set_filters(self, *, can_respond: bool | None = None,
                    in_close_combat: bool | None = None, not_acted: bool | None = None,
                    text: str | None = None) -> None:
        for button, on in ((self.filter_respond, can_respond),
                           (self.filter_close, in_close_combat),
                           (self.filter_not_acted, not_acted)):
            if on is not None:
                button.setChecked(on)
        if text is not None:
            self.search.setText(text)

    def _span_groups(self) -> None:
        self.table.clearSpans()
        columns = self.model.columnCount()
        for row in self.model.group_rows():
            self.table.setSpan(row, 0, 1, columns)

    # -- table mode -------------------------------------------------------------------------

    def _toggle_table_mode(self) -> None:
        self.set_table_mode(self.table_mode_action.isChecked())

    @property
    def table_mode(self) -> bool:
        return self.theme is TABLE

    def set_table_mode(self, on: bool, *, remember: bool = True) -> None:
        theme = TABLE if on else NORMAL
        keep = self.current_unit()
        self.theme = theme
        self._restore_splitter()
        self.table_mode_action.setChecked(on)
        font = QFont(self._app_font)
        size = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
        # Table mode's text size is the organizer's (Edit > Settings).
        scale = AppSettings(self.settings).table_font_percent / 100 if on else theme.font_scale
        font.setPointSizeF(size * scale)
        self._apply_colours(theme)
        self.setFont(font)
        for child in self.findChildren(QWidget):  # a child with a style sheet keeps its font
            child.setFont(font)
        big = QFont(font)
        big.setBold(True)
        big.setPointSizeF(font.pointSizeF() * theme.header_pt_scale)
        self.round_label.setFont(big)
        self.turn_label.setFont(big)
        button_font = QFont(font)
        button_font.setBold(True)
        button_font.setPointSizeF(font.pointSizeF() * 1.2)
        self.end_turn_button.setFont(button_font)
        small = QFont(font)
        small.setPointSizeF(font.pointSizeF() * 0.9)
        self.name_label.setFont(small)
        self.chips.set_theme(theme)
        self.model.set_theme(theme, font)
        header_font = QFont(font)
        header_font.setBold(True)
        self.table.horizontalHeader().setFont(header_font)
        # Across the table the players need names, Actions and statuses: the unit type (in
        # the tooltip) and the battle's name (in the window title) make room for them.
        self.table.setColumnHidden(TYPE, on)
        self.name_label.setVisible(not on)
        self.log_title.setText("<b>Log</b>" if on else "<b>Battle log</b> (newest first)")
        self.log_title.setToolTip("The battle log, newest first")
        rows = self.table.fontMetrics().height() + theme.row_padding
        self.table.verticalHeader().setDefaultSectionSize(rows)
        self.table.verticalHeader().setMinimumSectionSize(rows)
        log_rows = self.log_view.fontMetrics().height() + 6
        self.log_view.verticalHeader().setMinimumSectionSize(log_rows)
        self.log_view.verticalHeader().setDefaultSectionSize(log_rows)
        self._size_columns()
        if self.view is not None:
            self._update_header(self.view)
        self._style_message()
        self.message.setFixedHeight(self.message.fontMetrics().lineSpacing() * 2 + 12)
        if keep is not None:
            self.select_unit(keep)
        if remember:
            self.settings.setValue(TABLE_MODE_KEY, on)
        self.table_mode_changed.emit(on)

    def _size_columns(self) -> None:
        """Columns share the table's width (the Status column takes what is left).

        The Unit and Type columns are as wide as the longest name and type in this battle
        (names of the active player are bold), so that names read in full whenever the
        window has the room.
        """
        fm = self.table.fontMetrics()
        bold = QFont(self.table.font())
        bold.setBold(True)
        bfm = QFontMetrics(bold)
        width = max(self.table.viewport().width(), 600)
        units = self.view.units if self.view is not None else ()
        name_w = max((bfm.horizontalAdvance(t.name) for t in units),
                     default=bfm.horizontalAdvance("First Mate Barnacle"))
        type_w = max((fm.horizontalAdvance(f"{t.type_name} d{t.stats.action_die}")
                      for t in units), default=fm.horizontalAdvance("Skirmisher d6"))
        shares = {UNIT: (0.26, name_w), TYPE: (0.13, type_w),
                  ACTION: (0.1, fm.horizontalAdvance("Responded")),
                  COUNTERS: (0.08, fm.horizontalAdvance("Counters")),
                  RESPOND: (0.11, fm.horizontalAdvance("↺ can respond"))}
        if self.table.isColumnHidden(TYPE):
            del shares[TYPE]
            shares[UNIT] = (0.28, name_w)
            shares[RESPOND] = (0.15, fm.horizontalAdvance("↺ can respond"))
        wanted = {c: max(int(width * share), text_w + 20)
                  for c, (share, text_w) in shares.items()}
        # The Status column (it stretches) keeps at least 22 %: the others give way.
        room = int(width * 0.78)
        total = sum(wanted.values())
        scale = min(1.0, room / total) if total else 1.0
        for column, w in wanted.items():
            self.table.setColumnWidth(column, max(24, int(w * scale)))

    def eventFilter(self, watched: Any, event: QEvent) -> bool:  # noqa: N802 (Qt name)
        if watched is self.table.viewport() and event.type() == QEvent.Type.Resize:
            self._size_columns()
        return False

    def _apply_colours(self, theme: Theme) -> None:
        """Palettes for the panel (fast item views), small style sheets for a few widgets."""
        self.setAutoFillBackground(True)
        self.setPalette(_palette(theme, self._app_palette))
        table = theme is TABLE
        self.end_turn_button.setStyleSheet(
            "QPushButton#endTurnButton { background: #ffd400; color: #000000; "
            "border: 2px solid #ffd400; border-radius: 6px; padding: 6px 18px; }"
            "QPushButton#endTurnButton:disabled { background: #5f5a3a; color: #c3ccd5; }"
            if table else "QPushButton#endTurnButton { padding: 6px 18px; }")
        self.start_bar.setStyleSheet(
            f"QFrame#startBar {{ background: {theme.banner_info[0]}; border-radius: 6px; }}"
            f"QFrame#startBar QLabel {{ color: {theme.banner_info[1]}; }}")
        muted = QPalette(self.palette())
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
            muted.setColor(group, QPalette.ColorRole.WindowText, QColor(theme.muted))
        self.name_label.setPalette(muted)
        self.log_detail.setPalette(muted)

    def _log_current_changed(self, *_args: object) -> None:
        self._show_log_detail()

    def _show_log_detail(self) -> None:
        index = self.log_view.currentIndex()
        events = self.log_model.events()
        if not events:
            self.log_detail.clear()
            return
        row = index.row() if index.isValid() else 0
        self.log_detail.setText(log_tooltip(events[min(row, len(events) - 1)]))

    def _save_splitter(self, *_args: object) -> None:
        """Each look keeps its own split between the table and the log."""
        self.settings.setValue(f"{SPLITTER_KEY}/{self.theme.name}", self.splitter.saveState())

    def _restore_splitter(self) -> None:
        state = self.settings.value(f"{SPLITTER_KEY}/{self.theme.name}")
        if state is not None:
            try:
                if self.splitter.restoreState(state):
                    return
            except TypeError:
                pass
        log_share = 0.22 if self.theme is TABLE else 0.3
        # Growing or shrinking keeps the proportion: stretch factors in the same ratio.
        self.splitter.setStretchFactor(0, int(100 * (1 - log_share)))
        self.splitter.setStretchFactor(1, int(100 * log_share))
        total = max(self.splitter.width(), 1000)
        self.splitter.setSizes([int(total * (1 - log_share)), int(total * log_share)])

    # -- performing -------------------------------------------------------------------------

    def _push(self, text: str, call: Callable[[], Done[Any]]) -> Done[Any] | None:
        """Perform ``call`` as one step of this battle's undo history; a refusal is shown and
        nothing is recorded (``None``)."""
        try:
            return perform(self.undo_stack, self.bus, call, text=text, report=self.show_error)
        except ConflictError as exc:
            self.show_error(exc)
            self.refresh()
        except UserError as exc:
            self.show_error(exc)
        except StorageError as exc:
            self.show_error(f"The battle could not be saved: {exc}")
            log.warning("storage error in the battle panel: %s", exc)
        return None

    def record(self, events: Sequence[Event], text: str | None = None) -> bool:
        """Record ``events`` as one action (validated by the rules, one undo step)."""
        view = self.view
        if view is None or not events:
            return False
        if text is None:
            text = describe(view.setup, events[0])
            if len(events) > 1:
                text += f" (+{len(events) - 1} more)"

        if self._push(text, lambda: self.services.tracker.record(self.battle_id, events,
                                                                  text=text)):
            self.clear_message()
            return True
        return False

    def end_turn(self) -> bool:
        """End the active player's turn; the banner says what changed."""
        view = self.view
        if view is None or not view.in_progress:
            if view is not None and view.status == "planned":
                self.show_error("Start the battle first: set the turn order.")
            return False
        done = self._push(f"End {view.active_player.name}'s turn",
                          lambda: self.services.tracker.end_turn(self.battle_id))
        if done is None:
            return False
        self.show_info(" · ".join(done.value.lines))
        return True

    def undo(self) -> bool:
        """Take back this battle's last step (its undo history); when the history is empty
        (the app was restarted), the last action of the log, as a new step of the history."""
        stack = self.undo_stack
        if stack.canUndo():
            stack.undo()  # a refusal is reported by the command itself
            self.refresh()
            return True
        if self.view is None or not self.view.can_undo:
            return False
        seen_undo = self.view.undo_seen  # refused if another table's log moved on since
        if self._push(f"Undo: {_short(self.view.can_undo)}",
                      lambda: self.services.tracker.undo(self.battle_id, seen=seen_undo)
                      ) is None:
            return False
        self.clear_message()
        return True

    def redo(self) -> bool:
        """Redo this battle's last undone step; with none, the log's first undone action."""
        stack = self.undo_stack
        if stack.canRedo():
            stack.redo()
            self.refresh()
            return True
        if self.view is None or not self.view.can_redo:
            return False
        seen_redo = self.view.redo_seen
        if self._push(f"Redo: {_short(self.view.can_redo)}",
                      lambda: self.services.tracker.redo(self.battle_id, seen=seen_redo)
                      ) is None:
            return False
        self.clear_message()
        return True

    def start_battle(self) -> bool:
        view = self.view
        if view is None or view.status != "planned":
            return False
        order = OrderDialog.ask(self, view.name, [PlayerChoice(p.id, p.name, p.colour)
                                                  for p in view.players])
        if order is None:
            return False

        if self._push(f"Start battle {view.name}",
                      lambda: self.services.tracker.start(self.battle_id, order)):
            self.show_info(f"{self.view.active_player.name if self.view else ''} starts. "
                           "Round 1.")
            return True
        return False

    # -- unit actions (used by the menus, the keys and tests) -------------------------------

    def _name(self, unit_id: int) -> str:
        assert self.view is not None
        return self.view.setup.unit(unit_id).name

    def spend(self, unit_id: int, how: ActionUse, *, target: int | None = None,
              over_the_top: bool = False, note: str = "") -> bool:
        """Spend the unit's Action (on its own turn) or its held Action (in response)."""
        if self.view is None:
            return False
        self.select_unit(unit_id)
        event = spend_action(self.view.state, unit_id, how, target=target,
                             over_the_top=over_the_top, note=note)
        return self.record([event])

    def close_combat_attack(self, unit_id: int, target: int,
                            maneuver: Maneuver = Maneuver.STRIKE, hands: int = 1) -> bool:
        if self.view is None:
            return False
        self.select_unit(unit_id)
        own = self.view.state.unit(unit_id).player_id == self.view.state.active
        return self.record([CloseCombatAttack(unit_id, target, maneuver, hands,
                                              as_response=not own)])

    def use_counter(self, unit_id: int, target: int,
                    how: CounterUse = CounterUse.COUNTERSTRIKE) -> bool:
        self.select_unit(unit_id)
        return self.record([CounterUsed(unit_id, target, how)])

    def set_status(self, unit_id: int, status: Status, with_ids: Sequence[int] = ()) -> bool:
        self.select_unit(unit_id)
        if status is Status.DEAD:
            return self.record([UnitKilled(unit_id)])
        return self.record([StatusSet(unit_id, status, tuple(with_ids))])

    def clear_status(self, unit_id: int, status: Status, with_ids: Sequence[int] = ()) -> bool:
        self.select_unit(unit_id)
        return self.record([StatusCleared(unit_id, status, tuple(with_ids))])

    def open_wizard(self) -> bool:
        unit = self.current_unit()
        opener = self.open_wizard_fn or wizard_opener()
        if unit is None or opener is None or self.view is None:
            return False
        self.open_wizard_fn = opener
        try:
            wizard = opener(self, self.services, self.bus, self.undo_stack, self.battle_id, unit)
        except UserError as exc:
            self.show_error(exc)
            return False
        if hasattr(wizard, "set_dice_mode"):  # Edit > Settings: virtual or typed dice first
            wizard.set_dice_mode(AppSettings(self.settings).dice_mode)
        return True

    def _spend_current(self, how: ActionUse, *, over_the_top: bool = False) -> None:
        unit = self.current_unit()
        if unit is None or self.view is None:
            return
        target = None
        u = self.view.state.unit(unit)
        if u.close_combat and u.player_id != self.view.state.active:
            target = self._ask_opponent(unit, "Respond to whom?")
            if target is None:
                return
        self.spend(unit, how, target=target, over_the_top=over_the_top)

    def _other_current(self) -> None:
        unit = self.current_unit()
        if unit is None:
            return
        note = NoteAsker.ask(self, self._name(unit))
        if note is None:
            return
        self.spend(unit, ActionUse.OTHER, note=note)

    def _fight_current(self) -> None:
        unit = self.current_unit()
        if unit is None or self.view is None:
            return
        target = self._ask_enemy(unit, "Close Combat attack on whom?")
        if target is not None:
            self.close_combat_attack(unit, target)

    def _ask_opponent(self, unit_id: int, prompt: str) -> int | None:
        assert self.view is not None
        state = self.view.state
        others = sorted(engagement(state, unit_id) - {unit_id})
        if len(others) == 1:
            return others[0]
        return UnitPicker.ask(self, "Pick a unit", prompt,
                              [(i, self.view.setup.label(i)) for i in others])

    def _enemy_candidates(self, unit_id: int) -> list[tuple[int, str]]:
        assert self.view is not None
        state = self.view.state
        me = state.unit(unit_id)
        near = sorted(engagement(state, unit_id) - {unit_id})
        rest = [u.unit_id for u in state.units
                if u.player_id != me.player_id and u.in_battle and u.unit_id not in near]
        return [(i, self.view.setup.label(i)) for i in near + rest]

    def _ask_enemy(self, unit_id: int, prompt: str) -> int | None:
        candidates = self._enemy_candidates(unit_id)
        if not candidates:
            self.show_error("There is nobody to fight.")
            return None
        return UnitPicker.ask(self, "Pick a target", prompt, candidates)

    # -- menus ------------------------------------------------------------------------------

    def _popup(self, button: QToolButton) -> None:
        if button.isEnabled():
            index = self.table.currentIndex()
            rect = self.table.visualRect(index)
            menu = button.menu()
            menu.aboutToShow.emit()
            menu.popup(self.table.viewport().mapToGlobal(rect.bottomLeft()))

    def _context_menu(self, pos: Any) -> None:
        index = self.table.indexAt(pos)
        uid = index.data(IdRole) if index.isValid() else None
        if not isinstance(uid, int):
            return
        self.select_unit(uid)
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.fill_unit_menu(menu, uid)
        menu.popup(self.table.viewport().mapToGlobal(pos))

    def fill_unit_menu(self, menu: QMenu, unit_id: int) -> None:
        """The row's context menu: act or respond, Counters, statuses, the wizard."""
        self._fill_act(menu, unit_id)
        menu.addSeparator()
        counters = menu.addMenu("Use a &Counter")
        self._fill_counter(counters, unit_id)
        status = menu.addMenu("S&tatus")
        self._fill_status(status, unit_id)
        menu.addSeparator()
        menu.addAction(self.wizard_action)

    def _fill_act_menu(self) -> None:
        menu = self.act_button.menu()
        menu.clear()
        unit = self.current_unit()
        if unit is not None:
            self._fill_act(menu, unit)

    def _fill_counter_menu(self) -> None:
        menu = self.counter_button.menu()
        menu.clear()
        unit = self.current_unit()
        if unit is not None:
            self._fill_counter(menu, unit)

    def _fill_status_menu(self) -> None:
        menu = self.status_button.menu()
        menu.clear()
        unit = self.current_unit()
        if unit is not None:
            self._fill_status(menu, unit)

    def _fill_act(self, menu: QMenu, unit_id: int) -> None:
        view = self.view
        if view is None:
            return
        state = view.state
        u = state.unit(unit_id)
        own = u.player_id == state.active
        name = self._name(unit_id)
        if own:
            menu.addSection(f"{name}: spend the Action")
        else:
            why = why_not_respond(state, unit_id)
            menu.addSection(f"{name}: respond" + (" (cannot now)" if why else ""))
            if why:
                note = menu.addAction(why)
                note.setEnabled(False)
        uses = [(ActionUse.ATTACK, "&Attack", "A", False),
                (ActionUse.SPRINT, "&Sprint", "S", False),
                (ActionUse.BAIL, "&Bail (ends Disrupted)", "B", False),
                (ActionUse.BAIL, "Bail, &Over the Top (lands on its feet)", "Shift+B", True),
                (ActionUse.PARRY, "&Parry", "P", False),
                (ActionUse.OTHER, "O&ther…", "O", False)]
        opponents = sorted(engagement(state, unit_id) - {unit_id})
        for how, label, key, ott in uses:
            if how is ActionUse.SPRINT and not own:
                continue
            if not own and u.close_combat and opponents:
                sub = menu.addMenu(label.replace("…", "") + " in response to")
                for other in opponents:
                    a = sub.addAction(view.setup.label(other))
                    a.triggered.connect(_bind(self.spend, unit_id, how, target=other,
                                              over_the_top=ott))
                continue
            a = menu.addAction(f"{label}\t{key}")
            if how is ActionUse.OTHER:
                a.triggered.connect(self._other_current)
            else:
                a.triggered.connect(_bind(self.spend, unit_id, how, over_the_top=ott))
        fight = menu.addMenu("&Close Combat attack" + ("" if own else " in response"))
        for maneuver in Maneuver:
            sub = fight.addMenu(maneuver.label)
            for other in opponents:
                a = sub.addAction(view.setup.label(other))
                a.triggered.connect(_bind(self.close_combat_attack, unit_id, other, maneuver))
            if opponents:
                sub.addSeparator()
            pick = sub.addAction("Someone else…" if opponents else "Pick the target…")
            pick.triggered.connect(_bind(self._fight_pick, unit_id, maneuver))
        left = view.state.unit(unit_id)
        fight.setToolTipsVisible(True)
        fight.setToolTip(f"At most {MAX_CLOSE_COMBAT_ATTACKERS} Close Combat attackers on one "
                         f"minifig per player turn (5.1); {left.counters_left} hands left")

    def _fight_pick(self, unit_id: int, maneuver: Maneuver) -> None:
        target = self._ask_enemy(unit_id, f"{maneuver.label}: on whom?")
        if target is not None:
            self.close_combat_attack(unit_id, target, maneuver)

    def _fill_counter(self, menu: QMenu, unit_id: int) -> None:
        view = self.view
        if view is None:
            return
        state = view.state
        u = state.unit(unit_id)
        opponents = sorted(engagement(state, unit_id) - {unit_id})
        menu.setToolTipsVisible(True)
        if not opponents:
            a = menu.addAction("Not in Close Combat: no Counters (5.2)")
            a.setEnabled(False)
            return
        head = menu.addAction(f"{u.counters_left} of {u.counters} Counters left this turn")
        head.setEnabled(False)
        for other in opponents:
            label = view.setup.label(other)
            a = menu.addAction(f"Counterstrike {label}")
            a.triggered.connect(_bind(self.use_counter, unit_id, other,
                                      CounterUse.COUNTERSTRIKE))
            b = menu.addAction(f"Parry {label}")
            b.triggered.connect(_bind(self.use_counter, unit_id, other, CounterUse.PARRY))
        menu.addSeparator()
        note = menu.addAction(READINGS["hands"][:90] + "…")
        note.setEnabled(False)
        note.setToolTip(READINGS["hands"])

    def _fill_status(self, menu: QMenu, unit_id: int) -> None:
        view = self.view
        if view is None:
            return
        state = view.state
        u = state.unit(unit_id)
        setup = view.setup
        for status in _TOGGLES:
            on = status in u.statuses
            a = menu.addAction(status.label)
            a.setCheckable(True)
            a.setChecked(on)
            a.triggered.connect(_bind(self.clear_status if on else self.set_status,
                                      unit_id, status))
        if u.recovering:
            a = menu.addAction("Recovering (Half Speed this turn)")
            a.setCheckable(True)
            a.setChecked(True)
            a.triggered.connect(_bind(self.clear_status, unit_id, Status.RECOVERING))
        menu.addSeparator()
        if u.dead:
            a = menu.addAction("Dead: bring back to life")
            a.triggered.connect(_bind(self.clear_status, unit_id, Status.DEAD))
        else:
            a = menu.addAction("&Killed")
            a.triggered.connect(_bind(self.set_status, unit_id, Status.DEAD))
        menu.addSeparator()
        join = menu.addAction("Put in Close Combat with…")
        join.triggered.connect(_bind(self._join_close_combat, unit_id))
        for other in sorted(u.close_combat):
            a = menu.addAction(f"Disengage from {setup.label(other)}")
            a.triggered.connect(_bind(self.clear_status, unit_id, Status.IN_CLOSE_COMBAT,
                                      (other,)))
        for other in sorted(engagement(state, unit_id) - {unit_id} - u.grabbing):
            a = menu.addAction(f"Grabs {setup.label(other)}")
            a.triggered.connect(_bind(self.set_status, unit_id, Status.GRABBING, (other,)))
        for other in sorted(u.grabbing):
            a = menu.addAction(f"Releases {setup.label(other)}")
            a.triggered.connect(_bind(self.clear_status, unit_id, Status.GRABBING, (other,)))
        for other in sorted(u.grabbed_by):
            a = menu.addAction(f"Breaks free of {setup.label(other)}")
            a.triggered.connect(_bind(self.clear_status, unit_id, Status.GRABBED, (other,)))

    def _join_close_combat(self, unit_id: int) -> None:
        target = self._ask_enemy(unit_id, "In Close Combat with whom?")
        if target is not None:
            self.set_status(unit_id, Status.IN_CLOSE_COMBAT, (target,))

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt name)
        return QSize(1200, 760)


def _bind(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Callable[..., None]:
    """A slot for ``triggered(bool)`` that calls ``fn(*args, **kwargs)``."""

    def slot(*_ignored: object) -> None:
        fn(*args, **kwargs)

    return slot


def _short(text: str | None, limit: int = 60) -> str:
    if not text:
        return ""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _palette(theme: Theme, base: QPalette) -> QPalette:
    """The panel's colours as a palette: item views paint fastest without style sheets."""
    pal = QPalette(base)
    t = theme
    roles = {
        QPalette.ColorRole.Window: t.window, QPalette.ColorRole.WindowText: t.text,
        QPalette.ColorRole.Base: t.window, QPalette.ColorRole.AlternateBase: t.alt_row,
        QPalette.ColorRole.Text: t.text, QPalette.ColorRole.Highlight: t.selection,
        QPalette.ColorRole.HighlightedText: t.selection_text,
        QPalette.ColorRole.PlaceholderText: t.muted,
    }
    if t is TABLE:
        roles.update({QPalette.ColorRole.Button: "#1f2630",
                      QPalette.ColorRole.ButtonText: t.text,
                      QPalette.ColorRole.Light: "#4a5565", QPalette.ColorRole.Midlight: "#3a4250",
                      QPalette.ColorRole.Mid: t.grid, QPalette.ColorRole.Dark: "#05070a",
                      QPalette.ColorRole.Shadow: "#000000"})
    for role, colour in roles.items():
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
            pal.setColor(group, role, QColor(colour))
    pal.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor(t.muted))
    pal.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText, QColor(t.muted))
    pal.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor(t.muted))
    return pal


def start_new_battle(parent: QWidget, services: Services, bus: Bus, scopes: UndoScopes,
                     campaign_id: int) -> int | None:
    """Ask which units fight and in which order, create and start the battle (the first step of
    the new battle's undo history: undoing it deletes the battle); return its id, or ``None`` if
    cancelled or refused (the reason is shown)."""
    from PySide6.QtWidgets import QMessageBox

    from ui.panels.start_dialog import StartBattleDialog

    request = StartBattleDialog.ask(parent, services, campaign_id)
    if request is None:
        return None
    try:
        done = services.tracker.begin(campaign_id, request.name, request.musters,
                                      notes=request.notes)
    except (UserError, StorageError) as exc:
        box = QMessageBox(QMessageBox.Icon.Warning, "New battle",
                          f"The battle could not be started: {exc}",
                          QMessageBox.StandardButton.Ok, parent)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        return None
    battle_id: int = done.value.id
    perform(scopes.battle(battle_id), bus, lambda: done, text=f"Start battle {request.name}")
    return battle_id
