"""The battle report on paper: laid out in points, painted on any paged device ("One path for
preview, print and PDF" in docs/conventions.md).

``brikdesk.domain.report`` decides what the report says; this module places it on A4 or Letter
pages and paints it, through one path for print preview, printing, PDF export and page images:

- ``layout_battle_report(report, device)`` -> ``SheetLayout`` (pages of placed blocks, points);
- ``paint_battle_report(painter, device, report, layout=None, progress=None)`` paints it;
- ``print_battle_report(printer, report)`` for ``QPrintPreviewDialog.paintRequested`` and Print
  (call ``configure_page(printer, paper)`` first);
- ``export_report_pdf(report, path, paper="a4", progress=None)`` writes a PDF (``QPdfWriter``);
- ``render_report_page(report, page, paper="a4", dpi=60)`` paints one page on a ``QImage``.

The pages: a header on every page (the battle, its campaign and rules, who fought, page x of y,
its status and date); then the summary (the sides with their colours, the result, the tally of
attacks), the casualties table per player, a bar chart of casualties per round drawn with
QPainter in points (one bar per player and round, in the player's colour, with its number), and
the account round by round, each turn under its player's colour. An entry is never split across
pages; round and turn headings stay with their first entry, and a page that carries on a round
starts by saying so ("Round 2, Tobias's turn, continued").

Black and white (``black_and_white=True``, to save ink): no filled areas at all. The header band
becomes black text over a rule; each player gets a line pattern instead of a colour (hatched
bars and legend swatches: diagonal, horizontal, the other diagonal, vertical, grid, empty), the
same in the summary, the casualties table and the chart.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import (
    QColor,
    QImage,
    QPagedPaintDevice,
    QPainter,
)

from brikdesk.domain.ids import PlayerId
from brikdesk.domain.report import BattleReport, ReportEntry, ReportTurn
from ui.printing import ink
from ui.printing.image import MeasuringDevice, render_page
from ui.printing.layout import (
    ALIGN_CENTER,
    ALIGN_RIGHT,
    SECTION_GAP,
    Block,
    Metrics,
    Op,
    PageFrame,
    SheetLayout,
    section_blocks,
)
from ui.printing.painter import band_ops, band_room, base_palette, paint_pages
from ui.printing.pdf import PagedReport, checked_paper

Progress = Callable[[int, int], None]

#: Colours for players who have none (or an unreadable one), in turn order.
FALLBACK_COLOURS = ink.FALLBACK_COLOURS
#: Line patterns standing for the players in black and white, in turn order.
HATCHES = ("/", "-", "\\", "|", "+", "")
CHART_H = 130.0  # the plot area of the casualties chart, in points: at most
CHART_MIN_H = 66.0  # and at least (22 points per grid step in between)
ENTRY_INDENT = 16.0
SWATCH = 8.0


def player_key(player_id: PlayerId | None) -> str:
    return f"p:{player_id}"


def report_palette(report: BattleReport, black_and_white: bool = False) -> dict[str, QColor]:
    """Colours by role, and one per player (``p:<player id>``); black and greys only in black
    and white."""
    colours = base_palette(black_and_white)
    if black_and_white:
        colours.update({player_key(p.player_id): colours["ink"] for p in report.players})
        return colours
    for i, p in enumerate(report.players):
        c = QColor(p.colour) if p.colour else QColor()
        if not c.isValid():
            c = QColor(FALLBACK_COLOURS[i % len(FALLBACK_COLOURS)])
        colours[player_key(p.player_id)] = c
    return colours


def _light(colour: QColor) -> bool:
    return 0.299 * colour.red() + 0.587 * colour.green() + 0.114 * colour.blue() > 200


def hatch_of(report: BattleReport, player_id: PlayerId | None) -> str:
    """The line pattern standing for a player in black and white (``HATCHES``)."""
    ids = [p.player_id for p in report.players]
    i = ids.index(player_id) if player_id in ids else 0
    return HATCHES[i % len(HATCHES)]


def hatch_ops(
    x: float, y: float, w: float, h: float, pattern: str, spacing: float = 2.5
) -> list[Op]:
    """An outlined rectangle filled with lines (``/``, ``-``, ``\\``, ``|``, ``+`` or none)
    every ``spacing`` points, clipped to the rectangle: a player's mark in black and white."""
    ops: list[Op] = [Op("box", x, y, w, h, colour="box")]

    def diagonal(rising: bool) -> None:
        # u, v: offsets from the top-left corner; rising (/): u + v = c; falling: u - v = c
        c = spacing / 2 if rising else -h + spacing / 2
        end = w + h if rising else w
        while c < end:
            if rising:
                u1, u2 = max(0.0, c - h), min(w, c)
                v1, v2 = c - u1, c - u2
            else:
                u1, u2 = max(0.0, c), min(w, h + c)
                v1, v2 = u1 - c, u2 - c
            if u2 - u1 > 0.05:
                ops.append(Op("line", x + u1, y + v1, u2 - u1, v2 - v1, colour="ink", width=0.4))
            c += spacing

    if pattern in ("/", "\\"):
        diagonal(pattern == "/")
    if pattern in ("-", "+"):
        v = spacing / 2
        while v < h:
            ops.append(Op("line", x, y + v, w, 0, colour="ink", width=0.4))
            v += spacing
    if pattern in ("|", "+"):
        u = spacing / 2
        while u < w:
            ops.append(Op("line", x + u, y, 0, h, colour="ink", width=0.4))
            u += spacing
    return ops


