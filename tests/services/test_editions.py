"""An edition change says what it will do, then does it whole.

A 2020 campaign with Skirmisher, Heavy and Cannon Fodder units (2020 specialists) switched to
2010: the preview names each type 2010 lacks, how many units use it and a suggestion; the
change maps them in one step, no unit is left unknown, and Undo puts every unit back."""

from __future__ import annotations

import pytest

from brikdesk.domain.roster import unit_cost
from brikdesk.errors import UserError
from brikdesk.services import Services
from tests.services.conftest import Camp


def _types(sv: Services, camp: Camp) -> dict[str, str]:
    units = sv.roster.roster(camp.red_army.id).units + sv.roster.roster(camp.blue_army.id).units
    return {u.name: u.type_key for u in units}


def _known(sv: Services, camp: Camp) -> bool:
    cat = sv.catalog.catalog(camp.campaign.id)
    return all(cat.get_unit_type(k) is not None for k in _types(sv, camp).values())


def test_the_preview_names_what_2010_lacks_and_the_change_maps_it(sv: Services, camp: Camp) -> None:
    sv.roster.add_unit(camp.red_army.id, "skirmisher", name="Scout")
    sv.roster.add_unit(camp.red_army.id, "heavy", name="Brute")
    sv.roster.add_unit(camp.blue_army.id, "cannon-fodder", name="Fodder")
    sv.roster.add_unit(camp.blue_army.id, "minifig", name="Grunt")
    before = _types(sv, camp)
    preview = sv.editions.preview(camp.campaign.id, "2010")
    missing = {m.key: m for m in preview.missing}
    assert set(missing) == {"skirmisher", "heavy", "cannon-fodder"}
    assert missing["skirmisher"].units == 1 and missing["skirmisher"].name == "Skirmisher"
    assert missing["skirmisher"].suggestion == "minifig"  # d6, 5", 4 CP: the same stats
    assert missing["cannon-fodder"].suggestion in {k for k, _n in missing["cannon-fodder"].choices}
    costs = {a.army: (a.before, a.after) for a in preview.armies}
    assert costs["Red Army"][0] == 8 and costs["Blue Army"][0] == 6

    with pytest.raises(UserError, match="choose what Skirmisher becomes"):
        sv.editions.change(camp.campaign.id, "2010", {}, {})
    assert _types(sv, camp) == before  # refused whole

    done = sv.editions.change(camp.campaign.id, "2010", preview.types, preview.items)
    assert sv.campaigns.list_campaigns()[0].edition == "2010"
    assert _known(sv, camp)  # no unit is left "unknown"
    assert _types(sv, camp)["Scout"] == "minifig"
    cat = sv.catalog.catalog(camp.campaign.id)
    red = sum(unit_cost(u.spec, cat).total for u in sv.roster.roster(camp.red_army.id).units)
    assert red == costs["Red Army"][1]

    done.undo()
    assert sv.campaigns.list_campaigns()[0].edition == "2020"
    assert _types(sv, camp) == before
    done.redo()
    assert _known(sv, camp) and sv.campaigns.list_campaigns()[0].edition == "2010"


def test_the_battles_units_are_mapped_too_and_put_back_by_undo(sv: Services, camp: Camp) -> None:
    """A battle in progress whose Skirmisher was mustered (a copy of the unit): after the
    change to 2010 the tracker shows it as the Minifig chosen, never "unknown"; a Heavy only
    the battle still holds (deleted from the roster since) is in the preview too; Undo puts
    the battle's units back."""
    from brikdesk.services.summaries import Muster

    red = sv.roster.add_unit(camp.red_army.id, "skirmisher", name="Scout").value
    red += sv.roster.add_unit(camp.red_army.id, "heavy", name="Brute").value
    blue = sv.roster.add_unit(camp.blue_army.id, "minifig", name="Grunt").value
    view = sv.tracker.begin(
        camp.campaign.id, "Gate", [Muster(camp.red.id, red), Muster(camp.blue.id, blue)]
    ).value
    sv.roster.delete_units([red[1]])
    preview = sv.editions.preview(camp.campaign.id, "2010")
    missing = {m.key: m for m in preview.missing}
    assert set(missing) == {"skirmisher", "heavy"}
    assert missing["heavy"].units == 1  # the mustered copy: no roster unit uses it any more

    def types() -> dict[str, str]:
        return {u.name: u.type_key for u in sv.tracker.view(view.id).units}

    def unknown() -> list[str]:
        return [
            r for u in sv.tracker.view(view.id).units for r in u.stats.reasons if "unknown" in r
        ]

    done = sv.editions.change(camp.campaign.id, "2010", preview.types, preview.items)
    assert types() == {"Scout": "minifig", "Brute": "minifig", "Grunt": "minifig"}
    assert unknown() == []
    done.undo()
    assert types() == {"Scout": "skirmisher", "Brute": "heavy", "Grunt": "minifig"}
    done.redo()
    assert types()["Scout"] == "minifig" and unknown() == []
