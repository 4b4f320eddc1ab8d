"""The quick attack form: the common attack on one page, from the keyboard.

Keys go where the focus is, as on the organizer's laptop. The form and the combat wizard
record through the same call: the same inputs give the same events.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget, QWizard

from brikdesk.domain.battle import CloseCombatAttack, CounterUsed, engagement
from brikdesk.domain.rolling import RandomDice
from tests.ui.keyboard import focused, keys, shown
from tests.ui.wizard_battle import WizardBattle
from ui.bus import Bus
from ui.wizard import CombatWizard
from ui.wizard.quick import QuickAttack, matches


def quick(qtbot, battle: WizardBattle, attacker: str, stack: QUndoStack) -> QuickAttack:
    form = QuickAttack(
        battle.services, Bus(), stack, battle.battle_id, battle.ids[attacker], dice=RandomDice(1)
    )
    form.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
    shown(qtbot, form)
    form.target.setFocus()
    form.target.selectAll()
    return form


def attacks(battle: WizardBattle) -> list[tuple]:
    """The attacks standing in the log: the events (who, what, the dice, the modifiers,
    what came of it) and their words."""
    return [(e.event, e.text, e.note) for e in battle.events() if e.kind == "attack_resolved"]


def test_a_few_letters_find_the_target_enemies_first():
    names = [(1, "Guy of Gisbourne"), (2, "Guard Alan"), (3, "Guard Bert"), (9, "Little John")]
    assert matches("gu", names) == [1, 2, 3]
    assert matches("al", names) == [2]
    assert matches("BERT", names) == [3]
    assert matches("of", names) == [1]  # a word of the name
    assert matches("xyz", names) == []


def test_a_ranged_attack_from_the_keyboard_is_recorded_with_enter(qtbot, battle):
    """Thieven Hood shoots Guard Alan 6" away: the letters, Tab, the range, Tab, the dice
    (the focus walks on by itself), Enter."""
    form = quick(qtbot, battle, "Thieven Hood", QUndoStack())
    assert focused() is form.target
    assert form.weapon.text().startswith("longbow: Ranged attack")
    keys(qtbot, "alan\t")
    assert form.draft.target_id == battle.ids["Guard Alan"]
    assert focused() is form.distance
    keys(qtbot, "6\t")
    assert form.draft.distance == 6 and focused() is form.dice_entry.edit
    assert "Needs" in form.odds.text() and "hit" in form.odds.text()
    keys(qtbot, "6")  # a natural 6 goes Over the Top (4.2): its Benny is asked at once
    assert form.benny.isVisible() and focused() is form.benny
    keys(qtbot, "n")  # no Benny
    for _ in range(8):  # every Damage die the rules ask for, where the focus is
        if form.dice_entry.need is None:
            break
        assert focused() is form.dice_entry.edit
        keys(qtbot, "3")
    assert form.record_button.isEnabled(), form.problem.text()
    assert focused() is form.record_button
    assert form.outcome.text()
    keys(qtbot, "\n")
    assert not form.isVisible()
    assert len(attacks(battle)) == 1


def test_the_same_inputs_give_the_same_event_as_the_wizard(qtbot, battle):
    """Will Scarlet strikes Guy of Gisbourne with a 5 and Damage faces: once through the quick
    form, undone, once through the wizard; the stored attacks are the same."""
    stack = QUndoStack()
    form = quick(qtbot, battle, "Will Scarlet", stack)
    keys(qtbot, "guy\t")
    faces = []
    for _ in range(8):
        if form.dice_entry.need is None:
            break
        faces.append("5" if not form.draft.action_faces else "2")
        keys(qtbot, faces[-1])
    keys(qtbot, "\n")
    by_form = attacks(battle)
    assert len(by_form) == 1
    stack.undo()
    w = CombatWizard(battle.services, Bus(), stack, battle.battle_id, battle.ids["Will Scarlet"])
    shown(qtbot, w)
    w.pages[0].target.choose(battle.ids["Guy of Gisbourne"])
    w.next()
    w.next()
    for face in faces[:1]:
        w.add_face("action", int(face))
    w.next()
    for face in faces[1:]:
        w.add_face("damage", int(face))
    w.next()
    w.button(QWizard.WizardButton.FinishButton).click()
    assert attacks(battle) == by_form


def test_the_full_wizard_carries_the_attack_over(qtbot, battle):
    form = quick(qtbot, battle, "Thieven Hood", QUndoStack())
    keys(qtbot, "bert\t7\t")
    draft = form.draft
    form.open_wizard()
    wizard = form.wizard
    qtbot.addWidget(wizard)
    assert wizard.draft == draft
    assert wizard.draft.target_id == battle.ids["Guard Bert"] and wizard.draft.distance == 7


def test_a_strike_answered_by_a_parry_from_the_keyboard(qtbot, battle):
    """5.2 Parrying: "a target with a Shield can declare their intention to Parry" before
    the Action Roll. Alt+P gives Guy's Parry; the Parry die is asked with the others."""
    from PySide6.QtTest import QTest

    from brikdesk.domain.combat import Reaction

    form = quick(qtbot, battle, "Will Scarlet", QUndoStack())
    keys(qtbot, "guy\t")
    QTest.keyClick(form, Qt.Key.Key_P, Qt.KeyboardModifier.AltModifier)
    assert form.draft.reaction is Reaction.PARRY
    assert "Parr" in form.reaction.text()
    whys = []
    for _ in range(8):
        need = form.dice_entry.need
        if need is None:
            break
        whys.append(need.why)
        keys(qtbot, "3")
    assert any("Parry" in why for why in whys), whys
    keys(qtbot, "\n")
    assert len(attacks(battle)) == 1


