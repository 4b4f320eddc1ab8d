"""Paint a laid-out roster sheet on any paged device: one path for preview, print and PDF.

``paint_roster_sheet(painter, device, sheet)`` lays the sheet out on ``device`` (unless a layout
is given) and paints every page: the header (campaign, army, player, rules edition, cost and
budget, date, "Page x of y") and the placed blocks. ``QPrintPreviewDialog.paintRequested``, the
Print action and ``export_pdf`` all end here.

Coordinates: the layout is in points; here every length is multiplied by the device's
resolution / 72, and fonts are sized in points on the device, so nothing depends on the
screen's density. The painter's origin is the top-left corner of the printable area.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPagedPaintDevice, QPainter, QPen

from brikdesk.cache import LruCache
from brikdesk.domain.sheets import RosterSheet, SheetHeader
from ui.printing import ink
from ui.printing.layout import (
    ALIGN_RIGHT,
    HEADER_H,
    Metrics,
    Op,
    SheetLayout,
    fits_device,
    layout_roster_sheet,
)

DEFAULT_BAND = ink.DEFAULT_BAND
# text is measured at 1200 dpi; a coarse device's hinting may make it a hair wider: never cut it
_NO_CLIP = int(Qt.TextFlag.TextDontClip)

Progress = Callable[[int, int], None]


#: The band behind the reports' headers.
REPORT_BAND = ink.REPORT_BAND


def base_palette(black_and_white: bool) -> dict[str, QColor]:
    """The colours by role every printed document shares (a report's band; ``tint`` fills
    alternate rows). Black and white: black and greys only, and no fills are drawn."""
    chosen = ink.BLACK_AND_WHITE if black_and_white else ink.COLOUR
    return {role: QColor(value) for role, value in chosen.items()}


def palette(header: SheetHeader, black_and_white: bool) -> dict[str, QColor]:
    """The roster sheet's colours: the base ones, with the band in the player's colour (and
    rows tinted with it). Black and white: as every document."""
    out = base_palette(black_and_white)
    if black_and_white:
        return out
    band = QColor(header.colour or DEFAULT_BAND)
    light = (0.299 * band.red() + 0.587 * band.green() + 0.114 * band.blue()) > 150
    tint = QColor(
        round(255 - (255 - band.red()) * 0.16),
        round(255 - (255 - band.green()) * 0.16),
        round(255 - (255 - band.blue()) * 0.16),
    )
    out.update(
        box=QColor(ink.PLAYER_BAND["box"]),
        band=band,
        band_ink=QColor(ink.PLAYER_BAND["ink_on_light" if light else "ink_on_dark"]),
        band_muted=QColor(ink.PLAYER_BAND["muted_on_light" if light else "muted_on_dark"]),
        tint=tint,
    )
    return out


#: A line of the header band: its text, font and colour.
BandLine = tuple[str, str, str]


def band_room(width: float, black_and_white: bool, right_w: float, gap: float = 12.0) -> float:
    """The width of the band's left column (see ``band_ops``)."""
    pad = 0.0 if black_and_white else 8.0
    return width - right_w - 2 * pad - gap


def band_ops(
    m: Metrics,
    width: float,
    black_and_white: bool,
    right_w: float,
    left: Sequence[BandLine],
    right: Sequence[BandLine],
    *,
    gap: float = 12.0,
) -> list[Op]:
    """The band at the top of every page of every printed document (black text over a rule in
    black and white): ``left`` lines under each other, the first as tall as a title and each
    cut short to the room left of the ``right_w`` wide right column; ``right`` lines aligned
    right (as given), the first a little lower than the title's top. ``gap``: the room between
    the columns."""
    pad = 0.0 if black_and_white else 8.0
    ops = [] if black_and_white else [Op("fill", 0, 0, width, HEADER_H, colour="band")]
    left_w = band_room(width, black_and_white, right_w, gap)
    lh_title = m.line("army")
    lh = m.line("head")
    y = (HEADER_H - lh_title - (len(left) - 1) * lh) / 2

    def top(i: int) -> float:
        return y if i == 0 else y + lh_title + (i - 1) * lh

    for i, (text, font, colour) in enumerate(left):
        height = lh_title if i == 0 else lh
        ops.append(
            Op(
                "text",
                pad,
                top(i),
                left_w,
                height,
                m.elide(text, font, left_w),
                font,
                colour=colour,
            )
        )
    rx = width - right_w - pad
    for i, (text, font, colour) in enumerate(right):
        at = y + 2 if i == 0 else top(i)
        ops.append(Op("text", rx, at, right_w, lh, text, font, ALIGN_RIGHT, colour=colour))
    if black_and_white:
        ops.append(Op("line", 0, HEADER_H - 1, width, 0, colour="ink", width=1.2))
    return ops


