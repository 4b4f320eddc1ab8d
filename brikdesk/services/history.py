"""A campaign's history: timeline, standings, series over battles and leaderboards.

``history(campaign_id)`` reads the campaign in one transaction (players, armies, units with
their costs, finished battles with their results) and builds a
:class:`~brikdesk.domain.history.CampaignHistory` (readings in
``brikdesk.domain.history.READINGS``). A battle finished before BrikDesk kept results (no
``battle.result``) is read from its log through :class:`AftermathService` (winner: who holds
the field), marked ``from_log``; its notes are those its log's ``battle_finished`` event kept.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import Text, select, type_coerce
from sqlalchemy.orm import Session

from brikdesk.domain.aftermath import BattleResult, result_from_json
from brikdesk.domain.catalog import Catalog
from brikdesk.domain.history import (
    ArmyInfo,
    ArmyRecord,
    BattleInProgress,
    BattleRecord,
    CampaignHistory,
    PlayerInfo,
    PoolUnit,
    RecordUnit,
    build_history,
)
from brikdesk.domain.ids import (
    BattleId,
    BattlePlayerId,
    BattleUnitId,
    CampaignId,
    PlayerId,
    UnitId,
)
from brikdesk.domain.roster import Loadout, UnitSpec, unit_cost
from brikdesk.domain.statuses import BattleStatus
from brikdesk.errors import UserError
from brikdesk.persistence.models import (
    Army,
    Battle,
    BattleArmy,
    BattleEvent,
    BattlePlayer,
    BattleUnit,
    Campaign,
    Player,
    Unit,
)
from brikdesk.services.base import ServiceBase
from brikdesk.services.catalogs import load_campaign_catalog
from brikdesk.services.common import from_db_time, storage_errors
from brikdesk.services.roster import overrides_from_json
from brikdesk.services.roster_reading import spec_from_json


class HistoryService(ServiceBase):
    """The campaign's history (reading only)."""

    @storage_errors
    def history(self, campaign_id: CampaignId, *, in_progress: bool = True) -> CampaignHistory:
        """The campaign's history; ``in_progress=False`` leaves out the battles being fought
        (the overview's standings do not show them, and their rounds need each battle's log
        played through the battle tracker)."""
        with self._reading() as s:
            campaign = self._get(s, Campaign, campaign_id, "campaign").name
            catalog = load_campaign_catalog(s, campaign_id)
            players = [
                PlayerInfo(i, n, col)
                for i, n, col in s.execute(
                    select(Player.id, Player.name, Player.colour)
                    .where(Player.campaign_id == campaign_id)
                    .order_by(Player.id)
                )
            ]
            armies = [
                ArmyInfo(i, n, p, bud)
                for i, n, p, bud in s.execute(
                    select(Army.id, Army.name, Army.player_id, Army.budget)
                    .where(Army.campaign_id == campaign_id)
                    .order_by(Army.id)
                )
            ]
            costs: dict[tuple[Any, ...], int] = {}
            units = []
            for uid, name, army, status, key, ov, hands, worn, carried in s.execute(
                select(
                    Unit.id,
                    Unit.name,
                    Unit.army_id,
                    Unit.status,
                    Unit.type_key,
                    type_coerce(Unit.overrides, Text),
                    type_coerce(Unit.hands, Text),
                    type_coerce(Unit.worn, Text),
                    type_coerce(Unit.carried, Text),
                )
                .join(Army, Army.id == Unit.army_id)
                .where(Army.campaign_id == campaign_id)
                .order_by(Unit.id)
            ):
                # The loadout as text is the cache key (a server may hand JSON back decoded).
                kind = (
                    key,
                    *(
                        v if isinstance(v, str) else json.dumps(v, sort_keys=True)
                        for v in (ov, hands, worn, carried)
                    ),
                )
                cost = costs.get(kind)
                if cost is None:
                    cost = unit_cost(
                        UnitSpec(
                            "",
                            key,
                            Loadout(
                                tuple(_json(hands) or ()),
                                tuple(_json(worn) or ()),
                                tuple(_json(carried) or ()),
                            ),
                            overrides_from_json(_json(ov) or {}),
                        ),
                        catalog,
                    ).total
                    costs[kind] = cost
                units.append(PoolUnit(uid, name, army, status, cost))
            query = (
                select(Battle.id, Battle.name, Battle.finished_at, Battle.created_at, Battle.result)
                .where(Battle.campaign_id == campaign_id, Battle.status == BattleStatus.FINISHED)
                .order_by(Battle.finished_at, Battle.created_at, Battle.id)
            )
            rows: Sequence[
                tuple[BattleId, str, datetime | None, datetime, dict[str, Any] | None]
            ] = s.execute(query).all()
            ids = [r[0] for r in rows]
            closing = _closing_notes(
                s, [r[0] for r in rows if result_from_json(_json(r[4])) is None]
            )
            sides: dict[BattleId, list[tuple[PlayerId, str]]] = {}
            side_player: dict[BattlePlayerId, PlayerId] = {}
            bunits: dict[BattleId, list[RecordUnit]] = {}
            stored: dict[BattleId, list[ArmyRecord]] = {}
            specs: dict[BattleUnitId, UnitSpec] = {}
            if ids:
                for bid, bpid, pid, pname in s.execute(
                    select(BattlePlayer.battle_id, BattlePlayer.id, Player.id, Player.name)
                    .join(Player, Player.id == BattlePlayer.player_id)
                    .where(BattlePlayer.battle_id.in_(ids))
                    .order_by(BattlePlayer.battle_id, BattlePlayer.turn_order)
                ):
                    sides.setdefault(bid, []).append((pid, pname))
                    side_player[bpid] = pid
                mustered: Sequence[
                    tuple[BattleId, BattleUnitId, str, BattlePlayerId, UnitId | None, Any]
                ] = s.execute(
                    select(
                        BattleUnit.battle_id,
                        BattleUnit.id,
                        BattleUnit.name,
                        BattleUnit.battle_player_id,
                        BattleUnit.unit_id,
                        BattleUnit.spec,
                    )
                    .where(BattleUnit.battle_id.in_(ids))
                    .order_by(BattleUnit.id)
                ).all()
                for b_id, buid, uname, bpid, cu, spec in mustered:
                    data = _json(spec)
                    if isinstance(data, dict):
                        specs[buid] = spec_from_json("", data)
                    bunits.setdefault(b_id, []).append(
                        RecordUnit(
                            buid,
                            uname,
                            side_player.get(bpid, PlayerId(-1)),
                            cu,
                            _cost(specs.get(buid), catalog),
                        )
                    )
                for b_id, *numbers in s.execute(
                    select(
                        BattleArmy.battle_id,
                        BattleArmy.army_id,
                        BattleArmy.value_in,
                        BattleArmy.value_out,
                        BattleArmy.alive_in,
                        BattleArmy.alive_out,
                        BattleArmy.casualties_in,
                        BattleArmy.casualties_out,
                        BattleArmy.kills_in,
                        BattleArmy.kills_out,
                    )
                    .where(BattleArmy.battle_id.in_(ids), BattleArmy.army_id.is_not(None))
                    .order_by(BattleArmy.id)
                ):
                    stored.setdefault(b_id, []).append(ArmyRecord(*numbers))
        records = []
        for bid, name, finished, created, kept in rows:
            result = result_from_json(_json(kept))
            if result is None:  # finished before BrikDesk kept results: its log's word
                from brikdesk.services.aftermath import AftermathService

                am = AftermathService(self._sessions, self._clock).aftermath(bid)
                result = type(am.proposal)(
                    am.proposal.fates, am.suggestion.winner, closing.get(bid, ""), from_log=True
                )
            records.append(
                BattleRecord(
                    bid,
                    name,
                    from_db_time(finished or created),
                    tuple(sides.get(bid, ())),
                    _promoted(bunits.get(bid, ()), result, catalog, specs),
                    result,
                    tuple(stored.get(bid, ())),
                )
            )
        return build_history(
            campaign_id,
            campaign,
            catalog.cost_unit,
            players,
            armies,
            units,
            records,
            self._in_progress(campaign_id) if in_progress else (),
        )

    def _in_progress(self, campaign_id: CampaignId) -> list[BattleInProgress]:
        """The battles being fought, oldest first, with the round the tracker says."""
        with self._reading() as s:
            going = s.execute(
                select(Battle.id, Battle.name)
                .where(
                    Battle.campaign_id == campaign_id,
                    Battle.status == BattleStatus.IN_PROGRESS,
                )
                .order_by(Battle.created_at, Battle.id)
            ).all()
        if not going:
            return []
        # Imported here: the tracker brings the battle rules, which the standings do without.
        from brikdesk.services.tracker import TrackerService

        tracker = TrackerService(self._sessions, self._clock)
        out = []
        for bid, name in going:
            view = tracker.view(bid)
            sides = tuple(p.name for p in view.players)
            out.append(BattleInProgress(bid, name, view.state.round, sides))
        return out


