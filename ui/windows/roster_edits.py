"""Every change the roster window makes: units added, copied, renamed, edited, given another
type, deleted or moved in the roster order, and the army's budget or a copy of the army.

Each is one service call, stored at once and one undo step (``Actions.perform``). Edits of
existing units go with the versions the rows show (a unit someone else changed since is refused,
not overwritten) and tell the window which rows to refresh (``targeted``); additions, deletions
and moves tell it what to select once the roster is read again (``select_after``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMainWindow

from brikdesk.domain.catalog import Catalog
from brikdesk.domain.ids import ArmyId, CampaignId, UnitId
from brikdesk.domain.roster import Loadout
from brikdesk.services.roster import Roster, UnitPatch, UnitRow
from brikdesk.services.summaries import NO_BUDGET, ArmyPatch
from brikdesk.words import plural
from ui.models.roster import NAME, UnitTableModel
from ui.widgets.common import ServicesHost
from ui.windows.roster_table import RosterTable
from ui.windows.unit_dialogs import AddUnitsDialog, ChangeTypeDialog, UnitEditor, adding

__all__ = ["ADD_COUNT_KEY", "DEFAULT_ADD_COUNT", "RosterEdits", "typical_unit"]

#: Where "Add several" remembers how many units it added last.
ADD_COUNT_KEY = "roster/add_count"
#: How many units Add several offers before it has been used.
DEFAULT_ADD_COUNT = 3


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


class RosterEditsHost(ServicesHost, Protocol):
    """What the edits use of the roster window: the army, its campaign, catalog and roster as
    last read, the services, the units' table and its model, the selection, and the dialog
    that asks for a new army (the shell's, handed to the window)."""

    @property
    def army_id(self) -> ArmyId: ...
    @property
    def campaign_id(self) -> CampaignId | None: ...
    @property
    def catalog(self) -> Catalog | None: ...
    @property
    def roster(self) -> Roster | None: ...
    @property
    def model(self) -> UnitTableModel: ...
    @property
    def table(self) -> RosterTable: ...
    @property
    def ask_army(self) -> Callable[..., Any] | None: ...
    def current_row(self) -> UnitRow | None: ...
    def select_units(self, ids: Sequence[UnitId]) -> None: ...
    def selected_ids(self) -> list[UnitId]: ...
    def selected_rows(self) -> list[UnitRow]: ...
    def show_roster_order(self) -> None: ...


class RosterEdits(QObject):
    """The edits of the roster in ``host`` (see the module). A child of ``window``, so that
    the signals connected to its methods go when the window goes."""

    #: Duplicate army made a new army (its id): the shell selects it and opens its roster.
    army_made = Signal(int)

    def __init__(self, window: QMainWindow, host: RosterEditsHost) -> None:
        super().__init__(window)
        self._window = window
        self._w = host
        #: Units an edit made here changes: only their rows are read again.
        self.targeted: tuple[UnitId, ...] | None = None
        #: What to select once the roster is read again (the last one current).
        self.select_after: tuple[UnitId, ...] = ()

    def commit_name(self, row: UnitRow, field: str, text: str) -> bool:
        """A cell edited in place (the table's model asks): only the name is, with the
        version its row shows."""
        w = self._w
        if field != "name":
            return False
        self.targeted = (row.id,)
        done = w.runner.perform(
            lambda: w.services.roster.edit_unit(row.id, UnitPatch(name=text), version=row.version)
        )
        self.targeted = None
        return done is not None

    def perform_edit(self, patches: dict[UnitId, UnitPatch], text: str | None = None) -> bool:
        """Edit existing units (rows refreshed in place, not the whole roster). The versions
        the rows show go along: a unit someone else changed since is refused, not overwritten."""
        w = self._w
        self.targeted = tuple(patches)
        shown = {r.id: r.version for r in w.model.all_rows()}
        versions = {uid: shown[uid] for uid in patches if uid in shown}
        done = w.runner.perform(
            lambda: w.services.roster.edit_units(patches, versions=versions), text
        )
        self.targeted = None
        return done is not None

    def loadout(self, loadouts: dict[UnitId, Loadout], text: str) -> None:
        self.perform_edit({uid: UnitPatch(loadout=lo) for uid, lo in loadouts.items()}, text)

    def add_unit(self) -> tuple[UnitId, ...]:
        """Add unit: the Add units dialog for one unit (type and equipment as Add several)."""
        w = self._w
        return self._add(1, typical_unit(w.model.all_rows()))

    def add_copies(self) -> tuple[UnitId, ...]:
        """Add several: of the army's most common type, equipped like most units of that type,
        as many as last time in any roster (``DEFAULT_ADD_COUNT`` the first time)."""
        w = self._w
        count = w.settings.get_int(ADD_COUNT_KEY, DEFAULT_ADD_COUNT) or DEFAULT_ADD_COUNT
        return self._add(max(1, count), typical_unit(w.model.all_rows()), several=True)

    def add_of_type(self, type_key: str) -> tuple[UnitId, ...]:
        """A unit type dragged from the catalog: Add units of that type (equipped like most
        units of that type here), as many as last time."""
        w = self._w
        same = [r for r in w.model.all_rows() if r.type_key == type_key]
        count = w.settings.get_int(ADD_COUNT_KEY, DEFAULT_ADD_COUNT) or DEFAULT_ADD_COUNT
        return self._add(max(1, count), typical_unit(same), several=True, type_key=type_key)

    def _add(
        self,
        count: int,
        template: UnitRow | None = None,
        *,
        several: bool = False,
        type_key: str | None = None,
    ) -> tuple[UnitId, ...]:
        w = self._w
        if w.catalog is None:
            return ()
        answer = AddUnitsDialog.ask(
            self._window,
            w.catalog,
            type_key=type_key or (template.type_key if template else None),
            count=count,
            template=template,
        )
        if answer is None:
            return ()
        if several:
            w.settings.set(ADD_COUNT_KEY, answer.count)
        ids = w.runner.perform(lambda: adding(w.services.roster, w.army_id, answer))
        if ids:
            w.select_units(ids)
            w.table.setFocus()
        return ids or ()

    def duplicate(self) -> tuple[UnitId, ...]:
        w = self._w
        ids = w.selected_ids()
        if not ids:
            return ()
        new = w.runner.perform(lambda: w.services.roster.duplicate_units(ids))
        if new:
            w.select_units(new)
        return new or ()

    def rename(self) -> None:
        w = self._w
        idx = w.table.currentIndex()
        if idx.isValid():
            w.table.setCurrentIndex(idx.siblingAtColumn(NAME))
            w.table.edit(idx.siblingAtColumn(NAME))

    def edit_unit(self) -> bool:
        w = self._w
        row = w.current_row()
        if row is None or w.catalog is None:
            return False
        patch = UnitEditor.ask(self._window, row, w.catalog)
        if patch is None:
            return False
        return self.perform_edit({row.id: patch})

    def change_type(self) -> bool:
        w = self._w
        rows = w.selected_rows()
        if not rows or w.catalog is None:
            return False
        key = ChangeTypeDialog.ask(self._window, w.catalog, rows[-1].type_key, len(rows))
        if key is None:
            return False
        patches = {r.id: UnitPatch(type_key=key) for r in rows if r.type_key != key}
        if not patches:
            return False
        return self.perform_edit(patches)

    def delete_selected(self) -> bool:
        w = self._w
        rows = w.selected_rows()
        if not rows:
            return False
        # The row after the last deleted one becomes current.
        last = max(w.model.row_of_id(r.id) for r in rows)
        after = None
        if last + 1 < w.model.rowCount():
            after = w.model.row_for(last + 1).id
        elif min(w.model.row_of_id(r.id) for r in rows) > 0:
            after = w.model.row_for(min(w.model.row_of_id(r.id) for r in rows) - 1).id
        if after is not None:
            self.select_after = (after,)
        done = w.runner.perform(
            lambda: w.services.roster.delete_units(
                [r.id for r in rows], versions={r.id: r.version for r in rows}
            )
        )
        self.select_after = ()
        if done is not None:
            self._window.statusBar().showMessage(
                f"Deleted {rows[0].name if len(rows) == 1 else plural(len(rows), 'unit')}"
                " (Ctrl+Z brings it back)",
                8000,
            )
        return done is not None

    def set_budget(self, budget: int | None) -> bool:
        w = self._w
        patch = ArmyPatch(budget=NO_BUDGET if budget is None else budget)
        version = w.roster.army.version if w.roster is not None else None
        return (
            w.runner.perform(
                lambda: w.services.campaigns.update_army(w.army_id, patch, version=version),
                "Change budget",
            )
            is not None
        )

    def duplicate_army(self) -> ArmyId | None:
        """Army > Duplicate army: a copy of this army under a new name, for a player, with a
        budget (one undo step); the new army's roster opens."""
        w = self._w
        cid = w.campaign_id
        if w.roster is None or cid is None or w.ask_army is None:
            return None
        players = w.runner.read(lambda: w.services.campaigns.list_players(cid))
        if not players:
            return None
        army = w.roster.army
        answer = w.ask_army(
            self._window,
            players,
            title=f"Duplicate {army.name}",
            player_id=army.player_id,
            name=f"{army.name} (copy)",
            budget=army.budget,
            cost_unit=w.roster.cost_unit,
        )
        if answer is None:
            return None
        made = w.runner.perform(
            lambda: w.services.roster.duplicate_army(
                w.army_id, answer.name, player_id=answer.player_id, budget=answer.budget
            )
        )
        if made is None:
            return None
        self.army_made.emit(made.id)
        return made.id

    def _reorder(self, order: list[UnitId], text: str) -> bool:
        """Store ``order`` (every unit id once) as the roster order, in one undoable step."""
        w = self._w
        ids = w.selected_ids()
        current = [r.id for r in w.model.all_rows()]
        if not ids or order == current:
            return False
        w.show_roster_order()  # the moved units must be seen moving
        self.select_after = (
            *[i for i in order if i in set(ids)],
            w.table.current_id() or ids[-1],
        )
        done = w.runner.perform(
            lambda: w.services.roster.reorder_units(w.army_id, order, current), text
        )
        self.select_after = ()
        return done is not None

    def _moved(self, step: int) -> list[UnitId]:
        """The roster order with each run of selected units moved ``step`` (+1/-1) places,
        past the next unselected unit (as far as the roster's end allows)."""
        w = self._w
        chosen = set(w.selected_ids())
        order = [r.id for r in w.model.all_rows()]
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
        w = self._w
        chosen = set(w.selected_ids())
        order = [r.id for r in w.model.all_rows()]
        return self._reorder(
            [i for i in order if i in chosen] + [i for i in order if i not in chosen],
            "Move units to the top",
        )

    def move_to_bottom(self) -> bool:
        w = self._w
        chosen = set(w.selected_ids())
        order = [r.id for r in w.model.all_rows()]
        return self._reorder(
            [i for i in order if i not in chosen] + [i for i in order if i in chosen],
            "Move units to the bottom",
        )
