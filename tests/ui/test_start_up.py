"""Start-up: the work the GUI thread is left with once the database is open, and the pause of
the garbage collector while BrikDesk starts (benchmarks/bench_windows.py measures the times)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path


def _run(script: str, tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", BRIKDESK_HOME=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        encoding="utf-8",
        env=env,
        timeout=90,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return dict(line.split(" ", 1) for line in done.stdout.splitlines() if " " in line)


#: What the campaign's first screen does without: the combat rules and forms, the charts, the
#: share's network module.
DEFERRED = ("brikdesk.domain.combat", "ui.wizard", "pyqtgraph", "PySide6.QtNetwork")

#: What the overview and its standings do without: the battle tracker and the battle rules it
#: plays a log with (loaded when a battle is opened, or on a worker once the campaign shows).
BATTLE_RULES = ("brikdesk.services.tracker", "brikdesk.domain.battle")
#: What the navigator and the overview do without until the standings are read (on a worker,
#: once the campaign shows).
TRACKER = (*BATTLE_RULES, "brikdesk.services.history")


def test_showing_the_campaign_imports_nothing_on_the_gui_thread(
    tmp_path: Path, demo_db: str
) -> None:
    # The worker imports the first screen's services (FIRST_SCREEN_MODULES) and configures the
    # mappers; the GUI thread then only queries and fills the window, which stays responsive.
    script = f"""
        import argparse, sys, threading
        DEFERRED = {DEFERRED!r}
        TRACKER = {TRACKER!r}
        from ui.app import StartUp, build_window_first, create_application
        from ui.settings import AppSettings
        app = create_application()
        args = argparse.Namespace(db={demo_db!r})
        window = build_window_first(args, settings=AppSettings.at({str(tmp_path / "s.ini")!r}))
        shown = window.database_opened

        class GuiImports:  # what the GUI thread imports while it shows the campaign
            names = []

            def find_spec(self, name, path=None, target=None):
                if threading.current_thread() is threading.main_thread():
                    if name not in sys.modules and name.startswith(("brikdesk", "ui", "sql")):
                        self.names.append(name)
                return None

        def database_opened(database):
            print("opened-with", ",".join(m for m in TRACKER if m in sys.modules) or "-")
            sys.meta_path.insert(0, GuiImports())
            shown(database)
            del sys.meta_path[0]
            print("imported", ",".join(sorted(GuiImports.names)) or "-")
            print("standings", bool(window.overview.toPlainText().strip()))

        window.database_opened = database_opened

        def ready():
            print("campaign", window.nav.campaign.name)
            print("loaded", ",".join(m for m in DEFERRED if m in sys.modules) or "-")
            app.exit(0)

        def failed(error):
            print("failed", error)
            app.exit(1)

        start = StartUp(window, args, ready, failed)
        window.show()
        sys.exit(app.exec())
    """
    lines = _run(script, tmp_path)
    assert lines["campaign"] != ""
    assert lines["standings"] == "True"
    # What the first screen does not show loads when first used (or on a worker once the
    # campaign shows, ``ui.app.import_after_start``): the start stays near the stack's floor.
    assert lines["loaded"] == "-"
    assert lines["opened-with"] == "-"
    # ui.live (the live refresh) is started after the campaign is shown; it is tiny.
    assert lines["imported"] in ("-", "ui.live", "brikdesk.services.watch,ui.live")


def test_the_gui_thread_collects_once_the_campaign_shows_and_automatic_collection_stays_off(
    tmp_path: Path,
) -> None:
    # Left without a collector, a long session would never free reference cycles: memory would
    # only grow. Left automatic, a collection could run on a worker thread or inside a paint.
    script = """
        import gc
        import ui.app as app_module
        from brikdesk.cli import main
        from PySide6.QtWidgets import QApplication
        from ui.collector import GuiCollector

        start = app_module.collect_on_gui_thread
        seen = []

        def start_and_tell():
            seen.append(gc.isenabled())
            start()

        app_module.collect_on_gui_thread = start_and_tell
        shut_down = app_module.shut_down

        def tell_and_shut_down(window):
            collectors = QApplication.instance().findChildren(GuiCollector)
            print("off-while-starting", seen[0] is False)
            print("after", gc.isenabled(), gc.get_freeze_count() > 0, len(collectors))
            shut_down(window)

        app_module.shut_down = tell_and_shut_down
        main(["--check-start"])
    """
    lines = _run(script, tmp_path)
    assert lines["off-while-starting"] == "True"
    assert lines["after"] == "False True 1"


def test_the_campaign_and_its_standings_show_without_the_battle_rules(tmp_path: Path) -> None:
    # The demo (made by a first start) has a finished battle (the overview reads its standings
    # on a worker) and one in progress; the overview shows no battle in progress, so nothing loads the tracker or the
    # battle rules until a battle is opened. The check waits for the standings' read to end
    # (the read's answer reaches no window then: the event loop has ended).
    script = f"""
        import sys
        import ui.app as app_module
        from brikdesk.cli import main

        shut_down = app_module.shut_down

        def tell_and_shut_down(window):
            shut_down(window)  # waits for the reads still running on workers
            print("standings read", "brikdesk.services.history" in sys.modules)
            print("loaded", ",".join(m for m in {BATTLE_RULES!r} if m in sys.modules) or "-")

        app_module.shut_down = tell_and_shut_down
        sys.exit(main(["--check-start"]))
    """
    _run("from brikdesk.cli import main; main(['--check-start'])", tmp_path)  # makes the demo
    lines = _run(script, tmp_path)
    assert lines["standings"] == "read True"
    assert lines["loaded"] == "-"


def test_the_first_attack_finds_its_forms_and_charts_imported_off_the_gui_thread(
    tmp_path: Path,
) -> None:
    # pyqtgraph takes ~1.2 s to import: the first combat wizard's Action Roll page used to wait
    # for it. Once the campaign is shown, a worker imports the combat forms and their charts.
    script = """
        import sys, threading
        import ui.app as app_module
        from brikdesk.cli import main
        from PySide6.QtCore import QThreadPool, QTimer
        from PySide6.QtWidgets import QApplication

        seen = {}

        class Watch:
            def find_spec(self, name, path=None, target=None):
                if name == "pyqtgraph":
                    seen["gui"] = threading.current_thread() is threading.main_thread()
                return None

        sys.meta_path.insert(0, Watch())
        start = app_module.import_after_start

        def start_and_watch(parent):
            print("before", "pyqtgraph" in sys.modules)
            start(parent)

            def done():
                if QThreadPool.globalInstance().activeThreadCount():
                    QTimer.singleShot(20, done)
                    return
                print("charts", "ui.wizard.charts" in sys.modules)
                print("gui-thread", seen.get("gui"))
                QApplication.instance().quit()

            QTimer.singleShot(20, done)

        app_module.import_after_start = start_and_watch
        sys.exit(main([]))
    """
    lines = _run(script, tmp_path)
    assert lines["before"] == "False"  # the campaign shows without waiting for pyqtgraph
    assert lines["charts"] == "True"
    assert lines["gui-thread"] == "False"


def test_the_app_starts_with_the_cheaper_reading(tmp_path: Path) -> None:
    # The launcher answers PySide6's question about each import by reading bytes
    # (ui.qt_start, tests/ui/test_qt_start.py), with PySide's own flags as the result.
    script = """
        import sys
        import ui.app as app_module
        from brikdesk.cli import main

        shut_down = app_module.shut_down

        def tell_and_shut_down(window):
            import ui.qt_start
            feature = sys.modules["shibokensupport.feature"]
            print("reading", feature._mod_uses_pyside is ui.qt_start.mentions_pyside)
            print("windows", feature.pyside_feature_dict.get("ui.main_window.window"))
            print("database", feature.pyside_feature_dict.get("sqlalchemy.orm.session"))
            shut_down(window)

        app_module.shut_down = tell_and_shut_down
        sys.exit(main(["--check-start"]))
    """
    lines = _run(script, tmp_path)
    assert lines["reading"] == "True"
    # PySide's flags: 0 for a module that uses PySide6, -1 for one it ignores.
    assert lines["windows"] == "0"
    assert lines["database"] == "-1"
