"""Printing a roster sheet: the PDF (pages, text, paper), the layout (no card split across
pages, nothing clipped, tick boxes a pen can use), black and white, and the QPrinter path.

PDFs are read with pypdf (tests/pdfread.py); pages are looked at as images painted by the same
function that prints them (ui.printing.image), so no external tool is needed."""

from __future__ import annotations

import datetime as dt
import re
import sys

import pytest
from PySide6.QtGui import QPdfWriter

from brikdesk.domain.catalog import load_default_catalog
from brikdesk.domain.roster import Loadout, UnitSpec
from brikdesk.domain.sheets import RosterSheetOptions, SheetHeader, build_roster_sheet
from brikdesk.errors import UserError
from tests.pdfread import PAPER_POINTS, pdf_page_size, pdf_pages, pdf_text
from ui.printing import configure_page, export_pdf, layout_roster_sheet, print_roster_sheet
from ui.printing.image import render_roster_page
from ui.printing.layout import BOX_MM, PT_PER_MM, Metrics

CAT = load_default_catalog("2020")
COLOUR = "#b03a2e"


def spec(name, kind, hands=(), worn=(), carried=(), notes=""):
    return UnitSpec(name, kind, Loadout(hands, worn, carried), notes=notes)


def known_roster() -> list[UnitSpec]:
    """15 units of the 2020 catalog: six identical riflemen and nine varied units."""
    return [
        spec(
            "Captain Brickbeard",
            "hero",
            ("hand-weapon", "shield"),
            ("body-armor",),
            notes="Leads from the front.",
        ),
        spec("Sgt. Rock", "minifig", ("long-ranged-weapon",), carried=("explosive",)),
        *[spec(f"Rifleman {i}", "minifig", ("long-ranged-weapon",)) for i in range(1, 7)],
        spec("Pikeman Pete", "heavy", ("two-handed-weapon",), ("heavy-armor",)),
        spec("Grenadier Gus", "minifig", ("explosive", "hand-weapon")),
        spec("Scout Sally", "skirmisher", ("short-ranged-weapon", "hand-weapon")),
        spec("Knight Kevin", "minifig", ("heavy-weapon", "heavy-shield"), ("body-armor",)),
        spec("Zombie Zed", "incompetent", ("random-object",)),
        spec("Fodder Fred", "cannon-fodder", ("minifig-tool",)),
        spec("Trooper Tom", "minifig", (), ("body-armor", "heavy-armor")),
    ]


LOADOUTS = [
    ("minifig", ("hand-weapon", "shield"), (), ()),
    ("hero", ("long-ranged-weapon",), ("body-armor",), ("hand-weapon",)),
    ("heavy", ("two-handed-weapon",), ("heavy-armor",), ()),
    ("skirmisher", ("short-ranged-weapon", "hand-weapon"), (), ("explosive",)),
    ("minifig", ("heavy-weapon", "heavy-shield"), ("body-armor",), ()),
]


def long_roster(n: int = 40) -> list[UnitSpec]:
    """``n`` units, all different (own names), enough for several pages of cards."""
    return [
        spec(
            f"Unit {i:02d}",
            *LOADOUTS[i % len(LOADOUTS)],
            notes="Veteran of the river crossing; holds the ford." if i % 3 == 0 else "",
        )
        for i in range(1, n + 1)
    ]


def header(**kw) -> SheetHeader:
    base = dict(
        army="The Red Brick Raiders",
        player="Anna",
        campaign="Winter War",
        budget=120,
        date=dt.date(2025, 3, 1),
        colour=COLOUR,
    )
    base.update(kw)
    return SheetHeader(**base)


def sheet_of(units, **opts):
    return build_roster_sheet(header(), units, CAT, RosterSheetOptions(**opts))


def writer_for(tmp_path, paper="a4", resolution=1200) -> QPdfWriter:
    w = QPdfWriter(str(tmp_path / f"measure-{paper}-{resolution}.pdf"))
    w.setResolution(resolution)
    configure_page(w, paper)
    return w


@pytest.fixture(autouse=True)
def _app(qapp):
    """Every test here needs the application (fonts); pytest-qt's one is shared."""
    return qapp