# ---------------------------------------------------------------------------------------------
# Header


def report_header_ops(
    m: Metrics,
    report: BattleReport,
    page: int,
    pages: int,
    width: float,
    black_and_white: bool = False,
) -> list[Op]:
    """The band at the top of every page (black text over a rule in black and white)."""
    status = report.status_text.capitalize()
    # the right column as wide as its widest line (the same on every page), at most 150 pt
    right_w = min(
        150.0,
        4
        + max(
            m.width(f"Page {pages} of {pages}", "head_bold"),
            m.width(status, "head"),
            m.width(_rounds_text(report), "head"),
        ),
    )
    left_w = band_room(width, black_and_white, right_w)
    f = report.facts
    # a long name drops the suffix, then takes a smaller font, and only then is cut short
    title, font = f"{f.name}: battle report", "army"
    if m.width(title, font) > left_w:
        title = f.name
    if m.width(title, font) > left_w:
        font = "card_title"
    where = [
        f"Campaign: {f.campaign}" if f.campaign else "",
        f"BrikWars {f.edition}" if f.edition else "",
    ]
    return band_ops(
        m,
        width,
        black_and_white,
        right_w,
        [
            (title, font, "band_ink"),
            ("   ·   ".join(w for w in where if w), "head", "band_ink"),
            (" vs ".join(p.name for p in report.players), "head", "band_muted"),
        ],
        [
            (f"Page {page} of {pages}", "head_bold", "band_ink"),
            (m.elide(status, "head", right_w), "head", "band_ink"),
            (_rounds_text(report), "head", "band_muted"),
        ],
    )


def _rounds_text(report: BattleReport) -> str:
    n = len(report.rounds)
    return f"{n} round{'s' if n != 1 else ''}" if n else "not begun"


# ---------------------------------------------------------------------------------------------
# Blocks


def _lines(
    m: Metrics,
    ops: list[Op],
    x: float,
    y: float,
    width: float,
    text: str,
    font: str,
    colour: str = "ink",
) -> float:
    lh = m.line(font)
    for line in m.wrap(text, font, width):
        ops.append(Op("text", x, y, width, lh, line, font, colour=colour))
        y += lh
    return y


class _Marks:
    """How players are told apart: by colour, or by line pattern in black and white."""

    def __init__(self, report: BattleReport, black_and_white: bool) -> None:
        self.report = report
        self.bw = black_and_white
        self.colours = report_palette(report, black_and_white)

    def area(
        self,
        ops: list[Op],
        x: float,
        y: float,
        w: float,
        h: float,
        player_id: PlayerId | None,
        spacing: float = 2.5,
    ) -> None:
        """A filled rectangle in the player's colour (outlined when the colour is light), or
        outlined and hatched in the player's pattern."""
        if self.bw:
            ops += hatch_ops(x, y, w, h, hatch_of(self.report, player_id), spacing)
            return
        key = player_key(player_id)
        ops.append(Op("fill", x, y, w, h, colour=key))
        if _light(self.colours[key]):
            ops.append(Op("box", x, y, w, h, colour="box"))


