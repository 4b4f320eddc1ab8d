"""The composition root: the one place that builds the application and wires it together.

``brikdesk`` with no subcommand (and ``python -m brikdesk``) calls :func:`run_app`. It sets up
logging and the crash handler, creates the ``QApplication`` with BrikDesk's names and icon and
starts in two phases, so that the window appears as soon as Qt can paint it:

1. the main window (menus, toolbar, an empty navigator, "Opening <database>…") is built over
   services that have no database yet (:func:`build_window_first`) and shown; nothing of the
   database layer (SQLAlchemy, the models) has been imported;
2. right after its first paint, :class:`StartUp` opens the database on a worker thread
   (:func:`open_storage`: ``--db URL``, else ``BRIKDESK_DB``, else the SQLite file in the data
   folder, ``BRIKDESK_HOME`` or the platform's; backed up and migrated if needed; the demo
   campaign on the first start), with a busy cursor over the window. The GUI thread then
   connects the services and the window shows the last campaign. Nothing touches the database
   while it opens: the window offers no action that needs it until then. A database that can't
   be opened is a clear dialog and exit status 1.

:func:`build_main_window` does both at once, for tests and tools (design: no globals, no
service locator; widgets get what they need in their constructors).

``--check-start`` opens the window on the current database, waits until the campaign is shown
(the database works), prints the time to the first paint and to the campaign, and exits 0: a
start-up smoke test for CI, packaging and the start-up benchmark. Any error logged on the way
(a database that opened but could not show its campaign, a damaged table) fails it: it prints
the error and exits 1, as ``brikdesk list`` does.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

# Nothing here imports the database layer (SQLAlchemy and the models take about twice as long
# to load as Qt): it loads on a worker after the main window's first paint (StartUp).
from PySide6.QtCore import QEvent, QObject, QSize, Qt, QThreadPool, QTimer
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import QApplication, QWidget

from brikdesk import __version__
from brikdesk.errors import StorageError
from brikdesk.paths import APP_ID, APP_NAME, database_target, resource_path
from brikdesk.services import Services
from ui.bus import Bus
from ui.main_window import MainWindow
from ui.settings import AppSettings
from ui.undo import UndoScopes
from ui.workers import start_job

if TYPE_CHECKING:
    from brikdesk.persistence.db import Database

log = logging.getLogger("brikdesk")

ORGANIZATION_NAME = "BrikDesk"
ORGANIZATION_DOMAIN = "brikdesk.org"
#: Seconds ``--check-start`` waits for the campaign to be shown before giving up.
CHECK_START_TIMEOUT = 60.0
#: The database starts opening after the window's first paint, or after this long at the
#: latest (a window that starts minimized is not painted).
OPEN_AFTER_MS = 1000


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


#: Qt settings BrikDesk runs with, set before the application exists (unless already set).
#: ``QT_NO_GUI_THREADPOOL``: Qt fills large areas (a table's background, a scroll bar's
#: groove) on a pool of threads and waits for them; on a laptop's few busy cores the hand-over
#: costs more than the fill. Painting on the GUI thread alone made End Turn's repaint of a
#: 500-unit battle 1.6 ms shorter (``benchmarks/bench_battle_panel.py``).
QT_ENVIRONMENT = {"QT_NO_GUI_THREADPOOL": "1"}


def qt_environment() -> None:
    """Set :data:`QT_ENVIRONMENT` (what the organizer's environment sets wins)."""
    for name, value in QT_ENVIRONMENT.items():
        os.environ.setdefault(name, value)


def create_application(argv: Sequence[str] | None = None) -> QApplication:
    """The ``QApplication`` (reused if one exists) with BrikDesk's names and icon, and Qt
    set up as BrikDesk runs it (:func:`qt_environment`)."""
    app = QApplication.instance()
    if app is None:
        qt_environment()
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
    from brikdesk.paths import DB_ENV
    from brikdesk.persistence.db import open_database

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


#: What the first screen (the last campaign's navigator and overview) needs from the database
#: layer beyond ``open_storage``; ``StartUp`` imports it on its worker.
FIRST_SCREEN_MODULES = ("brikdesk.services.campaigns", "brikdesk.services.battles")


def prepare_first_screen() -> None:
    """Import the first screen's services and configure the ORM's mappers, so that the GUI
    thread only queries when it shows the campaign (runs on the start-up worker)."""
    import importlib

    from sqlalchemy.orm import configure_mappers

    for name in FIRST_SCREEN_MODULES:
        importlib.import_module(name)
    configure_mappers()


#: What the first screen does not show and the first commands need: the battle tracker and its
#: rules (opening a battle), the history (the standings, read on a worker when there are
#: finished battles), the combat forms and the wizard's charts (pyqtgraph, ~1.2 s to import).
#: Imported on a worker once the campaign is shown (``import_after_start``), so that the start
#: does not pay for them and the first battle or Action Roll page does not wait for them.
AFTER_START_MODULES = (
    "brikdesk.services.tracker",
    "brikdesk.services.history",
    "brikdesk.services.aftermath",
    "ui.windows.standings",
    "ui.wizard",
    "ui.wizard.charts",
    "ui.dialogs.sprint",
)


def import_after_start(parent: QObject) -> None:
    """Import ``AFTER_START_MODULES`` off the GUI thread (a form opened meanwhile waits for the
    module it needs, as it would have without this)."""
    import importlib

    start_job(parent, lambda _progress: [importlib.import_module(m) for m in AFTER_START_MODULES])


def collect_on_gui_thread() -> None:
    """Once the campaign shows: what start-up made is frozen out of the collector's sight, and
    from now on Python's cyclic garbage collector runs only on the GUI thread, between Qt's
    events (``ui.collector``); automatic collection stays off (``brikdesk.cli``)."""
    from ui.collector import start_collecting

    app = QApplication.instance()
    if app is not None and app.findChild(QObject, COLLECTOR) is None:
        start_collecting(app).setObjectName(COLLECTOR)


#: The object name of the app's garbage collector (one per application).
COLLECTOR = "guiCollector"


def database_text(db: Database) -> str:
    """What the status bar says: the file of a SQLite database, else its URL (no password)."""
    from brikdesk.persistence.db import sqlite_file

    path = sqlite_file(db.url)
    return str(path) if path is not None else db.display_name


def _window(services: Services, database: str, settings: AppSettings | None) -> MainWindow:
    bus = Bus()
    scopes = UndoScopes()
    window = MainWindow(
        services,
        bus,
        scopes,
        settings=settings or AppSettings.for_app(),
        database=database,
        icon=app_icon(),
    )
    bus.setParent(window)
    scopes.setParent(window)
    return window


def _close_database_with(window: MainWindow, db: Database) -> None:
    window.db = db
    window.destroyed.connect(db.close)


def build_main_window(
    args: argparse.Namespace | None = None, *, settings: AppSettings | None = None
) -> MainWindow:
    """Open the database and build the services, the bus, the undo stack and the window,
    showing the last campaign, all at once (tests and tools; the app uses ``StartUp``).

    The database is closed when the window is destroyed. Raises ``StorageError``.
    """
    db = open_storage(args)
    try:
        window = _window(Services.open(db), database_text(db), settings)
    except Exception:
        db.close()
        raise
    _close_database_with(window, db)
    return window


def build_window_first(
    args: argparse.Namespace | None = None, *, settings: AppSettings | None = None
) -> MainWindow:
    """The main window over services with no database yet ("Opening <database>…"); the
    database layer is not imported. ``StartUp`` opens the database after the first paint."""
    url = getattr(args, "db", None) if args is not None else None
    return _window(Services(), database_target(url), settings)


class StartUp(QObject):
    """Opens the database for ``window`` once the window has been painted.

    The opening (imports, migrations, the demo on a first start) runs on a worker thread; a
    busy cursor shows meanwhile and the window offers nothing that needs the database. On
    success the GUI thread connects the services and the window shows the last campaign
    (``on_ready``); on failure ``on_failed(error)`` is called with a ``StorageError`` (an
    unexpected error is logged with its traceback and reported as one).
    """

    def __init__(
        self,
        window: MainWindow,
        args: argparse.Namespace | None,
        on_ready: Callable[[], None],
        on_failed: Callable[[StorageError], None],
        on_painted: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(window)
        self._window = window
        self._args = args
        self._on_ready = on_ready
        self._on_failed = on_failed
        self._on_painted = on_painted
        self.started = False
        self.finished = False
        self.db: Database | None = None
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._watcher = FirstPaintWatcher(window, self._painted)
        app = QApplication.instance()
        assert app is not None
        app.installEventFilter(self._watcher)
        self._fallback = QTimer(self)
        self._fallback.setSingleShot(True)
        self._fallback.timeout.connect(self.open_now)
        self._fallback.start(OPEN_AFTER_MS)
        QApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)

    def _painted(self) -> None:
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self._watcher)
        if self._on_painted is not None:
            self._on_painted()
        self.open_now()

    def open_now(self) -> None:
        """Start opening the database (after the first paint, or the fallback timer)."""
        if self.started:
            return
        self.started = True
        self._fallback.stop()
        args = self._args

        def work(_progress: Callable[[int, int], None]) -> Database:  # worker thread
            db = open_storage(args)
            try:
                prepare_first_screen()
            except BaseException:
                db.close()
                raise
            self.db = db  # seen by wait() if the event loop ends first
            return db

        # The relay lives with the application: the window may close while the worker runs.
        start_job(
            QApplication.instance() or self,
            work,
            on_done=self._opened,
            on_error=self._failed,
            pool=self._pool,
        )

    def _opened(self, db: Database) -> None:
        self.finished = True
        window = self._window
        _close_database_with(window, db)
        QApplication.restoreOverrideCursor()
        window.services.connect(db.sessions)
        window.database_opened(database_text(db))
        if db.warning is not None:
            window.database_warning(db.warning)
        log.info("Opened the database %s", database_text(db))
        self._on_ready()

    def _failed(self, exc: BaseException, details: str) -> None:
        self.finished = True
        QApplication.restoreOverrideCursor()
        if not isinstance(exc, StorageError):
            log.critical("Unexpected error opening the database (a bug in BrikDesk)\n%s", details)
            exc = StorageError(
                f"an unexpected error stopped BrikDesk while opening it: "
                f"{type(exc).__name__}: {exc}"
            )
        else:
            log.error("Cannot open the database: %s", exc)
        self._on_failed(exc)

    def wait(self) -> Database | None:
        """Wait for an opening still under way (the event loop ended first); the database it
        opened, if the window never took it."""
        self._pool.waitForDone()
        return self.db if not self.finished else None