def _closing_notes(s: Session, battle_ids: Sequence[BattleId]) -> dict[BattleId, str]:
    """The note of each battle's standing ``battle_finished`` event: how a battle finished
    before BrikDesk kept results said how it ended (its timeline notes)."""
    if not battle_ids:
        return {}
    out: dict[BattleId, str] = {}
    rows: Sequence[tuple[BattleId, Any]] = s.execute(
        select(BattleEvent.battle_id, BattleEvent.payload)
        .where(
            BattleEvent.battle_id.in_(list(battle_ids)),
            BattleEvent.kind == "battle_finished",
            BattleEvent.reverted.is_(False),
        )
        .order_by(BattleEvent.battle_id, BattleEvent.seq)
    ).all()
    for battle_id, payload in rows:
        data = _json(payload)
        note = data.get("note") if isinstance(data, dict) else None
        if isinstance(note, str) and note.strip():
            out[battle_id] = note.strip()
    return out


def _cost(spec: UnitSpec | None, catalog: Catalog) -> int | None:
    """A unit's cost, or None if the catalog can't price it (a type it no longer has)."""
    if spec is None:
        return None
    try:
        return unit_cost(spec, catalog).total
    except (UserError, KeyError, TypeError, ValueError):
        return None


def _promoted(
    units: Sequence[RecordUnit],
    result: BattleResult,
    catalog: Catalog,
    specs: Mapping[BattleUnitId, UnitSpec],
) -> tuple[RecordUnit, ...]:
    """The battle's units with their cost after the battle: a promoted unit's with its new
    unit type (the rest of its loadout as mustered)."""
    promote = {f.unit: f.promote_to for f in result.fates if f.promote_to}
    out = []
    for u in units:
        cost_out = u.cost_in
        new_type = promote.get(u.id)
        spec = specs.get(u.id)
        if new_type is not None and spec is not None:
            promoted = _cost(replace(spec, unit_type=new_type), catalog)
            cost_out = promoted if promoted is not None else u.cost_in
        out.append(replace(u, cost_out=cost_out))
    return tuple(out)


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value
