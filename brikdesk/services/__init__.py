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

from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, TypeVar

from brikdesk.services.changes import Changes, Clock, Done, utc_now

if TYPE_CHECKING:
    from sqlalchemy.orm import Session, sessionmaker

    from brikdesk.persistence.db import Database
    from brikdesk.services.aftermath import AftermathService
    from brikdesk.services.battles import BattleService
    from brikdesk.services.campaigns import CampaignService
    from brikdesk.services.catalogs import CatalogService
    from brikdesk.services.deletions import DeletionService
    from brikdesk.services.editions import EditionService
    from brikdesk.services.history import HistoryService
    from brikdesk.services.printing import PrintService
    from brikdesk.services.roster import RosterService
    from brikdesk.services.tracker import TrackerService
    from brikdesk.services.transfer import TransferService
    from brikdesk.services.watch import ChangeWatch

__all__ = ["Changes", "Done", "Services"]


S = TypeVar("S")


def _make(
    cls: Callable[[sessionmaker[Session], Clock], S],
    sessions: sessionmaker[Session] | None,
    clock: Clock,
) -> S:
    """One service of class ``cls`` over ``sessions`` (refused before the database is open)."""
    if sessions is None:
        name = getattr(cls, "__name__", "a service")
        raise RuntimeError(f"{name} used before the database was opened (Services.connect)")
    return cls(sessions, clock)


class Services:
    """Every service over one session factory, each built when first used."""

    def __init__(
        self, sessions: sessionmaker[Session] | None = None, clock: Clock = utc_now
    ) -> None:
        self._sessions = sessions
        self._clock = clock

    @classmethod
    def open(cls, db: Database, clock: Clock = utc_now) -> Services:
        return cls(db.sessions, clock)

    def for_thread(self) -> Services:
        """Services of their own over the same database, for another thread (a service keeps
        caches that one thread at a time may use); the players' page server reads with them."""
        if self._sessions is None:
            raise RuntimeError("the services are not connected to a database yet")
        return Services(self._sessions, self._clock)

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
        from brikdesk.services.campaigns import CampaignService

        return _make(CampaignService, self._sessions, self._clock)

    @cached_property
    def roster(self) -> RosterService:
        from brikdesk.services.roster import RosterService

        return _make(RosterService, self._sessions, self._clock)

    @cached_property
    def catalog(self) -> CatalogService:
        from brikdesk.services.catalogs import CatalogService

        return _make(CatalogService, self._sessions, self._clock)

    @cached_property
    def battles(self) -> BattleService:
        from brikdesk.services.battles import BattleService

        return _make(BattleService, self._sessions, self._clock)

    @cached_property
    def transfer(self) -> TransferService:
        from brikdesk.services.transfer import TransferService

        return _make(TransferService, self._sessions, self._clock)

    @cached_property
    def tracker(self) -> TrackerService:
        from brikdesk.services.tracker import TrackerService

        return _make(TrackerService, self._sessions, self._clock)

    @cached_property
    def aftermath(self) -> AftermathService:
        from brikdesk.services.aftermath import AftermathService

        return _make(AftermathService, self._sessions, self._clock)

    @cached_property
    def history(self) -> HistoryService:
        from brikdesk.services.history import HistoryService

        return _make(HistoryService, self._sessions, self._clock)

    @cached_property
    def deletions(self) -> DeletionService:
        from brikdesk.services.deletions import DeletionService

        return _make(DeletionService, self._sessions, self._clock)

    @cached_property
    def editions(self) -> EditionService:
        from brikdesk.services.editions import EditionService

        return _make(EditionService, self._sessions, self._clock)

    @cached_property
    def printing(self) -> PrintService:
        from brikdesk.services.printing import PrintService

        return _make(PrintService, self._sessions, self._clock)

    def change_watch(self, *, others_only: bool = True) -> ChangeWatch:
        """A new watch for what other apps (``others_only=False``: anyone, this one too) write
        to this database (``services.watch``); the caller closes it."""
        from brikdesk.services.watch import ChangeWatch

        if self._sessions is None:
            raise RuntimeError("the services are not connected to a database yet")
        return ChangeWatch(self._sessions, others_only=others_only)
