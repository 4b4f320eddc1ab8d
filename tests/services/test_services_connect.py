"""Services made before the database is open (the app paints its window first)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from brikdesk.services import Services


def test_services_work_once_connected_and_refuse_before(db):
    services = Services()
    assert not services.connected
    with pytest.raises(RuntimeError, match="before the database was opened"):
        _ = services.campaigns
    services.connect(db.sessions)
    assert services.connected
    created = services.campaigns.create_campaign("Late Start").value
    assert [c.name for c in services.campaigns.list_campaigns()] == [created.name]
    with pytest.raises(RuntimeError, match="already connected"):
        services.connect(db.sessions)


def test_changes_and_done_load_without_sqlalchemy():
    """The window is built with these names before the database layer loads."""
    code = (
        "import sys; from brikdesk.services import Changes, Done, Services; "
        "print(any(m.split('.')[0] == 'sqlalchemy' for m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, encoding="utf-8", check=True
    )
    assert done.stdout.strip() == "False"
