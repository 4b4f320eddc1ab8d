"""The end of a battle: the log's proposal, the organizer's edits, one transaction, undo/redo."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from brikdesk.domain.aftermath import BattleResult, UnitFate
from brikdesk.domain.battle import Status, StatusSet, UnitKilled
from brikdesk.errors import UserError
from brikdesk.persistence.models import Base, Battle
from brikdesk.services import Services
from brikdesk.services.summaries import Muster
from tests.services.campaign_data import COVE, battle_id


def pool(sv: Services) -> dict[str, Any]:
    """Every campaign unit by name: (status, battles fought, kills, type)."""
    [c] = sv.campaigns.list_campaigns()
    out = {}
    for a in sv.campaigns.list_armies(c.id):
        for u in sv.roster.roster(a.id).units:
            out[u.name] = (u.status, u.battles_fought, u.kills, u.type_key)
    return out


def dump(sv: Services) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (the campaign's ``updated_at`` stamp and the row versions
    aside: every action, undo included, moves them; versions only grow)."""
    out = {}
    with sv._sessions() as s:
        for name, table in Base.metadata.tables.items():
            cols = [
                c
                for c in table.c
                if not (name == "campaign" and c.name == "updated_at") and c.name != "version"
            ]
            out[name] = sorted(
                (tuple(repr(r) for r in row) for row in s.execute(select(*cols))), key=repr
            )
    return out


def test_the_proposal_for_the_demo_battle_is_what_its_log_says(demo_sv: Services) -> None:
    bid = battle_id(demo_sv, COVE)
    # Count from the stored events, independently of the code under test.
    units = {u.id: u.name for u in demo_sv.battles.battle(bid).units}
    expected_killer: dict[str, str | None] = {}
    for e in demo_sv.battles.events(bid, include_reverted=False):
        if e.kind == "attack_resolved":
            for victim in e.payload.get("killed", []):
                expected_killer[units[victim]] = units[e.actor_id]
    assert expected_killer  # the demo's raid has a casualty
    expected_kills: dict[str, int] = {}
    for killer in expected_killer.values():
        expected_kills[killer] = expected_kills.get(killer, 0) + 1

    am = demo_sv.aftermath.aftermath(bid)
    name = {u.id: u.name for u in am.units}
    got_dead = {name[f.unit]: name.get(f.killed_by) for f in am.proposal.fates if f.fell}
    assert got_dead == expected_killer
    assert {name[k]: n for k, n in am.proposal.kills().items()} == expected_kills
    assert all(f.status == "alive" for f in am.proposal.fates if not f.fell)
    assert len(am.proposal.fates) == len(units) == 9
    # Both sides stand: the one whose standing units cost most holds the field.
    value = {}
    for f in am.proposal.fates:
        u = am.unit(f.unit)
        if f.standing:
            value[u.player_name] = value.get(u.player_name, 0) + u.cost
    best = max(value, key=value.get)
    assert value[best] > min(value.values())
    assert am.players[[p.name for p in am.players].index(best)].id == am.suggestion.winner
    assert best in am.suggestion.reason and "holds the field" in am.suggestion.reason

    before = pool(demo_sv)
    done = demo_sv.aftermath.finish(bid, am.proposal)
    after = pool(demo_sv)
    for n in units.values():
        status, fought, kills, type_key = before[n]
        assert after[n] == (
            "dead" if n in expected_killer else status,
            fought + 1,
            kills + expected_kills.get(n, 0),
            type_key,
        )
    # Units nobody mustered are untouched.
    assert {n: v for n, v in after.items() if n not in units.values()} == {
        n: v for n, v in before.items() if n not in units.values()
    }
    assert done.value.casualties == tuple(expected_killer)
    assert demo_sv.battles.battle(bid).battle.status == "finished"


def test_a_finished_battle_is_read_only_and_keeps_its_result(demo_sv: Services) -> None:
    bid = battle_id(demo_sv, COVE)
    am = demo_sv.aftermath.aftermath(bid)
    ines = next(p.id for p in am.players if p.name == "Ines")
    demo_sv.aftermath.finish(bid, replace(am.proposal, winner=ines, notes="The pirates held."))
    with pytest.raises(UserError, match="finished; its log can't change"):
        demo_sv.tracker.end_turn(bid)
    with pytest.raises(UserError, match="finished"):
        demo_sv.tracker.undo(bid)
    with pytest.raises(UserError, match="already finished"):
        demo_sv.aftermath.finish(bid, am.proposal)
    again = demo_sv.aftermath.aftermath(bid)
    assert again.finished and again.result is not None
    assert again.result.winner == ines and again.result.notes == "The pirates held."
    assert again.result.fates == am.proposal.fates


