"""Table models of the battle panel: the units grouped by player, and the battle log.

``BattleUnitModel`` is a flat table: a header row per player (the active player first, then the
others in turn order), each followed by that player's units that pass the filters, living units
first and dead or removed ones last. ``set_view`` takes the tracker's new ``BattleView`` and
changes the model in place: rows of the units the view says changed
(``BattleView.changed_units``) get ``dataChanged``, rows that leave or
join the filtered set are removed or inserted, the groups' new order is a ``layoutChanged``
(persistent indexes, hence the selection, follow the units). Only a new battle resets it.

A unit row's display values (its record, ``RowRole``) are made when the row is first painted
and dropped when the tracker says that unit changed, so a repaint costs a dictionary look-up
per cell.

``LogModel`` lists the log newest first; a change at the end of the log (new events, undone
ones) inserts or removes rows at the top.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractListModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
    SignalInstance,
)
from PySide6.QtGui import QBrush, QColor, QFont

from brikdesk.domain.battle import (
    MAX_CLOSE_COMBAT_ATTACKERS,
    ActionState,
    BattleState,
    Status,
    UnitState,
    can_respond_now,
    close_combat_sides,
    why_not_respond,
)
from brikdesk.domain.battle.busy import busy_text
from brikdesk.domain.ids import BattleId, BattleUnitId, PlayerId
from brikdesk.services.tracker import BattleView, LoggedEvent, TrackedUnit
from brikdesk.words import plural
from ui.glyphs import warning_sign
from ui.models.table import IdRole
from ui.panels.theme import NORMAL, Theme, action_colour, normal_theme, readable_on, tint

Index = QModelIndex | QPersistentModelIndex

#: For a group (player header) row: the player's id; ``None`` for unit rows.
GroupRole = Qt.ItemDataRole.UserRole + 10
#: For the Status column: ``[(chip key, label), ...]`` (the delegate paints them).
ChipsRole = Qt.ItemDataRole.UserRole + 11
#: For the whole row: whether it belongs to the active player.
ActiveRole = Qt.ItemDataRole.UserRole + 12
#: For any cell: the row's display record (:class:`UnitRow` or :class:`LineRow`), so a
#: delegate paints a cell from one look-up instead of one ``data()`` call per role.
RowRole = Qt.ItemDataRole.UserRole + 13

UNIT, TYPE, ACTION, COUNTERS, STATUS, RESPOND = range(6)
COLUMNS = ("Unit", "Type", "Action", "Counters", "Status", "Respond")

_ACTION_TEXT = {
    ActionState.READY: "Ready",
    ActionState.SPENT_OWN_TURN: "Spent",
    ActionState.HELD: "Held",
    ActionState.SPENT_RESPONSE: "Responded",
}

RESPOND_MARK = "↺ can respond"

_DISPLAY = Qt.ItemDataRole.DisplayRole
_FOREGROUND = Qt.ItemDataRole.ForegroundRole
_ACCESSIBLE = Qt.ItemDataRole.AccessibleTextRole
_BACKGROUND = Qt.ItemDataRole.BackgroundRole
_FONT = Qt.ItemDataRole.FontRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
_ALIGN = Qt.ItemDataRole.TextAlignmentRole
_CENTER = int(Qt.AlignmentFlag.AlignCenter)
#: A text at the left, centred upright: a line's (header row, log line) and the unit columns'.
LEFT_ALIGN = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
_ROWS_MOVE = QAbstractItemModel.LayoutChangeHint.VerticalSortHint
#: The layout signals' full signature (the hint is its second argument).
_LAYOUT_ARGS = ("QList<QPersistentModelIndex>", "QAbstractItemModel::LayoutChangeHint")


def _with_hint(signal: SignalInstance) -> SignalInstance:
    """A layout signal's overload that takes its hint (PySide's stubs do not index signals)."""
    overloads: Any = signal
    picked: SignalInstance = overloads[_LAYOUT_ARGS]
    return picked


_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_GROUP_FLAGS = Qt.ItemFlag.ItemIsEnabled
_UNIT_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


@dataclass(frozen=True)
class Filters:
    """Which units the table shows: all three checks must hold, and the text must match."""

    can_respond: bool = False
    in_close_combat: bool = False
    not_acted: bool = False
    text: str = ""

    @property
    def active(self) -> bool:
        return self.can_respond or self.in_close_combat or self.not_acted or bool(self.text)


def short_names(state: BattleState, ids: Sequence[BattleUnitId] | frozenset[BattleUnitId]) -> str:
    setup = state.setup
    names = [setup.name(i) for i in sorted(ids) if setup.has_unit(i)]
    if len(names) > 3:
        return ", ".join(names[:3]) + f" +{len(names) - 3}"
    return ", ".join(names)


def unit_chips(state: BattleState, u: UnitState, minifig: bool) -> list[tuple[str, str]]:
    """The status chips of a unit, in a fixed order: ``[(key, label), ...]``. In Close Combat
    is crossed swords before the opponents' names (the tooltip says it in words)."""
    chips: list[tuple[str, str]] = []
    for status in u.statuses:
        if status is Status.IN_CLOSE_COMBAT:
            chips.append(("in_close_combat", "⚔ " + short_names(state, u.close_combat)))
        elif status is Status.GRABBED:
            chips.append(("grabbed", "Grabbed by " + short_names(state, u.grabbed_by)))
        elif status is Status.GRABBING:
            chips.append(("grabbing", "Grabbing " + short_names(state, u.grabbing)))
        elif status is Status.RECOVERING:
            chips.append(("recovering", "Recovering: Half Speed"))
        elif status is Status.BUSY:  # what and until when (4.2 Long Actions)
            chips.append(("busy", busy_text(state, u.unit_id)))
        else:
            chips.append((status.value, status.label))
    if u.close_combat and u.in_battle:
        ours, theirs = close_combat_sides(state, u.unit_id)
        if ours < theirs:
            chips.append(("outnumbered", f"Outnumbered {ours}v{theirs}: -1"))
    if u.attackers and u.in_battle:
        n = len(u.attackers)
        chips.append(
            (
                "attackers",
                f"Attacked {n}/{MAX_CLOSE_COMBAT_ATTACKERS}" if minifig else f"Attacked by {n}",
            )
        )
    return chips


