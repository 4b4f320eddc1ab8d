"""The app shell: main window, About box, application identity, crash handler, --check-start."""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import QApplication

import brikdesk
from brikdesk.errors import StorageError
from brikdesk.services.demo import DEMO_NAME
from ui import app as app_module
from ui.app import CrashHandler, create_application
from ui.main_window import MainWindow
from ui.settings import AppSettings


@pytest.fixture
def window(open_main, demo_db) -> MainWindow:
    return open_main(demo_db)


@pytest.fixture
def restore_app_identity(qapp) -> Iterator[None]:
    saved = (
        qapp.applicationName(),
        qapp.applicationDisplayName(),
        qapp.applicationVersion(),
        qapp.organizationName(),
        qapp.organizationDomain(),
        QGuiApplication.desktopFileName(),
        qapp.windowIcon(),
    )
    yield
    qapp.setApplicationName(saved[0])
    qapp.setApplicationDisplayName(saved[1])
    qapp.setApplicationVersion(saved[2])
    qapp.setOrganizationName(saved[3])
    qapp.setOrganizationDomain(saved[4])
    QGuiApplication.setDesktopFileName(saved[5])
    qapp.setWindowIcon(saved[6])


def menu_texts(win: MainWindow) -> dict[str, list[str]]:
    return {
        a.text(): [x.text() for x in a.menu().actions() if not x.isSeparator()]
        for a in win.menuBar().actions()
    }


def test_main_window_title_icon_and_campaign(window: MainWindow) -> None:
    campaign = window.nav.campaign
    assert window.windowTitle() == f"{campaign.name}: BrikDesk"
    assert window.isVisible()
    assert not window.windowIcon().isNull()
    assert window.overview.isVisible()
    assert campaign.name in window.overview.toPlainText()


def test_menus(window: MainWindow) -> None:
    menus = menu_texts(window)
    assert list(menus) == ["&File", "&Edit", "&View", "&Campaign", "&Battle", "&Help"]
    assert menus["&File"] == [
        "&New campaign…",
        "&Open campaign…",
        "&Recent campaigns",
        "&Import campaign…",
        "&Export campaign…",
        "Print pre&view…",
        "&Print…",
        "Export roster as P&DF…",
        "&Quit",
    ]
    assert menus["&Edit"][0].startswith("&Undo") and menus["&Edit"][1].startswith("&Redo")
    assert menus["&Help"] == ["&User guide", "&Rules reference", "&About BrikDesk"]
    assert "&Open battle" in menus["&Battle"]
    assert window.main_actions.quit_action.shortcut() == QKeySequence(QKeySequence.StandardKey.Quit)
    assert window.main_actions.undo_action.shortcut().toString() == "Ctrl+Z"
    assert window.main_actions.redo_action.shortcuts()[0].toString() == "Ctrl+Shift+Z"


def test_status_bar_shows_the_database_and_the_rules_edition(
    window: MainWindow, demo_db: str
) -> None:
    assert window.statusBar().isVisible()
    assert window.database_label.text() == f"Database: {demo_db.removeprefix('sqlite:///')}"
    assert window.edition_label.text() == "Rules: BrikWars 2020"


def test_about_shows_the_version_database_edition_and_libraries(window: MainWindow, qtbot) -> None:
    from ui.dialogs.about import AboutDialog

    window.main_actions.about_action.trigger()
    box = window.findChild(AboutDialog, "aboutDialog")
    assert box is not None
    qtbot.waitExposed(box)
    assert box.windowTitle() == "About BrikDesk"
    assert f"BrikDesk {brikdesk.__version__}" in box.text.text()
    assert "Rules edition: BrikWars 2020" in box.text.text()
    report = box.details.toPlainText()
    assert f"Database: {window.database}" in report
    assert "PySide6: " in report and "SQLAlchemy: " in report and "Qt: " in report
    box.copy_button.click()
    assert QApplication.clipboard().text() == report
    box.accept()
    qtbot.waitUntil(lambda: window.findChild(AboutDialog, "aboutDialog") is None)


def test_quit_closes_the_window(window: MainWindow, qtbot) -> None:
    window.main_actions.quit_action.trigger()
    qtbot.waitUntil(lambda: not window.isVisible())


@pytest.mark.usefixtures("restore_app_identity")
def test_application_identity(qapp) -> None:
    app = create_application()
    assert app is qapp  # reuses the running QApplication
    assert app.applicationName() == "BrikDesk"
    assert app.organizationName() == "BrikDesk"
    assert app.applicationVersion() == brikdesk.__version__
    assert QGuiApplication.desktopFileName() == "org.brikdesk.BrikDesk"
    assert not app.windowIcon().isNull()


