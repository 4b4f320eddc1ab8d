"""``brikdesk print --battle``: the roster sheet of exactly the units mustered into a battle."""

from __future__ import annotations

from pathlib import Path

from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from tests.commands.headless import run
from tests.pdfread import pdf_text

COVE_UNITS = [
    "Dynamite Dot",
    "Big Hank the Anvil",
    "Slim Jim Sparks",
    "Tumbleweed Tess",
    "Captain Peg-Leg Pennywhistle",
    "First Mate Barnacle Bess",
    "Gunner Magda",
    "Bosun Grogg",
    "Deckhand Dory",
]


def test_print_battle_writes_exactly_the_mustered_units(tmp_path: Path, demo_copy: str) -> None:
    url = demo_copy
    out = tmp_path / "cove.pdf"
    done = run(
        ["--db", url, "print", "--battle", "bilge cove", "--out", str(out), "--blank-cards", "0"],
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "'Raid on Bilge Cove' (Tobias vs Ines), 9 units on 9 cards" in done.stdout
    text = pdf_text(out)
    assert all(name in text for name in COVE_UNITS)
    # Units of the same armies that were not mustered are not on the sheet.
    assert "Marshal Dusty Flatstud" not in text and "Swabbie Nils" not in text
    assert "Tobias, Moonlight Posse" in text and "Ines, The Salty Bilge Crew" in text
    assert "Tobias vs Ines" in text

    both = run(
        ["--db", url, "print", "--battle", "cove", "--army", "posse", "--out", str(out)], tmp_path
    )
    assert both.returncode == 2 and "not allowed with argument" in both.stderr
    dead = run(
        ["--db", url, "print", "--battle", "cove", "--include-dead", "--out", str(out)], tmp_path
    )
    assert dead.returncode == 2 and "--include-dead is for an army" in dead.stderr


def test_the_battle_sheet_keeps_the_units_as_mustered(tmp_path: Path, demo_copy: str) -> None:
    """Renaming a unit in the campaign afterwards does not change the battle's sheet."""
    url = demo_copy
    db = open_database(url)
    try:
        sv = Services.open(db)
        [c] = sv.campaigns.list_campaigns()
        crew = next(a for a in sv.campaigns.list_armies(c.id) if a.name.endswith("Crew"))
        from brikdesk.services.roster import UnitPatch

        dory = next(u for u in sv.roster.roster(crew.id).units if u.name == "Deckhand Dory")
        sv.roster.edit_unit(dory.id, UnitPatch(name="Admiral Dory"))
        battle = sv.printing.find_battle("cove")
        job = sv.printing.battle_roster_sheet(battle.id)
        names = [n for card in job.sheet.cards for n in card.members]
        assert sorted(names) == sorted(COVE_UNITS)
    finally:
        db.close()
