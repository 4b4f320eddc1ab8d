"""Players at the table, as they would use it: the app shares the campaign (the real share
process), two players' phones (headless Chromium at 360 px) propose attacks at once, and the
organizer answers in the battle panel; both pages show the answer within a second, and a
proposal opened to correct shows how the correction ended (set aside: waiting again;
recorded: corrected). A phone
that tries what it may not (another player's unit, a forged unit, a replay, a proposal after
End Turn, 100 proposals in a second, a cross-site form post) is refused and nothing is
recorded. Served on 127.0.0.1 only; every wait is bounded."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QListWidget
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from brikdesk.domain.ids import PlayerId
from brikdesk.share import Shared
from tests.share.browser import PHONE, phone_browser, text_of, until

#: A fetch from the player's own page, as a page that was changed would send it.
POST = """
const [body, done] = [arguments[0], arguments[arguments.length - 1]];
fetch("propose", {method: "POST", headers: {"Content-Type": "application/json"},
                  body: JSON.stringify(body)})
  .then(async (r) => done([r.status, (await r.json()).error || ""]));
"""
#: A hundred proposals at once from the player's own page.
FLOOD = """
const [body, done] = [arguments[0], arguments[arguments.length - 1]];
const sends = Array.from({length: 100}, (_, i) => fetch("propose", {method: "POST",
  headers: {"Content-Type": "application/json"},
  body: JSON.stringify({...body, id: `flood-${i}-${Date.now()}`})}).then((r) => r.status));
Promise.all(sends).then(done);
"""


@pytest.fixture
def phones(tmp_path: Path) -> Iterator[tuple[webdriver.Chrome, webdriver.Chrome]]:
    ines, tobias = phone_browser(tmp_path / "ines"), phone_browser(tmp_path / "tobias")
    yield ines, tobias
    ines.quit()
    tobias.quit()


def _shared(main, qtbot) -> dict[str, str]:
    """The demo campaign shared on 127.0.0.1 by the app, its battle in the panel: each
    player's own link."""
    battle = next(b for b in main.nav.battles if b.status == "in_progress")
    main.open_battle(battle.id)
    main.sharing.start(Shared(main.campaign_id), "the campaign", "127.0.0.1")
    qtbot.waitUntil(lambda: main.sharing.running and bool(main.sharing.server.url), timeout=15_000)
    return {p.name: main.sharing.player_url(PlayerId(p.id)) for p in main.sharing.players}


def _events(main) -> int:
    panel = main.battle_panel
    return len(panel.services.tracker.view(panel.battle_id).events)


def _ready(phone: webdriver.Chrome) -> None:
    """Wait until the page knows whose link it is and shows the roll's fields."""
    shown = "const e = document.getElementById('r-unit'); return !!e && e.offsetParent !== null"
    until(lambda: bool(phone.execute_script(shown)), 15)


def _choose(phone: webdriver.Chrome, unit: str, target: str, dice: str) -> None:
    """Pick the unit and the target by their value, type the dice, wait for the odds."""
    _ready(phone)
    Select(phone.find_element(By.ID, "r-unit")).select_by_value(unit)
    until(lambda: text_of(phone, "r-odds").startswith("Needs"), 5)
    Select(phone.find_element(By.ID, "r-target")).select_by_value(target)
    box = phone.find_element(By.ID, "r-dice")
    box.send_keys(dice)
    until(lambda: phone.find_element(By.ID, "r-send").is_enabled(), 5)


def _status(phone: webdriver.Chrome) -> str:
    return text_of(phone, "r-sent")


@pytest.fixture
def at_table(open_main, demo_db, qtbot, phones):
    """The app sharing the demo campaign, its battle in the panel; Ines's phone on her link,
    her Captain's strike on Dynamite Dot chosen with dice 5 4: (window, links, Ines, Tobias)."""
    main = open_main(demo_db)
    links = _shared(main, qtbot)
    ines, tobias = phones
    ines.get(links["Ines"])
    _choose(ines, "13", "9", "5 4")
    return main, links, ines, tobias