def _swatch(
    ops: list[Op], x: float, y: float, line_h: float, player_id: PlayerId | None, marks: _Marks
) -> None:
    top = y + (line_h - SWATCH) / 2
    marks.area(ops, x, top, SWATCH, SWATCH, player_id, spacing=2.0)


def _summary_block(m: Metrics, report: BattleReport, width: float, marks: _Marks) -> Block:
    ops: list[Op] = []
    y = 0.0
    lh = m.line("card_title")
    x = 0.0
    for i, p in enumerate(report.players):
        if i:
            ops.append(
                Op(
                    "text",
                    x,
                    y,
                    m.width(" vs ", "card_title") + 2,
                    lh,
                    "vs",
                    "card_title",
                    ALIGN_CENTER,
                    colour="muted",
                )
            )
            x += m.width(" vs ", "card_title") + 2
        label = f"{p.name} ({p.faction})" if p.faction else p.name
        need = m.width(label, "card_title") + 2
        if i and x + SWATCH + 4 + need > width:  # no room left: carry on on the next line
            y += lh + 2
            x = 0.0
        _swatch(ops, x, y, lh, p.player_id, marks)
        x += SWATCH + 4
        w = min(need, width - x)
        ops.append(Op("text", x, y, w, lh, m.elide(label, "card_title", w), "card_title"))
        x += w + 4
    y += lh + 3
    f = report.facts
    tally = report.tally.text
    y = _lines(m, ops, 0, y, width, f"{tally[:1].upper()}{tally[1:]}.", "td", "muted")
    if f.notes:
        y = _lines(m, ops, 0, y + 2, width, f.notes, "note", "muted")
    # Outcome and Result: their texts start at one tab, the wider label's
    tw = max(m.width("Outcome:  ", "td_bold"), m.width("Result:  ", "td_bold"))
    if report.outcome:
        ops.append(Op("text", 0, y + 3, tw, m.line("td_bold"), "Outcome:", "td_bold"))
        y = _lines(m, ops, tw, y + 3, width - tw, report.outcome, "td_bold")
    if report.result:
        ops.append(Op("text", 0, y + 3, tw, m.line("td_bold"), "Result:", "td_bold"))
        y = _lines(m, ops, tw, y + 3, width - tw, report.result, "td_bold")
    elif not report.rounds:
        y = _lines(m, ops, 0, y + 3, width, "The battle has not begun.", "td", "muted")
    elif not report.finished:
        y = _lines(
            m,
            ops,
            0,
            y + 3,
            width,
            "The battle is not over yet: this is the story so far.",
            "td",
            "muted",
        )
    return Block("summary", [(y + SECTION_GAP, ops)])


def _casualty_blocks(m: Metrics, report: BattleReport, width: float, marks: _Marks) -> list[Block]:
    out = section_blocks(m, width, "Casualties")
    heads = ("Player", "Mustered", "Lost", "Standing", "Kills", "Fallen")
    num_w = [max(m.width(h, "th"), m.width("0000", "td")) + 10 for h in heads[1:5]]
    name_w = min(
        max([m.width(r.player, "td_bold") for r in report.casualties] + [m.width("Player", "th")])
        + SWATCH
        + 14,
        0.3 * width,
    )
    fallen_w = width - name_w - sum(num_w)
    widths = (name_w, *num_w, fallen_w)
    th = m.line("th")
    ops: list[Op] = []
    x = 0.0
    for i, (head, w) in enumerate(zip(heads, widths, strict=True)):
        align = (
            ALIGN_RIGHT
            if 1 <= i <= 4
            else int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        )
        ops.append(
            Op("text", x, 0, w - 8 if 1 <= i <= 4 else w - 4, th, head, "th", align, colour="muted")
        )
        x += w
    ops.append(Op("line", 0, th + 0.5, width, 0, colour="rule", width=0.5))
    out.append(Block("table-head", [(th + 2, ops)], keep_with_next=True))
    lh = m.line("td")
    for r in report.casualties:
        ops = []
        _swatch(ops, 0, 1, lh, r.player_id, marks)
        ops.append(
            Op(
                "text",
                SWATCH + 5,
                1,
                name_w - SWATCH - 9,
                lh,
                m.elide(r.player, "td_bold", name_w - SWATCH - 9),
                "td_bold",
            )
        )
        x = name_w
        for value, w in zip((r.mustered, r.lost, r.standing, r.kills), num_w, strict=True):
            ops.append(Op("text", x, 1, w - 8, lh, str(value), "td", ALIGN_RIGHT))
            x += w
        fallen = m.wrap(", ".join(r.fallen) or "-", "td", fallen_w - 4)
        for j, line in enumerate(fallen):
            ops.append(Op("text", x, 1 + j * lh, fallen_w - 4, lh, line, "td"))
        h = max(1, len(fallen)) * lh + 3
        ops.append(Op("line", 0, h - 0.5, width, 0, colour="faint", width=0.3))
        out.append(Block("table-row", [(h, ops)], table_header=out[-1]))
    out.append(Block("gap", [(SECTION_GAP, [])]))
    return out


