"""The army builder's conveniences (issue 27): duplicate an army, the roster as text, one Add
several dialog, from the catalog to the roster, the user guide, the file dialogs' folders and
the windows' sizes."""

from __future__ import annotations

import pytest

from ui.dialogs.campaign import ArmyDialog, ArmyInput
from ui.windows.roster import RosterWindow


def answer(monkeypatch, dialog, value, name: str = "ask") -> list:
    """Make ``dialog.<name>`` return ``value`` (recording its arguments)."""
    calls: list = []

    def ask(*args, **kwargs):
        calls.append((args, kwargs))
        return value

    monkeypatch.setattr(dialog, name, classmethod(lambda cls, *a, **k: ask(*a, **k)))
    return calls


@pytest.fixture
def main(open_main, demo_db):
    return open_main(demo_db)


@pytest.fixture
def roster(main, qtbot) -> RosterWindow:
    army_id = main.navigator.entries("army")[0][0]
    window = main.open_roster(army_id)
    qtbot.waitExposed(window)
    return window


def test_duplicate_army_opens_the_copy_with_every_unit_and_undoes_in_one_step(
    main, roster, monkeypatch, qtbot
):
    army = roster.roster.army
    units = [(u.name, u.type_key, u.loadout, u.notes) for u in roster.roster.units]
    calls = answer(monkeypatch, ArmyDialog, ArmyInput(army.player_id, "Second List", 150))
    roster.duplicate_army_action.trigger()
    # The dialog offers a name, the same player and the same budget.
    kwargs = calls[0][1]
    assert (kwargs["title"], kwargs["name"], kwargs["player_id"], kwargs["budget"]) == (
        f"Duplicate {army.name}",
        f"{army.name} (copy)",
        army.player_id,
        army.budget,
    )
    [new_id] = [i for i in main.rosters if i != army.id]
    copy = main.rosters[new_id]
    qtbot.waitExposed(copy)
    assert copy.header.army.text() == "Second List"
    assert [(u.name, u.type_key, u.loadout, u.notes) for u in copy.roster.units] == units
    assert {(u.kills, u.battles_fought) for u in copy.roster.units} == {(0, 0)}
    assert "/ 150 CP" in copy.header.total.text()
    assert any(i == new_id and "Second List" in n for i, n in main.navigator.entries("army"))
    # One undo step in the roster's history takes the whole army away.
    roster.undo_action.trigger()
    assert new_id not in [i for i, _name in main.navigator.entries("army")]
