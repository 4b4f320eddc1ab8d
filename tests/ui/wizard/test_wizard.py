"""The combat wizard driven like the organizer would: pages, typed dice, Finish, Undo, Cancel.

Each test gets its own copy of a small battle made through the services (``wizard_battle``).
The wizard is shown with ``show()`` (never a modal ``exec()``) and driven with qtbot.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QApplication, QWizard

from brikdesk.domain.battle import ActionState
from brikdesk.domain.combat import AttackKind, Reaction
from tests.ui.wizard_steps import (
    attack_events,
    choose_target,
    finish,
    indicator,
    next_page,
    page,
    running_at,
    throw_grenade,
    type_faces,
    wizard_on,
)
from ui.bus import Bus
from ui.widgets.battle_context import context_from_view
from ui.wizard import CombatWizard, open_combat_wizard


@pytest.fixture
def open_wizard(qtbot, battle):
    stack = QUndoStack()

    def make(attacker: str, *, seed: int = 1) -> CombatWizard:
        return wizard_on(qtbot, battle, stack, attacker, seed=seed)

    return make


def test_a_distance_beyond_any_table_is_refused_where_it_is_typed(qtbot, open_wizard, battle):
    w = open_wizard("Thieven Hood")
    next_page(qtbot, w)
    p2 = page(w, 1)
    qtbot.keyClicks(p2.distance, "999999999999")
    assert p2.input_problem.isVisible()
    assert "can't be more than 1000 inches" in p2.input_problem.text()
    assert w.draft.distance is None  # no Action Roll of -999999999989
    p2.distance.clear()
    qtbot.keyClicks(p2.distance, "15")
    assert not p2.input_problem.isVisible()
    assert w.draft.distance == 15


def test_a_bad_visible_size_is_explained_at_the_field_not_taken_as_0(qtbot, open_wizard):
    """A large target's visible Size that isn't a number says so under the modifiers, and the
    draft keeps the last good value (it used to become 0 without a word)."""
    from brikdesk.domain.attack import SizeClass

    w = open_wizard("Thieven Hood")
    next_page(qtbot, w)
    qtbot.keyClicks(page(w, 1).distance, "6")
    next_page(qtbot, w)
    p3 = page(w, 2)
    p3.modifiers.judge_size.choose((SizeClass.LARGE, 3))
    assert p3.modifiers.visible.isVisible()
    qtbot.keyClicks(p3.modifiers.visible, "4")
    assert w.draft.visible_size == 4 and not p3.modifiers.visible_problem.isVisible()
    qtbot.keyClicks(p3.modifiers.visible, "x")
    assert p3.modifiers.visible_problem.isVisible()
    assert (
        "visible Size must be a number of inches, not '4x'" in p3.modifiers.visible_problem.text()
    )
    assert w.draft.visible_size == 4
    qtbot.keyClick(p3.modifiers.visible, Qt.Key.Key_Backspace)
    assert not p3.modifiers.visible_problem.isVisible() and w.draft.visible_size == 4


def test_a_judgement_repaints_the_page_not_the_whole_wizard(qtbot, open_wizard):
    """Ticking a judgement doesn't tell the wizard the page's completeness changed (QWizard
    repaints the whole window each time it is told); Next still follows completeness when
    it does change, also after going Back."""
    w = open_wizard("Thieven Hood")
    next_page(qtbot, w)
    p2 = page(w, 1)
    next_button = w.button(QWizard.WizardButton.NextButton)
    assert not next_button.isEnabled()  # no distance yet
    qtbot.keyClicks(p2.distance, "6")
    assert next_button.isEnabled()
    next_page(qtbot, w)
    p3 = page(w, 2)
    with qtbot.assertNotEmitted(p3.completeChanged):
        p3.modifiers.disrupted.click()
    assert w.draft.target_disrupted is True
    w.back()
    p2.distance.clear()
    qtbot.keyClicks(p2.distance, "x")
    assert not next_button.isEnabled()
    p2.distance.clear()
    qtbot.keyClicks(p2.distance, "7")
    assert next_button.isEnabled() and w.draft.distance == 7


class TestThievenHood:
    def test_the_rope_shot_with_typed_dice(self, qtbot, open_wizard, battle):
        w = open_wizard("Thieven Hood")
        p1 = page(w, 0)
        choose_target(w, "object")
        p1.object_name.setText("the rope")
        p1.object_name.textEdited.emit("the rope")
        p1.object_armor.setText("1")
        p1.object_armor.textEdited.emit("1")
        assert w.draft.target_object.name == "the rope"
        assert "1x1 stud" in p1.object_size.currentText()
        next_page(qtbot, w)
        qtbot.keyClicks(page(w, 1).distance, "15")
        assert page(w, 1).cells["out"].text() == '5" → -5'  # inches beyond, and the penalty
        next_page(qtbot, w)
        p3 = page(w, 2)
        assert p3.need.text() == "10+"  # Use 3, -2 for the rope, -5 for 5" out of Range
        type_faces(qtbot, w, 2, "8")
        assert p3.benny.isVisible()
        qtbot.keyClick(p3.benny, Qt.Key.Key_R)
        assert "a <b>d6</b>" in p3.dice.prompt.text() and "Range" in p3.dice.prompt.text()
        type_faces(qtbot, w, 2, "2")
        assert "8-2-3 = 3 vs Use 3: hit" in p3.outcome.text()
        next_page(qtbot, w)
        p4 = page(w, 3)
        assert p4.armor.text() == "1"
        assert p4.kill.text() == "50.0%"  # 1d6+1-3 beats 1 on a 4, 5 or 6
        type_faces(qtbot, w, 3, "2")
        next_page(qtbot, w)
        p5 = page(w, 4)
        assert p5.paragraph.text() == (
            "Thieven Hood's longbow hits the rope; 2+1-3 = 0 Damage does not beat Armor 1: ka-ping."
        )
        assert attack_events(battle) == []  # nothing written before Finish
        finish(qtbot, w)
        events = battle.events()
        assert len(events) == 1
        assert events[0].note.startswith("Thieven Hood's longbow hits the rope")
        payload_dice = events[0].event.details["dice"]
        assert [(d["sides"], d["face"], d["role"]) for d in payload_dice] == [
            (10, 8, "natural"),
            (6, 2, "Benny"),
            (6, 2, "natural"),
        ]

    def test_keyboard_only_in_under_ten_keystrokes(self, qtbot, open_wizard, battle):
        """A whole Ranged attack with typed dice: count every key that is not a number."""
        w = open_wizard("Thieven Hood")
        keys = {"other": 0, "digits": 0}

        def press(key: str) -> None:
            QApplication.processEvents()
            target = QApplication.focusWidget()
            assert target is not None and target.window() is w
            if key.isdigit():
                keys["digits"] += 1
                qtbot.keyClicks(target, key)
            else:
                keys["other"] += 1
                code = {"Enter": Qt.Key.Key_Return}.get(key)
                if code is not None:
                    qtbot.keyClick(target, code)
                else:
                    qtbot.keyClicks(target, key)

        target = battle.ids["Guy of Gisbourne"]
        assert w.draft.target_id == target
        press("Enter")  # Attack page: the defaults are right
        for k in "8":
            press(k)  # distance
        press("Enter")
        assert w.currentId() == CombatWizard.ACTION
        press("9")  # Action die d10: 9, Over the Top
        press("D")  # Benny: one more Damage die
        press("Enter")  # to Damage
        assert w.currentId() == CombatWizard.DAMAGE
        for k in "52":  # 1d6+1 and the Benny's d6
            press(k)
        press("Enter")  # to Result
        assert w.currentId() == CombatWizard.RESULT
        press("Enter")  # Finish
        QApplication.processEvents()
        assert keys["other"] < 10, keys
        assert not w.isVisible()
        events = attack_events(battle)
        assert len(events) == 1 and events[0].event.killed == (target,)

    def test_the_odds_follow_every_judgement(self, qtbot, open_wizard, battle):
        """Thieven Hood (d10) shoots Guy 8" away with a longbow (Use 3, 1d6+1, Range 10"):
        3+ on the d10, then 4+ once only two of Guy's three sections are visible."""
        from brikdesk.domain.attack import SizeClass
        from brikdesk.domain.odds import attack_odds, percent

        w = open_wizard("Thieven Hood")
        next_page(qtbot, w)
        qtbot.keyClicks(page(w, 1).distance, "7.5")
        assert page(w, 1).cells["out"].text() == "in Range"
        next_page(qtbot, w)
        p3 = page(w, 2)

        def shown() -> tuple[str, ...]:
            return tuple(
                p3.odds.values[k].text()
                for k in ("critical_failure", "over_the_top", "hit", "kill")
            )

        plain = attack_odds(10, 3, "1d6+1", 4)
        assert p3.need.text() == "3+"
        assert shown() == ("10.0%", "50.0%", "80.0%", percent(plain.kill))
        chart = p3.chart.chart
        assert chart.bar_count == 10 and chart.line.value() == 2.5  # the line before the 3
        p3.modifiers.judge_size.choose((SizeClass.MINIFIG, 2))
        assert w.draft.sections_visible == 2
        harder = attack_odds(10, 3, "1d6+1", 4, action_mod=-1)
        assert p3.need.text() == "4+"
        assert shown() == ("10.0%", "50.0%", "70.0%", percent(harder.kill))
        assert chart.line.value() == 3.5
        assert "-1" in [v.text() for v, _what in p3.modifiers.row_widgets if v.isVisible()]
        # Cancel: the chart is let go (out of the window) before the wizard and its pages are
        # deleted, so no late paint reaches a view without a scene.
        w.reject()
        assert p3.chart.chart is None and chart.parent() is None and not chart.isVisible()
        # The next attack's Action Roll chart shows that attack: Will Scarlet's d6, 2+ to hit.
        w2 = open_wizard("Will Scarlet")
        choose_target(w2, battle.ids["Guard Alan"])
        next_page(qtbot, w2)
        next_page(qtbot, w2)
        p3 = page(w2, 2)
        assert p3.need.text() == "2+"
        chart = p3.chart.chart
        assert chart.isVisible() and w2.isAncestorOf(chart)
        assert chart.bar_count == 6 and chart.line.value() == 1.5  # the line before the 2
        w2.reject()

    def test_virtual_dice_are_kept_as_faces(self, qtbot, open_wizard, battle):
        w = open_wizard("Thieven Hood", seed=5)
        next_page(qtbot, w)
        qtbot.keyClicks(page(w, 1).distance, "6")
        next_page(qtbot, w)
        p3 = page(w, 2)
        qtbot.mouseClick(p3.dice.roll_button, Qt.MouseButton.LeftButton)
        assert len(w.draft.action_faces) >= 1
        stage = w.action_stage()
        if stage.pending:
            p3.benny.pick_letter("N")
        assert w.action_stage().complete
        chips = p3.dice.chips_layout.count() - 1
        assert chips == len(w.action_stage().dice)

    def test_a_benny_spent_on_an_embellishment(self, qtbot, open_wizard, battle):
        w = open_wizard("Thieven Hood")
        next_page(qtbot, w)
        qtbot.keyClicks(page(w, 1).distance, "6")
        next_page(qtbot, w)
        p3 = page(w, 2)
        type_faces(qtbot, w, 2, "9")
        qtbot.keyClick(p3.benny, Qt.Key.Key_E)
        QApplication.processEvents()
        assert p3.embellishment.isVisible() and p3.embellishment.hasFocus()
        qtbot.keyClicks(p3.embellishment, "the arrow pins his hat to the door")
        assert "the arrow pins his hat to the door" in p3.outcome.text()
        next_page(qtbot, w)
        type_faces(qtbot, w, 3, "1")
        next_page(qtbot, w)
        finish(qtbot, w)
        assert "pins his hat" in attack_events(battle)[0].event.details["lines"][1]