def test_the_app_icon_draws_the_red_brick_at_any_size() -> None:
    icon = app_module.app_icon()
    for size in (16, 48, 64):
        image = icon.pixmap(QSize(size, size)).toImage()
        assert (image.width(), image.height()) == (size, size)
        centre = image.pixelColor(size // 2, size // 2)
        assert centre.alpha() == 255
        assert centre.red() > 2 * max(centre.green(), centre.blue())  # red, not blank


# -- crashes ("Two kinds of errors" in docs/conventions.md) -------------------------------------


def _raise(exc: BaseException):
    try:
        raise exc
    except BaseException as caught:  # noqa: B036 (we want the traceback of any exception)
        return type(caught), caught, caught.__traceback__


def test_a_bug_is_logged_every_time_and_shown_once(caplog) -> None:
    shown: list[tuple[str, str]] = []
    handler = CrashHandler(show_dialog=lambda summary, details: shown.append((summary, details)))
    with caplog.at_level(logging.CRITICAL, logger="brikdesk"):
        handler(*_raise(ZeroDivisionError("division by zero")))
        handler(*_raise(KeyError("roster")))
    assert len(shown) == 1
    summary, details = shown[0]
    assert summary == "ZeroDivisionError: division by zero"
    assert "Traceback" in details and "ZeroDivisionError" in details
    crit = [r for r in caplog.records if r.levelno == logging.CRITICAL]
    assert len(crit) == 2
    assert all(r.exc_info for r in crit)
    assert handler.count == 2


def test_install_and_uninstall_the_excepthook() -> None:
    before = sys.excepthook
    handler = CrashHandler(show_dialog=lambda s, d: None)
    handler.install()
    try:
        assert sys.excepthook is handler
    finally:
        handler.uninstall()
    assert sys.excepthook is before


def test_the_crash_dialog_shows_the_error_and_its_details(window: MainWindow, qtbot) -> None:
    from ui.crash import CrashDialog

    window.activateWindow()
    app_module._show_crash_dialog("ValueError: bad", "Traceback ...\nValueError: bad")
    boxes = [w for w in QApplication.topLevelWidgets() if isinstance(w, CrashDialog)]
    assert len(boxes) == 1
    box = boxes[0]
    qtbot.waitExposed(box)
    assert box.summary == "ValueError: bad"
    assert box.details.toPlainText().endswith("Traceback ...\nValueError: bad")
    box.copy_button.click()
    assert "ValueError: bad" in QApplication.clipboard().text()
    box.close()


# -- brikdesk --check-start -------------------------------------------------------------------


def test_check_start_opens_paints_and_exits_0(tmp_path: Path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", BRIKDESK_HOME=str(tmp_path))
    done = subprocess.run(
        [str(Path(sys.executable).parent / "brikdesk"), "--check-start"],
        capture_output=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    # Painted first, then the database opened (the demo created) and the campaign shown.
    painted, shown = done.stdout.splitlines()[:2]
    assert "main window painted in" in painted
    assert "campaign shown in" in shown and str(tmp_path / "brikdesk.sqlite3") in shown
    assert (tmp_path / "logs" / "brikdesk.log").is_file()


# Python's own shutdown runs after the app (no os._exit): an atexit handler prints last, and a
# crash while Qt and the interpreter take their objects down would show as a signal or on stderr.
EXIT_PROBE = """
import atexit, sys
atexit.register(print, "interpreter shut down", flush=True)
from brikdesk.cli import main
sys.exit(main(sys.argv[1:]))
"""

QUIT_WITH_WINDOWS_OPEN = """
from PySide6.QtCore import QTimer
import ui.main_window as mw

show = mw.MainWindow.show

def show_then_use(self):
    show(self)

    def use():
        if self.nav is None:  # the database is still opening
            QTimer.singleShot(100, use)
            return
        self.open_history()
        for battle in self.nav.battles:
            self.open_battle(battle.id)
        self.open_catalog()
        self.show_rules_reference()
        rosters = [self.open_roster(army.id) for army in self.nav.armies]
        print("windows open:", len(self.histories), len(self.nav.battles), flush=True)
        print("rosters open:", sum(r is not None for r in rosters), flush=True)
        QTimer.singleShot(300, self.main_actions.quit_action.trigger)

    QTimer.singleShot(0, use)

mw.MainWindow.show = show_then_use
"""


def run_probe(script: str, args: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", BRIKDESK_HOME=str(home))
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )


def test_check_start_ends_through_pythons_own_shutdown_every_time(tmp_path: Path) -> None:
    for _ in range(3):  # the first start creates the demo database, the others open it
        done = run_probe(EXIT_PROBE, ["--check-start"], tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
        assert "campaign shown in" in done.stdout
        assert done.stdout.splitlines()[-1] == "interpreter shut down"


def test_quitting_with_charts_battles_rosters_and_the_catalog_open_exits_cleanly(
    tmp_path: Path,
) -> None:
    done = run_probe(QUIT_WITH_WINDOWS_OPEN + EXIT_PROBE, [], tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[-3:] == ["windows open: 1 2", "rosters open: 3", "interpreter shut down"]
    # The offscreen platform's notes about window hints are all it may say on stderr.
    assert [line for line in done.stderr.splitlines() if "This plugin does not" not in line] == []


def test_the_window_is_painted_before_the_database_layer_loads(
    tmp_path: Path, demo_db: str
) -> None:
    script = textwrap.dedent(f"""
        import argparse, sys
        from PySide6.QtWidgets import QApplication
        from ui.app import StartUp, build_window_first, create_application
        from ui.settings import AppSettings
        app = create_application()
        args = argparse.Namespace(db={demo_db!r})
        window = build_window_first(args, settings=AppSettings.at({str(tmp_path / "s.ini")!r}))

        def painted():
            print("painted", "sqlalchemy" in sys.modules, "brikdesk.domain.combat" in sys.modules,
                  window.services.connected,
                  window.main_actions.new_action.isEnabled(), window.main_actions.catalog_action.isEnabled(),
                  QApplication.overrideCursor().shape().name)
            print("overview", window.overview.toPlainText().splitlines()[0])

        def ready():
            print("ready", window.services.connected, window.main_actions.new_action.isEnabled(),
                  QApplication.overrideCursor() is None)
            print("campaign", window.nav.campaign.name, "|", window.database_label.text())
            app.exit(0)

        def failed(error):
            print("failed", error)
            app.exit(1)

        start = StartUp(window, args, ready, failed, painted)
        window.show()
        sys.exit(app.exec())
    """)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", BRIKDESK_HOME=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    # At the first paint: no SQLAlchemy, no combat rules, no database, nothing to act on, a
    # busy cursor.
    assert lines["painted"] == "False False False False False BusyCursor"
    assert lines["overview"] == "Opening the campaigns…"
    # Then the database opens and the last campaign is shown, with the actions enabled.
    assert lines["ready"] == "True True True"
    db_file = demo_db.removeprefix("sqlite:///")
    assert lines["campaign"] == f"{DEMO_NAME} | Database: {db_file}"


def test_closing_while_the_database_opens_waits_for_it_and_closes_it(
    tmp_path: Path, demo_db: str, qtbot
) -> None:
    args = argparse.Namespace(db=demo_db)
    window = app_module.build_window_first(args, settings=AppSettings.at(tmp_path / "s.ini"))
    qtbot.addWidget(window)
    outcome: list[str] = []
    start = app_module.StartUp(
        window,
        args,
        lambda: outcome.append("ready"),
        lambda error: outcome.append(f"failed {error}"),
    )
    start.open_now()
    db = start.wait()  # the event loop never ran: the window never got the database
    assert db is not None and db.url == demo_db
    assert not window.services.connected and outcome == []
    db.close()
    QApplication.restoreOverrideCursor()
    window.close()


def test_a_database_that_fails_to_open_is_reported_once(tmp_path: Path, qtbot) -> None:
    args = argparse.Namespace(db=f"sqlite:///{tmp_path / 'missing' / 'x.sqlite3'}")
    window = app_module.build_window_first(args, settings=AppSettings.at(tmp_path / "s.ini"))
    qtbot.addWidget(window)
    errors: list[StorageError] = []
    start = app_module.StartUp(window, args, lambda: None, errors.append)
    window.show()  # the first paint starts the opening
    qtbot.waitUntil(lambda: bool(errors), timeout=20_000)
    assert start.started and len(errors) == 1 and "does not exist" in str(errors[0])
    assert QApplication.overrideCursor() is None and not window.services.connected
    window.close()


def test_qt_paints_on_the_gui_thread_unless_the_organizer_says_otherwise(monkeypatch) -> None:
    """The app asks Qt not to hand large fills to a thread pool (waiting for it cost End Turn
    1.6 ms on a laptop's busy cores); a value already in the environment is kept."""
    monkeypatch.delenv("QT_NO_GUI_THREADPOOL", raising=False)
    app_module.qt_environment()
    assert os.environ["QT_NO_GUI_THREADPOOL"] == "1"
    monkeypatch.setenv("QT_NO_GUI_THREADPOOL", "")
    app_module.qt_environment()
    assert os.environ["QT_NO_GUI_THREADPOOL"] == ""
    script = textwrap.dedent("""
        import os
        from ui.app import create_application
        create_application(["brikdesk"])
        print(os.environ.get("QT_NO_GUI_THREADPOOL"))
    """)
    env = {k: v for k, v in os.environ.items() if k != "QT_NO_GUI_THREADPOOL"}
    env["QT_QPA_PLATFORM"] = "offscreen"
    out = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        encoding="utf-8",
        timeout=120,
        check=True,
    )
    assert out.stdout.strip().splitlines()[-1] == "1"


def test_a_database_in_a_synced_folder_is_named_as_a_risk_in_the_window(
    tmp_path: Path, qtbot
) -> None:
    synced = tmp_path / "Dropbox" / "club.sqlite3"
    synced.parent.mkdir()
    args = argparse.Namespace(db=f"sqlite:///{synced}")
    window = app_module.build_window_first(args, settings=AppSettings.at(tmp_path / "s.ini"))
    qtbot.addWidget(window)
    ready: list[bool] = []
    app_module.StartUp(window, args, lambda: ready.append(True), lambda error: None)
    window.show()  # the first paint starts the opening
    qtbot.waitUntil(lambda: bool(ready), timeout=20_000)
    assert window.banner.isVisible()
    assert window.banner.text().startswith(f"The database {synced} is in a folder Dropbox syncs")
    assert "one computer at a time" in window.database_label.toolTip()
    window.close()