def _chart_block(m: Metrics, report: BattleReport, width: float, marks: _Marks) -> list[Block]:
    """Casualties per round: a group of bars per round, one bar per player, with numbers."""
    ops: list[Op] = []
    title_h = m.line("subsection")
    ops.append(Op("text", 0, 0, width, title_h, "Casualties per round", "subsection"))
    # legend, right-aligned on the title line
    lx = width
    for p in reversed(report.players):
        w = m.width(p.name, "sub") + 2
        lx -= w
        ops.append(Op("text", lx, 0, w, title_h, p.name, "sub"))
        lx -= SWATCH + 3
        _swatch(ops, lx, 0, title_h, p.player_id, marks)
        lx -= 10
    rounds = report.per_round
    top = title_h + 10
    peak = max([n for rc in rounds for n in rc.lost] + [1])
    step = max(1, math.ceil(peak / 6))
    y_max = step * math.ceil(peak / step)
    axis_w = m.width(str(y_max), "tick") + 8
    plot_x, plot_w = axis_w, width - axis_w
    plot_h = min(CHART_H, max(CHART_MIN_H, y_max / step * 22.0))
    per_unit = plot_h / y_max
    lh_tick = m.line("tick")
    for v in range(0, y_max + 1, step):
        y = top + plot_h - v * per_unit
        ops.append(
            Op(
                "line",
                plot_x,
                y,
                plot_w,
                0,
                colour="faint" if v else "rule",
                width=0.4 if v else 0.7,
            )
        )
        ops.append(
            Op(
                "text",
                0,
                y - lh_tick / 2,
                axis_w - 4,
                lh_tick,
                str(v),
                "tick",
                ALIGN_RIGHT,
                colour="muted",
            )
        )
    n = max(1, len(rounds))
    group_w = plot_w / n
    players = report.players
    bar_w = min(22.0, group_w * 0.72 / max(1, len(players)))
    label_every = max(1, math.ceil(m.width(str(len(rounds)), "tick") * 2.2 / group_w))
    for i, rc in enumerate(rounds):
        gx = plot_x + i * group_w + (group_w - bar_w * len(players)) / 2
        for j, lost in enumerate(rc.lost):
            if lost <= 0:
                continue
            h = lost * per_unit
            x = gx + j * bar_w
            marks.area(ops, x + 0.5, top + plot_h - h, bar_w - 1, h, players[j].player_id)
            if bar_w >= m.width(str(lost), "tick"):
                ops.append(
                    Op(
                        "text",
                        x,
                        top + plot_h - h - lh_tick - 1,
                        bar_w,
                        lh_tick,
                        str(lost),
                        "tick",
                        ALIGN_CENTER,
                    )
                )
        # every round's number when there is room, else every k-th (and round 1 if not crowded)
        r = rc.round
        if label_every == 1 or r % label_every == 0 or (r == 1 and label_every >= 3):
            ops.append(
                Op(
                    "text",
                    plot_x + i * group_w,
                    top + plot_h + 2,
                    group_w,
                    lh_tick,
                    str(rc.round),
                    "tick",
                    ALIGN_CENTER,
                    colour="muted",
                )
            )
    y = top + plot_h + 2 + lh_tick
    ops.append(
        Op("text", plot_x, y, plot_w, m.line("sub"), "Round", "sub", ALIGN_CENTER, colour="muted")
    )
    y += m.line("sub")
    if not report.total_lost:
        ops.append(
            Op(
                "text",
                plot_x,
                top + plot_h / 2 - lh_tick,
                plot_w,
                m.line("td"),
                "No casualties.",
                "td",
                ALIGN_CENTER,
                colour="muted",
            )
        )
    return [Block("chart", [(y + SECTION_GAP, ops)])]


