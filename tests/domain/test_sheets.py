"""The roster sheet's content: cards, folding, stats with equipment, reference appendix."""

from __future__ import annotations

import datetime as dt

import pytest

from brikdesk.domain.catalog import load_default_catalog
from brikdesk.domain.roster import Loadout, RosterWarning, UnitOverrides, UnitSpec
from brikdesk.domain.sheets import (
    READINGS,
    RosterSheetOptions,
    SheetHeader,
    build_roster_sheet,
    short_notes,
)
from brikdesk.errors import UserError

CAT = load_default_catalog("2020")


def unit(name, kind="minifig", hands=(), worn=(), carried=(), notes="", **overrides):
    return UnitSpec(
        name, kind, Loadout(hands, worn, carried), UnitOverrides(**overrides), notes=notes
    )


def header(**kw):
    kw.setdefault("army", "Red Raiders")
    return SheetHeader(**kw)


def build(units, **opts):
    campaign_notes = opts.pop("campaign_notes", None)
    hdr = opts.pop("header", header())
    return build_roster_sheet(
        hdr, units, CAT, RosterSheetOptions(**opts), campaign_notes=campaign_notes
    )


def card_by_title(sheet, title):
    matches = [c for c in sheet.cards if c.title == title]
    assert len(matches) == 1, [c.title for c in sheet.cards]
    return matches[0]


# --------------------------------------------------------------------------- options, header


def test_options_accept_paper_in_any_case_and_refuse_others():
    assert RosterSheetOptions(paper="Letter").paper == "letter"
    with pytest.raises(UserError) as err:
        RosterSheetOptions(paper="a5")
    assert err.value.field == "paper"
    assert "A4 or Letter" in str(err.value)


@pytest.mark.parametrize("turns", [0, 13, 2.5, True])
def test_options_refuse_turns_outside_1_to_12(turns):
    with pytest.raises(UserError) as err:
        RosterSheetOptions(turns=turns)
    assert err.value.field == "turns"


def test_options_refuse_negative_blank_cards():
    with pytest.raises(UserError):
        RosterSheetOptions(blank_cards=-1)


def test_header_refuses_a_colour_that_is_not_hex_and_an_empty_army():
    with pytest.raises(UserError):
        header(colour="red")
    with pytest.raises(UserError):
        SheetHeader(army="  ")


def test_header_texts_come_from_the_given_date_and_catalog():
    sheet = build(
        [unit("Al", hands=("hand-weapon",))], header=header(budget=10, date=dt.date(2025, 3, 1))
    )
    h = sheet.header
    assert h.date_text == "2025-03-01"
    assert h.edition_text == "BrikWars 2020"
    # Minifig 4 CP + Hand Weapon 2 CP (chapters 2 and 3, the unit and weapon tables)
    assert h.total_cost == 6
    assert h.cost_text == "6 / 10 CP"
    assert header().date_text == ""  # no date given, none invented


def test_header_cost_without_budget():
    sheet = build([unit("Al", hands=("shield",))])
    assert sheet.header.cost_text == "5 CP"


# --------------------------------------------------------------------------- cards


def test_card_shows_worn_armour_applied_and_explains_it():
    sheet = build(
        [
            unit("Knight", hands=("hand-weapon", "shield"), worn=("body-armor",)),
            unit("Captain", "hero", hands=("hand-weapon",), worn=("body-armor",)),
        ]
    )
    knight = card_by_title(sheet, "Knight")
    assert knight.armor == "6"
    assert knight.armor_detail == "4 Minifig + 2 Body Armor worn"
    assert "can't swim" in knight.traits
    captain = card_by_title(sheet, "Captain")
    assert captain.armor == "2d6+2"
    assert captain.action_die == "d10"
    assert captain.move == '7"'


def test_armour_detail_starts_from_the_units_own_armor():
    sheet = build([unit("Tank", worn=("body-armor",), armor="5")])
    assert (sheet.cards[0].armor, sheet.cards[0].armor_detail) == (
        "7",
        "5 own Armor + 2 Body Armor worn",
    )


def test_item_lines_resolve_the_wielders_action_die():
    sheet = build(
        [
            unit("Captain", "hero", hands=("hand-weapon",)),
            unit("Brute", "heavy", hands=("two-handed-weapon",)),
            unit("Sarge", hands=("heavy-weapon", "shield")),
        ]
    )
    assert card_by_title(sheet, "Captain").items[0].damage == "1d10"
    assert card_by_title(sheet, "Brute").items[0].damage == "2d6"
    sarge = card_by_title(sheet, "Sarge").items
    assert [i.damage for i in sarge] == ["1d6+2", "Parry"]


def test_item_lines_show_thrown_use_and_range():
    sheet = build([unit("Gus", hands=("hand-weapon",), carried=("explosive",))])
    sword, grenade = card_by_title(sheet, "Gus").items
    assert (sword.use, sword.range) == ("2", 'CC; thrown 3"')
    assert (grenade.use, grenade.range, grenade.damage) == ("1 thrown", '3" thrown', "1d10 Exp")
    assert grenade.where == "carried"
    assert 'Explosion 2"' in grenade.notes


