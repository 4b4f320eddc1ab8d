"""Debian's chromium at a phone's size, driven by Selenium through chromium-driver (both
installed by ``.ci/run``): for the browser tests and the user guide's picture of the page."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
#: A phone's screen in CSS pixels (its pictures are twice as large).
PHONE = (360, 740)


def phone_browser(profile: Path) -> webdriver.Chrome:
    """A headless chromium with a fresh profile in ``profile``, sized as a phone; the caller
    quits it."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless",
        "--no-sandbox",  # as root, in CI
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 2, "mobile": True},
    )
    return driver


def until(check: Callable[[], bool], seconds: float) -> float:
    """Wait until ``check()`` holds (at most ``seconds``); how long it took."""
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > seconds:
            raise AssertionError(f"not within {seconds} s")
        time.sleep(0.02)
    return time.monotonic() - start


def text_of(browser: webdriver.Chrome, element_id: str) -> str:
    """What an element of the page shows, as a person reads it."""
    return str(browser.execute_script(f"return document.getElementById('{element_id}').innerText"))
