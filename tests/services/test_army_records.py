"""The history keeps what each army was.

Finishing a battle stores each army's value, units alive, casualties and kills going in and
coming out; the undo removes them, the redo writes them again. The history's series, its JSON
and its Markdown draw from them, so a promotion or a roster edit after a battle does not change
what the army fought at. A battle finished before the numbers were stored is rebuilt from its
mustered units and its result, and a point counting a unit never mustered is approximate."""

from __future__ import annotations

from sqlalchemy import delete, func, select

from brikdesk.domain.history import history_markdown, history_to_json
from brikdesk.persistence.db import Database
from brikdesk.persistence.models import BattleArmy
from brikdesk.services import Services
from tests.services.campaign_data import fight_at_the_gate
from tests.services.conftest import Camp


def _series(sv: Services, camp: Camp):
    h = sv.history.history(camp.campaign.id)
    return {s.army: s for s in h.series}, h


def _rows(db: Database) -> int:
    with db.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(BattleArmy)).scalar_one()


def test_finishing_stores_each_army_going_in_and_coming_out(
    sv: Services, db: Database, camp: Camp
) -> None:
    _bid, done = fight_at_the_gate(sv, camp)
    assert _rows(db) == 2
    series, h = _series(sv, camp)
    red, blue = series["Red Army"], series["Blue Army"]
    # Start is the army that fought: the Skirmisher at 4 CP, not the Hero it became.
    assert (red.value, red.alive, red.casualties, red.kills) == ((12, 19), (3, 3), (0, 0), (0, 1))
    assert (blue.value, blue.alive, blue.casualties, blue.kills) == ((8, 4), (2, 1), (0, 1), (0, 0))
    assert red.approximate == blue.approximate == (False, False)
    js = history_to_json(h)["series"]["armies"]
    assert {a["army"]: a["value"] for a in js} == {"Red Army": [12, 19], "Blue Army": [8, 4]}
    assert all(a["approximate"] == [False, False] for a in js)
    assert "- value (CP): 12, 19" in history_markdown(h)

    # A unit added afterwards changes today's army, not what it was in the battle.
    sv.roster.add_unit(camp.red_army.id, "hero", name="Late Hero")
    series, _h = _series(sv, camp)
    assert series["Red Army"].value == (12, 19)

    done.undo()
    assert _rows(db) == 0
    series, h = _series(sv, camp)
    assert series["Red Army"].value == (23,) and h.timeline == ()  # the Scout is 4 CP again
    done.redo()  # finished again, with the army as it is now (the Late Hero in it)
    assert _rows(db) == 2
    assert _series(sv, camp)[0]["Red Army"].value == (23, 30)


def test_an_older_battle_is_rebuilt_from_its_musters_and_marked_where_it_cannot_be(
    sv: Services, db: Database, camp: Camp
) -> None:
    bid, _done = fight_at_the_gate(sv, camp)
    with db.engine.begin() as conn:  # as a battle finished before the numbers were kept
        conn.execute(delete(BattleArmy).where(BattleArmy.battle_id == bid))
    series, _h = _series(sv, camp)
    red = series["Red Army"]
    # Rebuilt from the mustered Skirmisher (4 CP) and his promotion to Hero (11 CP).
    assert red.value == (12, 19) and red.kills == (0, 1)
    assert red.approximate == (False, False)

    sv.roster.add_unit(camp.red_army.id, "hero", name="Late Hero")
    series, h = _series(sv, camp)
    red = series["Red Army"]
    assert red.value == (23, 30)  # the Late Hero was never mustered: today's cost
    assert red.approximate == (True, True)
    assert series["Blue Army"].approximate == (False, False)
    [red_js] = [a for a in history_to_json(h)["series"]["armies"] if a["army"] == "Red Army"]
    assert red_js["approximate"] == [True, True]
    assert "≈" in history_markdown(h)
