"""The campaign report on paper: standings, the timeline of battles and the charts over them.

``brikdesk.domain.history`` decides what it says (a ``CampaignHistory``); this module lays it out in
points with the sheets' primitives (``ui.printing.layout``) and paints it, through one path for
print preview, printing, PDF export and page images ("One path for preview, print and PDF" in
docs/conventions.md):

- ``layout_campaign_report(history, device)`` -> ``SheetLayout``;
- ``paint_campaign_report(painter, device, history, layout=None, ...)``;
- ``print_campaign_report(printer, history)`` for ``QPrintPreviewDialog.paintRequested``;
- ``export_campaign_pdf(history, path, paper="a4")`` writes a PDF.

The charts (army value, units alive, casualties and kills over the battles, a line per army in
its player's colour) are drawn with QPainter in points, so they print sharp; a long campaign
labels every k-th battle on the axis, never squashed numbers. In black and white the lines are
black and each army gets its own marker (on every point, or every k-th of a long campaign),
named in the legend.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PySide6.QtGui import QColor, QPagedPaintDevice, QPainter

from brikdesk.domain.history import APPROXIMATE, CampaignHistory, standing_cells
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
    table_blocks,
)
from ui.printing.painter import band_ops, base_palette, paint_pages
from ui.printing.pdf import PagedReport
from ui.printing.report import FALLBACK_COLOURS

Progress = Callable[[int, int], None]
PLOT_H = 78.0
#: Chart metrics: (title, the series' attribute).
CHARTS = (
    ("Army value", "value"),
    ("Units alive", "alive"),
    ("Casualties so far", "casualties"),
    ("Kills so far", "kills"),
)
MARKERS = ("square", "cross", "plus", "dot", "bar", "none")


def army_key(army_id: int) -> str:
    return f"a:{army_id}"


def campaign_palette(history: CampaignHistory, black_and_white: bool = False) -> dict[str, QColor]:
    """Colours by role, and one per army (``a:<army id>``); black and greys only in black
    and white."""
    out = base_palette(black_and_white)
    if black_and_white:
        out.update({army_key(s.army_id): out["ink"] for s in history.series})
        return out
    seen: dict[str, int] = {}
    for i, s in enumerate(history.series):
        c = QColor(s.colour)
        if not c.isValid():
            c = QColor(FALLBACK_COLOURS[i % len(FALLBACK_COLOURS)])
        n = seen.get(s.colour, 0)  # a player's second army: a darker shade
        seen[s.colour] = n + 1
        out[army_key(s.army_id)] = c.darker(100 + 45 * n) if n else c
    return out


def header_ops(
    m: Metrics, history: CampaignHistory, page: int, pages: int, width: float, black_and_white: bool
) -> list[Op]:
    """The band at the top of every page (black text over a rule in black and white)."""
    n = len(history.timeline)
    players = ", ".join(s.name for s in sorted(history.standings, key=lambda s: s.player_id))
    return band_ops(
        m,
        width,
        black_and_white,
        4 + m.width(f"Page {pages} of {pages}", "head_bold"),
        [
            (f"{history.campaign}: campaign report", "army", "band_ink"),
            (f"{n} finished battle{'s' if n != 1 else ''}   ·   {players}", "head", "band_muted"),
        ],
        [(f"Page {page} of {pages}", "head_bold", "band_ink")],
    )


def _columns(
    m: Metrics,
    width: float,
    heads: Sequence[str],
    rows: Sequence[Sequence[str]],
    stretch: int | None,
) -> tuple[tuple[str, float], ...]:
    """Column widths: each its widest cell; the ``stretch`` column takes what is left (or,
    with ``None``, every column a share of it)."""
    widths = [
        max([m.width(h, "th")] + [m.width(r[i], "ref") for r in rows]) + 8
        for i, h in enumerate(heads)
    ]
    if stretch is None:
        extra = max(0.0, width - sum(widths)) / len(widths)
        widths = [w + extra for w in widths]
    else:
        rest = width - sum(w for i, w in enumerate(widths) if i != stretch)
        widths[stretch] = max(60.0, rest)
    scale = min(1.0, width / sum(widths))
    return tuple((h, w * scale) for h, w in zip(heads, widths, strict=True))


def _standings_blocks(m: Metrics, h: CampaignHistory, width: float) -> list[Block]:
    cu = h.cost_unit
    heads = (
        "Player",
        "Fought",
        "Won",
        "Drawn",
        "Lost",
        f"Value ({cu})",
        "Budget",
        "Alive",
        "Casualties",
        "Kills",
    )
    rows = [standing_cells(s) for s in h.standings]
    return table_blocks(m, width, "Standings", _columns(m, width, heads, rows, None), rows)


def _timeline_blocks(m: Metrics, h: CampaignHistory, width: float) -> list[Block]:
    heads = ("#", "Date", "Battle", "Sides", "Winner", "Casualties", "Most kills")
    rows = [
        (
            str(i),
            e.date.astimezone().strftime("%Y-%m-%d") if e.date else "-",
            e.name + (" (from its log)" if e.from_log else ""),
            " vs ".join(e.sides),
            e.winner_text,
            e.casualties_text,
            e.top_text,
        )
        for i, e in enumerate(h.timeline, 1)
    ]
    if not rows:
        lh = m.line("td")
        return [
            Block(
                "text",
                [
                    (
                        lh + SECTION_GAP,
                        [
                            Op(
                                "text",
                                0,
                                0,
                                width,
                                lh,
                                "No finished battles yet.",
                                "td",
                                colour="muted",
                            )
                        ],
                    )
                ],
            )
        ]
    cols = _columns(m, width, heads, rows, 2)
    # Long names wrap in their cells rather than push the table off the page.
    cap = width * 0.22
    cols = tuple((t, min(w, cap) if i >= 3 else w) for i, (t, w) in enumerate(cols))
    extra = width - sum(w for _, w in cols)
    cols = tuple((t, w + extra if i == 2 else w) for i, (t, w) in enumerate(cols))
    out = table_blocks(m, width, "Timeline of battles", cols, rows)
    noted = [(i, e) for i, e in enumerate(h.timeline, 1) if e.notes]
    if noted:
        out.append(
            _paragraph(
                m, width, "Notes written when the battles were finished:", "sub", heading=True
            )
        )
        out += [_paragraph(m, width, f"{i}. {e.name}: {e.notes}", "td") for i, e in noted]
    if h.in_progress:
        out.append(Block("gap", [(SECTION_GAP, [])]))
        out.append(_paragraph(m, width, "Battles in progress", "subsection", heading=True))
        out += [_paragraph(m, width, b.text, "td") for b in h.in_progress]
    return out


def _paragraph(m: Metrics, width: float, text: str, font: str, *, heading: bool = False) -> Block:
    """A wrapped paragraph of its own, whole on one page; a ``heading`` goes on the page of
    what follows it."""
    lh = m.line(font)
    lines = m.wrap(text, font, width) or ("",)
    ops = [Op("text", 0, i * lh, width, lh, line, font) for i, line in enumerate(lines)]
    return Block("text", [(len(lines) * lh + 3, ops)], keep_with_next=heading)


def _marker(ops: list[Op], x: float, y: float, kind: str, colour: str) -> None:
    r = 1.8
    if kind == "square":
        ops.append(Op("box", x - r, y - r, 2 * r, 2 * r, colour=colour))
    elif kind == "cross":
        ops.append(Op("line", x - r, y - r, 2 * r, 2 * r, colour=colour, width=0.6))
        ops.append(Op("line", x - r, y + r, 2 * r, -2 * r, colour=colour, width=0.6))
    elif kind == "plus":
        ops.append(Op("line", x - r, y, 2 * r, 0, colour=colour, width=0.6))
        ops.append(Op("line", x, y - r, 0, 2 * r, colour=colour, width=0.6))
    elif kind == "dot":
        ops.append(Op("fill", x - 1, y - 1, 2, 2, colour=colour))
    elif kind == "bar":
        ops.append(Op("line", x, y - r, 0, 2 * r, colour=colour, width=0.9))


def chart_block(
    m: Metrics, h: CampaignHistory, width: float, title: str, attr: str, black_and_white: bool
) -> Block:
    """One metric over the battles: a line per army, y grid with numbers, x every k-th battle
    (``Start`` at 0), legend under the title."""
    ops: list[Op] = []
    lh_t = m.line("subsection")
    ops.append(Op("text", 0, 0, width, lh_t, title, "subsection"))
    # legend: wraps onto as many lines as the armies need
    x, y = 0.0, lh_t
    lh_l = m.line("sub")
    for i, s in enumerate(h.series):
        label = f"{s.army} ({s.player})"
        w = m.width(label, "sub") + 22
        if x + w > width and x > 0:
            x, y = 0.0, y + lh_l
        key = army_key(s.army_id)
        ops.append(Op("line", x, y + lh_l / 2, 12, 0, colour=key, width=1.4))
        if black_and_white:
            _marker(ops, x + 6, y + lh_l / 2, MARKERS[i % len(MARKERS)], key)
        ops.append(Op("text", x + 15, y, w - 15, lh_l, label, "sub"))
        x += w + 6
    top = y + lh_l + 6
    values = [getattr(s, attr) for s in h.series]
    flat = [v for vs in values for v in vs] or [0]
    peak, low = max(max(flat), 1), min(flat)
    # A value that stays far from 0 (an army's worth) is drawn from just below its lowest,
    # so its changes show; counts that start at 0 are drawn from 0.
    base = low if low > peak / 2 else 0
    span = max(1, peak - base)
    step = 10 ** max(0, int(math.log10(span)) - 1) if span > 10 else 1
    while span / step > 6:
        step *= 2 if str(step)[0] == "1" else 2.5 if str(step)[0] == "2" else 2
    step = max(1, int(step))
    y_min = step * (base // step)
    y_max = step * math.ceil(peak / step)
    if y_max == y_min:
        y_max += step
    lh_tick = m.line("tick")
    axis_w = m.width(str(y_max), "tick") + 8
    plot_x, plot_w = axis_w, width - axis_w - 4
    per = PLOT_H / (y_max - y_min)
    for v in range(y_min, y_max + 1, step):
        yy = top + PLOT_H - (v - y_min) * per
        ops.append(
            Op(
                "line",
                plot_x,
                yy,
                plot_w,
                0,
                colour="faint" if v > y_min else "rule",
                width=0.4 if v > y_min else 0.7,
            )
        )
        ops.append(
            Op(
                "text",
                0,
                yy - lh_tick / 2,
                axis_w - 4,
                lh_tick,
                str(v),
                "tick",
                ALIGN_RIGHT,
                colour="muted",
            )
        )
    n = len(h.labels)
    dx = plot_w / max(1, n - 1)
    widest = m.width(str(n - 1), "tick") + 6
    every = max(1, math.ceil(widest / dx)) if n > 1 else 1
    for i in range(n):
        if i == 0 or i % every == 0 or i == n - 1 and (n - 1) % every > every / 2:
            text = "Start" if i == 0 else str(i)
            tw = max(widest, m.width(text, "tick") + 4)
            ops.append(
                Op(
                    "text",
                    plot_x + i * dx - tw / 2,
                    top + PLOT_H + 2,
                    tw,
                    lh_tick,
                    text,
                    "tick",
                    ALIGN_CENTER,
                    colour="muted",
                )
            )
    for j, s in enumerate(h.series):
        vs = getattr(s, attr)
        key = army_key(s.army_id)
        pts = [(plot_x + i * dx, top + PLOT_H - (v - y_min) * per) for i, v in enumerate(vs)]
        for (x1, y1), (x2, y2) in zip(pts, pts[1:], strict=False):
            ops.append(Op("line", x1, y1, x2 - x1, y2 - y1, colour=key, width=1.2))
        for (px, py), rough in zip(pts, s.approximate, strict=False):
            if rough and attr in ("value", "alive"):  # approximate: a ring around the point
                ops.append(Op("frame", px - 2.5, py - 2.5, 5, 5, colour=key, width=0.9))
        if black_and_white:  # a marker on every k-th point (armies staggered) tells them apart
            every = max(1, math.ceil(len(pts) / 30))
            for px, py in pts[(j * every // max(1, len(h.series))) % every :: every]:
                _marker(ops, px, py, MARKERS[j % len(MARKERS)], key)
    bottom = top + PLOT_H + 2 + lh_tick
    ops.append(
        Op(
            "text",
            plot_x,
            bottom,
            plot_w,
            m.line("sub"),
            "Battle (in the order they were finished)",
            "sub",
            ALIGN_CENTER,
            colour="muted",
        )
    )
    return Block("chart", [(bottom + m.line("sub") + SECTION_GAP, ops)])


def _leader_blocks(m: Metrics, h: CampaignHistory, width: float) -> list[Block]:
    heads = ("#", "Unit", "Player", "Kills", "Battles", "Status")
    rows = [
        (str(i), u.name, u.player, str(u.kills), str(u.battles), u.status)
        for i, u in enumerate(h.unit_leaders[:20], 1)
    ]
    if not rows:
        return []
    return table_blocks(
        m, width, "Leaderboard: units by kills", _columns(m, width, heads, rows, 1), rows
    )


def layout_campaign_report(
    history: CampaignHistory, device: QPagedPaintDevice, *, black_and_white: bool = False
) -> SheetLayout:
    frame = PageFrame.of(device)
    m = frame.metrics
    width = frame.body.width()
    blocks = _standings_blocks(m, history, width)
    blocks.append(Block("gap", [(SECTION_GAP, [])]))
    blocks += section_blocks(
        m,
        width,
        "The armies over the battles",
        "What each army was going into and coming out of each battle, as stored when it "
        "was finished; Start is the army before its first battle."
        + (
            f" A ringed value or count of units is approximate: {APPROXIMATE}"
            if any(s.any_approximate for s in history.series)
            else ""
        ),
    )
    for title, attr in CHARTS:
        blocks.append(chart_block(m, history, width, title, attr, black_and_white))
    blocks += _timeline_blocks(m, history, width)
    blocks.append(Block("gap", [(SECTION_GAP, [])]))
    blocks += _leader_blocks(m, history, width)
    return frame.paginate(blocks, black_and_white)


def paint_campaign_report(
    painter: QPainter,
    device: QPagedPaintDevice,
    history: CampaignHistory,
    *,
    layout: SheetLayout | None = None,
    progress: Progress | None = None,
    first_page: int = 1,
    last_page: int | None = None,
    black_and_white: bool = False,
) -> SheetLayout:
    if layout is None:
        layout = layout_campaign_report(history, device, black_and_white=black_and_white)
    bw = layout.black_and_white
    return paint_pages(
        painter,
        device,
        layout,
        campaign_palette(history, bw),
        lambda m, n, total, width: header_ops(m, history, n, total, width, bw),
        progress=progress,
        first_page=first_page,
        last_page=last_page,
    )


#: The campaign report as a paged document: ``print_campaign_report(printer, history)`` (the
#: preview's ``paintRequested`` and Print) and ``export_campaign_pdf(history, path, paper,
#: progress, black_and_white=)``, checked whole before it replaces anything.
CAMPAIGN_REPORT: PagedReport[CampaignHistory] = PagedReport(
    layout_campaign_report,
    paint_campaign_report,
    lambda history: f"{history.campaign}: campaign report",
)
print_campaign_report = CAMPAIGN_REPORT.print
export_campaign_pdf = CAMPAIGN_REPORT.export_pdf
