"""The database could not be opened: say why in plain words and offer a way on.

BrikDesk refuses a database it cannot open (``brikdesk.persistence.db.open_database`` raises
``StorageError`` and leaves the file as it was). At start-up, instead of a traceback or a bare
"can't start", ``OpenFailedDialog`` names the kind of failure (locked by another program,
read-only, damaged, made by a newer BrikDesk, missing), offers the newest backup BrikDesk made
beside the file before a migration (``<name>.bak-<revision>-<time>``), if there is one, or
another database file, or quitting.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from brikdesk.errors import StorageError
from ui.widgets.dialogs import FileChooser, ready_to_type


class FailureKind(StrEnum):
    LOCKED = "locked"
    READ_ONLY = "read-only"
    DAMAGED = "damaged"
    NEWER = "newer"
    FOREIGN = "foreign"
    MISSING = "missing"
    OTHER = "other"


#: What each kind means to the organizer, and what helps.
ADVICE = {
    FailureKind.LOCKED: (
        "Another program (or another BrikDesk) is holding the database.",
        "Close the other program and start BrikDesk again, or open another file.",
    ),
    FailureKind.READ_ONLY: (
        "BrikDesk may not write the database file or its folder.",
        "Copy the file somewhere you can write, or open another file.",
    ),
    FailureKind.DAMAGED: (
        "The database file is damaged.",
        "Open the backup BrikDesk made before its last upgrade, or another "
        "file. The damaged file is left as it is.",
    ),
    FailureKind.NEWER: (
        "The database was made by a newer version of BrikDesk.",
        "Update BrikDesk to open it, or open another file. The file is left as it is.",
    ),
    FailureKind.FOREIGN: (
        "The file is not a BrikDesk database.",
        "Open another file. The file is left as it is.",
    ),
    FailureKind.MISSING: (
        "The database file or its folder does not exist.",
        "Open another file, or check the --db path or BRIKDESK_DB.",
    ),
    FailureKind.OTHER: (
        "BrikDesk could not open the database.",
        "Open another file, or the backup if there is one.",
    ),
}

#: A damaged file with no backup beside it.
NO_BACKUP_ADVICE = (
    "BrikDesk found no backup beside it. Open another file; the damaged file is left as it is."
)

#: Words of the persistence layer's messages that tell the kind (first match wins).
_KIND_WORDS = (
    (FailureKind.NEWER, ("newer brikdesk",)),
    (FailureKind.FOREIGN, ("not a brikdesk database",)),
    (FailureKind.LOCKED, ("locked", "busy")),
    (FailureKind.READ_ONLY, ("read-only", "readonly", "permission denied")),
    (FailureKind.DAMAGED, ("damaged", "malformed", "not a database", "corrupt")),
    (FailureKind.MISSING, ("does not exist", "no such file", "unable to open")),
)


@dataclass(frozen=True)
class OpenFailure:
    kind: str
    database: str  # the file (or URL) that could not be opened
    message: str  # the persistence layer's message
    backup: Path | None = None


def failure_kind(message: str) -> FailureKind:
    """The kind of failure a ``StorageError``'s message describes."""
    text = message.casefold()
    for kind, words in _KIND_WORDS:
        if any(w in text for w in words):
            return kind
    return FailureKind.OTHER


def newest_backup(path: Path | None) -> Path | None:
    """The newest ``<name>.bak-*`` file beside the SQLite file ``path`` (BrikDesk's backups
    before a migration), or None."""
    if path is None or not path.parent.is_dir():
        return None
    found = [p for p in path.parent.glob(f"{path.name}.bak-*") if p.is_file()]
    return max(found, key=lambda p: (p.stat().st_mtime, p.name)) if found else None


def describe(error: StorageError, database: str, path: Path | None) -> OpenFailure:
    """What went wrong opening ``database`` (its SQLite file ``path``, if it is one)."""
    return OpenFailure(failure_kind(str(error)), database, str(error), newest_backup(path))


class OpenFailedDialog(QDialog):
    """Why the database can't be opened; ``choice`` is the file to open instead (the backup
    or one chosen), or None to quit."""

    def __init__(self, parent: QWidget | None, failure: OpenFailure) -> None:
        super().__init__(parent)
        self.setObjectName("openFailedDialog")
        self.setWindowTitle("BrikDesk can't open its database")
        self.failure = failure
        self.choice: Path | None = None
        what, help_text = ADVICE[FailureKind(failure.kind)]
        if failure.kind == FailureKind.DAMAGED and failure.backup is None:
            help_text = NO_BACKUP_ADVICE  # don't offer what isn't there
        layout = QVBoxLayout(self)
        self.headline = QLabel(f"<b>{what}</b>", self)
        self.headline.setObjectName("openFailedHeadline")
        self.headline.setWordWrap(True)
        layout.addWidget(self.headline)
        said = failure.message[:1].upper() + failure.message[1:]
        self.message = QLabel(f"{failure.database}\n\n{said}.", self)
        self.message.setObjectName("openFailedMessage")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.message)
        backup = failure.backup
        self.advice = QLabel(help_text + (f"\n\nBackup: {backup.name}" if backup else ""), self)
        self.advice.setObjectName("openFailedAdvice")
        self.advice.setWordWrap(True)
        layout.addWidget(self.advice)
        self.buttons = QDialogButtonBox(self)
        self.backup_button: QPushButton | None = None
        if backup is not None:
            self.backup_button = self.buttons.addButton(
                "Open the &backup", QDialogButtonBox.ButtonRole.AcceptRole
            )
            self.backup_button.setObjectName("openBackup")
            self.backup_button.clicked.connect(self.open_backup)
        self.other_button = self.buttons.addButton(
            "Open &another file…", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.other_button.setObjectName("openOther")
        self.other_button.clicked.connect(self.open_other)
        self.quit_button = self.buttons.addButton("&Quit", QDialogButtonBox.ButtonRole.RejectRole)
        self.quit_button.setObjectName("quitButton")
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        first = self.backup_button or self.other_button
        first.setDefault(True)
        self.setMinimumWidth(520)

    def showEvent(self, event: QShowEvent) -> None:
        """Fit the screen; the focus on the first way on (there is nothing to type)."""
        ready_to_type(self)
        (self.backup_button or self.other_button).setFocus()
        super().showEvent(event)

    def open_backup(self) -> None:
        self.choice = self.failure.backup
        self.accept()

    def open_other(self) -> None:
        folder = str(Path(self.failure.database).parent) if self.failure.database else ""
        path = FileChooser.open_path(
            self,
            "Open a BrikDesk database",
            "BrikDesk databases (*.sqlite3 *.sqlite *.db *.bak-*);;All files (*)",
            folder,
        )
        if path is not None:
            self.choice = path
            self.accept()

    @classmethod
    def ask(cls, parent: QWidget | None, failure: OpenFailure) -> Path | None:
        """The database file to open instead, or None to quit."""
        dialog = cls(parent, failure)
        try:
            return dialog.choice if dialog.exec() == QDialog.DialogCode.Accepted else None
        finally:
            dialog.deleteLater()
