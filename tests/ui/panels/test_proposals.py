"""The players' proposals in the battle panel: they wait without taking the focus, F8 turns to
them, Enter records through the quick form's path (one undo step), Delete rejects, Q opens the
quick form; each answer goes back to the share for the player's page."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QLabel, QListWidget, QWizard

from brikdesk.domain.combat import AttackChoice
from brikdesk.domain.ids import BattleId, BattleUnitId, PlayerId
from brikdesk.share.proposals import Proposal, turn_key


def _shown_battle(main, qtbot):
    battle = next(b for b in main.nav.battles if b.status == "in_progress")
    main.open_battle(battle.id)
    panel = main.battle_panel
    qtbot.waitUntil(lambda: panel.table.hasFocus(), timeout=3000)
    return panel


def _proposal(panel, ident: str = "from-ines-01", *, turn: str | None = None) -> Proposal:
    """Ines's Captain strikes Dynamite Dot with dice 5 4 (the demo battle, her turn)."""
    view = panel.services.tracker.view(panel.battle_id)
    return Proposal(
        id=ident,
        player_id=PlayerId(3),
        player="Ines",
        battle_id=BattleId(panel.battle_id),
        turn=turn or turn_key(view),
        choice=AttackChoice(BattleUnitId(13), "hand-weapon", BattleUnitId(9), None, (5, 4)),
        text="Ines: Captain Peg-Leg Pennywhistle strikes Dynamite Dot (Hand Weapon), dice 5 4",
    )


def _answers(main) -> list[tuple[str, str]]:
    said: list[tuple[str, str]] = []
    main.sharing.inbox.answerer = lambda pid, status, _note: said.append((pid, status))
    return said


def _corrected(open_main, demo_db, qtbot):
    """The demo battle shown, Ines's proposal listed, F8, Q: (the panel, the list, the quick
    form, what the share was told as (id, status, note))."""
    main = open_main(demo_db)
    panel = _shown_battle(main, qtbot)
    said: list[tuple[str, str, str]] = []
    main.sharing.inbox.answerer = lambda *answer: said.append(answer)
    rows = panel.findChild(QListWidget, "proposalRows")
    main.sharing.inbox.add(_proposal(panel))
    qtbot.waitUntil(rows.isVisible, timeout=2000)
    qtbot.keyClick(main, Qt.Key.Key_F8)
    qtbot.keyClick(rows, Qt.Key.Key_Q)
    form = panel.findChild(QDialog, "quickAttack")
    assert form is not None and form.isVisible()
    assert said == [("from-ines-01", "correcting", "")] and rows.count() == 0
    return panel, rows, form, said


def test_a_proposal_waits_without_taking_the_focus_and_enter_records_it(
    open_main, demo_db, qtbot
) -> None:
    main = open_main(demo_db)
    panel = _shown_battle(main, qtbot)
    said = _answers(main)
    rows = panel.findChild(QListWidget, "proposalRows")
    assert not rows.isVisible()
    typing = panel.table  # where the organizer's keys go (Q, A, S...)
    assert typing.hasFocus()
    main.sharing.inbox.add(_proposal(panel))
    qtbot.waitUntil(rows.isVisible, timeout=2000)
    assert [rows.item(i).text() for i in range(rows.count())] == [_proposal(panel).text]
    assert QApplication.focusWidget() is typing  # the organizer's typing goes on
    before = panel.undo_stack.count()
    qtbot.keyClick(main, Qt.Key.Key_F8)
    assert rows.hasFocus()
    qtbot.keyClick(rows, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not rows.isVisible(), timeout=3000)
    assert said == [("from-ines-01", "accepted")]
    assert panel.undo_stack.count() == before + 1  # one undo step, as the quick form's
    assert "Captain Peg-Leg Pennywhistle" in panel.undo_stack.undoText()
    last = panel.log_model.index(panel.log_model.rowCount() - 1, 0).data()
    assert "Dynamite Dot" in str(last)
    assert panel.table.hasFocus()  # the empty list hands the keyboard back
    panel.undo()
    qtbot.waitUntil(lambda: panel.undo_stack.index() == before, timeout=3000)


def test_delete_rejects_and_nothing_is_recorded(open_main, demo_db, qtbot) -> None:
    main = open_main(demo_db)
    panel = _shown_battle(main, qtbot)
    said = _answers(main)
    rows = panel.findChild(QListWidget, "proposalRows")
    events = len(panel.services.tracker.view(panel.battle_id).events)
    main.sharing.inbox.add(_proposal(panel, "one-to-take"))
    main.sharing.inbox.add(_proposal(panel, "one-to-refuse"))
    qtbot.waitUntil(lambda: rows.count() == 2, timeout=2000)
    qtbot.keyClick(main, Qt.Key.Key_F8)
    rows.setCurrentRow(1)
    qtbot.keyClick(rows, Qt.Key.Key_Delete)
    assert said == [("one-to-refuse", "rejected")] and rows.count() == 1
    assert rows.hasFocus()  # one still waits: the organizer stays on it
    qtbot.keyClick(rows, Qt.Key.Key_Escape)
    assert panel.table.hasFocus()
    assert len(panel.services.tracker.view(panel.battle_id).events) == events