# -- storage errors at start ------------------------------------------------------------------


def _show_start_error(error: StorageError, url: str | None = None) -> Path | None:
    """The database of ``url`` could not be opened: say why and offer its backup or another
    file (``ui.dialogs.open_failed``); the file to try instead, or None to quit (exit 1)."""
    from brikdesk.persistence.db import default_url, sqlite_file
    from ui.dialogs.open_failed import OpenFailedDialog, describe

    url = url or default_url()
    path = sqlite_file(url)
    return OpenFailedDialog.ask(None, describe(error, str(path or url), path))


#: Replaced by tests (a modal dialog never runs in tests).
show_start_error: Callable[[StorageError, str | None], Path | None] = _show_start_error


def reopen_args(args: argparse.Namespace | None, path: Path) -> argparse.Namespace:
    """``args`` with the database ``path`` instead (the backup or the file chosen after a
    failed opening)."""
    values = dict(vars(args)) if args is not None else {}
    values["db"] = f"sqlite:///{path}"
    return argparse.Namespace(**values)


# -- crashes ("Two kinds of errors" in docs/conventions.md) ----------------------------------------

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

    def __call__(
        self, exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None
    ) -> None:
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


def _show_crash_dialog(summary: str, details: str) -> None:
    """The one crash dialog (``ui.crash.CrashDialog``) over the active window."""
    from ui.crash import show_crash_dialog

    show_crash_dialog(summary, details)


