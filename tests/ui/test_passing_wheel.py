"""No value changes under a passing wheel: a wheel turned over a combo box, a spin
box or a slider that the organizer has not chosen (no keyboard focus) changes nothing and
scrolls the page instead; once it has the focus, the wheel is its own.

The wheel events are sent over each such widget of every dialog of the app (the list of
``tests/ui/every_dialog.py``), of every page of the combat wizard and of the battle panel.
"""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QWidget,
)

from tests.ui.every_dialog import DIALOGS, World
from tests.ui.keyboard import shown
from ui.wheel import scroll_area_of, wheel_widgets


def value_of(widget: QWidget) -> Any:
    if isinstance(widget, QComboBox):
        return widget.currentIndex()
    if isinstance(widget, QAbstractSpinBox):
        return widget.text()
    assert isinstance(widget, QAbstractSlider)
    return widget.value()


def wheel(widget: QWidget, notches: int) -> None:
    """Turn the wheel ``notches`` over the middle of ``widget`` (negative: towards the user,
    scrolling down)."""
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(
        centre,
        QPointF(widget.mapToGlobal(QPoint(int(centre.x()), int(centre.y())))),
        QPoint(0, 0),
        QPoint(0, 120 * notches),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def passing_wheel_changes_nothing(root: QWidget) -> list[str]:
    """Turn the wheel both ways over every value widget under ``root`` that has no focus;
    the names of those whose value changed."""
    changed = []
    for widget in wheel_widgets(root):
        if not widget.isVisible() or not widget.isEnabled():
            continue
        if widget.hasFocus():
            widget.clearFocus()
        before = value_of(widget)
        for notches in (-1, -1, 1, 3, -3):
            wheel(widget, notches)
            if value_of(widget) != before:
                changed.append(f"{type(widget).__name__} {widget.objectName()!r}")
                break
    return changed


@pytest.mark.parametrize("name", sorted(DIALOGS))
def test_a_passing_wheel_changes_no_value_in_any_dialog(qtbot, world: World, name: str) -> None:
    dialog, _first = DIALOGS[name](world)
    shown(qtbot, dialog)
    pages = getattr(dialog, "pages", None) or (dialog,)
    for i, page in enumerate(pages):
        if i:
            dialog.next()
            qtbot.wait(1)
        assert passing_wheel_changes_nothing(page) == [], f"{name} page {i}"
    dialog.close()


def test_the_wheel_over_the_reaction_scrolls_the_page_and_keeps_the_parry(qtbot, world) -> None:
    """Guy of Gisbourne's reaction to Will Scarlet's sword: the wheel over it scrolls the
    Action Roll page; the reaction changes only once the organizer picked the box."""
    from PySide6.QtGui import QUndoStack

    from brikdesk.domain.combat import Reaction
    from brikdesk.domain.rolling import RandomDice
    from ui.bus import Bus
    from ui.screen import pretend_screen
    from ui.wizard import CombatWizard

    with pretend_screen(1366, 768):
        w = CombatWizard(
            world.services,
            Bus(),
            QUndoStack(),
            world.battle_id,
            world.unit_ids["Will Scarlet"],
            dice=RandomDice(1),
        )
        shown(qtbot, w)
    w.next()
    w.next()
    page = w.pages[CombatWizard.ACTION]
    box = page.reaction_card.reaction
    parry = next(v for v in box.values() if v[0] is Reaction.PARRY)
    box.choose(parry)
    w.pages[CombatWizard.ACTION].dice.edit.setFocus()
    area = scroll_area_of(box)
    assert isinstance(area, QAbstractScrollArea)
    bar = area.verticalScrollBar()
    assert bar.maximum() > 0, "the page does not scroll at 1366x768"
    bar.setValue(0)
    wheel(box, -2)
    assert w.draft.reaction is Reaction.PARRY and box.value() == parry
    assert bar.value() > 0  # the page scrolled instead
    box.setFocus()
    wheel(box, -1)
    assert box.value() == parry  # focused by the program, not chosen
    w.pages[CombatWizard.ACTION].dice.edit.setFocus()
    box.setFocus(Qt.FocusReason.MouseFocusReason)
    wheel(box, -1)
    assert box.value() != parry  # chosen by the organizer: the wheel is its own


def opening_focus_takes_no_wheel(root: QWidget) -> list[str]:
    """Turn the wheel over the value widget that has the focus because its window opened on
    it (no click, no Tab): the names of those whose value changed."""
    focus = QApplication.focusWidget()
    changed = []
    for widget in wheel_widgets(root):
        if widget is not focus or not widget.isVisible() or not widget.isEnabled():
            continue
        before = value_of(widget)
        for notches in (-1, -1, 1, 3, -3):
            wheel(widget, notches)
            if value_of(widget) != before:
                changed.append(f"{type(widget).__name__} {widget.objectName()!r}")
                break
    return changed


@pytest.mark.parametrize("name", sorted(DIALOGS))
def test_a_box_focused_as_its_dialog_opens_does_not_take_the_wheel(
    qtbot, world: World, name: str
) -> None:
    """The paper size, the edition mapping, the wizard's target: the focus they get when their
    dialog opens is not the organizer's choice, and the wheel passes them by."""
    dialog, _first = DIALOGS[name](world)
    shown(qtbot, dialog)
    assert opening_focus_takes_no_wheel(dialog) == [], name
    dialog.close()


def test_a_box_tabbed_into_or_clicked_takes_the_wheel(qtbot, world: World) -> None:
    from ui.widgets.print_options import RosterOptionsDialog, load_roster_choice

    d = RosterOptionsDialog(None, load_roster_choice(world.settings), title="Merry Men")
    shown(qtbot, d)
    paper = d.paper
    assert paper.hasFocus()  # given as it opened: the wheel passes
    before = paper.currentIndex()
    wheel(paper, -1)
    assert paper.currentIndex() == before
    qtbot.keyClick(paper, Qt.Key.Key_Tab)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Backtab)
    assert paper.hasFocus()  # tabbed back into: the organizer's choice
    wheel(paper, -1 if before == 0 else 1)
    assert paper.currentIndex() != before


