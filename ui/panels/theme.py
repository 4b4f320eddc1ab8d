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
from ui import colours


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


def _normal(dark: bool) -> Theme:
    def pick(c: colours.Named) -> str:
        return c.dark if dark else c.light

    return Theme(
        name="normal",
        font_scale=1.0,
        header_pt_scale=2.0,
        row_padding=10,
        chips={key: pick(c) for key, c in colours.PANEL_CHIPS.items()},
        banner_info=(
            pick(colours.PANEL_BANNERS["banner_info"][0]),
            pick(colours.PANEL_BANNERS["banner_info"][1]),
        ),
        banner_error=(
            pick(colours.PANEL_BANNERS["banner_error"][0]),
            pick(colours.PANEL_BANNERS["banner_error"][1]),
        ),
        **{key: pick(c) for key, c in colours.PANEL.items()},
    )


#: The panel's normal style in the light and in the dark theme (``normal_theme``).
NORMAL = _normal(dark=False)
NORMAL_DARK = _normal(dark=True)

#: Table mode: the same in both themes.
TABLE = Theme(
    name="table",
    font_scale=1.55,
    header_pt_scale=2.2,
    row_padding=16,
    chips={key: c.dark for key, c in colours.PANEL_CHIPS.items()},
    banner_info=colours.TABLE_MODE_BANNERS["banner_info"],
    banner_error=colours.TABLE_MODE_BANNERS["banner_error"],
    **colours.TABLE_MODE,
)


def normal_theme() -> Theme:
    """The panel's normal style in the theme in use."""
    return NORMAL_DARK if colours.is_dark() else NORMAL


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
        a = colours.SWATCH_FALLBACK.q()
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
                **{
                    getattr(QPalette.ColorRole, role): value
                    for role, value in colours.TABLE_MODE_FRAME.items()
                },
                QPalette.ColorRole.ButtonText: t.text,
                QPalette.ColorRole.Mid: t.grid,
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
