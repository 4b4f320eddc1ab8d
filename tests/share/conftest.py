"""Fixtures for the share tests: the demo campaign on each backend, served on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from selenium import webdriver

from brikdesk.services import Services
from brikdesk.share import Shared
from brikdesk.share.server import ShareServer
from tests.services.conftest import (  # noqa: F401  (fixtures used here)
    clock,
    demo_db,
    demo_sv,
    demo_template,
    empty_template,
)
from tests.share.browser import phone_browser


@pytest.fixture
def server(demo_sv: Services) -> Iterator[ShareServer]:  # noqa: F811
    """The demo campaign shared on 127.0.0.1, on a free port."""
    campaign = demo_sv.campaigns.list_campaigns()[0]
    s = ShareServer(demo_sv.for_thread(), Shared(campaign.id), poll_seconds=0.1)
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    """A headless chromium at a phone's size, for the tests of one file."""
    driver = phone_browser(tmp_path_factory.mktemp("chromium"))
    yield driver
    driver.quit()