class TestReactionsAndDamage:
    def test_shield_parry_deflects(self, qtbot, open_wizard, battle):
        w = open_wizard("Will Scarlet")
        choose_target(w, battle.ids["Guy of Gisbourne"])
        assert w.draft.kind is AttackKind.STRIKE
        next_page(qtbot, w)
        next_page(qtbot, w)
        p3 = page(w, 2)
        values = p3.reaction_card.reaction.values()
        assert (Reaction.PARRY, "shield") in values
        p3.reaction_card.reaction.choose((Reaction.PARRY, "shield"))
        assert "Shield Use 2" in p3.reaction_card.reaction_text.text()
        type_faces(qtbot, w, 2, "4")  # Will's Action die: hit
        assert "Parry" in p3.dice.prompt.text()
        type_faces(qtbot, w, 2, "3")  # Guy's Parry: 3 against Use 2
        assert "1 level of Deflection" in p3.outcome.text()
        next_page(qtbot, w)
        p4 = page(w, 3)
        assert "Deflection: Guy of Gisbourne's Shield Parry" in p4.lines.text()
        assert "Nothing to roll" in p4.outcome.text() or "0 Damage" in p4.outcome.text()
        next_page(qtbot, w)
        assert "ka-ping" in page(w, 4).paragraph.text()
        finish(qtbot, w)
        kinds = [e.kind for e in battle.events()]
        assert kinds == ["action_spent", "attack_resolved"]
        state = battle.view().state
        assert state.unit(battle.ids["Guy of Gisbourne"]).counters_used == 1

    def test_hero_armor_is_rolled(self, qtbot, open_wizard, battle):
        w = open_wizard("Will Scarlet")
        choose_target(w, battle.ids["The Sheriff"])
        next_page(qtbot, w)
        next_page(qtbot, w)
        type_faces(qtbot, w, 2, "5")
        next_page(qtbot, w)
        p4 = page(w, 3)
        assert "rolled each time" in p4.armor_text.text()
        type_faces(qtbot, w, 3, "6")
        assert "bonus" in p4.dice.prompt.text()
        type_faces(qtbot, w, 3, "3")
        assert "Armor of The Sheriff" in p4.dice.prompt.text()
        type_faces(qtbot, w, 3, "42")
        assert "9 Damage beats Armor 2d6 (rolled 4+2 = 6)" in p4.outcome.text()
        next_page(qtbot, w)
        finish(qtbot, w)
        sheriff = battle.ids["The Sheriff"]
        assert battle.view().state.unit(sheriff).dead
        assert attack_events(battle)[0].event.killed == (sheriff,)

    def test_critical_failure(self, qtbot, open_wizard, battle):
        w = open_wizard("Thieven Hood")
        next_page(qtbot, w)
        qtbot.keyClicks(page(w, 1).distance, "5")
        next_page(qtbot, w)
        p3 = page(w, 2)
        qtbot.keyClicks(p3.dice.edit, "1")
        qtbot.keyClick(p3.dice.edit, Qt.Key.Key_Return)  # a 1 on a d10 waits for Enter
        assert p3.verdict.text() == "Critical failure!"
        assert "natural 1, a critical failure" in p3.outcome.text()
        assert w.currentId() == CombatWizard.ACTION  # Enter took the face, not the page
        next_page(qtbot, w)
        assert page(w, 3).missed_label.isVisible()
        next_page(qtbot, w)
        assert "critical failure" in page(w, 4).paragraph.text()
        finish(qtbot, w)
        outcome = attack_events(battle)[0].event.details["outcome"]
        assert outcome["critical_failure"] is True and outcome["hit"] is False

    def test_missed_shot_strikes_a_guard(self, qtbot, open_wizard, battle):
        w = open_wizard("Thieven Hood")
        next_page(qtbot, w)
        qtbot.keyClicks(page(w, 1).distance, "8")
        next_page(qtbot, w)
        type_faces(qtbot, w, 2, "2")  # 2 against Use 3: missed by 1
        assert 'Missed Shot: lands within 1"' in page(w, 2).outcome.text()
        next_page(qtbot, w)
        p4 = page(w, 3)
        assert 'within 1"' in p4.missed_label.text()
        bert = battle.ids["Guard Bert"]
        p4.missed.choose(bert)
        type_faces(qtbot, w, 3, "5")
        assert "5+1 = 6 Damage beats Armor 4" in p4.outcome.text()
        next_page(qtbot, w)
        finish(qtbot, w)
        assert battle.view().state.unit(bert).dead
        assert attack_events(battle)[0].event.killed == (bert,)

    def test_charge_with_knockback(self, qtbot, open_wizard, battle):
        w = open_wizard("Little John")
        alan = battle.ids["Guard Alan"]
        running_at(qtbot, w, alan, AttackKind.CHARGE)
        assert w.draft.has_mom is True
        next_page(qtbot, w)
        type_faces(qtbot, w, 2, "2")  # misses Use 4
        next_page(qtbot, w)
        p4 = page(w, 3)
        assert p4.collide.isVisible() and p4.collide.isChecked()
        type_faces(qtbot, w, 3, "52")  # MOM 5 against POP 2
        assert 'Knocked Back 3"' in p4.outcome.text()
        next_page(qtbot, w)
        assert "Disrupted" in page(w, 4).changes.text()
        finish(qtbot, w)
        assert battle.view().state.unit(alan).disrupted

    def test_a_combined_attack_adds_the_damage(self, qtbot, open_wizard, battle):
        w = open_wizard("Will Scarlet")
        guy, john = battle.ids["Guy of Gisbourne"], battle.ids["Little John"]
        choose_target(w, guy)
        joiners = page(w, 0).joiners

        def john_row():
            return next(
                joiners.item(i)
                for i in range(joiners.count())
                if joiners.item(i).data(Qt.ItemDataRole.UserRole) == john
            )

        john_row().setCheckState(Qt.CheckState.Checked)
        assert [j.unit_id for j in w.draft.joiners] == [john]
        assert john_row().text().endswith(": Two-Handed Weapon")
        next_page(qtbot, w)
        next_page(qtbot, w)
        p3 = page(w, 2)
        assert "Little John: 4+, hit 50.0%" in p3.joiner_text.text()
        assert "Little John (Two-Handed Weapon): needs 4 or more" in p3.joiner_text.toolTip()
        # 5.1 Combined Attacks: the Destroy figure is the attackers' together.
        assert p3.odds.heads["kill"].text() == "Both destroy"
        assert "Together they destroy" in p3.odds.heads["kill"].toolTip()
        type_faces(qtbot, w, 2, "4")  # Will hits Use 2
        assert "Little John" in p3.dice.prompt.text()
        type_faces(qtbot, w, 2, "5")  # John hits Use 4
        next_page(qtbot, w)
        p4 = page(w, 3)
        assert "Combined Attack" in p4.lines.text()
        type_faces(qtbot, w, 3, "212")  # Will 2; John 1 and 2: 5 against Armor 4
        assert "combined Damage" in p4.outcome.text()
        next_page(qtbot, w)
        finish(qtbot, w)
        event = attack_events(battle)[0].event
        assert [p.unit for p in event.participants] == [battle.ids["Will Scarlet"], john]
        assert event.killed == (guy,)

    def test_a_fumbled_parry_offers_to_note_the_knocked_away_shield(
        self, qtbot, open_wizard, battle
    ):
        w = open_wizard("Will Scarlet")
        guy = battle.ids["Guy of Gisbourne"]
        choose_target(w, guy)
        next_page(qtbot, w)
        next_page(qtbot, w)
        p3 = page(w, 2)
        p3.reaction_card.reaction.choose((Reaction.PARRY, "shield"))
        type_faces(qtbot, w, 2, "51")  # Will hits with a 5; Guy's Parry shows a natural 1
        assert p3.verdict.text() == "Hit! · Parry fumbled: Shield knocked away"
        assert (
            "knocked out of Guy of Gisbourne's hands, 5\" directly away from Will Scarlet "
            "(Will Scarlet's Action Roll, 5.2)"
        ) in p3.outcome.text()
        assert [_chip_words(p3)] == [["d6 Action", "d6 Parry"]]
        next_page(qtbot, w)
        type_faces(qtbot, w, 3, "2")  # ka-ping: Guy lives, his Shield on the ground
        next_page(qtbot, w)
        p5 = page(w, 4)
        box = p5.knocked
        assert box.isVisible() and box.isChecked()
        assert (
            box.text() == "&Note in the battle log that Guy of Gisbourne's Shield is knocked away"
        )
        assert 'Shield lies 5" directly away from Will Scarlet' in p5.changes.text()
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=indicator(box))
        assert not w.draft.record_knocked_away and "lies 5" not in p5.changes.text()
        qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=indicator(box))
        assert "lies 5" in p5.changes.text()
        finish(qtbot, w)
        outcome = attack_events(battle)[0].event.details["outcome"]
        assert outcome["knocked_away"]["unit"] == guy and outcome["knocked_away"]["inches"] == 5
        # The next time Guy Parries, the wizard reminds the table the Shield may be on the ground.
        w2 = open_wizard("Will Scarlet")
        choose_target(w2, guy)
        next_page(qtbot, w2)
        next_page(qtbot, w2)
        shield = page(w2, 2).reaction_card.reaction.values().index((Reaction.PARRY, "shield"))
        assert (
            page(w2, 2)
            .reaction_card.reaction.itemText(shield)
            .endswith("knocked away in round 1: only if picked up since")
        )

    def test_the_blast_lists_each_target_with_its_chance(self, qtbot, open_wizard, battle):
        w = open_wizard("Friar Tuck")
        sheriff = battle.ids["The Sheriff"]
        p4 = throw_grenade(qtbot, w, battle.ids["Guard Alan"], also=sheriff)
        text = p4.targets.text()
        assert "<b>Guard Alan</b>: Armor 4 — destroyed <b>60.0%</b>" in text
        assert "<b>The Sheriff</b>: Armor 2d6 — destroyed <b>29.7%</b>" in text
        type_faces(qtbot, w, 3, "734")  # 7 Damage; the Sheriff's Armor rolls 3 and 4
        assert p4.verdict.text() == "Destroyed!"
        assert (
            "The Sheriff: 7 = 7 Damage does not beat Armor 2d6 (rolled 3+4 = 7)"
            in p4.outcome.text()
        )
        next_page(qtbot, w)
        finish(qtbot, w)
        assert battle.view().state.unit(sheriff).disrupted
        assert attack_events(battle)[0].event.killed == (battle.ids["Guard Alan"],)

    def test_a_missed_charge_shows_the_chance_of_knockback(self, qtbot, open_wizard, battle):
        w = open_wizard("Little John")
        choose_target(w, battle.ids["Guard Alan"])
        page(w, 0).kind.choose(AttackKind.CHARGE)
        next_page(qtbot, w)
        page(w, 1).mom.setChecked(True)
        next_page(qtbot, w)
        type_faces(qtbot, w, 2, "2")
        next_page(qtbot, w)
        p4 = page(w, 3)
        assert p4.kill_head.text() == "Chance of KnockBack" and p4.kill.text() == "42.9%"
        qtbot.mouseClick(p4.collide, Qt.MouseButton.LeftButton, pos=indicator(p4.collide))
        assert p4.kill_head.text() == "Chance to destroy" and p4.kill.text() == "-"


