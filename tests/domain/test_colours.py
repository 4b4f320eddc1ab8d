"""Readable text on any colour: the WCAG contrast ratio and the text colour picked for a
player's colour (the players' page and the desktop app use the same function)."""

from __future__ import annotations

import itertools

import pytest

from brikdesk.domain.colours import AA, contrast_ratio, luminance, readable_text_on, rgb


def test_contrast_ratio_matches_wcag_values() -> None:
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#ffffff", "#ffffff") == pytest.approx(1.0)
    # The WCAG grey that just passes AA on white: #767676 gives 4.54:1.
    assert contrast_ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.005)
    # Order does not matter; short form is the long one.
    assert contrast_ratio("#fff", "#777") == contrast_ratio("#777777", "#ffffff")
    assert luminance("#ff0000") == pytest.approx(0.2126)


def test_white_on_the_demo_green_and_a_yellow_fails_and_the_pick_passes() -> None:
    # White text on these read at 2.87:1 and 1.07:1: the pick must be black.
    for colour in ("#27ae60", "#f1c40f", "#ffff00"):
        assert contrast_ratio(colour, "#ffffff") < AA
        assert readable_text_on(colour) == "#000000"
    assert readable_text_on("#1f3a93") == "#ffffff"


def test_every_colour_gets_text_at_least_aa() -> None:
    steps = range(0, 256, 15)
    for r, g, b in itertools.product(steps, steps, steps):
        colour = f"#{r:02x}{g:02x}{b:02x}"
        assert contrast_ratio(colour, readable_text_on(colour)) >= AA, colour


@pytest.mark.parametrize("bad", ["", "red", "#12345", "#ggg000", "12345678"])
def test_not_a_colour_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="not a colour"):
        rgb(bad)
