"""The main window, the battle panel, the quick attack form and the combat wizard on a screen
set up by the caller (``QT_SCALE_FACTOR``, the offscreen platform's screen size, the
application's font): what shows cut or scrolls sideways. Run in a process of its own
(``tests/ui/test_screens.py``): the scale is read when Qt starts.

    python screen_check.py DATABASE_URL SETTINGS_INI OUT_JSON [FONT_POINTS]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.ui.event_loop import run_until, settle  # noqa: E402


def _name(w: Any) -> str:
    text = w.text() if hasattr(w, "text") else ""
    return f"{type(w).__name__} {w.objectName()!r} {str(text)[:40]!r}"


def _in_scroll_area(w: Any, window: Any) -> bool:
    from PySide6.QtWidgets import QScrollArea

    parent = w.parentWidget()
    while parent is not None and parent is not window:
        if isinstance(parent, QScrollArea):
            return True
        parent = parent.parentWidget()
    return False


def _label_cut(w: Any, window: Any) -> str | None:
    """Why the label ``w`` shows cut, or None."""
    if w.wordWrap():
        need = w.heightForWidth(w.width())
        return f"{w.height()} of {need} px high" if need > w.height() + 1 else None
    if hasattr(w, "shown_text"):  # draws what fits with "…" (its tooltip whole), or nothing
        shown = w.shown_text()
        return None if shown in ("", w.text()) or "…" in shown else f"shows {shown!r}"
    if w.sizeHint().width() > w.width() + 1 and not _in_scroll_area(w, window):
        return f"{w.width()} of {w.sizeHint().width()} px wide"
    return None


def elided(window: Any) -> list[str]:
    """The one-line labels of ``window`` that show their text shortened with "…" (the whole
    text in their tooltip): fine on a small screen, never where the window has room."""
    from PySide6.QtWidgets import QLabel

    return [
        f"{_name(w)} shows {w.shown_text()!r}"
        for w in window.findChildren(QLabel)
        if w.isVisibleTo(window) and hasattr(w, "shown_text") and "…" in w.shown_text()
    ]


def problems(window: Any) -> list[str]:
    """What in ``window`` a person would see cut or would have to scroll sideways to read."""
    from PySide6.QtWidgets import QAbstractButton, QAbstractScrollArea, QLabel, QScrollArea

    found: list[str] = []
    screen = window.screen().availableGeometry()
    frame = window.frameGeometry()
    if frame.width() > screen.width() or frame.height() > screen.height():
        found.append(f"the window ({frame.width()}x{frame.height()}) is larger than the screen")
    for w in window.findChildren(QAbstractScrollArea):
        sideways = w.isVisibleTo(window) and w.horizontalScrollBar().isVisible()
        if sideways and (isinstance(w, QScrollArea) or not hasattr(w, "model")):
            found.append(f"{_name(w)} scrolls sideways")
    for w in window.findChildren(QLabel):
        if w.isVisibleTo(window) and w.text() and w.width() > 0:
            why = _label_cut(w, window)
            if why is not None:
                found.append(f"{_name(w)} is cut: {why}")
    for w in window.findChildren(QAbstractButton):
        if not w.isVisibleTo(window) or not w.text() or type(w).__name__ == "QToolButton":
            continue
        if w.sizeHint().width() > w.width() + 1:
            found.append(f"{_name(w)} is cut: {w.width()} of {w.sizeHint().width()} px wide")
    return found


def main(argv: list[str]) -> int:
    url, settings_path, out_path = argv[1], argv[2], argv[3]
    font_pt = float(argv[4]) if len(argv) > 4 else None
    from PySide6.QtWidgets import QApplication

    from brikdesk.domain.battle.model import ActionState
    from ui.app import build_main_window, create_application
    from ui.settings import AppSettings

    app = create_application()
    if font_pt is not None:
        font = app.font()
        font.setPointSizeF(font_pt)
        app.setFont(font)
    main_window = build_main_window(
        argparse.Namespace(db=url), settings=AppSettings.at(settings_path)
    )
    main_window.show()
    settle(app)
    screen = app.primaryScreen()
    report: dict[str, Any] = {
        "screen": [screen.geometry().width(), screen.geometry().height()],
        "ratio": screen.devicePixelRatio(),
        "font": app.font().pointSizeF(),
        "windows": {},
        "elided": {},
    }
    report["windows"]["main window"] = problems(main_window)
    report["elided"]["main window"] = elided(main_window)
    roster = main_window.open_roster(main_window.nav.armies[0].id)
    settle(app)
    report["windows"]["roster"] = problems(roster)
    report["elided"]["roster"] = elided(roster)
    roster.close()
    history = main_window.open_history()
    settle(app)
    for tab in range(history.tabs.count()):
        history.tabs.setCurrentIndex(tab)
        settle(app)
        report["windows"][f"history tab {tab + 1}"] = problems(history)
    history.close()
    battle = next(b for b in main_window.nav.battles if b.status == "in_progress")
    main_window.open_battle(battle.id)
    panel = main_window.battle_panel
    if not run_until(app, lambda: panel.view is not None, 30):
        raise SystemExit("screen check: the battle panel did not show the battle")
    settle(app)
    report["windows"]["battle panel"] = problems(main_window)
    report["elided"]["battle panel"] = elided(main_window)
    state = panel.view.state
    ready = [
        u.unit_id
        for u in sorted(state.units, key=lambda u: u.player_id != state.active)
        if u.action in (ActionState.READY, ActionState.HELD) and u.in_battle
    ]
    from ui.wizard import CombatWizard
    from ui.wizard.quick import QuickAttack

    panel.select_unit(ready[0])
    assert panel.open_quick(ready[0]), "the quick form did not open"
    settle(app)
    quick = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QuickAttack))
    report["windows"]["quick form"] = problems(quick)
    quick.reject()
    settle(app)
    assert panel.open_wizard(ready[0]), "the combat wizard did not open"
    settle(app)
    wizard = next(w for w in QApplication.topLevelWidgets() if isinstance(w, CombatWizard))
    for page in range(1, 4):
        report["windows"][f"wizard page {page}"] = problems(wizard)
        before = wizard.currentId()
        wizard.next()
        settle(app)
        if wizard.currentId() == before:
            break
    wizard.reject()
    main_window.close()
    settle(app)
    Path(out_path).write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
