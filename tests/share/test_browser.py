"""The players' page in a real browser at a phone's size (Debian's chromium, driven by Selenium
through chromium-driver; ``.ci/run`` installs both): the units show, an End Turn made by another
process shows within 2 s with no reload, an ended share is said and recovered from, and an
address no longer served says to scan the new code."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.common.by import By

from brikdesk.persistence.db import Database
from brikdesk.services import Services
from brikdesk.share.server import ShareServer
from tests.share.browser import PHONE, text_of, until
from tests.share.proposing import serve_players


def _end_turn_elsewhere(db: Database) -> float:
    """End the turn in another process; when it was committed (``time.monotonic()``, the same
    clock in every process on Linux)."""
    script = textwrap.dedent(f"""
        import time
        from brikdesk.persistence.db import open_database
        from brikdesk.services import Services
        db = open_database({db.url!r})
        sv = Services.open(db)
        c = sv.campaigns.list_campaigns()[0]
        b = next(b for b in sv.battles.list_battles(c.id) if b.status == "in_progress")
        sv.tracker.end_turn(b.id)
        print(time.monotonic())
        db.close()
    """)
    done = subprocess.run(
        [sys.executable, "-c", script],
        check=True,
        timeout=60,
        cwd=Path.cwd(),
        capture_output=True,
        encoding="utf-8",
    )
    return float(done.stdout)


def test_a_phone_sees_the_units_then_an_end_turn_made_elsewhere_without_reloading(
    browser: webdriver.Chrome, server: ShareServer, demo_db: Database
) -> None:
    browser.get(server.url)
    until(lambda: "Gunner Magda" in text_of(browser, "battle"), 10)
    battle = text_of(browser, "battle")
    assert "Round 1 · Ines's turn" in battle
    assert "3 of 4 Actions ready · 1 fallen" in battle
    assert "Action: Held (may respond)" in battle  # Big Hank, Tobias's
    assert "Deckhand Dory" in battle and "Dead" in battle
    # Phone first: the page fits the phone's width, nothing to scroll sideways.
    width = browser.execute_script("return document.documentElement.scrollWidth")
    assert width == PHONE[0]
    log = text_of(browser, "log")
    assert "Gunner Magda (Ines) attacks" in log
    assert "Its odds as set up: hit 66.7%, destroy 18.1%" in log
    assert "Standings" in text_of(browser, "campaign-section")
    assert browser.execute_script("return document.querySelectorAll('svg.chart').length") == 4
    # Light and dark by the phone's setting.
    background = "return getComputedStyle(document.body).backgroundColor"
    assert browser.execute_script(background) == "rgb(255, 255, 255)"
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-color-scheme", "value": "dark"}]},
    )
    assert browser.execute_script(background) == "rgb(22, 24, 27)"
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    browser.execute_script("window.notReloaded = true")

    committed = _end_turn_elsewhere(demo_db)
    until(lambda: "· Tobias's turn" in text_of(browser, "battle"), 2)
    assert time.monotonic() - committed < 2
    assert browser.execute_script("return window.notReloaded === true")


def test_at_a_phones_width_nothing_scrolls_sideways_and_a_players_numbers_are_a_tap_away(
    browser: webdriver.Chrome, server: ShareServer
) -> None:
    browser.get(server.url)
    until(lambda: "Standings" in text_of(browser, "campaign-section"), 10)
    campaign = text_of(browser, "campaign-section")
    assert "Ines" in campaign and "won · " in campaign and "Value " in campaign
    first = browser.find_element(By.CSS_SELECTOR, "#campaign-section details")
    numbers = first.find_element(By.CSS_SELECTOR, ".card")
    assert not numbers.is_displayed()  # a tap away
    first.find_element(By.TAG_NAME, "summary").click()
    assert numbers.is_displayed()
    assert "Units alive" in numbers.text and "Kills" in numbers.text
    # Everything opened (every unit card, standing and roster): still nothing to scroll
    # sideways, neither the page nor any box in it.
    browser.execute_script(
        "document.querySelectorAll('details').forEach((d) => { d.open = true; })"
    )
    sideways = browser.execute_script(
        "return [...document.querySelectorAll('body *')]"
        ".filter((e) => e.scrollWidth > e.clientWidth + 1"
        " && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))"
        ".map((e) => e.tagName + ' ' + e.className + ': ' + e.innerText.slice(0, 40))"
    )
    assert sideways == []
    assert browser.execute_script("return document.documentElement.scrollWidth") == PHONE[0]


def test_a_lost_connection_is_said_and_the_page_comes_back(
    browser: webdriver.Chrome, demo_sv: Services
) -> None:
    campaign = demo_sv.campaigns.list_campaigns()[0]
    from brikdesk.share import Shared

    first = ShareServer(demo_sv.for_thread(), Shared(campaign.id))
    first.start()
    try:
        browser.get(first.url)
        until(lambda: "Gunner Magda" in text_of(browser, "battle"), 10)
    finally:
        first.stop()
    until(lambda: "Sharing ended at" in text_of(browser, "notice"), 5)
    assert "reconnecting" in text_of(browser, "notice")
    assert "for the new code and scan it" in text_of(browser, "notice")  # how to rejoin
    again = ShareServer(
        demo_sv.for_thread(), Shared(campaign.id), port=first.port, token=first.token
    )
    again.start()
    try:
        until(lambda: not browser.find_element("id", "notice").is_displayed(), 8)
        assert "Gunner Magda" in text_of(browser, "battle")
    finally:
        again.stop()
    # Shared again on the same port with a new address: this page's is not served any more.
    other = ShareServer(demo_sv.for_thread(), Shared(campaign.id), port=first.port)
    other.start()
    try:
        until(lambda: "This address is no longer served" in text_of(browser, "notice"), 10)
    finally:
        other.stop()


def test_a_players_page_that_could_not_ask_whose_link_it_is_asks_again(
    browser: webdriver.Chrome, server: ShareServer, demo_sv: Services
) -> None:
    """A player's page that could not reach the share when it asked whose link it is (here the
    browser blocks that one request, as a share restarting or the Wi-Fi gone a moment would)
    shows the battle, and its roll form once the share is reached again, with no reload."""
    tokens = serve_players(server, demo_sv)
    roll_form = "const e = document.getElementById('r-unit'); return !!e && e.offsetParent !== null"
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*me.json*"]})
    try:
        browser.get(server.url.replace(f"/{server.token}/", f"/{tokens['Ines']}/"))
        until(lambda: "Gunner Magda" in text_of(browser, "battle"), 10)
        time.sleep(0.5)
        assert not browser.execute_script(roll_form)
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    until(lambda: bool(browser.execute_script(roll_form)), 10)
