"""What goes with a delete, in words, so the organizer is asked before it happens.

``what_goes(kind, id)`` names the row and everything the delete removes with it ("Battle for
the Gate: its 15 events and its result"); the window asks with it and deletes only on yes.
Undo still brings everything back (``brikdesk.persistence.snapshots``).
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from brikdesk.domain.statuses import BattleStatus
from brikdesk.errors import UserError
from brikdesk.persistence.models import (
    Army,
    Battle,
    BattleEvent,
    BattleUnit,
    Campaign,
    Player,
    Unit,
)
from brikdesk.services.base import ServiceBase
from brikdesk.services.common import storage_errors

CAMPAIGN, PLAYER, ARMY, BATTLE = "campaign", "player", "army", "battle"


def _n(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _list(parts: list[str]) -> str:
    if not parts:
        return "nothing else"
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


class DeletionService(ServiceBase):
    """Reading only: what a delete takes with it."""

    @storage_errors
    def what_goes(self, kind: str, ident: int) -> str:
        with self._sessions.begin() as s:
            if kind == BATTLE:
                return _battle(s, ident)
            if kind == ARMY:
                return _army(s, ident)
            if kind == PLAYER:
                return _player(s, ident)
            if kind == CAMPAIGN:
                return _campaign(s, ident)
        raise UserError(f"nothing to delete: {kind!r}")


def _count(s: Session, query: object) -> int:
    return int(s.scalar(query) or 0)  # type: ignore[call-overload]


def _battle(s: Session, ident: int) -> str:
    b = s.get(Battle, ident)
    if b is None:
        raise UserError("that battle is gone")
    events = _count(
        s,
        select(func.count())
        .select_from(BattleEvent)
        .where(BattleEvent.battle_id == ident, BattleEvent.reverted.is_(False)),
    )
    units = _count(
        s, select(func.count()).select_from(BattleUnit).where(BattleUnit.battle_id == ident)
    )
    parts = [_n(events, "event", "events"), f"its {_n(units, 'mustered unit', 'mustered units')}"]
    parts[0] = f"its {parts[0]}"
    if b.status == BattleStatus.FINISHED:
        parts.append("its result (the campaign record of who fell and who won)")
    return f"{b.name}: {_list(parts)}"


def _army(s: Session, ident: int) -> str:
    a = s.get(Army, ident)
    if a is None:
        raise UserError("that army is gone")
    units = _count(s, select(func.count()).select_from(Unit).where(Unit.army_id == ident))
    return (
        f"{a.name}: its {_n(units, 'unit', 'units')} (battles keep their own copies of the "
        "units that fought)"
    )


def _player(s: Session, ident: int) -> str:
    p = s.get(Player, ident)
    if p is None:
        raise UserError("that player is gone")
    armies = _count(s, select(func.count()).select_from(Army).where(Army.player_id == ident))
    units = _count(
        s,
        select(func.count())
        .select_from(Unit)
        .join(Army, Army.id == Unit.army_id)
        .where(Army.player_id == ident),
    )
    return f"{p.name}: {_list([_n(armies, 'army', 'armies'), _n(units, 'unit', 'units')])}"


def _campaign(s: Session, ident: int) -> str:
    c = s.get(Campaign, ident)
    if c is None:
        raise UserError("that campaign is gone")

    def count(model: type, where: object) -> int:
        return _count(s, select(func.count()).select_from(model).where(where))  # type: ignore[arg-type]

    parts = [
        _n(count(Player, Player.campaign_id == ident), "player", "players"),
        _n(count(Army, Army.campaign_id == ident), "army", "armies"),
        _n(
            _count(
                s,
                select(func.count())
                .select_from(Unit)
                .join(Army, Army.id == Unit.army_id)
                .where(Army.campaign_id == ident),
            ),
            "unit",
            "units",
        ),
        _n(count(Battle, Battle.campaign_id == ident), "battle", "battles")
        + " with their events and results",
    ]
    return f"{c.name}: its {_list(parts)}"
