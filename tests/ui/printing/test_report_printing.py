"""The battle report on paper: the PDF's pages and text (read with pypdf), entries never split
across pages, the casualties chart drawn to scale in the players' colours, one drawing path for
preview, print and PDF."""

from __future__ import annotations

import re
from typing import Any

import pytest

from brikdesk.domain.battle import TurnEnded, UnitKilled
from brikdesk.domain.report import (
    BattleFacts,
    ReportPlayer,
    ReportUnit,
    build_battle_report,
)
from brikdesk.errors import UserError
from tests.domain.ford import FACTS, FORD, PLAYERS, UNITS, log
from tests.pdfread import PAPER_POINTS, pdf_page_size, pdf_pages, pdf_text
from ui.printing import configure_page
from ui.printing.image import MeasuringDevice
from ui.printing.report import (
    HATCHES,
    export_report_pdf,
    layout_battle_report,
    print_battle_report,
    render_report_page,
)


@pytest.fixture(autouse=True)
def _app(qapp):
    return qapp


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def ford():
    return build_battle_report(FACTS, PLAYERS, UNITS, FORD)


def long_battle(rounds: int = 30):
    """Three players, 60 units each, killings every turn with long notes: several pages."""
    players = (
        ReportPlayer(1, "Margo", "#c0392b"),
        ReportPlayer(2, "Tobias", "#2e86c1"),
        ReportPlayer(3, "Ines", "#27ae60"),
    )
    units = tuple(
        ReportUnit(100 * p + i, p, f"Trooper {p}-{i:02d}") for p in (1, 2, 3) for i in range(60)
    )
    events: list[Any] = []
    victims = {p: iter(range(100 * p, 100 * p + 60)) for p in (1, 2, 3)}
    for rnd in range(1, rounds + 1):
        for p in (1, 2, 3):
            enemy = p % 3 + 1
            for _ in range((rnd + p) % 3):
                v = next(victims[enemy], None)
                if v is not None:
                    events.append(
                        UnitKilled(
                            v,
                            actor=100 * p + rnd % 60,
                            cause="a long story of courage and folly, " * 3,
                        )
                    )
            events.append(TurnEnded(p, rnd))
    return build_battle_report(
        BattleFacts("The Long War", "Endless", "finished"), players, units, log(*events)
    )


def layout_of(report, paper="a4", black_and_white=False):
    device = MeasuringDevice(paper)
    return layout_battle_report(report, device.writer, black_and_white=black_and_white), device


# --------------------------------------------------------------------------- the PDF


def test_the_report_pdf_tells_the_battle(tmp_path):
    out = tmp_path / "ford.pdf"
    result = export_report_pdf(ford(), out)
    assert out.is_file() and not (tmp_path / "ford.pdf.part").exists()
    assert result.pages == pdf_pages(out) == 1
    text = squash(pdf_text(out))
    for wanted in (
        "Skirmish at the Ford: battle report",
        "Campaign: Winter War",
        "BrikWars 2020",
        "Page 1 of 1",
        "Finished 2026-05-01",
        "2 rounds",
        "Margo (Crimson Brickguard)",
        "Result: Tobias falls back across the ford.",
        "5 attacks: 3 hits, 2 kills; 1 Over the Top, 1 critical failure.",
        "Casualties",
        "Cactus Pete, Rusty",
        "Casualties per round",
        "The battle, round by round",
        "Round 1",
        "Round 2",
        "Tobias's turn",
        "Crossbow Kate (Margo) attacks Cactus Pete (Tobias) with a Long-Ranged Weapon",
        "Action Roll: d6 5, -1 = 4 against Use 3: hit",
        "Damage: d6 3, +1, -1 = 3 against Armor 0",
        "Modifier -1 Action Roll: 1 inch beyond Range (5.1 Out of Range)",
        "Cactus Pete (Tobias) is killed.",
        "Armor roll: d6 5 + d6 4, +2 = 11",
        "11 Damage does not beat Armor 11: no effect.",
        "“Kate drops the cactus man from 11 inches”",
        "The battle is over:",
    ):
        assert wanted in text, wanted
    assert (
        text.index("Round 1")
        < text.index("Crossbow Kate (Margo) attacks")
        < text.index("Round 2")
        < text.index("Sir Reginald (Margo) strikes")
    )


