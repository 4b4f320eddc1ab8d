"""No value changes under a passing wheel.

Scrolling a page with the mouse wheel while the pointer passes over a combo box, a spin box or
a slider used to change its value (a Parry with Shield became a Bail, and the dice typed were
dropped). :func:`guard_wheel` makes every such widget under a window take the wheel only when
it has the keyboard focus (clicked or tabbed into); otherwise the wheel scrolls the page it is
on, as it would over a label. Such widgets no longer take the focus from the wheel either.

One event filter per window, installed on the widgets themselves (not on the application,
which would put a Python call in front of every event of every widget).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QFocusEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QScrollBar,
    QWidget,
)

#: The kinds of widget whose value the wheel changes.
WHEEL_VALUES = (QComboBox, QAbstractSpinBox, QAbstractSlider)

GUARDED = "wheelGuarded"
#: Set on a value widget given the focus by the program (a dialog opening on it).
GIVEN = "wheelFocusGiven"

#: How the focus comes when the organizer moves it: a click, Tab, Shift+Tab, a shortcut.
_CHOOSING = (
    Qt.FocusReason.MouseFocusReason,
    Qt.FocusReason.TabFocusReason,
    Qt.FocusReason.BacktabFocusReason,
    Qt.FocusReason.ShortcutFocusReason,
)
#: How the focus leaves for a while and comes back to the same box (its popup list, another
#: window): the box stays chosen.
_PASSING = (Qt.FocusReason.PopupFocusReason, Qt.FocusReason.ActiveWindowFocusReason)


def give_focus(widget: QWidget) -> None:
    """Put the keyboard focus on ``widget`` as Tab would (its text selected, ready to type
    over), for a dialog opening on it; the wheel does not take it for chosen."""
    if not widget.hasFocus():
        widget.setProperty(GIVEN, True)
    guard = widget.window().findChild(PassingWheel, "passingWheel")
    if guard is not None and guard.chosen is widget:
        guard.chosen = None
    widget.setFocus(Qt.FocusReason.TabFocusReason)


class PassingWheel(QObject):
    """Turns the wheel over a value widget the organizer has not chosen into a scroll of its
    page, and follows which widget was chosen.

    A dialog shown hands its focus widget a focus "as by Tab" (Qt's own, sent while the
    widget does not have the focus yet): that is no choice of the organizer either."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        #: The value widget the organizer chose (compared, never called: it may be gone).
        self.chosen: QObject | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if not isinstance(watched, QWidget):
            return False
        if kind == QEvent.Type.FocusIn:
            assert isinstance(event, QFocusEvent)
            if watched.property(GIVEN):
                watched.setProperty(GIVEN, False)
            elif (
                event.reason() in _CHOOSING
                and isinstance(watched, WHEEL_VALUES)
                and watched.hasFocus()  # not the focus a dialog hands out as it shows
            ):
                self.chosen = watched
            return False
        if kind == QEvent.Type.FocusOut:
            assert isinstance(event, QFocusEvent)
            if watched is self.chosen and event.reason() not in _PASSING:
                self.chosen = None
            return False
        if kind in (QEvent.Type.MouseButtonPress, QEvent.Type.KeyPress):
            # Clicked or typed into (its text too): the organizer's now.
            box = watched if isinstance(watched, WHEEL_VALUES) else watched.parentWidget()
            if isinstance(box, WHEEL_VALUES):
                self.chosen = box
            return False
        if kind != QEvent.Type.Wheel:
            return False
        if watched is self.chosen and watched.hasFocus():
            return False  # the organizer chose this box: the wheel is its own
        area = scroll_area_of(watched)
        if area is not None:
            QCoreApplication.sendEvent(area.viewport(), event)
            return True
        event.ignore()  # no page to scroll: the window under it may have it
        return True


def scroll_area_of(widget: QWidget) -> QAbstractScrollArea | None:
    """The nearest scroll area ``widget`` lies in (its page), or ``None``."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and not isinstance(parent, QComboBox):
            return parent
        parent = parent.parentWidget()
    return None


def wheel_widgets(root: QWidget) -> list[QWidget]:
    """The widgets under ``root`` (and ``root``) whose value the wheel would change; the
    scroll bars are left alone (scrolling is their job)."""
    found = [root, *root.findChildren(QWidget)]
    return [w for w in found if isinstance(w, WHEEL_VALUES) and not isinstance(w, QScrollBar)]


def guard_wheel(root: QWidget) -> int:
    """Guard every value widget under ``root`` not guarded yet; returns how many it guarded.
    Call it again after adding widgets (it is cheap on those already guarded)."""
    guard = root.findChild(PassingWheel, "passingWheel")
    if guard is None:
        guard = PassingWheel(root)
        guard.setObjectName("passingWheel")
    count = 0
    for widget in wheel_widgets(root):
        if widget.property(GUARDED):
            continue
        widget.setProperty(GUARDED, True)
        if widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
            widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        widget.installEventFilter(guard)
        edit = widget.lineEdit() if isinstance(widget, (QAbstractSpinBox, QComboBox)) else None
        if edit is not None:  # a click in its text chooses it too
            edit.installEventFilter(guard)
        count += 1
    return count
