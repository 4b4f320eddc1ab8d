"""The combat wizard plays the edition's rules: the battle's edition, a response Strike on a
minifig passing by, rule warnings the organizer may overrule, Explosions measured from the
detonation point, a Charging Shove's MOM, Who Acts First and Collisions. Each test quotes the
sentence it enforces."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QWizard

from brikdesk.domain.combat import AttackKind, Reaction
from tests.ui.wizard_battle import WizardBattle, battle_from
from tests.ui.wizard_steps import (
    attack_events,
    choose_target,
    finish,
    next_page,
    page,
    running_at,
    throw_grenade,
    to_result,
    type_faces,
    wizard_on,
)
from ui.wizard import CombatWizard


def _wizard(qtbot, b: WizardBattle, attacker: str, *, seed: int = 1) -> CombatWizard:
    return wizard_on(qtbot, b, QUndoStack(), attacker, seed=seed)


class TestPassingBy:
    def test_a_response_strike_at_a_passer_by_does_not_lock_him_in(self, qtbot, battle):
        """4.1: "If he declines to Parry and survives, he can ignore the attack and continue
        moving normally." Guy Strikes Will in response as Will runs past; marked 'passing
        by', the two are not in Close Combat afterwards."""
        w = _wizard(qtbot, battle, "Guy of Gisbourne")
        will = battle.ids["Will Scarlet"]
        choose_target(w, will)
        p1 = page(w, 0)
        assert p1.passing_by.isVisible()
        qtbot.mouseClick(p1.passing_by, Qt.MouseButton.LeftButton)
        assert w.draft.passing_by
        to_result(qtbot, w, "2", "1")  # a hit for 1: ka-ping, Will survives
        assert not page(w, 4).warnings_box.isVisible()
        finish(qtbot, w)
        event = attack_events(battle)[0]
        assert event.event.passing_by
        assert "(passing by)" in event.text
        state = battle.view().state
        assert not state.unit(will).close_combat
        assert not state.unit(battle.ids["Guy of Gisbourne"]).close_combat

    def test_not_offered_on_the_attackers_own_turn(self, qtbot, battle):
        w = _wizard(qtbot, battle, "Will Scarlet")
        choose_target(w, battle.ids["Guy of Gisbourne"])
        assert not page(w, 0).passing_by.isVisible()


class TestRuleWarnings:
    def test_a_legal_response_strike_needs_no_overrule(self, qtbot, battle):
        """4.3: "other players' units with unspent Actions can use them in response to the
        active player's offensive behavior." Guy's held Action, a Strike at Will: the 4.1
        question (is Will passing by?) is the Attack page's box, left unticked: Finish
        records at once, no overrule, and the two are in Close Combat."""
        w = _wizard(qtbot, battle, "Guy of Gisbourne")
        will = battle.ids["Will Scarlet"]
        choose_target(w, will)
        assert page(w, 0).passing_by.isVisible() and not w.draft.passing_by
        to_result(qtbot, w, "2", "1")
        p5 = page(w, 4)
        assert not p5.warnings_box.isVisible()
        finish(qtbot, w)
        events = attack_events(battle)
        assert len(events) == 1 and "overruled" not in events[0].event.details
        assert "organizer overruled" not in w.undo_stack_for_test.undoText()
        assert will in battle.view().state.unit(battle.ids["Guy of Gisbourne"]).close_combat

    def test_a_warning_names_its_rule_and_stops_finish_until_overruled(self, qtbot, battle):
        """5.4 Momentum: a Collision needs a run of 4" straight at the target. Little John
        collides with Guard Alan with no MOM ticked: the warning names its rule; Finish
        waits; "Overrule and record" records it, noted in the log."""
        w = _wizard(qtbot, battle, "Little John")
        choose_target(w, battle.ids["Guard Alan"])
        page(w, 0).kind.choose(AttackKind.COLLISION)
        next_page(qtbot, w)
        assert not page(w, 1).mom.isChecked()
        next_page(qtbot, w)
        next_page(qtbot, w)
        p4 = page(w, 3)
        for _ in range(4):  # the Collision's dice, whatever they are: 1s
            if p4.dice.need is None:
                break
            type_faces(qtbot, w, 3, "1")
        next_page(qtbot, w)
        p5 = page(w, 4)
        assert p5.warnings_box.isVisible()
        assert "(5.4 Momentum)" in p5.warnings.text()
        assert not w.button(QWizard.WizardButton.FinishButton).isEnabled()
        assert attack_events(battle) == []
        qtbot.mouseClick(p5.overrule, Qt.MouseButton.LeftButton)
        events = attack_events(battle)
        assert len(events) == 1
        assert "rule warning overruled by the organizer" in events[0].text
        assert "MOM" in events[0].event.details["overruled"][0]
        assert "organizer overruled" in w.undo_stack_for_test.undoText()
        assert not w.isVisible()