#: A long name, as organizers give their heroes.
LONG_NAME = "Sir Reginald Fitzurse, the Sheriff's Sergeant-at-Arms"


def test_a_long_target_name_shows_whole_on_a_laptop(qtbot, tmp_path: Path) -> None:
    """At 1366x768 the target box shows the chosen target's whole name: the end of the name
    is in the box without the text scrolling away from its beginning."""
    from tests.ui.wizard_battle import make_twins
    from ui.panels.keys import keys_legend

    twins = make_twins(tmp_path / "twins.sqlite3")
    db, sv = twins.db, twins.services
    try:
        view = twins.view()
        mine, archer = twins.ids["mine"], twins.ids["Archer"]
        assert view.setup.name(mine) == "Minifig 1 (Bob)"
        assert view.setup.name(archer) == "Archer"
        assert keys_legend(view, mine).startswith("Minifig 1 (Bob)")
        form = QuickAttack(sv, Bus(), QUndoStack(), view.id, mine, dice=RandomDice(1))
        shown(qtbot, form)
        assert form.windowTitle() == "Quick attack — Minifig 1 (Bob)"
        assert form.target.text() == "Minifig 1 (Ann)"
        keys(qtbot, "\t5")  # the Action Roll: the die stays in sight on to the damage
        assert form.dice_entry.need is not None
        chips = form.dice_entry.chips.findChildren(QWidget)
        assert len([c for c in chips if c.isVisible()]) >= 1
        shown_before = len([c for c in chips if c.isVisible()])
        keys(qtbot, "2")
        after = [c for c in form.dice_entry.chips.findChildren(QWidget) if c.isVisible()]
        assert len(after) == shown_before + 1  # the Action die and the damage die
        assert "Minifig 1 (Bob)" in form.outcome.text()
        assert "Minifig 1 (Ann)" in form.outcome.text()
        form.close()
    finally:
        db.close()


def test_alt_w_takes_the_next_weapon_as_the_attack_it_allows(qtbot, battle):
    """Friar Tuck throws his explosive; Alt+W takes his hand weapon, thrown too (its kind
    kept while the weapon allows it), the dice typed start again; Alt+W again, back."""
    form = quick(qtbot, battle, "Friar Tuck", QUndoStack())
    assert form.weapon.text().startswith("Explosive: Thrown")
    form.next_weapon()
    assert form.draft.item_key == "hand-weapon"
    assert form.weapon.text().startswith("Hand Weapon: Thrown")
    form.next_weapon()
    assert form.draft.item_key == "explosive"


def test_a_response_strike_joins_the_brawl_next_to_it_in_the_quick_form(qtbot, battle):
    """Guy of Gisbourne has Will Scarlet in Close Combat; Guard Bert Strikes Little John in
    response and joins that brawl (Alt+L): one Close Combat of four, so Will may Counter
    Bert, whom he never fought (as Hank Counterattacks the Outlaw who fought Butch)."""
    named = ("Guy of Gisbourne", "Will Scarlet", "Guard Bert", "Little John")
    guy, will, bert, john = (battle.ids[n] for n in named)
    guy_on_will = CloseCombatAttack(guy, will, as_response=True)
    battle.services.tracker.record(battle.battle_id, [guy_on_will])
    form = quick(qtbot, battle, "Guard Bert", QUndoStack())
    keys(qtbot, "little\t")
    assert form.draft.target_id == john
    assert form.brawl.isVisible() and form.brawl_label.isVisible()
    assert form.brawl.text().startswith("A fight of its own")  # unless the organizer says so
    QTest.keyClick(focused(), Qt.Key.Key_L, Qt.KeyboardModifier.AltModifier)
    assert form.draft.brawl == guy
    assert form.brawl.text().startswith("Joins the brawl of Guy of Gisbourne, Will Scarlet")
    for face in "21":  # a 2 on the Action die (Use 2: a hit), 1 Damage
        assert focused() is form.dice_entry.edit
        keys(qtbot, face)
    assert form.record_button.isEnabled(), form.problem.text()
    keys(qtbot, "\n")
    assert not form.isVisible()
    event, text, _note = attacks(battle)[-1]
    assert event.brawl == guy and "joining the brawl of Guy of Gisbourne" in text
    assert engagement(battle.view().state, will) == {guy, will, bert, john}
    battle.services.tracker.record(battle.battle_id, [CounterUsed(will, bert)])  # accepted


def test_no_brawl_row_without_another_brawl(qtbot, battle):
    form = quick(qtbot, battle, "Will Scarlet", QUndoStack())
    keys(qtbot, "guy\t")
    assert not form.brawl.isVisible() and not form.brawl_label.isVisible()
