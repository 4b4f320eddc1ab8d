"""Rows that stay still under the pointer.

After End Turn the unit table puts the new active player on top; a row moving under the mouse
is a row clicked by mistake. While the pointer is over the table, :class:`StillRows` holds
every row where the user saw it: when the model reorders its rows, the table's (hidden)
vertical header moves its sections so that each row stays in its place on screen; the new order
is shown when the pointer leaves the table, or after it has rested for ``PAUSE_MS``. Clicks,
keys and selections follow the rows as shown (the header maps what is shown to the model's
rows), so the model itself is never held back.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QTableView

from ui.models.table import IdRole
from ui.panels.battle_model import GroupRole

#: After this long without the pointer moving over the table, the new order is shown.
PAUSE_MS = 2500


class StillRows(QObject):
    """Holds the rows of ``table`` still while the pointer is over it; see the module."""

    def __init__(self, table: QTableView, pause_ms: int = PAUSE_MS) -> None:
        super().__init__(table)
        self.table = table
        self.header = table.verticalHeader()
        self._over = False
        self._moved = False  # whether sections were moved since the last release
        self._shown: list[Any] = []  # the row keys top to bottom, as last shown
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(pause_ms)
        self.timer.timeout.connect(self.release)
        model = table.model()
        for signal in (
            model.layoutChanged,
            model.rowsInserted,
            model.rowsRemoved,
            model.modelReset,
        ):
            signal.connect(self._rows_changed)
        table.viewport().installEventFilter(self)
        self._shown = self.keys_shown()

    @property
    def holding(self) -> bool:
        """Whether rows are shown out of the model's order (waiting for the pointer)."""
        if not self._moved:  # sections moved only here: none since the last release
            return False
        h = self.header
        return any(h.logicalIndex(v) != v for v in range(h.count()))

    def _key(self, row: int) -> Any:
        index = self.table.model().index(row, 0)
        group = index.data(GroupRole)
        return ("g", group) if group is not None else index.data(IdRole)

    def model_keys(self) -> list[Any]:
        """The rows' keys in the model's order (from the model at once when it lists them)."""
        model = self.table.model()
        listed = getattr(model, "row_keys", None)
        if listed is not None:
            return list(listed())
        return [self._key(r) for r in range(model.rowCount())]

    def keys_shown(self) -> list[Any]:
        """The rows' keys (a unit id, or ``("g", player id)``) top to bottom, as shown."""
        h = self.header
        return [self._key(h.logicalIndex(v)) for v in range(h.count())]

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.Enter, QEvent.Type.MouseMove, QEvent.Type.HoverMove):
            self._over = True
            if self.holding:
                self.timer.start()
        elif kind == QEvent.Type.Leave:
            self._over = False
            self.release()
        return False

    def release(self) -> None:
        """Show the model's order now."""
        self.timer.stop()
        h = self.header
        if self.holding:
            for v in range(h.count()):
                h.moveSection(h.visualIndex(v), v)
        self._moved = False
        self._shown = self.model_keys()  # shown in the model's order now

    def _rows_changed(self, *_args: object) -> None:
        h = self.header
        model = self.table.model()
        if not self._over or model.rowCount() != h.count():
            self.release()
            return
        before = {k: i for i, k in enumerate(self._shown)}
        rows = range(model.rowCount())
        keys = self.model_keys()
        # Rows seen before stay in their order; a new row goes after the row above it in the
        # model's order (or first).
        place: dict[int, float] = {}
        last = -1.0
        for r, k in enumerate(keys):
            if k in before:
                last = float(before[k])
                place[r] = last
            else:
                last += 0.001
                place[r] = last
        wanted = sorted(rows, key=lambda r: place[r])
        for v, logical in enumerate(wanted):
            if h.visualIndex(logical) != v:
                self._moved = True
                h.moveSection(h.visualIndex(logical), v)
        self._shown = self.keys_shown()
        if self.holding:
            self.timer.start()
