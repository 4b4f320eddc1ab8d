"""Readable text on any colour: WCAG 2 relative luminance and contrast ratio, and the text
colour (black or white) to write on a player's colour, for the desktop app and the players'
page alike. No Qt: colours are ``#rrggbb`` (or ``#rgb``) strings.

Black or white always reaches 4.5:1 (WCAG AA for text) on some side: the two contrasts of any
colour multiply to 21, so the larger one is at least the square root of 21 (4.58).
"""

from __future__ import annotations

import functools

__all__ = ["AA", "contrast_ratio", "luminance", "readable_text_on", "rgb"]

#: WCAG AA: the least contrast for normal text.
AA = 4.5
BLACK = "#000000"
WHITE = "#ffffff"


def rgb(colour: str) -> tuple[int, int, int]:
    """The red, green and blue (0-255) of ``#rrggbb`` or ``#rgb`` (ValueError otherwise)."""
    hexes = colour.strip().removeprefix("#")
    if len(hexes) == 3:
        hexes = "".join(c * 2 for c in hexes)
    if len(hexes) != 6 or any(c not in "0123456789abcdefABCDEF" for c in hexes):
        raise ValueError(f"'{colour}' is not a colour; use #rrggbb")
    return int(hexes[0:2], 16), int(hexes[2:4], 16), int(hexes[4:6], 16)


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``colour``: 0 for black, 1 for white."""

    def channel(value: int) -> float:
        v = value / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = rgb(colour)
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


@functools.lru_cache(maxsize=256)
def readable_text_on(background: str) -> str:
    """The text colour to write on ``background``: black or white, whichever contrasts more
    (always at least 4.5:1, WCAG AA)."""
    on_black = contrast_ratio(background, BLACK)
    return BLACK if on_black >= contrast_ratio(background, WHITE) else WHITE
