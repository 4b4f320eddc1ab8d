"""The battle panel plays the campaign edition's turn rules (chapter 4): the edition in the
header, long Actions (4.2), Who Acts First (4.3), the Sprint dialog (4.1), 2005's standing up,
and warnings the organizer may overrule before an action is recorded."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMenu

from brikdesk.domain.battle import ActionUse, CounterUse, Status
from brikdesk.domain.rolling import TypedDice
from brikdesk.domain.rulesets import RULES_2005, RULES_2020
from brikdesk.services import Services
from brikdesk.services.summaries import CampaignPatch
from tests.ui.battle_tables import Table, cell, make_panel
from tests.ui.keyboard import keys, quick_form_of
from ui.panels import BattlePanel
from ui.panels.battle_model import ACTION, STATUS
from ui.panels.long_action import LongActionDialog, LongActionRequest
from ui.panels.overrule_box import Choice, OverruleBox
from ui.panels.pickers import OutcomeAsker, UnitPicker
from ui.panels.who_first import WhoFirstDialog


def _panel(
    qtbot, sv: Services, table: Table, qsettings: QSettings, edition: str | None = None
) -> BattlePanel:
    if edition is not None:
        sv.campaigns.update_campaign(table.campaign_id, CampaignPatch(edition=edition))
    return make_panel(qtbot, sv, table.battle_id, qsettings)


@pytest.fixture
def panel(qtbot, sv: Services, table: Table, qsettings: QSettings) -> BattlePanel:
    """A battle of a 2020 campaign (the default edition)."""
    return _panel(qtbot, sv, table, qsettings)


@pytest.fixture
def panel_2005(qtbot, sv: Services, table: Table, qsettings: QSettings) -> BattlePanel:
    return _panel(qtbot, sv, table, qsettings, "2005")


def log_lines(panel: BattlePanel) -> list[str]:
    """The log's lines, newest first, without their "R1 Red  ·  " (round and player)."""
    m = panel.log_model
    return [m.index(r, 0).data().split("  ·  ", 1)[-1] for r in range(m.rowCount())]


def unit_menu(panel: BattlePanel, unit_id: int) -> QMenu:
    menu = QMenu(panel)
    panel.fill_unit_menu(menu, unit_id)
    return menu


def entry(menu: QMenu, text: str):
    """The entry whose text starts with ``text`` (submenus searched too)."""
    for a in menu.actions():
        if a.text().replace("&", "").startswith(text):
            return a
        if a.menu() is not None:
            found = entry(a.menu(), text)
            if found is not None:
                return found
    return None


# -- the edition ------------------------------------------------------------------------------


def test_the_header_names_the_battles_edition(
    qtbot, sv: Services, table: Table, qsettings: QSettings
) -> None:
    panel = _panel(qtbot, sv, table, qsettings)
    assert panel.header.edition_label.text() == "BrikWars 2020 rules"
    panel.close()
    panel = _panel(qtbot, sv, table, qsettings, "2005")
    assert panel.header.edition_label.text() == "BrikWars 2005 rules"
    assert "Counters" in panel.header.edition_label.toolTip()
    assert panel.header.edition_label.isVisible()


def test_a_2005_disrupted_unit_shows_it_is_standing_up(
    panel_2005: BattlePanel, table: Table
) -> None:
    # 2005 4.3: "On its following turn, the unit recovers (spending 2" of Move to stand up)"
    panel = panel_2005
    knight = table.ids["Red Knight"]
    assert panel.commands.set_status(knight, Status.DISRUPTED)
    assert panel.end_turn() and panel.end_turn()
    assert 'Standing up (-2")' in cell(panel, "Red Knight", STATUS)
    assert "Recovering" not in cell(panel, "Red Knight", STATUS)


# -- long Actions (4.2) -----------------------------------------------------------------------


