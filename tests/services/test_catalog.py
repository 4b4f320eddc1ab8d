"""A campaign's catalog: house rules stored apart from the defaults, validated, reversible."""

from __future__ import annotations

import pytest

from brikdesk.domain.roster import Loadout
from brikdesk.errors import UserError
from brikdesk.services import Changes, Services
from brikdesk.services.summaries import CampaignPatch
from tests.services.conftest import Camp


def entry(sv: Services, campaign_id: int, key: str):
    view = sv.catalog.view(campaign_id)
    return next(e for e in (*view.items, *view.unit_types) if e.key == key)


def test_a_new_campaign_has_the_rules_catalog_and_no_house_rules(sv: Services, camp: Camp) -> None:
    view = sv.catalog.view(camp.campaign.id)
    assert "long-ranged-weapon" in {e.key for e in view.items}
    assert "hero" in {e.key for e in view.unit_types}
    assert not any(e.house_rule for e in (*view.items, *view.unit_types))


def test_setting_a_field_makes_a_house_rule_and_changes_costs(sv: Services, camp: Camp) -> None:
    sv.roster.add_unit(
        camp.red_army.id, "minifig", name="Rifleman", loadout=Loadout(("long-ranged-weapon",))
    )
    done = sv.catalog.set_item_field(camp.campaign.id, "long-ranged-weapon", "cost", "7")
    assert done.changes == Changes.CATALOG | Changes.UNITS
    e = entry(sv, camp.campaign.id, "long-ranged-weapon")
    assert (e.entry.cost, e.default.cost, e.changed, e.house_rule, e.custom) == (
        7,
        5,
        ("cost",),
        True,
        False,
    )
    assert sv.roster.roster(camp.red_army.id).units[0].cost == 4 + 7
    done.undo()
    assert not entry(sv, camp.campaign.id, "long-ranged-weapon").house_rule
    assert sv.roster.roster(camp.red_army.id).units[0].cost == 4 + 5
    done.redo()
    assert entry(sv, camp.campaign.id, "long-ranged-weapon").entry.cost == 7


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("damage", "2d", "write dice like"),
        ("use", "21", "Use is '-'"),
        ("range", "far", "Range is 'CC'"),
        ("hands", "3", "Hands is 0"),
        ("half_speed", "yes", "either on or off"),
        ("category", "cake", "not a category"),
        ("sharpness", "3", "not a field that can be edited"),
    ],
)
def test_bad_field_values_are_refused_and_nothing_is_stored(
    sv: Services, camp: Camp, field, value, message
) -> None:
    with pytest.raises(UserError, match=message):
        sv.catalog.set_item_field(camp.campaign.id, "hand-weapon", field, value)
    assert not entry(sv, camp.campaign.id, "hand-weapon").house_rule


def test_range_and_flags_are_set_as_the_user_types_them(sv: Services, camp: Camp) -> None:
    cid = camp.campaign.id
    sv.catalog.set_item_field(cid, "hand-weapon", "range", '4"')
    sv.catalog.set_item_field(cid, "hand-weapon", "half_speed", True)
    sv.catalog.set_item_field(cid, "hand-weapon", "damage", "1dA + 1")
    e = entry(sv, cid, "hand-weapon")
    assert (e.entry.range_inches, e.entry.close_combat, e.entry.half_speed, e.entry.damage) == (
        4,
        False,
        True,
        "1dA+1",
    )
    assert set(e.changed) == {"range_inches", "close_combat", "half_speed", "damage"}
    sv.catalog.reset_item_field(cid, "hand-weapon", "range")
    assert set(entry(sv, cid, "hand-weapon").changed) == {"half_speed", "damage"}


def test_reset_to_the_rules_value_drops_the_house_rule(sv: Services, camp: Camp) -> None:
    cid = camp.campaign.id
    with pytest.raises(UserError, match="already has the rules' value"):
        sv.catalog.reset_item(cid, "shield")
    sv.catalog.set_item_field(cid, "shield", "use", "1")
    done = sv.catalog.reset_item(cid, "shield")
    assert not entry(sv, cid, "shield").house_rule
    done.undo()
    assert entry(sv, cid, "shield").entry.use == 1


