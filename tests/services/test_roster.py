"""The roster: rows with stats, costs and warnings; unit edits with undo and redo."""

from __future__ import annotations

import pytest
from sqlalchemy import event

from brikdesk.domain.roster import Loadout, UnitOverrides
from brikdesk.errors import UserError
from brikdesk.persistence.db import Database
from brikdesk.services import Changes, Services
from brikdesk.services.roster import UnitPatch
from brikdesk.services.summaries import Muster
from tests.services.conftest import Camp


def test_adding_units_in_bulk_names_them_in_sequence(sv: Services, camp: Camp) -> None:
    done = sv.roster.add_units(camp.red_army.id, "minifig", 3)
    assert done.changes & Changes.UNITS and len(done.value) == 3
    more = sv.roster.add_units(camp.red_army.id, "minifig", 2).value
    names = [u.name for u in sv.roster.roster(camp.red_army.id).units]
    assert names == ["Minifig 1", "Minifig 2", "Minifig 3", "Minifig 4", "Minifig 5"]
    assert list(more) == [u.id for u in sv.roster.roster(camp.red_army.id).units][3:]
    sv.roster.add_units(camp.red_army.id, "hero", 2, "Captain {n} of {type}s")
    assert [u.name for u in sv.roster.roster(camp.red_army.id).units][5:] == [
        "Captain 1 of Heros",
        "Captain 2 of Heros",
    ]


def test_a_name_pattern_is_never_a_format_string(sv: Services, camp: Camp) -> None:
    sv.roster.add_units(camp.red_army.id, "minifig", 1, "{0.__class__} {type}")
    [u] = sv.roster.roster(camp.red_army.id).units
    assert u.name == "{0.__class__} Minifig 1"


@pytest.mark.parametrize("count", [0, -3, 10_001, True])
def test_impossible_counts_are_refused(sv: Services, camp: Camp, count) -> None:
    with pytest.raises(UserError):
        sv.roster.add_units(camp.red_army.id, "minifig", count)
    assert sv.roster.roster(camp.red_army.id).units == ()


def test_roster_rows_show_stats_equipment_and_cost(sv: Services, camp: Camp) -> None:
    sv.roster.add_unit(
        camp.red_army.id,
        "minifig",
        name="Rifleman",
        loadout=Loadout(("long-ranged-weapon",), ("body-armor",)),
    )
    sv.roster.add_unit(
        camp.red_army.id,
        "hero",
        name="Captain",
        loadout=Loadout(("heavy-weapon", "shield"), ("heavy-armor",)),
    )
    roster = sv.roster.roster(camp.red_army.id)
    rifle, captain = roster.units
    assert (rifle.type_name, rifle.action_die, rifle.move, rifle.armor) == ("Minifig", 6, 5, "6")
    assert (rifle.hands, rifle.worn, rifle.cost) == (
        ("Long-Ranged Weapon",),
        ("Body Armor",),
        4 + 5 + 1,
    )
    assert (captain.action_die, captain.armor, captain.cost) == (10, "2d6", 11 + 3 + 1 + 2)
    assert captain.hands_text == "Heavy Weapon, Shield" and rifle.warnings == ()
    assert (roster.total, roster.budget, roster.cost_unit) == (27, 30, "CP")
    assert not roster.over_budget and roster.warnings == ()


def test_warnings_name_the_unit_and_never_block(sv: Services, camp: Camp) -> None:
    sv.roster.add_unit(
        camp.red_army.id,
        "minifig",
        name="Overloaded",
        loadout=Loadout(("long-ranged-weapon", "shield")),
    )
    sv.roster.add_unit(camp.red_army.id, "minifig", name="Empty-handed")
    sv.roster.add_units(camp.red_army.id, "hero", 2)
    roster = sv.roster.roster(camp.red_army.id)
    over, empty = roster.units[:2]
    assert [w.unit_name for w in over.warnings] == ["Overloaded"]
    assert "Long-Ranged Weapon takes both hands" in over.warnings_text
    assert "no weapon" in empty.warnings_text
    assert roster.over_budget and [str(w) for w in roster.warnings] == [
        "Army: over budget by 6 CP (36 CP of 30 CP) (army budget)"
    ]