def _windows(main) -> dict[str, QWidget]:
    army_id = main.navigator.entries("army")[0][0]
    battle_id = main.navigator.entries("battle")[0][0]
    main.open_battle(battle_id)
    return {
        "roster": main.open_roster(army_id),
        "catalog": main.open_catalog(),
        "history": main.open_history(),
        "main window": main,
    }


@pytest.mark.parametrize("which", ["roster", "catalog", "history", "main window"])
def test_a_passing_wheel_changes_no_value_in_any_window(
    qtbot, open_main, demo_db, which: str
) -> None:
    """The roster's Budget (100 became 97 and was stored), its Hold and Wear pickers, the
    catalog's boxes, the history's chart choice and the battle page's: with the focus in the
    unit table, or given to the box by the program, the wheel changes none of them."""
    main = open_main(demo_db)
    window = _windows(main)[which]
    qtbot.waitExposed(window)
    if which == "history":
        window.tabs.setCurrentWidget(window.charts_page)
    boxes = [w for w in wheel_widgets(window) if w.isVisible() and w.isEnabled()]
    assert boxes, f"the {which} shows no value box"
    assert passing_wheel_changes_nothing(window) == [], which
    for box in boxes:  # the focus put there by the program, not by the organizer
        box.setFocus()
        before = value_of(box)
        for notches in (-1, 1, 3):
            wheel(box, notches)
        assert value_of(box) == before, f"{which}: {type(box).__name__} {box.objectName()!r}"


def test_the_roster_budget_changes_only_when_chosen(qtbot, open_main, demo_db) -> None:
    main = open_main(demo_db)
    roster = _windows(main)["roster"]
    qtbot.waitExposed(roster)
    budget = roster.header.budget
    roster.windowHandle().requestActivate()
    qtbot.waitUntil(roster.isActiveWindow)
    roster.table.setFocus()
    before = budget.value()
    wheel(budget, -3)
    assert budget.value() == before
    qtbot.mouseClick(budget, Qt.MouseButton.LeftButton)
    assert budget.hasFocus()
    wheel(budget, -3)
    assert budget.value() != before