def test_a_proposal_the_battle_moved_on_from_is_not_recorded(open_main, demo_db, qtbot) -> None:
    main = open_main(demo_db)
    panel = _shown_battle(main, qtbot)
    said = _answers(main)
    rows = panel.findChild(QListWidget, "proposalRows")
    main.sharing.inbox.add(_proposal(panel, turn="0:1:1"))
    qtbot.waitUntil(rows.isVisible, timeout=2000)
    qtbot.keyClick(main, Qt.Key.Key_F8)
    qtbot.keyClick(rows, Qt.Key.Key_Return)
    problem = panel.findChild(QLabel, "proposalProblem")
    assert problem.text() == "Not recorded: the battle moved on since Ines sent it"
    assert said == [] and rows.count() == 1
    qtbot.keyClick(rows, Qt.Key.Key_Q)  # nor opened to correct: it is not "correcting"
    assert problem.text() == "Not opened: the battle moved on since Ines sent it"
    assert said == [] and rows.count() == 1 and panel.findChild(QDialog, "quickAttack") is None
    main.sharing.inbox.drop("from-ines-01")  # the share drops it: the list empties
    assert not rows.isVisible() and said == []


def test_q_opens_the_proposal_in_the_quick_form(open_main, demo_db, qtbot) -> None:
    _panel, _rows, form, _said = _corrected(open_main, demo_db, qtbot)
    assert form.target.text() == "Dynamite Dot"
    assert form.draft.action_faces == (5,) and form.draft.damage_faces == (4,)
    assert form.record_button.isEnabled()
    form.reject()


def test_a_proposal_closed_uncorrected_waits_again_and_can_be_answered(
    open_main, demo_db, qtbot
) -> None:
    panel, rows, form, said = _corrected(open_main, demo_db, qtbot)
    events = len(panel.services.tracker.view(panel.battle_id).events)
    qtbot.keyClick(form.focusWidget(), Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not form.isVisible(), timeout=2000)
    qtbot.waitUntil(lambda: rows.count() == 1 and rows.isVisible(), timeout=2000)
    assert rows.item(0).text() == _proposal(panel).text
    assert said[1:] == [("from-ines-01", "waiting", "")]  # the player's page: waiting again
    assert len(panel.services.tracker.view(panel.battle_id).events) == events
    qtbot.keyClick(panel.window(), Qt.Key.Key_F8)
    qtbot.keyClick(rows, Qt.Key.Key_Delete)  # an answer like any other now
    assert said[2:] == [("from-ines-01", "rejected", "")] and rows.count() == 0


def test_a_proposal_closed_uncorrected_comes_back_to_its_place_in_the_list(
    open_main, demo_db, qtbot
) -> None:
    main = open_main(demo_db)
    panel = _shown_battle(main, qtbot)
    main.sharing.inbox.answerer = lambda *_answer: None
    rows = panel.findChild(QListWidget, "proposalRows")
    first = _proposal(panel)
    later = replace(_proposal(panel, "from-ines-02"), text=first.text.replace("5 4", "6 6"))
    main.sharing.inbox.add(first)
    main.sharing.inbox.add(later)
    qtbot.waitUntil(lambda: rows.count() == 2, timeout=2000)
    qtbot.keyClick(main, Qt.Key.Key_F8)
    assert rows.currentRow() == 0 and rows.item(0).text() == first.text
    qtbot.keyClick(rows, Qt.Key.Key_Q)  # the first one opened to correct, then closed
    form = panel.findChild(QDialog, "quickAttack")
    assert form is not None and rows.count() == 1
    qtbot.keyClick(form.focusWidget(), Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: rows.count() == 2, timeout=2000)
    assert [rows.item(i).text() for i in range(2)] == [first.text, later.text]


def test_a_corrected_proposal_recorded_tells_the_player_what_was_recorded(
    open_main, demo_db, qtbot
) -> None:
    panel, rows, form, said = _corrected(open_main, demo_db, qtbot)
    before = panel.undo_stack.count()
    result = form.findChild(QLabel, "quickResult").text()
    assert "hits Dynamite Dot" in result
    qtbot.keyClick(form.record_button, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.undo_stack.count() == before + 1, timeout=3000)
    (_opened, told) = said
    assert told[:2] == ("from-ines-01", "corrected")
    assert told[2].startswith("Captain Peg-Leg Pennywhistle's Hand Weapon hits Dynamite Dot")
    qtbot.wait(50)
    assert rows.count() == 0 and len(said) == 2  # nothing put back after it was recorded
    panel.undo()
    qtbot.waitUntil(lambda: panel.undo_stack.index() == before, timeout=3000)


def test_a_proposal_set_aside_after_the_battle_moved_on_is_not_listed_again(
    open_main, demo_db, qtbot
) -> None:
    panel, rows, form, said = _corrected(open_main, demo_db, qtbot)
    turn = _proposal(panel).turn
    panel.end_turn()  # (the form is window-modal: as if from another computer)
    qtbot.waitUntil(lambda: _proposal(panel).turn != turn, timeout=3000)
    form.reject()
    qtbot.wait(50)
    assert rows.count() == 0 and not rows.isVisible()
    # The share is told it was set aside; it drops it there, as any the battle moved on from.
    assert said[1:] == [("from-ines-01", "waiting", "")]


def test_a_correction_taken_to_the_full_wizard_waits_again_when_it_is_cancelled(
    open_main, demo_db, qtbot
) -> None:
    panel, rows, form, said = _corrected(open_main, demo_db, qtbot)
    qtbot.mouseClick(form.wizard_button, Qt.MouseButton.LeftButton)  # "Full wizard…"
    wizard = panel.findChild(QWizard)
    qtbot.waitUntil(lambda: wizard.isVisible() and not form.isVisible(), timeout=2000)
    assert rows.count() == 0 and len(said) == 1  # still being corrected, in the wizard
    wizard.reject()
    qtbot.waitUntil(lambda: rows.count() == 1, timeout=2000)
    assert said[1:] == [("from-ines-01", "waiting", "")]
