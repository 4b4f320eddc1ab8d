"""The default catalogs (chapter 2, the unit table and chapter 3, the weapon table), their validation, house rules, field editing."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brikdesk.domain import catalog as catalog_module
from brikdesk.domain.catalog import (
    Catalog,
    CatalogError,
    CatalogItem,
    Category,
    Edition,
    UnitType,
    catalog_from_dict,
    catalog_from_json,
    catalog_to_dict,
    house_rule_diff,
    item_from_dict,
    item_to_dict,
    load_default_catalog,
    new_key,
    unit_type_from_dict,
    unit_type_to_dict,
    validate_item_field,
    validate_unit_type_field,
    with_house_rules,
)
from brikdesk.domain.dice import DiceExpr, DiceTerm
from brikdesk.paths import resource_path


def raw(edition: str = "2020") -> dict:
    return json.loads(resource_path(f"catalog-{edition}.json").read_text(encoding="utf-8"))


def item_entry(data: dict, key: str) -> dict:
    return next(e for e in data["items"] if e["key"] == key)


# --------------------------------------------------------------------------- default data

# name: (cost, Use, Range, Damage, hands), as printed in chapter 3, the weapon table
TABLE_2020 = {
    "Hand Weapon": ("2", "2", "CC", "1dA", 1),
    "Heavy Weapon": ("3", "3", "CC", "1dA+2", 1),
    "Two-Handed Weapon": ("4", "4", "CC", "2dA", 2),
    "Short-Ranged Weapon": ("3", "3", '6"', "1d6", 1),
    "Long-Ranged Weapon": ("5", "3", '10"', "1d6+1", 2),
    "Explosive": ("1", "1", '3" thrown', "1d10 Exp", 1),
    "Shield": ("1", "2", "CC", "-", 1),
    "Heavy Shield": ("1", "3", "CC", "-", 1),
    "Body Armor": ("1", "-", "-", "-", 0),
    "Heavy Armor": ("2", "-", "-", "-", 0),
    "Bare Hands": ("-", "0", "CC", "-", 0),
    "Minifig Tool": ("1", "3", "CC", "1dA-1", 1),
    "Random Object": ("-", "4", "CC", "1dA-2", 1),
    "Thrown Object": ("-", "as object", '3" thrown', "as object", 1),
}


def test_2020_items_are_every_row_of_the_weapon_table_with_its_values():
    cat = load_default_catalog()
    shown = {
        it.name: (it.cost_text(), it.use_text(), it.range_text(), it.damage_text(), it.hands)
        for it in cat.items
    }
    assert shown == TABLE_2020


def test_2020_long_ranged_weapon():
    rifle = load_default_catalog(Edition.E2020).item("long-ranged-weapon")
    assert (rifle.cost, rifle.use, rifle.range_inches, rifle.close_combat, rifle.damage) == (
        5,
        3,
        10,
        False,
        "1d6+1",
    )
    assert rifle.two_handed
    assert rifle.damage_expr == DiceExpr((DiceTerm(1, 6),), 1)


def test_2020_item_flags_from_the_table():
    cat = load_default_catalog()
    hand = cat.item("hand-weapon")
    assert (hand.thrown_range, hand.thrown_use) == (3, 2)
    heavy = cat.item("heavy-weapon")
    assert (heavy.knockback, heavy.armor_piercing, heavy.charging, heavy.hands) == (
        1,
        True,
        True,
        1,
    )
    pike = cat.item("two-handed-weapon")
    assert (pike.knockback, pike.charging, pike.hands) == (1, True, 2)
    grenade = cat.item("explosive")
    assert (
        grenade.explosive_radius,
        grenade.knockback,
        grenade.thrown_range,
        grenade.thrown_use,
    ) == (2, 1, 3, 1)
    assert grenade.damage_expr is not None and grenade.damage_expr.explosive
    for key in ("shield", "heavy-shield"):
        s = cat.item(key)
        assert (s.shield, s.parry_deflection, s.deflection, s.category) == (
            True,
            1,
            0,
            Category.SHIELD,
        )
    body = cat.item("body-armor")
    assert (body.armor_bonus, body.cant_swim, body.worn, body.half_speed, body.deflection) == (
        2,
        True,
        True,
        False,
        0,
    )
    plate = cat.item("heavy-armor")
    assert (plate.deflection, plate.half_speed, plate.cant_swim, plate.worn, plate.armor_bonus) == (
        1,
        True,
        True,
        True,
        0,
    )
    assert cat.item("bare-hands").knockback == 2
    assert cat.item("thrown-object").as_object
    assert cat.item("heavy-weapon").damage_expr.resolve(10) == DiceExpr((DiceTerm(1, 10),), 2)


UNITS_2020 = {
    # key: (Action die, Move, Armor, cost, hands, over the top)
    "minifig": (6, 5, "4", 4, 2, True),
    "hero": (10, 7, "2d6", 11, 2, True),
    "incompetent": (4, 5, "4", 2, 2, False),
    "skirmisher": (6, 7, "3", 4, 2, True),
    "heavy": (6, 4, "5", 4, 2, True),
    "cannon-fodder": (6, 5, "0", 2, 2, False),
    "horse": (6, 10, "4", 4, 0, True),
}


def test_2020_unit_types():
    cat = load_default_catalog()
    got = {
        u.key: (u.action_die, u.move, u.armor, u.cost, u.hands, u.over_the_top)
        for u in cat.unit_types
    }
    assert got == UNITS_2020
    assert cat.unit_type("hero").armor_dice == DiceExpr((DiceTerm(2, 6),))


def test_costs_the_rules_leave_to_the_organizer_say_so_in_the_notes():
    cat = load_default_catalog()
    for key in ("incompetent", "skirmisher", "heavy", "cannon-fodder"):
        ut = cat.unit_type(key)
        assert "organizer's choice" in ut.notes
        assert f"default {ut.cost} CP" in ut.notes
    assert "as one minifig" in cat.unit_type("horse").notes


def test_2010_has_the_same_costs_no_2020_specialists_and_skill_die_wording():
    c2010 = load_default_catalog("2010")
    c2020 = load_default_catalog("2020")
    assert c2010.edition is Edition.E2010
    assert [u.key for u in c2010.unit_types] == ["minifig", "hero", "incompetent", "horse"]
    assert {i.key: i.cost for i in c2010.items} == {i.key: i.cost for i in c2020.items}
    for it in c2010.items:
        assert house_rule_diff(c2020.item(it.key), it) in ((), ("notes",))
    assert "Skill die d10" in c2010.unit_type("hero").notes
    assert "Skill die" in c2010.source and "Overskill" in c2010.source


def test_2005_differences():
    c2005 = load_default_catalog("2005")
    c2010 = load_default_catalog("2010")
    assert c2005.item("bare-hands").use == 2
    grenade = c2005.item("explosive")
    assert (grenade.use, grenade.thrown_use, grenade.thrown_range, grenade.thrown_range_dice) == (
        3,
        3,
        None,
        "1d6+2",
    )
    assert grenade.range_text() == '1d6+2" thrown'
    assert c2005.item("body-armor").move_penalty == 1
    assert c2005.item("two-handed-weapon").move_penalty == 1
    diffs = {it.key: set(house_rule_diff(c2010.item(it.key), it)) - {"notes"} for it in c2005.items}
    assert {k: v for k, v in diffs.items() if v} == {
        "bare-hands": {"use"},
        "explosive": {"use", "thrown_use", "thrown_range", "thrown_range_dice"},
        "body-armor": {"move_penalty"},
        "two-handed-weapon": {"move_penalty"},
    }
    assert c2005.unit_types == c2010.unit_types


@pytest.mark.parametrize("edition", list(Edition))
def test_each_file_is_in_canonical_form_and_round_trips(edition):
    cat = load_default_catalog(edition)
    data = raw(edition.value)
    assert catalog_to_dict(cat) == data
    assert catalog_from_dict(catalog_to_dict(cat)) == cat
    assert (data["format"], data["version"], data["edition"], data["cost_unit"]) == (
        "brikdesk-catalog",
        1,
        edition.value,
        "CP",
    )
    assert cat.source == data["source"] and cat.source


def test_load_is_cached_and_accepts_text_or_edition():
    assert load_default_catalog("2005") is load_default_catalog(Edition.E2005)
    assert load_default_catalog() is load_default_catalog("2020")


def test_unknown_edition_is_refused_naming_the_known_ones():
    with pytest.raises(
        CatalogError, match="unknown rules edition '1999'; BrikDesk knows 2020, 2010, 2005"
    ):
        load_default_catalog("1999")


def test_entries_round_trip_including_house_rule_marks():
    cat = load_default_catalog()
    for it in cat.items:
        assert item_from_dict(item_to_dict(it)) == it
    for ut in cat.unit_types:
        assert unit_type_from_dict(unit_type_to_dict(ut)) == ut
    marked = CatalogItem(
        "laser", "Laser", Category.WEAPON, 6, 3, 12, False, "1d10", 2, house_rule=True
    )
    assert item_to_dict(marked)["house_rule"] is True
    assert item_from_dict(item_to_dict(marked)) == marked


# --------------------------------------------------------------------------- broken files


def refused(data, **kw) -> str:
    with pytest.raises(CatalogError) as info:
        catalog_from_dict(data, source="catalog-2020.json", **kw)
    return str(info.value)


def test_missing_field_is_named_with_the_entry():
    data = raw()
    del item_entry(data, "heavy-weapon")["damage"]
    assert refused(data) == ("catalog-2020.json, item 'heavy-weapon': missing field 'damage'")


def test_bad_damage_says_why_and_where():
    data = raw()
    item_entry(data, "heavy-weapon")["damage"] = "2d"
    assert refused(data) == (
        "catalog-2020.json, item 'heavy-weapon', field 'damage': '2d' is "
        "not a dice expression: missing number of sides after 'd' at "
        "column 3"
    )


def test_duplicate_key_is_refused():
    data = raw()
    data["items"].append(copy.deepcopy(item_entry(data, "shield")))
    assert refused(data) == (
        "catalog-2020.json, item 'shield', field 'key': duplicate key 'shield' (item #7 and #15)"
    )


def test_wrong_format_name_is_refused():
    data = raw()
    data["format"] = "brikdesk-roster"
    assert refused(data) == (
        "catalog-2020.json: this is not a BrikDesk catalog: 'format' is "
        "'brikdesk-roster', expected 'brikdesk-catalog'"
    )
    del data["format"]
    assert "missing field 'format'" in refused(data)


@pytest.mark.parametrize(
    "key,field,value,reason",
    [
        ("shield", "use", 21, "must be from 0 to 20, not 21"),
        ("shield", "use", "2", "must be null (-) or a whole number from 0 to 20, not '2'"),
        ("shield", "use", True, "must be null (-) or a whole number from 0 to 20, not true"),
        ("shield", "cost", -1, "must be from 0 to 999, not -1"),
        ("shield", "cost", 1.5, "must be null (-) or a whole number from 0 to 999, not 1.5"),
        ("shield", "hands", 3, "must be from 0 to 2, not 3"),
        ("shield", "hands", None, "must be a whole number from 0 to 2, not null"),
        (
            "shield",
            "category",
            "sword",
            "must be one of weapon, shield, armor, equipment, object, not 'sword'",
        ),
        ("shield", "close_combat", "yes", "must be true or false, not 'yes'"),
        ("shield", "range_inches", 0, "must be from 1 to 200, not 0"),
        ("shield", "name", " ", "must not be empty"),
        (
            "shield",
            "damage",
            6,
            'must be a dice expression as text ("1dA+2") or "" for none, not 6',
        ),
        ("body-armor", "hands", 1, "a worn item takes no hands (set hands to 0)"),
        (
            "short-ranged-weapon",
            "close_combat",
            True,
            "an item has a Range in inches or is Close Combat (CC), not both",
        ),
    ],
)
def test_bad_item_values_are_refused_with_the_reason(key, field, value, reason):
    data = raw()
    item_entry(data, key)[field] = value
    shown_field = "range_inches" if "not both" in reason else field
    assert refused(data) == f"catalog-2020.json, item '{key}', field '{shown_field}': {reason}"


def test_unknown_field_suggests_the_close_one():
    data = raw()
    item_entry(data, "shield")["dammage"] = "1d6"
    assert refused(data) == (
        "catalog-2020.json, item 'shield': unknown field 'dammage' (did you mean 'damage'?)"
    )


@pytest.mark.parametrize(
    "field,value,reason",
    [
        ("action_die", 7, "must be one of the Action dice 4, 6, 8, 10, 12, not 7"),
        ("armor", "2dA", "Armor dice can't use dA (the Action die)"),
        ("armor", 4, 'must be text such as "4" or "2d6", not 4'),
        ("armor", "100", "Armor is at most 99, not 100"),
        ("move", -1, "must be from 0 to 100, not -1"),
        ("hands", 7, "must be from 0 to 6, not 7"),
        (
            "key",
            "Hero Unit",
            "'Hero Unit' is not a key: use lowercase letters, digits, hyphens and "
            "underscores (like 'hand-weapon'), at most 64 characters",
        ),
    ],
)
def test_bad_unit_type_values_are_refused(field, value, reason):
    data = raw()
    data["unit_types"][1][field] = value
    entry = "unit type 'hero'" if field != "key" else "unit type #2"
    assert refused(data) == f"catalog-2020.json, {entry}, field '{field}': {reason}"


def test_catalog_level_problems():
    data = raw()
    data["version"] = 2
    assert refused(data) == (
        "catalog-2020.json: catalog version 2 was written by a newer "
        "BrikDesk; this one reads version 1"
    )
    data["version"] = "1"
    assert "'version' must be a whole number from 1, not '1'" in refused(data)
    data = raw()
    data["edition"] = "1999"
    assert "'edition' must be one of 2020, 2010, 2005, not '1999'" in refused(data)
    data = raw()
    data["items"] = {"shield": {}}
    assert refused(data) == "catalog-2020.json: 'items' must be a list, not an object"
    data = raw()
    data["items"][2] = "sword"
    assert refused(data) == (
        "catalog-2020.json, item #3: must be an object with fields, not 'sword'"
    )
    data = raw()
    data["extra"] = 1
    assert refused(data) == "catalog-2020.json: unknown field 'extra'"
    assert "must be a JSON object" in refused([1, 2])


def test_json_text_problems_name_the_line_and_fields_written_twice():
    with pytest.raises(CatalogError, match=r"x\.json: not valid JSON: .* at line 2, column"):
        catalog_from_json('{"format": "brikdesk-catalog",\n "version": }', source="x.json")
    text = json.dumps(raw()).replace('"use": 2,', '"use": 2, "use": 3,', 1)
    with pytest.raises(CatalogError, match="the field 'use' appears twice in one object"):
        catalog_from_json(text, source="x.json")


@pytest.fixture
def fresh_loader(monkeypatch, tmp_path):
    """Default catalogs read from tmp_path, with the loader's cache emptied around the test."""
    catalog_module._load_default.cache_clear()
    monkeypatch.setattr("brikdesk.paths.resource_path", lambda name: tmp_path / name)
    yield tmp_path
    catalog_module._load_default.cache_clear()


