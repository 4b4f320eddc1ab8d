"""The combat wizard driven as the organizer drives it: shown and active on a battle of
``wizard_battle``, its pages, typed faces, Next and Finish, and the attacks it recorded.
Shared by the wizard's tests and the Sprint dialog's."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QWizard

from brikdesk.domain.combat import AttackKind
from brikdesk.domain.rolling import RandomDice
from tests.ui.wizard_battle import WizardBattle
from ui.bus import Bus
from ui.wizard import CombatWizard


def wizard_on(
    qtbot, battle: WizardBattle, stack: QUndoStack, attacker: str, *, seed: int = 1
) -> CombatWizard:
    """The combat wizard on ``battle`` for ``attacker``, shown and active, with virtual dice
    from ``seed``."""
    w = CombatWizard(
        battle.services, Bus(), stack, battle.battle_id, battle.ids[attacker], dice=RandomDice(seed)
    )
    qtbot.addWidget(w)
    w.show()
    qtbot.waitExposed(w)
    w.windowHandle().requestActivate()  # keyboard focus, as for the organizer
    qtbot.waitUntil(w.isActiveWindow)
    w.undo_stack_for_test = stack
    return w


def page(w: CombatWizard, i: int):
    return w.pages[i]


def type_faces(qtbot, w: CombatWizard, page_index: int, faces: str) -> None:
    edit = page(w, page_index).dice.edit
    for ch in faces:
        qtbot.keyClicks(edit, ch)


def next_page(qtbot, w: CombatWizard) -> None:
    button = w.button(QWizard.WizardButton.NextButton)
    assert button.isEnabled(), "Next is disabled"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def finish(qtbot, w: CombatWizard) -> None:
    button = w.button(QWizard.WizardButton.FinishButton)
    assert button.isEnabled(), page(w, 4).problem.text()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def attack_events(battle: WizardBattle):
    return [e for e in battle.events() if e.kind == "attack_resolved"]


def choose_target(w: CombatWizard, target) -> None:
    page(w, 0).target.choose(target)


def running_at(qtbot, w: CombatWizard, target: int, kind: AttackKind):
    """An attack of ``kind`` at ``target`` after running 4" at him: the MOM ticked on the
    Range page."""
    choose_target(w, target)
    page(w, 0).kind.choose(kind)
    next_page(qtbot, w)
    p2 = page(w, 1)
    assert p2.mom.isVisible()
    qtbot.mouseClick(p2.mom, Qt.MouseButton.LeftButton, pos=indicator(p2.mom))


def throw_grenade(qtbot, w: CombatWizard, target: int, *, also: int):
    """Friar Tuck's grenade thrown 3" at ``target`` and hitting (a 4), with ``also`` ticked
    inside the blast; the Damage page."""
    choose_target(w, target)
    next_page(qtbot, w)
    qtbot.keyClicks(page(w, 1).distance, "3")
    next_page(qtbot, w)
    type_faces(qtbot, w, 2, "4")
    next_page(qtbot, w)
    p4 = page(w, 3)
    blast = p4.blast
    row = next(
        blast.item(i)
        for i in range(blast.count())
        if blast.item(i).data(Qt.ItemDataRole.UserRole) == also
    )
    row.setCheckState(Qt.CheckState.Checked)
    return p4


def indicator(checkbox):
    """Where a click toggles a check box (its indicator)."""
    return QPoint(8, checkbox.height() // 2)


def to_result(qtbot, w: CombatWizard, action: str, damage: str = "") -> None:
    """From page 1 to the Result page, typing the Action and Damage faces."""
    next_page(qtbot, w)
    next_page(qtbot, w)
    type_faces(qtbot, w, 2, action)
    next_page(qtbot, w)
    if damage:
        type_faces(qtbot, w, 3, damage)
    next_page(qtbot, w)
