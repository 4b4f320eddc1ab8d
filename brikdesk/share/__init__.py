"""Sharing the campaign with the players: a live page on the local network that writes nothing.

``players`` gives each player a link of their own; ``proposals`` judges and checks the rolls
a player sends from it, for the organizer's app to accept (nothing a phone sends is written).
``page_data`` reads what the page shows through the services; ``server`` serves it (HTTP/1.1
parsed by h11, on an asyncio loop in a thread of its own) with the page's files from ``resources/share``. No Qt here:
``brikdesk share`` drives ``server.ShareServer``, and the app's Share dialog runs
``brikdesk share --for-app`` as a process of its own (``ui.dialogs.share_process``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from brikdesk.domain.ids import BattleId, CampaignId

__all__ = [
    "ACCEPTED",
    "CORRECTED",
    "CORRECTING",
    "DROPPED",
    "REJECTED",
    "WAITING",
    "Shared",
    "new_token",
    "valid_token",
]

#: A player's proposal as their page shows it: waiting for the organizer, then an answer.
#: ``correcting`` (opened in the quick form) is not final: it ends ``corrected`` (recorded
#: from that form) or ``waiting`` again (the form closed without recording).
WAITING, CORRECTING = "waiting", "correcting"
ACCEPTED, REJECTED, CORRECTED, DROPPED = "accepted", "rejected", "corrected", "dropped"

#: Random bytes in a share's token (144 bits; the issue asks for at least 128).
TOKEN_BYTES = 18


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def valid_token(token: str) -> bool:
    """Whether ``token`` can be a share's token: URL-safe base64 of at least 128 bits (a token
    kept from an earlier share, or handed over by the app)."""
    return len(token) >= 22 and all(c.isascii() and (c.isalnum() or c in "-_") for c in token)


@dataclass(frozen=True)
class Shared:
    """What a share shows: a campaign and, if chosen, one battle (else the one in progress,
    and the report of the last one finished)."""

    campaign_id: CampaignId
    battle_id: BattleId | None = None
