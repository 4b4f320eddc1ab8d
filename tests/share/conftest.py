"""Fixtures for the share tests: the demo campaign on each backend, served on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

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


@pytest.fixture
def server(demo_sv: Services) -> Iterator[ShareServer]:  # noqa: F811
    """The demo campaign shared on 127.0.0.1, on a free port."""
    campaign = demo_sv.campaigns.list_campaigns()[0]
    s = ShareServer(demo_sv.for_thread(), Shared(campaign.id), poll_seconds=0.1)
    s.start()
    yield s
    s.stop()
