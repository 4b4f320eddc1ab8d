"""Every control of every window, dialog and form says what it is for to a screen reader: read
in-process through Qt's accessibility interfaces (``tests.ui.accessible``), the ones Qt's AT-SPI
bridge serves (``tests/ui/test_atspi.py`` reads the same through the real bus)."""

from __future__ import annotations

import pytest

from tests.ui.accessible import controls, unnamed
from tests.ui.every_dialog import DIALOGS, World
from tests.ui.keyboard import shown


@pytest.mark.parametrize("name", sorted(DIALOGS))
def test_every_control_of_each_dialog_has_a_name(qtbot, world: World, name: str) -> None:
    dialog, _first = DIALOGS[name](world)
    shown(qtbot, dialog)
    found = controls(dialog)
    assert found, name
    assert [c.where for c in unnamed(dialog)] == [], name
    dialog.close()


def test_every_page_of_the_combat_wizard_names_its_controls(qtbot, world: World) -> None:
    from PySide6.QtGui import QUndoStack

    from brikdesk.domain.rolling import RandomDice
    from ui.bus import Bus
    from ui.wizard import CombatWizard

    wizard = CombatWizard(
        world.services,
        Bus(),
        QUndoStack(),
        world.battle_id,
        world.unit_ids["Thieven Hood"],
        dice=RandomDice(1),
    )
    shown(qtbot, wizard)
    seen: dict[int, int] = {}
    for _ in range(10):  # bounded: the wizard has fewer pages than that
        page = wizard.currentId()
        qtbot.waitUntil(lambda: wizard.currentPage().isVisible())
        found = controls(wizard)
        assert [c.where for c in unnamed(wizard)] == [], page
        seen[page] = len(found)
        wizard.next()
        if wizard.currentId() == page:
            break
    assert len(seen) >= 3, seen  # the Attack, Action Roll and Damage pages at least
    wizard.reject()


def test_the_main_windows_and_the_battle_panel_name_their_controls(open_main, demo_db) -> None:
    main = open_main(demo_db)
    assert [c.where for c in unnamed(main)] == []
    army = main.nav.armies[0].id
    roster = main.open_roster(army)
    assert roster is not None and controls(roster)
    roster.close()
    catalog = main.open_catalog()
    assert catalog is not None and controls(catalog)
    catalog.close()
    history = main.open_history()
    assert history is not None and controls(history)
    history.close()
    battle = next(b for b in main.nav.battles if b.status == "in_progress")
    main.open_battle(battle.id)
    panel = main.battle_panel
    assert panel is not None and controls(panel)
    assert [c.where for c in unnamed(main)] == []


def tab_chain(window) -> list:
    """The visible widgets Tab reaches in ``window``, in order, from the first (bounded)."""
    from PySide6.QtCore import Qt

    def reachable(w) -> bool:
        return bool(w.focusPolicy() & Qt.FocusPolicy.TabFocus) and w.isVisible() and w.isEnabled()

    start = window.nextInFocusChain()
    for _ in range(500):
        if reachable(start) and start.window() is window:
            break
        start = start.nextInFocusChain()
    chain, widget = [], start
    for _ in range(200):
        chain.append(widget)
        widget = widget.nextInFocusChain()
        for _ in range(500):
            if (reachable(widget) and widget.window() is window) or widget is start:
                break
            widget = widget.nextInFocusChain()
        if widget is start:
            break
    return chain


def jumps_back(window, chain) -> list[str]:
    """Where Tab goes up the window, or left along a row: against the reading order."""
    from PySide6.QtCore import QPoint, QRect

    def rect(w) -> QRect:
        return QRect(w.mapTo(window, QPoint(0, 0)), w.size())

    out = []
    for a, b in zip(chain, chain[1:], strict=False):
        ra, rb = rect(a), rect(b)
        above = rb.bottom() < ra.top()
        same_row = rb.top() <= ra.bottom() and ra.top() <= rb.bottom()
        left = same_row and rb.right() < ra.left()
        if above or left:
            out.append(
                f"{a.objectName() or type(a).__name__} -> {b.objectName() or type(b).__name__}"
            )
    return out


@pytest.mark.parametrize("name", sorted(DIALOGS))
def test_tab_follows_the_reading_order_in_each_dialog(qtbot, world: World, name: str) -> None:
    dialog, _first = DIALOGS[name](world)
    shown(qtbot, dialog)
    chain = tab_chain(dialog)
    assert len(chain) >= 1, name
    # Read from the top-left control: Tab's step from the last control back to it is the
    # wrap round, not a jump back.
    from PySide6.QtCore import QPoint

    def place(w) -> tuple[int, int]:
        at = w.mapTo(dialog, QPoint(0, 0))
        return at.y(), at.x()

    first = min(range(len(chain)), key=lambda i: place(chain[i]))
    chain = chain[first:] + chain[:first]
    assert jumps_back(dialog, chain) == [], name
    dialog.close()


def _pane(widget, window) -> tuple:
    """The panes ``widget`` sits in, outermost first: a dock, or a side of a splitter."""
    from PySide6.QtWidgets import QDockWidget, QSplitter

    key, w = [], widget
    while w is not None and w is not window:
        parent = w.parentWidget()
        if isinstance(w, QDockWidget) or isinstance(parent, QSplitter):
            key.append(w)
        w = parent
    return tuple(reversed(key))


def pane_order_faults(window) -> list[str]:
    """Tab read pane by pane, and in each pane in the reading order: where it jumps back inside
    a pane, or leaves a pane and comes back to it later. Tab wraps round, so the chain is read
    from the control where it reads best (the wrap is not a jump back)."""
    chain = tab_chain(window)
    panes = [_pane(w, window) for w in chain]
    jumps = [
        jumps_back(window, [a, b]) if pa == pb else []
        for a, b, pa, pb in zip(
            chain, chain[1:] + chain[:1], panes, panes[1:] + panes[:1], strict=True
        )
    ]

    def read_from(first: int) -> list[str]:
        order = panes[first:] + panes[:first]
        faults = [f for i, j in enumerate(jumps) if i != (first - 1) % len(chain) for f in j]
        runs = [p for i, p in enumerate(order) if i == 0 or order[i - 1] != p]
        return faults + [
            f"a pane of {chain[panes.index(p)].objectName()} read twice"
            for p in set(runs)
            if runs.count(p) > 1
        ]

    return min((read_from(i) for i in range(len(chain))), key=len)


def test_tab_follows_the_reading_order_in_each_window(open_main, demo_db) -> None:
    """The main window with a battle open, the roster, the catalog and the history: Tab reads
    the navigator, then the battle's controls, its unit table and its log, each in turn."""
    main = open_main(demo_db)
    windows = {
        "roster": main.open_roster(main.nav.armies[0].id),
        "catalog": main.open_catalog(),
        "history": main.open_history(),
    }
    for name, window in windows.items():
        assert len(tab_chain(window)) >= 3, name
        assert pane_order_faults(window) == [], name
        window.close()
    battle = next(b for b in main.nav.battles if b.status == "in_progress")
    main.open_battle(battle.id)
    assert pane_order_faults(main) == []