def test_editing_a_unit_returns_the_old_values_and_undo_redo(sv: Services, camp: Camp) -> None:
    [uid] = sv.roster.add_unit(camp.red_army.id, "minifig", name="Bob").value
    patch = UnitPatch(
        name="Sir Bob",
        type_key="hero",
        loadout=Loadout(("hand-weapon", None), ("body-armor",)),
        overrides=UnitOverrides(move=6),
    )
    done = sv.roster.edit_unit(uid, patch)
    assert done.value == UnitPatch(
        name="Bob", type_key="minifig", loadout=Loadout(), overrides=UnitOverrides()
    )
    [row] = sv.roster.unit_rows([uid])
    assert (row.name, row.type_name, row.move, row.armor, row.hands) == (
        "Sir Bob",
        "Hero",
        6,
        "2d6+2",
        ("Hand Weapon", "-"),
    )
    assert done.undo() == Changes.UNITS
    [row] = sv.roster.unit_rows([uid])
    assert (row.name, row.type_key, row.move, row.hands, row.worn) == ("Bob", "minifig", 5, (), ())
    done.redo()
    assert sv.roster.unit_rows([uid])[0].name == "Sir Bob"


@pytest.mark.parametrize(
    "patch, message",
    [
        (UnitPatch(name=""), "name can't be empty"),
        (UnitPatch(type_key="dragon"), "no unit type 'dragon'"),
        (UnitPatch(loadout=Loadout(("laser-sword",))), "no item 'laser-sword'"),
        (UnitPatch(overrides=UnitOverrides(action_die=7)), "Action die is one of"),
        (UnitPatch(overrides=UnitOverrides(move=-1)), "can't be negative"),
        (UnitPatch(overrides=UnitOverrides(armor="lots")), "Armor"),
        (UnitPatch(status="undead"), "not a campaign status"),
        (UnitPatch(kills=-2), "can't be negative"),
    ],
)
def test_impossible_unit_values_are_refused_and_nothing_changes(
    sv: Services, camp: Camp, patch, message
) -> None:
    [uid] = sv.roster.add_unit(camp.red_army.id, "minifig", name="Steady").value
    before = sv.roster.unit_rows([uid])
    with pytest.raises(UserError, match=message):
        sv.roster.edit_unit(uid, patch)
    assert sv.roster.unit_rows([uid]) == before


def test_a_failed_multi_edit_changes_no_unit(sv: Services, camp: Camp) -> None:
    a, b = sv.roster.add_units(camp.red_army.id, "minifig", 2).value
    with pytest.raises(UserError):
        sv.roster.edit_units({a: UnitPatch(name="Fine"), b: UnitPatch(type_key="dragon")})
    assert [u.name for u in sv.roster.unit_rows([a, b])] == ["Minifig 1", "Minifig 2"]


def test_deleted_units_come_back_with_their_ids_and_battle_links(sv: Services, camp: Camp) -> None:
    reds = sv.roster.add_units(camp.red_army.id, "minifig", 4).value
    blues = sv.roster.add_units(camp.blue_army.id, "minifig", 1).value
    b = sv.battles.create_battle(
        camp.campaign.id, "Skirmish", [Muster(camp.red.id, reds[:2]), Muster(camp.blue.id, blues)]
    )
    done = sv.roster.delete_units(reds[:3])
    assert [u.id for u in sv.roster.roster(camp.red_army.id).units] == [reds[3]]
    # The battle keeps its copies; the link to the campaign unit is cleared.
    units = sv.battles.battle(b.value.id).units
    assert [(u.name, u.unit_id) for u in units[:2]] == [("Minifig 1", None), ("Minifig 2", None)]
    sv.roster.add_units(camp.red_army.id, "hero", 1)  # ids move on meanwhile
    done.undo()
    assert [u.id for u in sv.roster.roster(camp.red_army.id).units][:4] == list(reds)
    assert [u.unit_id for u in sv.battles.battle(b.value.id).units[:2]] == list(reds[:2])
    done.redo()
    assert len(sv.roster.roster(camp.red_army.id).units) == 2


def test_adding_units_is_undone_and_redone_with_the_same_ids(sv: Services, camp: Camp) -> None:
    done = sv.roster.add_units(camp.red_army.id, "skirmisher", 3)
    done.undo()
    assert sv.roster.roster(camp.red_army.id).units == ()
    done.redo()
    assert tuple(u.id for u in sv.roster.roster(camp.red_army.id).units) == done.value


def test_duplicates_copy_the_loadout_with_a_fresh_record(sv: Services, camp: Camp) -> None:
    [uid] = sv.roster.add_unit(
        camp.red_army.id, "minifig", name="Vet", loadout=Loadout(("short-ranged-weapon",))
    ).value
    sv.roster.edit_unit(uid, UnitPatch(kills=4, battles_fought=2, status="wounded"))
    done = sv.roster.duplicate_units([uid])
    [copy] = sv.roster.unit_rows(done.value)
    assert (copy.name, copy.hands, copy.kills, copy.battles_fought, copy.status) == (
        "Vet (copy)",
        ("Short-Ranged Weapon",),
        0,
        0,
        "alive",
    )
    done.undo()
    assert len(sv.roster.roster(camp.red_army.id).units) == 1