# --------------------------------------------------------------------------- the PDF


def test_known_roster_pdf_has_expected_pages_and_every_unit_and_weapon(tmp_path):
    units = known_roster()
    sheet = sheet_of(units)
    out = tmp_path / "roster.pdf"
    result = export_pdf(sheet, out)
    assert out.is_file() and not (tmp_path / "roster.pdf.part").exists()
    # A4, 6 turns, identical units folded: 10 cards on pages 1-2, the reference appendix on
    # page 3, six blank cards on page 4, the roster warnings on page 5.
    assert result.pages == 5
    assert pdf_pages(out) == 5
    text = pdf_text(out)
    for u in units:
        assert u.name in text
        for key, _ in u.loadout.placed():
            assert CAT.item(key).name in text
    assert "x6 Minifig with Long-Ranged Weapon" in text
    assert "Page 1 of 5" in text and "Page 5 of 5" in text
    assert "126 / 120 CP" in text and "2025-03-01" in text and "BrikWars 2020" in text
    assert "Reference: the rules and items this army uses" in pdf_text(out, 3)
    blanks = pdf_text(out, 4)
    assert "Units gained at the table" in blanks
    assert blanks.count("Name") == 6
    assert "Roster warnings" in pdf_text(out, 5)
    assert "over budget by 6 CP" in pdf_text(out, 5)


def test_header_on_every_page(tmp_path):
    out = tmp_path / "roster.pdf"
    pages = export_pdf(sheet_of(known_roster()), out).pages
    for n in range(1, pages + 1):
        text = pdf_text(out, n)
        assert f"Page {n} of {pages}" in text
        assert "The Red Brick Raiders" in text and "Player: Anna" in text
        assert "Campaign: Winter War" in text


def test_no_card_crosses_a_page_boundary(tmp_path):
    units = long_roster(40)
    sheet = sheet_of(units, include_warnings=False, fold_identical=False)
    writer = writer_for(tmp_path)
    layout = layout_roster_sheet(sheet, writer)
    body = layout.body_rect
    card_pages = []
    for i in range(len(sheet.cards)):
        rects = layout.card_rects(i)
        assert len(rects) == 1, f"card {i} split: {rects}"
        page, rect = rects[0]
        assert body.top() - 0.01 <= rect.top() and rect.bottom() <= body.bottom() + 0.01
        assert body.left() - 0.01 <= rect.left() and rect.right() <= body.right() + 0.01
        card_pages.append(page)
    assert max(card_pages) >= 4  # long enough to need several pages

    out = tmp_path / "long.pdf"
    export_pdf(sheet, out)
    texts = {n: pdf_text(out, n) for n in set(card_pages)}
    for card, page in zip(sheet.cards, card_pages, strict=True):
        assert card.title in texts[page]
        assert card.items[-1].name in texts[page], (card.title, page)
        others = [n for n, t in texts.items() if n != page and card.title in t]
        assert others == [], f"{card.title} also on pages {others}"


def test_a_card_taller_than_a_page_continues_with_a_note(tmp_path):
    units = [spec(f"Pikeman {i:02d}", "minifig", ("two-handed-weapon",)) for i in range(80)]
    sheet = sheet_of(units)
    assert len(sheet.cards) == 1 and sheet.cards[0].count == 80
    layout = layout_roster_sheet(sheet, writer_for(tmp_path))
    parts = layout.card_rects(0)
    assert len(parts) >= 2
    assert [p for p, _ in parts] == list(range(1, len(parts) + 1))
    for _, rect in parts:
        assert layout.body_rect.top() - 0.01 <= rect.top()
        assert rect.bottom() <= layout.body_rect.bottom() + 0.01
    out = tmp_path / "big.pdf"
    export_pdf(sheet, out)
    assert "continued on the next page" in pdf_text(out, 1)
    assert "x80 Minifig with Two-Handed Weapon (continued)" in pdf_text(out, 2)
    text = pdf_text(out)
    assert all(f"Pikeman {i:02d}" in text for i in range(80))  # every member has its boxes