def test_the_report_pdf_says_who_won(tmp_path):
    """The winner the organizer picked at End battle heads the summary, above the result."""
    from dataclasses import replace

    out = tmp_path / "ford.pdf"
    export_report_pdf(replace(ford(), outcome="Margo won"), out)
    text = squash(pdf_text(out))
    assert "Outcome: Margo won" in text
    assert text.index("Outcome: Margo won") < text.index("Result: Tobias falls back")
    export_report_pdf(ford(), out)  # no stored result: no outcome line
    assert "Outcome:" not in squash(pdf_text(out))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_paper_sizes(tmp_path, paper):
    out = tmp_path / f"{paper}.pdf"
    pages = export_report_pdf(long_battle(), out, paper).pages
    assert [pdf_page_size(out, n) for n in range(1, pages + 1)] == [PAPER_POINTS[paper]] * pages


def test_a_long_battle_runs_over_pages_with_no_entry_split(tmp_path):
    report = long_battle()
    layout, _ = layout_of(report)
    assert layout.page_count >= 3
    body = layout.body_rect
    placed = [(p.number, b) for p in layout.pages for b in p.placed]
    for _, b in placed:
        assert body.top() - 0.01 <= b.y and b.y + b.h <= body.bottom() + 0.01
    # a heading never ends a page: it stays with what it introduces
    for p in layout.pages[:-1]:
        assert p.placed[-1].kind not in ("section", "round", "turn", "table-head"), p.number
    entries = [b for _, b in placed if b.kind == "entry"]
    told = [e for e in report.entries]
    assert len(entries) == sum(max(1, len(t.entries)) for r in report.rounds for t in r.turns)
    out = tmp_path / "long.pdf"
    pages = export_report_pdf(report, out).pages
    texts = [squash(pdf_text(out, n)) for n in range(1, pages + 1)]
    for n, text in enumerate(texts, 1):
        assert f"Page {n} of {pages}" in text and "The Long War: battle report" in text
    for e in told:  # each entry's headline on exactly one page
        name = e.headline.split(" is killed")[0]
        assert sum(f"{name} is killed" in t for t in texts) == 1, name


def test_a_page_that_carries_on_a_round_says_which_round_and_turn(tmp_path):
    report = long_battle()
    layout, _ = layout_of(report)
    texts = []
    for page in layout.pages[1:]:
        first = page.placed[0]
        # never an entry or a turn without its round, nor blank space, at the top of a page
        assert first.kind in ("continued", "round", "section"), (page.number, first.kind)
        if first.kind == "continued":
            heading = next(op.text for op in first.ops if op.kind == "text")
            follower = page.placed[1]
            assert re.fullmatch(r"Round \d+(, \w+'s turn)?, continued", heading)
            # a turn heading follows "Round n, continued"; an entry follows the turn's line
            assert (follower.kind == "turn") == ("turn" not in heading)
            texts.append(heading)
    assert texts
    # the round named is the round the page carries on
    out = tmp_path / "long.pdf"
    pages = export_report_pdf(report, out).pages
    seen_round = 0
    for n in range(1, pages + 1):
        text = squash(pdf_text(out, n))
        carried = re.search(r"Round (\d+), (?:\w+'s turn, )?continued", text)
        if carried:
            assert int(carried.group(1)) == seen_round, (n, carried.group(0))
        rounds = [int(r) for r in re.findall(r"Round (\d+)(?!, )", text)]
        if rounds:
            seen_round = max(rounds)


def test_print_preview_print_and_pdf_are_one_path(tmp_path):
    from PySide6.QtPrintSupport import QPrinter

    report = long_battle(8)
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printed = tmp_path / "printed.pdf"
    printer.setOutputFileName(str(printed))
    configure_page(printer, "letter")
    layout = print_battle_report(printer, report)
    exported = tmp_path / "exported.pdf"
    result = export_report_pdf(report, exported, "letter")
    assert pdf_pages(printed) == layout.page_count == result.pages
    assert squash(pdf_text(printed)) == squash(pdf_text(exported))