def test_a_long_action_makes_the_unit_busy_until_it_is_done(
    panel: BattlePanel, table: Table, monkeypatch
) -> None:
    # 2020 4.2: "Once engaged in a full-turn Action, a minifig is Stopped and can't engage in
    # any other type of Action or movement of his own for the rest of the turn"; "A full-turn
    # Action that extends over multiple turns is an extended Action."
    knight = table.ids["Red Knight"]
    asked = []

    def ask(cls, parent, name, rules):
        asked.append((name, rules))
        return LongActionRequest("digging a trench", 2)

    monkeypatch.setattr(LongActionDialog, "ask", classmethod(ask))
    entry(unit_menu(panel, knight), "Long action").trigger()
    assert asked == [("Red Knight", RULES_2020)]
    busy = "Busy: digging a trench (done at the start of Blue's turn 2)"
    assert busy in cell(panel, "Red Knight", STATUS)
    assert "Stopped" in cell(panel, "Red Knight", STATUS)
    index = panel.model.index_of_unit(knight, STATUS)
    assert busy in index.data(Qt.ItemDataRole.ToolTipRole)
    assert cell(panel, "Red Knight", ACTION) == "Spent"
    assert log_lines(panel)[0] == (
        "Red Knight (Red) is Busy digging a trench for 2 of its turns (Stopped, 4.2)"
    )

    # Blue's turn: the busy Knight can't respond; every respond entry says why.
    assert panel.end_turn()
    menu = unit_menu(panel, knight)
    why = "Red Knight is Busy digging a trench (4.2 Long Actions)."
    assert entry(menu, why) is not None
    attack = entry(menu, "Attack")
    assert not attack.isEnabled() and attack.toolTip() == why
    assert not entry(menu, "Who acts first against").isEnabled()
    assert not entry(menu, "Close Combat attack").isEnabled()

    # Still busy on its own next turn, then the organizer ends it early.
    assert panel.end_turn()
    assert busy in cell(panel, "Red Knight", STATUS)
    own = unit_menu(panel, knight)
    assert not entry(own, "Long action").isEnabled()
    assert not entry(own, "Attack").isEnabled()
    assert entry(own, busy).text() == busy + " (4.2 Long Actions)"  # why, atop the Act menu
    clear = entry(entry(own, "Status").menu(), "Busy: digging a trench")
    assert clear.text().endswith("clear to end it early") and clear.isChecked()
    clear.trigger()
    assert "Busy" not in cell(panel, "Red Knight", STATUS)
    assert log_lines(panel)[0] == "Red Knight (Red) is no longer Busy"


def test_the_long_action_dialog_follows_the_edition(qtbot) -> None:
    # 2005 4.2 Large Actions: "the number of minifigs required (or turns required for a single
    # minifig) to perform a Large Action is equal to the Size in inches of the object being
    # used."
    dialog = LongActionDialog(None, "Red Knight", RULES_2005)
    qtbot.addWidget(dialog)
    assert dialog.full_turn.text() == "Extended Action (uses the whole Movement and Action)"
    assert dialog.large is not None
    dialog.large.setChecked(True)
    dialog.size_box.setValue(5)
    assert dialog.chosen_turns() == 5
    dialog.minifigs.setValue(2)
    assert dialog.chosen_turns() == 3
    assert "this turn and its next 2" in dialog.summary.text()
    quick = dialog.findChild(type(dialog.summary), "quickActions")
    assert 'Standing up from a prone position -2"' in quick.text()
    # Nothing said: the message is at the field and nothing is returned.
    assert dialog.request() is None
    assert dialog.what_error.isVisibleTo(dialog)
    assert "Say what the unit is busy with" in dialog.what_error.text()
    dialog.what.setText("  raising the portcullis ")
    assert dialog.request() == LongActionRequest("raising the portcullis", 3)

    later = LongActionDialog(None, "Red Knight", RULES_2020)
    qtbot.addWidget(later)
    assert later.large is None
    assert later.full_turn.text() == "Full-turn Action (Stopped, no other Action)"
    later.what.setText("rowing the boat")
    later.extended.setChecked(True)
    later.turns.setValue(4)
    assert later.request() == LongActionRequest("rowing the boat", 4)


# -- Who Acts First (4.3) ---------------------------------------------------------------------


def test_2005_who_acts_first_is_skill_minus_use_and_goes_in_the_log(
    qtbot, panel_2005: BattlePanel, table: Table, monkeypatch
) -> None:
    # 2005 4.3: "The unit with the higher total acts first, even if their total was less than
    # zero" (High Noon: Wayne 2-3 = -1 beats Shaun 1-3 = -2).
    panel = panel_2005
    red, blue = table.ids["Red Rifle"], table.ids["Blue Rifle"]
    dialog = WhoFirstDialog(panel, panel.view, red, blue)
    qtbot.addWidget(dialog)
    assert "Skill Roll minus Use" in dialog.findChild(type(dialog.outcome), "whoFirstRule").text()
    assert dialog.inch.isHidden() and not dialog.to_movement.isHidden()
    dialog.active_use.setValue(3)
    dialog.responder_use.setValue(3)
    dialog.faces.setText("2 1")
    dialog.typed.setChecked(True)
    assert not dialog.record_button.isEnabled()
    result = dialog.decide()
    assert result is not None
    text = (
        "Red Rifle acts before Blue Rifle: Skill Roll minus Use: Red Rifle 2-3 = -1, "
        "Blue Rifle 1-3 = -2; higher first (4.3 Who Acts First)"
    )
    assert dialog.outcome.text() == f"<b>{text}</b>"
    assert dialog.record_button.isEnabled() and dialog.record_button.isDefault()
    dialog.responder_use.setValue(2)  # a changed fact: decide again
    assert not dialog.record_button.isEnabled() and dialog.outcome.text() == ""

    # From Blue Rifle's respond menu on Red's turn: the decision is recorded in the log.
    asked = []
    monkeypatch.setattr(
        WhoFirstDialog,
        "ask",
        classmethod(lambda cls, parent, view, a, r: asked.append((a, r)) or result),
    )
    before = len(panel.view.standing_events)
    who = entry(unit_menu(panel, blue), "Who acts first against").menu()
    assert [a.text() for a in who.actions()] == [
        "Red Knight (Red)",
        "Red Rifle (Red)",
        "Red Pike (Red)",
    ]  # the acting player's
    entry(who, "Red Rifle").trigger()
    assert asked == [(red, blue)]
    assert log_lines(panel)[0] == (
        "Who acts first: Red Rifle (Red) acts before Blue Rifle (Blue) (Skill Roll minus Use: "
        "Red Rifle 2-3 = -1, Blue Rifle 1-3 = -2; higher first (4.3 Who Acts First))"
    )
    assert [e.kind for e in panel.view.standing_events[before:]] == ["first_to_act"]
    assert panel.message_text == text
    assert panel.undo() and len(panel.view.standing_events) == before


