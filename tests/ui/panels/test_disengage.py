"""Act > Disengage (5.2 Disengaging, 2020; the rule-set field disengage_counterstrikes):
the unit leaves its whole brawl on its own turn, the panel names the opponents who may make
one Counterstrike first, and their Counter menus offer it; 2005 and 2010 only leave."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMenu

from brikdesk.domain.battle import ActionState, CloseCombatAttack, CounterUse, Use
from brikdesk.services import Services
from tests.ui.battle_tables import Table, make_panel
from tests.ui.keyboard import keys, quick_form_of
from ui.panels import BattlePanel
from ui.panels.unit_menus import fill_counter


def entry(menu: QMenu, text: str):
    for a in menu.actions():
        if a.text().replace("&", "").startswith(text):
            return a
    raise LookupError(text)


def act_menu(panel: BattlePanel, unit: int) -> QMenu:
    menu = QMenu(panel)
    panel.fill_unit_menu(menu, unit)
    return menu


def brawl(sv: Services, table: Table) -> tuple[int, int, int, int]:
    """Red's turn: Blue Knight Strikes Red Knight in response; Blue Pike Strikes Red Pike in
    response, joining that brawl; then Blue's turn."""
    rk, rp, bk, bp = (table.ids[n] for n in ("Red Knight", "Red Pike", "Blue Knight", "Blue Pike"))
    sv.tracker.record(
        table.battle_id,
        [
            CloseCombatAttack(bk, rk, as_response=True),
            CloseCombatAttack(bp, rp, as_response=True, brawl=bk),
        ],
    )
    sv.tracker.end_turn(table.battle_id)
    return rk, rp, bk, bp


def test_disengage_from_the_act_menu_then_both_opponents_counterstrike(
    qtbot, sv: Services, table: Table, qsettings: QSettings, monkeypatch
) -> None:
    """5.2: "up to three of his opponents can immediately take an Angry Inch and make one
    Counterstrike"; "If the Disengaging minifig survives ... he's free to spend it [his
    Action] on whatever new Action he likes." """
    rk, rp, bk, bp = brawl(sv, table)
    panel = make_panel(qtbot, sv, table.battle_id, qsettings)
    # Red Knight is not the active player's: Disengaging is the active combatant's.
    red = entry(act_menu(panel, rk), "Disengage from Close Combat")
    assert not red.isEnabled() and "only on its own turn" in red.toolTip()
    blue = entry(act_menu(panel, bp), "Disengage from Close Combat")
    assert blue.isEnabled() and "Counterstrike" in blue.toolTip()
    blue.trigger()
    state = panel.view.state
    assert not state.unit(bp).close_combat
    assert state.unit(bp).action is ActionState.READY  # free for another Action
    assert "Red Knight, Red Pike may each make one Counterstrike" in panel.message.message
    # Red Knight never fought Blue Pike, but they were one brawl: his Counter menu offers it.
    counters = QMenu(panel)
    fill_counter(counters, panel.view, rk, panel.moves)
    strike = entry(counters, "Counterstrike Blue Pike")
    assert strike.isEnabled()
    strike.trigger()  # through the dice: the quick form on Blue Pike, paid with a Counter
    form = quick_form_of(qtbot, panel)
    assert form.draft.target_id == bp and form.draft.use is Use.COUNTER
    keys(qtbot, "1")  # a miss
    # The organizer saw the unused weapon at the table: the warning is decided in the wizard.
    assert "(5.2 Disengaging)" in form.problem.text() and not form.record_button.isEnabled()
    QTest.keyClick(form, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    wizard = form.wizard
    qtbot.waitExposed(wizard)
    while wizard.currentId() != wizard.RESULT:
        wizard.next()
    result = wizard.pages[wizard.RESULT]
    assert "(5.2 Disengaging)" in result.warnings.text()
    qtbot.mouseClick(result.overrule, Qt.MouseButton.LeftButton)
    assert panel.view.state.unit(bp).attackers == (rk,)
    counters = QMenu(panel)
    fill_counter(counters, panel.view, rk, panel.moves)
    with pytest.raises(LookupError):  # his one Counterstrike is made
        entry(counters, "Counterstrike Blue Pike")
    assert entry(counters, f"{CounterUse.COUNTERSTRIKE.label} Blue Knight").isEnabled()


@pytest.mark.parametrize("edition", ["2005", "2010"])
def test_older_editions_only_leave_close_combat(
    qtbot, sv: Services, qsettings: QSettings, edition: str
) -> None:
    table = Table(sv, edition=edition)
    rk, rp, bk, bp = brawl(sv, table)
    panel = make_panel(qtbot, sv, table.battle_id, qsettings)
    leave = entry(act_menu(panel, bp), "Leave Close Combat")
    assert f"BrikWars {edition}" in leave.toolTip()
    leave.trigger()
    assert not panel.view.state.unit(bp).close_combat
    counters = QMenu(panel)
    fill_counter(counters, panel.view, rp, panel.moves)
    assert entry(counters, "Not in Close Combat").isEnabled() is False
