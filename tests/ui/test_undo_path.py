"""The one undo path: every undoable action is an ``ActionCommand`` over a service ``Done``; an
undo or redo that can no longer apply is refused with the reason and leaves the undo history,
the database and the views consistent; each window keeps its own history."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test
from PySide6.QtCore import QSettings
from PySide6.QtGui import QUndoStack

from brikdesk.domain.battle import ActionUse, from_payload, replay, spend_action
from brikdesk.errors import UserError
from brikdesk.persistence.db import Database, open_database
from brikdesk.services import Changes, Services
from brikdesk.services.roster import UnitPatch
from brikdesk.services.summaries import ArmyPatch
from tests.ui.battle_tables import Table, cell, make_panel
from ui.bus import Bus
from ui.panels.battle_model import ACTION
from ui.undo import ALL_CHANGES, ActionCommand, UndoScopes, perform


@pytest.fixture
def other(database: Database) -> Iterator[Services]:
    """Another BrikDesk on the same database file (its own engine, cache and history)."""
    db = open_database(database.url)
    yield Services.open(db)
    db.close()


def standing_kinds(sv: Services, battle_id: int) -> list[str]:
    return [e.kind for e in sv.battles.events(battle_id, include_reverted=False)]


def test_log_undo_after_a_later_action_keeps_every_event(
    qtbot, sv: Services, table: Table, qsettings: QSettings
) -> None:
    """The reported failure: record an attack, another command lands on top, log Undo, record
    a Sprint (which drops the undone row), Edit > Undo twice. Every step applies, nothing is
    lost from the log, and redo brings both back."""
    stack = QUndoStack()
    panel = make_panel(qtbot, sv, table.battle_id, qsettings, stack=stack)
    ids = table.ids
    assert panel.commands.spend(ids["Red Rifle"], ActionUse.ATTACK)  # the attack
    # Another command of this battle lands on top (the combat wizard's).
    state = panel.view.state
    perform(
        stack,
        panel.bus,
        lambda: sv.tracker.record(
            table.battle_id, [spend_action(state, ids["Red Pike"], ActionUse.ATTACK)]
        ),
        text="Pike attacks (wizard)",
    )
    assert panel.undo()  # the log's Undo takes back the wizard's attack
    assert cell(panel, "Red Pike", ACTION) == "Ready"
    assert panel.commands.spend(ids["Red Pike"], ActionUse.SPRINT)  # drops the undone row
    assert stack.count() == 2 and stack.index() == 2
    stack.undo()
    stack.undo()
    assert stack.index() == 0 and stack.count() == 2
    assert standing_kinds(sv, table.battle_id) == []
    assert cell(panel, "Red Rifle", ACTION) == "Ready" and cell(panel, "Red Pike", ACTION) == (
        "Ready"
    )
    assert panel.message_text == ""  # nothing was refused
    stack.redo()
    stack.redo()
    assert len(standing_kinds(sv, table.battle_id)) == 2
    assert cell(panel, "Red Rifle", ACTION) == "Spent" and cell(panel, "Red Pike", ACTION) == (
        "Spent"
    )


def test_an_undo_another_app_made_impossible_is_refused_and_dropped(
    qtbot, sv: Services, other: Services, table: Table, qsettings: QSettings
) -> None:
    """Another BrikDesk records on top of this battle's log; this app's Undo of its own attack
    can no longer apply: it is refused with the reason, the step leaves the history, the
    database keeps the other's event and the panel shows it."""
    stack = QUndoStack()
    panel = make_panel(qtbot, sv, table.battle_id, qsettings, stack=stack)
    assert panel.commands.spend(table.ids["Red Rifle"], ActionUse.ATTACK)
    other.tracker.end_turn(table.battle_id)  # the other table ends Red's turn
    stack.undo()
    assert stack.count() == 0 and stack.index() == 0  # dropped, not half-undone
    assert standing_kinds(sv, table.battle_id) == ["action_spent", "turn_ended"]
    assert "Can't undo" in panel.message_text
    assert "no longer in the undo history" in panel.message_text
    assert panel.turn_label.text() == "Blue's turn"  # the view read the database again
    assert not stack.canRedo()


