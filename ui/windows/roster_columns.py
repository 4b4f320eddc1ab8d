"""The roster table's columns: as wide as their texts, until the organizer sets widths by hand.

Columns are fitted to their texts when the window is first shown, whenever the table's width
changes (one fit per burst of resizes) and whenever its rows change. A column the organizer widens or narrows by hand makes
the widths their own: they are stored with the window's layout and never fitted again. The Name
column always widens to the longest name (up to ``NAME_CHARS`` characters), and the header's
context menu shows or hides columns.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QPoint, Qt, QTimer
from PySide6.QtWidgets import QMainWindow, QMenu, QStyle

from ui.models.roster import HANDS, NAME, UnitTableModel
from ui.settings import AppSettings
from ui.widgets.common import fit_columns
from ui.windows.roster_table import RosterTable

__all__ = ["NAME_CHARS", "OWN_COLUMNS_KEY", "RosterColumns"]

#: True when the roster's column widths are the organizer's own (set by hand): stored as they
#: are; otherwise the columns are fitted to their texts whenever the table's width changes.
OWN_COLUMNS_KEY = "roster/own_columns"
#: The most characters of a name the Name column widens for (longer names end in "…").
NAME_CHARS = 40
#: Where the header's state (order, widths, hidden columns) is stored.
HEADER_KEY = "roster/header"


class RosterColumns(QObject):
    """The column widths of ``table`` in ``window`` (see the module)."""

    def __init__(self, window: QMainWindow, table: RosterTable, model: UnitTableModel) -> None:
        super().__init__(window)
        self._window = window
        self._table = table
        self._model = model
        self._fitting = False  # the columns are being fitted (not resized by the organizer)
        self.own_widths = False  # the organizer's own widths are shown
        #: Fit when first shown (the table's width is known then), unless the widths are own.
        self._fit_pending = True
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self.fit)
        hh = table.horizontalHeader()
        hh.sectionResized.connect(self._section_resized)
        hh.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        hh.customContextMenuRequested.connect(self._header_menu)
        table.width_changed.connect(self._table_resized)

    def restore(self, settings: AppSettings) -> None:
        """The header as the organizer left it (its widths count as theirs only if flagged)."""
        header = settings.get_bytes(HEADER_KEY)
        self.own_widths = False
        if header is not None:
            hh = self._table.horizontalHeader()
            self._fitting = True
            restored = hh.restoreState(header)
            self._fitting = False
            hh.setStretchLastSection(False)
            hh.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
            self.own_widths = restored and settings.get_bool(OWN_COLUMNS_KEY)
        self._fit_pending = not self.own_widths

    def save(self, settings: AppSettings) -> None:
        settings.save_bytes(HEADER_KEY, self._table.horizontalHeader().saveState())
        settings.set(OWN_COLUMNS_KEY, self.own_widths)

    def shown(self) -> None:
        """The window is shown: the first time, fit the columns in the laid-out width."""
        if self._fit_pending:
            self._fit_pending = False
            for widget in (self._window, self._window.centralWidget()):
                layout = widget.layout() if widget is not None else None
                if layout is not None:
                    layout.activate()
            self.fit()
        self.fit_names()

    def fit(self) -> None:
        """Fit the columns to their texts in the table's width (names and what units hold
        give up room last), unless the organizer set their own widths."""
        if self.own_widths:
            return
        self._fitting = True
        try:
            fit_columns(self._table, give_last=(NAME, HANDS))
        finally:
            self._fitting = False

    def rows_changed(self) -> None:
        """Units were added, removed or changed: fit the columns to the texts shown now (a
        new "Skirmisher" row is not cut to "Skirm…" beside an empty part of the table)."""
        if self._window.isVisible():
            self.fit()
            self.fit_names()

    def fit_names(self) -> None:
        """Widen the Name column to its longest name (up to ``NAME_CHARS`` characters): the
        name is what tells units apart, so it is never the column cut short."""
        table = self._table
        fm = table.fontMetrics()
        names = sorted((r.name for r in self._model.all_rows()), key=len, reverse=True)[:12]
        widest = max((fm.horizontalAdvance(n) for n in names), default=0)
        pad = 2 * table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table)
        pad += 12
        needed = min(widest + pad, fm.averageCharWidth() * NAME_CHARS + pad)
        if table.columnWidth(NAME) < needed:
            fitting, self._fitting = self._fitting, True
            table.setColumnWidth(NAME, needed)
            self._fitting = fitting

    def _section_resized(self, *_args: object) -> None:
        """A column the organizer widened or narrowed by hand: their widths from now on (and
        in later sessions) instead of fitting them to the texts."""
        if not self._fitting and self._window.isVisible():
            self.own_widths = True

    def _table_resized(self) -> None:
        """The table's width changed: fit the columns again (unless they are the organizer's)."""
        if not self.own_widths and self._window.isVisible():
            self._fit_timer.start()

    def _header_menu(self, pos: QPoint) -> None:
        hh = self._table.horizontalHeader()
        menu = QMenu(self._window)
        for i, col in enumerate(self._model.columns):
            action = menu.addAction(col.title)
            action.setCheckable(True)
            action.setChecked(not hh.isSectionHidden(i))
            action.setEnabled(i != NAME)
            action.toggled.connect(lambda on, i=i: hh.setSectionHidden(i, not on))
        menu.popup(hh.mapToGlobal(pos))
