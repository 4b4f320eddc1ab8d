"""A delete is named with everything that goes with it before it happens."""

from __future__ import annotations

from brikdesk.services import Services
from tests.services.campaign_data import battle_id

FORD = "Skirmish at Baseplate Ford"


def test_what_a_delete_takes_along(demo_sv: Services) -> None:
    [c] = demo_sv.campaigns.list_campaigns()
    nav = demo_sv.campaigns.navigator(c.id)
    bid = battle_id(demo_sv, FORD)
    events = [e for e in demo_sv.battles.events(bid) if not e.reverted]
    units = demo_sv.battles.battle(bid).units
    assert demo_sv.deletions.what_goes("battle", bid) == (
        f"{FORD}: its {len(events)} events, its {len(units)} mustered units and its result "
        "(the campaign record of who fell and who won)"
    )
    army = nav.armies[0]
    n = len(demo_sv.roster.roster(army.id).units)
    assert demo_sv.deletions.what_goes("army", army.id) == (
        f"{army.name}: its {n} units (battles keep their own copies of the units that fought)"
    )
    assert demo_sv.deletions.what_goes("campaign", c.id).startswith(
        f"{c.name}: its 3 players, 3 armies, "
    )
    assert demo_sv.deletions.what_goes("campaign", c.id).endswith(
        "and 2 battles with their events and results"
    )
