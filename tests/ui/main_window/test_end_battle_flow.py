"""End battle in the app: the prompt, the post-battle dialog, one undo step, a read-only
finished battle with its report one click away, the standings and the History window."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from brikdesk.domain.battle import UnitKilled
from ui.dialogs.end_battle import EndBattleDialog

COVE = "Raid on Bilge Cove"


def cove(main) -> int:
    return next(b.id for b in main.nav.battles if b.name == COVE)


def test_the_post_battle_dialog_proposes_the_log_and_takes_edits(qtbot, open_main, demo_db) -> None:
    main = open_main(demo_db)
    dialog = EndBattleDialog(main, main.services, cove(main))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    qtbot.waitUntil(dialog.loaded)  # read on a worker
    assert dialog.focusWidget() is dialog.status_boxes[0]
    am = dialog.aftermath
    by = {u.name: u.id for u in am.units}
    row = {u.name: i for i, u in enumerate(am.units)}
    assert dialog.table.rowCount() == 9
    dory = row["Deckhand Dory"]
    assert dialog.status_boxes[dory].currentText() == "Fell"
    assert dialog.killer_boxes[dory].currentText() == "Dynamite Dot (Tobias)"
    assert dialog.table.item(row["Dynamite Dot"], 4).text() == "1"
    assert "holds the field" in dialog.suggestion.text()
    # Overrule the log: the players agree Dory swam ashore.
    dialog.set_fate(by["Deckhand Dory"], "alive")
    assert dialog.table.item(row["Dynamite Dot"], 4).text() == "0"
    assert not dialog.killer_boxes[dory].isEnabled()
    # ... and Magda fell to Big Hank after all.
    dialog.set_fate(by["Gunner Magda"], "dead", by["Big Hank the Anvil"])
    assert dialog.table.item(row["Big Hank the Anvil"], 4).text() == "1"
    assert not dialog.promote_boxes[row["Gunner Magda"]].isEnabled()
    # Promote Slim Jim: the army's new total and its budget, over budget is only a warning.
    dialog.promote(by["Slim Jim Sparks"], "hero")
    qtbot.waitUntil(dialog.previews_ready)  # read on a worker
    assert "Moonlight Posse" in dialog.promotions.text()
    assert "over budget by" in dialog.promotions.text()
    assert dialog.end_button.isEnabled()
    result = dialog.battle_result()
    assert result.fate(by["Slim Jim Sparks"]).promote_to == "hero"
    assert result.kills() == {by["Big Hank the Anvil"]: 1}


def test_a_kill_recorded_in_another_process_refreshes_the_open_dialog(
    qtbot, open_main, demo_db, monkeypatch
) -> None:
    """Another BrikDesk (a real process) records a kill while the dialog is open: End battle
    is refused, the dialog reads the battle again, says why and shows the unit fallen; ending
    it then counts the kill."""
    from tests.concurrency.workers import as_other_organizer

    main = open_main(demo_db)
    bid = cove(main)
    shown: list[tuple[str, str, bool]] = []

    def user(dialog: EndBattleDialog) -> int:
        qtbot.waitUntil(dialog.loaded)
        am = dialog.aftermath
        row = {u.name: i for i, u in enumerate(am.units)}
        magda = row["Gunner Magda"]
        shown.append(
            (
                dialog.status_boxes[magda].currentText(),
                dialog.notice.text() if dialog.notice.isVisibleTo(dialog) else "",
                dialog.killer_boxes[magda].currentText(),
            )
        )
        if len(shown) == 1:  # meanwhile, at the other table
            units = {u.name: u.id for u in am.units}
            as_other_organizer(
                demo_db, "kill", bid, units["Gunner Magda"], units["Big Hank the Anvil"]
            )
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(EndBattleDialog, "exec", user)
    assert main.end_battle(bid)
    assert shown[0] == ("Survived", "", "—")
    status, notice, killer = shown[1]
    assert status == "Fell" and killer == "Big Hank the Anvil (Tobias)"
    assert notice.startswith(f"'{COVE}' was changed by someone else since the End battle dialog")
    assert len(shown) == 2
    pool = {u.name: u for a in main.nav.armies for u in main.services.roster.roster(a.id).units}
    assert pool["Gunner Magda"].status == "dead"
    assert pool["Big Hank the Anvil"].kills == 1


def test_end_battle_through_history(qtbot, open_main, demo_db, monkeypatch, tmp_path: Path) -> None:
    main = open_main(demo_db)
    bid = cove(main)
    main.open_battle(bid)
    panel = main.battle_panel
    assert main.main_actions.end_battle_action.isEnabled()
    assert not panel.aftermath_bar.isVisible()  # both sides still stand
    # Ines's last pirates fall: the panel asks whether the battle is over.
    view = panel.view
    dot = next(u.id for u in view.units if u.name == "Dynamite Dot")
    for u in view.units:
        if u.player_name == "Ines" and not view.state.unit(u.id).dead:
            assert panel.record([UnitKilled(u.id, dot)])
    qtbot.waitUntil(lambda: panel.aftermath_bar.isVisible())
    assert panel.aftermath_bar.label.text() == "Only Tobias has units standing: is the battle over?"
    asked = []

    def accept_at_once(dialog: EndBattleDialog) -> int:
        qtbot.waitUntil(dialog.loaded)
        asked.append(dialog.aftermath)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(EndBattleDialog, "exec", accept_at_once)
    qtbot.mouseClick(panel.aftermath_bar.end_button, Qt.MouseButton.LeftButton)
    assert asked and asked[0].suggestion.winner == next(
        p.id for p in main.nav.players if p.name == "Tobias"
    )
    # Finished: read-only, says who won, the report one click away.
    qtbot.waitUntil(lambda: panel.view.status == "finished")
    qtbot.waitUntil(panel.aftermath_bar.result_ready)  # who won is read on a worker
    assert "finished (Tobias won)" in panel.aftermath_bar.label.text()
    assert panel.aftermath_bar.report_button.isVisible()
    # The report one click away (the options asked as for any report).
    from ui.widgets.print_options import ReportChoice, ReportOptionsDialog

    monkeypatch.setattr(
        ReportOptionsDialog, "ask", classmethod(lambda cls, *a, **k: ReportChoice())
    )
    qtbot.mouseClick(panel.aftermath_bar.report_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: main.report_printing.preview_dialog is not None, timeout=20_000)
    assert COVE in main.report_printing.preview_dialog.windowTitle()
    main.report_printing.preview_dialog.close()
    assert (
        not panel.end_turn_button.isEnabled()
        and not main.main_actions.end_battle_action.isEnabled()
    )
    assert not panel.end_turn_button.isVisible()  # a finished battle has no turn to end
    pool = {u.name: u for a in main.nav.armies for u in main.services.roster.roster(a.id).units}
    assert pool["Dynamite Dot"].kills == 5 and pool["Gunner Magda"].status == "dead"
    # Ending is a step of the battle's own history (Edit > Undo on its page).
    assert main.main_actions.undo_action.text() == f"&Undo End battle {COVE}"
    # One undo step reopens the battle as it was; redo ends it again.
    assert "is finished" in main.statusBar().currentMessage()
    main.main_actions.undo_action.trigger()
    qtbot.waitUntil(lambda: panel.view.status == "in_progress")
    # The status bar says what holds now, not "finished" about a reopened battle.
    assert main.statusBar().currentMessage() == f"Undone: End battle {COVE}"
    pool = {u.name: u for a in main.nav.armies for u in main.services.roster.roster(a.id).units}
    assert pool["Dynamite Dot"].kills == 0 and pool["Gunner Magda"].status == "alive"
    main.main_actions.redo_action.trigger()
    qtbot.waitUntil(lambda: panel.view.status == "finished")
    # The overview shows the standings.
    main.show_overview()
    qtbot.waitUntil(lambda: "Standings" in main.overview.toPlainText())  # read on a worker
    assert "Tobias" in main.overview.toPlainText()
    # Campaign > History: the timeline, the charts (exported), the leaderboard.
    main.main_actions.history_action.trigger()
    window = main.histories[main.campaign_id]
    qtbot.waitUntil(lambda: window.history is not None and window.timeline.rowCount() == 2)
    assert window.timeline.item(1, 2).text() == COVE
    assert window.timeline.item(1, 4).text() == "Tobias"
    assert window.timeline.item(1, 5).text() == "Tobias 0, Ines 5"
    assert window.timeline.item(1, 6).text() == "Dynamite Dot (Tobias, 5)"
    assert window.unit_leaders.item(0, 1).text() == "Dynamite Dot"
    charts = window.show_charts()
    chart = charts.chart("alive")
    crew = next(s for s in window.history.series if s.army == "The Salty Bilge Crew")
    assert list(chart.curves[crew.army_id].yData) == [9, 9, 4]
    for suffix in (".png", ".svg"):
        out = window.export_chart("kills", tmp_path / f"kills{suffix}", suffix)
        assert out is not None and out.stat().st_size > 1000
    assert (tmp_path / "kills.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    fifo = tmp_path / "pipe.png"  # never replaced by a file (brikdesk.files)
    os.mkfifo(fifo)
    assert window.export_chart("kills", fifo, ".png") is None
    assert "it is a FIFO (named pipe), not a file" in window.banner.text()
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert window.export_pdf(tmp_path / "campaign.pdf")
    qtbot.waitUntil(lambda: window.last_export is not None, timeout=20_000)
    assert window.last_export.read_bytes().startswith(b"%PDF")
    md = window.export_markdown(tmp_path / "campaign.md")
    assert md is not None and f"| {COVE} | Tobias vs Ines | Tobias |" in md.read_text(
        encoding="utf-8"
    )
    window.close()


def test_the_rules_reference_lists_the_readings_of_the_end_of_a_battle() -> None:
    from brikdesk.domain.aftermath import READINGS as AFTER
    from brikdesk.domain.history import READINGS as HISTORY
    from ui.dialogs.rules_reference import readings

    texts = {r.text for r in readings()}
    assert set(AFTER.values()) | set(HISTORY.values()) <= texts
    assert any("holds the field" in t for t in texts)


def test_the_battle_menu_acts_on_the_battle_shown_or_says_what_to_choose(
    open_main, demo_db, monkeypatch
) -> None:
    main = open_main(demo_db)
    main.show_overview()
    main.navigator.setCurrentItem(None)
    assert main.current_battle() is None
    assert main.end_current_battle() is False
    assert main.banner.text() == "Open or select the battle to end."
    assert main.print_current_battle_sheet() is False
    assert main.banner.text() == "Open or select a battle to print its mustered units."
    # From the menu: the battle shown, by its id (not the action's checked flag).
    ended, printed = [], []
    monkeypatch.setattr(main.battles, "end_battle", lambda bid: ended.append(bid) or False)
    monkeypatch.setattr(main.battle_sheet_printing, "preview", printed.append)
    main.open_battle(cove(main))
    main.main_actions.end_battle_action.trigger()
    main.main_actions.battle_sheet_action.trigger()
    assert ended == [cove(main)] and printed == [cove(main)]


def test_the_history_buttons_ask_where_and_write_the_campaign_report(
    qtbot, open_main, demo_db, monkeypatch, tmp_path: Path
) -> None:
    from ui.widgets.dialogs import FileChooser

    main = open_main(demo_db)
    window = main.open_history()
    qtbot.waitUntil(lambda: window.history is not None and window.md_button.isEnabled())
    monkeypatch.setattr(
        FileChooser,
        "save_path",
        classmethod(
            lambda cls, parent, title, f, suggested, suffix, **_kw: tmp_path / f"report{suffix}"
        ),
    )
    qtbot.mouseClick(window.md_button, Qt.MouseButton.LeftButton)
    assert "| Tobias |" in (tmp_path / "report.md").read_text(encoding="utf-8")
    qtbot.mouseClick(window.pdf_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.last_export is not None, timeout=20_000)
    assert (tmp_path / "report.pdf").read_bytes().startswith(b"%PDF")
    window.close()
