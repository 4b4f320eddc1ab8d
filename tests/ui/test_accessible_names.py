"""Every control of every window, dialog and form says what it is for to a screen reader: read
in-process through Qt's accessibility interfaces (``tests.ui.accessible``), the ones Qt's AT-SPI
bridge serves (``tests/ui/test_atspi.py`` reads the same through the real bus)."""

from __future__ import annotations

import pytest

from tests.ui.accessible import controls, unnamed
from tests.ui.every_dialog import DIALOGS, World
from tests.ui.test_dialogs_ready import shown


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
