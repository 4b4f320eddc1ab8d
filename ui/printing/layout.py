"""Lay a ``RosterSheet`` out on pages, in points, before anything is painted.

"One path for preview, print and PDF" (docs/conventions.md). ``layout_roster_sheet`` measures every
piece of text with the fonts of the device that will be painted on (fonts are sized in points
with ``QFont.setPointSizeF``; lengths are in points, 1/72 inch, and millimetres are converted),
so a sheet prints the same whatever the screen density. The result is a list of pages, each a
list of placed blocks holding simple drawing operations (``Op``) in points; ``painter.py``
replays them on any ``QPagedPaintDevice`` (``QPdfWriter``, ``QPrinter``).

Layout choices (documented for the user in ``LAYOUT_NOTES``):

- One column of cards, each with its tick boxes *beside* it on the right: a grid with one column
  per turn and one row for the Action, each Counter and "Dead". Boxes are 4.5 mm square, large
  enough to tick with a pen. Two columns would leave no room for the tick grid beside the item
  table, so the sheet uses one. When the turns leave the text less than 320 pt (113 mm), that
  is more than 9 turns on A4 or 10 on Letter, the grids go below the text instead.
- A folded card (``x6 Minifig with ...``) has one tick grid per member, labelled with the
  member's name; the first grids stand beside the text, the rest flow in rows below it.
- A card is never split across pages: a card that does not fit in what is left of a page starts
  the next page. A card taller than a whole page (a very large folded group) gets pages of its
  own and is *continued* between rows of tick grids, with "continued on the next page" at the
  bottom and "(continued)" after its title on the next page; it is never scaled down, so the
  boxes stay full size. Only a single piece taller than a page (which needs pages of notes)
  is scaled down to fit, and says so.
- Order: unit cards; the reference appendix on a new page; the blank cards on a new page; the
  roster warnings at the end.
- Colour: the player's colour as the header band and a light tint of it behind card titles;
  black-and-white draws no fills at all (outlines and text only).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QMarginsF, QRectF, Qt
from PySide6.QtGui import (
    QFont,
    QFontMetricsF,
    QImage,
    QPagedPaintDevice,
    QPageLayout,
    QPageSize,
    QPaintDevice,
)

from brikdesk.cache import LruCache
from brikdesk.domain.sheets import RosterSheet, UnitCard

PT_PER_MM = 72.0 / 25.4
MARGIN_MM = 12.0
BOX_MM = 4.5
BOX = BOX_MM * PT_PER_MM  # a tick box, in points (12.76 pt)
BOX_GAP = 2.2
HEADER_H = 50.0
HEADER_GAP = 10.0
CARD_GAP = 7.0
CARD_PAD = 6.0
GRID_GAP = 10.0  # between the text and the grid beside it
GRID_HGAP = 12.0  # between grids in a row below the text
GRID_VGAP = 6.0
GRID_LABEL_W = 44.0
MIN_TEXT_W = 320.0
SECTION_GAP = 8.0
CONT_H = 12.0  # the "continued on the next page" line
MAX_NOTE_LINES = 6
MAX_CELL_LINES = 4

LAYOUT_NOTES: dict[str, str] = {
    "columns": "One column of cards with the tick boxes beside each card; two columns leave no "
    "room for a tick grid beside the item table. With more than 9 turns on A4 (10 "
    "on Letter) the tick boxes go below the card's text.",
    "split": "A card is never split across pages. A card taller than a whole page (a very "
    "large folded group) gets pages of its own and continues between rows of tick "
    "boxes, marked 'continued on the next page'; it is not scaled down.",
    "boxes": f"Tick boxes are {BOX_MM:g} mm square.",
}

PAPER_SIZES = {"a4": QPageSize.PageSizeId.A4, "letter": QPageSize.PageSizeId.Letter}

#: font key -> (size in points, bold, italic)
FONT_SPECS: dict[str, tuple[float, bool, bool]] = {
    "army": (15.0, True, False),
    "head": (9.0, False, False),
    "head_bold": (9.0, True, False),
    "section": (12.5, True, False),
    "subsection": (9.5, True, False),
    "card_title": (11.0, True, False),
    "cost": (9.0, True, False),
    "sub": (7.5, False, False),
    "stat_label": (7.5, False, False),
    "stat": (11.0, True, False),
    "th": (7.0, True, False),
    "td": (8.5, False, False),
    "td_bold": (8.5, True, False),
    "ref": (7.8, False, False),
    "ref_bold": (7.8, True, False),
    "note": (8.0, False, True),
    "tick": (7.0, False, False),
    "tick_head": (7.5, True, False),
    "blank": (8.0, False, False),
}
FONT_FAMILIES = ["DejaVu Sans", "Liberation Sans", "Arial", "Helvetica"]

ALIGN_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
ALIGN_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
ALIGN_CENTER = int(Qt.AlignmentFlag.AlignCenter)


# ---------------------------------------------------------------------------------------------
# The layout result


@dataclass(slots=True)
class Op:
    """One drawing operation, in points relative to its block.

    kinds: ``text`` (one line, no wrapping, in ``font`` and ``colour``), ``fill`` (a filled
    rectangle, never in black and white), ``frame`` (a rounded outline), ``box`` (a tick box),
    ``line`` (from (x, y) to (x + w, y + h)).
    """

    kind: str
    x: float
    y: float
    w: float
    h: float
    text: str = ""
    font: str = ""
    align: int = ALIGN_LEFT
    colour: str = "ink"
    width: float = 0.6


@dataclass(slots=True)
class Placed:
    """A block placed on a page: ``ops`` are relative to (x, y) and drawn at ``scale``."""

    kind: str
    x: float
    y: float
    w: float
    h: float
    ops: list[Op]
    card: int | None = None
    scale: float = 1.0
    continued: bool = False

    def rect(self) -> QRectF:
        return QRectF(self.x, self.y, self.w, self.h)


@dataclass
class PageLayout:
    number: int
    placed: list[Placed] = field(default_factory=list)


@dataclass
class SheetLayout:
    """Pages of placed blocks. ``page_rect`` is the printable area in points (origin at its
    top-left corner, where the painter's origin is); ``paper`` the whole sheet's size."""

    page_rect: QRectF
    body_rect: QRectF
    paper_size: tuple[float, float]
    black_and_white: bool
    pages: list[PageLayout]

    @property
    def page_count(self) -> int:
        return len(self.pages)

    def card_pages(self, index: int) -> list[int]:
        """1-based page numbers on which card ``index`` (of ``sheet.cards``) is drawn."""
        return sorted(
            {p.number for p in self.pages for b in p.placed if b.card == index and b.kind == "card"}
        )

    def card_rects(self, index: int) -> list[tuple[int, QRectF]]:
        return [
            (p.number, b.rect())
            for p in self.pages
            for b in p.placed
            if b.card == index and b.kind == "card"
        ]

    def ops(self, page: int | None = None) -> list[Op]:
        """Every drawing operation (of one 1-based page, or all), headers excluded."""
        pages = self.pages if page is None else [self.pages[page - 1]]
        return [op for p in pages for b in p.placed for op in b.ops]


# ---------------------------------------------------------------------------------------------
# Page set-up and measuring


def page_layout_for(paper: str) -> QPageLayout:
    """A4 or Letter, portrait, 12 mm margins."""
    size = QPageSize(PAPER_SIZES[paper])
    m = MARGIN_MM * PT_PER_MM
    return QPageLayout(
        size, QPageLayout.Orientation.Portrait, QMarginsF(m, m, m, m), QPageLayout.Unit.Point
    )


def configure_page(device: QPagedPaintDevice, paper: str) -> None:
    """Set ``device`` (a QPdfWriter or QPrinter) to the sheet's paper, portrait, 12 mm margins.

    Call it before showing a QPrintPreviewDialog so the preview starts on the chosen paper.
    """
    device.setPageLayout(page_layout_for(paper))


def fits_device(layout: SheetLayout, device: QPagedPaintDevice) -> bool:
    """Whether ``layout`` was made for the paper ``device`` is set to now (the organizer may
    have chosen another paper in a print dialog since)."""
    paint = device.pageLayout().paintRect(QPageLayout.Unit.Point)
    return (
        abs(paint.width() - layout.page_rect.width()) < 0.5
        and abs(paint.height() - layout.page_rect.height()) < 0.5
    )


MEASURE_DPI = 1200


class Metrics:
    """Fonts in points and text measured in points.

    Text is measured on a reference image of 1200 dots per inch, whatever the target device,
    so a preview on a 96 dpi printer, a 300 dpi print and a PDF break lines and pages at the
    same places (font hinting at a coarse resolution would otherwise shift them). ``k`` is the
    target device's units per point, for painting.
    """

    def __init__(self, device: QPaintDevice | None = None) -> None:
        dpi = (device.logicalDpiY() if device is not None else 0) or MEASURE_DPI
        self.k = dpi / 72.0  # device units per point
        self._ref = QImage(1, 1, QImage.Format.Format_RGB32)
        dpm = round(MEASURE_DPI / 0.0254)
        self._ref.setDotsPerMeterX(dpm)
        self._ref.setDotsPerMeterY(dpm)
        self.device = self._ref
        self._mk = self._ref.logicalDpiY() / 72.0  # measuring units per point
        self.fonts: dict[str, QFont] = {}
        self._fm: dict[str, QFontMetricsF] = {}
        #: Wrapped texts (a roster repeats the same names, items and notes).
        self.wrap_cache: LruCache[tuple[str, str, float, int], tuple[str, ...]] = LruCache(4096)
        for key, (size, bold, italic) in FONT_SPECS.items():
            f = QFont()
            f.setFamilies(FONT_FAMILIES)
            f.setStyleHint(QFont.StyleHint.SansSerif)
            f.setPointSizeF(size)
            f.setBold(bold)
            f.setItalic(italic)
            if hasattr(f, "setFeature"):  # Qt 6.7+: no "fi" ligatures, so the PDF's text
                f.setFeature(QFont.Tag("liga"), 0)  # searches and copies as typed
            self.fonts[key] = f
            self._fm[key] = QFontMetricsF(f, self._ref)

    def line(self, font: str) -> float:
        return self._fm[font].lineSpacing() / self._mk

    def width(self, text: str, font: str) -> float:
        return self._fm[font].horizontalAdvance(text) / self._mk

    def elide(self, text: str, font: str, width: float) -> str:
        return self._fm[font].elidedText(text, Qt.TextElideMode.ElideRight, width * self._mk)

    def _greedy(self, para: str, font: str, width: float) -> list[str]:
        """Break at spaces (a word wider than the line is broken between characters)."""
        lines: list[str] = []
        current = ""
        for word in para.split():
            trial = f"{current} {word}" if current else word
            if self.width(trial, font) <= width:
                current = trial
                continue
            if current:
                lines.append(current)
            current = ""
            while self.width(word, font) > width and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and self.width(word[:cut], font) > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            current = word
        if current:
            lines.append(current)
        return lines

    def wrap(self, text: str, font: str, width: float, max_lines: int = 0) -> tuple[str, ...]:
        """Lines of ``text`` wrapped to ``width`` points; the last line shown ends in an ellipsis
        when ``max_lines`` cuts it short."""
        key = (text, font, round(width, 2), max_lines)
        return self.wrap_cache.get(key, lambda: self._wrapped(text, font, width, max_lines))

    def _wrapped(self, text: str, font: str, width: float, max_lines: int) -> tuple[str, ...]:
        lines: list[str] = []
        for para in text.split("\n"):
            if not para.strip():
                lines.append("")
                continue
            if self.width(para, font) <= width:
                lines.append(para)
                continue
            lines.extend(self._greedy(para, font, width))
        if max_lines and len(lines) > max_lines:
            last = lines[max_lines - 1] + " …"
            lines = lines[: max_lines - 1] + [
                self.elide(last + "  ", font, width) if self.width(last, font) > width else last
            ]
        return tuple(lines)


# ---------------------------------------------------------------------------------------------
# Blocks


@dataclass
class Block:
    """Something to place: a list of slices (each an unbreakable piece with its ops).

    ``card`` blocks may be continued across pages between slices; other blocks have one slice.
    """

    kind: str
    slices: list[tuple[float, list[Op]]]
    card: int | None = None
    title: str = ""
    new_page: bool = False
    keep_with_next: bool = False
    table_header: Block | None = None
    framed: bool = False

    @property
    def height(self) -> float:
        return sum(h for h, _ in self.slices)


class _Geometry:
    """Sizes shared by every card of one sheet."""

    def __init__(self, sheet: RosterSheet, width: float, m: Metrics, turns: int) -> None:
        self.width = width
        self.turns = turns
        self.grid_w = GRID_LABEL_W + turns * (BOX + BOX_GAP)
        inner = width - 2 * CARD_PAD
        text_w = inner - self.grid_w - GRID_GAP
        self.beside = text_w >= MIN_TEXT_W
        self.text_w = text_w if self.beside else inner
        self.title_h = max(m.line("card_title"), m.line("tick_head")) + 2
        self.per_row = max(1, int((inner + GRID_HGAP) // (self.grid_w + GRID_HGAP)))
        # item table columns, the same for every card
        items = [it for c in sheet.cards for it in c.items]
        pad = 6.0

        def natural(values: list[str], head: str, cap: float, font: str = "td") -> float:
            widest = max([m.width(v, font) for v in values] + [m.width(head, "th")])
            return min(widest + pad, cap)

        tw = self.text_w
        use = natural([i.use for i in items], "Use", 0.16 * tw)
        rng = natural([i.range for i in items], "Range", 0.2 * tw)
        dmg = natural([i.damage for i in items], "Damage", 0.2 * tw)
        name = natural([i.label for i in items], "Item", 0.36 * tw, "td_bold")
        notes = tw - use - rng - dmg - name
        if notes < 0.25 * tw:
            name = max(0.2 * tw, name - (0.25 * tw - notes))
            notes = tw - use - rng - dmg - name
        self.columns = (
            ("Item", name),
            ("Use", use),
            ("Range", rng),
            ("Damage", dmg),
            ("Notes", notes),
        )


def _table(
    m: Metrics,
    x: float,
    y: float,
    columns: tuple[tuple[str, float], ...],
    rows: Sequence[tuple[str, ...]],
    ops: list[Op],
    body_font: str = "td",
    bold_first: bool = True,
    header: bool = True,
    max_lines: int = MAX_CELL_LINES,
) -> float:
    """Draw a small table at (x, y); returns the y below it."""
    th = m.line("th")
    total_w = sum(w for _, w in columns)
    if header:
        cx = x
        for title, w in columns:
            ops.append(Op("text", cx, y, w - 4, th, title, "th", colour="muted"))
            cx += w
        y += th
        ops.append(Op("line", x, y + 0.5, total_w, 0, colour="rule", width=0.5))
        y += 1.5
    lh = m.line(body_font)
    for row in rows:
        cells = []
        for i, ((_, w), value) in enumerate(zip(columns, row, strict=True)):
            font = f"{body_font}_bold" if (i == 0 and bold_first) else body_font
            cells.append((font, m.wrap(value, font, w - 5, max_lines)))
        n = max(len(lines) for _, lines in cells)
        cx = x
        for (font, lines), (_, w) in zip(cells, columns, strict=True):
            for j, text in enumerate(lines):
                ops.append(Op("text", cx, y + j * lh, w - 4, lh, text, font))
            cx += w
        y += n * lh + 1.5
    return y


def _grid_ops(
    m: Metrics,
    geo: _Geometry,
    x: float,
    y: float,
    name: str,
    rows: tuple[str, ...],
    header_h: float,
) -> tuple[list[Op], float]:
    """One tick grid: turn numbers across, one row of boxes per label; ``name`` (a folded
    card's member) is written on a line of its own above it. Returns the ops and the height."""
    ops: list[Op] = []
    pitch = BOX + BOX_GAP
    if name:
        nh = m.line("tick_head") + 1
        ops.append(
            Op("text", x, y, geo.grid_w, nh, m.elide(name, "tick_head", geo.grid_w), "tick_head")
        )
        ops.append(Op("line", x, y + nh - 0.5, geo.grid_w - BOX_GAP, 0, colour="rule", width=0.4))
        y += nh
    else:
        nh = 0.0
    ops.append(Op("text", x, y, GRID_LABEL_W - 2, header_h, "Turn", "tick", colour="muted"))
    for t in range(geo.turns):
        ops.append(
            Op(
                "text",
                x + GRID_LABEL_W + t * pitch,
                y,
                BOX,
                header_h,
                str(t + 1),
                "tick_head",
                ALIGN_CENTER,
            )
        )
    yy = y + header_h
    for r in rows:
        ops.append(
            Op(
                "text",
                x,
                yy,
                GRID_LABEL_W - 3,
                BOX,
                m.elide(r, "tick", GRID_LABEL_W - 3),
                "tick",
                colour="muted",
            )
        )
        for t in range(geo.turns):
            ops.append(
                Op("box", x + GRID_LABEL_W + t * pitch, yy, BOX, BOX, colour="box", width=0.8)
            )
        yy += pitch
    return ops, nh + header_h + len(rows) * pitch - BOX_GAP


def _card_text(
    m: Metrics, geo: _Geometry, card: UnitCard, colour: bool
) -> tuple[list[Op], float, int]:
    ops: list[Op] = []
    x0 = CARD_PAD
    tw = geo.text_w
    y = CARD_PAD
    # title and cost
    cost = card.cost_text
    cost_w = m.width(cost, "cost") if cost else 0.0
    titles = m.wrap(card.title, "card_title", tw - cost_w - 10, 2)
    for i, title in enumerate(titles):
        ops.append(
            Op("text", x0, y + i * geo.title_h, tw - cost_w - 8, geo.title_h, title, "card_title")
        )
    if cost:
        ops.append(
            Op("text", x0 + tw - cost_w - 2, y, cost_w + 2, geo.title_h, cost, "cost", ALIGN_RIGHT)
        )
    y += len(titles) * geo.title_h + 2
    # type and traits
    sub = [card.type_name]
    if card.folded:
        sub.append(f"{card.count} units")
    sub += list(card.traits)
    for line in m.wrap("  ·  ".join(sub), "sub", tw, 2):
        ops.append(Op("text", x0, y, tw, m.line("sub"), line, "sub", colour="muted"))
        y += m.line("sub")
    # stats in a row
    sh = m.line("stat")
    cx = x0
    for label, value, detail in (
        ("Action", card.action_die, ""),
        ("Move", card.move, ""),
        ("Armor", card.armor, card.armor_detail),
    ):
        lw = m.width(label, "stat_label") + 3
        ops.append(Op("text", cx, y, lw, sh, label, "stat_label", colour="muted"))
        cx += lw
        vw = m.width(value, "stat") + 2
        ops.append(Op("text", cx, y, vw, sh, value, "stat"))
        cx += vw
        if detail:
            dw = min(m.width(f"({detail})", "sub") + 2, x0 + tw - cx - 4)
            ops.append(
                Op(
                    "text",
                    cx + 2,
                    y,
                    dw,
                    sh,
                    m.elide(f"({detail})", "sub", dw),
                    "sub",
                    colour="muted",
                )
            )
            cx += dw + 2
        cx += 16
    y += sh + 3
    # items
    if card.items:
        rows = [(i.label, i.use, i.range, i.damage, i.notes) for i in card.items]
        y = _table(m, x0, y, geo.columns, rows, ops)
    else:
        ops.append(
            Op(
                "text",
                x0,
                y,
                tw,
                m.line("td"),
                'Bare hands: Use 0, Close Combat, Shove 2" or Grab',
                "td",
                colour="muted",
            )
        )
        y += m.line("td")
    # notes
    for label, text, font in (
        ("Notes", card.notes, "td"),
        ("Campaign", card.campaign_notes, "note"),
    ):
        if text.strip():
            y += 2
            for line in m.wrap(f"{label}: {text.strip()}", font, tw, MAX_NOTE_LINES):
                ops.append(Op("text", x0, y, tw, m.line(font), line, font))
                y += m.line(font)
    return ops, y + CARD_PAD, len(titles)


def card_block(m: Metrics, geo: _Geometry, card: UnitCard, index: int, colour: bool) -> Block:
    """A unit card: the text with tick grids beside it, then rows of further grids."""
    text_ops, text_h, title_lines = _card_text(m, geo, card, colour)
    rows = card.tick_rows
    labels = [""] if not card.folded else list(card.members)
    ops: list[Op] = []
    if colour:
        ops.append(Op("fill", 0.4, 0.4, geo.width - 0.8, CARD_PAD + geo.title_h, colour="tint"))
        if title_lines > 1:  # a second title line: tint under the text only, not the grid
            ops.append(
                Op(
                    "fill",
                    0.4,
                    CARD_PAD + geo.title_h,
                    CARD_PAD + geo.text_w + GRID_GAP / 2,
                    (title_lines - 1) * geo.title_h,
                    colour="tint",
                )
            )
    ops += text_ops
    gx = geo.width - CARD_PAD - geo.grid_w
    grid_h = _grid_ops(m, geo, 0, 0, labels[0], rows, geo.title_h)[1]
    k = 0
    head_h = text_h
    if geo.beside:
        fit = int((text_h - 2 * CARD_PAD + GRID_VGAP) // (grid_h + GRID_VGAP))
        k = min(len(labels), max(1, fit))
        for i in range(k):
            gops, _ = _grid_ops(
                m, geo, gx, CARD_PAD + i * (grid_h + GRID_VGAP), labels[i], rows, geo.title_h
            )
            ops += gops
        head_h = max(text_h, CARD_PAD + k * grid_h + (k - 1) * GRID_VGAP + CARD_PAD)
    slices: list[tuple[float, list[Op]]] = [(head_h, ops)]
    rest = labels[k:]
    for start in range(0, len(rest), geo.per_row):
        row_ops: list[Op] = []
        for j, label in enumerate(rest[start : start + geo.per_row]):
            gops, _ = _grid_ops(
                m, geo, CARD_PAD + j * (geo.grid_w + GRID_HGAP), 0, label, rows, geo.title_h
            )
            row_ops += gops
        slices.append((grid_h + GRID_VGAP, row_ops))
    if len(slices) > 1:
        h, last = slices[-1]
        slices[-1] = (h - GRID_VGAP + CARD_PAD, last)
    return Block("card", slices, card=index, title=card.title, framed=True)


def _text_block(
    m: Metrics,
    width: float,
    text: str,
    font: str,
    colour: str = "ink",
    kind: str = "text",
    indent: float = 0.0,
    max_lines: int = 0,
) -> Block:
    ops: list[Op] = []
    y = 0.0
    lh = m.line(font)
    for line in m.wrap(text, font, width - indent, max_lines):
        ops.append(Op("text", indent, y, width - indent, lh, line, font, colour=colour))
        y += lh
    return Block(kind, [(y, ops)])


def _bullet_block(m: Metrics, width: float, text: str) -> Block:
    lh = m.line("td")
    ops = [Op("text", 0, 0, 10, lh, "•", "td")]
    y = 0.0
    for line in m.wrap(text, "td", width - 12):
        ops.append(Op("text", 12, y, width - 12, lh, line, "td"))
        y += lh
    return Block("warning", [(y + 2, ops)])


def _rule_block(m: Metrics, width: float, title: str, text: str, font: str = "ref") -> Block:
    """``Title: text`` with the title bold, wrapped under it with a hanging indent."""
    ops: list[Op] = []
    bold = f"{font}_bold"
    lh = m.line(font)
    tw = m.width(title + "  ", bold)
    ops.append(Op("text", 0, 0, tw, lh, title, bold))
    first = m.wrap(text, font, width - tw)
    rest_text = ""
    if first:
        ops.append(Op("text", tw, 0, width - tw, lh, first[0], font))
        rest_text = text[len(first[0]) :].strip()
    y = lh
    for line in m.wrap(rest_text, font, width - 12) if rest_text else ():
        ops.append(Op("text", 12, y, width - 12, lh, line, font))
        y += lh
    return Block("rule", [(y + 2, ops)])


def section_blocks(
    m: Metrics, width: float, title: str, subtitle: str = "", new_page: bool = False
) -> list[Block]:
    ops = [Op("text", 0, 0, width, m.line("section"), title, "section")]
    h = m.line("section")
    if subtitle:
        for line in m.wrap(subtitle, "sub", width):
            ops.append(Op("text", 0, h, width, m.line("sub"), line, "sub", colour="muted"))
            h += m.line("sub")
    ops.append(Op("line", 0, h + 2, width, 0, colour="ink", width=0.8))
    return [Block("section", [(h + 6, ops)], new_page=new_page, keep_with_next=True)]


#: A table of at most this many rows is kept whole on one page (``table_blocks``).
WHOLE_TABLE_ROWS = 6
#: A longer table's last rows that go to a page together, never one alone.
LAST_ROWS_TOGETHER = 3
#: How many blocks ahead the pages look for what a block is kept with (a heading, a small
#: table's rows).
KEEP_LOOKAHEAD = WHOLE_TABLE_ROWS + 2


def table_blocks(
    m: Metrics,
    width: float,
    title: str,
    columns: tuple[tuple[str, float], ...],
    rows: Sequence[tuple[str, ...]],
) -> list[Block]:
    """A titled table whose rows are placed one by one; its header repeats on a new page.

    Rows are kept together sensibly: a table of up to ``WHOLE_TABLE_ROWS`` rows moves to the
    next page whole rather than split, and a longer one never leaves fewer than its last
    ``LAST_ROWS_TOGETHER`` rows alone on a page (a campaign report's page 2 held a single
    leaderboard row)."""
    head_ops: list[Op] = [Op("text", 0, 0, width, m.line("subsection"), title, "subsection")]
    y = _table(m, 0, m.line("subsection") + 1, columns, [], head_ops)
    header = Block("table-head", [(y, head_ops)], keep_with_next=True)
    out = [header]
    n = len(rows)
    kept_from = 0 if n <= WHOLE_TABLE_ROWS else n - LAST_ROWS_TOGETHER
    for i, row in enumerate(rows):
        ops: list[Op] = []
        h = _table(m, 0, 0, columns, [row], ops, body_font="ref", header=False, max_lines=40)
        ops.append(Op("line", 0, h - 0.7, width, 0, colour="faint", width=0.3))
        keep = kept_from <= i < n - 1
        out.append(Block("table-row", [(h, ops)], table_header=header, keep_with_next=keep))
    return out


def _natural(m: Metrics, values: list[str], head: str, font: str, cap: float) -> float:
    """A column's width: its widest value (or heading) plus padding, at most ``cap``."""
    widest = max([m.width(v, font) for v in values] + [m.width(head, "th")])
    return min(widest + 7.0, cap)


def _appendix_blocks(m: Metrics, sheet: RosterSheet, width: float) -> list[Block]:
    ref = sheet.reference
    if ref is None:
        return []
    out = section_blocks(m, width, "Reference: the rules and items this army uses", new_page=True)
    mod_rows = [(r.situation, r.value, r.applies_to, r.rule) for r in ref.modifiers]
    rule_w = _natural(m, [r[3] for r in mod_rows], "Rule", "ref", 0.2 * width)
    rest = width - rule_w
    cols = (
        ("Situation", 0.41 * rest),
        ("Modifier", 0.3 * rest),
        ("Applies to", 0.29 * rest),
        ("Rule", rule_w),
    )
    out += table_blocks(m, width, "Modifiers", cols, mod_rows)
    out.append(Block("gap", [(SECTION_GAP, [])]))
    head = [Op("text", 0, 0, width, m.line("subsection"), "Dice", "subsection")]
    out.append(Block("table-head", [(m.line("subsection") + 2, head)], keep_with_next=True))
    out += [_rule_block(m, width, f"{r.title}:", r.text) for r in ref.dice]
    if ref.special_rules:
        out.append(Block("gap", [(SECTION_GAP, [])]))
        head = [Op("text", 0, 0, width, m.line("subsection"), "Special rules", "subsection")]
        out.append(Block("table-head", [(m.line("subsection") + 2, head)], keep_with_next=True))
        out += [_rule_block(m, width, f"{r.title}:", r.text) for r in ref.special_rules]
    if ref.items:
        out.append(Block("gap", [(SECTION_GAP, [])]))
        rows = [(i.name, i.cost, i.use, i.range, i.damage, i.notes) for i in ref.items]
        heads = ("Item", "Cost", "Use", "Range", "Damage")
        widths = [
            _natural(m, [r[j] for r in rows], head, "ref_bold" if j == 0 else "ref", 0.2 * width)
            for j, head in enumerate(heads)
        ]
        icols = (*zip(heads, widths, strict=True), ("Notes", width - sum(widths)))
        out += table_blocks(m, width, "Items", icols, rows)
    return out


def blank_card_block(m: Metrics, geo: _Geometry, rows: tuple[str, ...]) -> Block:
    """An empty card with writing lines (5.5 mm apart) for a unit gained at the table; six fit
    on a page of A4 or Letter."""
    ops: list[Op] = []
    x0 = CARD_PAD
    tw = geo.text_w
    lh = 5.5 * PT_PER_MM

    def fields_line(y: float, labels: list[tuple[str, float]]) -> None:
        cx = x0
        for label, frac in labels:
            w = tw * frac
            lw = m.width(label, "blank") + 3
            ops.append(Op("text", cx, y, lw, lh, label, "blank", colour="muted"))
            ops.append(Op("line", cx + lw, y + lh - 3, w - lw - 8, 0, colour="rule", width=0.5))
            cx += w

    y = CARD_PAD - 2
    fields_line(y, [("Name", 0.62), ("Type", 0.38)])
    y += lh
    fields_line(y, [("Action", 0.22), ("Move", 0.22), ("Armor", 0.3), ("Cost", 0.26)])
    y += lh + 3
    y = _table(m, x0, y, geo.columns, [], ops)
    cx = x0
    for _, w in geo.columns[:-1]:  # light column dividers for the handwritten rows
        cx += w
        ops.append(Op("line", cx - 4, y, 0, 3 * lh - 3, colour="faint", width=0.4))
    for _ in range(3):
        y += lh
        ops.append(Op("line", x0, y - 3, tw, 0, colour="rule", width=0.5))
    text_h = y + CARD_PAD - 3
    gops, grid_h = _grid_ops(
        m,
        geo,
        geo.width - CARD_PAD - geo.grid_w if geo.beside else CARD_PAD,
        CARD_PAD if geo.beside else text_h,
        "",
        rows,
        geo.title_h,
    )
    ops += gops
    h = max(text_h, 2 * CARD_PAD + grid_h) if geo.beside else text_h + grid_h + CARD_PAD
    return Block("blank-card", [(h, ops)], framed=True)


# ---------------------------------------------------------------------------------------------
# Pagination


class Paginator:
    """Places blocks on pages: a new page when the next one does not fit."""

    def __init__(self, body: QRectF, m: Metrics) -> None:
        self.body = body
        self.m = m
        self.pages: list[PageLayout] = []
        self.y = 0.0
        self._new_page()

    def _new_page(self) -> None:
        self.pages.append(PageLayout(len(self.pages) + 1))
        self.y = self.body.top()

    @property
    def remaining(self) -> float:
        return self.body.bottom() - self.y

    @property
    def at_top(self) -> bool:
        return self.y <= self.body.top() + 0.01

    def _put(
        self,
        block: Block,
        slices: list[tuple[float, list[Op]]],
        *,
        continued: bool = False,
        scale: float = 1.0,
        note: str = "",
    ) -> None:
        ops: list[Op] = []
        y = 0.0
        for h, sops in slices:
            ops += [
                Op(o.kind, o.x, o.y + y, o.w, o.h, o.text, o.font, o.align, o.colour, o.width)
                for o in sops
            ]
            y += h
        h = y
        if note:
            ops.append(
                Op(
                    "text",
                    CARD_PAD,
                    h,
                    self.body.width() - 2 * CARD_PAD,
                    CONT_H,
                    note,
                    "sub",
                    ALIGN_RIGHT,
                    colour="muted",
                )
            )
            h += CONT_H
        if block.framed:
            ops.insert(
                0, Op("frame", 0, 0, self.body.width() / scale, h, colour="frame", width=0.9)
            )
        placed = Placed(
            block.kind,
            self.body.left(),
            self.y,
            self.body.width(),
            h * scale,
            ops,
            card=block.card,
            scale=scale,
            continued=continued,
        )
        self.pages[-1].placed.append(placed)
        self.y += h * scale

    def add(self, block: Block, following: Block | list[Block] | None) -> None:
        """Place ``block``; ``following`` (the next blocks) lets a heading that is kept with
        what comes next (a round heading, then a turn heading, then an entry) move to the
        next page with all of it, rather than end a page."""
        if block.kind == "gap" and (self.at_top or block.height > self.remaining):
            return  # a page break is gap enough: never start a page with blank space
        gap = CARD_GAP if block.framed else 0.0
        if block.new_page and not self.at_top:
            self._new_page()
        need = block.height
        if block.keep_with_next and following is not None:
            for nxt in following if isinstance(following, list) else [following]:
                if not nxt.keep_with_next:
                    need += nxt.slices[0][0]
                    break
                need += nxt.height
        if need > self.remaining and not self.at_top:
            self._new_page()
            if block.table_header is not None:
                self._put(block.table_header, block.table_header.slices)
        if block.height <= self.remaining:
            self._put(block, block.slices)
            self.y += gap
            return
        self._split(block)
        self.y += gap

    def _split(self, block: Block) -> None:
        """A block taller than a whole page: continue it between slices on pages of its own."""
        title_h = self.m.line("card_title") + 2 * CARD_PAD
        pending = list(block.slices)
        first = True
        while pending:
            if not self.at_top:
                self._new_page()
            part: list[tuple[float, list[Op]]] = []
            if not first:
                label = f"{block.title} (continued)"
                part.append(
                    (
                        title_h,
                        [
                            Op(
                                "text",
                                CARD_PAD,
                                CARD_PAD,
                                self.body.width() - 2 * CARD_PAD,
                                title_h - 2 * CARD_PAD,
                                label,
                                "card_title",
                            )
                        ],
                    )
                )
            room = self.remaining - CONT_H - sum(h for h, _ in part)
            taken = 0
            while pending and pending[0][0] <= room:
                room -= pending[0][0]
                part.append(pending.pop(0))
                taken += 1
            if taken == 0:
                # a single slice taller than a page: scale it down to fit, and say so
                part.append(pending.pop(0))
                total = sum(h for h, _ in part) + CONT_H
                note = "scaled down to fit the page"
                if pending:
                    note += "; continued on the next page"
                self._put(block, part, continued=True, scale=(self.remaining / total), note=note)
            else:
                self._put(
                    block,
                    part,
                    continued=True,
                    note="continued on the next page" if pending else "",
                )
            first = False


@dataclass(frozen=True)
class PageFrame:
    """A device's page as every printed document lays it out, in points: the printable area
    (``page_rect``, origin at its top-left corner), the body below the header band, the whole
    paper's size, and the device's text metrics."""

    page_rect: QRectF
    body: QRectF
    paper_size: tuple[float, float]
    metrics: Metrics

    @classmethod
    def of(cls, device: QPagedPaintDevice) -> PageFrame:
        """The frame of ``device``'s current page layout."""
        pl = device.pageLayout()
        paint = pl.paintRect(QPageLayout.Unit.Point)
        full = pl.fullRect(QPageLayout.Unit.Point)
        top = HEADER_H + HEADER_GAP
        return cls(
            QRectF(0, 0, paint.width(), paint.height()),
            QRectF(0, top, paint.width(), paint.height() - top),
            (full.width(), full.height()),
            Metrics(device),
        )

    def paginate(self, blocks: list[Block], black_and_white: bool) -> SheetLayout:
        """Place ``blocks`` on pages in order (a heading kept with the blocks after it)."""
        pager = Paginator(self.body, self.metrics)
        for i, block in enumerate(blocks):
            pager.add(block, blocks[i + 1 : i + 1 + KEEP_LOOKAHEAD])
        return SheetLayout(
            page_rect=self.page_rect,
            body_rect=self.body,
            paper_size=self.paper_size,
            black_and_white=black_and_white,
            pages=pager.pages,
        )


# ---------------------------------------------------------------------------------------------
# Entry point


def layout_roster_sheet(
    sheet: RosterSheet,
    device: QPagedPaintDevice,
    *,
    turns: int | None = None,
    black_and_white: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SheetLayout:
    """Lay ``sheet`` out on ``device``'s pages (its current page layout and resolution).

    ``turns`` and ``black_and_white`` default to the sheet's options. ``progress(done, total)``
    is called as cards are laid out.
    """
    opts = sheet.options
    turns = opts.turns if turns is None else turns
    bw = opts.black_and_white if black_and_white is None else black_and_white
    frame = PageFrame.of(device)
    body, m = frame.body, frame.metrics
    geo = _Geometry(sheet, body.width(), m, turns)
    colour = not bw

    blocks: list[Block] = []
    total = len(sheet.cards)
    if not sheet.cards:
        blocks.append(
            _text_block(m, body.width(), "This army has no units yet.", "td", colour="muted")
        )
    for i, card in enumerate(sheet.cards):
        blocks.append(card_block(m, geo, card, i, colour))
        if progress is not None and (i % 50 == 0 or i == total - 1):
            progress(i + 1, total)
    blocks += _appendix_blocks(m, sheet, body.width())
    if sheet.blank_cards:
        blocks += section_blocks(
            m,
            body.width(),
            "Units gained at the table",
            "Fill in a card for each unit that joins the army during the battle.",
            new_page=True,
        )
        rows = ("Action", "Counter 1", "Counter 2", "Dead")
        blocks += [blank_card_block(m, geo, rows) for _ in range(sheet.blank_cards)]
    if sheet.warnings:
        # one block: the list stays together when it fits on a page, else it continues
        head = section_blocks(m, body.width(), "Roster warnings")[0]
        slices = head.slices + [
            _bullet_block(m, body.width(), w.text).slices[0] for w in sheet.warnings
        ]
        blocks.append(Block("warnings", slices, title="Roster warnings"))

    return frame.paginate(blocks, bw)