def test_2020_who_acts_first_asks_the_inch_and_simultaneity(
    qtbot, panel: BattlePanel, table: Table
) -> None:
    # 2020 4.3: "If a minifig is able to act or react while his opponent is still an inch or
    # more away from acting himself, then the minifig acts first. Otherwise, both Actions
    # occur simultaneously if possible, and with the higher Action Roll going first otherwise."
    red, blue = table.ids["Red Knight"], table.ids["Blue Knight"]
    dialog = WhoFirstDialog(panel, panel.view, red, blue, dice=TypedDice([]))
    qtbot.addWidget(dialog)
    assert dialog.to_movement.isHidden() and not dialog.inch.isHidden()
    assert dialog.active_half.isHidden()  # speed matters in 2010 only
    dialog.inch.setChecked(True)
    assert not dialog.faces.isEnabled()  # no dice decide this
    assert (
        dialog.decide()
        .describe()
        .startswith("Blue Knight acts before Red Knight: the enemy is still an inch or more")
    )
    dialog.inch.setChecked(False)
    assert "act at the same time" in dialog.decide().describe()
    dialog.at_once.setChecked(False)
    assert dialog.faces.isEnabled()
    dialog.typed.setChecked(True)
    dialog.faces.setText("3 x")
    assert dialog.decide() is None
    assert "'x' is not a die's face" in dialog.dice_error.text()
    dialog.faces.setText("3 3")  # a tie rolls again: one more pair is needed
    assert dialog.decide() is None
    assert "type the face of die 3" in dialog.dice_error.text()
    dialog.faces.setText("3 3 5 2")
    assert dialog.decide().describe() == (
        "Red Knight acts before Blue Knight: both can't happen at once: higher Action Roll "
        "first, Red Knight 5, Blue Knight 2 after 1 tie(s) rolled again (4.3 Who Acts First)"
    )


def test_2010_who_acts_first_puts_regular_speed_before_half_speed(
    qtbot, sv: Services, table: Table, qsettings: QSettings
) -> None:
    # 2010 4.3: "If a simultaneous result isn't possible, then a minifig moving at regular
    # speed takes his Action before a minifig moving at Half Speed."
    panel = _panel(qtbot, sv, table, qsettings, "2010")
    red, blue = table.ids["Red Knight"], table.ids["Blue Knight"]
    assert panel.commands.set_status(red, Status.HALF_SPEED)
    dialog = WhoFirstDialog(panel, panel.view, red, blue)
    qtbot.addWidget(dialog)
    assert dialog.active_half.isChecked() and not dialog.responder_half.isChecked()
    dialog.at_once.setChecked(False)
    assert not dialog.faces.isEnabled()  # speed decides, not dice
    assert dialog.decide().describe() == (
        "Blue Knight acts before Red Knight: Blue Knight moves at regular speed, the other at "
        "Half Speed (BrikWars 2010) (4.3 Who Acts First)"
    )
    dialog.active_half.setChecked(False)
    assert dialog.faces.isEnabled()


# -- Sprint (4.1) -----------------------------------------------------------------------------


