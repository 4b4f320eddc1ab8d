"""Unit stats with equipment, costs and roster warnings (chapter 2, the unit table and chapter 3, the weapon table)."""

from __future__ import annotations

import pytest

from brikdesk.domain import catalog as catalog_module
from brikdesk.domain.catalog import CatalogError, CatalogItem, load_default_catalog
from brikdesk.domain.dice import DiceExpr, DiceTerm
from brikdesk.domain.modifiers import Modifier, Stat
from brikdesk.domain.roster import (
    RULE_ARMOR,
    RULE_BUDGET,
    RULE_CATALOG,
    RULE_HANDS,
    RULE_NO_WEAPON,
    RULE_OVERRIDE,
    RULE_TWO_HANDED,
    RULE_WORN,
    CostBreakdown,
    CostLine,
    Loadout,
    RosterWarning,
    UnitOverrides,
    UnitSpec,
    army_total,
    effective_stats,
    unit_cost,
    validate_army,
    validate_unit,
)

CAT = load_default_catalog("2020")
CAT_2005 = load_default_catalog("2005")


def unit(unit_type="minifig", hands=(), worn=(), carried=(), name="Trooper", **overrides):
    return UnitSpec(
        name,
        unit_type,
        Loadout(tuple(hands), tuple(worn), tuple(carried)),
        UnitOverrides(**overrides),
    )


# --------------------------------------------------------------------------- costs


def test_minifig_with_a_rifle_costs_9_cp():
    cost = unit_cost(unit(hands=["long-ranged-weapon"]), CAT)
    assert cost == CostBreakdown(
        (
            CostLine("Minifig", 4, "chapter 2, Units"),
            CostLine("Long-Ranged Weapon (in hand)", 5, "chapter 3, Weapons and equipment"),
        ),
        9,
    )


def test_hero_with_heavy_weapon_shield_and_body_armor_costs_16_cp():
    spec = unit("hero", hands=["heavy-weapon", "shield"], worn=["body-armor"])
    cost = unit_cost(spec, CAT)
    assert [(line.label, line.cost) for line in cost.lines] == [
        ("Hero", 11),
        ("Heavy Weapon (in hand)", 3),
        ("Shield (in hand)", 1),
        ("Body Armor (worn)", 1),
    ]
    assert cost.total == 16


def test_items_without_cost_count_0_and_unknown_keys_are_named():
    spec = unit(hands=["random-object", "laser"], carried=["hand-weapon"])
    cost = unit_cost(spec, CAT)
    assert cost.lines[1] == CostLine(
        "Random Object (in hand)", 0, "chapter 3, Weapons and equipment: no cost ('-')"
    )
    assert cost.lines[2] == CostLine("unknown item 'laser' (in hand)", 0, "catalog: no such item")
    assert cost.lines[3] == CostLine("Hand Weapon (carried)", 2, "chapter 3, Weapons and equipment")
    assert cost.total == 6
    assert unit_cost(unit("ogre"), CAT).lines == (
        CostLine("unknown unit type 'ogre'", 0, "catalog: no such unit type"),
    )


def test_a_units_own_cost_replaces_the_type_cost_but_not_the_equipment():
    cost = unit_cost(unit(hands=["hand-weapon"], cost=7), CAT)
    assert cost.lines[0] == CostLine("Minifig (cost set for this unit)", 7, "unit's own cost")
    assert cost.total == 9


def test_house_rule_costs_say_so():
    cheap = CatalogItem(**{**vars(CAT.item("long-ranged-weapon")), "cost": 4})
    cat = catalog_module.with_house_rules(CAT, {"long-ranged-weapon": cheap}, {})
    cost = unit_cost(unit(hands=["long-ranged-weapon"]), cat)
    assert cost.lines[1] == CostLine("Long-Ranged Weapon (in hand)", 4, "house rule")
    assert cost.total == 8


def test_army_total_is_the_sum_of_the_units():
    units = [
        unit(hands=["long-ranged-weapon"]),
        unit("hero", hands=["heavy-weapon", "shield"], worn=["body-armor"]),
        unit("incompetent", hands=["random-object"]),
        unit("ogre", hands=["laser", "hand-weapon"]),
    ]
    assert army_total(units, CAT) == 9 + 16 + 2 + 2
    assert army_total(units, CAT) == sum(unit_cost(u, CAT).total for u in units)


