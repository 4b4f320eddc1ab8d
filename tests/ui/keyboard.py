"""The keyboard as the organizer uses it: a window shown and active, keys typed where the
focus is. Shared by the tests of the dice entry, the combat wizard and the quick attack form."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget


def focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None, "nothing has the keyboard focus"
    return widget


def keys(qtbot, text: str) -> None:
    """Type ``text`` where the focus is, one key at a time (`` `` Space, ``\\t`` Tab,
    ``\\n`` Enter, ``<`` Backspace)."""
    named = {" ": Qt.Key.Key_Space, "\t": Qt.Key.Key_Tab, "\n": Qt.Key.Key_Return}
    for ch in text:
        if ch == "<":
            QTest.keyClick(focused(), Qt.Key.Key_Backspace)
        elif ch in named:
            QTest.keyClick(focused(), named[ch])
        else:
            QTest.keyClicks(focused(), ch)
        qtbot.wait(1)  # the focus moves queued by the pages settle, as between two key presses


def shown(qtbot, widget: QWidget) -> None:
    """Show ``widget`` and make it the active window, as it is for the user who opened it."""
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    widget.windowHandle().requestActivate()
    qtbot.waitUntil(widget.isActiveWindow)


def quick_form_of(qtbot, panel: QWidget):
    """The quick attack form ``panel`` has open (a Counterstrike from its Counter menu)."""
    from ui.wizard.quick import QuickAttack

    def open_form():
        return next((f for f in panel.findChildren(QuickAttack) if f.isVisible()), None)

    qtbot.waitUntil(lambda: open_form() is not None)
    form = open_form()
    form.windowHandle().requestActivate()
    qtbot.waitUntil(form.isActiveWindow)
    return form


def record_by_keys(qtbot, form, face: str = "4", most: int = 8) -> int:
    """Type ``face`` for every die ``form`` asks, then Enter; the keys pressed."""
    pressed = 0
    while form.dice_entry.edit.isVisible() and pressed < most:
        keys(qtbot, face)
        pressed += 1
    assert form.record_button.isEnabled(), form.problem.text()
    keys(qtbot, "\n")
    return pressed + 1
