"""Help > About BrikDesk: what this is, its version, the database in use, the rules edition,
the libraries it runs on, a block to copy into a bug report, and where the log is written (with
a button that opens its folder, for the file to attach to the report)."""

from __future__ import annotations

import html
import platform
import sys
from importlib import metadata
from pathlib import Path

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtGui import QDesktopServices, QFontDatabase, QGuiApplication, QIcon
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from brikdesk import __version__
from brikdesk.domain.catalog import DEFAULT_EDITION
from ui.crash import CRASH_NAME, log_path
from ui.widgets.dialogs import ready_to_type

#: The libraries whose versions a bug report needs (distribution names).
LIBRARIES = ("SQLAlchemy", "alembic", "pyqtgraph", "platformdirs")


def library_versions() -> list[tuple[str, str]]:
    """(name, version) of Python, Qt, PySide6 and ``LIBRARIES`` ("not installed" if so)."""
    out = [("Python", platform.python_version()), ("Qt", qVersion()), ("PySide6", pyside_version)]
    for name in LIBRARIES:
        try:
            out.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            out.append((name, "not installed"))
    return out


def about_html(edition: str) -> str:
    """The About text (rich text)."""
    return (
        f"<h3>BrikDesk {html.escape(__version__)}</h3>"
        "<p>A campaign manager for the BrikWars tabletop wargame: army rosters and the "
        "weapon catalog, a battle tracker, a combat wizard that explains every modifier, "
        "and printed roster sheets.</p>"
        f"<p>Rules edition: BrikWars {html.escape(edition)}.</p>"
        "<p>BrikWars is a free rules set by Mike Rayhawk; BrikDesk is an independent tool "
        "and is not affiliated with it or with the LEGO Group.</p>"
    )


def log_text(log: Path | None) -> str:
    """Where the log is, in a sentence."""
    if log is None:
        return "No log file is written: the log folder could not be written to."
    return f"The log is written to {log} (a hard crash's trace to {CRASH_NAME} beside it)."


def open_folder(folder: Path) -> bool:
    """Open ``folder`` in the desktop's file manager; False if nothing could open it."""
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))


def report_text(database: str, edition: str) -> str:
    """The block for a bug report: versions, platform, database, rules edition."""
    lines = [
        f"BrikDesk {__version__}",
        f"Platform: {platform.platform()} ({sys.platform})",
        f"Database: {database or 'not open'}",
        f"Rules edition: BrikWars {edition}",
    ]
    lines += [f"{name}: {version}" for name, version in library_versions()]
    return "\n".join(lines)


class AboutDialog(QDialog):
    """The About box; ``details`` holds the text to copy."""

    def __init__(
        self,
        parent: QWidget | None,
        database: str,
        edition: str | None = None,
        icon: QIcon | None = None,
        log: Path | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.log = log if log is not None else log_path()
        self.setWindowTitle("About BrikDesk")
        edition = edition or DEFAULT_EDITION.value
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        if icon is not None and not icon.isNull():
            icon_label = QLabel(self)
            icon_label.setPixmap(icon.pixmap(64, 64))
            icon_label.setAlignment(Qt.AlignmentFlag.AlignTop)
            top.addWidget(icon_label)
        self.text = QLabel(about_html(edition), self)
        self.text.setObjectName("aboutText")
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        top.addWidget(self.text, 1)
        layout.addLayout(top)
        layout.addWidget(QLabel("For a bug report (copy it with the button):", self))
        self.details = QPlainTextEdit(self)
        self.details.setObjectName("aboutDetails")
        self.details.setAccessibleName("Version and system details")
        self.details.setReadOnly(True)
        self.details.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.details.setPlainText(report_text(database, edition))
        lines = self.details.document().blockCount() + 1
        self.details.setFixedHeight(
            self.details.fontMetrics().lineSpacing() * lines + 2 * self.details.frameWidth() + 8
        )
        layout.addWidget(self.details)
        self.log_label = QLabel(log_text(self.log), self)
        self.log_label.setObjectName("aboutLog")
        self.log_label.setAccessibleName("Log file")
        self.log_label.setWordWrap(True)
        self.log_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.log_label)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.copy_button = buttons.addButton("&Copy", QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.setObjectName("copyAbout")
        self.copy_button.setAccessibleName("Copy the bug report block")
        self.copy_button.clicked.connect(self.copy)
        self.log_button = buttons.addButton(
            "Open &log folder", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.log_button.setObjectName("openLogFolder")
        self.log_button.setAccessibleName("Open the log folder")
        self.log_button.setEnabled(self.log is not None)
        self.log_button.clicked.connect(self.open_log_folder)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Close).setDefault(True)
        layout.addWidget(buttons)
        self.setMinimumWidth(540)
        ready_to_type(self)

    def open_log_folder(self) -> None:
        """Show the log's folder in the file manager, or say why not."""
        if self.log is None:
            return
        if not open_folder(self.log.parent):
            self.log_label.setText(
                f"{log_text(self.log)} No file manager could be opened: the folder is "
                f"{self.log.parent}."
            )

    def copy(self) -> None:
        """Put the bug-report block on the clipboard."""
        QGuiApplication.clipboard().setText(self.details.toPlainText())