def header_ops(
    m: Metrics, header: SheetHeader, page: int, pages: int, width: float, black_and_white: bool
) -> list[Op]:
    """The roster sheet's header at the top of every page."""
    who = []
    if header.player:
        who.append(f"Player: {header.player}")
    if header.campaign:
        who.append(f"Campaign: {header.campaign}")
    cost = header.cost_text
    return band_ops(
        m,
        width,
        black_and_white,
        150.0,
        [
            (header.army, "army", "band_ink"),
            ("   ·   ".join(who), "head", "band_ink"),
            (f"Rules: {header.edition_text}", "head", "band_muted"),
        ],
        [
            (f"Page {page} of {pages}", "head_bold", "band_ink"),
            (f"Cost {cost}" if cost else "", "head", "band_ink"),
            (header.date_text, "head", "band_muted"),
        ],
        gap=8.0,
    )


class Replayer:
    """Draws ``Op`` lists on a painter, converting points to device units."""

    def __init__(self, painter: QPainter, m: Metrics, colours: dict[str, QColor]) -> None:
        self.p = painter
        self.m = m
        self.k = m.k
        self.colours = colours
        self.pen_cache: LruCache[tuple[str, float], QPen] = LruCache(64)
        self._font = ""
        self._pen: tuple[str, float] | None = None

    def pen(self, colour: str, width: float) -> None:
        key = (colour, width)
        if self._pen == key:
            return
        self.p.setPen(self.pen_cache.get(key, lambda: self._make_pen(colour, width)))
        self._pen = key

    def _make_pen(self, colour: str, width: float) -> QPen:
        pen = QPen(self.colours[colour])
        pen.setWidthF(width * self.k)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        return pen

    def draw(self, ops: list[Op], dx: float, dy: float) -> None:
        p = self.p
        k = self.k
        boxes: list[QRectF] = []
        for op in ops:
            rect = QRectF((op.x + dx) * k, (op.y + dy) * k, op.w * k, op.h * k)
            kind = op.kind
            if kind == "text":
                if not op.text:
                    continue
                if self._font != op.font:
                    p.setFont(self.m.fonts[op.font])
                    self._font = op.font
                self.pen(op.colour, 0.5)
                p.drawText(rect, op.align | _NO_CLIP, op.text)
            elif kind == "box":
                boxes.append(rect)
            elif kind == "fill":
                p.fillRect(rect, self.colours[op.colour])
            elif kind == "frame":
                self.pen(op.colour, op.width)
                p.drawRoundedRect(rect, 3 * k, 3 * k)
            elif kind == "line":
                self.pen(op.colour, op.width)
                p.drawLine(QLineF(rect.topLeft(), rect.bottomRight()))
        if boxes:
            self.pen("box", 0.8)
            p.drawRects(boxes)


