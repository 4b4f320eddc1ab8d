"""The players' links sheet: a card per player with their name on their colour (in black or
white, whichever reads on it) and the QR code of the page's exact address, read back module
by module from the painted image."""

from __future__ import annotations

from PySide6.QtGui import QColor, QImage

from brikdesk.domain.colours import readable_text_on
from ui.printing.players_links import (
    COLUMNS,
    QUIET,
    ROWS,
    PlayerLink,
    link_cards,
    paint_players_links,
    qr_matrix,
)

URL = "http://192.168.1.23:8451/Tok3n-of_the-share-0123456789/"


def _page(links: list[PlayerLink]) -> QImage:
    image = QImage(1240, 1754, QImage.Format.Format_RGB32)  # A4 at 150 dpi
    image.fill(QColor("#ffffff"))
    assert paint_players_links(image, links) == 1
    return image


def test_each_players_card_carries_the_qr_code_of_the_exact_address(qapp) -> None:
    links = [
        PlayerLink("Ines", "#27ae60", URL),
        PlayerLink("Tobias", "#f1c40f", URL),
        PlayerLink("Margo", "#1f3a93", URL),
    ]
    image = _page(links)
    matrix = qr_matrix(URL)
    for place in link_cards(image, len(links)):
        module = place.code.width() / (len(matrix) + 2 * QUIET)
        read = [
            [
                QColor(
                    image.pixel(
                        int(place.code.left() + (c + QUIET + 0.5) * module),
                        int(place.code.top() + (r + QUIET + 0.5) * module),
                    )
                ).lightness()
                < 128
                for c in range(len(matrix))
            ]
            for r in range(len(matrix))
        ]
        assert read == matrix
        assert module >= 4  # at 150 dpi: a module of 0.7 mm and more, for a phone's camera
        quiet = QColor(image.pixel(int(place.code.left() + module), int(place.code.top() + module)))
        assert quiet.lightness() > 200  # the quiet zone is white


def test_the_name_band_is_the_players_colour_and_the_cards_do_not_overlap(qapp) -> None:
    links = [PlayerLink(f"Player {i}", "#f1c40f", URL) for i in range(COLUMNS * ROWS)]
    image = _page(links)
    places = link_cards(image, len(links))
    for place in places:
        corner = QColor(image.pixel(int(place.band.left() + 5), int(place.band.top() + 5)))
        assert corner.name() == "#f1c40f"
        assert image.rect().contains(place.card.toRect().adjusted(1, 1, -1, -1))
    for i, a in enumerate(places):
        for b in places[i + 1 :]:
            assert not a.card.intersects(b.card)
    assert readable_text_on("#f1c40f") == "#000000"  # the name is written in black on yellow


def test_a_seventh_player_goes_on_a_second_page(qapp) -> None:
    from PySide6.QtCore import QBuffer, QIODevice
    from PySide6.QtGui import QPdfWriter

    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    pdf = QPdfWriter(buffer)
    links = [PlayerLink(f"Player {i}", "#c0392b", URL) for i in range(7)]
    assert paint_players_links(pdf, links) == 2
    assert (
        bytes(buffer.data()).count(b"/Type /Page\n") + bytes(buffer.data()).count(b"/Type /Page ")
        >= 2
    )