def test_sprint_opens_the_sprint_dialog(
    qtbot, panel: BattlePanel, sv: Services, table: Table, monkeypatch
) -> None:
    pike = table.ids["Red Pike"]
    opened = []
    panel.forms = replace(panel.forms, sprint=lambda *a, **k: opened.append((a, k)))
    entry(unit_menu(panel, pike), "Sprint").trigger()
    ((args, kwargs),) = opened
    assert args == (panel, sv, table.battle_id, pike)
    assert kwargs == {"bus": panel.bus, "undo_stack": panel.undo_stack}
    assert cell(panel, "Red Pike", ACTION) == "Ready"  # the dialog records, not the menu
    # A Sprint the rules refuse is refused before the dialog opens (4.2: one Action a turn).
    rifle = table.ids["Red Rifle"]
    assert panel.commands.spend(rifle, ActionUse.ATTACK)
    sprint = entry(unit_menu(panel, rifle), "Sprint")
    assert not sprint.isEnabled()
    assert sprint.toolTip() == "Red Rifle has already spent its Action this turn. (4.2 Action)"
    panel.select_unit(rifle)
    panel.table.setFocus()
    qtbot.keyClick(panel.table, Qt.Key.Key_S)  # the key: refused before the dialog opens
    assert len(opened) == 1
    assert panel.message_kind == "error"
    assert panel.message_text.endswith(
        "Red Rifle has already spent its Action this turn.  (4.2 Action)"
    )


# -- warnings the organizer may overrule ------------------------------------------------------


@pytest.mark.parametrize("overrule", [False, True])
def test_a_second_strike_warns_before_it_is_recorded(
    qtbot, panel: BattlePanel, table: Table, overrule: bool
) -> None:
    # 5.2 Striking: "If he has a second weapon ready in hand, he can use it to make a second
    # Strike against the same target."
    red, blue = table.ids["Red Knight"], table.ids["Blue Knight"]
    assert panel.commands.close_combat_attack(red, blue)
    before = log_lines(panel)
    counter = unit_menu(panel, red)
    entry(counter, "Counterstrike Blue Knight").trigger()  # its dice in the quick form
    form = quick_form_of(qtbot, panel)
    keys(qtbot, "1")
    assert form.problem.text().startswith(
        "A second Strike needs a second weapon ready in Red Knight's hand (5.2 Striking)"
    )
    assert not form.record_button.isEnabled()
    if not overrule:
        QTest.keyClick(form, Qt.Key.Key_Escape)
        assert log_lines(panel) == before
        assert panel.view.state.unit(red).counters_used == 1
        return
    QTest.keyClick(form, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    wizard = form.wizard
    qtbot.waitExposed(wizard)
    while wizard.currentId() != wizard.RESULT:
        wizard.next()
    qtbot.mouseClick(wizard.pages[wizard.RESULT].overrule, Qt.MouseButton.LeftButton)
    assert "Red Knight (Red) with a Counter: strike on Blue Knight (Blue)" in log_lines(panel)[0]
    assert "overruled" in log_lines(panel)[0]
    assert panel.view.state.unit(red).counters_used == 2
    assert panel.undo()  # one step: the Counter, its dice and the overrule go together
    assert [line for line in log_lines(panel) if not line.startswith("↶ undone")] == before


def test_no_warning_no_question(panel: BattlePanel, table: Table, monkeypatch) -> None:
    monkeypatch.setattr(OverruleBox, "ask", classmethod(lambda cls, *a: pytest.fail("asked")))
    assert panel.commands.close_combat_attack(table.ids["Red Knight"], table.ids["Blue Knight"])
    assert panel.commands.use_counter(
        table.ids["Blue Knight"], table.ids["Red Knight"], CounterUse.PARRY
    )


def test_a_response_strike_at_a_minifig_moving_past_can_be_marked_passing_by(
    panel: BattlePanel, table: Table, monkeypatch
) -> None:
    # 2020 4.1: "If he declines to Parry and survives, he can ignore the attack and continue
    # moving."
    red, blue = table.ids["Red Knight"], table.ids["Blue Knight"]
    shown = []
    monkeypatch.setattr(
        OverruleBox,
        "ask",
        classmethod(
            lambda cls, parent, ws, passing_by: (
                shown.append(([str(w) for w in ws], passing_by)) or Choice.PASSING_BY
            )
        ),
    )
    monkeypatch.setattr(UnitPicker, "ask", classmethod(lambda cls, *a: red))
    monkeypatch.setattr(OutcomeAsker, "ask", classmethod(lambda cls, *a: "missed"))
    fight = entry(unit_menu(panel, blue), "Close Combat attack in response").menu()
    entry(entry(fight, "Strike").menu(), "Resolved at the table").trigger()
    assert shown == [
        (
            [
                "If Red Knight is moving past, mark the attack 'passing by': he can "
                "ignore it and keep moving unless he Parries (4.1 Movement)"
            ],
            True,
        )
    ]
    # Recorded as passing by: Red Knight is not locked in Close Combat, and no overrule.
    assert not panel.view.state.unit(red).close_combat
    assert not any(e.kind == "warning_overruled" for e in panel.view.standing_events)
    assert log_lines(panel)[0] == (
        "Blue Knight (Blue) responds: Strikes Red Knight (Red) — resolved at the table: missed"
    )
