"""What each army was going into a finished battle and coming out of it (``battle_army``).

``ArmyRecorder`` is used by ``AftermathService.finish`` inside its transaction: ``going_in``
reads, before the result is applied, the armies whose units were mustered (the cost of their
living units, how many are alive, their casualties and kills in the finished battles so far);
``write`` stores one row per army with those numbers and the ones after the result. The undo
of finishing removes the battle's rows (``forget``), so the rows and the battle's status stay in
step. The history reads them (``brikdesk.services.history``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from brikdesk.domain.aftermath import BattleResult, result_from_json
from brikdesk.domain.catalog import Catalog
from brikdesk.domain.ids import ArmyId, BattleId, BattleUnitId, UnitId
from brikdesk.domain.roster import Loadout, UnitSpec, unit_cost
from brikdesk.domain.statuses import BattleStatus, UnitStatus
from brikdesk.persistence.models import Army, Battle, BattleArmy, BattleUnit, Unit
from brikdesk.services.roster import overrides_from_json


def spec_of_unit(u: Unit) -> UnitSpec:
    """A campaign unit's spec (for its cost)."""
    return UnitSpec(
        u.name,
        u.type_key,
        Loadout(tuple(u.hands or ()), tuple(u.worn or ()), tuple(u.carried or ())),
        overrides_from_json(u.overrides or {}),
        u.notes,
    )


@dataclass(frozen=True)
class ArmyNumbers:
    value: int
    alive: int
    casualties: int
    kills: int


class ArmyRecorder:
    """The armies of one battle being finished, read before the result is applied."""

    def __init__(self, s: Session, battle: Battle, catalog: Catalog) -> None:
        self.s, self.battle, self.catalog = s, battle, catalog
        army_ids = set(
            s.scalars(
                select(Unit.army_id)
                .join(BattleUnit, BattleUnit.unit_id == Unit.id)
                .where(BattleUnit.battle_id == battle.id)
            )
        )
        self.armies = {
            a.id: a.name
            for a in s.scalars(select(Army).where(Army.id.in_(army_ids)).order_by(Army.id))
        }
        self.units = list(
            s.scalars(select(Unit).where(Unit.army_id.in_(list(self.armies))).order_by(Unit.id))
        )
        self.tallies = self._tallies()
        self.going_in = {a: self._numbers(a, *self.tallies.get(a, (0, 0))) for a in self.armies}

    def _cost(self, u: Unit) -> int:
        return unit_cost(spec_of_unit(u), self.catalog).total

    def _numbers(self, army: ArmyId, casualties: int, kills: int) -> ArmyNumbers:
        living = [u for u in self.units if u.army_id == army and u.status != UnitStatus.DEAD]
        return ArmyNumbers(sum(self._cost(u) for u in living), len(living), casualties, kills)

    def _tallies(self) -> dict[ArmyId, tuple[int, int]]:
        """Each army's casualties and kills in the campaign's battles finished so far (from
        their stored results)."""
        rows: Sequence[tuple[BattleId, Any]] = self.s.execute(
            select(Battle.id, Battle.result).where(
                Battle.campaign_id == self.battle.campaign_id,
                Battle.status == BattleStatus.FINISHED,
                Battle.id != self.battle.id,
            )
        ).all()
        results: dict[BattleId, BattleResult] = {
            bid: r for bid, raw in rows if (r := result_from_json(raw)) is not None
        }
        if not results:
            return {}
        army_of: dict[tuple[BattleId, BattleUnitId], ArmyId] = {
            (BattleId(bid), BattleUnitId(buid)): army
            for bid, buid, army in self.s.execute(
                select(BattleUnit.battle_id, BattleUnit.id, Unit.army_id)
                .join(Unit, Unit.id == BattleUnit.unit_id)
                .where(BattleUnit.battle_id.in_(list(results)), Unit.army_id.in_(list(self.armies)))
            )
        }
        out: dict[ArmyId, tuple[int, int]] = {}
        for bid, result in results.items():
            self._add(out, bid, result, army_of)
        return out

    @staticmethod
    def _add(
        out: dict[ArmyId, tuple[int, int]],
        battle_id: BattleId,
        result: BattleResult,
        army_of: dict[tuple[BattleId, BattleUnitId], ArmyId],
    ) -> None:
        kills = result.kills()
        for f in result.fates:
            army = army_of.get((battle_id, f.unit))
            if army is None:
                continue
            fell, killed = out.get(army, (0, 0))
            out[army] = (fell + f.fell, killed + kills.get(f.unit, 0))

    def write(self, result: BattleResult, links: dict[BattleUnitId, UnitId]) -> None:
        """Store each army's numbers before and after ``result`` (already applied to the
        units read at the start)."""
        after: dict[ArmyId, tuple[int, int]] = dict(self.tallies)
        army_by_unit = {u.id: u.army_id for u in self.units}
        army_of = {
            (self.battle.id, bu): army_by_unit[cu] for bu, cu in links.items() if cu in army_by_unit
        }
        self._add(after, self.battle.id, result, army_of)
        for army, name in self.armies.items():
            before = self.going_in[army]
            out = self._numbers(army, *after.get(army, (0, 0)))
            self.s.add(
                BattleArmy(
                    battle_id=self.battle.id,
                    army_id=army,
                    army=name,
                    value_in=before.value,
                    value_out=out.value,
                    alive_in=before.alive,
                    alive_out=out.alive,
                    casualties_in=before.casualties,
                    casualties_out=out.casualties,
                    kills_in=before.kills,
                    kills_out=out.kills,
                )
            )


def forget(s: Session, battle_id: BattleId) -> None:
    """Remove a battle's army records (its finishing is undone)."""
    s.execute(delete(BattleArmy).where(BattleArmy.battle_id == battle_id))