def test_a_refused_undo_publishes_a_full_refresh_and_leaves_the_index_consistent(qapp) -> None:
    calls: list[str] = []
    published: list[object] = []
    bus = Bus()
    bus.changed.connect(published.append)
    stack = QUndoStack()
    from brikdesk.services.changes import Done

    def ok() -> Changes:
        calls.append("ok")
        return Changes.UNITS

    def refused() -> Changes:
        raise UserError("the unit was deleted by someone else")

    reports: list[str] = []
    perform(stack, bus, lambda: Done(1, Changes.UNITS, "First", ok, ok), report=reports.append)
    perform(
        stack,
        bus,
        lambda: Done(2, Changes.UNITS, "Second", refused, refused),
        report=reports.append,
    )
    assert stack.count() == 2 and stack.index() == 2
    published.clear()
    stack.undo()  # "Second" can't be undone: dropped, the index stays on "First"
    assert stack.count() == 1 and stack.index() == 1
    assert stack.undoText() == "First" and not stack.canRedo()
    assert reports == [
        "Can't undo “Second”: the unit was deleted by someone else. That step "
        "is no longer in the undo history."
    ]
    assert published == [ALL_CHANGES]
    stack.undo()
    assert calls == ["ok"] and stack.index() == 0 and stack.canRedo()
    stack.redo()
    assert calls == ["ok", "ok"] and stack.index() == 1


def test_each_scope_has_its_own_history(qapp) -> None:
    from brikdesk.services.changes import Done

    scopes = UndoScopes()
    bus = Bus()

    def step() -> Changes:
        return Changes.ARMIES

    perform(scopes.army(1), bus, lambda: Done(None, Changes.ARMIES, "Change budget", step, step))
    assert scopes.army(1).undoText() == "Change budget"
    assert not scopes.army(2).canUndo() and not scopes.main().canUndo()
    assert scopes.army(1) is scopes.army(1)
    assert isinstance(scopes.army(1).command(0), ActionCommand)
    scopes.setActiveStack(scopes.army(2))
    assert not scopes.canUndo()  # Bob's roster offers nothing of Alice's
    scopes.setActiveStack(scopes.army(1))
    assert scopes.undoText() == "Change budget"


def test_main_window_undo_follows_the_page(open_main, demo_db) -> None:
    main = open_main(demo_db)
    battle_id = next(b.id for b in main.nav.battles if b.status == "in_progress")
    main.open_battle(battle_id)
    panel = main.battle_panel
    panel.end_turn_action.trigger()
    assert main.main_actions.undo_action.text().startswith("&Undo End ")  # the battle's history
    main.show_overview()
    assert main.main_actions.undo_action.text() == "&Undo"  # the main window's own: nothing yet
    main.open_battle(battle_id)
    main.main_actions.undo_action.trigger()
    assert not panel.undo_stack.canUndo()


# -- random sequences through the one undo path ------------------------------------------------


