"""Ask before deleting: the question names what goes with it.

``ConfirmDelete.ask(parent, what, goes)`` shows "Delete <what>?" with the service's words for
everything the delete takes along (``brikdesk.services.deletions``) and that Edit > Undo
brings it back; Cancel is the default button. Tests replace ``ask``.
"""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget


class ConfirmDelete:
    @classmethod
    def ask(cls, parent: QWidget | None, what: str, goes: str) -> bool:
        box = QMessageBox(parent)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(f"Delete {what}")
        box.setText(f"Delete {what}?")
        box.setInformativeText(f"This deletes {goes}.\n\nEdit > Undo (Ctrl+Z) brings it all back.")
        delete = box.addButton("Delete", QMessageBox.ButtonRole.DestructiveRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        box.setEscapeButton(cancel)
        box.exec()
        return box.clickedButton() is delete
