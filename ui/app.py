"""The composition root: the one place that builds the application and wires it together.

``brikdesk`` with no subcommand (and ``python -m brikdesk``) calls :func:`run_app`. It sets up
logging and the crash handler, creates the ``QApplication`` with BrikDesk's names and icon,
builds the main window through :func:`build_main_window` and runs the event loop.

:func:`build_main_window` opens the database (``--db URL``, else ``BRIKDESK_DB``, else the
SQLite file in the data folder, ``BRIKDESK_HOME`` or the platform's), which backs it up and
runs the Alembic migrations; on the first start with the default data folder it creates the
demo campaign. It then builds the services over one session factory, the bus, the shared undo
stack and the main window (design: no globals, no service locator; widgets get what they need
in their constructors). A database that can't be opened is a clear dialog and exit status 1.
``--check-start`` opens the window on the current database, waits for its first paint and
exits 0: a start-up smoke test for CI, packaging and the start-up benchmark.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from logging.handlers import RotatingFileHandler
from types import TracebackType
from typing import TYPE_CHECKING

# The database layer loads before Qt: once PySide6 is imported, its __feature__ import hook
# reads the source of every module imported after it, which makes SQLAlchemy's and Alembic's
# hundreds of modules load about 100 ms slower (start-up is measured by bench_windows.py).
import brikdesk.persistence.db  # noqa: F401
import brikdesk.services  # noqa: F401

# isort: split
from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QGuiApplication, QIcon, QUndoStack
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from brikdesk import __version__
from brikdesk.errors import StorageError
from brikdesk.paths import APP_ID, APP_NAME, data_dir, resource_path
from ui.bus import Bus
from ui.main_window import MainWindow
from ui.settings import AppSettings

if TYPE_CHECKING:
    from brikdesk.persistence.db import Database

log = logging.getLogger("brikdesk")

ORGANIZATION_NAME = "BrikDesk"
ORGANIZATION_DOMAIN = "brikdesk.org"
#: Seconds ``--check-start`` waits for the first paint before giving up.
CHECK_START_TIMEOUT = 30.0


def app_icon() -> QIcon:
    """The app icon: the SVG (sharp at any size) with the 256 px PNG as a fallback."""
    icon = QIcon()
    for name, size in ((f"icons/{APP_ID}.svg", QSize()), (f"icons/{APP_ID}.png", QSize(256, 256))):
        try:
            path = resource_path(name)
        except FileNotFoundError:
            continue
        if path.is_file():
            icon.addFile(str(path), size)
    return icon


def create_application(argv: Sequence[str] | None = None) -> QApplication:
    """The ``QApplication`` (reused if one exists) with BrikDesk's names and icon."""
    app = QApplication.instance()
    if app is None:
        app = QApplication(list(argv) if argv is not None else sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName(APP_NAME)
    app.setApplicationDisplayName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setOrganizationName(ORGANIZATION_NAME)
    app.setOrganizationDomain(ORGANIZATION_DOMAIN)
    QGuiApplication.setDesktopFileName(APP_ID)
    app.setWindowIcon(app_icon())
    return app


def open_storage(args: argparse.Namespace | None = None) -> Database:
    """Open (and migrate) the database of ``args.db``, ``BRIKDESK_DB`` or the data folder.

    On the first start with the default data folder (no ``--db``, no ``BRIKDESK_DB``) the demo
    campaign is created, as ``brikdesk list`` and the other commands do. Raises
    ``StorageError`` with a message fit to show.
    """
    from brikdesk.persistence.db import DB_ENV, open_database

    url = getattr(args, "db", None) if args is not None else None
    db = open_database(url)
    if db.fresh and url is None and not os.environ.get(DB_ENV, "").strip():
        from brikdesk.services.demo import ensure_demo

        try:
            demo = ensure_demo(db)
        except Exception:
            db.close()
            raise
        if demo is not None:
            log.info("First start: created the demo campaign %s", demo.name)
    return db


def database_text(db: Database) -> str:
    """What the status bar says: the file of a SQLite database, else its URL (no password)."""
    from brikdesk.persistence.db import sqlite_file

    path = sqlite_file(db.url)
    return str(path) if path is not None else db.display_name


def build_main_window(args: argparse.Namespace | None = None, *,
                      settings: AppSettings | None = None) -> MainWindow:
    """Open the database and build the services, the bus, the undo stack and the window.

    The database is closed when the window is destroyed. Raises ``StorageError``.
    """
    from brikdesk.services import Services

    db = open_storage(args)
    try:
        services = Services.open(db)
        bus = Bus()
        stack = QUndoStack()
        stack.setUndoLimit(500)
        window = MainWindow(services, bus, stack, settings=settings or AppSettings.for_app(),
                            database=database_text(db), icon=app_icon())
    except Exception:
        db.close()
        raise
    bus.setParent(window)
    stack.setParent(window)
    window.db = db  # type: ignore[attr-defined]  (kept alive with the window)
    window.destroyed.connect(db.close)
    return window


# -- storage errors at start ------------------------------------------------------------------

def _show_start_error(error: StorageError) -> None:
    """The database could not be opened: say so plainly (the app then exits with 1)."""
    box = QMessageBox(QMessageBox.Icon.Critical, "BrikDesk can't open its database",
                      "BrikDesk could not open the campaign database, so it can't start.")
    box.setInformativeText(f"{error}\n\nChoose another database with --db URL or the "
                           "BRIKDESK_DB environment variable, or move the file aside.")
    box.exec()


#: Replaced by tests (a modal box never runs in tests).
show_start_error: Callable[[StorageError], None] = _show_start_error


# -- crashes (design convention 10) -----------------------------------------------------------

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None]