def test_the_organizer_overrules_the_log(demo_sv: Services) -> None:
    bid = battle_id(demo_sv, COVE)
    am = demo_sv.aftermath.aftermath(bid)
    by = {u.name: u.id for u in am.units}
    dory, slim, hank, magda = (
        by["Deckhand Dory"],
        by["Slim Jim Sparks"],
        by["Big Hank the Anvil"],
        by["Gunner Magda"],
    )
    fates = []
    for f in am.proposal.fates:
        if f.unit == dory:  # the kill goes to Slim Jim, not Dynamite Dot
            f = replace(f, killed_by=slim)
        elif f.unit == magda:  # the players agree Hank got her after all
            f = replace(f, status="dead", killed_by=hank)
        elif f.unit == by["Bosun Grogg"]:
            f = replace(f, status="wounded")
        fates.append(f)
    before = pool(demo_sv)
    demo_sv.aftermath.finish(bid, BattleResult(tuple(fates), None, "A draw by agreement"))
    after = pool(demo_sv)
    assert after["Slim Jim Sparks"][2] == before["Slim Jim Sparks"][2] + 1
    assert after["Dynamite Dot"][2] == before["Dynamite Dot"][2]
    assert after["Big Hank the Anvil"][2] == before["Big Hank the Anvil"][2] + 1
    assert after["Gunner Magda"][0] == "dead" and after["Bosun Grogg"][0] == "wounded"
    assert demo_sv.aftermath.aftermath(bid).result.draw


def test_a_unit_the_players_agree_survived_stays_in_the_pool(demo_sv: Services) -> None:
    bid = battle_id(demo_sv, COVE)
    am = demo_sv.aftermath.aftermath(bid)
    dory = next(u.id for u in am.units if u.name == "Deckhand Dory")
    fates = tuple(
        replace(f, status="alive", killed_by=None) if f.unit == dory else f
        for f in am.proposal.fates
    )
    demo_sv.aftermath.finish(bid, replace(am.proposal, fates=fates))
    after = pool(demo_sv)
    assert after["Deckhand Dory"][0] == "alive"
    assert after["Dynamite Dot"][2] == 0  # no kill without a victim


def test_bad_results_are_refused_and_change_nothing(demo_sv: Services) -> None:
    bid = battle_id(demo_sv, COVE)
    am = demo_sv.aftermath.aftermath(bid)
    before = dump(demo_sv)
    first = am.proposal.fates[0]
    margo = next(p.id for p in demo_sv.campaigns.list_players(am.campaign_id) if p.name == "Margo")
    cases = [
        (replace(am.proposal, winner=margo), "did not play in this battle"),
        (replace(am.proposal, fates=am.proposal.fates[1:]), "has no fate"),
        (replace(am.proposal, fates=(*am.proposal.fates, first)), "listed twice"),
        (
            replace(am.proposal, fates=(replace(first, status="undead"), *am.proposal.fates[1:])),
            "not a status",
        ),
        (
            replace(
                am.proposal,
                fates=(replace(first, status="dead", killed_by=first.unit), *am.proposal.fates[1:]),
            ),
            "can't be the killer",
        ),
        (
            replace(
                am.proposal, fates=(replace(first, promote_to="dragon"), *am.proposal.fates[1:])
            ),
            "no unit type 'dragon'",
        ),
    ]
    dead = next(f for f in am.proposal.fates if f.fell)
    cases.append(
        (
            replace(
                am.proposal,
                fates=tuple(
                    replace(f, promote_to="hero") if f is dead else f for f in am.proposal.fates
                ),
            ),
            "only a unit that survived",
        )
    )
    for result, message in cases:
        with pytest.raises(UserError, match=message):
            demo_sv.aftermath.finish(bid, result)
    assert dump(demo_sv) == before


