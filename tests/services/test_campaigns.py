"""Campaigns, players and armies: validation, one transaction per action, undo and redo."""

from __future__ import annotations

import pytest

from brikdesk.errors import UserError
from brikdesk.services import Changes, Services
from brikdesk.services.roster import UnitPatch
from brikdesk.services.summaries import (
    NO_BUDGET,
    ArmyPatch,
    CampaignPatch,
    Muster,
    PlayerPatch,
)
from tests.services.conftest import Camp


def test_a_new_campaign_is_listed_with_its_settings(sv: Services) -> None:
    done = sv.campaigns.create_campaign(
        "  Winter   War ",
        edition="2010",
        cost_system="Unit Inches",
        default_budget=250,
        notes="Snow everywhere",
    )
    c = done.value
    assert done.changes == Changes.CAMPAIGNS
    assert (c.name, c.edition, c.cost_system, c.default_budget, c.notes) == (
        "Winter War",
        "2010",
        "Unit Inches",
        250,
        "Snow everywhere",
    )
    assert c.created_at == c.updated_at and c.created_at.tzinfo is not None
    assert sv.campaigns.list_campaigns() == (c,)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"name": "   "}, "name can't be empty"),
        ({"name": "x" * 101}, "too long"),
        ({"name": "A", "default_budget": -5}, "can't be negative"),
        ({"name": "A", "edition": "1999"}, "not a rules edition"),
        ({"name": "A", "cost_system": "Gold"}, "not a cost system"),
    ],
)
def test_bad_campaign_input_is_refused_with_a_message(sv: Services, kwargs, message) -> None:
    with pytest.raises(UserError, match=message):
        sv.campaigns.create_campaign(**kwargs)
    assert sv.campaigns.list_campaigns() == ()


def test_campaign_names_are_unique_ignoring_case(sv: Services) -> None:
    sv.campaigns.create_campaign("Brick Wars")
    with pytest.raises(UserError, match="'Brick Wars' already exists") as err:
        sv.campaigns.create_campaign("brick  wars")
    assert err.value.field == "name"
    other = sv.campaigns.create_campaign("Other").value
    with pytest.raises(UserError, match="already exists"):
        sv.campaigns.update_campaign(other.id, CampaignPatch(name="BRICK WARS"))


def test_unknown_ids_are_user_errors(sv: Services) -> None:
    for call in (
        lambda: sv.campaigns.get_campaign(999),
        lambda: sv.campaigns.add_player(999, "Nobody"),
        lambda: sv.campaigns.add_army(999, "Nowhere"),
        lambda: sv.roster.roster(999),
        lambda: sv.roster.edit_unit(999, UnitPatch(name="x")),
        lambda: sv.battles.battle(999),
    ):
        with pytest.raises(UserError, match="no .* with id 999"):
            call()


def test_editing_a_campaign_returns_the_old_values_and_undo_redo_work(sv: Services) -> None:
    c = sv.campaigns.create_campaign("Alpha", default_budget=50).value
    done = sv.campaigns.update_campaign(c.id, CampaignPatch(name="Beta", default_budget=75))
    assert done.value == CampaignPatch(name="Alpha", default_budget=50)
    assert (
        sv.campaigns.get_campaign(c.id).name,
        sv.campaigns.get_campaign(c.id).default_budget,
    ) == ("Beta", 75)
    assert done.undo() == Changes.CAMPAIGNS
    assert sv.campaigns.get_campaign(c.id).name == "Alpha"
    done.redo()
    got = sv.campaigns.get_campaign(c.id)
    assert (got.name, got.default_budget, got.notes) == ("Beta", 75, "")


def test_deleting_a_campaign_is_undone_with_everything_and_the_same_ids(
    sv: Services, camp: Camp
) -> None:
    ids = sv.roster.add_units(camp.red_army.id, "minifig", 3).value
    blue = sv.roster.add_units(camp.blue_army.id, "hero", 1).value
    sv.catalog.set_item_field(camp.campaign.id, "shield", "cost", "2")
    b = sv.battles.create_battle(
        camp.campaign.id, "Clash", [Muster(camp.red.id, ids[:2]), Muster(camp.blue.id, blue)]
    ).value
    before = sv.transfer.export_json(camp.campaign.id)

    done = sv.campaigns.delete_campaign(camp.campaign.id)
    assert sv.campaigns.list_campaigns() == ()
    assert done.value.count("unit") == 4 and done.value.count("battle_unit") == 3
    done.undo()
    assert sv.transfer.export_json(camp.campaign.id) == before
    assert sv.roster.unit_rows(ids)[0].id == ids[0]
    assert sv.battles.battle(b.id).battle.name == "Clash"
    done.redo()
    assert sv.campaigns.list_campaigns() == ()


