"""The end of a battle: the post-battle update of the campaign, in one pass and one undo step.

``aftermath(battle_id)`` reads what the log says happened to each mustered unit (killed and by
whom, kills, wounded; Disrupted or off the table at the end from the tracker's state) and who
holds the field (``brikdesk.domain.aftermath``); the organizer edits that proposal (overrule a
death, give a kill to someone else, pick the winner or a draw, write notes, promote survivors)
and ``finish(battle_id, result)`` writes it all in ONE transaction:

- the battle is finished (``status``, ``finished_at``) and keeps the result in
  ``battle.result`` (JSON; shape in :func:`brikdesk.domain.aftermath.result_to_json`): winner,
  notes and every unit's fate, so the history shows casualties with the battle where they fell;
- each mustered unit still in the campaign pool gets one more battle fought, its kills, its
  status (``dead`` takes it out of the pool: it can't be mustered again) and its promotion
  (a new unit type).

The ``Done`` undoes with :meth:`reopen`, which puts back the battle's status and every unit's
record exactly as they were; redo finishes again with the same result. A finished battle is
read-only: the tracker refuses to change its log. ``resurrect(unit_id)`` brings a dead unit
back to the pool (a house rule), undoable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from brikdesk.domain.aftermath import (
    BattleResult,
    Suggestion,
    UnitFate,
    check_result,
    fates_from_events,
    propose,
    result_from_json,
    result_to_json,
    suggest_winner,
)
from brikdesk.domain.catalog import Catalog
from brikdesk.domain.ids import ArmyId, BattleId, BattleUnitId, CampaignId, PlayerId, UnitId
from brikdesk.domain.roster import unit_cost
from brikdesk.domain.statuses import BattleStatus, UnitStatus
from brikdesk.errors import ConflictError, UserError
from brikdesk.persistence.models import (
    Army,
    Battle,
    BattleEvent,
    BattlePlayer,
    BattleUnit,
    Player,
    Unit,
)
from brikdesk.services.army_records import ArmyRecorder, spec_of_unit
from brikdesk.services.army_records import forget as forget_armies
from brikdesk.services.base import ServiceBase
from brikdesk.services.catalogs import load_campaign_catalog
from brikdesk.services.common import (
    Changes,
    Done,
    clean_notes,
    step,
    storage_errors,
)

if TYPE_CHECKING:
    from brikdesk.services.tracker import BattleView, TrackerService

FINISH_CHANGES = Changes.BATTLES | Changes.UNITS | Changes.EVENTS


@dataclass(frozen=True)
class AftermathPlayer:
    id: PlayerId  # the campaign player
    name: str
    colour: str


@dataclass(frozen=True)
class AftermathUnit:
    """A mustered unit as the post-battle dialog lists it. ``id`` is the battle-unit id;
    ``cost`` its cost as mustered; ``campaign_status`` its status in the pool now (``None``
    once the campaign unit was deleted)."""

    id: BattleUnitId
    name: str
    player_id: PlayerId
    player_name: str
    army: str
    type_key: str
    type_name: str
    cost: int
    campaign_unit_id: UnitId | None
    campaign_status: UnitStatus | None


@dataclass(frozen=True)
class UnitTypeChoice:
    key: str
    name: str
    cost: int | None


@dataclass(frozen=True)
class AftermathBasis:
    """What an End battle dialog was made from: the battle's version, its log (the last
    sequence number and how many events are undone) and a fingerprint of what can change
    the outcome of each mustered unit still in the campaign (all but its notes and place in
    the list). ``finish`` refuses a result made from another basis (someone else recorded a
    kill, undid an event or marked a unit dead since the dialog opened) and goes on over an
    edit that cannot change it (a unit's notes)."""

    battle_version: int
    last_seq: int
    undone: int
    units: tuple[tuple[UnitId, int], ...]


@dataclass(frozen=True)
class Aftermath:
    """What the post-battle dialog shows. ``proposal`` is the log's word (with the suggested
    winner); ``result`` the stored one once the battle is finished; ``basis`` what it was
    read from (hand it to ``finish``)."""

    battle_id: BattleId
    campaign_id: CampaignId
    name: str
    status: BattleStatus
    players: tuple[AftermathPlayer, ...]
    units: tuple[AftermathUnit, ...]
    proposal: BattleResult
    suggestion: Suggestion
    result: BattleResult | None
    unit_types: tuple[UnitTypeChoice, ...]
    cost_unit: str
    basis: AftermathBasis | None = None

    @property
    def finished(self) -> bool:
        return self.status is BattleStatus.FINISHED

    def unit(self, unit_id: BattleUnitId) -> AftermathUnit:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise UserError(f"battle unit {unit_id} is not in this battle")

    def sides_standing(self, result: BattleResult | None = None) -> tuple[PlayerId, ...]:
        """The players with units standing under ``result`` (default: the proposal)."""
        result = result or self.proposal
        players = {u.id: u.player_id for u in self.units}
        return tuple(sorted({players[f.unit] for f in result.fates if f.standing}))


@dataclass(frozen=True)
class PromotionPreview:
    """What promoting units does to an army: its total before and after, and the budget."""

    army_id: ArmyId
    army: str
    units: tuple[tuple[str, str, str, int, int], ...]  # (unit, old type, new type, old, new)
    total_before: int
    total_after: int
    budget: int | None
    cost_unit: str

    @property
    def over_by(self) -> int:
        return 0 if self.budget is None else max(0, self.total_after - self.budget)

    @property
    def text(self) -> str:
        lines = [
            f"{name}: {old} → {new} ({oc} → {nc} {self.cost_unit})"
            for name, old, new, oc, nc in self.units
        ]
        budget = "no budget" if self.budget is None else f"budget {self.budget} {self.cost_unit}"
        head = f"{self.army}: {self.total_before} → {self.total_after} {self.cost_unit} ({budget})"
        if self.over_by:
            head += f": over budget by {self.over_by} {self.cost_unit} (a warning; allowed)"
        return "\n".join([head, *lines])


def _unmistakable_names(s: Session, battle_id: BattleId) -> dict[BattleUnitId, str]:
    """The battle's units' names, each with its owner ("Minifig 1 (Bob)") where a unit of
    another player has the same name, as the battle log names them."""
    rows = s.execute(
        select(BattleUnit.id, BattleUnit.name, Player.id, Player.name)
        .join(BattlePlayer, BattlePlayer.id == BattleUnit.battle_player_id)
        .join(Player, Player.id == BattlePlayer.player_id)
        .where(BattleUnit.battle_id == battle_id)
    ).all()
    owners: dict[str, set[int]] = {}
    for _uid, name, pid, _player in rows:
        owners.setdefault(name, set()).add(pid)
    return {
        uid: f"{name} ({player})" if len(owners[name]) > 1 else name
        for uid, name, _pid, player in rows
    }


@dataclass(frozen=True)
class FinishedBattle:
    battle_id: BattleId
    name: str
    result: BattleResult
    casualties: tuple[str, ...]
    promoted: tuple[str, ...]


#: A campaign unit's (id, status, battles fought, kills, unit type).
_Record = tuple[UnitId, UnitStatus, int, int, str]


@dataclass(frozen=True)
class _Before:
    """What ``finish`` changed, to put back: the battle's status and finish time, and each
    campaign unit's (id, status, battles fought, kills, unit type)."""

    status: BattleStatus
    finished_at: datetime | None
    result: Any
    units: tuple[_Record, ...]
    #: Each unit's (id, status, battles fought, kills, unit type) as ``finish`` left them: the undo
    #: is refused if someone has changed one of them since ("Shared data is versioned" in
    #: docs/conventions.md).
    after: tuple[_Record, ...] = ()


class AftermathService(ServiceBase):
    """End a battle, update the campaign in one pass; reopen it; bring a dead unit back."""

    _tracker: TrackerService | None = None

    def _view(self, battle_id: BattleId) -> BattleView:
        if self._tracker is None:
            from brikdesk.services.tracker import TrackerService

            self._tracker = TrackerService(self._sessions, self._clock)
        return self._tracker.view(battle_id)

    # -- reading ------------------------------------------------------------------------------

    @storage_errors
    def aftermath(self, battle_id: BattleId) -> Aftermath:
        """The log's word on every mustered unit and who holds the field (and the stored
        result, once finished)."""
        # The basis first: anything recorded while the rest is read makes it older than what
        # the dialog shows, so ``finish`` refuses rather than accepts a stale dialog.
        with self._reading() as s:
            basis = _basis(s, self._get(s, Battle, battle_id, "battle"))
        view = self._view(battle_id)
        with self._reading() as s:
            b = self._get(s, Battle, battle_id, "battle")
            rows = s.execute(
                select(
                    BattleEvent.kind,
                    BattleEvent.actor_id,
                    BattleEvent.target_id,
                    BattleEvent.payload,
                )
                .where(BattleEvent.battle_id == battle_id, BattleEvent.reverted.is_(False))
                .order_by(BattleEvent.seq)
            ).all()
            ids = [u.campaign_unit_id for u in view.units if u.campaign_unit_id is not None]
            pool = (
                dict(s.execute(select(Unit.id, Unit.status).where(Unit.id.in_(ids))).all())
                if ids
                else {}
            )
            result = result_from_json(b.result)
            catalog = load_campaign_catalog(s, b.campaign_id)
        fates = fates_from_events(rows)
        state = view.state
        units = tuple(
            AftermathUnit(
                u.id,
                u.name,
                u.player_id,
                u.player_name,
                u.army,
                u.type_key,
                u.type_name,
                unit_cost(u.spec, catalog).total,
                u.campaign_unit_id,
                pool.get(u.campaign_unit_id) if u.campaign_unit_id else None,
            )
            for u in view.units
        )
        proposal_fates = propose(
            [u.id for u in units],
            fates,
            disrupted=[x.unit_id for x in state.units if x.disrupted],
            out=[x.unit_id for x in state.units if x.out],
            dead=[x.unit_id for x in state.units if x.dead],
        )
        suggestion = _suggest(view.players, units, proposal_fates, catalog.cost_unit)
        proposal = BattleResult(proposal_fates, suggestion.winner, "")
        return Aftermath(
            b.id,
            b.campaign_id,
            b.name,
            b.status,
            tuple(AftermathPlayer(p.id, p.name, p.colour) for p in view.players),
            units,
            proposal,
            suggestion,
            result,
            tuple(UnitTypeChoice(t.key, t.name, t.cost) for t in catalog.unit_types),
            catalog.cost_unit,
            basis,
        )

    def suggest(self, aftermath: Aftermath, fates: Sequence[UnitFate]) -> Suggestion:
        """Who holds the field under edited fates (the dialog asks again after each edit)."""
        players = [AftermathPlayer(p.id, p.name, p.colour) for p in aftermath.players]
        return _suggest(players, aftermath.units, tuple(fates), aftermath.cost_unit)

    @storage_errors
    def promotion_preview(
        self, battle_id: BattleId, promotions: Mapping[BattleUnitId, str]
    ) -> tuple[PromotionPreview, ...]:
        """Each army touched by ``promotions`` (battle unit -> new unit type): its total cost
        before and after and its budget (over budget is a warning, never a refusal)."""
        with self._reading() as s:
            b = self._get(s, Battle, battle_id, "battle")
            catalog = load_campaign_catalog(s, b.campaign_id)
            links = self._links(s, battle_id, promotions)
            return _previews(s, catalog, {links[k]: v for k, v in promotions.items() if k in links})

    # -- writing ------------------------------------------------------------------------------

    @storage_errors
    def finish(
        self, battle_id: BattleId, result: BattleResult, basis: AftermathBasis | None = None
    ) -> Done[FinishedBattle]:
        """Finish the battle with ``result`` (see the module docstring), one transaction.

        ``basis``: what the result was made from (``Aftermath.basis``); if the battle's log or
        a mustered unit changed since, ``ConflictError`` saying what changed, and nothing is
        written (the dialog reads the battle again). ``None`` (the command line, redo): no
        check."""
        notes = clean_notes(result.notes)
        with self._sessions.begin() as s:
            b = self._lock(s, Battle, battle_id, "battle")
            if b.status is BattleStatus.FINISHED:
                raise UserError(f"'{b.name}' is already finished")
            if b.status is BattleStatus.PLANNED:
                raise UserError(f"'{b.name}' has not started: start it, or delete it")
            if basis is not None:
                _check_basis(s, b, basis)
            catalog = load_campaign_catalog(s, b.campaign_id)
            sides = dict(
                s.execute(
                    select(BattleUnit.id, BattleUnit.battle_player_id).where(
                        BattleUnit.battle_id == battle_id
                    )
                ).all()
            )
            player_of_side = dict(
                s.execute(
                    select(BattlePlayer.id, BattlePlayer.player_id).where(
                        BattlePlayer.battle_id == battle_id
                    )
                ).all()
            )
            units_players = {u: player_of_side[bp] for u, bp in sides.items()}
            result = check_result(
                BattleResult(result.fates, result.winner, notes),
                units_players,
                player_of_side.values(),
            )
            for f in result.fates:
                if f.promote_to is not None and catalog.get_unit_type(f.promote_to) is None:
                    raise UserError(
                        f"there is no unit type '{f.promote_to}' in this campaign's catalog",
                        field="promote_to",
                    )
            links = {
                bu: u
                for bu, u in s.execute(
                    select(BattleUnit.id, BattleUnit.unit_id).where(
                        BattleUnit.battle_id == battle_id, BattleUnit.unit_id.is_not(None)
                    )
                )
                if u is not None
            }
            rows = (
                {
                    u.id: u
                    for u in s.scalars(
                        select(Unit).where(Unit.id.in_(list(links.values()))).with_for_update()
                    )
                }
                if links
                else {}
            )
            armies = ArmyRecorder(s, b, catalog)
            before = _Before(
                b.status,
                b.finished_at,
                b.result,
                tuple(
                    (u.id, u.status, u.battles_fought, u.kills, u.type_key)
                    for u in sorted(rows.values(), key=lambda u: u.id)
                ),
            )
            kills = result.kills()
            names = _unmistakable_names(s, battle_id)
            for f in result.fates:
                u = rows.get(links.get(f.unit, UnitId(-1)))
                if u is None:
                    continue
                u.battles_fought += 1
                u.kills += kills.get(f.unit, 0)
                u.status = f.status
                if f.promote_to is not None:
                    u.type_key = f.promote_to
            b.status = BattleStatus.FINISHED
            b.finished_at = self._now()
            b.result = result_to_json(result)
            armies.write(result, links)
            self._touch(s, b.campaign_id)
            name = b.name
            before = replace(before, after=_records(rows.values()))
        value = FinishedBattle(
            battle_id,
            name,
            result,
            tuple(names[f.unit] for f in result.fates if f.fell),
            tuple(names[f.unit] for f in result.fates if f.promote_to),
        )
        return Done(
            value,
            FINISH_CHANGES,
            f"End battle {name}",
            redo=step(self.finish, battle_id, result),
            undo=step(self.reopen, battle_id, before, result),
        )

    @storage_errors
    def reopen(self, battle_id: BattleId, before: _Before, result: BattleResult) -> Done[str]:
        """Undo of :meth:`finish`: the battle and every unit's record exactly as they were."""
        with self._sessions.begin() as s:
            b = self._lock(s, Battle, battle_id, "battle")
            if b.status is not BattleStatus.FINISHED:
                raise UserError(f"'{b.name}' is not finished")
            rows = {
                u.id: u
                for u in s.scalars(
                    select(Unit).where(Unit.id.in_([r[0] for r in before.units])).with_for_update()
                )
            }
            now = {r[0]: r for r in _records(rows.values())}
            for record in before.after:
                current = now.get(record[0])
                if current is not None and current != record:
                    u = rows[record[0]]
                    raise ConflictError(
                        f"{u.name}'s record was changed by someone else since '{b.name}' "
                        f"ended (status {current[1]}, {current[2]} battles, {current[3]} "
                        "kills); the battle was not reopened"
                    )
            for uid, status, fought, kills, type_key in before.units:
                unit = rows.get(uid)
                if unit is None:  # deleted since: nothing to put back
                    continue
                unit.status, unit.battles_fought, unit.kills, unit.type_key = (
                    status,
                    fought,
                    kills,
                    type_key,
                )
            b.status = before.status
            b.finished_at = before.finished_at
            b.result = before.result
            forget_armies(s, battle_id)
            self._touch(s, b.campaign_id)
            name = b.name
        return Done(
            name,
            FINISH_CHANGES,
            f"Reopen battle {name}",
            redo=step(self.reopen, battle_id, before, result),
            undo=step(self.finish, battle_id, result),
        )

    @storage_errors
    def resurrect(self, unit_id: UnitId) -> Done[UnitStatus]:
        """Bring a dead unit back to the campaign pool, alive (a house rule). The battle where
        it fell still counts it among its casualties."""
        return self._set_status(unit_id, UnitStatus.ALIVE, "Bring back", need_dead=True)

    @storage_errors
    def _set_status(
        self, unit_id: UnitId, status: UnitStatus, verb: str, *, need_dead: bool = False
    ) -> Done[UnitStatus]:
        with self._sessions.begin() as s:
            u = self._get(s, Unit, unit_id, "unit")
            if need_dead and u.status is not UnitStatus.DEAD:
                raise UserError(f"{u.name} is not dead", field="status")
            old, u.status = u.status, status
            campaign_id = s.execute(
                select(Army.campaign_id).where(Army.id == u.army_id)
            ).scalar_one()
            self._touch(s, campaign_id)
            text = f"{verb} {u.name}"
        return Done(
            old,
            Changes.UNITS,
            text,
            redo=step(self._set_status, unit_id, status, verb),
            undo=step(self._set_status, unit_id, old, verb),
        )

    # -- helpers ------------------------------------------------------------------------------

    @staticmethod
    def _links(
        s: Session, battle_id: BattleId, which: Mapping[BattleUnitId, Any]
    ) -> dict[BattleUnitId, UnitId]:
        """battle unit -> campaign unit, for the battle units in ``which``."""
        return {
            bu: u
            for bu, u in s.execute(
                select(BattleUnit.id, BattleUnit.unit_id).where(
                    BattleUnit.battle_id == battle_id,
                    BattleUnit.unit_id.is_not(None),
                    BattleUnit.id.in_([k for k in which if isinstance(k, int)]),
                )
            )
            if u is not None
        }


def _basis(s: Session, b: Battle) -> AftermathBasis:
    """The battle's :class:`AftermathBasis` now (inside the caller's transaction)."""
    last, undone = s.execute(
        select(
            func.coalesce(func.max(BattleEvent.seq), 0),
            func.count().filter(BattleEvent.reverted.is_(True)),
        ).where(BattleEvent.battle_id == b.id)
    ).one()
    units = s.execute(
        select(Unit.id, *_OUTCOME_COLUMNS)
        .join(BattleUnit, BattleUnit.unit_id == Unit.id)
        .where(BattleUnit.battle_id == b.id)
        .order_by(Unit.id)
    ).all()
    return AftermathBasis(
        b.version,
        int(last),
        int(undone),
        tuple((UnitId(u.id), _digest(tuple(u)[1:])) for u in units),
    )


#: What of a mustered unit can change the end of a battle: all but its notes, its place in
#: its army's list and its version (which any edit raises), so that someone writing in a
#: unit's notes while the End battle dialog is open does not make it refuse.
_OUTCOME_COLUMNS = tuple(
    c for c in Unit.__table__.columns if c.name not in ("id", "notes", "position", "version")
)


def _digest(values: tuple[Any, ...]) -> int:
    """A short, stable fingerprint of a unit's outcome columns (the same in every process)."""
    import hashlib

    text = repr(tuple(getattr(v, "value", v) for v in values)).encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def _check_basis(s: Session, b: Battle, seen: AftermathBasis) -> None:
    """``ConflictError`` naming what changed if the battle is not as ``seen`` (with ``b``
    locked, so nothing changes between this check and the finish)."""
    now = _basis(s, b)
    if now == seen:
        return
    changes = []
    if (now.last_seq, now.undone) != (seen.last_seq, seen.undone):
        new = now.last_seq - seen.last_seq
        undone = now.undone - seen.undone
        parts = [f"{new} new event{'s' if new != 1 else ''}"] if new > 0 else []
        if undone > 0:
            parts.append(f"{undone} event{'s' if undone != 1 else ''} undone")
        changes.append("its log changed" + (f" ({', '.join(parts)})" if parts else ""))
    was = dict(seen.units)
    changed = sorted(u for u, v in now.units if was.get(u) != v) + sorted(
        set(was) - {u for u, _v in now.units}
    )
    if changed:
        names = dict(s.execute(select(Unit.id, Unit.name).where(Unit.id.in_(changed))).all())
        shown = [names.get(u, f"unit {u}") for u in changed]
        more = f" and {len(shown) - 3} more" if len(shown) > 3 else ""
        changes.append(f"{', '.join(shown[:3])}{more} changed in the campaign")
    if not changes:
        changes.append("the battle itself was changed")
    raise ConflictError(
        f"'{b.name}' was changed by someone else since the End battle dialog opened: "
        f"{'; '.join(changes)}. The battle was not ended; check the refreshed list and "
        "end it again."
    )


def _suggest(
    players: Sequence[Any],
    units: Sequence[AftermathUnit],
    fates: Sequence[UnitFate],
    cost_unit: str,
) -> Suggestion:
    by_id = {u.id: u for u in units}
    standing: dict[PlayerId, tuple[int, int]] = {}
    for f in fates:
        u = by_id.get(f.unit)
        if u is None or not f.standing:
            continue
        n, v = standing.get(u.player_id, (0, 0))
        standing[u.player_id] = (n + 1, v + u.cost)
    return suggest_winner([(p.id, p.name) for p in players], standing, cost_unit)


def _previews(
    s: Session, catalog: Catalog, promotions: Mapping[UnitId, str]
) -> tuple[PromotionPreview, ...]:
    """Army totals before and after changing the unit types of ``promotions`` (campaign unit
    -> type key), living units only."""
    if not promotions:
        return ()
    armies = set(s.scalars(select(Unit.army_id).where(Unit.id.in_(list(promotions)))))
    out = []
    for army in s.scalars(select(Army).where(Army.id.in_(armies)).order_by(Army.id)):
        before = after = 0
        lines = []
        for u in s.scalars(
            select(Unit)
            .where(Unit.army_id == army.id, Unit.status != UnitStatus.DEAD)
            .order_by(Unit.position, Unit.id)
        ):
            spec = spec_of_unit(u)
            cost = unit_cost(spec, catalog).total
            before += cost
            new_key = promotions.get(u.id)
            if new_key is None or new_key == u.type_key:
                after += cost
                continue
            new_cost = unit_cost(replace(spec, unit_type=new_key), catalog).total
            after += new_cost
            old_t, new_t = catalog.get_unit_type(u.type_key), catalog.get_unit_type(new_key)
            lines.append(
                (
                    u.name,
                    old_t.name if old_t else u.type_key,
                    new_t.name if new_t else new_key,
                    cost,
                    new_cost,
                )
            )
        out.append(
            PromotionPreview(
                army.id, army.name, tuple(lines), before, after, army.budget, catalog.cost_unit
            )
        )
    return tuple(out)


def _records(units: Any) -> tuple[_Record, ...]:
    """Each unit's (id, status, battles fought, kills, unit type), by id."""
    return tuple(
        (u.id, u.status, u.battles_fought, u.kills, u.type_key)
        for u in sorted(units, key=lambda u: u.id)
    )
