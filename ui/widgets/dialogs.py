"""What the question dialogs share.

Every dialog that asks something has a classmethod ``ask(parent, ...)`` returning the answer
or ``None`` when cancelled; only ``ask`` runs the modal ``QDialog.exec``, so tests replace ``ask``
with ``monkeypatch`` and never block (design: Qt habits).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from brikdesk.limits import MAX_NUMBER
from ui import colours
from ui.screen import fit_to_screen
from ui.settings import AppSettings
from ui.wheel import give_focus, guard_wheel
from ui.widgets.combat_style import set_colour

T = TypeVar("T")

#: What a number box holds: more than ``MAX_NUMBER``, so that a larger number is typed in full
#: and refused with the reason rather than silently cut to the box's maximum.
BOX_MAX = 2**31 - 1


def number_box(parent: QWidget, minimum: int = 0) -> QSpinBox:
    """A box for a budget, a count or a record (battles fought, kills): ``minimum`` to
    ``BOX_MAX``; the dialog refuses values above ``MAX_NUMBER`` (``too_large``)."""
    box = QSpinBox(parent)
    box.setRange(minimum, BOX_MAX)
    return box


def too_large(what: str, box: QSpinBox) -> str | None:
    """Why the value of ``box`` is refused (the services' limit), or None."""
    if box.isEnabled() and box.value() > MAX_NUMBER:
        return f"{what} can't be more than {MAX_NUMBER:,} (not {box.value():,})."
    return None


def first_field(dialog: QWidget) -> QWidget | None:
    """The first widget of ``dialog`` that takes typing or a choice (in tab order), leaving out
    the buttons of its button boxes."""
    widget = dialog.nextInFocusChain()
    while widget is not None and widget is not dialog:
        if (
            widget.isVisibleTo(dialog)
            and widget.isEnabled()
            and widget.focusPolicy() & Qt.FocusPolicy.TabFocus
            and not (
                isinstance(widget, QAbstractButton)
                and isinstance(widget.parent(), QDialogButtonBox)
            )
        ):
            return widget
        widget = widget.nextInFocusChain()
    return None


def buttons_last(buttons: QDialogButtonBox) -> None:
    """Put the buttons of ``buttons`` at the end of the tab order (a button box made before
    the fields would otherwise come first, and take the focus).

    A widget given a parent joins the end of that window's tab order: the box is lifted out
    and put back in its place in the layout.
    """
    parent = buttons.parentWidget()
    layout = parent.layout() if parent is not None else None
    if parent is None or layout is None or layout.indexOf(buttons) < 0:
        return
    index = layout.indexOf(buttons)
    layout.removeWidget(buttons)
    buttons.setParent(None)
    buttons.setParent(parent)
    if isinstance(layout, QVBoxLayout):
        layout.insertWidget(index, buttons)
    else:
        layout.addWidget(buttons)
    buttons.show()


#: Room a window manager takes beside a title: the icon and the close, maximize and minimize
#: buttons (openbox, GNOME and KDE take 90 to 130 pixels).
TITLE_BAR_BUTTONS = 140


def title_room(window: QWidget) -> None:
    """Widen ``window`` so that its whole title fits in the title bar (a short form under a
    long title: "Add player" was cut to "Add pl…")."""
    font = QFont(window.font())
    font.setBold(True)  # title bars draw in bold on most desktops
    need = QFontMetrics(font).horizontalAdvance(window.windowTitle()) + TITLE_BAR_BUTTONS
    if window.minimumWidth() < need:
        window.setMinimumWidth(need)


def placeholder_room(window: QWidget) -> None:
    """Widen each line edit of ``window`` so that its whole placeholder shows ("optional, e.g.
    Knights of the Round Brick" was cut in a 213 px Add player dialog)."""
    for edit in window.findChildren(QLineEdit):
        hint = edit.placeholderText()
        if not hint or not edit.isVisibleTo(window):
            continue
        margins = edit.textMargins()
        need = edit.fontMetrics().horizontalAdvance(hint) + margins.left() + margins.right() + 16
        if edit.minimumWidth() < need:
            edit.setMinimumWidth(need)


def enter_accepts(buttons: QDialogButtonBox) -> None:
    """Make Enter press the accepting button of ``buttons`` wherever the focus is in its
    dialog, even on Cancel (a field hidden as its value came in passed the focus on to Cancel,
    and Enter lost a Sprint). A button box that only closes or rejects is left as it is: a
    question before something is destroyed keeps its safe default."""
    accept = [
        b
        for b in buttons.buttons()
        if buttons.buttonRole(b)
        in (QDialogButtonBox.ButtonRole.AcceptRole, QDialogButtonBox.ButtonRole.YesRole)
    ]
    if not accept:
        return
    for button in buttons.buttons():
        if isinstance(button, QPushButton):
            button.setAutoDefault(False)
    if isinstance(accept[0], QPushButton):
        accept[0].setDefault(True)


def ready_to_type(dialog: QDialog, buttons: QDialogButtonBox | None = None) -> None:
    """Open ``dialog`` ready to type ("Dialogs open ready to type" in docs/conventions.md) and
    fitting the screen: its buttons last in the tab order, Enter records
    (:func:`enter_accepts`), the focus on its first field."""
    if buttons is not None:
        buttons_last(buttons)
        enter_accepts(buttons)
    placeholder_room(dialog)
    title_room(dialog)
    fit_to_screen(
        dialog,
        *(
            (dialog.width(), dialog.height())
            if dialog.testAttribute(Qt.WidgetAttribute.WA_Resized)
            else (None, None)
        ),
    )
    field = first_field(dialog)
    if field is not None:
        give_focus(field)


class FormDialog(QDialog):
    """A dialog with an optional intro, a form and OK/Cancel; OK is enabled by ``refresh``."""

    def __init__(
        self, parent: QWidget | None, title: str, intro: str = "", ok_text: str = "OK"
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        outer = QVBoxLayout(self)
        #: The intro above the form (``None`` without one).
        self.intro: QLabel | None = None
        if intro:
            self.intro = QLabel(intro, self)
            self.intro.setWordWrap(True)
            outer.addWidget(self.intro)
        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        outer.addLayout(self.form)
        self.problem = QLabel(self)
        self.problem.setObjectName("dialogProblem")
        set_colour(self.problem, colours.ERROR)
        self.problem.setWordWrap(True)
        self.problem.hide()
        outer.addWidget(self.problem)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(ok_text)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        outer.addWidget(self.buttons)
        self._opened = False

    def setVisible(self, visible: bool) -> None:
        """Before it is first shown: buttons last, focus on the first field, sized to the
        screen."""
        if visible and not self._opened:
            self._opened = True
            ready_to_type(self, self.buttons)
            guard_wheel(self)
        super().setVisible(visible)

    def set_problem(self, text: str | None) -> None:
        """Show why OK is disabled (``None``: all is well)."""
        self.ok_button.setEnabled(text is None)
        if text:
            self.problem.setText(text)
            self.problem.show()
        else:
            self.problem.hide()


def answer_of(dialog: QDialog, read: Callable[[], T]) -> T | None:
    """Run ``dialog`` (modal); ``read()`` once it was accepted, else None. The dialog is
    deleted afterwards."""
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return read()
    finally:
        dialog.deleteLater()


def lay_out_reader(dialog: QDialog, box: QLineEdit, text: QWidget) -> None:
    """A reading window's layout: the find or filter ``box`` above the ``text``, a Close
    button below; Ctrl+F goes to the box."""
    layout = QVBoxLayout(dialog)
    layout.addWidget(box)
    layout.addWidget(text, 1)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
    buttons.rejected.connect(dialog.close)
    layout.addWidget(buttons)
    QShortcut(QKeySequence(QKeySequence.StandardKey.Find), dialog, box.setFocus)


class TextPrompt:
    """One line of text (a new name)."""

    @classmethod
    def ask(cls, parent: QWidget | None, title: str, label: str, text: str = "") -> str | None:
        value, ok = QInputDialog.getText(parent, title, label, QLineEdit.EchoMode.Normal, text)
        value = value.strip()
        return value if ok and value else None


class FileChooser:
    """Open and save file dialogs (the platform's, or Qt's when there is none).

    Given ``settings`` and a ``kind`` (``ui.settings.FOLDER_KINDS``: rosters, reports, exports,
    imports), a dialog starts in the folder last used for that kind of file and remembers
    the folder chosen."""

    @classmethod
    def open_path(
        cls,
        parent: QWidget | None,
        title: str,
        filter_text: str,
        folder: str = "",
        *,
        settings: AppSettings | None = None,
        kind: str = "",
    ) -> Path | None:
        if not folder:
            folder = str(settings.last_folder(kind) if settings and kind else Path.home())
        path, _ = QFileDialog.getOpenFileName(parent, title, folder, filter_text)
        if not path:
            return None
        if settings is not None and kind:
            settings.remember_folder(kind, Path(path).parent)
        return Path(path)

    @classmethod
    def save_path(
        cls,
        parent: QWidget | None,
        title: str,
        filter_text: str,
        suggested: str,
        suffix: str,
        *,
        settings: AppSettings | None = None,
        kind: str = "",
    ) -> Path | None:
        folder = settings.last_folder(kind) if settings is not None and kind else Path.home()
        start = suggested if os.path.isabs(suggested) else str(folder / suggested)
        path, _ = QFileDialog.getSaveFileName(parent, title, start, filter_text)
        if not path:
            return None
        p = Path(path)
        if settings is not None and kind:
            settings.remember_folder(kind, p.parent)
        return p if p.suffix else p.with_suffix(suffix)
