"""Counts read as words: "1 battle", not "1 battles"."""

from __future__ import annotations

from tests.ui.every_dialog import World


def test_open_campaign_counts_one_battle_as_one_battle(qtbot, world: World) -> None:
    from ui.dialogs.campaign import OpenCampaignDialog

    [c] = world.services.campaigns.list_campaigns()
    assert c.battles == 1
    d = OpenCampaignDialog(None, [c])
    qtbot.addWidget(d)
    text = d.list.item(0).text()
    assert " · 1 battle · " in text, text
    assert f"{c.units} units" in text and f"{c.players} players" in text