def _turn_heading(m: Metrics, turn: ReportTurn, width: float, marks: _Marks) -> Block:
    lh = m.line("subsection")
    ops: list[Op] = []
    if marks.bw:
        ops.append(Op("line", 1.5, 1, 0, lh - 2, colour="ink", width=1.5))
    else:
        ops.append(Op("fill", 0, 1, 3, lh - 2, colour=player_key(turn.player_id)))
    ops.append(Op("text", 8, 0, width - 8, lh, turn.title, "subsection"))
    return Block("turn", [(lh + 2, ops)], keep_with_next=True)


def _entry_block(m: Metrics, n: int, entry: ReportEntry, width: float) -> Block:
    ops: list[Op] = []
    x = ENTRY_INDENT
    w = width - x
    lh = m.line("td_bold")
    ops.append(Op("text", 0, 0, x - 4, lh, f"{n}.", "td_bold", ALIGN_RIGHT))
    if entry.kind == "finish":
        y = _lines(m, ops, x, 0, w, entry.headline + (":" if entry.result else "."), "td_bold")
        if entry.result:
            y = _lines(m, ops, x, y, w, entry.result, "td")
        return Block("entry", [(y + 4, ops)])
    y = _lines(m, ops, x, 0, w, entry.headline, "td_bold")
    for roll in entry.rolls:
        y = _lines(m, ops, x, y, w, roll, "td")
    for mod in entry.modifiers:
        y = _lines(m, ops, x, y, w, f"Modifier {mod}", "sub", "muted")
    if entry.result:
        y = _lines(m, ops, x, y, w, entry.result, "td_bold" if entry.deaths else "td")
    if entry.note:
        y = _lines(m, ops, x, y + 1, w, f"“{entry.note}”", "note", "muted")
    return Block("entry", [(y + 5, ops)])


def _account_blocks(m: Metrics, report: BattleReport, width: float, marks: _Marks) -> list[Block]:
    out = section_blocks(m, width, "The battle, round by round")
    if not report.entries:
        out.append(
            Block(
                "text",
                [
                    (
                        m.line("td"),
                        [
                            Op(
                                "text",
                                0,
                                0,
                                width,
                                m.line("td"),
                                "Nothing has happened yet.",
                                "td",
                                colour="muted",
                            )
                        ],
                    )
                ],
            )
        )
        return out
    for rnd in report.rounds:
        lh = m.line("card_title")
        ops = [
            Op("text", 0, 2, width, lh, f"Round {rnd.number}", "card_title"),
            Op("line", 0, lh + 3, width, 0, colour="faint", width=0.5),
        ]
        out.append(Block("round", [(lh + 7, ops)], keep_with_next=True))
        round_cont = _continued_block(m, width, f"Round {rnd.number}, continued")
        for turn in rnd.turns:
            heading = _turn_heading(m, turn, width, marks)
            heading.table_header = round_cont
            out.append(heading)
            turn_cont = _continued_block(m, width, f"Round {rnd.number}, {turn.title}, continued")
            if not turn.entries:
                lh = m.line("td")
                out.append(
                    Block(
                        "entry",
                        [
                            (
                                lh + 5,
                                [
                                    Op(
                                        "text",
                                        ENTRY_INDENT,
                                        0,
                                        width - ENTRY_INDENT,
                                        lh,
                                        "Nothing was recorded in this turn.",
                                        "td",
                                        colour="muted",
                                    )
                                ],
                            )
                        ],
                        table_header=turn_cont,
                    )
                )
            for i, entry in enumerate(turn.entries, 1):
                block = _entry_block(m, i, entry, width)
                block.table_header = turn_cont
                out.append(block)
            out.append(Block("gap", [(3.0, [])]))
    return out


