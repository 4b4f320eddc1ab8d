"""The players' page read as a player reads it, in Debian's chromium at 360 px: every text at
4.5:1 contrast or more (WCAG AA) in light and dark, whatever a player's colour (the computed
colours of each text and what is behind it); a small header with the time of the last update;
charts that name their battles, each with its legend; and what the page says when the table
is full."""

from __future__ import annotations

import re
import time

import pytest
from selenium import webdriver

from brikdesk.domain.colours import contrast_ratio
from brikdesk.services import Services
from brikdesk.services.campaigns import PlayerPatch
from brikdesk.share import Shared
from brikdesk.share import server as share_server
from brikdesk.share.server import ShareServer
from tests.share.browser import text_of, until

#: Every shown element with text of its own: its text, its colour (an SVG text's fill) and the
#: first opaque background behind it (the page's own at the top).
PAIRS = """
const out = [];
for (const e of document.querySelectorAll('body *')) {
  const own = [...e.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
  if (!own.length || !e.getClientRects().length) continue;
  const style = getComputedStyle(e);
  if (style.visibility === 'hidden' || style.display === 'none') continue;
  const ink = e instanceof SVGElement ? style.fill : style.color;
  let back = null;
  for (let p = e; p && !back; p = p.parentElement) {
    const bg = getComputedStyle(p).backgroundColor;
    if (bg && !bg.startsWith('rgba(0, 0, 0, 0)') && bg !== 'transparent') back = bg;
  }
  back = back || getComputedStyle(document.documentElement).backgroundColor;
  out.push([own.map((n) => n.textContent.trim()).join(' ').slice(0, 40), ink, back]);
}
return out;
"""


def _hex(css: str) -> str:
    numbers = [float(v) for v in re.findall(r"[\d.]+", css)]
    assert len(numbers) == 3 or numbers[3] == 1, css  # opaque colours only
    return "#" + "".join(f"{round(v):02x}" for v in numbers[:3])


def _dark(browser: webdriver.Chrome, on: bool) -> None:
    features = [{"name": "prefers-color-scheme", "value": "dark"}] if on else []
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


@pytest.mark.parametrize("colour", ["#f1c40f", "#27ae60", "#1f3a93", "#ffffff", "#000000"])
def test_every_text_reads_at_4_5_to_1_in_light_and_dark_whatever_the_players_colour(
    browser: webdriver.Chrome, demo_sv: Services, colour: str
) -> None:
    campaign = demo_sv.campaigns.list_campaigns()[0]
    for player in demo_sv.campaigns.list_players(campaign.id):  # the turn's player's too
        demo_sv.campaigns.update_player(player.id, PlayerPatch(colour=colour))
    s = ShareServer(demo_sv.for_thread(), Shared(campaign.id))
    s.start()
    try:
        browser.get(s.url)
        until(lambda: "Gunner Magda" in text_of(browser, "battle"), 10)
        browser.execute_script("document.querySelectorAll('details').forEach((d) => d.open = true)")
        for dark in (False, True):
            _dark(browser, dark)
            pairs = browser.execute_script(PAIRS)
            assert len(pairs) > 100
            low = [
                (text, ink, back, round(contrast_ratio(_hex(ink), _hex(back)), 2))
                for text, ink, back in pairs
                if contrast_ratio(_hex(ink), _hex(back)) < 4.5
            ]
            assert low == [], ("dark" if dark else "light", low[:8])
            turn = browser.execute_script(
                "const b = document.querySelector('.turn b'); const s = getComputedStyle(b);"
                "return [s.color, s.backgroundColor]"
            )
            assert _hex(turn[1]) == colour  # the banner is the player's colour, readable
    finally:
        _dark(browser, False)
        s.stop()


def test_a_small_header_always_says_when_the_page_was_updated(
    browser: webdriver.Chrome, server: ShareServer
) -> None:
    browser.get(server.url)
    until(lambda: "Gunner Magda" in text_of(browser, "battle"), 10)
    height = browser.execute_script("return document.querySelector('header').offsetHeight")
    assert height <= 80
    updated = text_of(browser, "updated")
    assert re.fullmatch(r"updated \d\d:\d\d:\d\d", updated), updated
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    time.sleep(0.2)
    box = browser.execute_script(
        "const r = document.getElementById('updated').getBoundingClientRect();"
        "return [r.top, r.bottom, r.width]"
    )
    assert box[0] >= 0 and box[1] <= 80 and box[2] > 0  # on screen at the bottom of the page


def test_each_chart_names_its_battles_and_has_its_legend(
    browser: webdriver.Chrome, server: ShareServer
) -> None:
    browser.get(server.url)
    until(
        lambda: browser.execute_script("return document.querySelectorAll('svg.chart').length") == 4,
        10,
    )
    charts = browser.execute_script(
        "return [...document.querySelectorAll('svg.chart')].map((c) => ["
        " c.previousElementSibling.className,"
        " c.previousElementSibling.innerText,"
        " [...c.querySelectorAll('text title')].map((t) => t.textContent),"
        " [...c.querySelectorAll('text')].map((t) => t.firstChild.textContent)])"
    )
    for legend_class, legend, titles, texts in charts:
        assert legend_class == "legend"
        assert "The Red Vanguard" in legend
        assert titles[0] == "Start" and "Skirmish at Baseplate Ford" in titles
        assert any(t.startswith("Skirmish") for t in texts)  # on the axis, not "1"
        assert "1" not in texts[2:]


def test_a_full_table_says_so(
    browser: webdriver.Chrome, server: ShareServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(share_server, "MAX_WATCHERS", 0)
    browser.get(server.url)
    until(lambda: "The table is full" in text_of(browser, "notice"), 10)
    assert browser.find_element("id", "notice").is_displayed()