def test_folded_card_keeps_every_member_name(tmp_path):
    out = tmp_path / "fold.pdf"
    export_pdf(sheet_of(known_roster()), out)
    page1 = pdf_text(out, 1)
    assert "x6 Minifig with Long-Ranged Weapon" in page1
    assert "6 x 9 = 54 CP" in page1
    assert all(f"Rifleman {i}" in page1 for i in range(1, 7))
    unfolded = tmp_path / "unfold.pdf"
    export_pdf(sheet_of(known_roster(), fold_identical=False), unfolded)
    assert "x6 Minifig" not in pdf_text(unfolded)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_paper_size(tmp_path, paper):
    out = tmp_path / f"{paper}.pdf"
    pages = export_pdf(sheet_of(known_roster(), paper=paper), out).pages
    # A4 is 595 x 842 points, Letter 612 x 792, portrait, on every page
    assert [pdf_page_size(out, n) for n in range(1, pages + 1)] == [PAPER_POINTS[paper]] * pages


def test_options_at_export_override_the_sheet_layout(tmp_path):
    sheet = sheet_of(known_roster())
    out = tmp_path / "letter.pdf"
    export_pdf(sheet, out, RosterSheetOptions(paper="letter"))
    assert pdf_page_size(out) == PAPER_POINTS["letter"]


# --------------------------------------------------------------------------- black and white


def chroma(c) -> int:
    """How far a pixel is from grey (0 for black, white and any grey)."""
    return max(c.red(), c.green(), c.blue()) - min(c.red(), c.green(), c.blue())


def test_black_and_white_draws_no_fills(tmp_path):
    bw = sheet_of(known_roster(), black_and_white=True)
    colour = sheet_of(known_roster())
    writer = writer_for(tmp_path)
    assert not [op for op in layout_roster_sheet(bw, writer).ops() if op.kind == "fill"]
    assert [op for op in layout_roster_sheet(colour, writer).ops() if op.kind == "fill"]

    # the pages as painted by the printing path, at 30 dpi
    dpi = 30
    img_colour = render_roster_page(colour, 1, dpi=dpi)
    bw_pages = [
        render_roster_page(bw, n, dpi=dpi)
        for n in range(1, layout_roster_sheet(bw, writer).page_count + 1)
    ]
    # the header band, 40 pt from the top-left corner of the paper (just inside the 12 mm
    # margin): the player's colour, or white paper
    x = y = int(40 / 72 * dpi)
    band = img_colour.pixelColor(x, y)
    assert (band.red(), band.green(), band.blue()) == (0xB0, 0x3A, 0x2E)
    paper = bw_pages[0].pixelColor(x, y)
    assert (paper.red(), paper.green(), paper.blue()) == (255, 255, 255)
    # and nothing coloured anywhere on the black-and-white pages, which do carry ink
    for img in bw_pages:
        assert img.width() == round(595 / 72 * dpi)
        pixels = [
            img.pixelColor(px, py)
            for py in range(0, img.height(), 2)
            for px in range(0, img.width(), 2)
        ]
        assert max(chroma(c) for c in pixels) <= 6
        assert min(c.lightness() for c in pixels) < 100
    assert (
        max(
            chroma(img_colour.pixelColor(px, py))
            for py in range(0, img_colour.height(), 4)
            for px in range(0, img_colour.width(), 4)
        )
        > 100
    )


# --------------------------------------------------------------------------- measurements


def test_tick_boxes_are_at_least_4_mm_and_as_many_as_turns(tmp_path):
    sheet = sheet_of([spec("Al", "minifig", ("hand-weapon", "shield"))], turns=8, blank_cards=0)
    layout = layout_roster_sheet(sheet, writer_for(tmp_path))
    boxes = [op for op in layout.ops() if op.kind == "box"]
    # Action, Counter 1, Counter 2, Dead: 4 rows of 8 turns
    assert len(boxes) == 4 * 8
    assert min(min(b.w, b.h) for b in boxes) >= 4.0 * PT_PER_MM
    assert BOX_MM >= 4.0


