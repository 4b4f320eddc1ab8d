"""Edit > Delete selected and File > Delete campaign ask first, naming what
goes with it; Cancel deletes nothing; Undo still restores; nothing is deleted while the
navigator that holds the selection is hidden."""

from __future__ import annotations

from ui.dialogs.confirm_delete import ConfirmDelete
from ui.windows.navigator import BATTLE

FORD = "Skirmish at Baseplate Ford"


def _answer(monkeypatch, answer: bool) -> list[tuple[str, str]]:
    asked: list[tuple[str, str]] = []

    def ask(cls, parent, what, goes):
        asked.append((what, goes))
        return answer

    monkeypatch.setattr(ConfirmDelete, "ask", classmethod(ask))
    return asked


def _ford(main) -> int:
    return next(b.id for b in main.nav.battles if b.name == FORD)


def test_deleting_a_finished_battle_names_its_events_and_result(open_main, demo_db, monkeypatch):
    main = open_main(demo_db)
    ford = _ford(main)
    main.navigator.select(BATTLE, ford)
    asked = _answer(monkeypatch, False)
    assert not main.delete_selected()  # Cancel: nothing goes
    assert main.navigator.find_entry(BATTLE, ford) is not None
    [(what, goes)] = asked
    assert what == f"the battle {FORD}"
    assert goes.startswith(f"{FORD}: its ") and "events" in goes and "its result" in goes

    _answer(monkeypatch, True)
    assert main.delete_selected()
    assert main.navigator.find_entry(BATTLE, ford) is None
    main.main_actions.undo_action.trigger()
    assert main.navigator.find_entry(BATTLE, ford) is not None


def test_nothing_is_deleted_while_the_navigator_is_hidden(open_main, demo_db, monkeypatch):
    main = open_main(demo_db)
    ford = _ford(main)
    main.navigator.select(BATTLE, ford)
    assert main.main_actions.delete_selected_action.isEnabled()
    asked = _answer(monkeypatch, True)
    main.main_actions.navigator_action.trigger()  # View > Navigator: hidden
    assert main.navigator_dock.isHidden()
    assert not main.main_actions.delete_selected_action.isEnabled()
    assert not main.delete_selected()
    assert asked == [] and main.navigator.find_entry(BATTLE, ford) is not None
    assert "navigator" in main.statusBar().currentMessage()


def test_deleting_the_campaign_asks_too(open_main, demo_db, monkeypatch):
    main = open_main(demo_db)
    asked = _answer(monkeypatch, False)
    assert not main.delete_campaign()
    [(what, goes)] = asked
    assert what.startswith("the campaign ") and "2 battles with their events" in goes
    assert main.nav is not None and main.campaign_id is not None