class TestEdition:
    @pytest.mark.parametrize(
        ("edition", "name"), [("2005", ""), ("2010", "Overskill"), ("2020", "Over the Top")]
    )
    def test_the_odds_name_the_editions_bonus(
        self, qtbot, wizard_templates, tmp_path, edition, name
    ):
        """4.2 (2020): "An Action Roll doesn't score Critical Successes the same way as other
        die rolls. Instead ..." it goes Over the Top; 2010 calls it Overskill; 2005's chapter
        4 has none, so the Action Roll page shows no such chance."""
        for b in battle_from(wizard_templates(edition), tmp_path):
            w = _wizard(qtbot, b, "Will Scarlet")
            choose_target(w, b.ids["The Sheriff"])
            next_page(qtbot, w)
            next_page(qtbot, w)
            odds = page(w, 2).odds
            assert odds.heads["over_the_top"].isVisible() == bool(name)
            if name:
                assert odds.heads["over_the_top"].text() == name
            w.reject()

    def test_a_2005_hero_bails_on_1d6(self, qtbot, battle_2005):
        """2005 4.3: "A Bailing unit can dive to any spot within 1d6\" of its current
        position" -- the Sheriff, a Hero, is asked for a d6 and no Benny follows his 6."""
        w = _wizard(qtbot, battle_2005, "Will Scarlet")
        choose_target(w, battle_2005.ids["The Sheriff"])
        next_page(qtbot, w)
        next_page(qtbot, w)
        p3 = page(w, 2)
        assert "BrikWars 2005 has no Over the Top: no Benny" in p3.policy.text()
        labels = [
            p3.reaction_card.reaction.itemText(i) for i in range(p3.reaction_card.reaction.count())
        ]
        assert any('Bail: dive 1d6"' in t for t in labels)
        p3.reaction_card.reaction.choose((Reaction.BAIL, None))
        assert "BrikWars 2005: 1d6 for every unit" in p3.reaction_card.reaction_text.text()
        assert "a <b>d6</b>" in p3.dice.prompt.text()
        type_faces(qtbot, w, 2, "6")
        assert "bonus" in p3.dice.prompt.text()  # 2005: the d6 earns bonus dice
        type_faces(qtbot, w, 2, "2")
        assert w.action_stage().pending is None
        assert "Bails: 6+2 = 8" in p3.outcome.text()


class TestBlastFromTheDetonationPoint:
    def test_each_target_has_its_own_sections_inside_the_blast(self, qtbot, battle):
        """5.1: "Even if a minifig is fully visible from an Explosion's point of detonation,
        if his head and body are outside the two inch radius then the Explosion affects his
        pants only, doing -2 Damage." Guard Bert's pants only; Guard Alan, the target, ducked
        behind the wall: 0 sections, left out."""
        w = _wizard(qtbot, battle, "Friar Tuck")
        alan, bert = battle.ids["Guard Alan"], battle.ids["Guard Bert"]
        p4 = throw_grenade(qtbot, w, alan, also=bert)
        rows = p4.blast_sections
        assert rows.isVisible() and set(rows.combos) == {alan, bert}
        rows.combos[bert].choose(1)
        rows.combos[alan].choose(0)
        assert w.draft.sections_in_blast(bert) == 1 and w.draft.sections_in_blast(alan) == 0
        text = p4.targets.text()
        assert "Guard Alan" not in text
        assert p4.kill.text() == "0%"  # the target itself is out of the blast
        assert "<b>Guard Bert</b>" in text and "-2" in text
        type_faces(qtbot, w, 3, "5")  # 5 Damage, -2 for Bert's pants: 3, Armor 4
        assert "Guard Bert" in p4.outcome.text()
        next_page(qtbot, w)
        finish(qtbot, w)
        event = attack_events(battle)[0].event
        assert event.killed == ()
        state = battle.view().state
        assert state.unit(bert).disrupted and not state.unit(alan).disrupted