def test_nothing_is_clipped(tmp_path):
    sheet = sheet_of(long_roster(25) + known_roster(), turns=12, fold_identical=False)
    writer = writer_for(tmp_path, "letter")
    layout = layout_roster_sheet(sheet, writer)
    m = Metrics(writer)
    page = layout.page_rect
    for p in layout.pages:
        for b in p.placed:
            assert b.x >= 0 and b.y >= 0
            assert b.x + b.w <= page.width() + 0.01 and b.y + b.h <= page.height() + 0.01
            for op in b.ops:
                if op.kind == "text" and op.text:
                    assert m.width(op.text, op.font) <= op.w + 0.5, (op.text, op.w)
                    assert b.x + op.x + op.w <= page.width() + 0.5


def test_layout_does_not_depend_on_the_device_resolution(tmp_path):
    sheet = sheet_of(long_roster(30), fold_identical=False)
    fine = layout_roster_sheet(sheet, writer_for(tmp_path, resolution=1200))
    coarse = layout_roster_sheet(sheet, writer_for(tmp_path, resolution=300))
    assert fine.page_count == coarse.page_count
    for i in range(len(sheet.cards)):
        assert fine.card_pages(i) == coarse.card_pages(i)
        (_, a), (_, b) = fine.card_rects(i)[0], coarse.card_rects(i)[0]
        assert a == b


# --------------------------------------------------------------------------- one path


def test_qprinter_path_prints_the_same_pages(tmp_path):
    from PySide6.QtPrintSupport import QPrinter

    sheet = sheet_of(known_roster())
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printed = tmp_path / "printed.pdf"
    printer.setOutputFileName(str(printed))
    configure_page(printer, "a4")
    layout = print_roster_sheet(printer, sheet)
    exported = tmp_path / "exported.pdf"
    result = export_pdf(sheet, exported)
    assert pdf_pages(printed) == layout.page_count == result.pages
    squash = lambda s: re.sub(r"\s+", " ", s)  # noqa: E731
    assert squash(pdf_text(printed)) == squash(pdf_text(exported))


def test_progress_reports_every_page(tmp_path):
    seen: list[tuple[int, int]] = []
    result = export_pdf(
        sheet_of(long_roster(30), fold_identical=False),
        tmp_path / "p.pdf",
        progress=lambda done, total: seen.append((done, total)),
    )
    # (0, 0) first: busy while laying out; then one report per painted page
    assert seen == [(0, 0)] + [(n, result.pages) for n in range(1, result.pages + 1)]


def test_export_to_a_missing_folder_is_a_user_error(tmp_path):
    target = tmp_path / "nope" / "roster.pdf"
    with pytest.raises(UserError, match="does not exist"):
        export_pdf(sheet_of(known_roster()), target)
    assert not target.parent.exists()


def test_a_failed_export_leaves_no_file(tmp_path):
    out = tmp_path / "roster.pdf"

    def stop(done, total):
        if done == 2:
            raise RuntimeError("stopped")

    with pytest.raises(RuntimeError, match="stopped"):
        export_pdf(sheet_of(long_roster(30), fold_identical=False), out, progress=stop)
    assert list(tmp_path.iterdir()) == []


def test_a_layout_made_beforehand_is_reused_only_on_its_paper(tmp_path):
    from PySide6.QtPrintSupport import QPrinter

    from ui.printing.image import MeasuringDevice

    sheet = sheet_of(known_roster())
    made = layout_roster_sheet(sheet, MeasuringDevice("a4").writer)
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "a4.pdf"))
    configure_page(printer, "a4")
    assert print_roster_sheet(printer, sheet, layout=made) is made
    # the organizer picked Letter in the print dialog: laid out again for Letter
    printer.setOutputFileName(str(tmp_path / "letter.pdf"))
    configure_page(printer, "letter")
    again = print_roster_sheet(printer, sheet, layout=made)
    assert again is not made
    assert again.paper_size == PAPER_POINTS["letter"]
    assert pdf_page_size(tmp_path / "letter.pdf") == PAPER_POINTS["letter"]


def test_an_empty_army_still_prints(tmp_path):
    out = tmp_path / "empty.pdf"
    export_pdf(sheet_of([]), out)
    assert "This army has no units yet." in pdf_text(out, 1)