def test_editing_every_value_back_is_no_house_rule(sv: Services, camp: Camp) -> None:
    cid = camp.campaign.id
    sv.catalog.set_item_field(cid, "shield", "cost", "3")
    sv.catalog.set_item_field(cid, "shield", "cost", "1")
    assert not entry(sv, cid, "shield").house_rule
    with pytest.raises(UserError, match="already has the rules' value"):
        sv.catalog.reset_item(cid, "shield")


def test_custom_items_are_added_marked_used_and_deleted(sv: Services, camp: Camp) -> None:
    cid = camp.campaign.id
    done = sv.catalog.add_custom_item(cid, "Laser Pike", based_on="two-handed-weapon")
    key = done.value.key
    assert key == "laser-pike"
    e = entry(sv, cid, key)
    assert e.custom and e.house_rule and e.entry.damage == "2dA" and e.entry.name == "Laser Pike"
    sv.catalog.set_item_field(cid, key, "damage", "2dA+2")
    [uid] = sv.roster.add_unit(camp.red_army.id, "minifig", loadout=Loadout((key,))).value
    assert sv.roster.unit_rows([uid])[0].hands == ("Laser Pike",)
    gone = sv.catalog.delete_custom_item(cid, key)
    # The unit keeps the key and the roster says it is unknown (a warning, not a refusal).
    row = sv.roster.unit_rows([uid])[0]
    assert row.hands == ("laser-pike?",) and "unknown item 'laser-pike'" in row.warnings_text
    gone.undo()
    assert entry(sv, cid, key).entry.damage == "2dA+2"
    with pytest.raises(UserError, match="in the rules and can't be deleted"):
        sv.catalog.delete_custom_item(cid, "shield")
    with pytest.raises(UserError, match="custom item: it has no rules' value"):
        sv.catalog.reset_item(cid, key)


def test_a_second_custom_item_of_the_same_name_gets_its_own_key(sv: Services, camp: Camp) -> None:
    a = sv.catalog.add_custom_item(camp.campaign.id, "Shield").value
    b = sv.catalog.add_custom_item(camp.campaign.id, "Shield").value
    assert (a.key, b.key) == ("shield-2", "shield-3")


def test_unit_types_are_edited_like_items(sv: Services, camp: Camp) -> None:
    cid = camp.campaign.id
    [uid] = sv.roster.add_unit(camp.red_army.id, "minifig").value
    sv.catalog.set_unit_type_field(cid, "minifig", "action_die", "d8")
    sv.catalog.set_unit_type_field(cid, "minifig", "armor", "5")
    row = sv.roster.unit_rows([uid])[0]
    assert (row.action_die, row.armor) == (8, "5")
    with pytest.raises(UserError, match="Action die is one of"):
        sv.catalog.set_unit_type_field(cid, "minifig", "action_die", "d7")
    sv.catalog.add_custom_unit_type(cid, "Robot", based_on="heavy")
    assert entry(sv, cid, "robot").entry.armor == "5"
    sv.catalog.reset_unit_type(cid, "minifig")
    assert sv.roster.unit_rows([uid])[0].action_die == 6


def test_house_rules_belong_to_one_campaign(sv: Services, camp: Camp) -> None:
    other = sv.campaigns.create_campaign("Other").value
    sv.catalog.set_item_field(camp.campaign.id, "explosive", "cost", "4")
    assert sv.catalog.catalog(other.id).item("explosive").cost == 1
    assert sv.catalog.catalog(camp.campaign.id).item("explosive").cost == 4


def test_the_cost_system_names_the_units_of_the_total(sv: Services, camp: Camp) -> None:
    sv.campaigns.update_campaign(camp.campaign.id, CampaignPatch(cost_system="Unit Inches"))
    sv.roster.add_units(camp.red_army.id, "hero", 3)
    roster = sv.roster.roster(camp.red_army.id)
    assert roster.cost_unit == "Unit Inches"
    assert roster.warnings[0].message == (
        "over budget by 3 Unit Inches (33 Unit Inches of 30 Unit Inches)"
    )
