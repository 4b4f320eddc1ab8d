"""Mustering under a budget for the battle: over it is a warning that says by how much."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from ui.panels.start_dialog import StartBattleDialog


@pytest.fixture
def demo(demo_db: str) -> Iterator[Services]:
    db = open_database(demo_db)
    yield Services.open(db)
    db.close()


def test_an_over_budget_muster_says_by_how_much_and_may_still_start(qtbot, demo: Services) -> None:
    [c] = demo.campaigns.list_campaigns()
    players = {p.name: p.id for p in demo.campaigns.list_players(c.id)}
    armies = {a.player_id: a for a in demo.campaigns.list_armies(c.id)}
    dialog = StartBattleDialog(None, demo, c.id)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.focusWidget() is dialog.name
    assert dialog.budget.value() == c.default_budget == 80
    dialog.check_player(players["Margo"])
    dialog.check_player(players["Ines"])
    margo = sum(
        u.cost for u in demo.roster.roster(armies[players["Margo"]].id).units if u.status != "dead"
    )
    ines = sum(
        u.cost for u in demo.roster.roster(armies[players["Ines"]].id).units if u.status != "dead"
    )
    qtbot.waitUntil(lambda: dialog.start_button.isEnabled())
    assert f"Margo: 11 units, {margo} CP" in dialog.count_label.text()
    assert margo > 80 >= ines
    assert dialog.budget_warning.isVisible()
    assert dialog.budget_warning.text().splitlines()[0] == (
        f"Margo is over this battle's budget of 80 CP by {margo - 80} CP ({margo} CP)"
    )
    # Lower the budget: both sides are over; no budget: no warning. Never blocked.
    dialog.budget.setValue(ines - 1)
    qtbot.waitUntil(lambda: dialog.budget_warning.text().count("this battle's budget") == 2)
    assert "by 1 CP" in dialog.budget_warning.text()
    assert dialog.start_button.isEnabled()
    dialog.budget.setValue(0)
    # No budget for the battle: only Margo's army, over its own budget, is still named.
    qtbot.waitUntil(lambda: "this battle's budget" not in dialog.budget_warning.text())
    assert dialog.budget_warning.text().endswith("the battle can still start.")
    assert dialog.budget.text() == "no budget"
    assert dialog.request() is not None
