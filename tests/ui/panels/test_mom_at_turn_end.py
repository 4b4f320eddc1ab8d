"""End turn asks about the ending player's MOMs (5.4): "ends a turn without using up all of his
Move inches, his MOM abandons him". Asked with keys, recorded with the turn's end in one undo
step; in 2010 the MOM is kept and the panel says why."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QDialog

from brikdesk.domain.battle import Status, StatusSet
from brikdesk.services import Services
from tests.ui.battle_tables import Table, make_panel
from tests.ui.keyboard import shown
from ui.panels.mom_question import MomQuestion


def give_moms(sv: Services, table: Table, *names: str) -> None:
    sv.tracker.record(table.battle_id, [StatusSet(table.ids[n], Status.MOM) for n in names])


def has_mom(sv: Services, table: Table, name: str) -> bool:
    return sv.tracker.view(table.battle_id).state.unit(table.ids[name]).mom


def test_end_turn_asks_which_moms_were_run_out_and_drops_the_others(
    qtbot, sv: Services, qsettings: QSettings, monkeypatch
) -> None:
    table = Table(sv)
    give_moms(sv, table, "Red Knight", "Red Pike")
    panel = make_panel(qtbot, sv, table.battle_id, qsettings)
    asked: list[MomQuestion] = []

    def answer_with_keys(cls, parent, player, question):
        # The organizer ticks the first box (Red Knight ran out his Move) and presses Enter.
        dialog = cls(parent, player, question)
        asked.append(dialog)
        shown(qtbot, dialog)
        assert QApplication.focusWidget() is dialog.boxes[table.ids["Red Knight"]]
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Space)
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
        assert dialog.result() == QDialog.DialogCode.Accepted
        return dialog.lost()

    monkeypatch.setattr(MomQuestion, "ask", classmethod(answer_with_keys))
    assert panel.end_turn()
    assert len(asked) == 1 and "ends a turn without using up all of his Move" in (
        asked[0].intro.text()
    )
    assert has_mom(sv, table, "Red Knight") and not has_mom(sv, table, "Red Pike")
    view = sv.tracker.view(table.battle_id)
    assert view.active_player.name == "Blue"
    text = panel.message.text()
    assert "MOM lost, Move not used up (5.4): Red Pike" in text
    assert "MOM kept, Move used up in a straight line (5.4): Red Knight" in text
    # One undo step takes back both: Red's turn again, Red Pike's MOM back.
    assert panel.undo()
    view = sv.tracker.view(table.battle_id)
    assert view.active_player.name == "Red" and has_mom(sv, table, "Red Pike")


def test_cancelling_the_question_ends_no_turn(
    qtbot, sv: Services, qsettings: QSettings, monkeypatch
) -> None:
    table = Table(sv)
    give_moms(sv, table, "Red Pike")
    panel = make_panel(qtbot, sv, table.battle_id, qsettings)
    monkeypatch.setattr(MomQuestion, "ask", classmethod(lambda cls, *a: None))
    assert not panel.end_turn()
    assert sv.tracker.view(table.battle_id).active_player.name == "Red"
    assert has_mom(sv, table, "Red Pike")


def test_no_question_without_a_mom_on_the_ending_side(
    qtbot, sv: Services, qsettings: QSettings, monkeypatch
) -> None:
    table = Table(sv)
    give_moms(sv, table, "Blue Pike")  # Blue's turn is not ending
    panel = make_panel(qtbot, sv, table.battle_id, qsettings)
    monkeypatch.setattr(MomQuestion, "ask", classmethod(lambda cls, *a: pytest.fail("asked")))
    assert panel.end_turn()
    assert has_mom(sv, table, "Blue Pike") and "MOM" not in panel.message.text()


def test_2010_keeps_the_mom_and_says_why(
    qtbot, sv: Services, qsettings: QSettings, monkeypatch
) -> None:
    table = Table(sv, edition="2010")
    give_moms(sv, table, "Red Pike")
    panel = make_panel(qtbot, sv, table.battle_id, qsettings)
    monkeypatch.setattr(MomQuestion, "ask", classmethod(lambda cls, *a: pytest.fail("asked")))
    assert panel.end_turn()
    assert has_mom(sv, table, "Red Pike")
    assert (
        "Red Pike keeps the MOM: the 2010 rules BrikDesk follows have no Charge chapter, so "
        "nothing ends a MOM with the turn (5.4)" in panel.message.text()
    )
