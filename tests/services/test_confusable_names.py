"""A name that Unicode's confusable skeleton (UTS #39, section 4) makes the same as another in
its scope is a duplicate: a Cyrillic "Mаrgo" beside "Margo" for players and armies of one
campaign, and for campaigns; refused naming the existing one, in an import too. Unit names may
still repeat. The skeleton is checked against Unicode's data (``resources/confusables.json``,
made by ``scripts/make_confusables.py`` from Unicode's ``confusables.txt``)."""

from __future__ import annotations

import json
import unicodedata

import pytest

from brikdesk.confusables import name_marks, prototypes, same_name, skeleton
from brikdesk.errors import UserError
from brikdesk.paths import resource_path
from brikdesk.services import Services
from brikdesk.services.summaries import ArmyPatch, PlayerPatch
from tests.services.conftest import Camp

CYRILLIC_A = "\u0430"  # CYRILLIC SMALL LETTER A, which confusables.txt maps to "a"
MARGO = f"M{CYRILLIC_A}rgo"


def test_the_skeleton_follows_unicodes_data() -> None:
    """NFD, each character's prototype, NFD again: the prototypes as Unicode lists them."""
    assert unicodedata.name(MARGO[1]) == "CYRILLIC SMALL LETTER A"
    assert prototypes()[CYRILLIC_A] == "a"
    assert prototypes()["1"] == "l" and prototypes()["0"] == "O" and prototypes()["m"] == "rn"
    assert skeleton(MARGO) == skeleton("Margo") == "Margo"
    assert skeleton("IVAN") == skeleton("lVAN") == "lVAN"
    assert skeleton("rnargo") == skeleton("margo") == "rnargo"  # "rn" reads as "m"
    assert skeleton("Ｍａｒｇｏ") != skeleton("Margo")  # width is name_key's part: NFKC
    assert same_name("Ｍａｒｇｏ", MARGO) and same_name("IVAN", "lVAN")
    assert not same_name("Margo", "Marge") and not same_name("Red", "Rod")
    data = json.loads(resource_path("confusables.json").read_text(encoding="utf-8"))
    assert data["source"].startswith("Unicode confusables.txt") and data["version"]


def test_the_generator_reads_unicodes_file_format() -> None:
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "scripts" / "make_confusables.py"
    spec = importlib.util.spec_from_file_location("make_confusables", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sample = (
        "\ufeff# confusables.txt\n# Date: 2099-01-01, 00:00:00 GMT\n# Version: 99.0.0\n\n"
        "0430 ;\t0061 ;\tMA\t# ( а → a ) CYRILLIC SMALL LETTER A → LATIN SMALL LETTER A\t#\n"
        "006D ;\t0072 006E ;\tMA\t# ( m → rn ) LATIN SMALL LETTER M → r, n\t#\n"
    )
    assert module.convert(sample) == {
        "source": "Unicode confusables.txt (UTS #39, Unicode Security Mechanisms)",
        "version": "99.0.0",
        "date": "2099-01-01",
        "prototypes": {"m": "rn", CYRILLIC_A: "a"},
    }


def test_a_confusable_player_name_is_refused_naming_the_existing_one(
    sv: Services, camp: Camp
) -> None:
    sv.campaigns.add_player(camp.campaign.id, "Margo")
    with pytest.raises(UserError) as info:
        sv.campaigns.add_player(camp.campaign.id, MARGO)
    assert str(info.value) == "this campaign already has a player called 'Margo'"
    assert info.value.field == "name"
    with pytest.raises(UserError, match="already has a player called 'Margo'"):
        sv.campaigns.update_player(camp.blue.id, PlayerPatch(name=MARGO))
    # A player may take a look-alike of their own name (nobody else has it).
    sv.campaigns.update_player(camp.red.id, PlayerPatch(name="R\u0435d"))
    players = sv.transfer.export_campaign(camp.campaign.id)["players"]
    assert "R\u0435d" in [p["name"] for p in players]
    # Another campaign is another scope.
    other = sv.campaigns.create_campaign("Other Campaign").value
    assert sv.campaigns.add_player(other.id, MARGO).value.name == MARGO


def test_a_confusable_army_name_is_refused_but_units_may_repeat(sv: Services, camp: Camp) -> None:
    look_alike = f"Red {chr(0x0410)}rmy"  # CYRILLIC CAPITAL LETTER A
    for owner in (camp.red.id, camp.blue.id):
        with pytest.raises(UserError) as info:
            sv.campaigns.add_army(owner, look_alike)
        assert str(info.value) == "this campaign already has an army called 'Red Army'"
    with pytest.raises(UserError, match="already has an army called 'Red Army'"):
        sv.campaigns.update_army(camp.blue_army.id, ArmyPatch(name=look_alike))
    with pytest.raises(UserError, match="already has an army called 'Blue Army'"):
        sv.roster.duplicate_army(camp.red_army.id, "BLUE ARMY", player_id=camp.red.id, budget=None)
    first = sv.roster.add_unit(camp.red_army.id, "minifig", name="Margo").value
    second = sv.roster.add_unit(camp.blue_army.id, "minifig", name=MARGO).value
    third = sv.roster.add_unit(camp.red_army.id, "minifig", name="Margo").value
    assert len({*first, *second, *third}) == 3


def test_a_confusable_campaign_name_is_refused(sv: Services, camp: Camp) -> None:
    with pytest.raises(UserError) as info:
        sv.campaigns.create_campaign(f"T{chr(0x0435)}st C{CYRILLIC_A}mpaign")
    assert (
        str(info.value) == "a campaign called 'Test Campaign' already exists; choose another name"
    )


def test_an_import_refuses_confusable_players_and_armies(sv: Services, camp: Camp) -> None:
    doc = sv.transfer.export_campaign(camp.campaign.id)
    doc["campaign"]["name"] = "Imported"
    doc["players"][1]["name"] = "R\u0435d"
    with pytest.raises(UserError) as info:
        sv.transfer.import_campaign(json.dumps(doc))
    assert "$.players[1].name: two players are called 'Red' and 'R\u0435d', which look alike" in (
        str(info.value)
    )
    doc["players"][1]["name"] = "Blue"
    doc["armies"][1]["name"] = f"Red {chr(0x0410)}rmy"
    with pytest.raises(UserError, match=r"\$\.armies\[1\]\.name: two armies are called 'Red Army'"):
        sv.transfer.import_campaign(json.dumps(doc))
    doc["armies"][1]["name"] = "Blue Army"
    doc["campaign"]["name"] = f"T{chr(0x0435)}st Campaign"
    with pytest.raises(UserError, match="a campaign called 'Test Campaign' already exists"):
        sv.transfer.import_campaign(json.dumps(doc))
    assert sorted(name_marks(MARGO)) == ["folded:rnargo", "written:Margo"]