class TestChargingShove:
    def test_the_mom_adds_a_d6_of_knockback(self, qtbot, battle):
        """5.4 Momentum: "He might also use it to cause 1d6\\" of KnockBack in a Collision or a
        Charging Shove." Will runs 4" at Guard Alan and Shoves him: 2" + the MOM's 4."""
        w = _wizard(qtbot, battle, "Will Scarlet")
        alan = battle.ids["Guard Alan"]
        running_at(qtbot, w, alan, AttackKind.SHOVE)
        next_page(qtbot, w)
        next_page(qtbot, w)  # a Shove is an Automatic Hit: nothing to roll
        p4 = page(w, 3)
        assert p4.mom.isVisible() and "Charging Shove" in p4.mom.text()
        assert 'the MOM adds 1d6" of KnockBack' in p4.lines.text()
        assert "MOM" in p4.dice.prompt.text()
        type_faces(qtbot, w, 3, "4")
        assert 'Knocked Back 6"' in p4.outcome.text()
        qtbot.mouseClick(p4.mom, Qt.MouseButton.LeftButton)  # not spent: the plain 2"
        assert 'Knocked Back 2"' in p4.outcome.text()
        qtbot.mouseClick(p4.mom, Qt.MouseButton.LeftButton)
        type_faces(qtbot, w, 3, "4")
        next_page(qtbot, w)
        finish(qtbot, w)
        event = attack_events(battle)[0].event
        assert any(d["role"] == "MOM" and d["face"] == 4 for d in event.details["dice"])
        assert battle.view().state.unit(alan).disrupted


class TestWhoActsFirst:
    def test_2005_skill_minus_use_the_high_noon_example(self, qtbot, battle_2005):
        """2005 4.3: "The unit with the higher total acts first, even if their total was less
        than zero" -- High Noon: Wayne 2-3 = -1 beats Shaun 1-3 = -2, and Shaun's natural 1 is
        also his shot's Critical Failure. Guard Alan answers Thieven Hood's shot (Use 3)."""
        b = battle_2005
        w = _wizard(qtbot, b, "Guard Alan")
        choose_target(w, b.ids["Thieven Hood"])
        box = page(w, 0).first
        assert box.isVisible() and not box.facts.isVisible()
        box.ask.setChecked(True)
        assert w.draft.who_first and box.facts.isVisible()
        assert box.to_movement.isVisible() and box.use_row.isVisible()
        assert not box.inch_away.isVisible()
        qtbot.keyClicks(box.target_use, "3")
        assert w.draft.first_target_use == 3
        next_page(qtbot, w)
        qtbot.keyClicks(page(w, 1).distance, "5")
        next_page(qtbot, w)
        p3 = page(w, 2)
        assert "Skill Roll (who acts first)" in p3.dice.prompt.text()
        type_faces(qtbot, w, 2, "21")  # Hood's d10 shows 2, Alan's d6 shows 1
        text = p3.outcome.text()
        assert (
            "Thieven Hood acts before Guard Alan: Skill Roll minus Use: Thieven Hood 2-3 = "
            "-1, Guard Alan 1-3 = -2; higher first (4.3 Who Acts First)"
        ) in text
        assert "critical failure" in text  # the same die: no third face asked
        assert w.action_stage().complete
        next_page(qtbot, w)
        next_page(qtbot, w)
        assert page(w, 4).paragraph.text().startswith("Thieven Hood acts before Guard Alan")
        finish(qtbot, w)
        kinds = [e.kind for e in b.events()]
        assert kinds == ["first_to_act", "attack_resolved"]
        assert b.events()[0].text.startswith(
            "Who acts first: Thieven Hood (Merry Men) acts before Guard Alan (Nottingham)"
        )

    def test_2020_an_inch_away_the_responder_acts_first(self, qtbot, battle):
        """2020 4.3: "If a minifig is able to act or react while his opponent is still an inch
        or more away from acting himself, then the minifig acts first." No dice needed."""
        w = _wizard(qtbot, battle, "Guard Alan")
        choose_target(w, battle.ids["Thieven Hood"])
        box = page(w, 0).first
        box.ask.setChecked(True)
        assert box.inch_away.isVisible() and not box.use_row.isVisible()
        box.inch_away.setChecked(True)
        next_page(qtbot, w)
        qtbot.keyClicks(page(w, 1).distance, "5")
        next_page(qtbot, w)
        p3 = page(w, 2)
        assert (
            "Guard Alan acts before Thieven Hood: the enemy is still an inch or more from "
            "acting (BrikWars 2020)"
        ) in p3.outcome.text()
        assert "Guard Alan's Short-Ranged Weapon" in p3.dice.prompt.text()

    def test_not_asked_on_the_attackers_own_turn(self, qtbot, battle):
        w = _wizard(qtbot, battle, "Thieven Hood")
        choose_target(w, battle.ids["Guard Alan"])
        assert not page(w, 0).first.isVisible()


