"""What the combat forms (the combat wizard, the quick attack form, the Sprint dialog) read of
a battle: the services they use, and the combat context made from the tracker's view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from brikdesk.services.tracker_views import context_from_view as context_from_view

if TYPE_CHECKING:
    from brikdesk.services.tracker import TrackerService


class CombatServices(Protocol):
    """What the combat forms use of the application's services: the battle tracker (its view
    of the battle, and ``record`` for Finish)."""

    @property
    def tracker(self) -> TrackerService: ...