class UnitRow:
    """A unit row's display values, made once per change of the unit: for the delegates, per
    column, ``texts``, ``colours``, ``fonts`` (``None``: the view's font) and ``aligns``, with
    the chips; for a view's other questions, the value of each role of each cell
    (``cells[column][role]``, made when first asked)."""

    __slots__ = (
        "uid",
        "texts",
        "colours",
        "background",
        "font",
        "chips",
        "fonts",
        "background_brush",
        "_cells",
    )

    #: Centred counts, the rest at the left (as ints for the model's answers, as flags for a
    #: style option).
    aligns = tuple(_CENTER if c in (ACTION, COUNTERS) else LEFT_ALIGN for c in range(len(COLUMNS)))
    align_flags = tuple(Qt.AlignmentFlag(a) for a in aligns)

    def __init__(
        self,
        uid: BattleUnitId,
        texts: tuple[str, ...],
        colours: tuple[QColor, ...],
        background: QColor | None,
        font: QFont | None,
        chips: list[tuple[str, str]],
        dead_font: QFont,
    ) -> None:
        self.uid = uid
        self.texts = texts
        self.colours = colours
        self.background = background
        self.background_brush = None if background is None else QBrush(background)
        self.font = font
        self.chips = chips
        self.fonts = (
            (font,) * len(COLUMNS) if font is dead_font else (font,) + (None,) * (len(COLUMNS) - 1)
        )
        self._cells: tuple[dict[int, object], ...] | None = None

    @property
    def cells(self) -> tuple[dict[int, object], ...]:
        if self._cells is None:
            status = " · ".join(label for _k, label in self.chips)
            self._cells = tuple(
                {
                    _DISPLAY: status if c == STATUS else self.texts[c],
                    _FOREGROUND: self.colours[c],
                    _BACKGROUND: self.background,
                    _FONT: self.fonts[c],
                    ChipsRole: self.chips if c == STATUS else None,
                    IdRole: self.uid,
                    _ALIGN: self.aligns[c],
                }
                for c in range(len(COLUMNS))
            )
        return self._cells