# --------------------------------------------------------------------------- stats


def test_body_armor_gives_armor_6():
    stats = effective_stats(unit(hands=["hand-weapon"], worn=["body-armor"]), CAT)
    assert (stats.armor, stats.armor_dice) == ("6", 6)
    assert stats.modifiers == (Modifier(2, Stat.ARMOR, "Body Armor worn", "3.3 Bodily Protection"),)
    assert stats.cant_swim and not stats.half_speed and stats.deflection == 0
    assert stats.move == 5


def test_hero_with_body_armor_has_2d6_plus_2():
    stats = effective_stats(unit("hero", worn=["body-armor"]), CAT)
    assert stats.armor == "2d6+2"
    assert stats.armor_dice == DiceExpr((DiceTerm(2, 6),), 2)
    assert effective_stats(unit("hero"), CAT).armor == "2d6"


def test_heavy_armor_gives_half_speed_and_deflection_1():
    stats = effective_stats(unit(worn=["heavy-armor"]), CAT)
    assert (stats.half_speed, stats.deflection, stats.cant_swim, stats.armor, stats.move) == (
        True,
        1,
        True,
        "4",
        5,
    )
    assert "Deflection 1: Heavy Armor worn (3.3 Bodily Protection)" in stats.reasons
    assert "Half Speed: Heavy Armor worn (4.1 Movement)" in stats.reasons


def test_a_shield_gives_no_standing_deflection():
    stats = effective_stats(unit(hands=["hand-weapon", "shield"]), CAT)
    assert stats.deflection == 0


def test_armor_carried_but_not_worn_protects_nothing():
    stats = effective_stats(unit(carried=["body-armor"]), CAT)
    assert stats.armor == "4" and stats.cant_swim


def test_2005_move_penalties():
    assert effective_stats(unit(worn=["body-armor"]), CAT_2005).move == 4
    stats = effective_stats(unit(hands=["two-handed-weapon"], worn=["body-armor"]), CAT_2005)
    assert (stats.move, stats.armor) == (3, "6")
    assert [m for m in stats.modifiers if m.applies_to is Stat.MOVE] == [
        Modifier(-1, Stat.MOVE, "Two-Handed Weapon in hand", "chapter 3, Weapons and equipment"),
        Modifier(-1, Stat.MOVE, "Body Armor worn", "chapter 3, Weapons and equipment"),
    ]


@pytest.mark.parametrize(
    "unit_type,hands,counters",
    [
        ("minifig", [], 2),
        ("minifig", [None, None], 2),
        ("minifig", ["hand-weapon"], 2),
        ("minifig", ["hand-weapon", "shield"], 2),
        ("minifig", ["long-ranged-weapon"], 1),
        ("minifig", ["long-ranged-weapon", None], 1),
        ("minifig", ["hand-weapon", "hand-weapon", "hand-weapon"], 2),
        ("horse", [], 0),
    ],
)
def test_counters_one_per_weapon_or_empty_hand(unit_type, hands, counters):
    assert effective_stats(unit(unit_type, hands=hands), CAT).counters == counters


@pytest.mark.parametrize(
    "spec,expected",
    [
        (unit("minifig"), True),
        (unit("hero"), True),
        (unit("incompetent"), False),
        (unit("cannon-fodder"), False),
        (unit("minifig", action_die=4), False),
        (unit("incompetent", action_die=6), False),
    ],
)
def test_over_the_top(spec, expected):
    assert effective_stats(spec, CAT).over_the_top is expected


def test_overrides_replace_the_type_values():
    stats = effective_stats(unit(action_die=8, move=6, armor="5", worn=["body-armor"]), CAT)
    assert (stats.action_die, stats.move, stats.armor) == (8, 6, "7")


def test_stats_of_an_unknown_type_or_bad_armor_are_refused():
    with pytest.raises(CatalogError, match="unit 'Trooper': unknown unit type 'ogre'"):
        effective_stats(unit("ogre"), CAT)
    with pytest.raises(
        CatalogError, match="unit 'Trooper', field 'armor': Armor dice can't use dA"
    ):
        effective_stats(unit(armor="1dA"), CAT)


