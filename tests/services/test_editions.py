"""Issue 23, item 3: an edition change says what it will do, then does it whole.

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
