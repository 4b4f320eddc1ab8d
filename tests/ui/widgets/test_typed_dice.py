"""Typed dice from the keyboard: every key goes to the widget that has the focus,
as on the organizer's laptop; no click between the dice.

A digit no longer face can start with fills the box and the focus stays for the next die; a
``1`` on a d10 waits for Enter, Tab or Space; ``0`` on a d10 is 10; a bonus die is asked with
the focus already in the box; Backspace in an empty box goes back one die. The same entry in
the combat wizard and the Sprint dialog.
"""

from __future__ import annotations

import pytest
from PySide6.QtGui import QUndoStack

from brikdesk.domain.rolling import NeedDie, RandomDice
from tests.ui.keyboard import focused, keys, shown
from tests.ui.wizard_battle import WizardBattle
from ui.bus import Bus
from ui.dialogs.sprint import SprintDialog
from ui.widgets.dice import DiceEntry, face_typed
from ui.wizard import CombatWizard


def wizard(qtbot, battle: WizardBattle, attacker: str) -> CombatWizard:
    w = CombatWizard(
        battle.services,
        Bus(),
        QUndoStack(),
        battle.battle_id,
        battle.ids[attacker],
        dice=RandomDice(1),
    )
    shown(qtbot, w)
    qtbot.wait(5)
    return w


@pytest.mark.parametrize(
    ("text", "sides", "face"),
    [("0", 10, 10), ("10", 10, 10), ("1", 10, 1), ("0", 6, None), ("7", 6, None), ("6", 6, 6)],
)
def test_what_a_typed_face_stands_for(text, sides, face):
    assert face_typed(text, sides) == face


def test_a_d10_takes_0_as_10_and_waits_after_1_for_enter_tab_or_space(qtbot):
    entry = DiceEntry()
    faces: list[int] = []
    entry.face.connect(faces.append)
    shown(qtbot, entry)
    entry.ask(NeedDie(10, "the Action die", 0), ())
    entry.edit.setFocus()
    keys(qtbot, "0")
    assert faces == [10]  # a d10's 0 is ten, taken at once
    for submit in (" ", "\t", "\n"):
        keys(qtbot, "1")
        assert entry.edit.text() == "1"  # 1 or 10?
        keys(qtbot, submit)
        assert faces[-1] == 1 and entry.edit.text() == ""
        assert entry.edit.hasFocus(), f"{submit!r} moved the focus away from the dice"
    assert faces == [10, 1, 1, 1]


def test_wizard_dice_are_typed_without_a_click_and_backspace_goes_back(qtbot, battle):
    """Little John's pike (Use 3, d6): the Action die, then the Damage dice on the next page,
    all typed where the focus is."""
    w = wizard(qtbot, battle, "Will Scarlet")
    keys(qtbot, "\n")  # Attack page: Next
    keys(qtbot, "\n")  # Range page (Close Combat): Next
    assert w.currentId() == CombatWizard.ACTION
    action = w.pages[CombatWizard.ACTION]
    assert focused() is action.dice.edit
    keys(qtbot, "5")
    assert w.draft.action_faces == (5,)
    keys(qtbot, "<")  # Backspace in the empty box: back one die
    assert w.draft.action_faces == ()
    assert focused() is action.dice.edit
    keys(qtbot, "5")
    assert w.draft.action_faces == (5,) and action.isComplete()
    keys(qtbot, "\n")  # the dice are in: Enter is Next
    assert w.currentId() == CombatWizard.DAMAGE
    damage = w.pages[CombatWizard.DAMAGE]
    qtbot.waitUntil(lambda: focused() is damage.dice.edit)
    faces = ""
    for _ in range(10):  # the dice the rules ask for, one digit each, no click between them
        if damage.dice.need is None:
            break
        keys(qtbot, "3")
        faces += "3"
        if damage.dice.need is not None:
            assert focused() is damage.dice.edit, "the next die's box lost the focus"
    assert damage.isComplete() and w.draft.damage_faces == tuple(int(c) for c in faces)


def test_a_bonus_die_is_asked_with_the_focus_in_the_box(qtbot, battle):
    """Will's natural 6 on the Sprint die gives a bonus d6 (4.1): its box has the focus at
    once; after the Over the Top choice the focus comes back to the dice or Record."""
    stack = QUndoStack()
    d = SprintDialog(
        None,
        battle.services,
        battle.battle_id,
        battle.ids["Will Scarlet"],
        bus=Bus(),
        undo_stack=stack,
        dice=RandomDice(1),
    )
    shown(qtbot, d)
    assert focused() is d.entry.edit
    keys(qtbot, "6")
    assert d.entry.need is not None and "bonus" in d.entry.prompt.text().lower()
    assert focused() is d.entry.edit
    keys(qtbot, "4")
    assert d.benny.isVisible() and focused() is d.benny  # Over the Top: how is it spent?
    keys(qtbot, "n")
    assert d.ok_button.isEnabled() and focused() is d.ok_button
    keys(qtbot, "\n")
    assert [e.kind for e in battle.events()][-1] == "action_spent"


def test_the_sprint_dialog_is_sized_to_its_one_die(qtbot, battle):
    d = SprintDialog(
        None, battle.services, battle.battle_id, battle.ids["Will Scarlet"], dice=RandomDice(1)
    )
    shown(qtbot, d)
    assert d.height() < 500 and d.width() <= 800, d.size()