class LineRow:
    """A row painted as one line of text across the table (a player's header, a line of the
    log): its text in its colours and font (``None``: the view's own)."""

    __slots__ = ("text", "tip", "background", "foreground", "font", "background_brush")

    align_flag = Qt.AlignmentFlag(LEFT_ALIGN)

    def __init__(
        self, text: str, tip: str, background: QColor | None, foreground: QColor, font: QFont | None
    ) -> None:
        self.text = text
        self.tip = tip
        self.background = background
        self.background_brush = None if background is None else QBrush(background)
        self.foreground = foreground
        self.font = font


class BattleUnitModel(QAbstractTableModel):
    """The units of one battle, grouped by player; see the module docstring."""

    groups_changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._view: BattleView | None = None
        self._state: BattleState | None = None
        self._rows: list[Any] = []  # ("g", player_id) for a header, else a unit id
        self._row_of: dict[Any, int] = {}
        self._filters = Filters()
        self._theme = NORMAL
        #: The records of the unit rows painted since their units last changed.
        self._unit_rows: dict[BattleUnitId, UnitRow] = {}
        #: The players' header rows painted since the last change.
        self._group_rows: dict[PlayerId, LineRow] = {}
        self._by_player: dict[PlayerId, tuple[BattleUnitId, ...]] = {}
        self._base_font = QFont()
        self._fonts: dict[str, QFont] = {}
        self._make_fonts()

    # -- what it shows ----------------------------------------------------------------------

    @property
    def view(self) -> BattleView | None:
        return self._view

    @property
    def state(self) -> BattleState | None:
        return self._state

    @property
    def filters(self) -> Filters:
        return self._filters

    def set_view(self, view: BattleView) -> None:
        """Show ``view``: in place when it is the same battle, else a full reload."""
        old = self._view
        if old is None or old.id != view.id or old.setup is not view.setup:
            self.beginResetModel()
            self._view, self._state = view, view.state
            self._by_player = {
                p.id: tuple(u.unit_id for u in view.setup.units_of(p.id)) for p in view.players
            }
            self._unit_rows.clear()
            self._group_rows.clear()
            self._rows = self._layout()
            self._row_of = {k: i for i, k in enumerate(self._rows)}
            self.endResetModel()
            self.groups_changed.emit()
            return
        after = view.state
        told = view.changed_units(old)  # the tracker says which units changed (None: all)
        self._view, self._state = view, after
        every = told is None
        changed = told or ()
        if not every and not changed:
            return  # the same rows, the same values (the log or the name may have changed)
        if every or len(changed) > 64:
            self._unit_rows.clear()
        else:
            for uid in changed:
                self._unit_rows.pop(uid, None)
        self._group_rows.clear()
        rows = self._layout()
        if rows != self._rows:
            self._apply_rows(rows)
        last = self.columnCount() - 1
        if every or len(changed) > 64:
            if self._rows:
                self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, last))
            return
        for uid in changed:
            r = self._row_of.get(uid)
            if r is not None:
                self.dataChanged.emit(self.index(r, 0), self.index(r, last))
        for pid in {after.setup.unit(uid).player_id for uid in changed}:
            r = self._row_of.get(("g", pid))
            if r is not None:
                self.dataChanged.emit(self.index(r, 0), self.index(r, last))

    def set_filters(self, filters: Filters) -> None:
        if filters == self._filters:
            return
        self._filters = filters
        if self._view is not None:
            self._apply_rows(self._layout())

    def set_theme(self, theme: Theme, base_font: QFont) -> None:
        self.beginResetModel()
        self._theme = theme
        self._base_font = QFont(base_font)
        self._make_fonts()
        self._unit_rows.clear()
        self._group_rows.clear()
        self.endResetModel()
        self.groups_changed.emit()

    # -- rows -------------------------------------------------------------------------------

    def unit_ids(self) -> list[BattleUnitId]:
        """The unit rows as shown, top to bottom."""
        return [k for k in self._rows if not isinstance(k, tuple)]

    def row_keys(self) -> list[Any]:
        """Every row's key top to bottom: a unit id, or ``("g", player id)`` for a header."""
        return list(self._rows)

    def group_rows(self) -> list[int]:
        """The rows of the players' headers, top to bottom (found by key: one per player)."""
        rows = (self._row_of.get(("g", pid), -1) for pid in self._by_player)
        return sorted(r for r in rows if r >= 0)

    def unit_at(self, row: int) -> BattleUnitId | None:
        if 0 <= row < len(self._rows):
            key = self._rows[row]
            return None if isinstance(key, tuple) else key
        return None

    def row_of_unit(self, unit_id: BattleUnitId) -> int:
        return self._row_of.get(unit_id, -1)

    def index_of_unit(self, unit_id: BattleUnitId, column: int = 0) -> QModelIndex:
        r = self._row_of.get(unit_id, -1)
        return self.index(r, column) if r >= 0 else QModelIndex()

    def _passes(self, state: BattleState, u: UnitState, tracked: TrackedUnit) -> bool:
        f = self._filters
        if f.can_respond and not can_respond_now(state, u.unit_id):
            return False
        if f.in_close_combat and not (u.close_combat and u.in_battle):
            return False
        if f.not_acted and (u.action.spent or not u.in_battle):
            return False
        if f.text:
            needle = f.text.casefold()
            hay = f"{tracked.name} {tracked.type_name} {tracked.player_name}".casefold()
            if needle not in hay:
                return False
        return True

    def _layout(self) -> list[Any]:
        view, state = self._view, self._state
        if view is None or state is None:
            return []
        rows: list[Any] = []
        filtering = self._filters.active
        index = view.setup.unit_index
        units = state.units
        for p in state.players_from_active():
            rows.append(("g", p.player_id))
            fallen = []
            for uid in self._by_player.get(p.player_id, ()):
                u = units[index[uid]]
                if filtering and not self._passes(state, u, view.units[index[uid]]):
                    continue
                if u.in_battle:
                    rows.append(uid)
                else:
                    fallen.append(uid)
            rows.extend(fallen)
        return rows

    def _reindex(self) -> None:
        self._row_of = {k: i for i, k in enumerate(self._rows)}

    def _apply_rows(self, new: list[Any]) -> None:
        """Change the shown rows to ``new`` with removes, one move and inserts (no reset)."""
        old = self._rows
        new_set = set(new)
        groups_before = self.group_rows()
        # 1. Remove rows that are no longer shown, bottom up, in contiguous runs.
        gone = [i for i, k in enumerate(old) if k not in new_set]
        for first, last in reversed(_runs(gone)):
            self.beginRemoveRows(QModelIndex(), first, last)
            del self._rows[first : last + 1]
            self.endRemoveRows()
        if gone:
            self._reindex()
        # 2. Reorder what stays (a layout change: persistent indexes follow their keys).
        staying = set(self._rows)
        target = [k for k in new if k in staying]
        if target != self._rows:
            # Rows move, columns stay: the column header need not look at its sections again.
            _with_hint(self.layoutAboutToBeChanged).emit([], _ROWS_MOVE)
            persistent = self.persistentIndexList()
            keys = [
                self._rows[p.row()] if 0 <= p.row() < len(self._rows) else None for p in persistent
            ]
            self._rows = target
            self._reindex()
            moved_to = []
            for p, key in zip(persistent, keys, strict=True):
                r = self._row_of.get(key, -1) if key is not None else -1
                moved_to.append(self.index(r, p.column()) if r >= 0 else QModelIndex())
            self.changePersistentIndexList([QModelIndex(p) for p in persistent], moved_to)
            _with_hint(self.layoutChanged).emit([], _ROWS_MOVE)
        # 3. Insert the rows that are new, top down, in contiguous runs.
        added = [j for j, k in enumerate(new) if k not in self._row_of]
        for first, last in _runs(added):
            self.beginInsertRows(QModelIndex(), first, last)
            self._rows[first:first] = new[first : last + 1]
            self.endInsertRows()
        if added:
            self._reindex()
        if self.group_rows() != groups_before:
            self.groups_changed.emit()

    # -- display values -------------------------------------------------------------------------

    def _make_fonts(self) -> None:
        base = QFont(self._base_font)
        bold = QFont(base)
        bold.setBold(True)
        group = QFont(base)
        group.setBold(True)
        group.setPointSizeF(max(base.pointSizeF(), 1.0) * 1.12)
        dead = QFont(base)
        dead.setStrikeOut(True)
        self._fonts = {"bold": bold, "group": group, "dead": dead}

    def _unit_row(self, uid: BattleUnitId) -> UnitRow:
        row = self._unit_rows.get(uid)
        if row is not None:
            return row
        view, state, theme = self._view, self._state, self._theme
        assert view is not None and state is not None
        i = view.setup.unit_index[uid]
        u = state.units[i]
        t = view.units[i]
        active = u.player_id == state.active
        chips = unit_chips(state, u, t.minifig)
        if not u.in_battle:
            texts = (t.name, t.type_name, "Dead" if u.dead else "Out", "", "", "")
            row = UnitRow(
                uid,
                texts,
                (QColor(theme.dead_text),) * 6,
                None,
                self._fonts["dead"],
                chips,
                self._fonts["dead"],
            )
        else:
            counters = f"{u.counters_used} / {u.counters}" if u.counters else "—"
            action = _ACTION_TEXT[u.action]
            respond = RESPOND_MARK if can_respond_now(state, uid) else ""
            texts = (t.name, f"{t.type_name} d{t.stats.action_die}", action, counters, "", respond)
            names = (
                theme.text,
                theme.muted,
                action_colour(theme, u.action),
                theme.text if u.close_combat else theme.muted,
                theme.text,
                theme.respond_marker,
            )
            row = UnitRow(
                uid,
                texts,
                tuple(QColor(n) for n in names),
                QColor(theme.active_row) if active else None,
                self._fonts["bold"] if active else None,
                chips,
                self._fonts["dead"],
            )
        self._unit_rows[uid] = row
        return row

    def _group_row(self, pid: PlayerId) -> LineRow:
        cached = self._group_rows.get(pid)
        if cached is not None:
            return cached
        view, state = self._view, self._state
        assert view is not None and state is not None
        p = view.player(pid)
        index = view.setup.unit_index
        mustered = self._by_player.get(pid, ())
        shown = (
            sum(
                1
                for k in self._rows
                if not isinstance(k, tuple) and state.units[index[k]].player_id == pid
            )
            if self._filters.active
            else None
        )
        active = pid == state.active
        alive = willing = fighting = 0  # willing: Actions ready (active), else may respond
        all_units = state.units
        for uid in mustered:  # one pass: a player may have hundreds
            u = all_units[index[uid]]
            if not u.in_battle:
                continue
            alive += 1
            if u.action is ActionState.READY if active else u.may_respond:
                willing += 1
            if u.close_combat:
                fighting += 1
        fallen = len(mustered) - alive
        parts = []
        if active:
            head = f"▶  {p.name}  ·  ACTIVE"
            parts.append(f"{willing} of {alive} Actions ready")
        else:
            head = p.name
            parts.append(f"{willing} of {alive} can respond")
        if fighting:
            parts.append(f"{fighting} in Close Combat")
        if fallen:
            parts.append(f"{fallen} fallen")
        if shown is not None:
            parts.append(f"{shown} shown")
        text = head + "   —   " + "  ·  ".join(parts)
        tip = (
            f"{p.name} ({p.faction})" if p.faction else p.name
        ) + f": {plural(len(mustered), 'unit')} mustered"
        colour = p.colour if pid == state.active else tint(p.colour, self._theme.window, 0.72)
        row = LineRow(text, tip, QColor(colour), QColor(readable_on(colour)), self._fonts["group"])
        self._group_rows[pid] = row
        return row

    # -- QAbstractTableModel ------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == _DISPLAY
            and 0 <= section < len(COLUMNS)
        ):
            return COLUMNS[section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        r = index.row()
        rows = self._rows
        if not 0 <= r < len(rows):
            return _NO_FLAGS
        return _GROUP_FLAGS if type(rows[r]) is tuple else _UNIT_FLAGS

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        r = index.row()
        c = index.column()
        rows = self._rows
        if not (0 <= r < len(rows)) or not (0 <= c < len(COLUMNS)):
            return None
        key = rows[r]
        if type(key) is tuple:
            return self._group_data(key[1], c, role)
        if role == IdRole:  # asked of every row when rows move: no display record needed
            return key
        if role == GroupRole:
            return None
        row = self._unit_row(key)
        if role == RowRole:  # the delegates' one question per cell
            return row
        if role == _ACCESSIBLE and c == 0:
            return self._spoken(key, row)
        cells = row.cells[c]
        if role in cells:
            return cells[role]
        if role == ActiveRole:
            state = self._state
            return state is not None and state.unit(key).player_id == state.active
        if role == _TOOLTIP:
            return self._unit_tooltip(key, c)
        return None

    def _spoken(self, uid: BattleUnitId, row: UnitRow) -> str:
        """What a screen reader says of a unit's row: its name, its owner and its state (the
        words the row shows, never its colours alone)."""
        view, state = self._view, self._state
        owner = ""
        if view is not None and state is not None:
            owner = view.player(state.unit(uid).player_id).name
        words = [row.texts[0], f"{owner}'s" if owner else "", *row.texts[2:4]]
        words += [label for _key, label in row.chips]
        words.append(row.texts[5])
        return ", ".join(w for w in words if w and w != "—")

    def _group_data(self, pid: PlayerId, c: int, role: int) -> Any:
        state = self._state
        assert state is not None
        if role == _DISPLAY:
            return self._group_row(pid).text if c == 0 else ""
        if role == RowRole:
            return self._group_row(pid)
        if role == GroupRole:
            return pid
        if role == _BACKGROUND:
            return self._group_row(pid).background
        if role == _FOREGROUND:
            return self._group_row(pid).foreground
        if role == _FONT:
            return self._fonts["group"]
        if role == _TOOLTIP:
            return self._group_row(pid).tip
        if role == ActiveRole:
            return pid == state.active
        return None

    def _unit_tooltip(self, uid: BattleUnitId, column: int) -> str:
        view, state = self._view, self._state
        assert view is not None and state is not None
        t = view.unit(uid)
        u = state.unit(uid)
        s = t.stats
        lines = [f"{t.name} ({t.player_name}) — {t.type_name}" + (f", {t.army}" if t.army else "")]
        lines.append(
            f'Action d{s.action_die} · Move {s.move}" · Armor {s.armor}'
            + (f" · Deflection {s.deflection}" if s.deflection else "")
        )
        if column == ACTION:
            lines.append(u.action.label)
            why = why_not_respond(state, uid)
            if u.player_id != state.active:
                lines.append("It can respond now (4.3)." if why is None else why)
        elif column == COUNTERS:
            lines.append(
                f"Counters used this player turn: {u.counters_used} of "
                f"{u.counters} (one per weapon or empty hand, 5.2)"
            )
            if not u.close_combat:
                lines.append("Counters are for Close Combat; Parries and maneuvers use hands too.")
        elif column == STATUS:
            if u.close_combat:
                lines.append(
                    "In Close Combat with "
                    + ", ".join(view.setup.label(i) for i in sorted(u.close_combat))
                )
            chips = unit_chips(state, u, t.minifig)
            lines.extend(label for key, label in chips if key != "in_close_combat")
        else:
            held = [view.catalog.get_item(k) for k in t.loadout.held]
            names = [it.name if it is not None else "?" for it in held]
            if names:
                lines.append("In hand: " + ", ".join(names))
            lines.extend(t.notes)
        return "\n".join(lines)


def _runs(positions: list[int]) -> list[tuple[int, int]]:
    """``[1, 2, 3, 7, 8]`` -> ``[(1, 3), (7, 8)]``."""
    out: list[tuple[int, int]] = []
    for p in positions:
        if out and out[-1][1] == p - 1:
            out[-1] = (out[-1][0], p)
        else:
            out.append((p, p))
    return out


# -- the log -------------------------------------------------------------------------------------


class LogModel(QAbstractListModel):
    """The battle log, newest first. ``IdRole`` is the event id."""

    def __init__(
        self, parent: QObject | None = None, theme: Callable[[], Theme] | None = None
    ) -> None:
        super().__init__(parent)
        self._events: list[LoggedEvent] = []  # oldest first; row r shows events[-1 - r]
        self._battle: BattleId | None = None
        self._theme = theme or normal_theme
        self._italic = QFont()
        self._italic.setItalic(True)

    def events(self) -> list[LoggedEvent]:
        """As shown: newest first."""
        return self._events[::-1]

    def set_events(self, battle_id: BattleId, events: Sequence[LoggedEvent]) -> None:
        new = list(events)
        if battle_id != self._battle:
            self.beginResetModel()
            self._battle = battle_id
            self._events = new
            self.endResetModel()
            return
        old = self._events
        n = min(len(old), len(new))
        k = _same_start(old, new, n)
        # From k on, events that stayed in their place (undone or redone) change in place: only
        # their rows repaint. The rows above j (the newest) are new: removed, then inserted.
        j = k
        while j < n and old[j].id == new[j].id:
            j += 1
        if len(old) > j:
            self.beginRemoveRows(QModelIndex(), 0, len(old) - j - 1)
            self._events = old[:j]
            self.endRemoveRows()
        if len(new) > j:
            self.beginInsertRows(QModelIndex(), 0, len(new) - j - 1)
            self._events = old[:j] + new[j:]
            self.endInsertRows()
        self._events = new
        last = len(new) - 1
        for first, end in _runs(list(range(k, j))):
            self.dataChanged.emit(self.index(last - end), self.index(last - first))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._events)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        r = index.row()
        if not (0 <= r < len(self._events)):
            return None
        e = self._events[-1 - r]
        if role == RowRole:
            return self._line(e)
        if role == _DISPLAY:
            return log_line(e)
        if role == IdRole:
            return e.id
        if role == _FOREGROUND:
            theme = self._theme()
            return QColor(theme.muted if (e.reverted or e.problem) else theme.text)
        if role == _FONT:
            return self._italic if e.reverted else None
        if role == _TOOLTIP:
            return log_tooltip(e)
        return None

    def _line(self, e: LoggedEvent) -> LineRow:
        """The event's line as painted."""
        theme = self._theme()
        return LineRow(
            log_line(e),
            "",
            None,
            QColor(theme.muted if (e.reverted or e.problem) else theme.text),
            self._italic if e.reverted else None,
        )