def test_card_notes_are_short_and_the_appendix_keeps_the_full_text():
    pike = CAT.item("two-handed-weapon")
    assert short_notes(pike) == 'Pike, halberd; 1" KnockBack; Charging'
    sheet = build([unit("Pete", hands=("two-handed-weapon",))])
    assert sheet.reference.items[0].notes == pike.notes


def test_counters_give_tick_rows():
    sheet = build(
        [
            unit("Rifle", hands=("long-ranged-weapon",)),
            unit("Sword", hands=("hand-weapon", "shield")),
        ]
    )
    assert card_by_title(sheet, "Rifle").tick_rows == ("Action", "Counter", "Dead")
    assert card_by_title(sheet, "Sword").tick_rows == ("Action", "Counter 1", "Counter 2", "Dead")


def test_incompetent_and_cannon_fodder_never_go_over_the_top():
    sheet = build(
        [
            unit("Zed", "incompetent", hands=("random-object",)),
            unit("Fred", "cannon-fodder", hands=("minifig-tool",)),
            unit("Al", hands=("hand-weapon",)),
        ]
    )
    assert "never Over the Top" in card_by_title(sheet, "Zed").traits
    assert "never Over the Top" in card_by_title(sheet, "Fred").traits
    assert "never Over the Top" not in card_by_title(sheet, "Al").traits


def test_campaign_notes_and_unit_notes_reach_the_card():
    sheet = build(
        [unit("Rock", hands=("long-ranged-weapon",), notes="Sharpshooter")],
        campaign_notes={"Rock": "Lost an arm at Brick Hill"},
    )
    rock = sheet.cards[0]
    assert rock.notes == "Sharpshooter"
    assert rock.campaign_notes == "Lost an arm at Brick Hill"


def test_an_unknown_unit_type_is_a_user_error():
    with pytest.raises(UserError, match="unknown unit type 'dragon'"):
        build([unit("Puff", "dragon")])


# --------------------------------------------------------------------------- folding


def six_riflemen():
    return [unit(f"Rifleman {i}", hands=("long-ranged-weapon",)) for i in range(1, 7)]


def test_identical_units_fold_into_one_card_with_a_count():
    sheet = build([*six_riflemen(), unit("Sarge", hands=("hand-weapon",))])
    assert len(sheet.cards) == 2
    group = sheet.cards[0]
    assert group.title == "x6 Minifig with Long-Ranged Weapon"
    assert group.count == 6
    assert group.members == tuple(f"Rifleman {i}" for i in range(1, 7))
    # Minifig 4 CP + Long-Ranged Weapon 5 CP = 9 CP each
    assert group.cost_text == "6 x 9 = 54 CP"
    assert sheet.unit_count == 7
    assert sheet.header.total_cost == 54 + 6


def test_folding_off_keeps_one_card_per_unit():
    sheet = build(six_riflemen(), fold_identical=False)
    assert [c.title for c in sheet.cards] == [f"Rifleman {i}" for i in range(1, 7)]
    assert all(c.count == 1 and c.cost_text == "9 CP" for c in sheet.cards)


def test_units_differing_in_anything_but_name_do_not_fold():
    units = [
        unit("A", hands=("long-ranged-weapon",)),
        unit("B", hands=("long-ranged-weapon",), notes="scout"),
        unit("C", hands=("long-ranged-weapon",), move=6),
        unit("D", hands=("long-ranged-weapon",)),
        unit("E", hands=("long-ranged-weapon",)),
    ]
    sheet = build(units, campaign_notes={"E": "wounded"})
    assert [c.members for c in sheet.cards] == [("A", "D"), ("B",), ("C",), ("E",)]
    assert sheet.cards[0].title == "x2 Minifig with Long-Ranged Weapon"


def test_folded_title_lists_every_item():
    units = [
        unit(f"K{i}", "hero", hands=("hand-weapon", "shield"), worn=("body-armor",))
        for i in range(3)
    ]
    assert build(units).cards[0].title == "x3 Hero with Hand Weapon, Shield and Body Armor"


# --------------------------------------------------------------------------- reference appendix

GENERAL = {
    "size_large",
    "size_small",
    "size_tiny",
    "out_of_range",
    "firing_blind",
    "disrupted",
    "inanimate",
    "outnumbered",
}


def modifier_keys(sheet):
    return {r.key for r in sheet.reference.modifiers}


def test_reference_keeps_general_rows_and_leaves_out_unused_ones():
    sheet = build([unit("Bob", hands=("shield", "random-object"))])
    assert modifier_keys(sheet) == GENERAL
    assert [i.name for i in sheet.reference.items] == ["Shield", "Random Object"]