def test_reordering_puts_units_in_the_given_order_and_back(sv: Services, camp: Camp) -> None:
    ids = sv.roster.add_units(camp.red_army.id, "minifig", 3).value
    done = sv.roster.reorder_units(camp.red_army.id, [ids[2], ids[0], ids[1]])
    assert [u.id for u in sv.roster.roster(camp.red_army.id).units] == [ids[2], ids[0], ids[1]]
    done.undo()
    assert [u.id for u in sv.roster.roster(camp.red_army.id).units] == list(ids)
    with pytest.raises(UserError, match="every unit of the army once"):
        sv.roster.reorder_units(camp.red_army.id, [ids[0]])


def test_the_unit_card_has_the_cost_breakdown_and_each_item(sv: Services, camp: Camp) -> None:
    [uid] = sv.roster.add_unit(
        camp.red_army.id,
        "minifig",
        name="Grenadier",
        loadout=Loadout(("explosive",), (), ("hand-weapon",)),
    ).value
    card = sv.roster.unit_card(uid)
    assert [(line.label, line.cost) for line in card.cost.lines] == [
        ("Minifig", 4),
        ("Explosive (in hand)", 1),
        ("Hand Weapon (carried)", 2),
    ]
    assert card.cost.total == card.row.cost == 7
    assert [(k, where, it.damage) for k, where, it in card.items] == [
        ("explosive", "in hand", "1d10 Exp"),
        ("hand-weapon", "carried", "1dA"),
    ]
    assert card.stats is not None and card.stats.counters == 2


def _count_queries(db: Database, call) -> int:
    count = 0

    def before(*_args) -> None:
        nonlocal count
        count += 1

    event.listen(db.engine, "before_cursor_execute", before)
    try:
        call()
    finally:
        event.remove(db.engine, "before_cursor_execute", before)
    return count


def test_loading_a_roster_takes_the_same_queries_for_5_or_500_units(
    sv: Services, db: Database, camp: Camp
) -> None:
    sv.roster.add_units(camp.red_army.id, "minifig", 5, loadout=Loadout(("hand-weapon", "shield")))
    sv.roster.add_units(
        camp.blue_army.id, "minifig", 250, loadout=Loadout(("hand-weapon", "shield"))
    )
    sv.roster.add_units(camp.blue_army.id, "hero", 250, loadout=Loadout(("heavy-weapon",)))
    small = _count_queries(db, lambda: sv.roster.roster(camp.red_army.id))
    big = _count_queries(db, lambda: sv.roster.roster(camp.blue_army.id))
    assert small == big
    assert len(sv.roster.roster(camp.blue_army.id).units) == 500


def test_duplicating_an_army_copies_units_loadouts_and_notes_but_not_history(
    sv: Services, camp: Camp
) -> None:
    red = camp.red_army.id
    [vet] = sv.roster.add_unit(
        red, "minifig", name="Vet", loadout=Loadout(("short-ranged-weapon",)), notes="brave"
    ).value
    sv.roster.add_units(red, "minifig", 2)
    sv.roster.edit_unit(vet, UnitPatch(kills=4, battles_fought=2, status="wounded"))
    before = sv.roster.roster(red)
    done = sv.roster.duplicate_army(red, "Red Copy", player_id=camp.red_army.player_id, budget=80)
    copy = sv.roster.roster(done.value.id)
    assert (copy.army.name, copy.army.budget, copy.army.player_id) == (
        "Red Copy",
        80,
        camp.red_army.player_id,
    )
    assert [(u.name, u.type_key, u.loadout, u.notes, u.cost) for u in copy.units] == [
        (u.name, u.type_key, u.loadout, u.notes, u.cost) for u in before.units
    ]
    assert copy.total == before.total
    assert {(u.status, u.kills, u.battles_fought) for u in copy.units} == {("alive", 0, 0)}
    assert sv.roster.roster(red).units == before.units  # the original is untouched
    done.undo()  # one step: the army and its units go
    assert done.value.id not in {a.id for a in sv.campaigns.list_armies(camp.campaign.id)}
    done.redo()
    assert len(sv.roster.roster(done.value.id).units) == 3


def test_duplicating_an_army_refuses_a_bad_name_and_keeps_nothing(sv: Services, camp: Camp) -> None:
    n = len(sv.campaigns.list_armies(camp.campaign.id))
    with pytest.raises(UserError, match="name"):
        sv.roster.duplicate_army(
            camp.red_army.id, "  ", player_id=camp.red_army.player_id, budget=None
        )
    assert len(sv.campaigns.list_armies(camp.campaign.id)) == n