def test_creating_a_campaign_is_undone_by_deleting_it(sv: Services) -> None:
    done = sv.campaigns.create_campaign("Short-lived")
    done.undo()
    assert sv.campaigns.list_campaigns() == ()
    done.redo()
    assert [c.id for c in sv.campaigns.list_campaigns()] == [done.value.id]


def test_players_get_valid_colours_and_unique_names(sv: Services) -> None:
    c = sv.campaigns.create_campaign("Colours").value
    first = sv.campaigns.add_player(c.id, "Ann").value
    second = sv.campaigns.add_player(c.id, "Bob", colour="#ABC", faction=" Owls ").value
    assert first.colour.startswith("#") and len(first.colour) == 7
    assert (second.colour, second.faction) == ("#aabbcc", "Owls")
    with pytest.raises(UserError, match="already has a player called 'Ann'"):
        sv.campaigns.add_player(c.id, "ann")
    with pytest.raises(UserError, match="not a colour"):
        sv.campaigns.add_player(c.id, "Cy", colour="red-ish")
    done = sv.campaigns.update_player(second.id, PlayerPatch(colour="#000000"))
    assert done.value == PlayerPatch(colour="#aabbcc")
    done.undo()
    assert sv.campaigns.list_players(c.id)[1].colour == "#aabbcc"


def test_a_player_who_fought_cannot_be_deleted_but_others_can(sv: Services, camp: Camp) -> None:
    r = sv.roster.add_units(camp.red_army.id, "minifig", 1).value
    b = sv.roster.add_units(camp.blue_army.id, "minifig", 1).value
    sv.battles.create_battle(
        camp.campaign.id, "Duel", [Muster(camp.red.id, r), Muster(camp.blue.id, b)]
    )
    with pytest.raises(UserError, match="took part in 1 battle"):
        sv.campaigns.delete_player(camp.red.id)
    green = sv.campaigns.add_player(camp.campaign.id, "Green").value
    army = sv.campaigns.add_army(green.id, "Green Army").value
    sv.roster.add_units(army.id, "minifig", 2)
    done = sv.campaigns.delete_player(green.id)
    assert {p.name for p in sv.campaigns.list_players(camp.campaign.id)} == {"Red", "Blue"}
    assert done.value.count("army") == 1 and done.value.count("unit") == 2
    done.undo()
    assert sv.roster.roster(army.id).army.units == 2


def test_armies_take_the_campaign_budget_and_can_change_hands(sv: Services, camp: Camp) -> None:
    assert camp.red_army.budget == 30  # the campaign's default
    with pytest.raises(UserError, match="can't be negative"):
        sv.campaigns.add_army(camp.red.id, "Debtors", budget=-1)
    done = sv.campaigns.update_army(
        camp.red_army.id, ArmyPatch(player_id=camp.blue.id, budget=NO_BUDGET)
    )
    a = sv.campaigns.get_army(camp.red_army.id)
    assert (a.player_name, a.budget) == ("Blue", None)
    done.undo()
    a = sv.campaigns.get_army(camp.red_army.id)
    assert (a.player_name, a.budget) == ("Red", 30)
    other = sv.campaigns.create_campaign("Elsewhere").value
    stranger = sv.campaigns.add_player(other.id, "Stranger").value
    with pytest.raises(UserError, match="plays in another campaign"):
        sv.campaigns.update_army(camp.red_army.id, ArmyPatch(player_id=stranger.id))


def test_the_navigator_shows_players_armies_and_battles(demo_sv: Services) -> None:
    [c] = demo_sv.campaigns.list_campaigns()
    nav = demo_sv.campaigns.navigator(c.id)
    assert [p.name for p in nav.players] == ["Margo", "Tobias", "Ines"]
    assert [(a.name, a.player_name, a.units) for a in nav.armies] == [
        ("The Red Vanguard", "Margo", 11),
        ("Moonlight Posse", "Tobias", 10),
        ("The Salty Bilge Crew", "Ines", 9),
    ]
    assert [(b.name, b.status) for b in nav.battles] == [
        ("Skirmish at Baseplate Ford", "finished"),
        ("Raid on Bilge Cove", "in_progress"),
    ]
    assert (
        nav.campaign.players,
        nav.campaign.armies,
        nav.campaign.units,
        nav.campaign.battles,
    ) == (3, 3, 30, 2)


def test_every_edit_moves_the_campaign_updated_time(sv: Services, camp: Camp) -> None:
    before = sv.campaigns.get_campaign(camp.campaign.id).updated_at
    sv.roster.add_units(camp.red_army.id, "minifig", 1)
    assert sv.campaigns.get_campaign(camp.campaign.id).updated_at > before