def _same_start(old: list[LoggedEvent], new: list[LoggedEvent], n: int) -> int:
    """How many of the first ``n`` events are the same in ``old`` and ``new`` (the battle's
    history up to the newest few): compared a block at a time (a list comparison, which
    first checks whether two items are the very same object), then one by one in the block
    where they part."""
    k = 0
    while k < n:
        end = min(n, k + 256)
        if old[k:end] == new[k:end]:
            k = end
            continue
        while k < end and (old[k] is new[k] or old[k] == new[k]):
            k += 1
        return k
    return k


def log_line(e: LoggedEvent) -> str:
    if e.reverted:
        return f"↶ undone — {e.text}"
    when = f"R{e.round} {e.player}" if e.round is not None else ""
    mark = f"{warning_sign()} " if e.problem else ""
    return f"{when}  ·  {mark}{e.text}" if when else mark + e.text


@functools.lru_cache(maxsize=4096)
def _local_time(when: datetime) -> str:
    """When an event was recorded, in the local time zone (each is written once)."""
    return when.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def log_tooltip(e: LoggedEvent) -> str:
    lines = [e.text]
    if e.note and e.note != e.text:
        lines.append(e.note)
    if e.round is not None:
        lines.append(f"Round {e.round}, {e.player}'s turn")
    if e.time is not None:
        lines.append(_local_time(e.time))
    if e.reverted:
        lines.append("Undone: Redo brings it back; a new action drops it.")
    if e.problem:
        lines.append(f"{warning_sign()} {e.problem}")
    return "\n".join(lines)
