"""The battle panel's unit table: one row per unit under its player's header row, the Status
column's chips, columns sized to what they show, and the current unit remembered by id.

Every chip of a unit is shown whole in its row, without hovering: the chips say what the
organizer needs at a glance (how many attacks a unit has taken, that it is Disrupted). Where
the Status column is too narrow for a unit's chips on one line, that row grows to as many
lines of chips as they need (``fit_rows``), as a table of labels does; the other rows keep one
line, so a laptop still shows as many units. Rather than shorter labels: "Attacked 1/3" or
"⚔ Bosun Grogg" have no short form that stays unambiguous. A row grows or shrinks only when
its unit's chips change (the organizer's own action) or the column's width does; the rows
held still under the pointer after End Turn (``still_rows``) keep their heights as they move.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import (
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    Qt,
)
from PySide6.QtGui import QFocusEvent, QFont, QFontMetrics, QRegion
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from brikdesk.domain.ids import BattleUnitId
from brikdesk.services.tracker import TrackedUnit
from ui.models.table import IdRole
from ui.panels.battle_model import (
    ACTION,
    COLUMNS,
    COUNTERS,
    RESPOND,
    RESPOND_MARK,
    STATUS,
    TYPE,
    UNIT,
    BattleUnitModel,
    ChipsRole,
    unit_chips,
)
from ui.panels.chips import (
    StatusChipDelegate,
    chip_boxes,
    chip_lines,
    chips_row_height,
    chips_width,
)
from ui.panels.row_delegate import RowDelegate
from ui.panels.theme import TABLE, Theme

#: Pixels around a cell's or a header's text (the style's margins, the grid line and a little
#: air): more would be room taken from the columns that need it.
PAD = 12
#: What the columns get when the window has room (as shares of the table's width).
SHARES = {UNIT: 0.26, TYPE: 0.13, ACTION: 0.1, COUNTERS: 0.08, RESPOND: 0.11}


class UnitTable(QTableView):
    """The table of a :class:`BattleUnitModel`; see the module docstring."""

    def __init__(self, model: BattleUnitModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("unitTable")
        self.setAccessibleName("Units in the battle")
        self.units: Sequence[TrackedUnit] = ()
        #: The columns' needs (``_needs``) and what they were measured for.
        self._measured: tuple[Sequence[TrackedUnit], tuple[str, str], dict[int, int]] | None = None
        self.setModel(model)
        self.unit_model = model
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(False)
        self.setShowGrid(True)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setCornerButtonEnabled(False)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        hh = self.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setSectionResizeMode(STATUS, QHeaderView.ResizeMode.Stretch)
        hh.setHighlightSections(False)
        # Cells are painted from their row's record (one model look-up per cell).
        self.rows = RowDelegate(self)
        self.setItemDelegate(self.rows)
        self.chips = StatusChipDelegate(self)
        self.setItemDelegateForColumn(STATUS, self.chips)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.viewport().installEventFilter(self)  # its size is final when it resizes
        model.groups_changed.connect(self.span_groups)
        #: The width the widest chips of the battle need on one line, the widest chip's, and
        #: the state they were measured in.
        self.chips_need = 0
        self.chip_need = 0
        self._chips_state: object = None
        #: The chips' labels of each unit with more than one (those that may need lines).
        self._labels: dict[BattleUnitId, list[str]] = {}
        #: The units whose rows were made taller.
        self._tall: set[BattleUnitId] = set()
        model.modelReset.connect(self._fit_chips)
        model.dataChanged.connect(self._fit_chips)
        for signal in (model.rowsInserted, model.layoutChanged):
            signal.connect(self.fit_rows)
        hh.sectionResized.connect(self._column_resized)

    # -- the current unit -------------------------------------------------------------------

    def current_unit(self) -> BattleUnitId | None:
        index = self.currentIndex()
        if not index.isValid():
            return None
        uid = index.data(IdRole)
        return BattleUnitId(uid) if isinstance(uid, int) else None

    def select_unit(self, unit_id: BattleUnitId) -> bool:
        index = self.unit_model.index_of_unit(unit_id)
        if not index.isValid():
            return False
        self.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.scrollTo(index)
        return True

    def unit_at(self, index: QModelIndex) -> BattleUnitId | None:
        uid = index.data(IdRole) if index.isValid() else None
        return BattleUnitId(uid) if isinstance(uid, int) else None

    def shown_chips(self, row: int) -> list[str]:
        """The labels of row ``row``'s status chips as drawn in its cell (a cut one ends in
        "…"); its tooltip has them whole."""
        index = self.unit_model.index(row, STATUS)
        chips = index.data(ChipsRole) or ()
        cell = self.visualRect(index)  # as the delegate gets it: without the grid line
        line = self.verticalHeader().defaultSectionSize()
        return [label for _box, _key, label in chip_boxes(self.fontMetrics(), cell, chips, line)]

    # -- style ------------------------------------------------------------------------------

    def span_groups(self) -> None:
        """A player's header row spans the table."""
        self.clearSpans()
        columns = self.unit_model.columnCount()
        for row in self.unit_model.group_rows():
            self.setSpan(row, 0, 1, columns)

    def set_theme(self, theme: Theme, font: QFont) -> None:
        self.unit_model.set_theme(theme, font)
        header_font = QFont(font)
        header_font.setBold(True)
        self.horizontalHeader().setFont(header_font)
        # Across the table the players need names, Actions and statuses: the unit type (in
        # the tooltip) makes room for them.
        self.setColumnHidden(TYPE, theme is TABLE)
        rows = self.fontMetrics().height() + theme.row_padding
        # The minimum first: a default below the old minimum (Table mode off) would be
        # held up to it, and the tall rows would stay.
        self.verticalHeader().setMinimumSectionSize(rows)
        self.verticalHeader().setDefaultSectionSize(rows)
        self.chips.set_theme(theme, rows)
        self.size_columns()
        self._chips_state = None  # the chips measured again in this font, the rows fitted
        self._fit_chips()

    def _fit_chips(self, *_args: object) -> None:
        """Sizes the columns and the rows again when the chips of the battle change (a unit
        goes into Close Combat, is Attacked, Grabbed or dies): the Status column shows the
        widest whole when the window has room, and a row too narrow for its unit's chips
        grows (``fit_rows``). Measured once per state of the battle."""
        model = self.unit_model
        state, view = model.state, model.view
        if state is self._chips_state:
            self.fit_rows()  # rows shown again (a filter) are of one line
            return
        self._chips_state = state
        need = least = 0
        labels: dict[BattleUnitId, list[str]] = {}
        if state is not None and view is not None:
            fm = self.fontMetrics()
            for u in state.units:
                if not (u.attackers or u.statuses):
                    continue
                chips = [label for _k, label in unit_chips(state, u, view.unit(u.unit_id).minifig)]
                need = max(need, chips_width(fm, chips))
                least = max(least, *(chips_width(fm, (label,)) for label in chips), 0)
                if len(chips) > 1:
                    labels[u.unit_id] = chips
        self._labels = labels
        if (need, least) != (self.chips_need, self.chip_need):
            self.chips_need, self.chip_need = need, least
            self.size_columns()
        self.fit_rows()

    def fit_rows(self, *_args: object) -> None:
        """Each row as tall as its unit's chips need in the Status column's width (one line
        for most); a row made taller goes back to one line when its chips fit again."""
        header = self.verticalHeader()
        line = header.defaultSectionSize()
        width = self.columnWidth(STATUS) - (1 if self.showGrid() else 0)
        fm = self.fontMetrics()
        model = self.unit_model
        wanted: dict[BattleUnitId, int] = {}
        for uid, labels in self._labels.items():
            lines = chip_lines(fm, width, labels)
            if lines > 1:
                wanted[uid] = chips_row_height(fm, line, lines)
        for uid in self._tall | wanted.keys():
            row = model.index_of_unit(uid).row()
            height = wanted.get(uid, line)
            if row >= 0 and header.sectionSize(row) != height:
                header.resizeSection(row, height)
        self._tall = set(wanted)

    def _column_resized(self, column: int, _old: int, _new: int) -> None:
        if column == STATUS:
            self.fit_rows()

    def set_units(self, units: Sequence[TrackedUnit]) -> None:
        """The units mustered (the names and types the columns must fit)."""
        self.units = units
        self.size_columns()

    def size_columns(self) -> None:
        """Columns sized to what they show; the Status column takes what is left.

        Action, Counters and Respond are always as wide as their header and their longest
        value ("Responded", "↺ can respond"), so they are never cut. Unit and Type get the
        longest name and type of this battle (names of the active player are bold), and
        Status the widest chips on one line, when the window has room. When it has not,
        Status gives way first, down to the widest single chip: the rows whose chips no
        longer fit on a line grow to two or three (``fit_rows``), every chip still whole.
        Then Unit and Type give way, down to half of theirs (the longest names are a unit or
        two, and a type cut loses its die), and only then Status, down to its header; what is
        cut ends with "…" (its tooltip has it in full).
        """
        width = max(self.viewport().width(), 400)
        need = self._needs()
        shares = dict(SHARES)
        if self.isColumnHidden(TYPE):
            del shares[TYPE]
            shares[UNIT], shares[RESPOND] = 0.28, 0.15
        wanted = {c: max(int(width * share), need[c]) for c, share in shares.items()}
        status_least = need[STATUS]  # its header
        status_wrapped = max(self.chip_need + 1, status_least)  # the widest chip, and the grid
        status = max(self.chips_need + 1, status_wrapped)  # the widest chips on one line
        over = sum(wanted.values()) + status - width
        # First what the shares add beyond the need, then Status (its rows grow), Unit and
        # Type, and Status again down to its header give way.
        for c in (TYPE, UNIT, RESPOND, COUNTERS, ACTION):
            if c in wanted:
                give = max(0, min(over, wanted[c] - need[c]))
                wanted[c] -= give
                over -= give
        over -= max(0, min(over, status - status_wrapped))
        for c in (UNIT, TYPE):
            if c in wanted:
                give = max(0, min(over, wanted[c] - need[c] // 2))
                wanted[c] -= give
                over -= give
        for column, w in wanted.items():
            self.setColumnWidth(column, w)

    def _needs(self) -> dict[int, int]:
        """Each sized column's width for its longest value and its header (pixels).

        Measured once per set of units and fonts, not at each resize: a 500-unit battle has
        500 names to measure (about 5 ms), and the table resizes several times as it opens."""
        header = self.horizontalHeader().font()
        fonts = (self.font().key(), header.key())
        if self._measured is not None:
            units, measured_fonts, need = self._measured
            if units is self.units and measured_fonts == fonts:
                return need
        bold = QFont(self.font())
        bold.setBold(True)
        fm = self.fontMetrics()
        bfm = QFontMetrics(bold)
        hfm = QFontMetrics(header)
        names = {t.name for t in self.units} or {"First Mate Barnacle"}
        types = {f"{t.type_name} d{t.stats.action_die}" for t in self.units} or {"Skirmisher d6"}
        content = {
            UNIT: max(bfm.horizontalAdvance(n) for n in names),
            TYPE: max(fm.horizontalAdvance(t) for t in types),
            ACTION: fm.horizontalAdvance("Responded"),
            COUNTERS: fm.horizontalAdvance("10 / 10"),
            RESPOND: fm.horizontalAdvance(RESPOND_MARK),
        }
        need = {c: max(w, hfm.horizontalAdvance(COLUMNS[c])) + PAD for c, w in content.items()}
        need[STATUS] = hfm.horizontalAdvance(COLUMNS[STATUS]) + PAD
        self._measured = (self.units, fonts, need)
        return need

    # -- the focus ---------------------------------------------------------------------------

    def focusOutEvent(self, event: QFocusEvent) -> None:
        """Only what shows the focus is painted again: the frame and the current row.

        Qt's item view repaints every visible cell when the focus comes or goes (about 180
        cells on a 500-unit battle, ~7 ms here), and the focus goes at every form the panel
        opens (Q, A, S) and comes back when it closes. Nothing else in a cell depends on the
        focus: the selection's colours are the window's, not the focus's."""
        self._show_focus()  # what QAbstractItemView's own does, but for the whole table

    def focusInEvent(self, event: QFocusEvent) -> None:
        # Qt's own makes a current index if there is none: it runs, its repaint of every
        # cell held back (the flag is what update() checks; setUpdatesEnabled would repaint).
        held = Qt.WidgetAttribute.WA_UpdatesDisabled
        widgets = (self, self.viewport())
        already = [w.testAttribute(held) for w in widgets]
        for w in widgets:
            w.setAttribute(held, True)
        try:
            super().focusInEvent(event)
        finally:
            for w, was in zip(widgets, already, strict=True):
                w.setAttribute(held, was)
        self._show_focus()

    def _show_focus(self) -> None:
        self.update(QRegion(self.rect()).subtracted(QRegion(self.contentsRect())))
        current = self.currentIndex()
        if current.isValid():
            cell = self.visualRect(current)
            self.viewport().update(0, cell.top(), self.viewport().width(), cell.height())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.viewport() and event.type() == QEvent.Type.Resize:
            self.size_columns()
        return False
