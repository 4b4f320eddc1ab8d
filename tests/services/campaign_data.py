"""What several service test files read or make: the demo campaign's id and a battle's id by
its name (``COVE``, the demo's finished battle), the number of rows in every table (a refused
import leaves them as they were), and the battle at the gate fought in ``camp``'s campaign."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import func, select

from brikdesk.domain.battle import UnitKilled
from brikdesk.persistence.db import Database
from brikdesk.persistence.models import Base
from brikdesk.services import Services
from brikdesk.services.demo import DEMO_NAME
from brikdesk.services.summaries import Muster
from tests.services.conftest import Camp

COVE = "Raid on Bilge Cove"


def battle_id(sv: Services, name: str) -> int:
    [c] = sv.campaigns.list_campaigns()
    return next(b.id for b in sv.battles.list_battles(c.id) if b.name == name)


def demo_id(sv: Services) -> int:
    c = sv.campaigns.find_campaign(DEMO_NAME)
    assert c is not None
    return c.id


def table_counts(db: Database) -> dict[str, int]:
    with db.sessions.begin() as s:
        return {
            name: s.scalar(select(func.count()).select_from(t))
            for name, t in Base.metadata.tables.items()
        }


def fight_at_the_gate(sv: Services, camp: Camp):
    """Red (two minifigs at 4 CP and a Skirmisher at 4 CP) beats Blue (two minifigs); the
    Skirmisher kills Blue 1 and is promoted to Hero (11 CP) when the battle is finished."""
    red = sv.roster.add_units(camp.red_army.id, "minifig", 2, "Red {n}").value
    red += sv.roster.add_unit(camp.red_army.id, "skirmisher", name="Scout").value
    blue = sv.roster.add_units(camp.blue_army.id, "minifig", 2, "Blue {n}").value
    view = sv.tracker.begin(
        camp.campaign.id, "Gate", [Muster(camp.red.id, red), Muster(camp.blue.id, blue)]
    ).value
    u = {t.name: t.id for t in view.units}
    sv.tracker.record(view.id, [UnitKilled(u["Blue 1"], u["Scout"], "shot")])
    am = sv.aftermath.aftermath(view.id)
    result = replace(
        am.proposal,
        winner=camp.red.id,
        fates=tuple(
            replace(f, promote_to="hero") if f.unit == u["Scout"] else f for f in am.proposal.fates
        ),
    )
    return view.id, sv.aftermath.finish(view.id, result)
