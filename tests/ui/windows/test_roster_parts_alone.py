"""Each part of the roster window is built and used without a RosterWindow: it receives what
it uses ("Rooms with their own doors" in docs/conventions.md), here real services on a small
campaign or stand-ins that record what the part asked of them."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from PySide6.QtGui import QGuiApplication, QUndoStack
from PySide6.QtWidgets import QMainWindow, QTableView

from brikdesk.domain.ids import ArmyId
from brikdesk.services import Services
from tests.ui.stand_ins import Calls, bare_window
from ui.bus import Bus
from ui.models.roster import HANDS, NAME, UnitTableModel
from ui.widgets.common import Actions, MessageBanner
from ui.windows.roster_columns import RosterColumns
from ui.windows.roster_commands import ROSTER_ACTIONS, RosterCommands
from ui.windows.roster_edits import RosterEdits
from ui.windows.roster_table import RosterTable
from ui.windows.roster_text import RosterText


@pytest.fixture
def window(qtbot) -> QMainWindow:
    return bare_window(qtbot)


@pytest.fixture
def army(sv: Services) -> ArmyId:
    c = sv.campaigns.create_campaign("Alone").value
    red = sv.campaigns.add_player(c.id, "Red").value
    army = sv.campaigns.add_army(red.id, "Reds").value
    sv.roster.add_unit(army.id, "minifig", name="Red Knight")
    return army.id


def roster_host(window: QMainWindow, sv: Services, army: ArmyId, settings) -> SimpleNamespace:
    banner = MessageBanner(window)
    stack = QUndoStack(window)
    return SimpleNamespace(
        army_id=army,
        roster=sv.roster.roster(army),
        services=sv,
        settings=settings,
        banner=banner,
        runner=Actions(window, stack, Bus(window), banner),
        stack=stack,
    )


def test_the_roster_as_text_is_copied_from_its_host(window, sv, army, settings) -> None:
    text = RosterText(window, roster_host(window, sv, army, settings))
    copied = text.copy("markdown")
    assert copied is not None and "Red Knight" in copied
    assert QGuiApplication.clipboard().text() == copied
    assert "Copied the roster as Markdown" in window.statusBar().currentMessage()


def test_an_edit_is_stored_and_undone_through_the_host(window, sv, army, settings) -> None:
    host = roster_host(window, sv, army, settings)
    edits = RosterEdits(window, host)
    host.model = UnitTableModel(edits.commit_name, window)
    host.model.set_rows(host.roster.units)
    (knight,) = host.roster.units
    assert edits.commit_name(knight, "name", "Red Captain")
    assert [u.name for u in sv.roster.roster(army).units] == ["Red Captain"]
    assert edits.targeted is None  # only during the edit
    host.stack.undo()
    assert [u.name for u in sv.roster.roster(army).units] == ["Red Knight"]


@pytest.fixture
def host(window) -> SimpleNamespace:
    """What the roster's commands use of their window, as stand-ins."""
    return SimpleNamespace(
        army_id=ArmyId(3),
        edits=Calls(),
        text=Calls(),
        printing=Calls(),
        table=QTableView(window),
        focus_loadout=lambda: None,
        focus_filter=lambda: None,
        focus_budget=lambda: None,
        show_roster_order=lambda: None,
        close=lambda: True,
    )


def test_the_commands_trigger_the_parts_they_were_given(window, host) -> None:
    commands = RosterCommands(window, host, QUndoStack(window))
    commands.add_action.trigger()
    commands.preview_action.trigger()
    assert host.edits.calls == [("add_unit", ())]
    assert host.printing.calls == [("preview", (3,))]
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles and commands.add_action in host.table.actions()
    assert len({spec.attr for spec in ROSTER_ACTIONS}) == len(ROSTER_ACTIONS)
    assert all(getattr(commands, s.attr).objectName() == s.name for s in ROSTER_ACTIONS)
    assert commands.add_action.shortcuts()[1].toString() == "Ins"


def test_the_unit_actions_are_enabled_by_the_selection_their_table_names(window, host) -> None:
    commands = RosterCommands(window, host, QUndoStack(window))
    commands.update_enabled(has_selection=False, has_current=False)
    assert not commands.delete_action.isEnabled() and not commands.rename_action.isEnabled()
    assert commands.add_action.isEnabled()  # adding needs no selection
    commands.update_enabled(has_selection=True, has_current=False)
    assert commands.delete_action.isEnabled() and commands.move_top_action.isEnabled()
    assert not commands.edit_action.isEnabled()  # one unit's edits need a current unit
    commands.update_enabled(has_selection=True, has_current=True)
    assert commands.edit_action.isEnabled() and commands.loadout_action.isEnabled()


def test_the_columns_fit_the_names_until_widths_are_set_by_hand(window, sv, army, settings):
    model = UnitTableModel(None, window)
    table = RosterTable(model, window)
    window.setCentralWidget(table)
    long_name = "Sir Reginald of the Very Long Name"
    sv.roster.add_unit(army, "minifig", name=long_name)
    model.set_rows(sv.roster.roster(army).units)
    columns = RosterColumns(window, table, model)
    columns.restore(settings)
    window.resize(900, 400)
    window.show()
    columns.shown()
    needed = table.fontMetrics().horizontalAdvance(long_name)
    assert table.columnWidth(NAME) >= needed  # the longest name is never cut
    assert not columns.own_widths
    table.setColumnWidth(HANDS, 300)  # the organizer sets a width by hand
    assert columns.own_widths
    columns.save(settings)
    again = RosterColumns(window, table, model)
    again.restore(settings)
    assert again.own_widths  # and it stays theirs in the next session
