"""Enter does the obvious thing: in every dialog that records what the table did or what the
organizer typed, Enter after the last value records it, and Cancel is never the default (a
field hidden as its die came in once left the focus on Cancel, and Enter lost a Sprint).

Each dialog of the app (``tests/ui/every_dialog.py``) is opened, the focus put on its Cancel
with the keyboard, and Enter pressed: the dialog must not be cancelled. Then the dialogs that
record are filled with keys only and Enter pressed, and what they recorded read back.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QWizard

from tests.ui.every_dialog import DIALOGS, World
from tests.ui.keyboard import focused, keys, shown


def _cancel_of(dialog: QDialog):
    if isinstance(dialog, QWizard):
        return dialog.button(QWizard.WizardButton.CancelButton)
    for box in dialog.findChildren(QDialogButtonBox):
        cancel = box.button(QDialogButtonBox.StandardButton.Cancel)
        if cancel is not None and cancel.isVisible():
            return cancel
    return None


#: The dialogs that record nothing (a reading, a crash, a choice of what to do next, a wait
#: for the server whose one button cancels the wait) and so have no Cancel beside a Record.
NO_CANCEL = {
    "ServerNotice",
    "AboutDialog",
    "CrashDialog",
    "OpenFailedDialog",
    "RulesReferenceDialog",
    "ShareDialog",
    "UserGuideWindow",
}


@pytest.mark.parametrize("name", sorted(set(DIALOGS) - NO_CANCEL))
def test_enter_on_cancel_never_cancels_a_dialog_that_records(
    qtbot, world: World, name: str
) -> None:
    dialog, _first = DIALOGS[name](world)
    shown(qtbot, dialog)
    cancel = _cancel_of(dialog)
    assert cancel is not None, f"{name} has no Cancel"
    rejected: list[bool] = []
    dialog.rejected.connect(lambda: rejected.append(True))
    cancel.setFocus(Qt.FocusReason.TabFocusReason)
    QTest.keyClick(cancel, Qt.Key.Key_Return)
    qtbot.wait(1)
    assert rejected == [], f"{name}: Enter on Cancel cancelled it"
    dialog.close()


@pytest.mark.parametrize("name", sorted(NO_CANCEL))
def test_the_dialogs_without_cancel_record_nothing(qtbot, world: World, name: str) -> None:
    dialog, _first = DIALOGS[name](world)
    shown(qtbot, dialog)
    assert _cancel_of(dialog) is None
    dialog.close()


def test_new_campaign_typed_and_entered_is_recorded(qtbot, world: World) -> None:
    from ui.dialogs.campaign import NewCampaignDialog

    d = NewCampaignDialog(None, ["Sherwood"])
    shown(qtbot, d)
    keys(qtbot, "Nottingham\n")
    assert d.result() == QDialog.DialogCode.Accepted
    assert d.value().name == "Nottingham"


def test_add_units_typed_and_entered_is_recorded(qtbot, world: World) -> None:
    from ui.windows.unit_dialogs import AddUnitsDialog

    d = AddUnitsDialog(None, world.catalog, None, 3, None)
    shown(qtbot, d)
    keys(qtbot, "4\n")
    assert d.result() == QDialog.DialogCode.Accepted
    assert d.value().count == 4


def test_end_battle_chosen_with_keys_and_entered_is_recorded(qtbot, world: World) -> None:
    """The first unit's fate is changed with the arrow keys and Enter ends the battle with it."""
    d, first = DIALOGS["EndBattleDialog"](world)
    shown(qtbot, d)
    before = first.currentIndex()
    QTest.keyClick(focused(), Qt.Key.Key_Down)
    assert first.currentIndex() != before
    keys(qtbot, "\n")
    assert d.result() == QDialog.DialogCode.Accepted
    assert d.fates()[0].status == first.currentData()


def test_edition_change_chosen_with_keys_and_entered_is_recorded(qtbot, world: World) -> None:
    d, first = DIALOGS["EditionChangeDialog"](world)
    shown(qtbot, d)
    QTest.keyClick(focused(), Qt.Key.Key_Down)
    chosen = first.currentData()
    keys(qtbot, "\n")
    assert d.result() == QDialog.DialogCode.Accepted
    assert chosen in d.value()[0].values()


def test_a_non_attack_action_typed_and_entered_is_recorded(qtbot, world: World) -> None:
    """4.2 Use Ratings: the die typed, Use 3 by default, Enter: the roll is the Action's words;
    a natural 6 asks for its Benny by letter first."""
    d, _first = DIALOGS["ActionRollDialog"](world)
    shown(qtbot, d)
    keys(qtbot, "4\n")
    assert d.result() == QDialog.DialogCode.Accepted
    assert d.value() == "an Action, Action Roll d6 4 vs Use 3: success"
    d, _first = DIALOGS["ActionRollDialog"](world)
    shown(qtbot, d)
    keys(qtbot, "6")
    assert not d.ok_button.isEnabled() and d.chooser.isVisible()
    keys(qtbot, "a2\n")  # the Benny: +1d6 to the Action Roll, its die 2
    assert d.result() == QDialog.DialogCode.Accepted
    assert d.value() == (
        "an Action, Action Roll d6 6+2 vs Use 3: success (Over the Top: +1d6 to the Action Roll)"
    )