def _continued_block(m: Metrics, width: float, text: str) -> Block:
    """What a page that carries on a round (and a turn) starts with."""
    lh = m.line("subsection")
    ops = [
        Op(
            "text",
            0,
            0,
            width,
            lh,
            m.elide(text, "subsection", width),
            "subsection",
            colour="muted",
        ),
        Op("line", 0, lh + 1, width, 0, colour="faint", width=0.5),
    ]
    return Block("continued", [(lh + 5, ops)])


# ---------------------------------------------------------------------------------------------
# Layout, painting, PDF


def layout_battle_report(
    report: BattleReport, device: QPagedPaintDevice, *, black_and_white: bool = False
) -> SheetLayout:
    """Lay ``report`` out on ``device``'s pages (its current page layout), in points; in black
    and white the players are told apart by line patterns and nothing is filled."""
    frame = PageFrame.of(device)
    m = frame.metrics
    marks = _Marks(report, black_and_white)
    width = frame.body.width()
    blocks = [_summary_block(m, report, width, marks)]
    blocks += _casualty_blocks(m, report, width, marks)
    blocks += _chart_block(m, report, width, marks)
    blocks += _account_blocks(m, report, width, marks)
    return frame.paginate(blocks, black_and_white)


def paint_battle_report(
    painter: QPainter,
    device: QPagedPaintDevice,
    report: BattleReport,
    *,
    layout: SheetLayout | None = None,
    progress: Progress | None = None,
    first_page: int = 1,
    last_page: int | None = None,
    black_and_white: bool = False,
) -> SheetLayout:
    """Paint ``report`` on ``device`` through the active ``painter``, page after page (pages
    after the first start with ``device.newPage()``). A given ``layout`` decides black and
    white; otherwise ``black_and_white`` does. Returns the layout used."""
    if layout is None:
        layout = layout_battle_report(report, device, black_and_white=black_and_white)
    bw = layout.black_and_white
    return paint_pages(
        painter,
        device,
        layout,
        report_palette(report, bw),
        lambda m, n, total, width: report_header_ops(m, report, n, total, width, bw),
        progress=progress,
        first_page=first_page,
        last_page=last_page,
    )


#: The battle report as a paged document: ``print_battle_report(printer, report, progress=,
#: black_and_white=, layout=)`` paints it on a QPrinter (honouring its page range);
#: ``export_report_pdf(report, path, paper="a4", progress=None, black_and_white=)`` writes it
#: as a PDF, checked whole before it replaces anything. Both may run on a worker.
BATTLE_REPORT: PagedReport[BattleReport] = PagedReport(
    layout_battle_report, paint_battle_report, lambda report: f"{report.title}: battle report"
)
print_battle_report = BATTLE_REPORT.print
export_report_pdf = BATTLE_REPORT.export_pdf


def render_report_page(
    report: BattleReport,
    page: int = 1,
    *,
    paper: str = "a4",
    dpi: float = 60.0,
    layout: SheetLayout | None = None,
    black_and_white: bool = False,
) -> QImage:
    """Page ``page`` (1-based) of the report as an image of the whole paper at ``dpi``."""
    device = MeasuringDevice(checked_paper(paper))
    if layout is None:
        layout = layout_battle_report(report, device.writer, black_and_white=black_and_white)
    if not 1 <= page <= layout.page_count:
        raise ValueError(f"page {page} is not in 1..{layout.page_count}")

    def paint(painter: QPainter, image: QImage) -> None:
        paint_battle_report(
            painter,
            image,  # type: ignore[arg-type]
            report,
            layout=layout,
            first_page=page,
            last_page=page,
        )

    return render_page(device.writer.pageLayout(), dpi, paint)


__all__ = [
    "HATCHES",
    "export_report_pdf",
    "hatch_of",
    "hatch_ops",
    "layout_battle_report",
    "paint_battle_report",
    "print_battle_report",
    "render_report_page",
    "report_header_ops",
    "report_palette",
]