# --------------------------------------------------------------------------- warnings


def test_a_well_equipped_unit_has_no_warnings():
    assert validate_unit(unit(hands=["long-ranged-weapon"], worn=["body-armor"]), CAT) == ()


def test_heavy_weapon_with_a_shield_is_allowed():
    spec = unit("hero", hands=["heavy-weapon", "shield"], worn=["body-armor"])
    assert validate_unit(spec, CAT) == ()


def test_more_items_in_hand_than_hands():
    spec = unit(hands=["hand-weapon", "shield", "minifig-tool"], name="Juggler")
    assert validate_unit(spec, CAT) == (
        RosterWarning("Juggler", RULE_HANDS, "3 items in hand, but a Minifig has 2 hands"),
    )


def test_a_two_handed_item_with_anything_else_in_hand():
    spec = unit(hands=["long-ranged-weapon", "short-ranged-weapon"], name="Gunner")
    assert validate_unit(spec, CAT) == (
        RosterWarning(
            "Gunner",
            RULE_TWO_HANDED,
            "Long-Ranged Weapon takes both hands, but Short-Ranged Weapon is also in hand",
        ),
    )
    twice = unit(hands=["two-handed-weapon", "two-handed-weapon"], name="Pikes")
    assert validate_unit(twice, CAT)[0].message == (
        "Two-Handed Weapon takes both hands, but Two-Handed Weapon is also in hand"
    )


def test_a_horse_holds_nothing_and_needs_no_weapon():
    assert validate_unit(unit("horse", name="Dobbin"), CAT) == ()
    assert validate_unit(unit("horse", hands=["hand-weapon"], name="Dobbin"), CAT) == (
        RosterWarning("Dobbin", RULE_HANDS, "1 item in hand, but a Horse has 0 hands"),
    )


@pytest.mark.parametrize("worn", [["body-armor", "body-armor"], ["body-armor", "heavy-armor"]])
def test_armour_stacked(worn):
    warnings = validate_unit(unit(hands=["hand-weapon"], worn=worn, name="Tin Can"), CAT)
    names = " and ".join(CAT.item(k).name for k in worn)
    assert warnings == (
        RosterWarning(
            "Tin Can",
            RULE_ARMOR,
            f"armour stacked: {names} worn together; a unit wears one suit of armour",
        ),
    )


def test_no_weapon_only_bare_hands():
    expected = RosterWarning(
        "Pacifist", RULE_NO_WEAPON, "no weapon: only Bare Hands (it can still Shove or Grab)"
    )
    assert validate_unit(unit(name="Pacifist"), CAT) == (expected,)
    assert validate_unit(unit(hands=["shield"], name="Pacifist"), CAT) == (expected,)
    assert validate_unit(unit(hands=["bare-hands"], name="Pacifist"), CAT) == (expected,)
    # a weapon carried (holstered) counts: drawing it is free (4.1)
    assert validate_unit(unit(carried=["hand-weapon"], name="Pacifist"), CAT) == ()


def test_unknown_type_and_item_keys_are_named():
    warnings = validate_unit(unit("ogre", hands=["laser"], worn=["cape"], name="Grok"), CAT)
    assert warnings[:3] == (
        RosterWarning("Grok", RULE_CATALOG, "unknown unit type 'ogre'"),
        RosterWarning("Grok", RULE_CATALOG, "unknown item 'laser' (in hand)"),
        RosterWarning("Grok", RULE_CATALOG, "unknown item 'cape' (worn)"),
    )


def test_armour_is_worn_not_held_and_weapons_are_not_worn():
    warnings = validate_unit(unit(hands=["body-armor"], worn=["hand-weapon"], name="Oops"), CAT)
    assert RosterWarning("Oops", RULE_WORN, "Body Armor is worn, not held: move it to worn") in (
        warnings
    )
    assert RosterWarning("Oops", RULE_WORN, "Hand Weapon is not worn: hold it or carry it") in (
        warnings
    )