#: The crash trace and Qt's message handler, held for the life of the process: both are
#: process-wide by nature (one fault handler, one Qt message handler).
PROCESS_TRACES: list[object] = []


def setup_logging() -> None:
    """Log to stderr and, when the log folder is writable, to a rotating ``brikdesk.log`` in
    the user log folder (``ui.crash.log_folder``), with a hard crash's stacks in ``crash.log``
    beside it; Qt's own messages go to the same log. Once per process."""
    from ui.crash import CrashTrace, QtMessages, log_file_handler

    root = logging.getLogger()
    if any(getattr(h, "_brikdesk", False) for h in root.handlers):
        return
    console = logging.StreamHandler()
    console.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handlers: list[logging.Handler] = [console]
    try:
        handlers.append(log_file_handler())
    except OSError as exc:
        print(f"brikdesk: not logging to a file: {exc}", file=sys.stderr)
    for h in handlers:
        h._brikdesk = True  # type: ignore[attr-defined]  # marks BrikDesk's own handlers
        root.addHandler(h)
    handlers[0].setLevel(logging.WARNING)
    if root.level == logging.NOTSET or root.level > logging.INFO:
        root.setLevel(logging.INFO)
    if len(handlers) > 1:
        trace = CrashTrace()
        try:
            trace.enable()
            PROCESS_TRACES.append(trace)
        except OSError as exc:
            log.warning("No crash trace: %s", exc)
    qt_messages = QtMessages()
    qt_messages.install()
    PROCESS_TRACES.append(qt_messages)


# -- --check-start ----------------------------------------------------------------------------


class FirstPaintWatcher(QObject):
    """Calls ``on_painted`` once, after the first Paint event of ``window`` or a child."""

    def __init__(self, window: QWidget, on_painted: Callable[[], None]) -> None:
        super().__init__(window)
        self._window = window
        self._on_painted = on_painted
        self.painted = False

    def first_paint(self, obj: QObject, event: QEvent) -> bool:
        """Whether ``event`` is the first paint of the window or a child (then noted)."""
        if (
            not self.painted
            and event.type() == QEvent.Type.Paint
            and isinstance(obj, QWidget)
            and (obj is self._window or self._window.isAncestorOf(obj))
        ):
            self.painted = True
            return True
        return False

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if self.first_paint(obj, event):
            # Let this paint finish, then report.
            QTimer.singleShot(0, self, self._on_painted)
        return False


