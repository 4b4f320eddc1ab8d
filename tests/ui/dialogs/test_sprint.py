"""The Sprint dialog (4.1) driven like the organizer would: typed or virtual dice, the bonus
chain, the Benny, the runaway warning, Record (one undo step) and the edition's dice."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QLabel

from brikdesk.domain.rolling import RandomDice
from tests.ui.wizard_battle import WizardBattle
from ui.bus import Bus
from ui.dialogs.sprint import SprintDialog, open_sprint


def _open(qtbot, b: WizardBattle, name: str, *, seed: int = 1) -> SprintDialog:
    stack = QUndoStack()
    d = open_sprint(
        None,
        b.services,
        b.battle_id,
        b.ids[name],
        bus=Bus(),
        undo_stack=stack,
        dice=RandomDice(seed),
    )
    d.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
    qtbot.addWidget(d)
    qtbot.waitExposed(d)
    d.windowHandle().requestActivate()  # keyboard focus, as for the organizer
    qtbot.waitUntil(d.isActiveWindow)
    d.stack_for_test = stack
    return d


def _type(qtbot, d: SprintDialog, faces: str) -> None:
    for ch in faces:
        qtbot.keyClicks(d.entry.edit, ch)


def _sprint_log(b: WizardBattle) -> list[str]:
    return [e.text for e in b.events() if e.kind == "action_spent"]


def test_it_opens_ready_to_type_the_first_die(qtbot, battle):
    d = _open(qtbot, battle, "Will Scarlet")
    assert d.entry.edit.hasFocus()
    assert "a <b>d6</b>" in d.entry.prompt.text()
    assert not d.ok_button.isEnabled()


def test_a_sprint_with_its_bonus_chain_is_recorded_in_the_log(qtbot, battle):
    """4.1 (2020): "The die roll for Sprinting can benefit from Bonus Dice like any other
    roll"; Will's 6 adds a bonus d6 (4), and the natural 6 goes Over the Top (4.2)."""
    d = _open(qtbot, battle, "Will Scarlet")
    _type(qtbot, d, "64")
    assert d.chains.isVisible() and "Sprint d6 6 → bonus d6 4 = 10" in d.chains.text()
    assert d.benny.isVisible() and not d.ok_button.isEnabled()
    assert d.benny.pick_letter("N")
    assert d.outcome.isVisible()
    assert 'Will Scarlet Sprints: 6+4 = 10" more Move' in d.outcome.text()
    assert not d.runaway.isVisible()
    assert d.ok_button.isEnabled()
    qtbot.mouseClick(d.ok_button, Qt.MouseButton.LeftButton)
    assert _sprint_log(battle) == ['Will Scarlet (Merry Men) Sprints: 10" more Move']
    assert d.stack_for_test.count() == 1
    d.stack_for_test.undo()
    assert _sprint_log(battle) == []


def test_a_benny_adds_a_d6_of_inches(qtbot, battle):
    """4.2: a Benny can add +1d6 to an associated stat: "inches of Sprint"."""
    d = _open(qtbot, battle, "Will Scarlet")
    _type(qtbot, d, "62")
    assert d.benny.pick_letter("I")
    _type(qtbot, d, "3")
    assert 'Will Scarlet Sprints: 6+2+3 = 11" more Move' in d.outcome.text()


def test_a_chain_ending_in_one_must_run_the_full_distance(qtbot, battle):
    """4.1 (2020): "If a series of Critical Successes in a Sprint roll ends with a roll of
    one, then the minifig is unable to stop himself and must run the full distance"."""
    d = _open(qtbot, battle, "Will Scarlet")
    _type(qtbot, d, "661")
    d.benny.pick_letter("N")
    assert d.runaway.isVisible()
    assert 'must run the full 13"' in d.runaway.text()
    qtbot.mouseClick(d.ok_button, Qt.MouseButton.LeftButton)
    assert _sprint_log(battle) == [
        'Will Scarlet (Merry Men) Sprints: 13" more Move; must run the full 13"'
    ]


def test_a_2005_hero_sprints_1d6_with_no_benny(qtbot, battle_2005):
    """2005 4.1: "a minifig (or any living unit) can Sprint, giving itself 1d6 extra inches
    of Move for the turn" -- Hood, a Hero, rolls a d6, and 2005 has no Over the Top."""
    d = _open(qtbot, battle_2005, "Thieven Hood")
    assert "a <b>d6</b>" in d.entry.prompt.text()
    intro = [lab.text() for lab in d.findChildren(QLabel) if "more Move" in lab.text()]
    assert any('1d6" more Move (BrikWars 2005)' in t for t in intro)
    _type(qtbot, d, "63")
    assert not d.benny.isVisible()
    assert 'Thieven Hood Sprints: 6+3 = 9" more Move' in d.outcome.text()
    assert not d.runaway.isVisible()  # 2005 has no runaway rule
    assert d.ok_button.isEnabled()