class TestCollision:
    def test_a_collision_outside_a_charge_costs_no_action(self, qtbot, battle):
        """5.4: "A Collision occurs as part of normal Movement and does not cost an Action."
        Little John runs 4" into Guard Alan: MOM 4 against POP 2, 2" of KnockBack; recorded
        as a collision, his Action still Ready, his MOM spent."""
        w = _wizard(qtbot, battle, "Little John")
        john, alan = battle.ids["Little John"], battle.ids["Guard Alan"]
        running_at(qtbot, w, alan, AttackKind.COLLISION)
        next_page(qtbot, w)
        p3 = page(w, 2)
        assert (
            "a Collision, part of his movement (5.4 Minifig Collisions); no Action is spent"
            in p3.outcome.text()
        )
        reactions = dict(
            zip(
                p3.reaction_card.reaction.values(),
                [
                    p3.reaction_card.reaction.itemText(i)
                    for i in range(p3.reaction_card.reaction.count())
                ],
                strict=True,
            )
        )
        assert any("can't be Parried" in t for v, t in reactions.items() if v[0] is Reaction.PARRY)
        next_page(qtbot, w)
        p4 = page(w, 3)
        assert p4.kill.text() == "42.9%"  # 3/7: the MOM's d6 beats the POP's d6
        assert not p4.collide.isVisible()
        type_faces(qtbot, w, 3, "42")
        assert 'Knocked Back 2"' in p4.outcome.text()
        next_page(qtbot, w)
        finish(qtbot, w)
        kinds = [e.kind for e in battle.events()]
        assert kinds == ["status_set", "attack_resolved"]
        event = attack_events(battle)[0].event
        assert event.maneuver == "collision" and not event.close_combat
        state = battle.view().state
        assert state.unit(alan).disrupted
        assert state.unit(john).action.value == "ready" and not state.unit(john).mom


def test_the_new_readings_are_in_the_rules_reference(qtbot):
    """Help > Rules reference lists every reading the wizard and the Sprint dialog chose."""
    from brikdesk.domain.combat import READINGS
    from ui.dialogs.rules_reference import RulesReferenceDialog

    ref = RulesReferenceDialog()
    qtbot.addWidget(ref)
    text = " ".join(ref.plain_text().split())
    for key in (
        "4.1 Movement",
        "Rule warnings",
        "4.3 Who Acts First (the wizard)",
        "5.4 Collisions (the wizard)",
        "4.1 Sprinting (the Sprint dialog)",
    ):
        assert " ".join(READINGS[key].split()) in text