def test_two_handed_parry_row_only_with_a_two_handed_close_combat_weapon():
    rifle = build([unit("R", hands=("long-ranged-weapon",))])
    assert "parry_two_handed" not in modifier_keys(rifle)  # two-handed, but not Close Combat
    pike = build([unit("P", hands=("two-handed-weapon",))])
    assert "parry_two_handed" in modifier_keys(pike)
    row = next(r for r in pike.reference.modifiers if r.key == "parry_two_handed")
    assert (row.value, row.rule) == ("+1", "5.2 Parry")


def test_charge_row_only_with_a_charging_weapon():
    assert "charge" not in modifier_keys(build([unit("S", hands=("hand-weapon",))]))
    heavy = build([unit("H", hands=("heavy-weapon",))])
    assert "charge" in modifier_keys(heavy)
    assert "parry_two_handed" not in modifier_keys(heavy)


def test_height_advantage_only_with_a_weapon_that_has_a_range():
    assert "height" in modifier_keys(build([unit("R", hands=("short-ranged-weapon",))]))
    assert "height" in modifier_keys(build([unit("T", hands=("hand-weapon",))]))  # thrown 3"
    assert "height" not in modifier_keys(build([unit("M", hands=("minifig-tool",))]))


def test_item_table_lists_used_items_once_in_catalog_order():
    sheet = build(
        [
            unit("A", hands=("long-ranged-weapon",), carried=("explosive",)),
            unit("B", hands=("hand-weapon", "shield"), worn=("body-armor",)),
            unit("C", hands=("hand-weapon",)),
        ]
    )
    assert [i.name for i in sheet.reference.items] == [
        "Hand Weapon",
        "Long-Ranged Weapon",
        "Explosive",
        "Shield",
        "Body Armor",
    ]
    sword = sheet.reference.items[0]
    assert (sword.cost, sword.damage) == ("2", "1dA")  # rules notation in the appendix


def test_over_the_top_and_bonus_dice_in_two_lines():
    lines = build([unit("A", hands=("hand-weapon",))]).reference.dice
    assert [d.key for d in lines] == ["over_the_top", "bonus_dice"]
    assert "natural 6 or more" in lines[0].text
    assert "d4" not in lines[0].text
    with_d4 = build(
        [unit("A", hands=("hand-weapon",)), unit("Z", "incompetent", hands=("random-object",))]
    ).reference.dice
    assert "natural 4 adds a bonus +1d4" in with_d4[0].text


def test_special_rules_follow_the_equipment():
    plain = {r.key for r in build([unit("A", hands=("hand-weapon",))]).reference.special_rules}
    assert plain == {"counters"}
    kit = build(
        [unit("A", hands=("two-handed-weapon",), worn=("heavy-armor",), carried=("explosive",))]
    )
    keys = {r.key for r in kit.reference.special_rules}
    assert keys == {"counters", "deflection", "explosion", "knockback", "half_speed"}


def test_reference_can_be_left_out():
    assert build([unit("A")], include_reference=False).reference is None


# --------------------------------------------------------------------------- warnings, blanks


def test_warnings_from_the_roster_check_when_asked():
    units = [unit("Tom", worn=("body-armor", "heavy-armor"))]
    sheet = build(units, header=header(budget=5))
    texts = [w.text for w in sheet.warnings]
    assert any(t.startswith("Tom: armour stacked") for t in texts)
    assert any("over budget by 2 CP" in t for t in texts)  # 4 + 1 + 2 = 7 CP of 5
    assert build(units, include_warnings=False).warnings == ()


def test_given_warnings_replace_the_roster_check():
    sheet = build_roster_sheet(
        header(),
        [unit("A")],
        CAT,
        RosterSheetOptions(),
        warnings=[RosterWarning(None, "house", "bring dice")],
    )
    assert [w.text for w in sheet.warnings] == ["bring dice (house)"]


def test_blank_cards_count_is_carried():
    assert build([unit("A")], blank_cards=3).blank_cards == 3
    assert build([unit("A")], blank_cards=0).blank_cards == 0


def test_other_editions_build_too():
    cat = load_default_catalog("2005")
    sheet = build_roster_sheet(header(), [unit("Old", hands=("two-handed-weapon",))], cat)
    card = sheet.cards[0]
    assert sheet.header.edition_text == "BrikWars 2005"
    assert card.move == '4"'  # 2005: a Two-Handed Weapon costs 1" of Move
    assert '-1" Move' in card.items[0].notes


def test_readings_are_exposed_for_the_user():
    assert {"fold", "reference", "dead", "counters"} <= set(READINGS)


def test_repeated_items_share_one_line_with_a_count():
    sheet = build(
        [
            unit(
                "Gus",
                hands=("hand-weapon", "hand-weapon"),
                carried=("explosive", "explosive", "explosive"),
            )
        ]
    )
    lines = sheet.cards[0].items
    assert [(i.label, i.count) for i in lines] == [
        ("2 x Hand Weapon", 2),
        ("3 x Explosive (carried)", 3),
    ]
    twins = build([unit(f"T{i}", hands=("hand-weapon", "hand-weapon")) for i in range(2)])
    assert twins.cards[0].title == "x2 Minifig with 2 Hand Weapons"
