"""Make the user guide's screenshots (docs/images/*.png) from the real windows.

    .venv/bin/python docs/make_screenshots.py            # writes docs/images/
    .venv/bin/python docs/make_screenshots.py --out DIR  # elsewhere (the tests do)

Runs offscreen (``QT_QPA_PLATFORM=offscreen`` unless set) on a fresh copy of the demo campaign in a
temporary folder, opens each window as a user would (the main window, an army's roster, the
catalog, the battle in progress with its panel, the combat wizard, the Share dialog and the
players' page it serves (in Debian's chromium at a phone's size), the campaign history, the print
preview of a roster sheet), waits until it is painted and saves ``widget.grab()``. Run it again
after changing a window so that the guide stays current. Prints one line per picture.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

#: file name -> what it shows (the guide links each one)
SHOTS = {
    "main-window.png": "the main window on the demo campaign",
    "roster.png": "an army's roster window",
    "add-units.png": "the Add units dialog over a roster",
    "catalog.png": "the weapon catalog",
    "battle-panel.png": "the battle in progress with its panel",
    "combat-wizard.png": "the combat wizard",
    "action-roll.png": "the combat wizard's Action Roll page on a laptop's screen",
    "quick-attack.png": "the quick attack form over the battle on a 1366x768 laptop",
    "quick-strike.png": "a quick Close Combat Strike, its dice typed, on a 1366x768 laptop",
    "group-sprint.png": "a group Sprint on one die over the battle on a 1366x768 laptop",
    "mom-question.png": "End turn asking about the MOMs on a 1366x768 laptop",
    "left-to-table.png": "Help > Rules reference: what is left to the table",
    "history.png": "the campaign history",
    "print-preview.png": "the print preview of a roster sheet",
    "share-dialog.png": "Battle > Share with players...: the address and its QR code",
    "share-page.png": "the players' page on a phone (360 x 740, Debian's chromium)",
    **{
        f"{theme}-{what}.png": f"{text} in the {theme} theme on a 1366x768 laptop"
        for theme in ("light", "dark")
        for what, text in (
            ("main", "the main window"),
            ("roster", "an army's roster"),
            ("panel", "the battle panel"),
            ("quick", "the quick attack form"),
            ("wizard", "the combat wizard"),
        )
    },
}

MAIN_SIZE = (1280, 800)
#: A 1366x768 laptop's screen less the title bar and a panel: where the organizer plays.
LAPTOP_WINDOW = (1366, 706)
ARMY = "Moonlight Posse"


def settle(app, until: Callable[[], object] = lambda: True, timeout: float = 30.0) -> None:
    """Process events until ``until()`` holds, then until what it started is done: the jobs
    on the worker pool and the writes in flight, their answers shown and the events they and
    the layouts posted handled (``tests/ui/event_loop.py``)."""
    from tests.ui.event_loop import settle as finish

    end = time.monotonic() + timeout
    while not until():
        if time.monotonic() > end:
            raise SystemExit("make_screenshots: a window did not get ready in time")
        app.processEvents()
        time.sleep(0.01)
    finish(app, timeout)


#: Seconds of events before a picture is taken: Qt's own animations end (a line edit's clear
#: button fades in over 160 ms).
ANIMATIONS = 0.25


def ready_to_grab(app) -> None:
    settle(app)
    end = time.monotonic() + ANIMATIONS
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def save(app, widget, out: Path, name: str) -> None:
    settle(app, widget.isVisible)
    widget.raise_()
    ready_to_grab(app)
    if not widget.grab().save(str(out / name)):
        raise SystemExit(f"make_screenshots: could not write {out / name}")
    print(f"{name}: {SHOTS[name]}")


def save_over(app, back, front, out: Path, name: str) -> None:
    """``front`` (a dialog) drawn where it stands over its window ``back``, as the user sees
    them (each is grabbed on its own: the offscreen platform composes no screen)."""
    from PySide6.QtGui import QColor, QPainter

    settle(app, front.isVisible)
    ready_to_grab(app)
    picture = back.grab()
    painter = QPainter(picture)
    at = front.geometry().topLeft() - back.geometry().topLeft()
    painter.drawPixmap(at, front.grab())
    painter.setPen(QColor("#555555"))
    painter.drawRect(at.x(), at.y(), front.width() - 1, front.height() - 1)
    painter.end()
    if not picture.save(str(out / name)):
        raise SystemExit(f"make_screenshots: could not write {out / name}")
    print(f"{name}: {SHOTS[name]}")


def _open_quick(app, panel, units, ranged: bool):
    """The quick form on the first of ``units`` that can attack with a weapon of the kind
    wanted (its weapons in turn, Alt+W), or ``None``."""
    from PySide6.QtWidgets import QApplication

    from ui.wizard.quick import QuickAttack

    for unit in units:
        panel.select_unit(unit)
        if not panel.open_quick(unit):
            continue
        quick = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QuickAttack))
        settle(app, quick.isVisible)
        for _ in range(3):
            if quick.draft.kind.close_combat != ranged:
                return quick
            quick.next_weapon()
        quick.reject()
        settle(app)
    return None


def _type_quick(app, quick, enemy: str, ranged: bool) -> None:
    """Type into the quick form as the organizer would: the enemy's first letters, Tab, the
    range (6") of a ranged attack, Tab, then a 5 for every die asked."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    QTest.keyClicks(quick.target, enemy[:4])
    QTest.keyClick(quick.target, Qt.Key.Key_Tab)
    if ranged:
        QTest.keyClicks(quick.distance, "6")
        QTest.keyClick(quick.distance, Qt.Key.Key_Tab)
    settle(app)
    for _ in range(8):
        if quick.dice_entry.need is None:
            break
        QTest.keyClicks(quick.dice_entry.edit, "5")
        settle(app)


def make(out: Path, tmp: Path) -> None:
    from PySide6.QtWidgets import QApplication

    from brikdesk.domain.battle.model import ActionState
    from brikdesk.persistence.db import open_database
    from brikdesk.services.demo import create_demo
    from ui.app import build_main_window, create_application
    from ui.screen import pretend_screen
    from ui.settings import AppSettings
    from ui.widgets.print_options import RosterOptionsDialog, load_roster_choice
    from ui.windows.navigator import ARMY as ARMY_KIND
    from ui.wizard import CombatWizard

    url = f"sqlite:///{tmp / 'demo.sqlite3'}"
    db = open_database(url)
    create_demo(db)
    db.close()

    app = create_application()
    settings = AppSettings.at(tmp / "settings.ini")
    main = build_main_window(argparse.Namespace(db=url), settings=settings)
    main.resize(*MAIN_SIZE)
    main.show()
    save(app, main, out, "main-window.png")

    army_id = next(a.id for a in main.nav.armies if a.name == ARMY)
    roster = main.open_roster(army_id)
    assert roster is not None
    roster.resize(1100, 650)
    save(app, roster, out, "roster.png")
    from ui.windows.roster_edits import typical_unit
    from ui.windows.unit_dialogs import AddUnitsDialog

    typical = typical_unit(roster.model.all_rows())
    assert typical is not None and roster.catalog is not None
    dialog = AddUnitsDialog(roster, roster.catalog, typical.type_key, 3, typical)
    dialog.show()
    settle(app, dialog.isVisible)
    dialog.move(roster.geometry().center() - dialog.rect().center())
    save_over(app, roster, dialog, out, "add-units.png")
    dialog.reject()
    roster.close()

    catalog = main.open_catalog()
    assert catalog is not None
    catalog.resize(1000, 650)
    save(app, catalog, out, "catalog.png")
    catalog.close()

    battle = next(b for b in main.nav.battles if b.status == "in_progress")
    main.open_battle(battle.id)
    panel = main.battle_panel
    settle(app, lambda: panel.view is not None)
    state = panel.view.state
    attacker = next(
        u.unit_id
        for u in state.units
        if u.player_id == state.active and u.action is ActionState.READY
    )
    panel.select_unit(attacker)
    save(app, main, out, "battle-panel.png")
    # The start's "Ready" goes after 5 s: gone from the next pictures, whatever time they take.
    main.statusBar().clearMessage()

    # The wizard sizes itself to the screen it opens on: a laptop's here (the offscreen
    # platform's own screen is 800 pixels square, smaller than any the wizard is meant for).
    with pretend_screen(1366, 768):
        assert panel.open_wizard(), "the combat wizard did not open"
    wizard = next(w for w in QApplication.topLevelWidgets() if isinstance(w, CombatWizard))
    save(app, wizard, out, "combat-wizard.png")
    # The Action Roll page as it opens on a laptop: the modifiers and the dice together.
    if not wizard.draft.kind.close_combat:
        wizard.replace_draft(replace(wizard.draft, distance=Fraction(6)))
    wizard.next()
    wizard.next()
    settle(app, lambda: wizard.currentId() == CombatWizard.ACTION)
    save(app, wizard, out, "action-roll.png")
    wizard.reject()
    settle(app)

    # The quick attack at the table, as on a laptop: a ranged attack typed from the keyboard
    # (a few letters of the target, Tab, the range, Tab, the dice) and a Close Combat Strike,
    # each over the battle it is recorded in.
    main.resize(*LAPTOP_WINDOW)
    settle(app)
    ready = [  # the active player's ready units, then those holding an Action to respond
        u.unit_id
        for u in sorted(state.units, key=lambda u: u.player_id != state.active)
        if u.action in (ActionState.READY, ActionState.HELD) and u.in_battle
    ]
    for name, ranged in (("quick-attack.png", True), ("quick-strike.png", False)):
        with pretend_screen(1366, 768):  # the form sizes itself to the screen as it fills
            quick = _open_quick(app, panel, ready, ranged)
            assert quick is not None, f"no unit for {name}"
            me = panel.view.setup.unit(quick.draft.attacker_id).player_id
            enemy = next(u.name for u in panel.view.setup.units if u.player_id != me)
            _type_quick(app, quick, enemy, ranged)
            quick.move(main.geometry().center() - quick.rect().center())
            save_over(app, main, quick, out, name)
        quick.reject()
        settle(app)
    table_rules_pictures(app, main, panel, ready, out)
    main.resize(*MAIN_SIZE)

    share_pictures(app, main, out, tmp)

    history = main.open_history()
    history.resize(1100, 700)
    settle(app, lambda: history.isVisible())
    save(app, history, out, "history.png")
    history.close()

    # The options dialog would ask; the remembered (default) options are taken.
    def ask(_cls, _parent, chosen_settings, *_args, **_kwargs):
        return load_roster_choice(chosen_settings)

    RosterOptionsDialog.ask = classmethod(ask)  # type: ignore[method-assign,assignment]
    main.show_overview()
    main.navigator.select(ARMY_KIND, army_id)
    assert main.print_preview(), "the print preview did not open"
    settle(app, lambda: main.printing.preview_dialog is not None)
    preview = main.printing.preview_dialog
    save(app, preview, out, "print-preview.png")
    preview.close()
    # The preview's note (units left out of the print) would stand in the theme pictures: in
    # the app it goes after a while, or with its close button, as the organizer moves on.
    main.banner.clear()

    theme_pictures(app, main, out, army_id)
    main.close()
    settle(app)


def table_rules_pictures(app, main, panel, ready, out: Path) -> None:
    """A group Sprint (one die for the runners ticked), End turn's question about the MOMs,
    and the Rules reference's list of what is left to the table."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from brikdesk.domain.battle.momentum import MomAtTurnEnd
    from brikdesk.domain.combat.sprint import group_candidates
    from ui.dialogs.sprint import SprintDialog
    from ui.panels.mom_question import MomQuestion
    from ui.screen import pretend_screen
    from ui.widgets.combat_context import context_for

    view = panel.view
    ctx = context_for(view)
    runner = next(u for u in ready if group_candidates(ctx, u))
    with pretend_screen(1366, 768):
        sprint = SprintDialog(main, main.services, view.id, runner)
        sprint.show()
        settle(app, sprint.isVisible)
        assert sprint.group_list is not None
        sprint.group_list.item(0).setCheckState(Qt.CheckState.Checked)
        QTest.keyClicks(sprint.entry.edit, "4")
        sprint.move(main.geometry().center() - sprint.rect().center())
        save_over(app, main, sprint, out, "group-sprint.png")
    sprint.reject()
    setup, state = view.setup, view.state
    holders = [u.unit_id for u in state.units if u.player_id == state.active][:2]
    asked = MomAtTurnEnd(tuple((u, setup.name(u)) for u in holders), True, "2020")
    with pretend_screen(1366, 768):
        question = MomQuestion(main, view.active_player.name, asked)
        question.show()
        settle(app, question.isVisible)
        question.move(main.geometry().center() - question.rect().center())
        save_over(app, main, question, out, "mom-question.png")
    question.reject()
    reference = main.show_rules_reference()
    reference.resize(1000, 700)
    reference.filter.setText("Left to the table")
    save(app, reference, out, "left-to-table.png")
    reference.close()
    settle(app)


def theme_pictures(app, main, out: Path, army_id) -> None:
    """The main window, a roster, the battle panel, the quick form and the wizard in the
    light and in the dark theme, as on a 1366x768 laptop."""
    from PySide6.QtWidgets import QApplication

    from brikdesk.domain.battle.model import ActionState
    from ui.appearance import ThemeMode, apply_theme
    from ui.screen import pretend_screen
    from ui.wizard import CombatWizard

    for theme in ("light", "dark"):
        apply_theme(ThemeMode(theme))
        main.resize(*LAPTOP_WINDOW)
        main.show_overview()
        settle(app)
        save(app, main, out, f"{theme}-main.png")
        roster = main.open_roster(army_id)
        assert roster is not None
        roster.resize(*LAPTOP_WINDOW)
        save(app, roster, out, f"{theme}-roster.png")
        roster.close()
        battle = next(b for b in main.nav.battles if b.status == "in_progress")
        main.open_battle(battle.id)
        panel = main.battle_panel
        settle(app, lambda p=panel: p.view is not None)
        save(app, main, out, f"{theme}-panel.png")
        state = panel.view.state
        ready = [
            u.unit_id
            for u in sorted(state.units, key=lambda u: u.player_id != state.active)
            if u.action in (ActionState.READY, ActionState.HELD) and u.in_battle
        ]
        with pretend_screen(1366, 768):
            quick = _open_quick(app, panel, ready, True)
            assert quick is not None, "no unit for the quick form"
            me = panel.view.setup.unit(quick.draft.attacker_id).player_id
            enemy = next(u.name for u in panel.view.setup.units if u.player_id != me)
            _type_quick(app, quick, enemy, True)
            quick.move(main.geometry().center() - quick.rect().center())
            save_over(app, main, quick, out, f"{theme}-quick.png")
        quick.reject()
        settle(app)
        panel.select_unit(ready[0])
        with pretend_screen(1366, 768):
            assert panel.open_wizard(), "the combat wizard did not open"
        wizard = next(w for w in QApplication.topLevelWidgets() if isinstance(w, CombatWizard))
        save(app, wizard, out, f"{theme}-wizard.png")
        wizard.reject()
        settle(app)
    apply_theme(ThemeMode.LIGHT)
    main.resize(*MAIN_SIZE)


def share_pictures(app, main, out: Path, tmp: Path) -> None:
    """The Share dialog sharing the battle shown, and the page it serves in a real browser
    (Debian's chromium through Selenium, as tests/share/test_browser.py) at a phone's size."""
    from tests.share.browser import phone_browser
    from ui.dialogs.share import interface_addresses

    main.sharing.share_battle()
    dialog = main.sharing.dialog
    dialog.interface.setCurrentIndex(dialog.interface.findText(interface_addresses()[0]))
    dialog.start()
    settle(app, lambda: dialog.address.text().startswith("http"))
    save(app, dialog, out, "share-dialog.png")
    browser = phone_browser(tmp / "chromium")
    try:
        browser.get(main.sharing.server.url)
        end = time.monotonic() + 30
        while "Round" not in browser.find_element("id", "battle").text:
            if time.monotonic() > end:
                raise SystemExit("make_screenshots: the players' page did not show the battle")
            time.sleep(0.05)
        # A player taps a unit of theirs to see its weapons.
        browser.execute_script("document.querySelectorAll('details.unit')[2].open = true")
        time.sleep(0.3)
        browser.save_screenshot(str(out / "share-page.png"))
        print(f"share-page.png: {SHOTS['share-page.png']}")
    finally:
        browser.quit()
    main.sharing.stop()
    dialog.close()
    settle(app)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="brikdesk-shots-") as tmp:
        os.environ["BRIKDESK_HOME"] = tmp  # no settings or logs of the user's are touched
        make(args.out, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
