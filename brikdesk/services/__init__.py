"""The service layer: one method per user action, one transaction each, frozen results.

``Services.open(db)`` builds the services over one session factory (the composition root calls
it once). Mutating methods return a :class:`~brikdesk.services.common.Done` with the value, the
``Changes`` to publish and ``redo``/``undo`` steps; reading methods return frozen summaries.

Each service module is imported the first time the service is used, so that the app's start
pays only for what its first window needs. The app builds its window before the database is
open: ``Services()`` then has no session factory until ``connect(sessions)``; using a service
before that is a bug (the window offers no action that needs one).
"""

from __future__ import annotations

import importlib
from functools import cached_property
from typing import TYPE_CHECKING

from brikdesk.services.changes import Changes, Clock, Done, utc_now

if TYPE_CHECKING:
    from sqlalchemy.orm import Session, sessionmaker

    from brikdesk.persistence.db import Database
    from brikdesk.services.aftermath import AftermathService
    from brikdesk.services.battles import BattleService
    from brikdesk.services.campaigns import CampaignService
    from brikdesk.services.catalogs import CatalogService
    from brikdesk.services.history import HistoryService
    from brikdesk.services.printing import PrintService
    from brikdesk.services.roster import RosterService
    from brikdesk.services.tracker import TrackerService
    from brikdesk.services.transfer import TransferService
    from brikdesk.services.watch import ChangeWatch

__all__ = ["Changes", "Done", "Services"]


def _make(module: str, cls: str, sessions: sessionmaker[Session] | None, clock: Clock):
    if sessions is None:
        raise RuntimeError(f"{cls} used before the database was opened (Services.connect)")
    return getattr(importlib.import_module(f"brikdesk.services.{module}"), cls)(sessions, clock)


class Services:
    """Every service over one session factory, each built when first used."""

    def __init__(self, sessions: sessionmaker[Session] | None = None,
                 clock: Clock = utc_now) -> None:
        self._sessions = sessions
        self._clock = clock

    @classmethod
    def open(cls, db: Database, clock: Clock = utc_now) -> Services:
        return cls(db.sessions, clock)

    @property
    def connected(self) -> bool:
        """True once the services have their session factory (the database is open)."""
        return self._sessions is not None

    def connect(self, sessions: sessionmaker[Session]) -> None:
        """Give services made before the database was open their session factory (once)."""
        if self._sessions is not None:
            raise RuntimeError("these services are already connected to a database")
        self._sessions = sessions

    @cached_property
    def campaigns(self) -> CampaignService:
        return _make("campaigns", "CampaignService", self._sessions, self._clock)

    @cached_property
    def roster(self) -> RosterService:
        return _make("roster", "RosterService", self._sessions, self._clock)

    @cached_property
    def catalog(self) -> CatalogService:
        return _make("catalogs", "CatalogService", self._sessions, self._clock)

    @cached_property
    def battles(self) -> BattleService:
        return _make("battles", "BattleService", self._sessions, self._clock)

    @cached_property
    def transfer(self) -> TransferService:
        return _make("transfer", "TransferService", self._sessions, self._clock)

    @cached_property
    def tracker(self) -> TrackerService:
        return _make("tracker", "TrackerService", self._sessions, self._clock)

    @cached_property
    def aftermath(self) -> AftermathService:
        return _make("aftermath", "AftermathService", self._sessions, self._clock)

    @cached_property
    def history(self) -> HistoryService:
        return _make("history", "HistoryService", self._sessions, self._clock)

    @cached_property
    def printing(self) -> PrintService:
        return _make("printing", "PrintService", self._sessions, self._clock)

    def change_watch(self) -> ChangeWatch:
        """A new watch for what other apps write to this database (``services.watch``); the
        caller closes it."""
        from brikdesk.services.watch import ChangeWatch

        if self._sessions is None:
            raise RuntimeError("the services are not connected to a database yet")
        return ChangeWatch(self._sessions)
