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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
CLIENT = Path(__file__).with_name("atspi_client.py")

from tests.ui.event_loop import run_until, settle  # noqa: E402

SYSTEM_PYTHON = os.environ.get("BRIKDESK_ATSPI_PYTHON", "/usr/bin/python3")


class Client:
    """The AT-SPI client, one process for the session: a command a line in, an answer a line
    out, read on a thread while the event loop keeps answering the bus."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [SYSTEM_PYTHON, str(CLIENT), str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            encoding="utf-8",
        )

    def ask(self, app: Any, *command: str) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        out: list[str] = []
        stdout = self.process.stdout
        thread = threading.Thread(target=lambda: out.append(stdout.readline()), daemon=True)
        thread.start()
        if not run_until(app, lambda: not thread.is_alive(), 150):
            self.process.kill()
            raise SystemExit(f"atspi app: the client did not answer {command[:2]} in 150 s")
        answer: dict[str, Any] = json.loads(out[0]) if out and out[0] else {}
        if not answer or "error" in answer:
            self.process.kill()
            detail = answer.get("error") or self.process.communicate(timeout=10)[1][-2000:]
            raise SystemExit(f"atspi app: the client failed on {command[:2]}: {detail}")
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


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
    client = Client()
    windows: dict[str, list[list[str]]] = {}

    def read(label: str, widget: Any) -> None:
        widget.show()
        widget.raise_()
        settle(app)
        windows[label] = client.ask(app, "walk", widget.windowTitle())["controls"]

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
    if not run_until(app, lambda: panel.view is not None, 30):
        raise SystemExit("atspi app: the battle panel did not show the battle")
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
            settle(app)
            form = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QuickAttack))
            for _ in range(3):  # a ranged weapon: the form asks for the range
                if not form.draft.kind.close_combat:
                    return form
                form.next_weapon()
            form.reject()
            settle(app)
        raise SystemExit("atspi app: no unit for a ranged quick attack")

    form = quick_form()
    read("quick form", form)
    form.reject()
    settle(app)

    from ui.wizard import CombatWizard

    panel.select_unit(ready[0])
    assert panel.open_wizard(ready[0]), "the combat wizard did not open"
    settle(app)
    wizard = next(w for w in QApplication.topLevelWidgets() if isinstance(w, CombatWizard))
    for page in range(1, 4):  # the first pages: Attack, then on
        read(f"wizard page {page}", wizard)
        before = wizard.currentId()
        wizard.next()
        settle(app)
        if wizard.currentId() == before:
            break
    wizard.reject()
    settle(app)

    from brikdesk.share import Shared
    from ui.dialogs.end_battle import EndBattleDialog
    from ui.dialogs.settings import SettingsDialog
    from ui.dialogs.share import ShareDialog, Sharing

    end = EndBattleDialog(main_window, main_window.services, battle.id)
    if not run_until(app, end.loaded, 10):  # the battle is read on a worker
        raise SystemExit("atspi app: End battle did not read the battle")
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
    settle(app)

    # A quick attack through the tree alone.
    events = len(main_window.services.tracker.view(battle.id).events)
    form = quick_form()
    me = panel.view.setup.unit(form.draft.attacker_id).player_id
    alive = {u.unit_id for u in panel.view.state.units if u.in_battle}
    enemy = next(u.name for u in panel.view.setup.units if u.player_id != me and u.unit_id in alive)
    done = client.ask(app, "quick", form.windowTitle(), enemy)
    client.close()

    def log() -> list[Any]:
        return list(main_window.services.tracker.view(battle.id).events)

    run_until(app, lambda: len(log()) > events, 10)  # written off the GUI thread
    after = log()
    recorded = [e.text for e in after[events:]] if len(after) > events else []
    Path(out_path).write_text(
        json.dumps({"windows": windows, "quick": done["steps"], "recorded": recorded}),
        encoding="utf-8",
    )
    main_window.close()
    settle(app)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