def test_a_sprint_is_never_a_response(qtbot, battle):
    """4.3 (2020): "Minifigs are not able to Sprint as a Response Action." The rules' reason
    is shown and Record stays disabled."""
    d = _open(qtbot, battle, "Guard Alan")
    _type(qtbot, d, "3")
    assert d.problem.isVisible() and "Sprint" in d.problem.text()
    assert not d.ok_button.isEnabled()


def test_virtual_dice_roll_what_is_needed(qtbot, battle):
    d = _open(qtbot, battle, "Little John", seed=3)
    qtbot.mouseClick(d.entry.roll_button, Qt.MouseButton.LeftButton)
    stage = d.stage()
    assert stage.need is None and stage.dice
    assert d.draft.faces == tuple(x.face for x in stage.dice)


def test_a_charge_may_follow_the_sprint_as_the_same_action(qtbot, battle):
    """2020 4.1: "Sprinting can be combined with a Charge attack (5.4: Charge!) as part of a
    single Action." After the Sprint is recorded, the combat wizard still lets Will Charge."""
    from brikdesk.domain.combat import AttackKind, attack_problem
    from tests.ui.wizard_steps import wizard_on

    d = _open(qtbot, battle, "Will Scarlet")
    _type(qtbot, d, "3")
    qtbot.mouseClick(d.ok_button, Qt.MouseButton.LeftButton)
    w = wizard_on(qtbot, battle, QUndoStack(), "Will Scarlet")
    w.pages[0].target.choose(battle.ids["Guard Alan"])
    w.pages[0].kind.choose(AttackKind.CHARGE)
    assert attack_problem(w.ctx, w.draft) is None
    w.pages[0].kind.choose(AttackKind.STRIKE)
    assert attack_problem(w.ctx, w.draft) is not None  # a Strike needs a new Action


def test_open_sprint_with_only_the_services_records_and_says_so(qtbot, battle):
    """The entry point the battle panel calls: ``open_sprint(parent, services, battle_id,
    unit_id)``; without an undo stack it records through the tracker and emits
    ``recorded``."""
    d = open_sprint(
        None, battle.services, battle.battle_id, battle.ids["Little John"], dice=RandomDice(2)
    )
    d.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
    qtbot.addWidget(d)
    said: list[str] = []
    d.recorded.connect(said.append)
    _type(qtbot, d, "4")
    d.accept()
    assert _sprint_log(battle) == ['Little John (Merry Men) Sprints: 4" more Move']
    assert said == ['Little John Sprints: 4" more Move, all in a straight line forward']


def test_enter_after_the_die_records_the_sprint(qtbot, battle):
    """The die typed, Enter records (the focus never rests on Cancel, which lost the Sprint)."""
    from tests.ui.keyboard import focused, keys

    d = _open(qtbot, battle, "Will Scarlet")
    keys(qtbot, "3")
    assert focused() is not d.buttons.button(d.buttons.StandardButton.Cancel)
    keys(qtbot, "\n")
    assert _sprint_log(battle) == ['Will Scarlet (Merry Men) Sprints: 3" more Move']
    assert not d.isVisible()


def test_enter_after_the_benny_records_the_sprint(qtbot, battle):
    from tests.ui.keyboard import keys

    d = _open(qtbot, battle, "Will Scarlet")
    keys(qtbot, "64")
    assert d.benny.pick_letter("N")
    qtbot.wait(1)
    keys(qtbot, "\n")
    assert _sprint_log(battle) == ['Will Scarlet (Merry Men) Sprints: 10" more Move']


def test_a_group_sprints_on_one_roll(qtbot, battle):
    """4.1 (2020): "Minifigs Sprinting in a group can roll a single Action Die for the entire
    group's Sprint distance." Will Scarlet's side's minifigs may run on his die; the Hero
    (a d10) and the Sheriff's men may not. One die, each runner's Sprint, one undo step."""
    d = _open(qtbot, battle, "Will Scarlet")
    offered = {d.ctx.fighter(uid).name for uid in d.group}
    assert offered == {"Little John", "Friar Tuck"}
    john = d.group[battle.ids["Little John"]]
    d.group_list.setFocus()
    d.group_list.setCurrentItem(john)
    qtbot.keyClick(d.group_list, Qt.Key.Key_Space)  # Little John runs with him
    assert john.checkState() == Qt.CheckState.Checked
    d.entry.edit.setFocus()
    _type(qtbot, d, "3")
    assert d.outcome.text().startswith("Group Sprint, one roll (4.1): Will Scarlet, Little John.")
    qtbot.keyClick(d.focusWidget(), Qt.Key.Key_Return)
    note = '3" more Move; one roll for the group: Will Scarlet, Little John (4.1)'
    assert _sprint_log(battle) == [
        f"Will Scarlet (Merry Men) Sprints: {note}",
        f"Little John (Merry Men) Sprints: {note}",
    ]
    assert d.stack_for_test.count() == 1
    d.stack_for_test.undo()
    assert _sprint_log(battle) == []


def test_2005_has_no_group_sprint(qtbot, battle_2005):
    """2005 4.1 has no group roll: each runner rolls his own 1d6."""
    d = _open(qtbot, battle_2005, "Will Scarlet")
    assert d.group == {}
    assert d.findChild(QLabel, "sprintGroupLabel") is None
