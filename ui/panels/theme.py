"""Colours and sizes of the battle panel, in its normal style and in table mode.

Table mode is for a laptop turned towards the players: large type, light text on a near-black
ground, saturated status chips with bold labels, taller rows. Every colour pair used for text
has a contrast ratio of at least 4.5:1 in both styles (``tests/ui/panels/test_battle_panel.py``
checks).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QFont, QPalette

from brikdesk.domain.battle import ActionState
from brikdesk.domain.colours import readable_text_on


@dataclass(frozen=True)
class Theme:
    name: str
    font_scale: float  # the panel's font size relative to the application's
    header_pt_scale: float  # round / active player headline relative to the panel font
    row_padding: int  # pixels added to a row's text height
    window: str
    text: str
    muted: str  # secondary text (types, dead units)
    grid: str
    active_row: str  # background of the active player's units
    group_text: str
    dead_text: str
    ready: str
    spent: str
    held: str
    responded: str
    respond_marker: str
    chip_text: str
    chips: dict[str, str]
    banner_info: tuple[str, str]  # background, text
    banner_error: tuple[str, str]
    selection: str
    selection_text: str
    alt_row: str


_CHIPS_NORMAL = {
    "disrupted": "#9a5b00",
    "recovering": "#7d6608",
    "half_speed": "#7d6608",
    "stopped": "#5d6d7e",
    "dead": "#424949",
    "out": "#5d6d7e",
    "in_close_combat": "#a93226",
    "outnumbered": "#641e16",
    "attackers": "#943126",
    "grabbed": "#6c3483",
    "grabbing": "#6c3483",
    "mom": "#1f618d",
}

_CHIPS_TABLE = {
    "disrupted": "#ffb000",
    "recovering": "#ffe066",
    "half_speed": "#ffe066",
    "stopped": "#c8d0d8",
    "dead": "#9aa0a6",
    "out": "#c8d0d8",
    "in_close_combat": "#ff5c5c",
    "outnumbered": "#ff9c9c",
    "attackers": "#ff8a65",
    "grabbed": "#d7a6ff",
    "grabbing": "#d7a6ff",
    "mom": "#7cc4ff",
}

NORMAL = Theme(
    name="normal",
    font_scale=1.0,
    header_pt_scale=2.0,
    row_padding=10,
    window="#ffffff",
    text="#1b1f23",
    muted="#5f6b76",
    grid="#d9dee3",
    active_row="#fff8e1",
    group_text="#1b1f23",
    dead_text="#8a939b",
    ready="#1e7b34",
    spent="#5f6b76",
    held="#1d5fa8",
    responded="#7b3fa0",
    respond_marker="#1d5fa8",
    chip_text="#ffffff",
    chips=_CHIPS_NORMAL,
    banner_info=("#e8f1fb", "#123a63"),
    banner_error=("#fdecea", "#8a1c13"),
    selection="#cfe3fa",
    selection_text="#1b1f23",
    alt_row="#f3f5f7",
)

TABLE = Theme(
    name="table",
    font_scale=1.55,
    header_pt_scale=2.2,
    row_padding=16,
    window="#0b0d10",
    text="#ffffff",
    muted="#c3ccd5",
    grid="#3a4250",
    active_row="#20262f",
    group_text="#ffffff",
    dead_text="#8c96a0",
    ready="#6ee787",
    spent="#aeb8c2",
    held="#7cc4ff",
    responded="#e0a3ff",
    respond_marker="#7cc4ff",
    chip_text="#000000",
    chips=_CHIPS_TABLE,
    banner_info=("#12304f", "#ffffff"),
    banner_error=("#5c1111", "#ffffff"),
    selection="#2f5f96",
    selection_text="#ffffff",
    alt_row="#161b22",
)


def action_colour(theme: Theme, action: ActionState) -> str:
    return {
        ActionState.READY: theme.ready,
        ActionState.SPENT_OWN_TURN: theme.spent,
        ActionState.HELD: theme.held,
        ActionState.SPENT_RESPONSE: theme.responded,
    }[action]


def readable_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (a player's colour band; any
    colour Qt reads, an unreadable one as black)."""
    return readable_text_on(colour if colour.startswith("#") else QColor(colour).name())


def tint(colour: str, towards: str, amount: float) -> str:
    """``colour`` mixed with ``towards`` (0: colour, 1: towards)."""
    a, b = QColor(colour), QColor(towards)
    if not a.isValid():
        a = QColor("#888888")
    mix = QColor.fromRgbF(
        a.redF() + (b.redF() - a.redF()) * amount,
        a.greenF() + (b.greenF() - a.greenF()) * amount,
        a.blueF() + (b.blueF() - a.blueF()) * amount,
    )
    return mix.name()


def palette(theme: Theme, base: QPalette) -> QPalette:
    """The panel's colours as a palette: item views paint fastest without style sheets."""
    pal = QPalette(base)
    t = theme
    roles = {
        QPalette.ColorRole.Window: t.window,
        QPalette.ColorRole.WindowText: t.text,
        QPalette.ColorRole.Base: t.window,
        QPalette.ColorRole.AlternateBase: t.alt_row,
        QPalette.ColorRole.Text: t.text,
        QPalette.ColorRole.Highlight: t.selection,
        QPalette.ColorRole.HighlightedText: t.selection_text,
        QPalette.ColorRole.PlaceholderText: t.muted,
    }
    if t is TABLE:
        roles.update(
            {
                QPalette.ColorRole.Button: "#1f2630",
                QPalette.ColorRole.ButtonText: t.text,
                QPalette.ColorRole.Light: "#4a5565",
                QPalette.ColorRole.Midlight: "#3a4250",
                QPalette.ColorRole.Mid: t.grid,
                QPalette.ColorRole.Dark: "#05070a",
                QPalette.ColorRole.Shadow: "#000000",
            }
        )
    for role, colour in roles.items():
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
            pal.setColor(group, role, QColor(colour))
    for role in (
        QPalette.ColorRole.ButtonText,
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.Text,
    ):
        pal.setColor(QPalette.ColorGroup.Disabled, role, QColor(t.muted))
    return pal


def muted(base: QPalette, theme: Theme) -> QPalette:
    """``base`` with secondary text (a battle's name, a log entry's details)."""
    pal = QPalette(base)
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        pal.setColor(group, QPalette.ColorRole.WindowText, QColor(theme.muted))
    return pal


def scaled(font: QFont, factor: float, *, bold: bool = False) -> QFont:
    """A copy of ``font``, ``factor`` times its size, bold if asked."""
    out = QFont(font)
    out.setPointSizeF(max(font.pointSizeF(), 1.0) * factor)
    if bold:
        out.setBold(True)
    return out
