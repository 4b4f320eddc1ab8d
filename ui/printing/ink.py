"""The colours of what BrikDesk prints and exports as PDF: dark ink on white paper, whatever
the screen's theme (``ui.colours`` holds the screen's). The only colour values in
``ui/printing``."""

from __future__ import annotations

#: A roster sheet's band when its player has no colour.
DEFAULT_BAND = "#34495e"
#: The band behind the reports' headers.
REPORT_BAND = "#2c3e50"
#: A printed QR code's modules and its quiet zone: the most contrast a phone's camera can get.
QR_DARK = "#000000"
QR_LIGHT = "#ffffff"

#: The colours by role of a printed document in colour.
COLOUR = {
    "ink": "#111111",
    "muted": "#4d4d4d",
    "rule": "#6b6b6b",
    "faint": "#c4c4c4",
    "frame": "#3c3c3c",
    "box": "#333333",
    "band": REPORT_BAND,
    "band_ink": "#ffffff",
    "band_muted": "#dfe6ec",
    "tint": "#eef1f4",
}
#: In black and white: black and greys only, and white where colour would be.
BLACK_AND_WHITE = {
    "ink": "#000000",
    "muted": "#3a3a3a",
    "rule": "#555555",
    "faint": "#999999",
    "frame": "#000000",
    "box": "#000000",
    "band": "#ffffff",
    "band_ink": "#000000",
    "band_muted": "#3a3a3a",
    "tint": "#ffffff",
}
#: A roster sheet banded in its player's colour: the box, and the band's texts on a light
#: band and on a dark one.
PLAYER_BAND = {
    "box": "#222222",
    "ink_on_light": "#111111",
    "ink_on_dark": "#ffffff",
    "muted_on_light": "#333333",
    "muted_on_dark": "#e8e8e8",
}
#: Colours for players who have none (or an unreadable one), in turn order.
FALLBACK_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
#: The paper.
PAPER = "#ffffff"
