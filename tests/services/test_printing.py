"""The print service against the demo campaign: finding armies and battles as a user names
them, the roster sheet of an army (dead units left out, campaign records on the cards) and the
battle report read from the stored event log."""

from __future__ import annotations

from pathlib import Path

import pytest

from brikdesk.domain.report import report_markdown
from brikdesk.domain.sheets import RosterSheetOptions
from brikdesk.errors import UserError
from brikdesk.persistence.db import Database
from brikdesk.services import Services
from brikdesk.services.demo import DEMO_NAME
from brikdesk.services.printing import (
    PrintService,
    check_out_path,
    write_report_markdown,
)


@pytest.fixture
def ps(demo_db: Database, clock) -> PrintService:
    return PrintService(demo_db.sessions, clock)


def ids(sv: Services) -> dict[str, int]:
    c = sv.campaigns.find_campaign(DEMO_NAME)
    nav = sv.campaigns.navigator(c.id)
    return {
        **{a.name: a.id for a in nav.armies},
        **{b.name: b.id for b in nav.battles},
        "campaign": c.id,
    }


# --------------------------------------------------------------------------- finding


def test_an_army_is_found_by_id_by_name_in_any_case_or_by_a_unique_part(ps, demo_sv):
    posse = ids(demo_sv)["Moonlight Posse"]
    assert ps.find_army(str(posse)).id == posse
    assert ps.find_army("  moonlight   POSSE ").id == posse
    assert ps.find_army("posse").id == posse
    found = ps.find_army("vanguard")
    assert (found.name, found.context) == ("The Red Vanguard", f"Margo, {DEMO_NAME}")


def test_an_ambiguous_name_lists_the_candidates_with_their_ids(ps, demo_sv):
    i = ids(demo_sv)
    with pytest.raises(UserError) as err:
        ps.find_army("the")
    msg = str(err.value)
    assert msg == (
        f"'the' matches 2 armies: 'The Red Vanguard' (id {i['The Red Vanguard']}, "
        f"Margo, {DEMO_NAME}), 'The Salty Bilge Crew' (id "
        f"{i['The Salty Bilge Crew']}, Ines, {DEMO_NAME}); give the id"
    )
    assert "\n" not in msg


def test_an_unknown_name_says_which_there_are(ps):
    with pytest.raises(
        UserError,
        match=r"^there is no army called 'Blue Army'; the armies "
        r"are: 'The Red Vanguard' \(id \d+, Margo, ",
    ):
        ps.find_army("Blue Army")
    with pytest.raises(
        UserError,
        match="^there is no battle called 'Siege'; the battles are: 'Skirmish at Baseplate Ford'",
    ):
        ps.find_battle("Siege")
    with pytest.raises(UserError, match="name the army"):
        ps.find_army("  ")


def test_the_campaign_narrows_the_search(ps, demo_sv):
    i = ids(demo_sv)
    copy = demo_sv.transfer.import_campaign(
        demo_sv.transfer.export_json(i["campaign"]), name="Second Front"
    ).value
    with pytest.raises(UserError, match="'vanguard' matches 2 armies"):
        ps.find_army("vanguard")
    theirs = ps.find_army("vanguard", campaign="second front")
    assert theirs.campaign_id == copy.id and theirs.context == "Margo"
    assert ps.find_battle("ford", campaign=str(i["campaign"])).id == i["Skirmish at Baseplate Ford"]
    with pytest.raises(UserError, match="^there is no campaign called 'Third'"):
        ps.find_army("vanguard", campaign="Third")
    with pytest.raises(
        UserError,
        match="^there is no army called 'Bilge Rats' in 'Second "
        "Front'; the armies are: 'The Red Vanguard'",
    ):
        ps.find_army("Bilge Rats", campaign="Second Front")


# --------------------------------------------------------------------------- roster sheets


def test_the_roster_sheet_leaves_out_the_dead_and_shows_campaign_records(ps, demo_sv, clock):
    posse = ids(demo_sv)["Moonlight Posse"]
    job = ps.roster_sheet(posse, RosterSheetOptions(fold_identical=False))
    # Cactus Pete and Rusty died at Baseplate Ford
    assert job.left_out == ('Rusty "Two-Studs" McGee', "Cactus Pete")
    titles = [c.title for c in job.sheet.cards]
    assert titles == [
        "Marshal Dusty Flatstud",
        "Deputy Lulu Grayle",
        "Dynamite Dot",
        "Big Hank the Anvil",
        "Clementine",
        "Slim Jim Sparks",
        "Doc Holloway",
        "Tumbleweed Tess",
    ]
    notes = {c.title: c.campaign_notes for c in job.sheet.cards}
    assert notes["Marshal Dusty Flatstud"] == "1 battle"  # fought at the ford, no kill
    assert notes["Dynamite Dot"] == ""  # the Bilge Cove battle is not finished
    h = job.sheet.header
    assert (h.army, h.player, h.campaign, h.budget, h.colour) == (
        "Moonlight Posse",
        "Tobias",
        DEMO_NAME,
        50,
        "#2e86c1",
    )
    assert h.date == clock.now.astimezone().date()
    assert h.total_cost == sum(c.total_cost for c in job.sheet.cards)


