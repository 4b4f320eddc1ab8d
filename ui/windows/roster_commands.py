"""The roster window's commands: every action (text, shortcut, tip and icon), the menu bar,
the toolbar and the table's context menu. The actions call the window's methods; which of them
are enabled follows the selection (``update_enabled``)."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QUndoStack
from PySide6.QtWidgets import QMainWindow, QStyle, QToolBar

from brikdesk.domain.ids import ArmyId
from ui.widgets.common import make_action, name_toolbar_extension, undo_redo_actions
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
    def focus_loadout(self) -> None: ...
    def focus_filter(self) -> None: ...
    def focus_budget(self) -> None: ...
    def show_roster_order(self) -> None: ...


class RosterCommands:
    """The actions of roster window ``w`` over ``host``, in the window's menus and toolbar
    (see the module)."""

    def __init__(self, w: QMainWindow, host: RosterCommandsHost, stack: QUndoStack) -> None:
        style = w.style()
        icon = style.standardIcon
        sp = QStyle.StandardPixmap
        self.undo_action, self.redo_action = undo_redo_actions(w, stack)
        self.add_action = make_action(
            w,
            "&Add unit…",
            host.edits.add_unit,
            name="addUnitAction",
            shortcut=[QKeySequence(QKeySequence.StandardKey.New), QKeySequence("Ins")],
            tip="Add a unit of a type at the end of the roster",
            icon=icon(sp.SP_FileIcon),
        )
        self.add_many_action = make_action(
            w,
            "Add &several…",
            host.edits.add_copies,
            name="addCopiesAction",
            shortcut="Ctrl+Shift+N",
            tip="Add several units at once (of the army's most common type and equipment)",
            icon=icon(sp.SP_FileDialogNewFolder),
        )
        self.duplicate_action = make_action(
            w,
            "D&uplicate",
            host.edits.duplicate,
            name="duplicateAction",
            shortcut="Ctrl+D",
            tip="Copy the selected units (equipment, stats and notes)",
            icon=icon(sp.SP_FileLinkIcon),
        )
        self.rename_action = make_action(
            w,
            "&Rename",
            host.edits.rename,
            name="renameAction",
            shortcut="F2",
            tip="Rename the unit in place",
        )
        self.edit_action = make_action(
            w,
            "&Edit unit…",
            host.edits.edit_unit,
            name="editUnitAction",
            shortcut="Ctrl+E",
            tip="Type, stats, campaign record and notes of the unit",
            icon=icon(sp.SP_FileDialogDetailedView),
        )
        self.type_action = make_action(
            w,
            "Change &type…",
            host.edits.change_type,
            name="changeTypeAction",
            shortcut="Ctrl+T",
            tip="Give the selected units another unit type",
        )
        self.delete_action = make_action(
            w,
            "&Delete",
            host.edits.delete_selected,
            name="deleteAction",
            shortcut=QKeySequence(QKeySequence.StandardKey.Delete),
            tip="Delete the selected units (Undo brings them back)",
            icon=icon(sp.SP_TrashIcon),
        )
        self.loadout_action = make_action(
            w,
            "Edit &loadout",
            host.focus_loadout,
            name="loadoutAction",
            shortcut="Ctrl+L",
            tip="Go to the loadout editor of the selected unit",
        )
        self.filter_action = make_action(
            w,
            "&Filter units",
            host.focus_filter,
            name="filterAction",
            shortcut=QKeySequence(QKeySequence.StandardKey.Find),
            tip="Filter the units",
        )
        self.select_all_action = make_action(
            w,
            "Select &all",
            host.table.selectAll,
            name="selectAllAction",
            shortcut=QKeySequence(QKeySequence.StandardKey.SelectAll),
        )
        self.edit_army_action = make_action(
            w,
            "Army &budget",
            host.focus_budget,
            name="budgetAction",
            shortcut="Ctrl+B",
            tip="Change the army's budget",
        )
        self.duplicate_army_action = make_action(
            w,
            "D&uplicate army…",
            host.edits.duplicate_army,
            name="duplicateArmyAction",
            tip="A new army with copies of these units (loadouts and notes; no battle record)",
        )
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
        self.export_text_action = make_action(
            w,
            "Export as te&xt…",
            host.text.export,
            name="exportTextAction",
            tip="Save the roster as plain text (.txt), Markdown (.md) or BBCode (.bbcode)",
        )
        self.preview_action = make_action(
            w,
            "Print pre&view…",
            lambda: host.printing.preview(host.army_id),
            name="printPreviewAction",
            shortcut="Ctrl+Shift+P",
            tip="Preview the roster sheet",
            icon=icon(sp.SP_FileDialogContentsView),
        )
        self.print_action = make_action(
            w,
            "&Print…",
            lambda: host.printing.print(host.army_id),
            name="printAction",
            shortcut=QKeySequence(QKeySequence.StandardKey.Print),
            tip="Print the roster sheet",
        )
        self.pdf_action = make_action(
            w,
            "Export P&DF…",
            lambda: host.printing.export_pdf(host.army_id),
            name="exportPdfAction",
            shortcut="Ctrl+Shift+E",
            tip="Save the roster sheet as a PDF",
        )
        self.close_action = make_action(
            w,
            "&Close",
            w.close,
            name="closeAction",
            shortcut=QKeySequence(QKeySequence.StandardKey.Close),
            tip="Close this roster",
        )
        self.move_up_action = make_action(
            w,
            "Move &up",
            host.edits.move_up,
            name="moveUpAction",
            shortcut="Alt+Up",
            tip="Move the selected units one place up the roster (its printed order)",
            icon=icon(sp.SP_ArrowUp),
        )
        self.move_down_action = make_action(
            w,
            "Move do&wn",
            host.edits.move_down,
            name="moveDownAction",
            shortcut="Alt+Down",
            tip="Move the selected units one place down the roster",
            icon=icon(sp.SP_ArrowDown),
        )
        self.move_top_action = make_action(
            w,
            "Move to the &top",
            host.edits.move_to_top,
            name="moveTopAction",
            shortcut="Alt+PgUp",
            tip="Put the selected units first in the roster",
        )
        self.move_bottom_action = make_action(
            w,
            "Move to the &bottom",
            host.edits.move_to_bottom,
            name="moveBottomAction",
            shortcut="Alt+PgDown",
            tip="Put the selected units last in the roster",
        )
        self.roster_order_action = make_action(
            w,
            "Show in &roster order",
            host.show_roster_order,
            name="rosterOrderAction",
            shortcut="Ctrl+0",
            tip="Undo the sorting by a column: the units in roster order",
        )
        self.selection_actions = (
            self.duplicate_action,
            self.delete_action,
            self.type_action,
            self.move_up_action,
            self.move_down_action,
            self.move_top_action,
            self.move_bottom_action,
        )
        self.current_actions = (self.rename_action, self.edit_action, self.loadout_action)
        self._build_menus_and_toolbar(w, host)

    def update_enabled(self, has_selection: bool, has_current: bool) -> None:
        """Actions on the selected units need a selection; those on one unit, a current one."""
        for a in self.selection_actions:
            a.setEnabled(has_selection)
        for a in self.current_actions:
            a.setEnabled(has_current)

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
