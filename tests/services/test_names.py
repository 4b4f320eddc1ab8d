"""Names that lie are refused: bidirectional controls and zero-width characters at the field
(and in an import, with the path in the document), and a name that equals an existing one after
Unicode NFKC and case folding (fullwidth "Ｒｅｄ" beside "Red") as a duplicate."""

from __future__ import annotations

import json

import pytest

from brikdesk.errors import UserError
from brikdesk.limits import name_key
from brikdesk.services import Services
from tests.services.conftest import Camp


@pytest.mark.parametrize(
    "name, code",
    [
        ("Sgt \u202eok 1 SLLIK", "U+202E (RIGHT-TO-LEFT OVERRIDE) at position 5"),
        ("\u200b\u200b\u200b", "U+200B (ZERO WIDTH SPACE) at position 1"),
        ("Re\u200dd", "U+200D (ZERO WIDTH JOINER) at position 3"),
        ("Blue\u2067", "U+2067 (RIGHT-TO-LEFT ISOLATE) at position 5"),
    ],
)
def test_invisible_characters_are_refused_at_the_field(
    sv: Services, camp: Camp, name: str, code: str
) -> None:
    with pytest.raises(UserError) as info:
        sv.campaigns.add_player(camp.campaign.id, name)
    assert info.value.field == "name"
    assert str(info.value) == (
        f"The player's name contains the invisible character {code} "
        "(a name can't hold characters that change how it reads)"
    )
    with pytest.raises(UserError, match="invisible character"):
        sv.roster.add_unit(camp.red_army.id, "minifig", name=name)


@pytest.mark.parametrize("look_alike", ["Ｒｅｄ", "RED", "ｒｅｄ", "Red\u3000"])
def test_a_look_alike_of_an_existing_player_is_a_duplicate(
    sv: Services, camp: Camp, look_alike: str
) -> None:
    with pytest.raises(UserError, match="this campaign already has a player called 'Red'"):
        sv.campaigns.add_player(camp.campaign.id, look_alike)
    with pytest.raises(UserError, match="already has a player called 'Red'"):
        sv.campaigns.update_player(camp.blue.id, _patch(look_alike))
    assert name_key(look_alike) == "red"


def test_a_fullwidth_look_alike_of_a_campaign_is_a_duplicate(sv: Services, camp: Camp) -> None:
    with pytest.raises(UserError, match="a campaign called 'Test Campaign' already exists"):
        sv.campaigns.create_campaign("Ｔｅｓｔ　Ｃａｍｐａｉｇｎ")


def test_an_import_refuses_invisible_and_look_alike_names_with_their_path(
    sv: Services, camp: Camp
) -> None:
    doc = sv.transfer.export_campaign(camp.campaign.id)
    doc["campaign"]["name"] = "Imported"
    doc["players"][1]["name"] = "Bl\u202eue"
    with pytest.raises(UserError) as info:
        sv.transfer.import_campaign(json.dumps(doc))
    assert "$.players[1].name" in str(info.value)
    assert "invisible character U+202E" in str(info.value)
    doc["players"][1]["name"] = "ＲＥＤ"
    with pytest.raises(UserError, match=r"\$\.players\[1\]\.name: two players are called"):
        sv.transfer.import_campaign(json.dumps(doc))


def _patch(name: str):
    from brikdesk.services.summaries import PlayerPatch

    return PlayerPatch(name=name)