def test_painting_keeps_none_alive(tmp_path):
    """PySide6 6.12.0 on Python 3.11 drops a reference to None on every void call, and a long
    print aborts the app ("none_dealloc"); pyproject.toml keeps it out."""
    before = sys.getrefcount(None)
    export_pdf(sheet_of(long_roster(40), fold_identical=False), tmp_path / "n.pdf")
    assert sys.getrefcount(None) - before > -500


def test_export_runs_on_a_worker_thread_with_progress(qtbot, tmp_path):
    from PySide6.QtCore import QObject

    from ui.workers import start_job

    sheet = sheet_of(long_roster(20), fold_identical=False)
    out = tmp_path / "worker.pdf"
    parent = QObject()
    progress: list[tuple[int, int]] = []
    done: list[object] = []
    errors: list[str] = []
    start_job(
        parent,
        lambda report: export_pdf(sheet, out, progress=report),
        on_done=done.append,
        on_error=lambda exc, tb: errors.append(tb),
        on_progress=lambda d, t: progress.append((d, t)),
    )
    qtbot.waitUntil(lambda: bool(done or errors), timeout=10000)
    assert errors == []
    pages = done[0].pages
    assert pdf_pages(out) == pages
    qtbot.waitUntil(lambda: len(progress) == pages + 1, timeout=2000)
    assert progress[-1] == (pages, pages)


@pytest.mark.parametrize("turns", [6, 12])
def test_tick_boxes_never_cover_text(tmp_path, turns):
    sheet = sheet_of(known_roster(), turns=turns, fold_identical=False)
    layout = layout_roster_sheet(sheet, writer_for(tmp_path))
    from PySide6.QtCore import QRectF

    for p in layout.pages:
        for b in p.placed:
            texts = [QRectF(o.x, o.y, o.w, o.h) for o in b.ops if o.kind == "text" and o.text]
            boxes = [QRectF(o.x, o.y, o.w, o.h) for o in b.ops if o.kind == "box"]
            for box in boxes:
                assert not any(box.intersects(t) for t in texts), (b.kind, b.card)
    if turns == 12:  # A4 has no room beside the text for 12 turns: the boxes go below it
        first = layout.pages[0].placed[0]
        last_item_y = max(o.y for o in first.ops if o.kind == "text" and o.font == "td")
        assert min(o.y for o in first.ops if o.kind == "box") > last_item_y


def test_a_card_whose_text_alone_is_taller_than_a_page_is_scaled_to_fit(tmp_path):
    import dataclasses

    tool = CAT.item("minifig-tool")
    gadgets = tuple(
        dataclasses.replace(tool, key=f"gadget-{i}", name=f"Gadget {i:02d}", house_rule=True)
        for i in range(70)
    )
    catalog = dataclasses.replace(CAT, items=CAT.items + gadgets)
    mule = spec("Pack Mule", "minifig", ("hand-weapon",), carried=[g.key for g in gadgets])
    sheet = build_roster_sheet(
        header(),
        [mule, spec("Al", "minifig", ("hand-weapon",))],
        catalog,
        RosterSheetOptions(blank_cards=0),
    )
    layout = layout_roster_sheet(sheet, writer_for(tmp_path))
    ((page, rect),) = layout.card_rects(0)
    placed = next(b for b in layout.pages[page - 1].placed if b.card == 0)
    assert placed.scale < 1
    body = layout.body_rect
    assert body.top() - 0.01 <= rect.top() and rect.bottom() <= body.bottom() + 0.01
    out = tmp_path / "mule.pdf"
    export_pdf(sheet, out)
    text = pdf_text(out, page)
    assert "scaled down to fit the page" in text
    assert "Gadget 69" in text
    assert layout.card_pages(1) == [page + 1]  # the next card starts on a fresh page


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_six_blank_cards_fill_one_page(tmp_path, paper):
    sheet = sheet_of([spec("Al", "minifig", ("hand-weapon",))], paper=paper, include_warnings=False)
    layout = layout_roster_sheet(sheet, writer_for(tmp_path, paper))
    pages = [p.number for p in layout.pages for b in p.placed if b.kind == "blank-card"]
    assert len(pages) == 6 and len(set(pages)) == 1
    assert pages[0] == layout.page_count  # the last page, after the cards and the reference
