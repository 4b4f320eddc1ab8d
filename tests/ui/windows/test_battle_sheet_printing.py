"""The roster sheet of a battle's mustered units from the app: Battle menu and navigator."""

from __future__ import annotations

from PySide6.QtPrintSupport import QPrintPreviewWidget

from brikdesk.domain.sheets import RosterSheetOptions
from ui.widgets.print_options import RosterChoice, RosterOptionsDialog
from ui.windows.navigator import BATTLE


def test_the_mustered_units_sheet_previews_from_the_navigator(
    open_main, demo_db, qtbot, monkeypatch
) -> None:
    main = open_main(demo_db)
    asked = []

    def ask(cls, *args, **kwargs):
        asked.append(args)
        return RosterChoice(RosterSheetOptions(blank_cards=0), False)

    monkeypatch.setattr(RosterOptionsDialog, "ask", classmethod(ask))
    cove = next(b.id for b in main.nav.battles if b.name == "Raid on Bilge Cove")
    main.navigator.select(BATTLE, cove)
    assert main.main_actions.battle_sheet_action in main.navigator.actions()  # the context menu
    assert main.main_actions.battle_sheet_action.isEnabled()
    main.main_actions.battle_sheet_action.trigger()
    qtbot.waitUntil(lambda: main.battle_sheet_printing.preview_dialog is not None, timeout=20_000)
    dialog = main.battle_sheet_printing.preview_dialog
    assert asked and asked[0][2] == "Raid on Bilge Cove"
    assert dialog.windowTitle() == "Print preview: Raid on Bilge Cove: roster sheet"
    preview = dialog.findChild(QPrintPreviewWidget)
    qtbot.waitUntil(lambda: preview.pageCount() > 0, timeout=10_000)
    sheet = main.battle_sheet_printing.last_result.sheet
    assert sheet.unit_count == 9 and sheet.header.player == "Tobias vs Ines"
    dialog.close()