def test_dead_units_are_printed_when_asked_and_kills_are_counted(ps, demo_sv):
    i = ids(demo_sv)
    posse = ps.roster_sheet(i["Moonlight Posse"], include_dead=True)
    assert posse.left_out == ()
    notes = {c.title: c.campaign_notes for c in posse.sheet.cards}
    assert notes["Cactus Pete"] == "Dead in the campaign; 1 battle"
    vanguard = {
        c.title: c.campaign_notes for c in ps.roster_sheet(i["The Red Vanguard"]).sheet.cards
    }
    assert vanguard["Sir Reginald Studsworth"] == "1 battle, 1 kill"
    assert vanguard["Crossbow Kate"] == "1 battle, 1 kill"


def test_the_sheet_options_are_kept(ps, demo_sv):
    opts = RosterSheetOptions(
        paper="letter", turns=9, black_and_white=True, include_warnings=True, blank_cards=0
    )
    job = ps.roster_sheet(ids(demo_sv)["The Red Vanguard"], opts)
    assert job.sheet.options == opts and job.sheet.blank_cards == 0
    # the demo's Red Vanguard is over budget and Brother Axel wears two suits of armour
    texts = [w.text for w in job.sheet.warnings]
    assert any("over budget" in t for t in texts)
    assert any(t.startswith("Brother Axel of the Grey Plate:") for t in texts)


# --------------------------------------------------------------------------- battle reports


def test_the_report_of_the_demos_finished_battle(ps, demo_sv):
    bid = ids(demo_sv)["Skirmish at Baseplate Ford"]
    r = ps.battle_report(bid)
    summary = demo_sv.battles.battle(bid).battle
    assert (r.facts.name, r.facts.campaign, r.facts.status, r.facts.edition) == (
        "Skirmish at Baseplate Ford",
        DEMO_NAME,
        "finished",
        "2020",
    )
    assert r.facts.date == summary.finished_at.astimezone().date()
    assert [p.name for p in r.players] == ["Margo", "Tobias"]
    assert [(c.player, c.mustered, c.lost, c.kills, c.fallen) for c in r.casualties] == [
        ("Margo", 4, 0, 2, ()),
        ("Tobias", 4, 2, 0, ("Cactus Pete", 'Rusty "Two-Studs" McGee')),
    ]
    assert [rc.lost for rc in r.per_round] == [(0, 1), (0, 1)]
    assert r.result == "Tobias's posse falls back across the ford; Margo holds Baseplate Ford."
    first = r.entries[0]
    assert first.headline == (
        "Crossbow Kate (Margo) attacks Cactus Pete (Tobias) with a Long-Ranged Weapon"
    )
    assert first.rolls == (
        "Action Roll: d6 5, -1 = 4 against Use 3: hit",
        "Damage: d6 3, +1, -1 = 3 against Armor 0",
    )
    # every attack of the log is told, with its dice
    attacks = [e for e in demo_sv.battles.events(bid) if e.kind == "attack_resolved"]
    told = [e for e in r.entries if e.is_attack]
    assert [e.seq for e in told] == [e.seq for e in attacks]
    assert all(e.rolls for e in told)


def test_undone_events_are_not_in_the_report(ps, demo_sv):
    bid = ids(demo_sv)["Raid on Bilge Cove"]
    before = ps.battle_report(bid)
    assert [t.title for t in before.rounds[-1].turns] == [
        "Tobias's turn",
        "Ines's turn (in progress)",
    ]
    demo_sv.tracker.undo(bid)  # Gunner Magda's Over the Top
    after = ps.battle_report(bid)
    assert len(after.entries) == len(before.entries) - 1
    assert after.tally.over_the_top == before.tally.over_the_top - 1 == 0


def test_markdown_is_written_atomically(ps, demo_sv, tmp_path: Path):
    r = ps.battle_report(ids(demo_sv)["Skirmish at Baseplate Ford"])
    path = write_report_markdown(r, tmp_path / "ford.md")
    assert path.read_text(encoding="utf-8") == report_markdown(r)
    assert sorted(p.name for p in tmp_path.iterdir() if "ford" in p.name) == ["ford.md"]
    with pytest.raises(UserError, match="the folder .* does not exist"):
        write_report_markdown(r, tmp_path / "nope" / "ford.md")


def test_the_output_path_is_checked_before_any_work(tmp_path: Path):
    assert check_out_path(tmp_path / "a.PDF", ".pdf") == tmp_path / "a.PDF"
    with pytest.raises(UserError, match=r"must end in \.pdf or \.md$"):
        check_out_path(tmp_path / "a.txt", ".pdf", ".md")
    with pytest.raises(UserError, match="is a folder"):
        check_out_path(tmp_path, "")
    with pytest.raises(UserError, match="does not exist"):
        check_out_path(tmp_path / "x" / "a.pdf", ".pdf")


def test_the_report_says_who_won_as_the_organizer_decided(ps, demo_sv):
    """The winner picked at End battle is the report's outcome, in every form it takes; a
    battle still going on has none."""
    from dataclasses import replace as changed

    i = ids(demo_sv)
    ford = ps.battle_report(i["Skirmish at Baseplate Ford"])
    assert ford.outcome == "Margo won"  # the demo's finished battle: Margo holds the ford
    assert "**Outcome:** Margo won" in report_markdown(ford)
    cove = i["Raid on Bilge Cove"]
    assert ps.battle_report(cove).outcome == ""  # in progress
    am = demo_sv.aftermath.aftermath(cove)
    demo_sv.aftermath.finish(cove, changed(am.proposal, winner=None, notes="Nobody held."))
    drawn = ps.battle_report(cove)
    assert drawn.outcome == "A draw"
    assert "**Outcome:** A draw" in report_markdown(drawn)
