"""The history service over the demo: a battle finished through BrikDesk joins the history."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import delete, update

from brikdesk.persistence.db import Database
from brikdesk.persistence.models import Battle, BattleArmy
from brikdesk.services import Services
from brikdesk.services.demo import FORD_NOTE
from tests.services.campaign_data import COVE, battle_id


def test_the_demo_history_before_and_after_the_raid_is_finished(demo_sv: Services) -> None:
    [c] = demo_sv.campaigns.list_campaigns()
    before = demo_sv.history.history(c.id)
    [ford] = before.timeline
    # The demo's first battle comes with its result and its army records, as if finished
    # through BrikDesk: nothing is read from the log or approximate.
    assert not ford.from_log and ford.winner == "Margo"
    assert ford.notes == FORD_NOTE
    assert not any(s.any_approximate for s in before.series)
    assert dict(ford.casualties) == {"Margo": 0, "Tobias": 2}

    bid = battle_id(demo_sv, COVE)
    am = demo_sv.aftermath.aftermath(bid)
    ines = next(p.id for p in am.players if p.name == "Ines")
    done = demo_sv.aftermath.finish(bid, replace(am.proposal, winner=ines))
    h = demo_sv.history.history(c.id)
    ford2, cove = h.timeline
    assert ford2 == ford
    assert (cove.name, cove.winner, cove.from_log) == (COVE, "Ines", False)
    assert dict(cove.casualties) == {"Tobias": 0, "Ines": 1}
    assert cove.top is not None and (cove.top.name, cove.top.kills) == ("Dynamite Dot", 1)
    standing = {s.name: s for s in h.standings}
    assert (standing["Tobias"].fought, standing["Tobias"].lost) == (2, 2)
    assert (standing["Ines"].won, standing["Ines"].casualties) == (1, 1)
    assert standing["Tobias"].kills == 1
    crew = next(s for s in h.series if s.army == "The Salty Bilge Crew")
    assert crew.alive == (9, 9, 8)
    assert crew.casualties == (0, 0, 1)
    assert h.labels == ("Start", ford.name, COVE)
    done.undo()
    assert demo_sv.history.history(c.id) == before


def test_a_battle_finished_before_results_were_kept_is_read_from_its_log(
    demo_sv: Services, demo_db: Database
) -> None:
    """The demo's first battle as an older BrikDesk left it (no result, no army records):
    the winner is who holds the field, the notes are its log's closing note, and the points
    counting units never mustered are approximate; an army that has not fought yet is as it
    stands, exactly."""
    [c] = demo_sv.campaigns.list_campaigns()
    exact = demo_sv.history.history(c.id)
    with demo_db.engine.begin() as conn:
        conn.execute(delete(BattleArmy))
        conn.execute(update(Battle).where(Battle.status == "finished").values(result=None))
    h = demo_sv.history.history(c.id)
    [ford] = h.timeline
    assert ford.from_log and ford.winner == "Margo"
    assert ford.notes == FORD_NOTE  # the battle_finished event's note
    series = {s.army: s for s in h.series}
    was = {s.army: s for s in exact.series}
    # The Red Vanguard fought with some of its units: the others count at today's cost.
    assert series["The Red Vanguard"].approximate == (True, True)
    assert series["The Red Vanguard"].value == was["The Red Vanguard"].value
    # The Salty Bilge Crew has not fought: as it stands, not approximate.
    crew = series["The Salty Bilge Crew"]
    assert crew.approximate == (False, False) and crew == was["The Salty Bilge Crew"]
