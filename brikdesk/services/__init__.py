"""The service layer: one method per user action, one transaction each, frozen results.

``Services.open(db)`` builds every service over one session factory (the composition root calls
it once). Mutating methods return a :class:`~brikdesk.services.common.Done` with the value, the
``Changes`` to publish and ``redo``/``undo`` steps; reading methods return frozen summaries.
"""

from __future__ import annotations

from dataclasses import dataclass

from brikdesk.persistence.db import Database
from brikdesk.services.battles import BattleService
from brikdesk.services.campaigns import CampaignService
from brikdesk.services.catalogs import CatalogService
from brikdesk.services.common import Changes, Clock, Done, utc_now
from brikdesk.services.roster import RosterService
from brikdesk.services.tracker import TrackerService
from brikdesk.services.transfer import TransferService

__all__ = ["Changes", "Done", "Services"]


@dataclass(frozen=True)
class Services:
    campaigns: CampaignService
    roster: RosterService
    catalog: CatalogService
    battles: BattleService
    transfer: TransferService
    tracker: TrackerService

    @classmethod
    def open(cls, db: Database, clock: Clock = utc_now) -> Services:
        s = db.sessions
        return cls(CampaignService(s, clock), RosterService(s, clock), CatalogService(s, clock),
                   BattleService(s, clock), TransferService(s, clock),
                   TrackerService(s, clock))
