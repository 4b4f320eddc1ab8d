"""BrikDesk as a screen reader meets it: run under Xvfb (the xcb platform), on a session bus
(``dbus-run-session``) with ``QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1``, it opens the main window,
a roster, the catalog, the history, the battle panel, the quick attack form, the combat
wizard's pages, End battle, Settings and Share in turn; ``atspi_client.py`` reads each one through
the AT-SPI bus while the app keeps answering it. Then the client makes a quick attack through
the tree alone, and the app checks that it was recorded.

    python app.py DATABASE_URL SETTINGS_INI OUT_JSON
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
CLIENT = Path(__file__).with_name("atspi_client.py")
SYSTEM_PYTHON = os.environ.get("BRIKDESK_ATSPI_PYTHON", "/usr/bin/python3")


def settle(app: Any, seconds: float = 0.5) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def client(app: Any, *args: str) -> dict[str, Any]:
    """Run the AT-SPI client on a thread while the event loop keeps answering the bus."""
    out: dict[str, Any] = {}

    def work() -> None:
        try:
            out["done"] = subprocess.run(
                [SYSTEM_PYTHON, str(CLIENT), *args],
                capture_output=True,
                encoding="utf-8",
                timeout=150,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            out["error"] = repr(exc)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    end = time.monotonic() + 160
    while thread.is_alive() and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.005)
    done = out.get("done")
    if done is None or done.returncode != 0:
        detail = out.get("error") or (done.stderr[-2000:] if done is not None else "timed out")
        raise SystemExit(f"atspi app: the client failed on {args[:1]} {args[2:3]}: {detail}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main(argv: list[str]) -> int:
    url, settings_path, out_path = argv[1], argv[2], argv[3]
    from PySide6.QtWidgets import QApplication

    from brikdesk.domain.battle.model import ActionState
    from ui.app import build_main_window, create_application
    from ui.settings import AppSettings

    app = create_application()
    assert app.platformName() == "xcb", app.platformName()
    settings = AppSettings.at(settings_path)
    main_window = build_main_window(argparse.Namespace(db=url), settings=settings)
    main_window.resize(1280, 720)
    main_window.show()
    settle(app, 1.0)
    windows: dict[str, list[list[str]]] = {}

    def read(label: str, widget: Any) -> None:
        widget.show()
        widget.raise_()
        settle(app, 0.6)
        windows[label] = client(app, "walk", str(os.getpid()), widget.windowTitle())["controls"]

    read("main window", main_window)
    nav = main_window.nav
    army = nav.armies[0].id
    roster = main_window.open_roster(army)
    read("roster", roster)
    roster.close()
    catalog = main_window.open_catalog()
    read("catalog", catalog)
    catalog.close()
    history = main_window.open_history()
    read("history", history)
    history.close()
    battle = next(b for b in nav.battles if b.status == "in_progress")
    main_window.open_battle(battle.id)
    panel = main_window.battle_panel
    settle(app, 1.0)
    read("battle panel", main_window)

    state = panel.view.state
    ready = [
        u.unit_id
        for u in sorted(state.units, key=lambda u: u.player_id != state.active)
        if u.action in (ActionState.READY, ActionState.HELD) and u.in_battle
    ]

    def quick_form() -> Any:
        from ui.wizard.quick import QuickAttack

        for unit in ready:
            panel.select_unit(unit)
            if not panel.open_quick(unit):
                continue
            settle(app, 0.5)
            form = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QuickAttack))
            for _ in range(3):  # a ranged weapon: the form asks for the range
                if not form.draft.kind.close_combat:
                    return form
                form.next_weapon()
            form.reject()
            settle(app, 0.3)
        raise SystemExit("atspi app: no unit for a ranged quick attack")

    form = quick_form()
    read("quick form", form)
    form.reject()
    settle(app, 0.3)

    from ui.wizard import CombatWizard

    panel.select_unit(ready[0])
    assert panel.open_wizard(ready[0]), "the combat wizard did not open"
    settle(app, 0.5)
    wizard = next(w for w in QApplication.topLevelWidgets() if isinstance(w, CombatWizard))
    for page in range(1, 4):  # the first pages: Attack, then on
        read(f"wizard page {page}", wizard)
        before = wizard.currentId()
        wizard.next()
        settle(app, 0.3)
        if wizard.currentId() == before:
            break
    wizard.reject()
    settle(app, 0.3)

    from brikdesk.share import Shared
    from ui.dialogs.end_battle import EndBattleDialog
    from ui.dialogs.settings import SettingsDialog
    from ui.dialogs.share import ShareDialog, Sharing

    end = EndBattleDialog(main_window, main_window.services, battle.id)
    for _ in range(500):  # the battle is read on a worker: 10 s at most
        if end.loaded():
            break
        settle(app, 0.02)
    read("End battle", end)
    end.reject()
    prefs = SettingsDialog(main_window, settings)
    read("Settings", prefs)
    prefs.reject()
    sharing = Sharing(None, main_window.services, settings)
    share = ShareDialog(sharing, main_window)
    share.set_target(Shared(main_window.shown.campaign_id), "the campaign")
    read("Share", share)
    share.reject()
    settle(app, 0.3)

    # A quick attack through the tree alone.
    events = len(main_window.services.tracker.view(battle.id).events)
    form = quick_form()
    me = panel.view.setup.unit(form.draft.attacker_id).player_id
    alive = {u.unit_id for u in panel.view.state.units if u.in_battle}
    enemy = next(u.name for u in panel.view.setup.units if u.player_id != me and u.unit_id in alive)
    done = client(app, "quick", str(os.getpid()), form.windowTitle(), enemy)
    settle(app, 1.0)
    after = main_window.services.tracker.view(battle.id).events
    recorded = [e.text for e in after[events:]] if len(after) > events else []
    Path(out_path).write_text(
        json.dumps({"windows": windows, "quick": done["steps"], "recorded": recorded}),
        encoding="utf-8",
    )
    main_window.close()
    settle(app, 0.3)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
