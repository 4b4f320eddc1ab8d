"""An action's database work can be abandoned until its commit is sent, never after
(``brikdesk.persistence.attempts``: what the window's Cancel does when the server does not
answer). On both backends."""

from __future__ import annotations

from pathlib import Path

import pytest

from brikdesk.errors import Abandoned
from brikdesk.persistence.attempts import Attempt, attempting
from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from tests.databases import fresh_url, on_server


def test_an_abandoned_action_changes_nothing(backend: str, tmp_path: Path) -> None:
    db = open_database(fresh_url(tmp_path, "abandon"))
    try:
        sv = Services.open(db)
        attempt = Attempt()
        assert attempt.abandon() is True  # nothing sent yet
        with attempting(attempt), pytest.raises(Abandoned, match="nothing was changed"):
            sv.campaigns.create_campaign("Never")
        assert sv.campaigns.list_campaigns() == ()
        # The next action, outside the abandoned attempt, works.
        sv.campaigns.create_campaign("Next")
        assert [c.name for c in sv.campaigns.list_campaigns()] == ["Next"]
    finally:
        db.close()


def test_an_action_whose_commit_was_sent_can_no_longer_be_abandoned(
    backend: str, tmp_path: Path
) -> None:
    db = open_database(fresh_url(tmp_path, "sent"))
    try:
        sv = Services.open(db)
        attempt = Attempt()
        with attempting(attempt):
            sv.campaigns.create_campaign("Saved")
        assert attempt.commit_sent
        assert attempt.on_server is on_server()
        assert attempt.abandon() is False  # too late: the outcome is the server's
        assert [c.name for c in sv.campaigns.list_campaigns()] == ["Saved"]
    finally:
        db.close()
