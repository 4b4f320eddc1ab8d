"""The army builder's conveniences (issue 27): duplicate an army, the roster as text, one Add
several dialog, from the catalog to the roster, the user guide, the file dialogs' folders and
the windows' sizes."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMenu

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


def test_copy_as_text_puts_every_unit_and_the_total_on_the_clipboard(roster):
    from PySide6.QtGui import QGuiApplication

    units = roster.roster.units
    for fmt, first in (
        ("text", f"{roster.roster.army.name} ({len(units)} units)"),
        ("markdown", f"## {roster.roster.army.name}"),
        ("bbcode", f"[size=150][b]{roster.roster.army.name}[/b][/size]"),
    ):
        roster.copy_text_actions[fmt].trigger()
        text = QGuiApplication.clipboard().text()
        assert text.splitlines()[0] == first
        for u in units:
            assert f"{u.cost} CP" in next(li for li in text.splitlines() if u.name in li)
        assert f"Total {roster.roster.total} / {roster.roster.budget} CP" in text
        assert "Copied the roster" in roster.statusBar().currentMessage()
    assert roster.copy_text_actions["text"].shortcut().toString() == "Ctrl+Shift+C"
    menu = roster.findChild(QMenu, "copyTextMenu")
    assert [a.text() for a in menu.actions()] == ["&Plain text", "&Markdown", "&BBCode (forum)"]


def test_export_as_text_chooses_the_format_by_the_ending_and_remembers_the_folder(
    roster, monkeypatch, tmp_path
):
    folder = tmp_path / "posts"
    folder.mkdir()
    started: list[str] = []

    def dialog(parent, title, start, filters):
        started.append(start)
        return str(folder / "vanguard.bbcode"), filters

    monkeypatch.setattr("ui.dialogs.base.QFileDialog.getSaveFileName", dialog)
    written = roster.export_text()
    assert written == folder / "vanguard.bbcode"
    text = written.read_text(encoding="utf-8")
    assert text.count("[*]") == len(roster.roster.units)
    assert started[0].startswith(str(Path.home()))
    # The next roster text (or sheet) starts where this one went; reports keep their own.
    roster.export_text()
    assert started[1] == str(folder / f"{roster.roster.army.name}.txt")
    assert roster.settings.last_folder("rosters") == folder
    assert roster.settings.last_folder("reports") == Path.home()


def test_each_kind_of_file_dialog_starts_in_its_own_last_folder(main, monkeypatch, tmp_path):
    from ui.dialogs.base import FileChooser

    exports, imports = tmp_path / "exports", tmp_path / "imports"
    exports.mkdir()
    imports.mkdir()
    seen: list[str] = []

    def save(parent, title, start, filters):
        seen.append(start)
        return str(exports / "club.json"), filters

    def open_(parent, title, start, filters):
        seen.append(start)
        return str(imports / "other.json"), filters

    monkeypatch.setattr("ui.dialogs.base.QFileDialog.getSaveFileName", save)
    monkeypatch.setattr("ui.dialogs.base.QFileDialog.getOpenFileName", open_)
    s = main.settings
    assert FileChooser.save_path(main, "t", "*", "a.json", ".json", settings=s, kind="exports")
    assert FileChooser.open_path(main, "t", "*", settings=s, kind="imports")
    assert FileChooser.save_path(main, "t", "*", "b.json", ".json", settings=s, kind="exports")
    assert FileChooser.open_path(main, "t", "*", settings=s, kind="imports")
    assert seen == [
        str(Path.home() / "a.json"),
        str(Path.home()),
        str(exports / "b.json"),
        str(imports),
    ]
    # Kept in the settings file: a new start finds them again.
    again = type(s)(type(s.qsettings)(s.qsettings.fileName(), s.qsettings.format()))
    assert (again.last_folder("exports"), again.last_folder("imports")) == (exports, imports)