def _chip_words(p) -> list[str]:
    """The size and purpose written under each die chip, in order."""
    lay = p.dice.chips_layout
    return [lay.itemAt(i).widget().words for i in range(lay.count() - 1)]


class TestNothingBeforeFinish:
    def test_cancel_stores_nothing(self, qtbot, open_wizard, battle):
        w = open_wizard("Thieven Hood")
        next_page(qtbot, w)
        qtbot.keyClicks(page(w, 1).distance, "4")
        next_page(qtbot, w)
        type_faces(qtbot, w, 2, "7")
        page(w, 2).benny.pick_letter("D")
        next_page(qtbot, w)
        type_faces(qtbot, w, 3, "66")
        qtbot.mouseClick(w.button(QWizard.WizardButton.CancelButton), Qt.MouseButton.LeftButton)
        assert not w.isVisible()
        assert battle.events() == ()
        assert w.undo_stack_for_test.count() == 0

    def test_back_changes_nothing_and_keeps_the_draft(self, qtbot, open_wizard, battle):
        w = open_wizard("Thieven Hood")
        next_page(qtbot, w)
        qtbot.keyClicks(page(w, 1).distance, "4")
        next_page(qtbot, w)
        type_faces(qtbot, w, 2, "5")
        draft = w.draft
        qtbot.mouseClick(w.button(QWizard.WizardButton.BackButton), Qt.MouseButton.LeftButton)
        qtbot.mouseClick(w.button(QWizard.WizardButton.BackButton), Qt.MouseButton.LeftButton)
        assert w.currentId() == CombatWizard.ATTACK
        next_page(qtbot, w)
        next_page(qtbot, w)
        assert w.draft == draft and w.action_stage().complete
        assert battle.events() == ()

    def test_finish_is_one_undo_step(self, qtbot, open_wizard, battle):
        w = open_wizard("Will Scarlet")
        guy = battle.ids["Guy of Gisbourne"]
        choose_target(w, guy)
        next_page(qtbot, w)
        next_page(qtbot, w)
        page(w, 2).reaction_card.reaction.choose((Reaction.PARRY, "shield"))
        type_faces(qtbot, w, 2, "51")  # hit; the Parry rolls a natural 1
        next_page(qtbot, w)
        type_faces(qtbot, w, 3, "5")
        next_page(qtbot, w)
        finish(qtbot, w)
        assert len(battle.events()) == 2 and battle.view().state.unit(guy).dead
        stack = w.undo_stack_for_test
        assert stack.count() == 1
        stack.undo()
        view = battle.view()
        assert view.standing_events == ()
        assert not view.state.unit(guy).dead
        assert view.state.unit(battle.ids["Will Scarlet"]).action is ActionState.READY
        stack.redo()
        assert battle.view().state.unit(guy).dead


