"""The history service over the demo: a battle finished through BrikDesk joins the history."""

from __future__ import annotations

from dataclasses import replace

from brikdesk.services import Services
from tests.services.test_aftermath import COVE, battle_id


def test_the_demo_history_before_and_after_the_raid_is_finished(demo_sv: Services) -> None:
    [c] = demo_sv.campaigns.list_campaigns()
    before = demo_sv.history.history(c.id)
    [ford] = before.timeline
    assert ford.from_log and ford.winner == "Margo"
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