def test_loader_refuses_a_file_holding_another_edition(fresh_loader):
    (fresh_loader / "catalog-2010.json").write_text(json.dumps(raw("2020")), encoding="utf-8")
    with pytest.raises(CatalogError, match="catalog-2010.json: holds the 2020 edition, not 2010"):
        load_default_catalog("2010")


def test_loader_names_a_missing_file(fresh_loader):
    with pytest.raises(CatalogError, match="catalog-2005.json: cannot be read"):
        load_default_catalog("2005")


# --------------------------------------------------------------------------- fuzzing

LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-1000, 1000)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(
        [
            "2d",
            "1dA+2",
            "1d10 Exp",
            "",
            "CC",
            "-",
            "2020",
            "weapon",
            "brikdesk-catalog",
            "shield",
            "hero",
            "d6",
            "2d6+2",
            "Exp",
        ]
    )
)
JSONISH = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=10), inner, max_size=3)
    ),
    max_leaves=6,
)


def _containers(obj, path=()):
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _containers(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _containers(v, path + (i,))


BASE = raw()
VALUES_BY_FIELD: dict[str, list] = {}
for _entry in BASE["items"] + BASE["unit_types"]:
    for _name, _value in _entry.items():
        VALUES_BY_FIELD.setdefault(_name, []).append(_value)
FIELD_NAMES = sorted(
    {k for e in BASE["items"] + BASE["unit_types"] for k in e}
    | {"house_rule", "parry_deflection", "over_the_top", "format"}
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_catalogs_are_refused_with_catalog_error_or_round_trip(data):
    doc = copy.deepcopy(BASE)
    for _ in range(data.draw(st.integers(1, 3))):
        spots = [(p, o) for p, o in _containers(doc) if isinstance(o, dict | list)]
        path, target = data.draw(st.sampled_from(spots))
        action = data.draw(st.sampled_from(["replace", "delete", "add", "duplicate"]))
        if isinstance(target, dict):
            keys = list(target)
            if action == "add" or not keys:
                target[data.draw(st.sampled_from(FIELD_NAMES) | st.text(max_size=8))] = data.draw(
                    JSONISH
                )
            else:
                k = data.draw(st.sampled_from(keys))
                if action == "delete":
                    del target[k]
                elif action == "duplicate" and k in VALUES_BY_FIELD:
                    # a value this field has elsewhere: often valid, sometimes not here
                    target[k] = data.draw(st.sampled_from(VALUES_BY_FIELD[k]))
                else:
                    target[k] = data.draw(JSONISH)
        else:
            if action == "add" or not target:
                target.append(data.draw(JSONISH))
            else:
                i = data.draw(st.integers(0, len(target) - 1))
                if action == "delete":
                    del target[i]
                elif action == "duplicate":
                    target.append(copy.deepcopy(target[i]))
                else:
                    target[i] = data.draw(JSONISH)
    try:
        cat = catalog_from_dict(doc)
    except CatalogError as exc:
        assert str(exc)
        return
    assert isinstance(cat, Catalog)
    assert catalog_from_dict(catalog_to_dict(cat)) == cat


# --------------------------------------------------------------------------- house rules


def test_house_rules_replace_defaults_in_place_and_add_custom_entries():
    defaults = load_default_catalog()
    stronger = CatalogItem(**{**vars(defaults.item("shield")), "use": 3})
    laser = CatalogItem(
        "laser-sword", "Laser Sword", Category.WEAPON, 6, 3, None, True, "1dA+1d6", 1
    )
    ogre = UnitType("ogre", "Ogre", 6, 5, "6", 8)
    cat = with_house_rules(defaults, {"shield": stronger, "laser-sword": laser}, {"ogre": ogre})
    shield = cat.item("shield")
    assert shield.use == 3 and shield.house_rule
    assert house_rule_diff(defaults.item("shield"), shield) == ("use",)
    assert [i.key for i in cat.items] == [i.key for i in defaults.items] + ["laser-sword"]
    assert cat.item("laser-sword").house_rule
    assert cat.unit_type("ogre").house_rule
    assert not cat.item("hand-weapon").house_rule
    assert defaults.item("shield").use == 2  # the defaults are untouched
    assert cat.edition is defaults.edition and cat.source == defaults.source


def test_an_override_equal_to_the_rules_is_not_marked():
    defaults = load_default_catalog()
    same = defaults.unit_type("hero")
    cat = with_house_rules(defaults, {}, {"hero": same})
    assert not cat.unit_type("hero").house_rule
    assert house_rule_diff(defaults.unit_type("hero"), same) == ()


def test_house_rule_stored_under_the_wrong_key_is_refused():
    defaults = load_default_catalog()
    with pytest.raises(CatalogError, match="stored under 'shield' is for 'heavy-shield'"):
        with_house_rules(defaults, {"shield": defaults.item("heavy-shield")}, {})


def test_house_rule_diff_names_every_changed_field_in_order():
    d = load_default_catalog().item("long-ranged-weapon")
    changed = CatalogItem(
        **{**vars(d), "cost": 6, "damage": "1d6+2", "notes": "scoped", "house_rule": True}
    )
    assert house_rule_diff(d, changed) == ("cost", "damage", "notes")


def test_new_key_from_a_name():
    assert new_key("Laser Sword!", {"laser-sword"}) == "laser-sword-2"
    assert new_key("  Ogre  ") == "ogre"
    assert new_key("???") == "custom"


# --------------------------------------------------------------------------- field editing


@pytest.mark.parametrize(
    "field,text,value",
    [
        ("use", "-", None),
        ("use", " 3 ", 3),
        ("use", "0", 0),
        ("use", "20", 20),
        ("range", "CC", (None, True)),
        ("range", "cc", (None, True)),
        ("range", "-", (None, False)),
        ("range", '10"', (10, False)),
        ("range", "200", (200, False)),
        ("damage", "1dA + 2", "1dA+2"),
        ("damage", "1d10 exp", "1d10 Exp"),
        ("damage", "-", ""),
        ("cost", "-", None),
        ("cost", "999", 999),
        ("hands", "2", 2),
        ("hands", "0", 0),
        ("thrown_range", '3"', 3),
        ("thrown_range_dice", "1d6+2", "1d6+2"),
        ("knockback", "2", 2),
        ("name", " Pike ", "Pike"),
    ],
)
def test_typed_item_fields_become_values(field, text, value):
    assert validate_item_field(field, text) == value


@pytest.mark.parametrize(
    "field,text,reason",
    [
        (
            "use",
            "21",
            "Use is '-' (no roll needed) or a whole number from 0 to 20 (21 is out of range)",
        ),
        ("use", "two", "Use is '-' (no roll needed) or a whole number from 0 to 20"),
        (
            "range",
            "0",
            "Range is 'CC' (Close Combat), '-' or a whole number of inches from 1 to "
            "200 (0 is out of range)",
        ),
        (
            "range",
            "far",
            "Range is 'CC' (Close Combat), '-' or a whole number of inches from 1 to 200",
        ),
        (
            "damage",
            "2d",
            "missing number of sides after 'd' at column 3; write dice like 1dA+2 or "
            "1d10 Exp, or '-' for none",
        ),
        (
            "cost",
            "1000",
            "Cost is '-' (no cost) or a whole number from 0 to 999 (1000 is out of range)",
        ),
        (
            "cost",
            "-3",
            "Cost is '-' (no cost) or a whole number from 0 to 999 (-3 is out of range)",
        ),
        ("hands", "3", "Hands is 0 (worn, or takes no hand), 1 or 2 (3 is out of range)"),
        ("hands", "-", "Hands is 0 (worn, or takes no hand), 1 or 2"),
        ("thrown_range_dice", "1d6 Exp", "a distance can't be explosive (Exp)"),
        ("name", "  ", "Name must not be empty"),
    ],
)
def test_typed_item_field_errors_are_fit_to_show_under_the_field(field, text, reason):
    with pytest.raises(CatalogError) as info:
        validate_item_field(field, text)
    assert info.value.reason == reason == str(info.value)
    assert info.value.field == field


@pytest.mark.parametrize(
    "field,text,value",
    [
        ("action_die", "d10", 10),
        ("action_die", "D4", 4),
        ("action_die", "12", 12),
        ("move", '7"', 7),
        ("armor", "2d6", "2d6"),
        ("armor", " 5 ", "5"),
        ("cost", "-", None),
        ("hands", "0", 0),
    ],
)
def test_typed_unit_type_fields(field, text, value):
    assert validate_unit_type_field(field, text) == value


@pytest.mark.parametrize(
    "field,text,reason",
    [
        ("action_die", "d7", "Action die is one of d4, d6, d8, d10, d12"),
        ("armor", "2dA", "Armor dice can't use dA (the Action die)"),
        (
            "armor",
            "tough",
            "Armor is a number (4) or dice (2d6), and 'tough' is neither: "
            "unexpected 't' at column 1",
        ),
        ("move", "101", "Move is a whole number of inches from 0 to 100 (101 is out of range)"),
    ],
)
def test_typed_unit_type_field_errors(field, text, reason):
    with pytest.raises(CatalogError) as info:
        validate_unit_type_field(field, text)
    assert info.value.reason == reason
    assert info.value.field == field


def test_unknown_field_name_is_a_programming_error():
    with pytest.raises(ValueError):
        validate_item_field("colour", "red")


ITEM_FIELDS = [
    "use",
    "range",
    "range_inches",
    "thrown_range",
    "thrown_use",
    "damage",
    "thrown_range_dice",
    "cost",
    "hands",
    "explosive_radius",
    "knockback",
    "armor_bonus",
    "deflection",
    "parry_deflection",
    "move_penalty",
    "name",
    "notes",
]


@given(st.sampled_from(ITEM_FIELDS), st.text(max_size=30))
def test_any_typed_text_gives_a_value_or_a_catalog_error(field, text):
    try:
        value = validate_item_field(field, text)
    except CatalogError as exc:
        assert exc.field == field and exc.reason
        return
    if field in ("use", "cost", "thrown_use", "range_inches", "thrown_range"):
        assert value is None or isinstance(value, int)