class TestImprovised:
    def test_any_catalog_item_for_an_improvised_attack(self, qtbot, open_wizard, battle):
        """Will Scarlet picks up a Random Object (Use 4, 1dA-2) that is not in his loadout."""
        w = open_wizard("Will Scarlet")
        p1 = page(w, 0)
        choose_target(w, battle.ids["Guard Bert"])
        assert "random-object" not in p1.weapon.values()  # his loadout: sword, bare hands
        qtbot.mouseClick(p1.improvised, Qt.MouseButton.LeftButton, pos=indicator(p1.improvised))
        assert "random-object" in p1.weapon.values()
        shoot = p1.weapon.values().index("short-ranged-weapon")
        assert "can't: Short-Ranged Weapon is not a Close Combat weapon" in p1.weapon.itemText(
            shoot
        )  # refused for a Strike, and said why
        p1.weapon.choose("random-object")
        assert p1.summary.text().endswith("with the Random Object")
        next_page(qtbot, w)
        next_page(qtbot, w)
        assert page(w, 2).need.text() == "4+"
        type_faces(qtbot, w, 2, "5")
        next_page(qtbot, w)
        assert "Damage 1dA-2 = 1d6-2" in page(w, 3).lines.text()
        type_faces(qtbot, w, 3, "5")  # 5-2 = 3: ka-ping
        next_page(qtbot, w)
        finish(qtbot, w)
        details = attack_events(battle)[0].event.details
        assert details["weapon"] == "Random Object" and details["outcome"]["damage"] == 3


