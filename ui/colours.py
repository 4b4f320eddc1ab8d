"""Every colour BrikDesk shows on screen that is not the palette's: one name, a light value and
a dark value.

The application's theme (Edit > Settings: System, Light or Dark; ``ui.appearance``) decides
which of the two a :class:`Named` gives. Widgets read the value when they paint or when the
theme changes (:func:`follow_theme`), so a change of theme shows at once, without a restart.
Printing keeps its own black-on-white colours (``ui.printing.ink``); nothing else in ``ui/``
writes a colour literal (``tests/ui/test_colours.py`` greps).

Text colours are paired with the background they are written on in :data:`TEXT_PAIRS`; each
pair reads at 4.5:1 or more in both themes (WCAG AA; the same test computes every ratio).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget


class _State:
    dark = False


_state = _State()


def is_dark() -> bool:
    """Whether the dark theme is in use."""
    return _state.dark


def set_dark(dark: bool) -> None:
    """Give every :class:`Named` its dark (or light) value from now on (``ui.appearance``
    calls this before it changes the application's palette)."""
    _state.dark = dark


@dataclass(frozen=True)
class Named:
    """A colour by name: its value in the light theme and in the dark one."""

    light: str
    dark: str

    def hex(self) -> str:
        """The value in the theme in use, ``#rrggbb``."""
        return self.dark if _state.dark else self.light

    def q(self) -> QColor:
        return QColor(self.hex())


# -- the application's palette in the dark theme (Qt's Fusion style; the light theme is
#    Fusion's own standard palette) -------------------------------------------------------------

DARK_PALETTE = {
    "Window": "#2b2d31",
    "WindowText": "#e8e8e8",
    "Base": "#1f2023",
    "AlternateBase": "#27292d",
    "ToolTipBase": "#2b2d31",
    "ToolTipText": "#e8e8e8",
    "PlaceholderText": "#9a9fa8",
    "Text": "#e8e8e8",
    "Button": "#35383d",
    "ButtonText": "#e8e8e8",
    "BrightText": "#ff8a80",
    "Light": "#4a4e55",
    "Midlight": "#3e4147",
    "Mid": "#2f3236",
    "Dark": "#18191c",
    "Shadow": "#000000",
    "Highlight": "#2f65a8",
    "HighlightedText": "#ffffff",
    "Link": "#7cb7ff",
    "LinkVisited": "#c9a3ff",
}
#: The light theme is Fusion's standard palette with these roles changed (white on its
#: selection blue read at 3.7:1 only).
LIGHT_PALETTE = {"Highlight": "#2a6fb8", "HighlightedText": "#ffffff"}
#: Text that cannot be used (a disabled button) in the dark theme: legible, but dimmer.
DARK_DISABLED_TEXT = "#8a8f98"

# -- text on the window or a view (the palette's Window and Base) ------------------------------

ACCENT = Named("#1d3557", "#9cc3ff")  # headings of the combat forms, a natural die
NOTE = Named("#52606d", "#b4bcc6")  # secondary text: a rule's section, a hint
ERROR = Named("#8a1c12", "#ff8a80")  # what is wrong, where it was typed
WARNING = Named("#a04000", "#ffb36b")  # over budget, a rule BrikDesk had to read
GOOD = Named("#14532d", "#7ee2a0")  # a hit, an allowed move
CRITICAL = Named("#b03326", "#ff7b6e")  # a critical failure, a kill
MOVED = Named("#7b2cbf", "#d0a6ff")  # a unit moved by the attack
BONUS = Named("#1a6e64", "#5fd3c4")  # a bonus die
BENNY = Named("#8a6100", "#f0c040")  # a benny die, Over the Top
POP = Named("#5a636b", "#b8c0c8")  # a die rolled for a pop-up
LINK = Named("#1b5e8c", "#7cb7ff")  # a link, a custom catalog entry
DEAD = Named("#666666", "#a0a0a0")  # a dead unit in the roster

# -- boxes: a background, its border and the text written on it -------------------------------

PROBLEM_BG = Named("#fdecea", "#4a1e1b")
PROBLEM_BORDER = Named("#e6a19a", "#8a3a33")
INFO_BG = Named("#e8f1fb", "#1d3249")
INFO_TEXT = Named("#12406b", "#cfe4ff")
INFO_BORDER = Named("#a9c6e6", "#3d5f85")
GOOD_BG = Named("#e8f5e9", "#1c3a24")
GOOD_BORDER = Named("#9ccc9c", "#3f7a4c")
CAUTION_BG = Named("#fff8e1", "#3d3314")  # the quick form's warnings
CAUTION_BORDER = Named("#e0a800", "#a07a10")
HOUSE_BG = Named("#fff1c7", "#4a3a10")  # a house rule in the catalog
HOUSE_TEXT = Named("#7a4b00", "#ffd98a")
ALERT_BG = Named("#b03a2e", "#9c2f24")  # the roster's over-budget banner
ALERT_TEXT = Named("#ffffff", "#ffffff")
CARD_BG = Named("#f7f9fb", "#26282c")  # a combat form's card
CARD_BORDER = Named("#d5dde5", "#474b52")
TABLE_HEAD_BG = Named("#eceff3", "#35383d")  # a table's head in the rules reference
RULE_LINE = Named("#bbbbbb", "#555a61")  # lines under tables' heads
DIE_FACE_BG = Named("#ffffff", "#1f2023")  # a die chip's face
SWATCH_FALLBACK = Named("#888888", "#888888")  # a player colour that is not one
SWATCH_EDGE = Named("#5a000000", "#80ffffff")  # a swatch's edge: black or white, half seen

# -- charts (pyqtgraph) -----------------------------------------------------------------------

CHART_BG = Named("#ffffff", "#1f2023")
CHART_TEXT = Named("#333333", "#d6dae0")
CHART_AXIS = Named("#888888", "#80868e")
CHART_LINE = Named("#222222", "#e6e6e6")  # the dashed line of the number needed
CHART_HIT = Named("#2e7d32", "#66bb6a")
CHART_MISS = Named("#b0bac5", "#5d6670")
CHART_OTT = Named("#d4a017", "#e6b93a")
CHART_KILL = Named("#c0392b", "#ff6f61")
CHART_SAVE = Named("#9aa5b1", "#6b7580")
CHART_FALLBACK = Named("#808080", "#a0a0a0")  # a player's line without a colour

#: Text colours and the background each is written on (``"Window"``, ``"Base"``: the
#: palette's); ``tests/ui/test_colours.py`` computes every ratio in both themes.
TEXT_PAIRS: list[tuple[str, Named, Named | str]] = [
    *(
        (name, colour, background)
        for name, colour in (
            ("accent", ACCENT),
            ("note", NOTE),
            ("error", ERROR),
            ("warning", WARNING),
            ("good", GOOD),
            ("critical", CRITICAL),
            ("moved", MOVED),
            ("bonus", BONUS),
            ("benny", BENNY),
            ("pop", POP),
            ("link", LINK),
            ("dead", DEAD),
            ("house rule", HOUSE_TEXT),
        )
        for background in ("Window", "Base", CARD_BG)
    ),
    ("error on problem box", ERROR, PROBLEM_BG),
    ("good on good box", GOOD, GOOD_BG),
    ("info text", INFO_TEXT, INFO_BG),
    ("house rule", HOUSE_TEXT, HOUSE_BG),
    ("link on house rule", LINK, HOUSE_BG),
    ("alert", ALERT_TEXT, ALERT_BG),
    ("text on caution box", Named("#000000", DARK_PALETTE["WindowText"]), CAUTION_BG),
    ("note on table head", NOTE, TABLE_HEAD_BG),
    ("accent on die face", ACCENT, DIE_FACE_BG),
    ("critical on die face", CRITICAL, DIE_FACE_BG),
    ("bonus on die face", BONUS, DIE_FACE_BG),
    ("benny on die face", BENNY, DIE_FACE_BG),
    ("pop on die face", POP, DIE_FACE_BG),
    ("moved on die face", MOVED, DIE_FACE_BG),
    ("note on die face", NOTE, DIE_FACE_BG),
    ("chart text", CHART_TEXT, CHART_BG),
]


# -- following the theme ----------------------------------------------------------------------


class _Notifier(QObject):
    """Says that the theme changed (``ui.appearance`` emits ``changed`` once the new palette
    is set)."""

    changed = Signal()


_notifier: list[_Notifier] = []


def notifier() -> _Notifier:
    if not _notifier:
        _notifier.append(_Notifier())
    return _notifier[0]


def theme_changed() -> None:
    """Tell every widget that follows the theme to take its new colours."""
    notifier().changed.emit()


class _Follower(QObject):
    """Calls ``apply`` whenever the theme changes; a child of the widget it serves, so it
    goes with it (and its connection with it)."""

    def __init__(self, watched: QObject, apply: Callable[[], None]) -> None:
        super().__init__(watched)
        self._apply = apply
        notifier().changed.connect(self.follow)

    @Slot()
    def follow(self) -> None:
        self._apply()


def follow_theme(widget: QObject, apply: Callable[[], None], *, now: bool = True) -> None:
    """Call ``apply`` now (unless ``now`` is False) and again whenever the theme changes, for
    as long as ``widget`` lives (``apply`` sets the colours ``widget`` does not take from the
    palette)."""
    if now:
        apply()
    _Follower(widget, apply)


def text_style(
    widget: QWidget,
    colour: Named,
    extra: str = "",
    *,
    background: Named | None = None,
    border: Named | None = None,
) -> None:
    """Write ``widget``'s text in ``colour`` through a style sheet (on ``background``, inside
    a 1px ``border``, with ``extra`` rules), in the theme in use and in any it changes to."""

    def apply() -> None:
        rules = [f"color: {colour.hex()};"]
        if background is not None:
            rules.append(f"background: {background.hex()};")
        if border is not None:
            rules.append(f"border: 1px solid {border.hex()};")
        widget.setStyleSheet(" ".join([*rules, extra]).strip())

    follow_theme(widget, apply)


# -- the battle panel (``ui.panels.theme``): its normal style in each theme, and table mode,
#    which is the same in both (light text on near-black, for a laptop turned to the players) --

PANEL_CHIPS = {
    "disrupted": Named("#9a5b00", "#ffb000"),
    "recovering": Named("#7d6608", "#ffe066"),
    "half_speed": Named("#7d6608", "#ffe066"),
    "stopped": Named("#5d6d7e", "#c8d0d8"),
    "dead": Named("#424949", "#9aa0a6"),
    "out": Named("#5d6d7e", "#c8d0d8"),
    "in_close_combat": Named("#a93226", "#ff5c5c"),
    "outnumbered": Named("#641e16", "#ff9c9c"),
    "attackers": Named("#943126", "#ff8a65"),
    "grabbed": Named("#6c3483", "#d7a6ff"),
    "grabbing": Named("#6c3483", "#d7a6ff"),
    "mom": Named("#1f618d", "#7cc4ff"),
}
CHIP_FALLBACK = Named("#5d6d7e", "#c8d0d8")

PANEL = {
    "window": Named("#ffffff", "#1f2023"),
    "text": Named("#1b1f23", "#ececec"),
    "muted": Named("#5f6b76", "#aab3bd"),
    "grid": Named("#d9dee3", "#3a3d42"),
    "active_row": Named("#fff8e1", "#332d1a"),
    "group_text": Named("#1b1f23", "#ececec"),
    "dead_text": Named("#8a939b", "#8c96a0"),
    "ready": Named("#1e7b34", "#6ee787"),
    "spent": Named("#5f6b76", "#aeb8c2"),
    "held": Named("#1d5fa8", "#7cc4ff"),
    "responded": Named("#7b3fa0", "#e0a3ff"),
    "respond_marker": Named("#1d5fa8", "#7cc4ff"),
    "chip_text": Named("#ffffff", "#000000"),
    "selection": Named("#cfe3fa", "#2f5f96"),
    "selection_text": Named("#1b1f23", "#ffffff"),
    "alt_row": Named("#f3f5f7", "#26282c"),
}
PANEL_BANNERS = {
    "banner_info": (Named("#e8f1fb", "#12304f"), Named("#123a63", "#ffffff")),
    "banner_error": (Named("#fdecea", "#5c1111"), Named("#8a1c13", "#ffffff")),
}

TABLE_MODE = {
    "window": "#0b0d10",
    "text": "#ffffff",
    "muted": "#c3ccd5",
    "grid": "#3a4250",
    "active_row": "#20262f",
    "group_text": "#ffffff",
    "dead_text": "#8c96a0",
    "ready": "#6ee787",
    "spent": "#aeb8c2",
    "held": "#7cc4ff",
    "responded": "#e0a3ff",
    "respond_marker": "#7cc4ff",
    "chip_text": "#000000",
    "selection": "#2f5f96",
    "selection_text": "#ffffff",
    "alt_row": "#161b22",
}
TABLE_MODE_BANNERS = {
    "banner_info": ("#12304f", "#ffffff"),
    "banner_error": ("#5c1111", "#ffffff"),
}
#: Table mode's buttons and frames (its palette beyond the text colours).
TABLE_MODE_FRAME = {
    "Button": "#1f2630",
    "Light": "#4a5565",
    "Midlight": "#3a4250",
    "Dark": "#05070a",
    "Shadow": "#000000",
}
#: Table mode's End Turn button: yellow, large, across the table.
TABLE_END_TURN = {"bg": "#ffd400", "text": "#000000", "off_bg": "#5f5a3a", "off_text": "#c3ccd5"}