def test_progress_reports_every_page(tmp_path):
    seen: list[tuple[int, int]] = []
    result = export_report_pdf(
        long_battle(), tmp_path / "p.pdf", progress=lambda d, t: seen.append((d, t))
    )
    assert seen == [(0, 0)] + [(n, result.pages) for n in range(1, result.pages + 1)]


def test_bad_destinations_and_paper_are_user_errors(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        export_report_pdf(ford(), tmp_path / "nope" / "r.pdf")
    with pytest.raises(UserError, match="A4 or Letter"):
        export_report_pdf(ford(), tmp_path / "r.pdf", "a3")
    assert not (tmp_path / "r.pdf").exists()


# --------------------------------------------------------------------------- the chart


def chart_bars(layout):
    chart = next(b for p in layout.pages for b in p.placed if b.kind == "chart")
    # the bars: fills below the title line (its legend swatches are on it)
    return chart, [op for op in chart.ops if op.kind == "fill" and op.y >= 20]


def test_the_chart_has_one_bar_per_loss_in_the_players_colour_to_scale():
    report = long_battle()
    layout, _ = layout_of(report)
    chart, bars = chart_bars(layout)
    cells = [
        (rc.round, report.players[j].player_id, n)
        for rc in report.per_round
        for j, n in enumerate(rc.lost)
        if n
    ]
    assert len(bars) == len(cells)
    assert sorted(op.colour for op in bars) == sorted(f"p:{pid}" for _, pid, _ in cells)
    per_loss = {
        round(op.h / n, 6)
        for op, (_, _, n) in zip(sorted(bars, key=lambda o: o.x), cells, strict=True)
    }
    assert len(per_loss) == 1  # every bar's height is its number of losses times one step
    bottoms = {round(op.y + op.h, 6) for op in bars}
    assert len(bottoms) == 1  # all bars stand on the axis


def test_the_chart_is_painted_in_the_players_colours():
    report = ford()
    layout, _ = layout_of(report)
    chart, bars = chart_bars(layout)
    (tobias_bar, *_rest) = bars
    dpi = 60
    image = render_report_page(report, 1, dpi=dpi)
    k = dpi / 72
    margin = 12 / 25.4 * 72
    x = (margin + chart.x + tobias_bar.x + tobias_bar.w / 2) * k
    y = (margin + chart.y + tobias_bar.y + tobias_bar.h / 2) * k
    c = image.pixelColor(round(x), round(y))
    assert (c.red(), c.green(), c.blue()) == (0x2E, 0x86, 0xC1)  # Tobias's blue


def test_a_battle_with_no_casualties_says_so(tmp_path):
    report = build_battle_report(FACTS, PLAYERS, UNITS, log(TurnEnded(10, 1)))
    layout, _ = layout_of(report)
    chart, bars = chart_bars(layout)
    assert bars == []
    assert any(op.text == "No casualties." for op in chart.ops)


def test_a_white_player_gets_outlined_swatches_and_bars():
    players = (ReportPlayer(10, "Snow", "#ffffff"), ReportPlayer(20, "Coal", "#000000"))
    report = build_battle_report(FACTS, players, UNITS, log(UnitKilled(1, actor=4)))
    layout, _ = layout_of(report)
    chart, bars = chart_bars(layout)
    assert [op.colour for op in bars] == ["p:10"]
    boxes = [op for op in chart.ops if op.kind == "box"]
    assert any(
        (op.x, op.y, op.w, op.h) == (bars[0].x, bars[0].y, bars[0].w, bars[0].h) for op in boxes
    )


def test_a_battle_not_begun_prints_one_page_that_says_so(tmp_path):
    report = build_battle_report(
        BattleFacts("Lighthouse", "Winter War", "planned"), PLAYERS, UNITS, []
    )
    out = tmp_path / "planned.pdf"
    assert export_report_pdf(report, out).pages == 1
    text = squash(pdf_text(out))
    assert "Lighthouse: battle report" in text and "not begun" in text
    assert "The battle has not begun." in text and "Nothing has happened yet." in text
    assert "No casualties." in text


# --------------------------------------------------------------------------- black and white


def chroma(c) -> int:
    return max(c.red(), c.green(), c.blue()) - min(c.red(), c.green(), c.blue())


def test_black_and_white_fills_nothing_and_prints_no_colour():
    report = long_battle(8)
    bw, _ = layout_of(report, black_and_white=True)
    colour, _ = layout_of(report)
    assert bw.black_and_white and not colour.black_and_white
    assert [op for op in colour.ops() if op.kind == "fill"]
    assert not [op for op in bw.ops() if op.kind == "fill"]
    dpi = 30
    bw_img = render_report_page(report, 1, dpi=dpi, black_and_white=True)
    colour_img = render_report_page(report, 1, dpi=dpi)
    pixels = [(x, y) for y in range(0, bw_img.height(), 2) for x in range(0, bw_img.width(), 2)]
    assert max(chroma(bw_img.pixelColor(x, y)) for x, y in pixels) <= 6
    assert max(chroma(colour_img.pixelColor(x, y)) for x, y in pixels) > 100
    # the header band (just inside the 12 mm margin) is white paper, not the dark band
    x = y = int(40 / 72 * dpi)
    assert bw_img.pixelColor(x, y).lightness() == 255
    assert colour_img.pixelColor(x, y).lightness() < 100
    # less ink: the black-and-white page is lighter on average
    mean = lambda img: sum(img.pixelColor(x, y).lightness() for x, y in pixels) / len(pixels)  # noqa: E731
    assert mean(bw_img) > mean(colour_img) + 5


def test_black_and_white_tells_players_apart_by_line_pattern():
    report = long_battle()
    layout, _ = layout_of(report, black_and_white=True)
    chart = next(b for p in layout.pages for b in p.placed if b.kind == "chart")
    bars = [op for op in chart.ops if op.kind == "box" and op.y >= 20]

    # bars in the order drawn: round by round, player by player (Margo, Tobias, Ines)
    seen: dict[int, set[str]] = {}
    cells = [(j, n) for rc in report.per_round for j, n in enumerate(rc.lost) if n]
    assert len(bars) == len(cells)
    for box, (j, _n) in zip(bars, cells, strict=True):
        seen.setdefault(j, set()).add(pattern_of(chart.ops, box))
    assert seen == {0: {"/"}, 1: {"-"}, 2: {"\\"}}
    assert HATCHES[:3] == ("/", "-", "\\")
    # the legend and the casualties table use the same patterns as the bars
    table = [b for p in layout.pages for b in p.placed if b.kind == "table-row"]
    assert len(table) == 3
    for j, row in enumerate(table):
        box = next(op for op in row.ops if op.kind == "box")
        assert pattern_of(row.ops, box) == HATCHES[j]


def pattern_of(ops, box) -> str:
    """The line pattern hatching ``box``: which way its lines run, all inside the outline."""
    inside = [
        op
        for op in ops
        if op.kind == "line"
        and op.width == 0.4
        and box.x - 0.01 <= min(op.x, op.x + op.w)
        and max(op.x, op.x + op.w) <= box.x + box.w + 0.01
        and box.y - 0.01 <= min(op.y, op.y + op.h)
        and max(op.y, op.y + op.h) <= box.y + box.h + 0.01
    ]
    assert inside, box
    kinds = {
        ("-" if abs(op.h) < 0.01 else "|" if abs(op.w) < 0.01 else "/" if op.w * op.h < 0 else "\\")
        for op in inside
    }
    return "".join(sorted(kinds))


def test_a_black_and_white_pdf_has_the_same_text(tmp_path):
    report = ford()
    colour = export_report_pdf(report, tmp_path / "c.pdf")
    bw = export_report_pdf(report, tmp_path / "bw.pdf", black_and_white=True)
    assert colour.pages == bw.pages == 1
    assert squash(pdf_text(tmp_path / "c.pdf")) == squash(pdf_text(tmp_path / "bw.pdf"))


def test_a_failed_export_leaves_no_file(tmp_path):
    out = tmp_path / "r.pdf"

    def stop(done, total):
        if done == 1:
            raise RuntimeError("stopped")

    with pytest.raises(RuntimeError, match="stopped"):
        export_report_pdf(long_battle(), out, progress=stop)
    assert list(tmp_path.iterdir()) == []