class TestFromTheBattlePanel:
    def test_the_whole_attack_undoes_in_one_step(self, qtbot, battle, tmp_path):
        """Opened from the battle panel, a Parried Strike records two events (the Parry and
        the attack); the panel's Undo takes both back at once, and Redo puts both back."""
        from PySide6.QtCore import QSettings

        from ui.main_window import combat_forms
        from ui.panels.battle_panel import BattlePanel

        settings = QSettings(str(tmp_path / "panel.ini"), QSettings.Format.IniFormat)
        stack = QUndoStack()
        panel = BattlePanel(
            battle.services,
            Bus(),
            stack,
            battle.battle_id,
            settings=settings,
            forms=combat_forms(),
        )
        qtbot.addWidget(panel)
        panel.show()
        will, guy = battle.ids["Will Scarlet"], battle.ids["Guy of Gisbourne"]
        assert panel.select_unit(will) and panel.open_wizard()
        w = panel.findChild(CombatWizard)
        assert w is not None and w.draft.attacker_id == will
        choose_target(w, guy)
        next_page(qtbot, w)
        next_page(qtbot, w)
        page(w, 2).reaction_card.reaction.choose((Reaction.PARRY, "shield"))
        type_faces(qtbot, w, 2, "43")  # hit; Parried with the Shield: no Damage dice left
        next_page(qtbot, w)
        next_page(qtbot, w)
        finish(qtbot, w)
        assert [e.kind for e in battle.events()] == ["action_spent", "attack_resolved"]
        assert stack.count() == 1
        assert panel.undo()
        assert stack.index() == 0  # the wizard's one command, undone as one step
        view = battle.view()
        assert view.standing_events == ()
        assert view.state.unit(will).action is ActionState.READY
        assert view.state.unit(guy).counters_used == 0 and not view.state.unit(guy).close_combat
        assert panel.redo()
        assert [e.kind for e in battle.events()] == ["action_spent", "attack_resolved"]


