"""Printing from the app: File > Print preview, Print and Export PDF for an army or a
battle, the Battle > Battle report menu (preview, print, PDF, Markdown), the options dialogs and
what they remember, the progress bar and Stop, and the same sheet as ``brikdesk print``.

The options dialogs and file choosers are answered by replacing their ``ask``/``save_path``
classmethods; the print dialog's Print button is its ``accepted(QPrinter)`` signal, with the
printer writing a PDF."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from PySide6.QtGui import QPageSize
from PySide6.QtPrintSupport import QPrinter, QPrintPreviewWidget

from brikdesk.cli import main as cli_main
from brikdesk.domain.sheets import RosterSheetOptions
from brikdesk.services.printing import PrintService
from tests.pdfread import PAPER_POINTS, pdf_page_size, pdf_pages, pdf_text
from ui.widgets.dialogs import FileChooser
from ui.widgets.print_options import (
    ReportChoice,
    ReportOptionsDialog,
    RosterChoice,
    RosterOptionsDialog,
    load_report_choice,
    load_roster_choice,
    save_report_choice,
    save_roster_choice,
)
from ui.windows.navigator import ARMY, BATTLE, PLAYER
from ui.windows.printing import JobProgress

POSSE_DEAD = ('Rusty "Two-Studs" McGee', "Cactus Pete")


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def answer(monkeypatch, cls, value, name="ask"):
    calls: list[tuple] = []

    def fake(_cls, *args, **kwargs):
        calls.append(args)
        return value

    monkeypatch.setattr(cls, name, classmethod(fake))
    return calls


def army_id(main, name: str) -> int:
    return next(a.id for a in main.nav.armies if a.name == name)


def battle_id(main, name: str) -> int:
    return next(b.id for b in main.nav.battles if b.name == name)


def choice(**kw) -> RosterChoice:
    include_dead = kw.pop("include_dead", False)
    return RosterChoice(RosterSheetOptions(**kw), include_dead)


@pytest.fixture
def main(open_main, demo_db):
    return open_main(demo_db)


def export_roster(main, qtbot, monkeypatch, army: str, out: Path, picked: RosterChoice):
    asked = answer(monkeypatch, RosterOptionsDialog, picked)
    answer(monkeypatch, FileChooser, out, "save_path")
    main.navigator.select(ARMY, army_id(main, army))
    assert main.main_actions.pdf_action.text() == "Export roster as P&DF…"
    main.main_actions.pdf_action.trigger()
    qtbot.waitUntil(lambda: main.printing.last_export == out, timeout=20_000)
    return asked


# --------------------------------------------------------------------------- roster sheets


def test_the_app_prints_the_sheet_brikdesk_print_prints(
    main, qtbot, monkeypatch, tmp_path, demo_db, qapp
):
    out = tmp_path / "posse.pdf"
    first = load_roster_choice(main.settings)  # nothing chosen yet: the defaults
    asked = export_roster(main, qtbot, monkeypatch, "Moonlight Posse", out, first)
    assert asked[0][1:] == (main.settings, "Moonlight Posse", "Export PDF…")
    text = pdf_text(out)
    assert "Marshal Dusty Flatstud" in text
    assert not any(name in text for name in POSSE_DEAD)  # dead in the campaign: left out
    banner = main.banner.text()
    assert banner.startswith(f"Saved {pdf_pages(out)} pages to {out}.")
    assert 'Left out 2 units dead in the campaign (Rusty "Two-Studs" McGee, Cactus Pete)' in banner

    cli = tmp_path / "cli.pdf"
    assert (
        cli_main(
            [
                "--db",
                demo_db,
                "print",
                "--army",
                "Moonlight Posse",
                "--out",
                str(cli),
                "--paper",
                first.options.paper,
            ]
        )
        == 0
    )  # the locale's paper
    assert squash(pdf_text(cli)) == squash(text)


def test_the_sheet_is_read_once_through_the_print_service(main, qtbot, monkeypatch, tmp_path):
    reads: list[tuple] = []
    real = PrintService.roster_sheet

    def spy(self, *args, **kwargs):
        reads.append((threading.current_thread() is threading.main_thread(), args, kwargs))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(PrintService, "roster_sheet", spy)
    for service, method in ((main.services.roster, "roster"), (main.services.catalog, "catalog")):
        monkeypatch.setattr(service, method, lambda *a, **k: pytest.fail("read apart"))
    export_roster(main, qtbot, monkeypatch, "The Red Vanguard", tmp_path / "v.pdf", choice(turns=4))
    assert len(reads) == 1
    on_gui_thread, args, kwargs = reads[0]
    assert not on_gui_thread  # read on the worker, with the options chosen
    assert args[1].turns == 4 and kwargs == {"include_dead": False}


def test_the_options_chosen_shape_the_pdf(main, qtbot, monkeypatch, tmp_path):
    out = tmp_path / "letter.pdf"
    export_roster(
        main,
        qtbot,
        monkeypatch,
        "Moonlight Posse",
        out,
        choice(
            paper="letter",
            turns=8,
            black_and_white=True,
            blank_cards=0,
            include_warnings=False,
            include_reference=False,
            include_dead=True,
        ),
    )
    pages = pdf_pages(out)
    assert [pdf_page_size(out, n) for n in range(1, pages + 1)] == [PAPER_POINTS["letter"]] * pages
    text = squash(pdf_text(out))
    assert all(name in text for name in POSSE_DEAD)  # asked for: printed
    assert "Turn 1 2 3 4 5 6 7 8 Action" in text
    assert "Units gained at the table" not in text and "Roster warnings" not in text
    assert "Reference: the rules" not in text
    assert "Left out" not in main.banner.text()


def test_print_preview_shows_the_pages_of_the_sheet(main, qtbot, monkeypatch):
    answer(monkeypatch, RosterOptionsDialog, choice())
    main.navigator.select(ARMY, army_id(main, "The Red Vanguard"))
    assert main.main_actions.preview_action.isEnabled()
    main.main_actions.preview_action.trigger()
    qtbot.waitUntil(lambda: main.printing.preview_dialog is not None, timeout=20_000)
    dialog = main.printing.preview_dialog
    assert dialog.windowTitle() == "Print preview: The Red Vanguard: roster sheet"
    preview = dialog.findChild(QPrintPreviewWidget)
    qtbot.waitUntil(lambda: preview.pageCount() > 0, timeout=10_000)
    sheet = main.printing.last_result.sheet
    # A4, 6 turns, warnings on: 11 cards on 2 pages, reference, blank cards and warnings
    assert preview.pageCount() == 4
    assert sheet.header.army == "The Red Vanguard" and len(sheet.cards) == 11
    dialog.close()


def test_print_sends_the_pages_to_the_printer_from_a_worker(
    main, qtbot, monkeypatch, tmp_path, demo_db
):
    answer(monkeypatch, RosterOptionsDialog, choice(paper="letter"))
    main.navigator.select(ARMY, army_id(main, "The Red Vanguard"))
    main.main_actions.print_action.trigger()
    qtbot.waitUntil(lambda: main.printing.print_dialog is not None, timeout=20_000)
    printer = main.printing._printer
    assert printer.pageLayout().pageSize().id() == QPageSize.PageSizeId.Letter
    printed = tmp_path / "printed.pdf"
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(printed))
    main.printing.print_dialog.accepted.emit(printer)  # the dialog's Print button
    qtbot.waitUntil(lambda: "sent to the printer" in main.banner.text(), timeout=20_000)
    # the same pages as brikdesk print on Letter (with the warnings, as chosen)
    cli = tmp_path / "cli.pdf"
    assert (
        cli_main(
            [
                "--db",
                demo_db,
                "print",
                "--army",
                "The Red Vanguard",
                "--out",
                str(cli),
                "--paper",
                "letter",
                "--warnings",
            ]
        )
        == 0
    )
    pages = pdf_pages(cli)
    assert main.banner.text() == f"The Red Vanguard was sent to the printer ({pages} pages)."
    assert pdf_pages(printed) == pages and pdf_page_size(printed) == PAPER_POINTS["letter"]
    assert squash(pdf_text(printed)) == squash(pdf_text(cli))


def test_cancelling_the_options_does_nothing(main, monkeypatch):
    answer(monkeypatch, RosterOptionsDialog, None)
    chooser = answer(monkeypatch, FileChooser, None, "save_path")
    main.navigator.select(ARMY, army_id(main, "The Red Vanguard"))
    assert main.export_pdf() is False
    assert (
        chooser == [] and main.printing.progress is None or not main.printing.progress.isVisible()
    )


def test_a_player_selected_says_what_to_select(main, monkeypatch):
    answer(monkeypatch, RosterOptionsDialog, choice())
    assert main.navigator.select(PLAYER, main.nav.players[0].id)
    assert not main.main_actions.preview_action.isEnabled()
    assert main.print_preview() is False
    assert main.banner.text() == (
        "Select an army (to print its roster) or a battle (its report) in the navigator."
    )


def test_a_deleted_army_is_reported_in_the_banner(main, qtbot):
    assert main.printing.export_pdf(999_999, Path(main.database).parent / "x.pdf")
    qtbot.waitUntil(lambda: main.banner.kind == "error", timeout=10_000)
    assert main.banner.text().startswith("The PDF was not written: ")
    assert "army" in main.banner.text()
    assert not main.printing.progress.isVisible()


# --------------------------------------------------------------------------- progress and Stop


def test_a_long_export_shows_its_progress_page_by_page(main, qtbot, monkeypatch, tmp_path):
    steps: list[tuple[str, int, int]] = []
    real = JobProgress.step
    monkeypatch.setattr(
        JobProgress,
        "step",
        lambda self, t, text, d, n: (steps.append((text, d, n)), real(self, t, text, d, n)),
    )
    army = army_id(main, "The Red Vanguard")
    main.services.roster.add_units(army, "minifig", 60)
    out = tmp_path / "long.pdf"
    answer(monkeypatch, RosterOptionsDialog, choice(fold_identical=False))
    answer(monkeypatch, FileChooser, out, "save_path")
    main.navigator.select(ARMY, army)
    main.main_actions.pdf_action.trigger()
    progress = main.printing.progress
    assert progress.isVisible() and progress.parent() is main.statusBar()
    assert progress.label.text().startswith("Exporting The Red Vanguard to long.pdf")
    qtbot.waitUntil(lambda: main.printing.last_export == out, timeout=20_000)
    assert not progress.isVisible()
    pages = pdf_pages(out)
    assert steps[0] == ("reading the roster", 0, 0)
    assert ("laying out 71 cards", 71, 71) in steps
    writing = [s for s in steps if s[0] == "writing pages" and s[2]]
    assert writing == [("writing pages", n, pages) for n in range(1, pages + 1)]


def test_stop_ends_the_export_and_writes_nothing(main, qtbot, monkeypatch, tmp_path):
    started, go_on = threading.Event(), threading.Event()
    real = PrintService.roster_sheet

    def slow(self, *args, **kwargs):
        started.set()
        go_on.wait(10)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(PrintService, "roster_sheet", slow)
    out = tmp_path / "stopped.pdf"
    answer(monkeypatch, RosterOptionsDialog, choice())
    answer(monkeypatch, FileChooser, out, "save_path")
    main.navigator.select(ARMY, army_id(main, "The Red Vanguard"))
    main.main_actions.pdf_action.trigger()
    assert started.wait(10)
    progress = main.printing.progress
    progress.stop.click()
    assert progress.label.text() == "Exporting The Red Vanguard to stopped.pdf (stopping…)"
    go_on.set()
    qtbot.waitUntil(lambda: not progress.isVisible(), timeout=10_000)
    assert main.banner.text() == "Stopped: exporting The Red Vanguard to stopped.pdf"
    assert list(tmp_path.glob("stopped.pdf*")) == []
    assert main.printing.last_export is None


# --------------------------------------------------------------------------- options remembered


def test_roster_options_are_remembered_and_offered_again(qtbot, settings):
    dialog = RosterOptionsDialog(
        None, load_roster_choice(settings), title="Vanguard", verb="Preview"
    )
    qtbot.addWidget(dialog)
    assert dialog.ok_button.text() == "Preview"
    dialog.paper.setCurrentIndex(dialog.paper.findData("letter"))
    dialog.turns.setValue(9)
    dialog.blank.setValue(0)
    dialog.fold.setChecked(False)
    dialog.bw.setChecked(True)
    dialog.warnings.setChecked(False)
    dialog.dead.setChecked(True)
    picked = dialog.choice()
    assert picked == choice(
        paper="letter",
        turns=9,
        blank_cards=0,
        fold_identical=False,
        black_and_white=True,
        include_warnings=False,
        include_dead=True,
    )
    save_roster_choice(settings, picked)
    settings.sync()
    again = RosterOptionsDialog(None, load_roster_choice(settings))
    qtbot.addWidget(again)
    assert again.choice() == picked
    assert again.blank.text() == "none"
    again.restore_defaults()
    defaults = again.choice()
    assert defaults.options.turns == 6 and defaults.options.blank_cards == 6
    assert defaults.options.fold_identical and not defaults.options.black_and_white
    assert not defaults.options.include_warnings and not defaults.include_dead
    # paper and black and white are shared with the battle report
    assert load_report_choice(settings) == ReportChoice("letter", True)


def test_unreadable_stored_options_fall_back_to_the_defaults(settings):
    for key, value in (
        ("print/paper", "a3"),
        ("print/roster/turns", "99"),
        ("print/roster/blank_cards", "lots"),
    ):
        settings.set(key, value)
    got = load_roster_choice(settings)
    assert got.options.paper in ("a4", "letter")
    assert got.options.turns == 12 and got.options.blank_cards == 6


def test_report_options_dialog(qtbot, settings):
    dialog = ReportOptionsDialog(
        None, load_report_choice(settings), title="Skirmish", verb="Export PDF…"
    )
    qtbot.addWidget(dialog)
    dialog.paper.setCurrentIndex(dialog.paper.findData("a4"))
    dialog.bw.setChecked(True)
    assert dialog.choice() == ReportChoice("a4", True)
    save_report_choice(settings, dialog.choice())
    assert load_report_choice(settings) == ReportChoice("a4", True)
    note = dialog.findChild(type(dialog.problem), "reportNote")
    assert "End Turn" in note.text() and "casualty" in note.text()


# --------------------------------------------------------------------------- battle reports


def test_file_export_on_a_selected_battle_writes_its_report(main, qtbot, monkeypatch, tmp_path):
    out = tmp_path / "ford.pdf"
    asked = answer(monkeypatch, ReportOptionsDialog, ReportChoice("letter", True))
    answer(monkeypatch, FileChooser, out, "save_path")
    main.navigator.select(BATTLE, battle_id(main, "Skirmish at Baseplate Ford"))
    assert main.main_actions.pdf_action.isEnabled()
    assert main.main_actions.pdf_action.text() == "Export report as P&DF…"
    assert main.main_actions.pdf_action.statusTip() == "Save the selected battle's report as a PDF"
    main.main_actions.pdf_action.trigger()
    qtbot.waitUntil(lambda: main.report_printing.last_export == out, timeout=20_000)
    assert asked[0][1:] == (main.settings, "Skirmish at Baseplate Ford", "Export PDF…")
    assert pdf_page_size(out) == PAPER_POINTS["letter"]
    text = squash(pdf_text(out))
    assert "Skirmish at Baseplate Ford: battle report" in text
    assert "Casualties per round" in text and "Round 2" in text
    pages = pdf_pages(out)
    assert pages == 2  # Letter is shorter than A4: the account runs onto a second page
    assert main.banner.text() == (
        f"Saved the report of Skirmish at Baseplate Ford (2 pages) to {out}."
    )


def test_the_battle_menu_has_the_report(main, qtbot, monkeypatch, tmp_path):
    main.navigator.select(ARMY, army_id(main, "The Red Vanguard"))
    main.show_overview()
    menu = main.menus.report_menu
    assert menu.menuAction() in main.menus.battle_menu.actions()
    menu.aboutToShow.emit()
    assert not main.report_printing.markdown_action.isEnabled()  # no battle shown or selected
    main.open_battle(battle_id(main, "Raid on Bilge Cove"))
    assert menu.menuAction() in main.menus.battle_menu.actions()  # still there with the tracker
    menu.aboutToShow.emit()
    actions = {a.objectName(): a for a in menu.actions() if a.objectName()}
    assert set(actions) == {
        "reportPreviewAction",
        "reportPrintAction",
        "reportPdfAction",
        "reportMarkdownAction",
    }
    assert all(a.isEnabled() for a in actions.values())

    out = tmp_path / "cove.md"
    answer(monkeypatch, FileChooser, out, "save_path")
    actions["reportMarkdownAction"].trigger()
    qtbot.waitUntil(lambda: main.report_printing.last_export == out, timeout=20_000)
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Raid on Bilge Cove")
    assert "Dynamite Dot (Tobias) attacks Deckhand Dory (Ines) with an Explosive" in text
    assert main.banner.text().startswith("Saved the report of Raid on Bilge Cove as Markdown")

    answer(monkeypatch, ReportOptionsDialog, ReportChoice("a4", False))
    actions["reportPreviewAction"].trigger()
    qtbot.waitUntil(lambda: main.report_printing.preview_dialog is not None, timeout=20_000)
    dialog = main.report_printing.preview_dialog
    assert dialog.windowTitle() == "Print preview: Raid on Bilge Cove: battle report"
    preview = dialog.findChild(QPrintPreviewWidget)
    qtbot.waitUntil(lambda: preview.pageCount() == 1, timeout=10_000)
    dialog.close()


def test_the_report_prints_in_black_and_white(main, qtbot, monkeypatch, tmp_path):
    answer(monkeypatch, ReportOptionsDialog, ReportChoice("a4", True))
    main.open_battle(battle_id(main, "Skirmish at Baseplate Ford"))
    main.report_printing.print_current()
    qtbot.waitUntil(lambda: main.report_printing.print_dialog is not None, timeout=20_000)
    printer = main.report_printing._printer
    printed = tmp_path / "ford.pdf"
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(printed))
    main.report_printing.print_dialog.accepted.emit(printer)
    qtbot.waitUntil(lambda: "sent to the printer" in main.banner.text(), timeout=20_000)
    assert "Skirmish at Baseplate Ford: battle report" in pdf_text(printed)
    assert main.report_printing.last_result.title == "Skirmish at Baseplate Ford"


def test_the_roster_window_prints_through_the_same_path(main, qtbot, monkeypatch, tmp_path):
    army = army_id(main, "Moonlight Posse")
    window = main.open_roster(army)
    out = tmp_path / "from-roster.pdf"
    asked = answer(monkeypatch, RosterOptionsDialog, choice(paper="letter"))
    answer(monkeypatch, FileChooser, out, "save_path")
    window.commands.pdf_action.trigger()
    progress = window.printing.progress
    assert progress.parent() is window.statusBar() and progress.isVisible()
    qtbot.waitUntil(lambda: window.printing.last_export == out, timeout=20_000)
    assert asked[0][1:] == (main.settings, "Moonlight Posse", "Export PDF…")
    assert pdf_page_size(out) == PAPER_POINTS["letter"]
    assert "Left out 2 units dead in the campaign" in window.banner.text()
    assert not any(name in pdf_text(out) for name in POSSE_DEAD)


def test_the_rules_reference_lists_the_printing_readings(main, qtbot):
    from brikdesk.domain import report, sheets

    text = " ".join(main.show_rules_reference().plain_text().split())
    assert "Printed roster sheets" in text and "Battle reports" in text
    for readings in (sheets.READINGS, report.READINGS):
        assert all(" ".join(r.split()) in text for r in readings.values())
    # and the options dialog explains its choices with the same words
    from brikdesk.services.printing import READINGS

    dialog = RosterOptionsDialog(None, load_roster_choice(main.settings))
    qtbot.addWidget(dialog)
    assert dialog.dead.toolTip() == READINGS["dead_units"]
    assert dialog.fold.toolTip() == sheets.READINGS["fold"]


# --------------------------------------------------------------------------- a full disk


@pytest.mark.parametrize("kind", [ARMY, BATTLE])
def test_export_pdf_on_a_full_disk_says_so_and_keeps_the_old_pdf(
    main, qtbot, monkeypatch, tmp_path, kind
):
    """File > Export PDF onto a real small file system with no room left: the banner says the
    disk is full, the PDF that was there stays byte for byte, and nothing is left beside it
    (Qt's PDF writer says nothing: the PDF used to be replaced by an empty file)."""
    from tests.smalldisk import fill, only, small_disk

    old = b"%PDF-1.4 the old roster, which must stay as it was\n%%EOF\n" * 50
    with small_disk(tmp_path) as disk:
        out = disk / "old.pdf"
        out.write_bytes(old)
        fill(disk)
        answer(monkeypatch, FileChooser, out, "save_path")
        if kind == ARMY:
            answer(monkeypatch, RosterOptionsDialog, choice())
            main.navigator.select(ARMY, army_id(main, "Moonlight Posse"))
        else:
            answer(monkeypatch, ReportOptionsDialog, ReportChoice("a4", False))
            main.navigator.select(BATTLE, battle_id(main, "Skirmish at Baseplate Ford"))
        main.main_actions.pdf_action.trigger()
        qtbot.waitUntil(lambda: main.banner.kind == "error", timeout=20_000)
        assert main.banner.text() == (
            f"The PDF was not written: cannot write {out}: the disk is full"
        )
        assert out.read_bytes() == old
        assert only(disk, "old.pdf")
        assert main.printing.last_export is None and main.report_printing.last_export is None