def test_two_players_propose_at_once_and_the_organizer_answers_each(qtbot, at_table) -> None:
    main, links, ines, tobias = at_table
    tobias.get(links["Tobias"])
    assert text_of(ines, "r-odds") == "Needs 2+ on d10 · hit 90.0% · destroy 71.0%"
    assert "hits Dynamite Dot" in text_of(ines, "r-result")
    assert ines.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    _choose(tobias, "10", "13", "5 3 2 1")  # Big Hank responds with his held Action
    before = _events(main)
    ines.find_element(By.ID, "r-send").click()
    tobias.find_element(By.ID, "r-send").click()
    rows = main.battle_panel.findChild(QListWidget, "proposalRows")
    qtbot.waitUntil(lambda: rows.count() == 2, timeout=5000)
    texts = sorted(rows.item(i).text() for i in range(2))
    assert texts[0].startswith("Ines: Captain Peg-Leg Pennywhistle strikes Dynamite Dot")
    assert texts[1].startswith("Tobias: Big Hank the Anvil")
    assert main.battle_panel.table.hasFocus()  # they waited; the keyboard stayed put
    until(lambda: "waiting for the organizer" in _status(ines), 2)
    qtbot.keyClick(main, Qt.Key.Key_F8)
    rows.setCurrentRow(next(i for i in range(2) if rows.item(i).text().startswith("Ines")))
    answered = time.monotonic()
    qtbot.keyClick(rows, Qt.Key.Key_Return)
    qtbot.keyClick(rows, Qt.Key.Key_Delete)
    qtbot.waitUntil(
        lambda: (
            "accepted and recorded" in _status(ines)
            and "rejected by the organizer" in _status(tobias)
        ),
        timeout=1000,
    )
    assert time.monotonic() - answered < 1.0
    assert _events(main) > before  # Ines's attack, recorded through the app's own path
    assert "Captain Peg-Leg Pennywhistle" in main.battle_panel.undo_stack.undoText()


def test_what_a_phone_may_not_send_is_refused_and_nothing_is_recorded(qtbot, at_table) -> None:
    main, links, ines, tobias = at_table
    turn = ines.execute_script("return roll.said.turn")
    body = {"turn": turn, "unit": 13, "weapon": "hand-weapon", "target": 9, "dice": "5 4"}
    before = _events(main)

    def post(**changes: object) -> list[object]:
        return list(
            ines.execute_async_script(POST, {"id": f"p{time.time_ns()}", **body, **changes})
        )

    tobias.get(links["Tobias"])
    _ready(tobias)
    theirs = tobias.execute_async_script(POST, {"id": "tobias-takes-13", **body})
    assert theirs == [403, "Captain Peg-Leg Pennywhistle is not your unit."]
    assert post(unit=4242) == [422, "There is no such unit in this battle."]
    assert post(id="sent-twice-0001")[0] == 200
    assert post(id="sent-twice-0001") == [409, "This proposal was sent already."]
    rows = main.battle_panel.findChild(QListWidget, "proposalRows")
    qtbot.waitUntil(lambda: rows.count() == 1, timeout=5000)
    flood = ines.execute_async_script(FLOOD, body)
    assert len(flood) == 100 and flood.count(200) <= 1 and set(flood) <= {200, 429}
    main.battle_panel.end_turn()
    qtbot.waitUntil(lambda: rows.count() == 0, timeout=5000)  # dropped: the turn moved on
    until(lambda: "dropped: the battle moved on" in _status(ines), 3)
    late = post()
    assert late[0] == 409 and "moved on" in str(late[1])
    form = (
        "data:text/html,<form method=post action='{url}propose' enctype='text/plain'>"
        '<input name=\'{{"id":"cross-site-001","x":"\' value=\'"}}\'></form>'
        "<script>document.forms[0].submit()</script>"
    ).format(url=links["Ines"])
    tobias.get(form)
    until(lambda: "players' page only" in tobias.page_source, 5)
    qtbot.wait(300)
    assert rows.count() == 0
    assert _events(main) == before + 1  # the End Turn alone


def test_a_proposal_opened_to_correct_shows_how_the_correction_ended(qtbot, at_table) -> None:
    main, _links, ines, _tobias = at_table
    panel = main.battle_panel
    ines.find_element(By.ID, "r-send").click()
    rows = panel.findChild(QListWidget, "proposalRows")
    qtbot.waitUntil(lambda: rows.count() == 1, timeout=5000)

    def correct() -> QDialog:
        qtbot.keyClick(main, Qt.Key.Key_F8)
        qtbot.keyClick(rows, Qt.Key.Key_Q)
        form = panel.findChild(QDialog, "quickAttack")
        qtbot.waitUntil(form.isVisible, timeout=2000)
        qtbot.waitUntil(lambda: "the organizer is correcting it" in _status(ines), timeout=3000)
        return form

    # (qtbot's waits, not ``until``: the answers reach the share as Qt's event loop runs)
    form = correct()
    qtbot.keyClick(form.focusWidget(), Qt.Key.Key_Escape)  # set aside, nothing recorded
    qtbot.waitUntil(lambda: rows.count() == 1, timeout=2000)
    qtbot.waitUntil(lambda: "waiting for the organizer" in _status(ines), timeout=3000)
    before = _events(main)
    form = correct()  # it can be answered again: this time it is recorded
    qtbot.keyClick(form.record_button, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: "corrected and recorded by the organizer" in _status(ines), timeout=3000
    )
    assert "hits Dynamite Dot" in _status(ines)  # what was recorded, as the note
    assert _events(main) > before and rows.count() == 0
