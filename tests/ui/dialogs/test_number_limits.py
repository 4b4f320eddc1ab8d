"""Budget and record boxes take a number above the limit in full and refuse it with the
reason (OK disabled), instead of cutting it silently to the box's maximum."""

from __future__ import annotations

from brikdesk.limits import MAX_NUMBER
from brikdesk.persistence.db import open_database
from brikdesk.services import Services
from brikdesk.services.demo import DEMO_NAME
from ui.dialogs.campaign import ArmyDialog, NewCampaignDialog
from ui.windows.unit_dialogs import UnitEditor


def type_into(qtbot, box, text: str) -> None:
    box.lineEdit().selectAll()
    qtbot.keyClicks(box.lineEdit(), text)


def test_a_default_budget_above_the_limit_is_refused_not_capped(qtbot) -> None:
    dlg = NewCampaignDialog(None)
    qtbot.addWidget(dlg)
    dlg.name.setText("Winter War")
    type_into(qtbot, dlg.budget, "9999999")
    assert dlg.budget.value() == 9_999_999  # typed in full, not cut to 999999
    assert not dlg.ok_button.isEnabled()
    assert (
        dlg.problem.text() == f"The default budget can't be more than {MAX_NUMBER:,} "
        "(not 9,999,999)."
    )
    type_into(qtbot, dlg.budget, str(MAX_NUMBER))
    assert dlg.ok_button.isEnabled()


def test_an_army_budget_above_the_limit_is_refused(qtbot) -> None:
    dlg = ArmyDialog(None, "Add army", ())
    qtbot.addWidget(dlg)
    dlg.name.setText("Red Vanguard")
    type_into(qtbot, dlg.budget, "5000000")
    assert not dlg.ok_button.isEnabled() and "can't be more than" in dlg.problem.text()
    dlg.has_budget.setChecked(False)  # no budget: nothing to refuse
    assert dlg.ok_button.isEnabled()


def test_battles_fought_and_kills_above_the_limit_are_refused(qtbot, demo_db) -> None:
    db = open_database(demo_db)
    try:
        sv = Services.open(db)
        cid = sv.campaigns.find_campaign(DEMO_NAME).id
        army = sv.campaigns.list_armies(cid)[0]
        row = sv.roster.roster(army.id).units[0]
        dlg = UnitEditor(None, row, sv.catalog.catalog(cid))
        qtbot.addWidget(dlg)
        type_into(qtbot, dlg.battles, "1000001")
        assert dlg.battles.value() == 1_000_001
        assert not dlg.ok_button.isEnabled()
        assert dlg.problem.text().startswith("Battles fought can't be more than 1,000,000")
        type_into(qtbot, dlg.battles, "12")
        type_into(qtbot, dlg.kills, "2000000")
        assert dlg.problem.text().startswith("Kills can't be more than")
    finally:
        db.close()
