"""The windows the main window opens (rosters, the catalog, the history) open over it and wholly
on its screen, on a laptop and on a desktop monitor; the history follows the campaign shown."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect

from ui.screen import FRAME_MARGIN, pretend_screen
from ui.windows.navigator import ARMY

SCREENS = [(1366, 768), (1280, 720), (1920, 1080)]


def outer(window) -> QRect:
    """The window with the room its frame takes."""
    return QRect(window.pos(), window.size() + FRAME_MARGIN)


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_rosters_catalog_and_history_open_over_the_main_window(
    qtbot, open_main, demo_db, width: int, height: int
) -> None:
    with pretend_screen(width, height) as screen:
        main = open_main(demo_db)
        first, second = (ident for ident, _text in main.navigator.entries(ARMY)[:2])
        windows = {
            "roster": main.open_roster(first),
            "second roster": main.open_roster(second),
            "catalog": main.open_catalog(),
            "history": main.open_history(),
        }
        over = main.frameGeometry()
        for what, window in windows.items():
            assert window is not None and window.isVisible(), what
            assert screen.contains(outer(window)), (what, outer(window), screen)
            assert over.contains(window.geometry().center()), (what, window.geometry(), over)
        # The second roster steps down and right of the first, so it doesn't hide it.
        one, two = windows["roster"].pos(), windows["second roster"].pos()
        assert two.x() > one.x() or two.y() > one.y() or outer(windows["roster"]) == screen


def test_the_history_window_follows_the_campaign_shown(qtbot, open_main, demo_db) -> None:
    main = open_main(demo_db)
    demo = main.campaign_id
    window = main.open_history()
    qtbot.waitUntil(lambda: window.history is not None)
    assert window.windowTitle() == f"History: {main.nav.campaign.name}"
    made = main.services.campaigns.create_campaign("Winter Siege").value
    assert main.open_campaign(made.id)
    # The same window now reads and shows the new campaign: never the old one's battles.
    qtbot.waitUntil(
        lambda: window.history is not None and window.history.campaign == "Winter Siege"
    )
    assert window.windowTitle() == "History: Winter Siege"
    assert window.timeline.rowCount() == 0
    assert main.histories == {made.id: window}
    # Back to the demo: it shows the demo's history again.
    assert main.open_campaign(demo)
    qtbot.waitUntil(lambda: window.history is not None and window.timeline.rowCount() > 0)
    assert window.windowTitle() == f"History: {main.nav.campaign.name}"


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_a_reopened_roster_comes_back_where_it_was_closed(
    qtbot, open_main, demo_db, width: int, height: int
) -> None:
    with pretend_screen(width, height) as screen:
        main = open_main(demo_db)
        army = main.navigator.entries(ARMY)[0][0]
        roster = main.open_roster(army)
        # The organizer puts it at the screen's top left, smaller than it opened.
        roster.setGeometry(QRect(screen.left() + 30, screen.top() + 20, 900, 560))
        closed_at = roster.geometry()
        roster.close()
        qtbot.waitUntil(lambda: army not in main.rosters)
        again = main.open_roster(army)
        assert again is not None and again is not roster
        assert again.geometry() == closed_at
        assert screen.contains(outer(again))


def test_a_roster_closed_on_a_larger_screen_comes_back_wholly_on_the_smaller_one(
    qtbot, open_main, demo_db
) -> None:
    with pretend_screen(1920, 1080) as large:
        main = open_main(demo_db)
        army = main.navigator.entries(ARMY)[0][0]
        roster = main.open_roster(army)
        # Big, towards the monitor's bottom right.
        roster.setGeometry(QRect(700, 380, 1150, 640))
        assert large.contains(outer(roster))
        closed_at = roster.geometry()
        roster.close()
        main.close()
    with pretend_screen(1366, 768) as laptop:
        main = open_main(demo_db)  # the next day, on the laptop: the same settings
        again = main.open_roster(army)
        assert again is not None
        assert laptop.contains(outer(again)), outer(again)
        assert again.size() == closed_at.size()  # it fits: only moved, as little as it must
        assert outer(again).right() == laptop.right() and outer(again).bottom() == laptop.bottom()