class CrashHandler:
    """``sys.excepthook`` for bugs: log the traceback every time, show a crash dialog once.

    ``UserError`` and ``StorageError`` are handled where they happen; anything reaching this hook
    is a bug. ``show_dialog`` is a plain attribute so tests can replace it.
    """

    def __init__(self, show_dialog: Callable[[str, str], None] | None = None) -> None:
        self.shown = False
        self.count = 0
        self.show_dialog = show_dialog or _show_crash_dialog
        self._previous: Callable[..., object] | None = None

    def install(self) -> None:
        self._previous = sys.excepthook
        sys.excepthook = self

    def uninstall(self) -> None:
        if sys.excepthook is self and self._previous is not None:
            sys.excepthook = self._previous

    def __call__(self, exc_type: type[BaseException], exc: BaseException,
                 tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            sys.__excepthook__(exc_type, exc, tb)
            return
        self.count += 1
        log.critical("Unexpected error (a bug in BrikDesk)", exc_info=(exc_type, exc, tb))
        if self.shown:
            return
        self.shown = True
        details = "".join(traceback.format_exception(exc_type, exc, tb))
        summary = f"{exc_type.__name__}: {exc}"
        try:
            self.show_dialog(summary, details)
        except Exception:  # never let the crash dialog crash the crash handler
            log.exception("The crash dialog could not be shown")


_crash_boxes: list[QMessageBox] = []


def _show_crash_dialog(summary: str, details: str) -> None:
    if QApplication.instance() is None:
        return
    parent = QApplication.activeWindow()
    box = QMessageBox(parent)
    box.setObjectName("crashBox")
    box.setIcon(QMessageBox.Icon.Critical)
    box.setWindowTitle("BrikDesk: unexpected error")
    box.setText("Something went wrong inside BrikDesk. This is a bug, not something you did.")
    box.setInformativeText(
        f"{summary}\n\nThe details were written to the log. BrikDesk keeps running, but "
        "saving your work and restarting is wise. Further errors are only logged.")
    box.setDetailedText(details)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    if parent is None:  # keep the unparented box alive until it closes
        _crash_boxes.append(box)
        box.destroyed.connect(_crash_boxes.clear)
    box.open()


def setup_logging() -> None:
    """Log to stderr and, when the data folder is writable, to ``<data>/logs/brikdesk.log``."""
    root = logging.getLogger()
    if any(getattr(h, "_brikdesk", False) for h in root.handlers):
        return
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    handlers: list[logging.Handler] = [logging.StreamHandler()]
    try:
        logs = data_dir() / "logs"
        logs.mkdir(parents=True, exist_ok=True)
        handlers.append(RotatingFileHandler(logs / "brikdesk.log", maxBytes=1_000_000,
                                            backupCount=3, encoding="utf-8"))
    except OSError as exc:
        print(f"brikdesk: not logging to a file: {exc}", file=sys.stderr)
    for h in handlers:
        h.setFormatter(fmt)
        h._brikdesk = True  # type: ignore[attr-defined]
        root.addHandler(h)
    handlers[0].setLevel(logging.WARNING)
    if root.level == logging.NOTSET or root.level > logging.INFO:
        root.setLevel(logging.INFO)


# -- --check-start ----------------------------------------------------------------------------

class FirstPaintWatcher(QObject):
    """Calls ``on_painted`` once, after the first Paint event of ``window`` or a child."""

    def __init__(self, window: QWidget, on_painted: Callable[[], None]) -> None:
        super().__init__(window)
        self._window = window
        self._on_painted = on_painted
        self.painted = False

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt name)
        if (not self.painted and event.type() == QEvent.Type.Paint
                and isinstance(obj, QWidget)
                and (obj is self._window or self._window.isAncestorOf(obj))):
            self.painted = True
            # Let this paint finish, then report.
            QTimer.singleShot(0, self, self._on_painted)
        return False


