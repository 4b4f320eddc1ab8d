"""The combat wizard's "Brawl" choice (5.2 Counters and Actions, the Hank and Butch brawl;
battle reading brawl): a Close Combat attack may join a brawl going on nearby, and the
choice is stored on the attack's event."""

from __future__ import annotations

from PySide6.QtGui import QUndoStack

from brikdesk.domain.battle import CloseCombatAttack, CounterUsed, engagement
from tests.ui.wizard_steps import (
    attack_events,
    choose_target,
    finish,
    page,
    to_result,
    wizard_on,
)


def test_a_response_strike_joins_the_brawl_next_to_it(qtbot, battle):
    """Guy of Gisbourne has Will Scarlet in Close Combat; Guard Bert Strikes Little John in
    response and the organizer says he joins that brawl: one Close Combat of four, so Will
    may Counter Bert, whom he never fought (as Hank Counterattacks the Outlaw who fought
    Butch)."""
    ids = battle.ids
    guy, will, bert, john = (
        ids["Guy of Gisbourne"],
        ids["Will Scarlet"],
        ids["Guard Bert"],
        ids["Little John"],
    )
    battle.services.tracker.record(
        battle.battle_id, [CloseCombatAttack(guy, will, as_response=True)]
    )
    w = wizard_on(qtbot, battle, QUndoStack(), "Guard Bert")
    p1 = page(w, 0)
    choose_target(w, john)
    assert p1.brawl.isVisible() and p1.brawl_label.isVisible()
    labels = [p1.brawl.itemText(i) for i in range(p1.brawl.count())]
    assert labels == ["A fight of its own", "Joins the brawl of Guy of Gisbourne, Will Scarlet"]
    assert p1.brawl.value() is None  # a fight of its own unless the organizer says so
    p1.brawl.choose(guy)
    assert w.draft.brawl == guy
    to_result(qtbot, w, "2", "1")
    finish(qtbot, w)
    event = attack_events(battle)[-1]
    assert event.event.brawl == guy
    assert "joining the brawl of Guy of Gisbourne" in event.text
    state = battle.view().state
    assert engagement(state, will) == {guy, will, bert, john}
    battle.services.tracker.record(battle.battle_id, [CounterUsed(will, bert)])  # accepted


def test_no_brawl_row_when_there_is_no_other_brawl(qtbot, battle):
    w = wizard_on(qtbot, battle, QUndoStack(), "Will Scarlet")
    choose_target(w, battle.ids["Guy of Gisbourne"])
    assert not page(w, 0).brawl.isVisible() and not page(w, 0).brawl_label.isVisible()


def test_help_rules_reference_shows_the_brawl_and_disengage_readings(qtbot):
    from ui.dialogs.rules_reference import RulesReferenceDialog

    d = RulesReferenceDialog(None)
    qtbot.addWidget(d)
    text = " ".join(d.plain_text().split())
    assert "joins the brawl of" in text  # reading brawl (5.2)
    assert "every opponent of the brawl he leaves" in text  # reading disengage_brawl
    assert "Disengaging: each opponent left may make one Counterstrike first" in text