class TestExplained:
    def test_impossible_faces_are_refused_at_the_field(self, qtbot, open_wizard):
        w = open_wizard("Will Scarlet")
        next_page(qtbot, w)
        next_page(qtbot, w)
        p3 = page(w, 2)
        qtbot.keyClicks(p3.dice.edit, "7")
        assert p3.dice.edit.text() == ""
        assert "A d6 shows 1 to 6: it can't show 7" in p3.dice.refusal.text()
        for typed in ("0", "x"):
            qtbot.keyClicks(p3.dice.edit, typed)
            assert p3.dice.edit.text() == "" and p3.dice.refusal.isVisible()
            assert f"it can't show {typed}" in p3.dice.refusal.text()
        assert w.draft.action_faces == ()
        qtbot.keyClicks(p3.dice.edit, "6")  # a face it can show is taken at once
        assert w.draft.action_faces == (6,) and not p3.dice.refusal.isVisible()

    def test_a_d10_waits_for_a_second_digit_and_refuses_11(self, qtbot, open_wizard):
        w = open_wizard("Thieven Hood")
        next_page(qtbot, w)
        qtbot.keyClicks(page(w, 1).distance, "5")
        next_page(qtbot, w)
        edit = page(w, 2).dice.edit
        qtbot.keyClicks(edit, "1")
        assert edit.text() == "1" and w.draft.action_faces == ()  # 1 or 10?
        qtbot.keyClicks(edit, "1")
        assert edit.text() == "1" and "it can't show 11" in page(w, 2).dice.refusal.text()
        qtbot.keyClicks(edit, "0")
        assert w.draft.action_faces == (10,)

    def test_the_readings_are_shown_where_they_apply(self, qtbot, open_wizard, battle):
        """Where BrikDesk had to read the rules, the row or note says so and its tooltip
        gives the reading (a reading is shown where it applies, naming its section)."""
        from brikdesk.domain.attack import READINGS as ATTACK_READINGS
        from brikdesk.domain.combat import READINGS as WIZARD_READINGS

        w = open_wizard("Thieven Hood")
        next_page(qtbot, w)
        qtbot.keyClicks(page(w, 1).distance, "12.5")
        assert '12½" against a Range of 12"' in page(w, 1).preview_text.toolTip()
        next_page(qtbot, w)
        p3 = page(w, 2)
        rows = {
            what.text().split("<br>")[0]: what
            for _v, what in p3.modifiers.row_widgets
            if what.isVisible()
        }
        out = rows["3 inches beyond Range"]
        assert "5.1 Out of Range · BrikDesk's reading" in out.text()
        assert "BrikDesk's reading, 5.1 Out of Range" in out.toolTip()
        assert ATTACK_READINGS["5.1 Out of Range"].split(":")[0] in out.toolTip()
        p3.reaction_card.reaction.choose((Reaction.PARRY, "shield"))
        tip = p3.reaction_card.reaction_text.toolTip()
        assert "BrikDesk's reading, 5.2 Parrying" in tip
        assert "picking it up" in tip  # the wizard's own reading of the fumbled Parry
        # The dice card's heading has it; on a laptop (no heading: room for the die box),
        # the prompt of the die asked.
        assert any(
            WIZARD_READINGS["Dice"].split(",")[0] in lab.toolTip()
            for lab in p3.dice_box.findChildren(type(p3.verdict))
        )

    def test_a_disrupted_attacker_is_explained(self, qtbot, battle, open_wizard):
        from brikdesk.domain.battle import Status, StatusSet

        will = battle.ids["Will Scarlet"]
        battle.services.tracker.record(battle.battle_id, [StatusSet(will, Status.DISRUPTED)])
        w = open_wizard("Will Scarlet")
        p1 = page(w, 0)
        assert "Disrupted" in p1.problem.text() and p1.problem.isVisible()
        assert not w.button(QWizard.WizardButton.NextButton).isEnabled()
        assert "can't: Will Scarlet is Disrupted" in p1.attacker.currentText()

    def test_an_automatic_hit_skips_the_roll(self, qtbot, battle, open_wizard):
        from brikdesk.domain.battle import Status, StatusSet

        bert = battle.ids["Guard Bert"]
        battle.services.tracker.record(battle.battle_id, [StatusSet(bert, Status.DISRUPTED)])
        w = open_wizard("Will Scarlet")
        choose_target(w, bert)
        next_page(qtbot, w)
        next_page(qtbot, w)
        p3 = page(w, 2)
        assert p3.need.text() == "no roll"
        assert "Automatic Hit" in p3.need_text.text() and "4.1 Disrupted" in p3.need_text.text()
        assert p3.verdict.text() == "Automatic Hit" and not p3.dice.edit.isVisible()
        next_page(qtbot, w)
        type_faces(qtbot, w, 3, "5")
        next_page(qtbot, w)
        finish(qtbot, w)
        event = attack_events(battle)[0].event
        first_die = event.details["dice"][0]
        assert (first_die["sides"], first_die["face"], first_die["role"]) == (6, 5, "natural")
        assert "Damage" in first_die["why"]  # no Action die: the first die is the Damage
        assert "Automatic Hit" in event.details["outcome"]["automatic_hit"]

    def test_pyqtgraph_loads_with_the_first_chart_only(self):
        import subprocess
        import sys

        code = "import sys, ui.wizard, ui.wizard.pages; print('pyqtgraph' in sys.modules)"
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, encoding="utf-8", check=True
        )
        assert out.stdout.strip() == "False"

    def test_open_combat_wizard_for_the_battle_panel(self, qtbot, battle):
        bus = Bus()
        w = open_combat_wizard(
            None, battle.services, bus, QUndoStack(), battle.battle_id, battle.ids["Friar Tuck"]
        )
        qtbot.addWidget(w)  # closed (and so deleted) after the test
        assert w.isVisible() and w.windowModality() == Qt.WindowModality.WindowModal
        assert w.draft.kind is AttackKind.THROWN
        assert w.testAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        ctx = context_from_view(battle.view())
        assert {f.name for f in ctx.fighters} >= {"Friar Tuck", "Guard Bert"}


