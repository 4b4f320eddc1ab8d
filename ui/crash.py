"""What a bug looks like to the user: one crash dialog, and the details in a log file.

An exception no one handled (``sys.excepthook``, which PySide6 also calls for an exception raised in
a slot or an event handler) is a bug ("Two kinds of errors" in docs/conventions.md).
``ui.app.CrashHandler`` logs each one and shows ``CrashDialog`` for the first only: what happened in
a sentence, the traceback in a box to copy into a bug report, and where the log file is.

The log is a rotating file in the user's log folder (``log_folder``: platformdirs'
``user_log_dir``, or ``$BRIKDESK_HOME/logs``). Two more sources write there ("Crashes leave a
trace" in docs/conventions.md): a hard crash (a segmentation fault in Qt, an abort) cannot run
Python's handlers, so ``faulthandler`` writes every thread's stack to ``crash.log`` beside it
(:class:`CrashTrace`); and Qt's own messages (a warning about a layout, a font, a plugin) go
through :class:`QtMessages` into the log, where they would otherwise be lost.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import sys
import time
from collections.abc import Callable
from logging.handlers import RotatingFileHandler
from pathlib import Path
from typing import IO

from platformdirs import user_log_dir
from PySide6.QtCore import QMessageLogContext, Qt, QtMsgType, qInstallMessageHandler
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from brikdesk import __version__
from brikdesk.paths import APP_NAME
from ui.screen import fit_to_screen

#: The log file's name inside ``log_folder()``.
LOG_NAME = "brikdesk.log"
#: The file ``faulthandler`` writes a hard crash's stacks to, beside the log.
CRASH_NAME = "crash.log"
#: The log file's size before it is rotated, and how many old ones are stored.
LOG_BYTES = 1_000_000
LOG_BACKUPS = 3


def log_folder() -> Path:
    """Where BrikDesk writes its log: ``$BRIKDESK_HOME/logs`` when ``BRIKDESK_HOME`` is set,
    else the platform's user log folder."""
    home = os.environ.get("BRIKDESK_HOME", "").strip()
    if home:
        return Path(home).expanduser() / "logs"
    return Path(user_log_dir(APP_NAME, appauthor=False))


def log_file_handler(folder: Path | None = None) -> RotatingFileHandler:
    """A rotating handler writing ``LOG_NAME`` in ``folder`` (default ``log_folder()``),
    created if missing. Raises ``OSError`` when the folder can't be written."""
    folder = folder or log_folder()
    folder.mkdir(parents=True, exist_ok=True)
    handler = RotatingFileHandler(
        folder / LOG_NAME, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8"
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    return handler


def log_path() -> Path | None:
    """The rotating log file the root logger writes to, if any."""
    handlers = logging.getLogger().handlers
    for h in reversed(handlers):  # BrikDesk's own is a rotating one
        if isinstance(h, RotatingFileHandler):
            return Path(h.baseFilename)
    return None


class CrashTrace:
    """Writes every thread's Python stack to ``crash.log`` in ``folder`` when the process dies
    of a fatal signal (a segmentation fault, an abort): Python's own handlers never run then.

    The file is opened for appending when enabled and stays open until :meth:`disable`; each
    start writes one line (the time, the version and the process id) so that a trace tells which
    run it belongs to. Raises ``OSError`` when the folder can't be written.
    """

    def __init__(self, folder: Path | None = None) -> None:
        self.path = (folder or log_folder()) / CRASH_NAME
        self._file: IO[str] | None = None

    def enable(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115  # held open
        started = time.strftime("%Y-%m-%d %H:%M:%S")
        self._file.write(f"{started} BrikDesk {__version__} started (pid {os.getpid()})\n")
        self._file.flush()
        faulthandler.enable(file=self._file, all_threads=True)

    def disable(self) -> None:
        if self._file is None:
            return
        faulthandler.disable()
        self._file.close()
        self._file = None


#: Qt's message types and the logging level each is logged at.
QT_LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}

QtHandler = Callable[[QtMsgType, QMessageLogContext, str], None]


class QtMessages:
    """Qt's messages (``qWarning`` and the like, written by Qt itself) logged on the ``qt``
    logger at the matching level, with their category when Qt gives one. A handler installed
    before (pytest-qt's, in tests) is still called after."""

    def __init__(self) -> None:
        self.log = logging.getLogger("qt")
        self._previous: QtHandler | None = None
        self._installed = False

    def install(self) -> None:
        self._previous = qInstallMessageHandler(self)
        self._installed = True

    def uninstall(self) -> None:
        if self._installed:
            qInstallMessageHandler(self._previous)
            self._installed = False

    def __call__(self, kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
        category = context.category or ""
        where = f"{category}: " if category and category != "default" else ""
        self.log.log(QT_LEVELS.get(kind, logging.WARNING), "%s%s", where, message)
        if self._previous is not None:
            self._previous(kind, context, message)


def report_block(summary: str, details: str, log: Path | None) -> str:
    """The text to paste into a bug report."""
    return (
        f"BrikDesk {__version__}, Python {sys.version.split()[0]}, "
        f"{sys.platform}\n{summary}\nLog: {log or 'none'}\n\n{details}"
    )


class CrashDialog(QDialog):
    """A bug happened: a plain sentence, the details to copy, where the log is."""

    def __init__(
        self, parent: QWidget | None, details: str, log: Path | None, summary: str = ""
    ) -> None:
        super().__init__(parent)
        self.setObjectName("crashDialog")
        self.setWindowTitle("BrikDesk: unexpected error")
        lines = details.strip().splitlines()
        self.summary = summary or (lines[-1] if lines else "unknown error")
        layout = QVBoxLayout(self)
        intro = QLabel(
            "<b>Something went wrong inside BrikDesk.</b> This is a bug, not something you "
            "did. BrikDesk keeps running; what you did before was saved. Further errors are "
            "only written to the log.",
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        what = QLabel(self.summary, self)
        what.setObjectName("crashSummary")
        what.setWordWrap(True)
        what.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(what)
        layout.addWidget(QLabel("Details for a bug report (copy them with the button):", self))
        self.details = QPlainTextEdit(self)
        self.details.setObjectName("crashDetails")
        self.details.setAccessibleName("Details of the error")
        self.details.setReadOnly(True)
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.details.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.details.setPlainText(report_block(self.summary, details, log))
        layout.addWidget(self.details, 1)
        where = QLabel(f"Log file: {log}" if log else "No log file is written.", self)
        where.setObjectName("crashLog")
        where.setWordWrap(True)
        where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(where)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.copy_button = buttons.addButton(
            "&Copy details", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.copy_button.setObjectName("copyDetails")
        self.copy_button.clicked.connect(self.copy_details)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Close).setDefault(True)
        layout.addWidget(buttons)
        self.resize(640, 420)
        fit_to_screen(self, 640, 420)
        self.details.setFocus()

    def copy_details(self) -> None:
        """Put the details on the clipboard."""
        QGuiApplication.clipboard().setText(self.details.toPlainText())


#: Crash dialogs with no parent window, held here until closed (else Python deletes them).
_open_dialogs: list[CrashDialog] = []


def show_crash_dialog(summary: str, details: str) -> CrashDialog | None:
    """Open the crash dialog over the active window (not blocking); None without a GUI."""
    if QApplication.instance() is None:
        return None
    dialog = CrashDialog(QApplication.activeWindow(), details, log_path(), summary)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    if dialog.parent() is None:
        _open_dialogs.append(dialog)
        dialog.destroyed.connect(_open_dialogs.clear)
    dialog.open()
    return dialog
