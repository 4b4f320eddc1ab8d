"""The initiative and response panel: whose turn it is, who has acted, who may still respond.

One row per unit, grouped by player with the active player on top; the round and the active
player in large type; per unit its Action, Counters used of available, status chips and a
marker when it can respond now. Filters: can respond now, in Close Combat, not yet acted.
Actions from the row's menu, the buttons under the table or single keys (the table has focus):

    A attack (the combat wizard) · S Sprint · B Bail · Shift+B Bail, Over the Top · P Parry
    O other · F Close Combat attack · C use a Counter · R respond (menu)
    T status · W combat wizard
    Ctrl+E or F12: End Turn · Ctrl+T: table mode · Alt+1, Alt+2, Alt+3: the filters

Off its owner's turn a unit's Action is a response (4.3): the same keys then respond, and a
unit in Close Combat asks whom it responds to (5.2). Every entry and key asks the rules first
(``unit_moves``, ``legal``): what they refuse opens no dialog, a disabled entry says why in its
tooltip, a key shows why in the strip; the strip's key legend lists what works on the current
unit now. While the pointer is over the table its rows stay still (``still_rows``).

The panel composes widgets with one job each: ``battle_header`` (round, turn, End Turn),
``filter_bar``, ``message_strip``, ``unit_table`` (over ``battle_model``), ``unit_buttons`` and
``unit_menus``, ``battle_log`` (the log with Undo and Redo), ``theme`` (colours and fonts),
``split_memory`` (the split between the table and the log, kept for each style).
The combat wizard, the quick attack form and the Sprint dialog are opened through the
``forms`` the app shell gives the panel (``ui.panels.forms``; ``form_opening`` opens them for
a unit): panels do not import them.
Every action is recorded by ``battle_commands`` through the battle tracker
(``services.tracker``, the only writer of a battle's log) as one step of this battle's undo
history (``ui.undo.perform``; the combat wizard adds to the same history); the rules refuse
what they forbid and the reason appears in the strip above the table. The log's Undo and Redo
take back this battle's last step, or, when its history is empty (after a restart), the log's
last action. A refresh updates what changed in place: the rows of the units the tracker's view
says changed, each cell painted from its row's record (``row_delegate``). Table mode (large
type, high contrast) is remembered in the settings.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence

import shiboken6
from PySide6.QtCore import QModelIndex, QPoint, QSettings, QSize, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QFont,
    QHideEvent,
    QPalette,
    QShowEvent,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QMenu,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from brikdesk.domain.battle import (
    Event,
    Maneuver,
    Use,
)
from brikdesk.domain.ids import BattleId, BattleUnitId
from brikdesk.domain.statuses import BattleStatus
from brikdesk.errors import StorageError, UserError
from brikdesk.services import Changes, Services
from brikdesk.services.tracker import BattleView
from ui.bus import Bus
from ui.colours import follow_theme
from ui.glyphs import refusal_sign
from ui.panels import form_opening
from ui.panels.aftermath_bar import AftermathBar
from ui.panels.battle_commands import BattleCommands, short
from ui.panels.battle_header import BattleHeader, StartBar
from ui.panels.battle_log import BattleLogPane
from ui.panels.battle_model import BattleUnitModel, Filters
from ui.panels.filter_bar import FilterBar
from ui.panels.forms import CombatForms
from ui.panels.keys import first_to_act, keys_legend, make_action, unit_keys
from ui.panels.message_strip import MessageStrip, StillBox, error_text
from ui.panels.split_memory import SplitMemory
from ui.panels.still_rows import StillRows
from ui.panels.theme import TABLE, Theme, normal_theme, palette
from ui.panels.unit_buttons import UnitButtons
from ui.panels.unit_menus import fill_act, fill_counter, fill_status
from ui.panels.unit_moves import UnitMoves
from ui.panels.unit_table import UnitTable
from ui.settings import AppSettings
from ui.tooltips import set_tooltip

log = logging.getLogger(__name__)

TABLE_MODE_KEY = "battle/tableMode"

_REFRESH_ON = Changes.EVENTS | Changes.BATTLES | Changes.PLAYERS | Changes.CATALOG | Changes.UNITS


class BattlePanel(QWidget):
    """The battle tracker for one battle; see the module docstring."""

    #: The battle could not be read (deleted); the panel shows a notice.
    battle_gone = Signal(int)
    table_mode_changed = Signal(bool)

    def __init__(
        self,
        services: Services,
        bus: Bus,
        undo_stack: QUndoStack,
        battle_id: BattleId,
        *,
        forms: CombatForms,
        settings: QSettings | None = None,
        parent: QWidget | None = None,
    ) -> None:
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
        self.theme: Theme = normal_theme()
        self._app_font = QFont(self.font())
        self._app_palette = QPalette(self.palette())
        self._refreshing = False
        #: The battle state, unit and whether it is live the rules were last asked about.
        self._asked: tuple[BattleView | None, BattleUnitId | None, bool] = (None, None, False)
        self._hidden = False
        self._shown_once = False
        #: The combat wizard, the quick attack form and the Sprint dialog (the app shell's).
        self.forms = forms

        self.model = BattleUnitModel(self)
        self.commands = BattleCommands(self, self)
        self.moves = UnitMoves(self, self.commands, self)
        self._build()
        self._build_actions()
        bus.changed.connect(self._on_changed)
        undo_stack.indexChanged.connect(self._history_moved)
        self.refresh()
        self.set_table_mode(AppSettings(self.settings).get_bool(TABLE_MODE_KEY), remember=False)
        follow_theme(self, functools.partial(follow_app_theme, self), now=False)
        if self.model.unit_ids():
            self.select_unit(self.model.unit_ids()[0])

    # -- construction ---------------------------------------------------------------------

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 8, 8, 8)
        outer.setSpacing(6)
        self.header = BattleHeader(self)
        outer.addWidget(self.header)
        self.aftermath_bar = AftermathBar(self)
        outer.addWidget(self.aftermath_bar)
        self.start_bar = StartBar(self)
        self.start_bar.button.clicked.connect(self.start_battle)
        outer.addWidget(self.start_bar)
        self.filter_bar = FilterBar(self)
        self.filter_bar.changed.connect(self._filters_changed)
        outer.addWidget(self.filter_bar)
        self.message = MessageStrip(self)
        self.message_box = StillBox(self.message, self)  # a message never lays out the panel
        outer.addWidget(self.message_box)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setObjectName("battleSplitter")
        left = QWidget(self.splitter)
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        self.table = UnitTable(self.model, left)
        self.table.customContextMenuRequested.connect(self._context_menu)
        self.table.doubleClicked.connect(self._double_clicked)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        self.still_rows = StillRows(self.table)
        lv.addWidget(self.table, 1)
        self.buttons = UnitButtons(self.table, self.moves, self._view, left)
        self.moves.menus = self.buttons
        self.buttons.wizard_button.clicked.connect(self.moves.attack_current)
        self.act_button = self.buttons.act_button
        self.counter_button = self.buttons.counter_button
        self.status_button = self.buttons.status_button
        self.wizard_button = self.buttons.wizard_button
        lv.addWidget(self.buttons)

        self.log_pane = BattleLogPane(self._current_theme, self.splitter)
        self.log_pane.undo_button.clicked.connect(self.undo)
        self.log_pane.redo_button.clicked.connect(self.redo)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.log_pane)
        self.splitter.setSizes([780, 420])
        self.split_memory = SplitMemory(self.splitter, self.settings)
        self.splitter.splitterMoved.connect(self._save_splitter)
        outer.addWidget(self.splitter, 1)
        # Short names for what tests and the main window reach.
        self.round_label = self.header.round_label
        self.turn_label = self.header.turn_label
        self.end_turn_button = self.header.end_turn_button
        self.undo_button = self.log_pane.undo_button
        self.redo_button = self.log_pane.redo_button
        self.log_model = self.log_pane.model
        self.filter_respond = self.filter_bar.respond
        self.filter_close = self.filter_bar.close_combat
        self.filter_not_acted = self.filter_bar.not_acted

    def _current_theme(self) -> Theme:
        return self.theme

    def _view(self) -> BattleView | None:
        return self.view

    def _build_actions(self) -> None:
        self.end_turn_action = make_action(
            self,
            "&End Turn",
            "endTurnAction",
            self.end_turn,
            ("Ctrl+E", "F12"),
            window=True,
            tip="End the active player's turn: their units keep unspent Actions to respond; "
            "the next player's Actions recharge; Counters reset (4.2, 5.2)",
        )
        self.end_turn_button.clicked.connect(self.end_turn_action.trigger)
        self.table_mode_action = make_action(
            self,
            "&Table mode",
            "tableModeAction",
            self._toggle_table_mode,
            ("Ctrl+T",),
            window=True,
            tip="Large type and high contrast, for a screen turned towards the players",
        )
        self.table_mode_action.setCheckable(True)
        self.header.table_mode_button.setDefaultAction(self.table_mode_action)
        self.undo_battle_action = make_action(
            self, "&Undo last battle action", "undoBattleAction", self.undo, window=True
        )
        self.redo_battle_action = make_action(
            self, "&Redo battle action", "redoBattleAction", self.redo, window=True
        )
        self.start_action = make_action(
            self, "&Start battle…", "startBattleAction", self.start_battle, window=True
        )
        self.unit_actions = unit_keys(self.table, self.moves)
        self.wizard_action = make_action(
            self.table, "Combat &wizard…", "wizardAction", self.moves.attack_current, ("W",)
        )
        tip = "Open the combat wizard for this unit (W)"
        set_tooltip(self.wizard_button, tip)
        self.wizard_action.setToolTip(tip)
        self.filter_actions = self.filter_bar.filter_actions
        for a in self.filter_actions:
            self.addAction(a)

    def menu_actions(self) -> list[QAction | None]:
        """For a Battle menu: End Turn, undo/redo, filters, table mode (``None``: a separator)."""
        return [
            self.end_turn_action,
            None,
            self.undo_battle_action,
            self.redo_battle_action,
            None,
            *self.filter_actions,
            None,
            self.table_mode_action,
            None,
            self.start_action,
        ]

    # -- refreshing -------------------------------------------------------------------------

    def _on_changed(self, changes: object) -> None:
        if isinstance(changes, Changes) and changes & _REFRESH_ON:
            self.refresh()

    def _history_moved(self, _index: int = 0) -> None:
        # A stack being destroyed empties itself first: nothing to show then.
        # Undo and Redo only: what the current unit may do depends on the battle, not on the
        # history (a refresh follows when the battle changed).
        if self.view is not None and shiboken6.isValid(self.undo_stack):
            self._update_history()

    def refresh(self) -> None:
        """Read the battle from the tracker and update what changed, in place."""
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
            before, self.view = self.view, view
            if before is None or before.units is not view.units:
                self.table.set_units(view.units)  # names to fit change only with the units
            self.model.set_view(view)
            self.log_pane.show_events(view.id, view.events)
            self.header.show_view(view, self.end_turn_action.toolTip())
            self.start_bar.setVisible(view.status is BattleStatus.PLANNED)
            self.aftermath_bar.show_view(view)
            self._update_enabled()
            # The views lay their rows out now, not on Qt's next timer: what the change moved
            # (every row, on End Turn) is then painted once, in the same pass as the rest.
            self.table.executeDelayedItemsLayout()
            self.log_pane.view.executeDelayedItemsLayout()
        finally:
            self._refreshing = False

    def _battle_deleted(self) -> None:
        self.view = None
        self.show_error("This battle no longer exists (it was deleted).")
        self._update_enabled()
        self.battle_gone.emit(self.battle_id)

    def _update_enabled(self) -> None:
        view = self.view
        live = view is not None and view.in_progress and not view.state.finished
        self.end_turn_action.setEnabled(live and not self._hidden)
        self.end_turn_button.setEnabled(live)
        self._update_history()
        self.start_action.setEnabled(view is not None and view.status is BattleStatus.PLANNED)
        unit = self.current_unit()
        on_unit = live and unit is not None
        for a in self.unit_actions:
            a.setEnabled(on_unit)
        self.wizard_action.setEnabled(on_unit)
        self.wizard_button.setEnabled(on_unit)
        # The buttons and the keys legend ask the rules: once per battle state and unit.
        asked = (view if live else None, unit, on_unit)
        if asked[0] is not self._asked[0] or asked[1:] != self._asked[1:]:
            self._asked = asked
            self.buttons.set_enabled(on_unit, unit)
            self.message.set_keys(keys_legend(asked[0], unit))

    def _update_history(self) -> None:
        """Undo and Redo: this battle's history first; with none, the log's own last action
        (after a restart)."""
        view = self.view
        stack = self.undo_stack
        can_undo = (
            stack.undoText() if stack.canUndo() else view.can_undo if view is not None else None
        )
        can_redo = (
            stack.redoText() if stack.canRedo() else view.can_redo if view is not None else None
        )
        self.log_pane.set_history(can_undo, can_redo)
        for a, text, what in (
            (self.undo_battle_action, can_undo, "Undo"),
            (self.redo_battle_action, can_redo, "Redo"),
        ):
            a.setEnabled(bool(text))
            a.setText(f"{what} battle: {short(text)}" if text else f"{what} battle action")

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            self._restore_splitter()
        self._hidden = False
        self._update_enabled()

    def hideEvent(self, event: QHideEvent) -> None:
        """Hidden (another page of the window shows, or the window closes): End Turn's
        window-wide keys rest, and an attack form still open is cancelled (nothing recorded):
        none paints while its window goes."""
        super().hideEvent(event)
        self._hidden = True
        self.end_turn_action.setEnabled(False)
        if event.spontaneous():  # the window minimized: the form waits with it
            return
        for form in self.findChildren(QDialog):
            if form.isVisible():
                form.reject()

    # -- messages ---------------------------------------------------------------------------

    def show_info(self, text: str) -> None:
        self.message.show_message(text, "info")
        self.bus.say(text)

    def show_error(self, error: BaseException | str) -> None:
        text = error_text(error)
        self.message.show_message(text, "error")
        self.bus.say(text.lstrip(refusal_sign() + " "))

    def clear_message(self) -> None:
        self.message.clear_message()

    @property
    def message_text(self) -> str:
        """The message shown (empty when the strip only shows the keys)."""
        return self.message.message

    @property
    def message_kind(self) -> str:
        return self.message.kind

    # -- selection and filters --------------------------------------------------------------

    def current_unit(self) -> BattleUnitId | None:
        return self.table.current_unit()

    def select_unit(self, unit_id: BattleUnitId) -> bool:
        return self.table.select_unit(unit_id)

    def ready_for_keys(self) -> None:
        """The keyboard ready as the battle shows (opened, started, switched to): the focus in
        the unit table, on the first unit that can act, so that Q, A, S... work at once."""
        unit = first_to_act(self.view, self.model.unit_ids())
        if unit is not None:
            self.select_unit(unit)
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)

    def _current_changed(self, *_args: object) -> None:
        self._update_enabled()

    def _double_clicked(self, index: QModelIndex) -> None:
        unit = self.table.unit_at(index)
        if unit is not None:
            self.moves.attack(unit)

    def _filters_changed(self, filters: Filters) -> None:
        self.model.set_filters(filters)
        self._update_enabled()

    def set_filters(
        self,
        *,
        can_respond: bool | None = None,
        in_close_combat: bool | None = None,
        not_acted: bool | None = None,
        text: str | None = None,
    ) -> None:
        self.filter_bar.set_filters(
            can_respond=can_respond, in_close_combat=in_close_combat, not_acted=not_acted, text=text
        )

    # -- table mode -------------------------------------------------------------------------

    def _toggle_table_mode(self) -> None:
        self.set_table_mode(self.table_mode_action.isChecked())

    @property
    def table_mode(self) -> bool:
        return self.theme is TABLE

    def set_table_mode(self, on: bool, *, remember: bool = True) -> None:
        theme = TABLE if on else normal_theme()
        keep = self.current_unit()
        self.theme = theme
        self._restore_splitter()
        self.table_mode_action.setChecked(on)
        font = style_font(self, theme)
        self.setAutoFillBackground(True)
        self.setFont(font)
        for child in self.findChildren(QWidget):  # a child with a style sheet keeps its font
            child.setFont(font)
        dress(self, theme, font)
        self.message_box.follow_height()
        if keep is not None:
            self.select_unit(keep)
        if remember:
            self.settings.setValue(TABLE_MODE_KEY, on)
        self.table_mode_changed.emit(on)

    def _save_splitter(self, *_args: object) -> None:
        """Each style keeps its own split between the table and the log."""
        self.split_memory.save(self.theme)

    def _restore_splitter(self) -> None:
        self.split_memory.restore(self.theme)

    # -- recording (BattleCommands) ---------------------------------------------------------

    def record(self, events: Sequence[Event], text: str | None = None) -> bool:
        return self.commands.record(events, text)

    def end_turn(self) -> bool:
        return self.commands.end_turn()

    def undo(self) -> bool:
        return self.commands.undo()

    def redo(self) -> bool:
        return self.commands.redo()

    def start_battle(self) -> bool:
        if not self.commands.start_battle():
            return False
        self.ready_for_keys()  # the first player's first unit, ready for its keys
        return True

    def open_quick(
        self,
        unit_id: BattleUnitId,
        target: BattleUnitId | None = None,
        use: Use | None = None,
    ) -> bool:
        """The quick attack form for ``unit_id`` (``form_opening.open_quick``)."""
        return form_opening.open_quick(self, unit_id, target, use)

    def open_wizard(
        self,
        unit_id: BattleUnitId | None = None,
        target: BattleUnitId | None = None,
        maneuver: Maneuver | None = None,
    ) -> bool:
        """The combat wizard for ``unit_id``, the current unit by default
        (``form_opening.open_wizard``)."""
        unit = self.current_unit() if unit_id is None else unit_id
        if unit is None:
            return False
        return form_opening.open_wizard(self, unit, target, maneuver)

    # -- the row's menu -------------------------------------------------------------------

    def _context_menu(self, pos: QPoint) -> None:
        uid = self.table.unit_at(self.table.indexAt(pos))
        if uid is None:
            return
        self.select_unit(uid)
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.fill_unit_menu(menu, uid)
        menu.popup(self.table.viewport().mapToGlobal(pos))

    def fill_unit_menu(self, menu: QMenu, unit_id: BattleUnitId) -> None:
        """The row's context menu: act or respond, Counters, statuses, the wizard."""
        if self.view is None:
            return
        fill_act(menu, self.view, unit_id, self.moves)
        menu.addSeparator()
        fill_counter(menu.addMenu("Use a &Counter"), self.view, unit_id, self.moves)
        fill_status(menu.addMenu("S&tatus"), self.view, unit_id, self.moves)
        menu.addSeparator()
        menu.addAction(self.wizard_action)

    def sizeHint(self) -> QSize:
        return QSize(1200, 760)


def style_font(panel: BattlePanel, theme: Theme) -> QFont:
    """The panel's font in ``theme``: table mode's text size is the organizer's (Edit >
    Settings)."""
    font = QFont(panel._app_font)
    size = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
    on = theme is TABLE
    scale = AppSettings(panel.settings).table_font_percent / 100 if on else theme.font_scale
    font.setPointSizeF(size * scale)
    return font


def dress(panel: BattlePanel, theme: Theme, font: QFont) -> None:
    """Give the panel and its parts ``theme``'s colours (their fonts: ``font``)."""
    panel.setPalette(palette(theme, panel._app_palette))
    panel.header.set_theme(theme, font)
    panel.start_bar.set_theme(theme)
    panel.table.set_theme(theme, font)
    panel.log_pane.set_theme(theme, font)
    panel.message.set_theme(theme)


def follow_app_theme(panel: BattlePanel) -> None:
    """The application's theme changed: the panel's normal style follows it (table mode is the
    same in both). The panel's own parts only: the combat forms it holds keep their fonts and
    follow the theme themselves."""
    panel._app_palette = QPalette(QApplication.palette())
    panel.theme = TABLE if panel.table_mode else normal_theme()
    dress(panel, panel.theme, panel.font())
