"""What the services accept, export writes and import reads back unchanged, at the limits: one
set of limits (``brikdesk/limits.py``) serves both. Hypothesis builds campaigns whose names,
notes (pasted CSV: commas, quotes, brackets, tabs, line breaks) and numbers are at the limits,
and a campaign with the most house items a campaign can hold."""

from __future__ import annotations

import itertools
import json

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from sqlalchemy import select

from brikdesk.errors import UserError
from brikdesk.limits import MAX_CATALOG_ENTRIES, MAX_NUMBER, NAME_LEN, NOTES_LEN
from brikdesk.persistence.db import Database
from brikdesk.persistence.models import HouseItem
from brikdesk.services import Services
from brikdesk.services.roster import UnitPatch

_count = itertools.count()
#: Any character but controls and surrogates (the services decide what they take).
CHARS = st.characters(codec="utf-8", exclude_categories=("Cc", "Cs"))
CSV = st.text(alphabet=st.sampled_from(list(",;\"'[]{}\\\t ") + ["a", "7", "é", "🧱"]), min_size=1)


def at_length(text: str, length: int) -> str:
    return (text * (length // len(text) + 1))[:length]


def round_trip(sv: Services, campaign_id: int) -> None:
    before = sv.transfer.export_campaign(campaign_id)
    copy = sv.transfer.import_campaign(json.dumps(before), name=f"Copy {next(_count)}").value
    after = sv.transfer.export_campaign(copy.id)
    after["campaign"]["name"] = before["campaign"]["name"]
    assert after == before


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(name=st.text(CHARS, min_size=1, max_size=12), row=CSV, line=st.sampled_from(["\n", "\r\n"]))
def test_a_campaign_at_the_limits_round_trips(sv: Services, name: str, row: str, line: str) -> None:
    notes = at_length(row + line, NOTES_LEN)
    try:
        c = sv.campaigns.create_campaign(
            at_length(name, NAME_LEN - 6) + f" {next(_count):05d}",
            default_budget=MAX_NUMBER,
            notes=notes,
        ).value
        p = sv.campaigns.add_player(c.id, at_length(name, NAME_LEN), faction=name).value
    except UserError:
        reject()  # not a name the services take: nothing to round-trip
    a = sv.campaigns.add_army(p.id, at_length(name, NAME_LEN), budget=MAX_NUMBER).value
    unit = sv.roster.add_unit(a.id, "minifig", name=at_length(name, NAME_LEN), notes=notes).value[0]
    sv.roster.edit_unit(unit, UnitPatch(kills=MAX_NUMBER, battles_fought=MAX_NUMBER))
    sv.catalog.add_custom_item(c.id, at_length(name, 80))
    round_trip(sv, c.id)


def test_the_most_house_items_a_campaign_holds_round_trip_and_one_more_is_refused(
    sv: Services, db: Database
) -> None:
    c = sv.campaigns.create_campaign("Armoury").value
    model = sv.catalog.add_custom_item(c.id, "Laser Pike").value
    with db.sessions.begin() as s:  # the rest as the service would store them, at once
        data = s.scalars(select(HouseItem.data).where(HouseItem.campaign_id == c.id)).one()
        s.add_all(
            HouseItem(
                campaign_id=c.id,
                key=f"pike-{n}",
                data={**data, "key": f"pike-{n}", "name": f"Pike {n}"},
                custom=True,
            )
            for n in range(MAX_CATALOG_ENTRIES - 2)
        )
    sv.catalog.add_custom_item(c.id, "The last one")
    try:
        sv.catalog.add_custom_item(c.id, "One too many")
    except UserError as exc:
        refused = str(exc)
    else:
        refused = ""
    assert refused == (
        f"this campaign already has {MAX_CATALOG_ENTRIES:,} house items, the most a campaign "
        "can hold (its export could not be imported again); delete one first"
    )
    assert model is not None
    round_trip(sv, c.id)
