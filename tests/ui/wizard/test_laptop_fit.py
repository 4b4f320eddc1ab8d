"""The forms fit a laptop: at 1366x768 and 1280x720, window decorations included,
every wizard page opens at its top with its first card (the modifiers) in view, nothing
scrolls sideways, and the focused field and Next or Finish are in view; the quick form and the
Sprint dialog are sized to what they show."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QWidget, QWizard

from brikdesk.domain.rolling import RandomDice
from tests.ui.keyboard import keys, shown
from tests.ui.wizard_steps import wizard_on
from ui.bus import Bus
from ui.screen import pretend_screen, usable_size
from ui.wizard import CombatWizard

SIZES = [(1366, 768), (1280, 720)]


def in_view(widget: QWidget, area: QAbstractScrollArea) -> bool:
    """Whether all of ``widget`` shows in the scroll area's viewport."""
    port = area.viewport()
    rect = QRect(widget.mapTo(port, QPoint(0, 0)), widget.size())
    return port.rect().contains(rect)


def on_window(widget: QWidget, window: QWidget) -> bool:
    rect = QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())
    return window.rect().contains(rect) and widget.isVisible()


def shown_wizard(qtbot, battle, attacker: str) -> CombatWizard:
    """The combat wizard for ``attacker``, shown and active, with seeded virtual dice."""
    return wizard_on(qtbot, battle, QUndoStack(), attacker)


def check_page(w: CombatWizard, name: str) -> None:
    page = w.currentPage()
    area = page.scroller
    assert area.horizontalScrollBar().maximum() == 0, f"{name}: scrolls sideways"
    assert area.widget().width() <= area.viewport().width(), f"{name}: wider than its view"
    button = w.button(
        QWizard.WizardButton.FinishButton if page.isFinalPage() else QWizard.WizardButton.NextButton
    )
    assert on_window(button, w), f"{name}: Next/Finish off the window"
    focus = QApplication.focusWidget()
    if focus is not None and page.isAncestorOf(focus):
        assert in_view(focus, area), f"{name}: the focused {focus.objectName()} is out of view"


def opened(qtbot, w: CombatWizard, name: str) -> None:
    """The page just shown: at its top, its first card in view, and check_page."""
    qtbot.wait(30)
    page = w.currentPage()
    area = page.scroller
    assert area.verticalScrollBar().value() == 0, f"{name}: not opened at its top"
    first = page.body.itemAt(0)
    top = first.widget() if first is not None and first.widget() is not None else None
    if top is not None:
        assert (
            area.viewport()
            .rect()
            .contains(QRect(top.mapTo(area.viewport(), QPoint(0, 0)), top.size()).topLeft())
        ), f"{name}: its first card is not in view"
    check_page(w, name)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_wizard_page_fits_the_laptop(qtbot, battle, width, height):
    with pretend_screen(width, height):
        w = shown_wizard(qtbot, battle, "Thieven Hood")
        assert w.frameGeometry().height() <= height or w.height() <= usable_size(w).height()
        w.pages[0].target.choose(battle.ids["Guard Alan"])
        opened(qtbot, w, "Attack")
        w.next()
        opened(qtbot, w, "Range")
        keys(qtbot, "6")
        check_page(w, "Range, typed")
        w.next()
        opened(qtbot, w, "Action Roll")
        action = w.pages[CombatWizard.ACTION]
        assert (
            in_view(action.modifiers.mods_box, action.scroller)
            or action.scroller.verticalScrollBar().value() == 0
        )
        assert in_view(action.dice.edit, action.scroller), "the Action die is out of view"
        keys(qtbot, "5")
        check_page(w, "Action Roll, rolled")
        w.next()
        opened(qtbot, w, "Damage")
        for _ in range(6):
            if w.pages[CombatWizard.DAMAGE].dice.need is None:
                break
            keys(qtbot, "3")
        check_page(w, "Damage, rolled")
        w.next()
        opened(qtbot, w, "Result")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_close_combat_benny_and_a_response_do_not_scroll_sideways(qtbot, battle, width, height):
    """The Close Combat Benny page scrolled sideways and cut both edges; a response's
    "Improvised" box was cut off."""
    with pretend_screen(width, height):
        w = shown_wizard(qtbot, battle, "Will Scarlet")
        w.pages[0].target.choose(battle.ids["Guy of Gisbourne"])
        w.next()
        w.next()
        qtbot.wait(30)
        keys(qtbot, "6")  # Over the Top: the Benny's choices
        action = w.pages[CombatWizard.ACTION]
        assert action.benny.isVisible()
        check_page(w, "Close Combat Benny")
        w.reject()
        battle.services.tracker.end_turn(battle.battle_id)
        r = shown_wizard(qtbot, battle, "Little John")
        opened(qtbot, r, "Attack, a response")
        assert on_window(r.pages[0].improvised, r), "the Improvised box is cut off"


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_quick_form_and_the_sprint_dialog_are_sized_to_their_content(
    qtbot, battle, width, height
):
    from ui.dialogs.sprint import SprintDialog
    from ui.wizard.quick import QuickAttack

    with pretend_screen(width, height):
        q = QuickAttack(
            battle.services,
            Bus(),
            QUndoStack(),
            battle.battle_id,
            battle.ids["Thieven Hood"],
            dice=RandomDice(1),
        )
        shown(qtbot, q)
        assert q.height() < height // 2 + 100 and q.width() < width * 3 // 4
        for part in (q.target, q.record_button):
            assert on_window(part, q), part.objectName()
        keys(qtbot, "alan\t6\t")
        qtbot.wait(30)
        for part in (q.dice_entry.edit, q.record_button, q.odds):
            assert on_window(part, q), part.objectName()
        d = SprintDialog(
            None, battle.services, battle.battle_id, battle.ids["Will Scarlet"], dice=RandomDice(1)
        )
        shown(qtbot, d)
        assert d.height() < height // 2 and on_window(d.ok_button, d)


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("joining", [("Little John",), ("Little John", "Friar Tuck")])
def test_a_combined_attacks_action_roll_page_shows_its_die_box(
    qtbot, battle, width, height, joining
):
    """5.1 Combined Attacks: the Action Roll page of two or three attackers says more than one
    attacker's (each other attacker's chance), and it still opens at its top with the box of
    the die asked in view, the box that has the focus."""
    with pretend_screen(width, height):
        w = shown_wizard(qtbot, battle, "Will Scarlet")
        attack = w.pages[CombatWizard.ATTACK]
        attack.target.choose(battle.ids["Guy of Gisbourne"])
        joiners = attack.joiners
        for name in joining:
            row = next(i for i in range(joiners.count()) if name in joiners.item(i).text())
            joiners.item(row).setCheckState(Qt.CheckState.Checked)
        assert len(w.draft.joiners) == len(joining)
        w.next()
        opened(qtbot, w, "Range, combined")
        w.next()
        opened(qtbot, w, "Action Roll, combined")
        action = w.pages[CombatWizard.ACTION]
        assert action.joiner_text.isVisible()
        assert all(name in action.joiner_text.text() for name in joining)
        assert QApplication.focusWidget() is action.dice.edit
        assert in_view(action.dice.edit, action.scroller), "the Action die is out of view"
