"""Every dialog opens ready to type ("Dialogs open ready to type" in docs/conventions.md) and every
window fits a laptop screen.

A new user typed "Walkthrough Campaign" into New campaign and the dialog closed at the space:
Cancel had the focus. Here each dialog class of the app is opened and its focus checked, and a
check keeps the list complete. Then every window, dialog and wizard page opens on a 1366x768
screen (and 1280x720) and all its buttons must lie on the screen.
"""

from __future__ import annotations

import importlib
import pkgutil

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QAbstractButton, QApplication, QDialog, QLineEdit, QWidget

import ui
from tests.ui.every_dialog import DIALOGS, World
from tests.ui.keyboard import shown
from ui.screen import fit_to_screen, pretend_screen, usable_size


def _all_dialog_classes() -> set[str]:
    """The public QDialog subclasses defined anywhere under ``ui/``."""
    for info in pkgutil.walk_packages(ui.__path__, "ui."):
        importlib.import_module(info.name)
    found: set[str] = set()
    todo = list(QDialog.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("ui.") and not cls.__name__.startswith("_"):
            found.add(cls.__name__)
    return found - {"FormDialog"}  # the base of the form dialogs, never shown itself


def test_the_list_covers_every_dialog_of_the_app() -> None:
    assert _all_dialog_classes() == set(DIALOGS)


@pytest.mark.parametrize("name", sorted(DIALOGS))
def test_each_dialog_opens_with_the_focus_on_its_first_field(
    qtbot, world: World, name: str
) -> None:
    dialog, first = DIALOGS[name](world)
    shown(qtbot, dialog)
    focus = QApplication.focusWidget()
    assert focus is first, (
        f"{name}: focus on {type(focus).__name__} {focus and focus.objectName()!r}"
    )
    dialog.close()


def test_typing_a_campaign_name_with_spaces_stays_in_the_dialog(qtbot, world: World) -> None:
    from ui.dialogs.campaign import NewCampaignDialog

    dialog = NewCampaignDialog(None, [])
    shown(qtbot, dialog)
    qtbot.keyClicks(dialog.focusWidget(), "Walkthrough Campaign")
    assert dialog.isVisible()
    assert dialog.value().name == "Walkthrough Campaign"
    dialog.close()


def test_tab_goes_through_the_fields_before_the_buttons(qtbot, world: World) -> None:
    from ui.dialogs.campaign import PlayerDialog

    dialog = PlayerDialog(None, "Add player")
    shown(qtbot, dialog)
    chain = []
    widget: QWidget = dialog.name
    for _ in range(5):
        chain.append(widget)
        widget = widget.nextInFocusChain()
        while not (widget.focusPolicy() & widget.focusPolicy().TabFocus) or not widget.isVisible():
            widget = widget.nextInFocusChain()
    assert chain[:3] == [dialog.name, dialog.faction, dialog.colour]
    assert [b.text() for b in chain[3:]] == ["OK", "Cancel"]
    dialog.close()


# -- screen fit -------------------------------------------------------------------------------


def _buttons_off_screen(window: QWidget) -> list[str]:
    """The visible buttons of ``window`` that would not lie wholly on the screen, with the
    window placed at the screen's top-left corner (Qt places a window that fits the screen
    inside it; where it goes is not this check's business)."""
    out = []
    room = QRect(QPoint(0, 0), usable_size(window))
    for button in window.findChildren(QAbstractButton):
        if not button.isVisibleTo(window) or button.window() is not window:
            continue
        rect = QRect(button.mapTo(window, QPoint(0, 0)), button.size())
        if _clipped_inside(button, window):
            continue  # scrolled, or cut by its own panel: the panel's business, not the window's
        if not room.contains(rect):
            out.append(f"{button.text() or button.objectName()} at {rect.getRect()}")
    return out


def _clipped_inside(button: QWidget, window: QWidget) -> bool:
    """Whether a panel between ``button`` and ``window`` hides part of the button."""
    parent = button.parentWidget()
    rect = QRect(QPoint(0, 0), button.size())
    child: QWidget = button
    while parent is not None and parent is not window:
        rect = rect.translated(child.pos())
        if not QRect(QPoint(0, 0), parent.size()).contains(rect):
            return True
        child, parent = parent, parent.parentWidget()
    return False


SCREENS = [(1366, 768), (1280, 720)]


def _placeholders_cut(dialog: QWidget) -> list[str]:
    """The placeholders ("optional, e.g. Knights of the Round Brick") a visible field of
    ``dialog`` shows cut, while the dialog could still grow on the screen."""
    if dialog.width() >= usable_size(dialog).width():
        return []
    return [
        edit.placeholderText()
        for edit in dialog.findChildren(QLineEdit)
        if edit.isVisible()
        and edit.placeholderText()
        and edit.width() < edit.fontMetrics().horizontalAdvance(edit.placeholderText())
    ]


@pytest.mark.parametrize(("width", "height"), SCREENS)
@pytest.mark.parametrize("name", sorted(DIALOGS))
def test_each_dialog_fits_a_laptop_screen(
    qtbot, world: World, name: str, width: int, height: int
) -> None:
    with pretend_screen(width, height):
        dialog, _first = DIALOGS[name](world)
        shown(qtbot, dialog)
        room = usable_size(dialog)
        assert dialog.width() <= room.width() and dialog.height() <= room.height()
        assert _buttons_off_screen(dialog) == []
        assert _placeholders_cut(dialog) == []
        pages = getattr(dialog, "pages", ())
        for i in range(1, len(pages)):  # the combat wizard's pages, one by one
            dialog.setCurrentId(i)  # type: ignore[attr-defined]
            qtbot.wait(1)
            assert dialog.height() <= room.height(), f"page {i}"
            assert _buttons_off_screen(dialog) == [], f"page {i}"
        dialog.close()


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_every_window_fits_a_laptop_screen(
    qtbot, open_main, demo_db: str, width: int, height: int
) -> None:
    with pretend_screen(width, height):
        main = open_main(demo_db)
        room = usable_size(main)
        army = main.nav.armies[0].id
        windows = [main, main.open_roster(army), main.open_catalog(), main.open_history()]
        for window in windows:
            qtbot.waitExposed(window)
            assert window.width() <= room.width(), window.objectName()
            assert window.height() <= room.height(), window.objectName()
            assert _buttons_off_screen(window) == [], window.objectName()


def test_a_window_kept_from_a_larger_screen_comes_back_onto_this_one(qtbot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    window.move(2400, 1300)  # where it was on a 2560x1440 monitor
    with pretend_screen(1366, 768) as screen:
        size = fit_to_screen(window, 1600, 1000)
        room = usable_size(window)
        assert size == room
        assert screen.contains(QRect(window.pos(), size))
