"""Fields checked as the user types: the error appears under the field at once.

``ValidatingLineEdit`` runs ``validate(field, text)`` on every keystroke; a message means the
text is not allowed (the field gets a red frame and the message shows under it). In a form the
message goes to a label below the field; in a table (``ValidatingDelegate``) a small label
floats under the cell being edited, and Return or Tab do not close an editor holding a value the
rules refuse (Esc leaves it unchanged).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import (
    QAbstractItemModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QHideEvent, QKeyEvent, QMoveEvent, QResizeEvent
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from ui import colours
from ui.models.editable import FieldRole

Validate = Callable[[str, str], str | None]


def error_style() -> str:
    """The style of a field's error, in the theme in use."""
    return (
        f"QLabel {{ color: {colours.ERROR.hex()}; background: {colours.PROBLEM_BG.hex()}; "
        f"border: 1px solid {colours.PROBLEM_BORDER.hex()}; "
        "border-radius: 2px; padding: 2px 5px; }"
    )


def invalid_style() -> str:
    """The edge of a field that holds a wrong value, in the theme in use."""
    return f"QLineEdit {{ border: 2px solid {colours.CRITICAL.hex()}; border-radius: 2px; }}"


class ValidatingLineEdit(QLineEdit):
    """A line edit checked as typed; ``error`` is the label showing why a text is refused.

    With ``error_label`` the message goes there (a form); without, a label is made next to the
    edit in its parent and held just under it (a table cell editor).
    """

    def __init__(
        self,
        field: str,
        validate: Validate,
        parent: QWidget | None = None,
        error_label: QLabel | None = None,
    ) -> None:
        super().__init__(parent)
        self.field = field
        self._validate = validate
        self._floating = error_label is None
        if error_label is None:
            error_label = QLabel(parent)
            error_label.setObjectName("floatingFieldError")
            error_label.setWordWrap(True)
            self.destroyed.connect(error_label.deleteLater)
        self.error = error_label
        error = self.error
        colours.follow_theme(error, lambda: error.setStyleSheet(error_style()))
        colours.follow_theme(self, self._restyle, now=False)
        self.error.hide()
        self.message: str | None = None
        self.textEdited.connect(self.check)

    def valid(self) -> bool:
        return self.message is None

    def _restyle(self) -> None:
        self.setStyleSheet(invalid_style() if self.message is not None else "")

    def check(self, text: str | None = None) -> str | None:
        """Check ``text`` (default: the current text); show or hide the error."""
        self.message = self._validate(self.field, self.text() if text is None else text)
        if self.message is None:
            self.setStyleSheet("")
            self.setToolTip("")
            self.error.hide()
        else:
            self.setStyleSheet(invalid_style())
            self.setToolTip(self.message)
            self.error.setText(self.message)
            if self._floating:
                self._place_error()
            self.error.show()
            self.error.raise_()
        return self.message

    def set_checked_text(self, text: str) -> None:
        """Set the text (a stored value) and clear any error."""
        self.setText(text)
        self.check(text)

    def _place_error(self) -> None:
        g = self.geometry()
        width = max(g.width(), 260)
        self.error.setFixedWidth(width)
        self.error.adjustSize()
        parent = self.error.parentWidget()
        x = g.left()
        if parent is not None and x + width > parent.width():
            x = max(0, parent.width() - width)
        y = g.bottom() + 1
        if parent is not None and y + self.error.height() > parent.height():
            y = max(0, g.top() - self.error.height() - 1)  # no room below: above the cell
        self.error.move(x, y)

    def moveEvent(self, event: QMoveEvent) -> None:
        super().moveEvent(event)
        if self._floating and self.error.isVisible():
            self._place_error()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._floating and self.error.isVisible():
            self._place_error()

    def hideEvent(self, event: QHideEvent) -> None:
        if self._floating:
            self.error.hide()
        super().hideEvent(event)


class ValidatingDelegate(QStyledItemDelegate):
    """Edits cells whose model has ``validate`` (``EditableTableModel``) with a
    ``ValidatingLineEdit``; refused text is never written to the model."""

    def createEditor(
        self,
        parent: QWidget,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> QWidget:
        validate = getattr(index.model(), "validate", None)
        field = index.data(FieldRole)
        if validate is None or not field:
            return super().createEditor(parent, option, index)
        editor = ValidatingLineEdit(str(field), validate, parent)
        editor.setObjectName(f"cellEditor_{field}")
        editor.setFrame(False)
        return editor

    def setEditorData(
        self,
        editor: QWidget,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        if isinstance(editor, ValidatingLineEdit):
            editor.set_checked_text(str(index.data(Qt.ItemDataRole.EditRole) or ""))
            editor.selectAll()
        else:
            super().setEditorData(editor, index)

    def setModelData(
        self,
        editor: QWidget,
        model: QAbstractItemModel,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        if isinstance(editor, ValidatingLineEdit):
            if editor.check() is None:
                model.setData(index, editor.text(), Qt.ItemDataRole.EditRole)
            return
        super().setModelData(editor, model, index)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if (
            isinstance(obj, ValidatingLineEdit)
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key()
            in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Tab, Qt.Key.Key_Backtab)
            and obj.check() is not None
        ):
            return True  # the editor stays open on a refused value; Esc still cancels
        return super().eventFilter(obj, event)