def paint_pages(
    painter: QPainter,
    device: QPagedPaintDevice,
    layout: SheetLayout,
    colours: dict[str, QColor],
    header: Callable[[Metrics, int, int, float], list[Op]],
    *,
    progress: Progress | None = None,
    first_page: int = 1,
    last_page: int | None = None,
) -> SheetLayout:
    """Paint a laid-out document (a roster sheet, a report) on ``device`` through the active
    ``painter``, page after page: ``header(metrics, page, pages, width)`` on each page, then its
    placed blocks (a block placed smaller is scaled about its corner).

    Pages after the first are started with ``device.newPage()``. ``progress(done, total)`` is
    called after each page (it may run on a worker thread when the device is a QPdfWriter).
    Returns ``layout``.
    """
    m = Metrics(device)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setBrush(QBrush(Qt.BrushStyle.NoBrush))
    replay = Replayer(painter, m, colours)
    total = layout.page_count
    last = total if last_page is None else min(last_page, total)
    first = max(1, first_page)
    width = layout.page_rect.width()
    for n in range(first, last + 1):
        if n > first:
            device.newPage()
        replay.draw(header(m, n, total, width), 0, 0)
        for placed in layout.pages[n - 1].placed:
            if placed.scale == 1.0:
                replay.draw(placed.ops, placed.x, placed.y)
            else:
                painter.save()
                painter.translate(placed.x * m.k, placed.y * m.k)
                painter.scale(placed.scale, placed.scale)
                replay.draw(placed.ops, 0, 0)
                painter.restore()
                replay._pen = None
                replay._font = ""
        if progress is not None:
            progress(n - first + 1, last - first + 1)
    return layout


def print_paged(
    printer: QPagedPaintDevice,
    paint: Callable[[QPainter, int, int | None, SheetLayout | None, bool], SheetLayout],
    *,
    layout: SheetLayout | None = None,
    black_and_white: bool = False,
) -> SheetLayout:
    """Start a painter on a QPrinter and ``paint(painter, first, last, layout, bw)`` the pages
    its page range asks for; a ``layout`` that does not fit the printer's paper is dropped
    (made again by ``paint``), and its black and white goes on."""
    first, last = 1, None
    from_page = getattr(printer, "fromPage", None)
    if callable(from_page) and from_page() > 0:
        first = from_page()
        last = printer.toPage() or None  # type: ignore[attr-defined]
    if layout is not None and not fits_device(layout, printer):
        black_and_white = layout.black_and_white
        layout = None
    painter = QPainter()
    if not painter.begin(printer):
        raise RuntimeError("the printer could not be started")
    try:
        return paint(painter, first, last, layout, black_and_white)
    finally:
        painter.end()


def paint_roster_sheet(
    painter: QPainter,
    device: QPagedPaintDevice,
    sheet: RosterSheet,
    *,
    layout: SheetLayout | None = None,
    progress: Progress | None = None,
    first_page: int = 1,
    last_page: int | None = None,
) -> SheetLayout:
    """Paint ``sheet`` on ``device`` through the active ``painter``, page after page (as
    ``paint_pages``), laid out for ``device`` unless a ``layout`` is given."""
    if layout is None:
        layout = layout_roster_sheet(sheet, device)
    bw = layout.black_and_white
    return paint_pages(
        painter,
        device,
        layout,
        palette(sheet.header, bw),
        lambda m, n, total, width: header_ops(m, sheet.header, n, total, width, bw),
        progress=progress,
        first_page=first_page,
        last_page=last_page,
    )


def print_roster_sheet(
    printer: QPagedPaintDevice,
    sheet: RosterSheet,
    *,
    progress: Progress | None = None,
    layout: SheetLayout | None = None,
) -> SheetLayout:
    """Paint ``sheet`` on a QPrinter (``QPrintPreviewDialog.paintRequested``, the Print action)
    or any paged device, in the device's current page layout; honours a QPrinter's page range.

    ``layout`` (made beforehand, e.g. on a worker thread) is used when it was made for the
    printer's paper; otherwise, as when the organizer picked another paper in the dialog, the
    sheet is laid out again for it (black and white as the sheet's options say).
    """
    return print_paged(
        printer,
        lambda painter, first, last, used, _bw: paint_roster_sheet(
            painter,
            printer,
            sheet,
            progress=progress,
            first_page=first,
            last_page=last,
            layout=used,
        ),
        layout=layout,
    )


__all__ = [
    "REPORT_BAND",
    "BandLine",
    "Replayer",
    "band_ops",
    "band_room",
    "base_palette",
    "header_ops",
    "paint_pages",
    "paint_roster_sheet",
    "palette",
    "print_paged",
    "print_roster_sheet",
]