def process_age_ms() -> float | None:
    """Milliseconds since this process started (Linux ``/proc``), or None elsewhere."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        return (uptime - start_ticks / os.sysconf("SC_CLK_TCK")) * 1000
    except (OSError, ValueError, IndexError):
        return None


def _check_start(app: QApplication, window: MainWindow, started: float) -> int:
    def painted() -> None:
        ms = (time.perf_counter() - started) * 1000
        age = process_age_ms()
        since = f", {age:.0f} ms after the process started" if age is not None else ""
        print(f"BrikDesk {__version__}: main window painted in {ms:.0f} ms{since} "
              f"(platform {app.platformName()})", flush=True)
        app.exit(0)

    def too_slow() -> None:
        print(f"brikdesk --check-start: the main window was not painted within "
              f"{CHECK_START_TIMEOUT:.0f} s", file=sys.stderr, flush=True)
        app.exit(1)

    watcher = FirstPaintWatcher(window, painted)
    app.installEventFilter(watcher)
    timeout = QTimer(window)
    timeout.setSingleShot(True)
    timeout.timeout.connect(too_slow)
    timeout.start(int(CHECK_START_TIMEOUT * 1000))
    window.show()
    code = app.exec()
    app.removeEventFilter(watcher)
    return code


def _fail_check_start(summary: str, details: str) -> None:
    """Under ``--check-start`` a bug fails the check instead of opening a dialog."""
    QApplication.exit(1)


def run_app(args: argparse.Namespace | None = None) -> int:
    """Open BrikDesk; returns the exit status."""
    started = time.perf_counter()
    setup_logging()
    crash = CrashHandler()
    crash.install()
    try:
        app = create_application(sys.argv[:1])
        checking = args is not None and getattr(args, "check_start", False)
        try:
            window = build_main_window(args)
        except StorageError as exc:
            log.error("Cannot open the database: %s", exc)
            if checking:
                print(f"brikdesk --check-start: {exc}", file=sys.stderr, flush=True)
            else:
                show_start_error(exc)
            return 1
        if checking:
            crash.show_dialog = _fail_check_start
            code = _check_start(app, window, started)
        else:
            window.show()
            log.info("BrikDesk %s started in %.0f ms", __version__,
                     (time.perf_counter() - started) * 1000)
            code = app.exec()
        shut_down(window)
        return code
    finally:
        crash.uninstall()


def shut_down(window: MainWindow) -> None:
    """Put everything away in order once the event loop has ended.

    Every user action was committed in its own transaction when it was made; this closes the
    windows (saving layout and geometry), syncs the settings, closes the database and flushes
    the log, so that the process may then end at once (``leave``).
    """
    window.close()
    window.settings.sync()
    db = getattr(window, "db", None)
    if db is not None:
        db.close()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()


def leave(code: int) -> None:
    """End the process now, after ``shut_down``.

    Python's own teardown (destroying a few thousand module objects and every Qt wrapper) takes
    200-250 ms after the window is gone and saves nothing; the user is waiting for the window to
    disappear and the shell prompt to come back.
    """
    os._exit(code)