def _machine(template: Path, folder_factory) -> type[RuleBasedStateMachine]:
    class UndoPath(RuleBasedStateMachine):
        """Edits, records, End Turns, undos, redos, log undos and another app's writes, in any
        order, through ``perform``/``ActionCommand``: no error escapes, and what the app shows
        (the tracker's incremental state) is the replay of what the database stores."""

        def __init__(self) -> None:
            super().__init__()
            folder = folder_factory()
            path = folder / "undo.sqlite3"
            shutil.copyfile(template, path)
            self.db = open_database(f"sqlite:///{path}")
            self.sv = Services.open(self.db)
            self.other_db = open_database(self.db.url)
            self.other = Services.open(self.other_db)
            self.table = Table(self.sv)
            self.bid = self.table.battle_id
            self.bus = Bus()
            self.battle = QUndoStack()
            self.army = QUndoStack()
            self.reports: list[str] = []
            army_id = self.sv.campaigns.list_armies(self.table.campaign_id)[0].id
            self.units = [u.id for u in self.sv.roster.roster(army_id).units]

        def teardown(self) -> None:
            self.battle.clear()
            self.army.clear()
            self.db.close()
            self.other_db.close()

        def _perform(self, stack: QUndoStack, call) -> None:
            with contextlib.suppress(UserError):  # refused by the rules: nothing recorded
                perform(stack, self.bus, call, report=self.reports.append)

        @rule(
            unit=st.sampled_from(
                ["Red Knight", "Red Rifle", "Red Pike", "Blue Knight", "Blue Rifle", "Blue Pike"]
            ),
            how=st.sampled_from([ActionUse.ATTACK, ActionUse.SPRINT, ActionUse.BAIL]),
        )
        def record(self, unit: str, how: ActionUse) -> None:
            state = self.sv.tracker.view(self.bid).state
            try:
                event = spend_action(state, self.table.ids[unit], how)
            except UserError:
                return
            self._perform(self.battle, lambda: self.sv.tracker.record(self.bid, [event]))

        @rule()
        def end_turn(self) -> None:
            self._perform(self.battle, lambda: self.sv.tracker.end_turn(self.bid))

        @rule(which=st.integers(0, 2), name=st.sampled_from(["Ada", "Bo", "Cy"]))
        def rename(self, which: int, name: str) -> None:
            unit = self.units[which]
            self._perform(
                self.army, lambda: self.sv.roster.edit_unit(unit, UnitPatch(name=f"{name} {which}"))
            )

        @rule(stack=st.sampled_from(["battle", "army"]))
        def undo(self, stack: str) -> None:
            getattr(self, stack).undo()

        @rule(stack=st.sampled_from(["battle", "army"]))
        def redo(self, stack: str) -> None:
            getattr(self, stack).redo()

        @rule()
        def log_undo(self) -> None:
            """The panel's log Undo with an empty history (after a restart)."""
            if not self.battle.canUndo() and self.sv.tracker.view(self.bid).can_undo:
                self._perform(self.battle, lambda: self.sv.tracker.undo(self.bid))

        @rule()
        def other_app_ends_the_turn(self) -> None:
            with contextlib.suppress(UserError):
                self.other.tracker.end_turn(self.bid)

        @invariant()
        def shown_is_the_replay_of_the_stored_log(self) -> None:
            assert 0 <= self.battle.index() <= self.battle.count()
            view = self.sv.tracker.view(self.bid)
            stored = self.sv.battles.events(self.bid, include_reverted=False)
            events = [from_payload(e.kind, e.actor_id, e.target_id, e.payload) for e in stored]
            assert view.state == replay(view.setup, events)
            assert [e.id for e in view.events if not e.reverted] == [e.id for e in stored]

        @invariant()
        def names_are_what_the_stored_rows_say(self) -> None:
            army_id = self.sv.campaigns.list_armies(self.table.campaign_id)[0].id
            rows = self.sv.roster.roster(army_id).units
            assert len({r.name for r in rows}) == len(rows)

    return UndoPath


@pytest.mark.slow
def test_random_sequences_through_the_one_undo_path(
    qapp, empty_db_template: Path, tmp_path_factory
) -> None:
    machine = _machine(empty_db_template, lambda: tmp_path_factory.mktemp("machine"))
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=20,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )


def test_toolbar_keeps_its_geometry_after_a_long_undo_text(open_main, demo_db) -> None:
    """The Undo and Redo buttons say just that; the long text is in the tooltip and the menu."""
    from PySide6.QtWidgets import QToolBar

    main = open_main(demo_db)
    toolbar = main.findChild(QToolBar)
    assert toolbar is not None
    widgets = [toolbar.widgetForAction(a) for a in toolbar.actions() if not a.isSeparator()]
    before = [w.geometry() for w in widgets if w is not None]
    army = main.nav.armies[0]
    text = "Change the army Red Vanguard's name and budget (Sir Reginald Studsworth commanding)"
    main.runner.perform(
        lambda: main.services.campaigns.update_army(army.id, ArmyPatch(budget=99)), text
    )
    assert main.main_actions.undo_action.text() == f"&Undo {text}"  # the Edit menu says it all
    button = toolbar.widgetForAction(main.main_actions.undo_action)
    assert button.text() == "Undo"
    assert main.main_actions.undo_action.toolTip().startswith("Undo ")
    assert [w.geometry() for w in widgets if w is not None] == before


def test_the_log_undo_from_a_stale_view_is_refused(
    qtbot, sv: Services, other: Services, table: Table, qsettings: QSettings
) -> None:
    """After a restart (empty history) the log's Undo takes back what the panel shows as the
    last action; if another table recorded since, it is refused with what was recorded."""
    sv.tracker.record(
        table.battle_id,
        [
            spend_action(
                sv.tracker.view(table.battle_id).state, table.ids["Red Rifle"], ActionUse.ATTACK
            )
        ],
    )
    stack = QUndoStack()
    panel = make_panel(qtbot, sv, table.battle_id, qsettings, stack=stack)
    other.tracker.end_turn(table.battle_id)  # not yet seen by this panel
    assert not panel.undo()
    assert "someone else recorded" in panel.message_text
    assert stack.count() == 0
    assert standing_kinds(sv, table.battle_id) == ["action_spent", "turn_ended"]
    assert panel.turn_label.text() == "Blue's turn"  # and the panel read the log again
