"""Sharing the campaign with the players: a read-only live page on the local network.

``page_data`` reads what the page shows through the services; ``server`` serves it (Starlette
on uvicorn, on a thread of its own) with the page's files from ``resources/share``. No Qt here:
the app's Share dialog and ``brikdesk share`` both drive ``server.ShareServer``.
"""

from __future__ import annotations

from dataclasses import dataclass

from brikdesk.domain.ids import BattleId, CampaignId

__all__ = ["Shared"]


@dataclass(frozen=True)
class Shared:
    """What a share shows: a campaign and, if chosen, one battle (else the one in progress,
    and the report of the last one finished)."""

    campaign_id: CampaignId
    battle_id: BattleId | None = None