def test_promotion_shows_the_new_cost_and_the_budget_and_never_blocks(demo_sv: Services) -> None:
    bid = battle_id(demo_sv, COVE)
    am = demo_sv.aftermath.aftermath(bid)
    slim = next(u for u in am.units if u.name == "Slim Jim Sparks")
    [preview] = demo_sv.aftermath.promotion_preview(bid, {slim.id: "hero"})
    [(name, old, new, old_cost, new_cost)] = preview.units
    assert (name, old, new) == ("Slim Jim Sparks", "Skirmisher", "Hero")
    assert new_cost > old_cost
    assert preview.total_after - preview.total_before == new_cost - old_cost
    assert preview.budget == 50 and preview.army == "Moonlight Posse"
    assert preview.over_by == preview.total_after - 50 > 0
    assert f"over budget by {preview.over_by} CP" in preview.text
    fates = tuple(
        replace(f, promote_to="hero") if f.unit == slim.id else f for f in am.proposal.fates
    )
    done = demo_sv.aftermath.finish(bid, replace(am.proposal, fates=fates))
    assert done.value.promoted == ("Slim Jim Sparks",)
    assert pool(demo_sv)["Slim Jim Sparks"][3] == "hero"
    [c] = demo_sv.campaigns.list_campaigns()
    posse = next(a for a in demo_sv.campaigns.list_armies(c.id) if a.name == "Moonlight Posse")
    roster = demo_sv.roster.roster(posse.id)
    assert roster.over_budget and roster.total == preview.total_after + sum(
        u.cost for u in roster.units if u.status == "dead"
    )
    done.undo()
    assert pool(demo_sv)["Slim Jim Sparks"][3] == "skirmisher"


def test_a_dead_unit_can_be_brought_back_and_mustered_again(demo_sv: Services) -> None:
    bid = battle_id(demo_sv, COVE)
    demo_sv.aftermath.finish(bid, demo_sv.aftermath.aftermath(bid).proposal)
    [c] = demo_sv.campaigns.list_campaigns()
    posse, crew = (
        next(a for a in demo_sv.campaigns.list_armies(c.id) if a.name == n)
        for n in ("Moonlight Posse", "The Salty Bilge Crew")
    )
    dory = next(u for u in demo_sv.roster.roster(crew.id).units if u.name == "Deckhand Dory")
    assert dory.status == "dead"
    with pytest.raises(UserError, match="dead in the campaign"):
        demo_sv.battles.create_battle(
            c.id,
            "Rematch",
            [
                Muster(crew.player_id, (dory.id,)),
                Muster(posse.player_id, (demo_sv.roster.roster(posse.id).units[0].id,)),
            ],
        )
    alive = next(u for u in demo_sv.roster.roster(crew.id).units if u.status == "alive")
    with pytest.raises(UserError, match="is not dead"):
        demo_sv.aftermath.resurrect(alive.id)
    done = demo_sv.aftermath.resurrect(dory.id)
    assert pool(demo_sv)["Deckhand Dory"][0] == "alive"
    b = demo_sv.battles.create_battle(
        c.id,
        "Rematch",
        [
            Muster(crew.player_id, (dory.id,)),
            Muster(posse.player_id, (demo_sv.roster.roster(posse.id).units[0].id,)),
        ],
    ).value
    assert b.units == 2
    demo_sv.battles.delete_battle(b.id)
    done.undo()
    assert pool(demo_sv)["Deckhand Dory"][0] == "dead"
    done.redo()
    assert pool(demo_sv)["Deckhand Dory"][0] == "alive"
    # The battle where she fell still counts her.
    cove = demo_sv.aftermath.aftermath(bid)
    dory_bu = next(u.id for u in cove.units if u.name == "Deckhand Dory")
    assert cove.result.fate(dory_bu).fell


def test_undo_reopens_the_battle_exactly_and_redo_finishes_it_again(demo_sv: Services) -> None:
    bid = battle_id(demo_sv, COVE)
    before = dump(demo_sv)
    am = demo_sv.aftermath.aftermath(bid)
    slim = next(u.id for u in am.units if u.name == "Slim Jim Sparks")
    result = replace(
        am.proposal,
        notes="Ka-ping",
        fates=tuple(
            replace(f, promote_to="hero") if f.unit == slim else f for f in am.proposal.fates
        ),
    )
    done = demo_sv.aftermath.finish(bid, result)
    finished = dump(demo_sv)
    assert finished != before
    done.undo()
    assert dump(demo_sv) == before
    view = demo_sv.tracker.view(bid)
    assert view.status == "in_progress" and view.can_undo is not None
    done.redo()
    again = dump(demo_sv)

    # The same campaign as after the first finish, but for the finish time and the ids of the
    # army records written again (ids are never reused).
    def strip(rows):
        out = {k: v for k, v in rows.items() if k != "battle"}
        out["battle_army"] = sorted(r[1:] for r in out["battle_army"])
        return out

    assert strip(again) == strip(finished)
    # The demo's first battle came with its two records; finishing the raid adds two.
    assert len(before["battle_army"]) == 2 and len(finished["battle_army"]) == 4
    assert demo_sv.aftermath.aftermath(bid).result == demo_sv.aftermath.aftermath(bid).result
    assert demo_sv.aftermath.aftermath(bid).result.notes == "Ka-ping"
    done.undo()
    assert dump(demo_sv) == before


