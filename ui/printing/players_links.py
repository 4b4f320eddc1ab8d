"""The players' links: a printed sheet with a card for each player, their name on their colour
and the QR code of the players' page, to hand round the table (the Share dialog's "Print the
players' links").

``link_cards(device, count)`` places the cards (two columns, three rows a page, in the device's
pixels); ``paint_players_links(device, links)`` paints them on any paged device (the preview's
printer, a ``QPdfWriter``) or, for up to one page, on a ``QImage``. The QR code is painted
module by module from segno's matrix, so it stays sharp at any resolution.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPagedPaintDevice, QPaintDevice, QPainter, QPen

from brikdesk.domain.colours import readable_text_on
from ui.printing.ink import COLOUR, QR_DARK, QR_LIGHT

COLUMNS, ROWS = 2, 3
#: White modules around the code that a scanner needs (the QR standard's quiet zone).
QUIET = 4


@dataclass(frozen=True)
class PlayerLink:
    name: str
    colour: str
    url: str


@dataclass(frozen=True)
class CardPlaces:
    """Where a card's parts go: the whole card, its name band, its code and its address."""

    card: QRectF
    band: QRectF
    code: QRectF
    address: QRectF


def link_cards(device: QPaintDevice, count: int) -> list[CardPlaces]:
    """Places of ``count`` cards, page by page (a page holds ``COLUMNS * ROWS``)."""
    width, height = device.width(), device.height()
    gap = width * 0.03
    w = (width - gap * (COLUMNS - 1)) / COLUMNS
    h = (height - gap * (ROWS - 1)) / ROWS
    places = []
    for i in range(count):
        col, row = i % COLUMNS, (i // COLUMNS) % ROWS
        card = QRectF(col * (w + gap), row * (h + gap), w, h)
        pad = w * 0.05
        band = QRectF(card.left(), card.top(), w, h * 0.16)
        side = min(w - 2 * pad, h * 0.62)
        code = QRectF(card.center().x() - side / 2, band.bottom() + pad * 0.5, side, side)
        address = QRectF(
            card.left() + pad, code.bottom(), w - 2 * pad, card.bottom() - code.bottom()
        )
        places.append(CardPlaces(card, band, code, address))
    return places


def qr_matrix(url: str) -> list[list[bool]]:
    """The QR code of ``url`` (error correction M, as the Share dialog shows it), dark as True,
    without its quiet zone."""
    import segno

    return [[bool(v) for v in row] for row in segno.make(url, error="m").matrix]


def paint_players_links(device: QPaintDevice, links: list[PlayerLink]) -> int:
    """Paint a card per player on ``device``; the number of pages."""
    places = link_cards(device, len(links))
    painter = QPainter(device)
    try:
        for i, (link, place) in enumerate(zip(links, places, strict=True)):
            if i and i % (COLUMNS * ROWS) == 0 and isinstance(device, QPagedPaintDevice):
                device.newPage()
            _paint_card(painter, link, place)
    finally:
        painter.end()
    return max(1, -(-len(links) // (COLUMNS * ROWS)))


def _paint_card(painter: QPainter, link: PlayerLink, place: CardPlaces) -> None:
    painter.setPen(QPen(QColor(COLOUR["rule"]), max(1.0, place.card.width() / 400)))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(place.card)
    painter.fillRect(place.band, QColor(link.colour))
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(8, int(place.band.height() * 0.42)))
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(QColor(readable_text_on(link.colour)))
    painter.drawText(place.band, Qt.AlignmentFlag.AlignCenter, link.name)
    matrix = qr_matrix(link.url)
    module = place.code.width() / (len(matrix) + 2 * QUIET)
    painter.fillRect(place.code, QColor(QR_LIGHT))
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                painter.fillRect(
                    QRectF(
                        place.code.left() + (c + QUIET) * module,
                        place.code.top() + (r + QUIET) * module,
                        module,
                        module,
                    ),
                    QColor(QR_DARK),
                )
    font.setBold(False)
    font.setPixelSize(max(6, int(place.band.height() * 0.2)))
    painter.setFont(font)
    painter.setPen(QColor(COLOUR["ink"]))
    painter.drawText(
        place.address,
        int(
            Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWrapAnywhere
        ),
        f"Scan to follow the battle, or open:\n{link.url}",
    )
