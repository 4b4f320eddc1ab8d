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
    box = page.reaction
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
    assert box.value() != parry  # chosen by the organizer: the wheel is its own
