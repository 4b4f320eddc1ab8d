"""The tracker plays the campaign edition's rule set, and loadouts reach the battle."""

from __future__ import annotations

from brikdesk.domain.battle import Status, StatusSet
from brikdesk.domain.roster import Loadout
from brikdesk.domain.rulesets import RULES_2005, RULES_2020
from brikdesk.services import Services
from brikdesk.services.summaries import CampaignPatch, Muster
from tests.services.conftest import Camp


def _battle(sv: Services, camp: Camp) -> int:
    red = sv.roster.add_units(camp.red_army.id, "minifig", 1, "Red {n}").value
    blue = sv.roster.add_units(camp.blue_army.id, "minifig", 1, "Blue {n}").value
    done = sv.tracker.begin(
        camp.campaign.id, "Ford", [Muster(camp.red.id, red), Muster(camp.blue.id, blue)]
    )
    return done.value.id


def test_a_2005_campaign_plays_2005_turn_rules(sv: Services, camp: Camp) -> None:
    # 4.3 (2005): "On its following turn, the unit recovers (spending 2\" of Move to stand up)"
    sv.campaigns.update_campaign(camp.campaign.id, CampaignPatch(edition="2005"))
    battle = _battle(sv, camp)
    view = sv.tracker.view(battle)
    assert view.setup.rules is RULES_2005
    red = next(u.id for u in view.units if u.name == "Red 1")
    sv.tracker.record(battle, [StatusSet(red, Status.DISRUPTED)])
    sv.tracker.end_turn(battle)
    sv.tracker.end_turn(battle)
    unit = sv.tracker.state(battle).unit(red)
    assert unit.standing_up and not unit.recovering


def test_a_2020_campaign_plays_2020_rules(sv: Services, camp: Camp) -> None:
    assert sv.tracker.view(_battle(sv, camp)).setup.rules is RULES_2020


def test_heavy_armor_half_speed_starts_with_the_battle(sv: Services, camp: Camp) -> None:
    # 4.1 (2020): "Actions or conditions that actively burden a minifig, such as wearing Heavy
    # Armor ... will reduce a minifig's movement to Half Speed." (The demo's Brother Axel.)
    axel = sv.roster.add_unit(
        camp.red_army.id,
        "heavy",
        name="Brother Axel",
        loadout=Loadout(("hand-weapon",), ("heavy-armor",)),
    ).value
    plain = sv.roster.add_units(camp.blue_army.id, "minifig", 1, "Blue {n}").value
    view = sv.tracker.begin(
        camp.campaign.id, "Ford", [Muster(camp.red.id, list(axel)), Muster(camp.blue.id, plain)]
    ).value
    units = {u.name: view.state.unit(u.id) for u in view.units}
    assert units["Brother Axel"].half_speed and Status.HALF_SPEED in units["Brother Axel"].statuses
    assert not units["Blue 1"].half_speed
    assert view.setup.unit(next(u.id for u in view.units if u.name == "Brother Axel")).heavy_armor
