"""The roster window's commands: every action (text, shortcut, tip and icon), the menu bar,
the toolbar and the table's context menu. The actions call the window's methods; which of them
are enabled follows the selection (``update_enabled``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import QMainWindow, QStyle, QToolBar

from brikdesk.domain.ids import ArmyId
from ui.widgets.common import (
    ActionSpec,
    enable_actions,
    make_action,
    make_actions,
    name_toolbar_extension,
    undo_redo_actions,
)
from ui.windows.printing import RosterPrinting
from ui.windows.roster_edits import RosterEdits
from ui.windows.roster_table import RosterTable
from ui.windows.roster_text import RosterText

__all__ = ["RosterCommands"]


class RosterCommandsHost(Protocol):
    """What the roster's actions trigger: the edits, the roster as text and on paper, the
    units' table, and the window's own focus moves and roster order."""

    @property
    def army_id(self) -> ArmyId: ...
    @property
    def edits(self) -> RosterEdits: ...
    @property
    def text(self) -> RosterText: ...
    @property
    def printing(self) -> RosterPrinting: ...
    @property
    def table(self) -> RosterTable: ...
    def close(self) -> bool: ...
    def focus_loadout(self) -> None: ...
    def focus_filter(self) -> None: ...
    def focus_budget(self) -> None: ...
    def show_roster_order(self) -> None: ...


SP = QStyle.StandardPixmap


@dataclass(frozen=True)
class RosterState:
    """What the roster's actions are enabled by: units selected, and a current unit."""

    has_selection: bool
    has_current: bool


#: The roster window's plain entries as data (Undo and Redo, Copy as text's formats and the
#: menus are made by ``RosterCommands``).
ROSTER_ACTIONS: tuple[ActionSpec[RosterCommandsHost, RosterState], ...] = (
    ActionSpec(
        "add_action",
        "&Add unit…",
        lambda h: h.edits.add_unit,
        "addUnitAction",
        shortcut=[QKeySequence.StandardKey.New, "Ins"],
        tip="Add a unit of a type at the end of the roster",
        icon=SP.SP_FileIcon,
    ),
    ActionSpec(
        "add_many_action",
        "Add &several…",
        lambda h: h.edits.add_copies,
        "addCopiesAction",
        shortcut="Ctrl+Shift+N",
        tip="Add several units at once (of the army's most common type and equipment)",
        icon=SP.SP_FileDialogNewFolder,
    ),
    ActionSpec(
        "duplicate_action",
        "D&uplicate",
        lambda h: h.edits.duplicate,
        "duplicateAction",
        shortcut="Ctrl+D",
        tip="Copy the selected units (equipment, stats and notes)",
        icon=SP.SP_FileLinkIcon,
        enabled_when=lambda s: s.has_selection,
    ),
    ActionSpec(
        "rename_action",
        "&Rename",
        lambda h: h.edits.rename,
        "renameAction",
        shortcut="F2",
        tip="Rename the unit in place",
        enabled_when=lambda s: s.has_current,
    ),
    ActionSpec(
        "edit_action",
        "&Edit unit…",
        lambda h: h.edits.edit_unit,
        "editUnitAction",
        shortcut="Ctrl+E",
        tip="Type, stats, campaign record and notes of the unit",
        icon=SP.SP_FileDialogDetailedView,
        enabled_when=lambda s: s.has_current,
    ),
    ActionSpec(
        "type_action",
        "Change &type…",
        lambda h: h.edits.change_type,
        "changeTypeAction",
        shortcut="Ctrl+T",
        tip="Give the selected units another unit type",
        enabled_when=lambda s: s.has_selection,
    ),
    ActionSpec(
        "delete_action",
        "&Delete",
        lambda h: h.edits.delete_selected,
        "deleteAction",
        shortcut=QKeySequence.StandardKey.Delete,
        tip="Delete the selected units (Undo brings them back)",
        icon=SP.SP_TrashIcon,
        enabled_when=lambda s: s.has_selection,
    ),
    ActionSpec(
        "loadout_action",
        "Edit &loadout",
        lambda h: h.focus_loadout,
        "loadoutAction",
        shortcut="Ctrl+L",
        tip="Go to the loadout editor of the selected unit",
        enabled_when=lambda s: s.has_current,
    ),
    ActionSpec(
        "filter_action",
        "&Filter units",
        lambda h: h.focus_filter,
        "filterAction",
        shortcut=QKeySequence.StandardKey.Find,
        tip="Filter the units",
    ),
    ActionSpec(
        "select_all_action",
        "Select &all",
        lambda h: h.table.selectAll,
        "selectAllAction",
        shortcut=QKeySequence.StandardKey.SelectAll,
    ),
    ActionSpec(
        "edit_army_action",
        "Army &budget",
        lambda h: h.focus_budget,
        "budgetAction",
        shortcut="Ctrl+B",
        tip="Change the army's budget",
    ),
    ActionSpec(
        "duplicate_army_action",
        "D&uplicate army…",
        lambda h: h.edits.duplicate_army,
        "duplicateArmyAction",
        tip="A new army with copies of these units (loadouts and notes; no battle record)",
    ),
    ActionSpec(
        "export_text_action",
        "Export as te&xt…",
        lambda h: h.text.export,
        "exportTextAction",
        tip="Save the roster as plain text (.txt), Markdown (.md) or BBCode (.bbcode)",
    ),
    ActionSpec(
        "preview_action",
        "Print pre&view…",
        lambda h: lambda: h.printing.preview(h.army_id),
        "printPreviewAction",
        shortcut="Ctrl+Shift+P",
        tip="Preview the roster sheet",
        icon=SP.SP_FileDialogContentsView,
    ),
    ActionSpec(
        "print_action",
        "&Print…",
        lambda h: lambda: h.printing.print(h.army_id),
        "printAction",
        shortcut=QKeySequence.StandardKey.Print,
        tip="Print the roster sheet",
    ),
    ActionSpec(
        "pdf_action",
        "Export P&DF…",
        lambda h: lambda: h.printing.export_pdf(h.army_id),
        "exportPdfAction",
        shortcut="Ctrl+Shift+E",
        tip="Save the roster sheet as a PDF",
    ),
    ActionSpec(
        "close_action",
        "&Close",
        lambda h: h.close,
        "closeAction",
        shortcut=QKeySequence.StandardKey.Close,
        tip="Close this roster",
    ),
    ActionSpec(
        "move_up_action",
        "Move &up",
        lambda h: h.edits.move_up,
        "moveUpAction",
        shortcut="Alt+Up",
        tip="Move the selected units one place up the roster (its printed order)",
        icon=SP.SP_ArrowUp,
        enabled_when=lambda s: s.has_selection,
    ),
    ActionSpec(
        "move_down_action",
        "Move do&wn",
        lambda h: h.edits.move_down,
        "moveDownAction",
        shortcut="Alt+Down",
        tip="Move the selected units one place down the roster",
        icon=SP.SP_ArrowDown,
        enabled_when=lambda s: s.has_selection,
    ),
    ActionSpec(
        "move_top_action",
        "Move to the &top",
        lambda h: h.edits.move_to_top,
        "moveTopAction",
        shortcut="Alt+PgUp",
        tip="Put the selected units first in the roster",
        enabled_when=lambda s: s.has_selection,
    ),
    ActionSpec(
        "move_bottom_action",
        "Move to the &bottom",
        lambda h: h.edits.move_to_bottom,
        "moveBottomAction",
        shortcut="Alt+PgDown",
        tip="Put the selected units last in the roster",
        enabled_when=lambda s: s.has_selection,
    ),
    ActionSpec(
        "roster_order_action",
        "Show in &roster order",
        lambda h: h.show_roster_order,
        "rosterOrderAction",
        shortcut="Ctrl+0",
        tip="Undo the sorting by a column: the units in roster order",
    ),
)


