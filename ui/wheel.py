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


class PassingWheel(QObject):
    """Turns the wheel over an unfocused value widget into a scroll of its page."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.Wheel or not isinstance(watched, QWidget):
            return False
        if watched.hasFocus():
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
        count += 1
    return count