def test_overrides_outside_the_rules_are_flagged():
    warnings = validate_unit(
        unit(hands=["hand-weapon"], action_die=7, armor="lots", name="Odd"), CAT
    )
    assert warnings[0] == RosterWarning(
        "Odd", RULE_OVERRIDE, "Action die d7 is not one of d4, d6, d8, d10, d12"
    )
    assert warnings[1].rule == RULE_OVERRIDE and "Armor is a number" in warnings[1].message


def test_army_over_budget():
    units = [unit(hands=["long-ranged-weapon"], name=f"Rifle {i}") for i in range(3)]
    assert validate_army(units, 27, CAT) == ()
    assert validate_army(units, None, CAT) == ()
    assert validate_army(units, 24, CAT) == (
        RosterWarning(None, RULE_BUDGET, "over budget by 3 CP (27 CP of 24 CP)"),
    )
    mixed = units + [unit(name="Pacifist")]
    warnings = validate_army(mixed, 30, CAT)
    assert [w.unit_name for w in warnings] == ["Pacifist", None]
    assert warnings[1].message == "over budget by 1 CP (31 CP of 30 CP)"
    assert str(warnings[1]) == "Army: over budget by 1 CP (31 CP of 30 CP) (army budget)"


def test_loadout_accepts_lists():
    assert Loadout(["shield"], ["body-armor"], []) == Loadout(("shield",), ("body-armor",))


# --------------------------------------------------------------------------- scale


def big_army(n: int) -> list[UnitSpec]:
    kits = [
        ("minifig", ["long-ranged-weapon"], ["body-armor"], []),
        ("hero", ["heavy-weapon", "shield"], ["body-armor"], []),
        ("skirmisher", ["short-ranged-weapon", "hand-weapon"], [], ["explosive"]),
        ("heavy", ["two-handed-weapon"], ["heavy-armor"], []),
        ("incompetent", [], [], []),
    ]
    return [unit(kits[i % 5][0], *kits[i % 5][1:], name=f"U{i}") for i in range(n)]


def test_ten_thousand_units_without_parsing_dice(monkeypatch):
    units = big_army(10_000)
    for u in units[:5]:  # warm the caches of parsed dice
        effective_stats(u, CAT)

    def no_parsing(text):
        raise AssertionError(f"parsed {text!r} again")

    monkeypatch.setattr(catalog_module, "parse", no_parsing)
    total = army_total(units, CAT)
    warnings = validate_army(units, 100_000, CAT)
    stats = [effective_stats(u, CAT) for u in units]
    assert total == 2000 * (10 + 16 + 10 + 10 + 2)
    assert len(warnings) == 2000  # every Incompetent has no weapon
    assert stats[3].half_speed and stats[1].armor == "2d6+2"


@pytest.mark.parametrize(
    ("hands", "worn", "short"),
    [
        (["hand-weapon", "shield", "minifig-tool"], [], "3 in 2 hands"),
        (["long-ranged-weapon", "shield"], [], "two-handed + other item"),
        (["hand-weapon"], ["body-armor", "heavy-armor"], "armour stacked"),
        ([], [], "no weapon"),
        (["hand-weapon", "body-armor"], [], "Body Armor in hand"),
    ],
)
def test_each_warning_has_a_few_words_for_a_table_cell(hands, worn, short):
    (warning,) = validate_unit(unit(hands=hands, worn=worn), CAT)
    assert warning.short == short == warning.headline
    assert len(warning.short) < len(warning.message)


def test_fitting_items_are_what_the_type_can_hold_or_wear_alone() -> None:
    from brikdesk.domain.catalog import load_default_catalog
    from brikdesk.domain.roster import fitting_items

    cat = load_default_catalog("2020")
    offered = {(where, it.key) for where, it in fitting_items("minifig", cat)}
    assert ("in hand", "long-ranged-weapon") in offered
    assert ("worn", "body-armor") in offered
    assert ("in hand", "body-armor") not in offered  # "Armor is worn" (3.3 Bodily Protection)
    no_hands = next(ut for ut in cat.unit_types if ut.hands == 0)
    assert not any(where == "in hand" for where, _it in fitting_items(no_hands.key, cat))
    assert fitting_items("no-such-type", cat) == ()