class RosterCommands:
    """The actions of roster window ``w`` over ``host``, in the window's menus and toolbar
    (see the module)."""

    add_action: QAction
    add_many_action: QAction
    duplicate_action: QAction
    rename_action: QAction
    edit_action: QAction
    type_action: QAction
    delete_action: QAction
    loadout_action: QAction
    filter_action: QAction
    select_all_action: QAction
    edit_army_action: QAction
    duplicate_army_action: QAction
    export_text_action: QAction
    preview_action: QAction
    print_action: QAction
    pdf_action: QAction
    close_action: QAction
    move_up_action: QAction
    move_down_action: QAction
    move_top_action: QAction
    move_bottom_action: QAction
    roster_order_action: QAction

    def __init__(self, w: QMainWindow, host: RosterCommandsHost, stack: QUndoStack) -> None:
        self.by_attr = make_actions(w, host, ROSTER_ACTIONS)
        for attr, action in self.by_attr.items():
            setattr(self, attr, action)
        self.undo_action, self.redo_action = undo_redo_actions(w, stack)
        self.copy_text_actions = {
            fmt: make_action(
                w,
                label,
                lambda _checked=False, fmt=fmt: host.text.copy(fmt),
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
        self._build_menus_and_toolbar(w, host)

    def update_enabled(self, has_selection: bool, has_current: bool) -> None:
        """Actions on the selected units need a selection; those on one unit, a current one
        (each entry's ``enabled_when`` in ``ROSTER_ACTIONS``)."""
        enable_actions(self.by_attr, ROSTER_ACTIONS, RosterState(has_selection, has_current))

    def _build_menus_and_toolbar(self, w: QMainWindow, host: RosterCommandsHost) -> None:
        bar = w.menuBar()
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
        tb = QToolBar("Roster", w)
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
        w.addToolBar(tb)
        name_toolbar_extension(tb)
        host.table.addActions(
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
        # do what they do there.
        for a in (self.delete_action, self.rename_action):
            a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        host.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