def test_only_a_battle_in_progress_can_be_finished(demo_sv: Services) -> None:
    [c] = demo_sv.campaigns.list_campaigns()
    armies = demo_sv.campaigns.list_armies(c.id)
    musters = [Muster(a.player_id, (demo_sv.roster.roster(a.id).units[1].id,)) for a in armies[:2]]
    b = demo_sv.battles.create_battle(c.id, "Not yet", musters).value
    am = demo_sv.aftermath.aftermath(b.id)
    with pytest.raises(UserError, match="has not started"):
        demo_sv.aftermath.finish(b.id, am.proposal)
    with pytest.raises(UserError, match="already finished"):
        ford = battle_id(demo_sv, "Skirmish at Baseplate Ford")
        demo_sv.aftermath.finish(ford, demo_sv.aftermath.aftermath(ford).proposal)


@st.composite
def battles(draw: st.DrawFn) -> dict[str, Any]:
    """A battle between two or three of the demo's players: who is mustered, who kills whom in
    the log, and the organizer's edits (statuses, killers, promotions, the winner)."""
    players = draw(st.sampled_from([(0, 1), (1, 2), (0, 2), (0, 1, 2), (2, 0)]))
    picks = {
        p: draw(st.lists(st.integers(0, 8), min_size=1, max_size=5, unique=True)) for p in players
    }
    kills = draw(st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), max_size=6))
    edits = draw(
        st.lists(
            st.tuples(
                st.integers(0, 40),
                st.sampled_from(["alive", "wounded", "dead"]),
                st.integers(0, 40),
                st.sampled_from([None, "hero", "minifig", "heavy"]),
            ),
            max_size=5,
        )
    )
    winner = draw(st.integers(-1, 2))
    return {"players": players, "picks": picks, "kills": kills, "edits": edits, "winner": winner}


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plan=battles())
def test_finishing_then_undoing_any_battle_leaves_the_campaign_as_before(
    demo_sv: Services, plan: dict[str, Any]
) -> None:
    sv = demo_sv
    [c] = sv.campaigns.list_campaigns()
    players = sv.campaigns.list_players(c.id)
    armies = {a.player_id: a for a in sv.campaigns.list_armies(c.id)}
    musters = []
    for p in plan["players"]:
        alive = [u for u in sv.roster.roster(armies[players[p].id].id).units if u.status != "dead"]
        ids = tuple(alive[i].id for i in plan["picks"][p] if i < len(alive))
        if not ids:
            return
        musters.append(Muster(players[p].id, ids))
    view = sv.tracker.begin(c.id, f"Battle {len(sv.battles.list_battles(c.id))}", musters).value
    units = [u.id for u in view.units]
    for a, t in plan["kills"]:
        actor, target = units[a % len(units)], units[t % len(units)]
        event = StatusSet(target, Status.DEAD) if actor == target else UnitKilled(target, actor)
        with contextlib.suppress(UserError):  # the rules refuse it (already dead): nothing stored
            sv.tracker.record(view.id, [event])
    before = dump(sv)
    am = sv.aftermath.aftermath(view.id)
    fates = {f.unit: f for f in am.proposal.fates}
    for i, status, k, promote in plan["edits"]:
        u = units[i % len(units)]
        killer = units[k % len(units)]
        fates[u] = UnitFate(
            u,
            status,
            killer if status == "dead" and killer != u else None,
            promote_to=promote if status != "dead" else None,
        )
    winner = (
        None
        if plan["winner"] < 0 or plan["winner"] >= len(am.players)
        else am.players[plan["winner"]].id
    )
    done = sv.aftermath.finish(view.id, BattleResult(tuple(fates.values()), winner, "n"))
    assert sv.battles.battle(view.id).battle.status == "finished"
    done.undo()
    assert dump(sv) == before
    with sv._sessions() as s:
        assert s.get(Battle, view.id).result is None