def test_each_attackers_range_is_checked_at_its_field_before_next(qtbot, open_wizard, battle):
    """5.1 Combined Attacks: each attacker makes its own attack at its own distance. The
    Range page's Next waits for every attacker's distance, and says which one is missing at
    that attacker's field (it used to go on with the second distance blank, to a page with no
    dice and a disabled Next)."""
    w = open_wizard("Friar Tuck")  # his grenade, and Will Scarlet's sword thrown with it
    choose_target(w, battle.ids["Guy of Gisbourne"])
    joiners = page(w, 0).joiners
    rows = {
        joiners.item(i).data(Qt.ItemDataRole.UserRole): joiners.item(i)
        for i in range(joiners.count())
        if joiners.item(i).flags() & Qt.ItemFlag.ItemIsEnabled
    }
    assert rows, "nobody can join Friar Tuck's throw"
    uid, row = next(iter(rows.items()))
    row.setCheckState(Qt.CheckState.Checked)
    assert [j.unit_id for j in w.draft.joiners] == [uid]
    next_page(qtbot, w)
    p2 = page(w, 1)
    qtbot.keyClicks(p2.distance, "6")
    button = w.button(QWizard.WizardButton.NextButton)
    problem = p2.joiner_problems[uid]
    assert not button.isEnabled()
    assert problem.isVisible() and "measure its distance" in problem.text()
    name = battle.view().setup.unit(uid).name
    assert p2.problem.text() == f"{name}: measure its distance"
    qtbot.keyClicks(p2.joiner_edits[uid], "5")
    assert button.isEnabled() and not problem.isVisible() and not p2.problem.isVisible()
    next_page(qtbot, w)
    assert page(w, 2).dice.need is not None  # the Action Roll has its dice to roll


def test_space_ticks_a_joiner_and_ticks_it_off(qtbot, open_wizard, battle):
    """5.1 Combined Attacks from the keyboard: Space on a unit of the joiners' list adds it to
    the attack, Space again takes it out (the list keeps its rows between changes)."""
    w = open_wizard("Will Scarlet")
    choose_target(w, battle.ids["Guy of Gisbourne"])
    joiners = page(w, 0).joiners
    row = next(i for i in range(joiners.count()) if "Little John" in joiners.item(i).text())
    joiners.setFocus()
    joiners.setCurrentRow(row)
    qtbot.keyClick(joiners, Qt.Key.Key_Space)
    assert [j.unit_id for j in w.draft.joiners] == [battle.ids["Little John"]]
    assert joiners.item(row).checkState() == Qt.CheckState.Checked
    qtbot.keyClick(joiners, Qt.Key.Key_Space)
    assert w.draft.joiners == ()
    assert joiners.item(row).checkState() == Qt.CheckState.Unchecked