def process_age_ms() -> float | None:
    """Milliseconds since this process started (Linux ``/proc``), or None elsewhere."""
    if not hasattr(os, "sysconf"):  # Windows: no /proc and no sysconf
        return None
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        return (uptime - start_ticks / float(os.sysconf("SC_CLK_TCK"))) * 1000
    except (OSError, ValueError, IndexError):
        return None


def _since(started: float) -> str:
    """ "N ms" since ``started`` (``perf_counter``), and since the process started if known."""
    ms = (time.perf_counter() - started) * 1000
    age = process_age_ms()
    return f"{ms:.0f} ms" + (f", {age:.0f} ms after the process started" if age is not None else "")


class ErrorLog(logging.Handler):
    """Collects the ERROR (and worse) records logged while ``--check-start`` runs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def first_line(self) -> str:
        message = self.records[0].getMessage() if self.records else ""
        return message.strip().splitlines()[0] if message.strip() else ""


def _fail_check_start(summary: str, details: str) -> None:
    """Under ``--check-start`` a bug fails the check instead of opening a dialog."""
    QApplication.exit(1)


def run_app(args: argparse.Namespace | None = None) -> int:
    """Open BrikDesk; returns the exit status."""
    started = time.perf_counter()
    setup_logging()
    crash = CrashHandler()
    crash.install()
    errors = ErrorLog()
    try:
        app = create_application(sys.argv[:1])
        checking = args is not None and getattr(args, "check_start", False)
        if checking:
            crash.show_dialog = _fail_check_start
            logging.getLogger().addHandler(errors)
        window = build_window_first(args)
        failed: list[StorageError] = []

        def painted() -> None:
            if checking:
                print(
                    f"BrikDesk {__version__}: main window painted in {_since(started)} "
                    f"(platform {app.platformName()})",
                    flush=True,
                )
            else:
                log.info("BrikDesk %s: main window painted in %s", __version__, _since(started))

        def ready() -> None:
            collect_on_gui_thread()
            if not checking:
                log.info("BrikDesk %s: campaign shown in %s", __version__, _since(started))
                import_after_start(app)
                return

            def shown() -> None:
                if errors.records:  # the window is up, but not everything worked
                    print(
                        f"brikdesk --check-start: {errors.first_line()}",
                        file=sys.stderr,
                        flush=True,
                    )
                    app.exit(1)
                    return
                print(
                    f"BrikDesk {__version__}: campaign shown in {_since(started)} "
                    f"(database {window.database})",
                    flush=True,
                )
                app.exit(0)

            # The campaign is on screen once the window has been painted with it.
            app.installEventFilter(FirstPaintWatcher(window, shown))
            window.update()

        opening = [args]  # the arguments of the opening under way

        def storage_failed(error: StorageError) -> None:
            collect_on_gui_thread()
            if checking:
                print(f"brikdesk --check-start: {error}", file=sys.stderr, flush=True)
            else:
                other = show_start_error(error, getattr(opening[-1], "db", None))
                if other is not None:  # the backup, or another file: try that one
                    opening.append(reopen_args(opening[-1], other))
                    window.overview.show_opening(str(other))
                    startups.append(StartUp(window, opening[-1], ready, storage_failed))
                    startups[-1].open_now()
                    return
            failed.append(error)
            app.exit(1)

        startups = [StartUp(window, args, ready, storage_failed, painted)]
        timeout = QTimer(window)
        if checking:

            def too_slow() -> None:
                print(
                    f"brikdesk --check-start: the campaign was not shown within "
                    f"{CHECK_START_TIMEOUT:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
                app.exit(1)

            timeout.setSingleShot(True)
            timeout.timeout.connect(too_slow)
            timeout.start(int(CHECK_START_TIMEOUT * 1000))
        window.show()
        code = app.exec()
        timeout.stop()
        for startup in startups:
            late = startup.wait()  # an opening still under way when the loop ended
            if late is not None:
                late.close()
        if failed:
            window.close()
            return 1
        shut_down(window)
        return code
    finally:
        logging.getLogger().removeHandler(errors)
        crash.uninstall()


def shut_down(window: MainWindow) -> None:
    """Put everything away in order once the event loop has ended.

    Every user action was committed in its own transaction when it was made; this closes the
    windows (saving layout and geometry), syncs the settings, closes the database and flushes
    the log, so that the process ends with nothing left to write.
    """
    window.close()
    window.settings.sync()
    # Reads still running on workers (standings, previews) finish before the database closes
    # and their windows go away; each is one short read.
    QThreadPool.globalInstance().waitForDone(10_000)
    db = getattr(window, "db", None)
    if db is not None:
        db.close()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