def test_export_and_import_keep_a_battles_result(demo_sv: Services) -> None:
    import json

    bid = battle_id(demo_sv, COVE)
    am = demo_sv.aftermath.aftermath(bid)
    ines = next(p.id for p in am.players if p.name == "Ines")
    slim = next(u.id for u in am.units if u.name == "Slim Jim Sparks")
    fates = tuple(replace(f, promote_to="hero") if f.unit == slim else f for f in am.proposal.fates)
    demo_sv.aftermath.finish(bid, BattleResult(fates, ines, "Held the pier"))
    [c] = demo_sv.campaigns.list_campaigns()
    doc = demo_sv.transfer.export_campaign(c.id)
    [exported] = [b for b in doc["battles"] if b["name"] == COVE]
    assert exported["result"]["notes"] == "Held the pier"
    copy = demo_sv.transfer.import_campaign(json.dumps(doc), source="t", name="Copy").value
    new = next(b.id for b in demo_sv.battles.list_battles(copy.id) if b.name == COVE)
    again = demo_sv.aftermath.aftermath(new)
    assert again.result is not None and again.result.notes == "Held the pier"
    assert next(p.name for p in again.players if p.id == again.result.winner) == "Ines"
    names = {u.id: u.name for u in again.units}
    assert [names[f.unit] for f in again.result.fates if f.fell] == ["Deckhand Dory"]
    assert {names[f.unit]: f.promote_to for f in again.result.fates if f.promote_to} == {
        "Slim Jim Sparks": "hero"
    }
    history = demo_sv.history.history(copy.id)
    assert history.timeline[-1].winner == "Ines" and not history.timeline[-1].from_log
    # A result that does not fit the battle is refused whole, saying where.
    exported["result"]["units"][0]["killed_by"] = 999
    with pytest.raises(UserError, match=r"result\.units\[0\]\.killed_by"):
        demo_sv.transfer.import_campaign(json.dumps(doc), source="t", name="Bad")
    assert [c.name for c in demo_sv.campaigns.list_campaigns()].count("Bad") == 0


def test_undo_of_an_ending_is_refused_once_someone_changed_a_units_record(
    demo_sv: Services,
) -> None:
    """Reopening (as "Shared data is versioned" in docs/conventions.md has it) puts the units'
    records back only if they are still what the ending left; another organizer's change since (a
    fallen unit brought back) is kept and the undo is refused with what changed."""
    from brikdesk.errors import ConflictError

    bid = battle_id(demo_sv, COVE)
    am = demo_sv.aftermath.aftermath(bid)
    done = demo_sv.aftermath.finish(bid, am.proposal)
    fallen = next(f for f in am.proposal.fates if f.fell)
    campaign_unit = next(
        u.unit_id for u in demo_sv.battles.battle(bid).units if u.id == fallen.unit
    )
    demo_sv.aftermath.resurrect(campaign_unit)  # the house rule, by someone else
    with pytest.raises(ConflictError, match="changed by someone else"):
        done.undo()
    assert demo_sv.battles.battle(bid).battle.status == "finished"
    assert demo_sv.roster.unit_rows([campaign_unit])[0].status == "alive"


def test_the_fallen_are_named_so_that_two_of_the_same_name_differ(sv: Services) -> None:
    """Two sides each lose a "Minifig 1": the finished battle names each with its owner
    ("fallen: Minifig 1, Minifig 1" told nothing); a name only one unit has stays plain."""
    campaign = sv.campaigns.create_campaign("Twins").value
    musters = []
    for side, names in (("Bob", ("Minifig 1", "Archer")), ("Ann", ("Minifig 1",))):
        player = sv.campaigns.add_player(campaign.id, side).value
        army = sv.campaigns.add_army(player.id, f"{side}'s army").value
        units = [sv.roster.add_unit(army.id, "minifig", name=n).value[0] for n in names]
        musters.append(Muster(player.id, tuple(units)))
    view = sv.tracker.begin(campaign.id, "Mirror", musters).value
    am = sv.aftermath.aftermath(view.id)
    fates = tuple(replace(f, status="dead") for f in am.proposal.fates)
    done = sv.aftermath.finish(view.id, BattleResult(fates, None, "")).value
    assert sorted(done.casualties) == ["Archer", "Minifig 1 (Ann)", "Minifig 1 (Bob)"]
