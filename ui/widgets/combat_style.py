"""The style of the combat forms (the combat wizard, the quick attack form, the Sprint
dialog): a large base font for a table, labels by role, cards, the problem and good notes, and
the rules readings in tooltips.

Everything here is sized for a table: the forms set a large base font (``BASE_PT``), and the
numbers the players look for (the number needed, the odds, the Armor) are larger still.

The style is given with fonts, palettes and a few painted frames, not a style sheet: a style
sheet on a form makes Qt match its rules for every widget each time one is made, shown or
painted, which cost the wizard 15-25 ms per page and ~10 ms per die typed.
"""

from __future__ import annotations

import functools
import html
from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QPalette, QPen, QPixmap
from PySide6.QtWidgets import QApplication, QFrame, QLabel, QWidget

from ui import colours
from ui.colours import Named

#: Base font size of the wizard (points): readable from across a table.
BASE_PT = 15
BIG_PT = 25
ODDS_PT = 22
#: The background of a card (``Card``), which the labels that change often fill in too.
CARD_BG = colours.CARD_BG


@dataclass(frozen=True)
class TextStyle:
    """A font size (points; ``None``: the form's), a weight (``None``: normal) and a text
    colour (``None``: the palette's)."""

    pt: int | None = None
    weight: int | None = None
    colour: Named | None = None


#: The roles drawn as a box (background, border): a problem in red, a good note in green.
BOXES = {
    "problem": (colours.PROBLEM_BG, colours.PROBLEM_BORDER),
    "good": (colours.GOOD_BG, colours.GOOD_BORDER),
}
#: Inside a box: its padding and its 1px border.
BOX_MARGINS = (11, 7, 11, 7)
CARD_BORDER = colours.CARD_BORDER
#: The text styles of the labels by role (``label(text, role)``) and of a die's box.
TEXT_STYLES = {
    "big": TextStyle(BIG_PT, 600),
    "section": TextStyle(BASE_PT + 2, 600, colours.ACCENT),
    "note": TextStyle(BASE_PT - 3, None, colours.NOTE),
    "problem": TextStyle(None, None, colours.ERROR),
    "good": TextStyle(None, None, colours.GOOD),
    "event": TextStyle(BASE_PT + 1),
    "paragraph": TextStyle(BASE_PT + 5),
    "prompt": TextStyle(BASE_PT + 2, 600),
    "die": TextStyle(BIG_PT, 600),
}


def apply_style(form: QWidget) -> None:
    """Give a combat form its base font (``BASE_PT``): its widgets inherit it."""
    font = QFont(form.font())
    font.setPointSize(BASE_PT)
    form.setFont(font)


def font_of(pt: int | None = None, weight: int | None = None) -> QFont:
    """A font that sets only a size and a weight: the rest (the family) is inherited."""
    font = QFont()
    if pt is not None:
        font.setPointSize(pt)
    if weight is not None:
        font.setWeight(QFont.Weight(weight))
    return font


#: The dynamic property that holds a widget's text colour as set by ``set_colour``.
COLOUR_PROPERTY = "namedColour"


def set_colour(widget: QWidget, colour: Named | None) -> None:
    """Write ``widget``'s text in ``colour`` (``None``: the usual text colour), in the theme
    in use and in any theme it changes to."""
    value = f"{colour.light} {colour.dark}" if colour is not None else ""
    if widget.property(COLOUR_PROPERTY) is None:
        colours.follow_theme(widget, lambda: _paint_colour(widget), now=False)
    widget.setProperty(COLOUR_PROPERTY, value)
    _paint_colour(widget)


def _paint_colour(widget: QWidget) -> None:
    value = str(widget.property(COLOUR_PROPERTY) or "")
    c = (
        Named(*value.split()).q()
        if value
        else QApplication.palette().color(QPalette.ColorRole.WindowText)
    )
    palette = widget.palette()
    if palette.color(QPalette.ColorRole.WindowText) == c:
        return
    for role in (
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.Text,
        QPalette.ColorRole.ButtonText,
    ):
        palette.setColor(role, c)
    widget.setPalette(palette)


def set_text_style(
    widget: QWidget, pt: int | None = None, weight: int | None = None, colour: Named | None = None
) -> None:
    """Give ``widget`` a size, a weight and a colour of its own."""
    widget.setFont(font_of(pt, weight))
    set_colour(widget, colour)


def set_role(widget: QWidget, role: str | None) -> None:
    """Give ``widget`` the text style of ``role`` (``TEXT_STYLES``; ``None``: the form's); a problem or a
    good note is boxed (``RoleLabel``)."""
    widget.setProperty("role", role)
    style = TEXT_STYLES.get(role or "", TextStyle())
    set_text_style(widget, style.pt, style.weight, style.colour)
    if isinstance(widget, RoleLabel):
        widget.setContentsMargins(*(BOX_MARGINS if role in BOXES else (0, 0, 0, 0)))
        widget.update()


class RoleLabel(QLabel):
    """A label of the combat forms; one with a boxed role (a problem, a good note) paints its
    box (background, border, rounded corners) under its text."""

    def paintEvent(self, event: QPaintEvent) -> None:
        box = BOXES.get(str(self.property("role") or ""))
        if box is not None:
            painter = QPainter(self)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(QPen(box[1].q(), 1))
            painter.setBrush(box[0].q())
            painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3)
            painter.end()
        super().paintEvent(event)


class Card(QFrame):
    """A card of the combat forms: a light panel with a thin border and rounded corners, that
    the widgets on it show through (``set_colours`` for another tone, the rule warnings)."""

    RADIUS = 6

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._colours = (CARD_BG, CARD_BORDER)
        self._width = 1
        self.setContentsMargins(1, 1, 1, 1)
        self._tile_key: tuple[int, int, int, float] | None = None
        self._tile_cache = QPixmap()

    @property
    def _corner(self) -> int:
        """How far a corner reaches in from each side (its radius and border)."""
        return self.RADIUS + self._width

    def set_colours(self, background: Named, border: Named, width: int = 1) -> None:
        self._colours, self._width = (background, border), width
        self.setContentsMargins(width, width, width, width)
        self.update()

    @property
    def _background(self) -> QColor:
        return self._colours[0].q()

    @property
    def _border(self) -> QColor:
        return self._colours[1].q()

    def _tile(self, ratio: float) -> QPixmap:
        """The card in small, ``2 * corner + 1`` pixels square, drawn smooth once: its corners
        are the card's corners, its middle row and column the card's edges."""
        key = (self._background.rgba(), self._border.rgba(), self._width, ratio)
        if self._tile_key != key:
            side = 2 * self._corner + 1
            tile = QPixmap(round(side * ratio), round(side * ratio))
            tile.setDevicePixelRatio(ratio)
            tile.fill(Qt.GlobalColor.transparent)
            painter = QPainter(tile)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(QPen(self._border, self._width))
            painter.setBrush(self._background)
            half = self._width / 2
            painter.drawRoundedRect(
                QRectF(0, 0, side, side).adjusted(half, half, -half, -half),
                self.RADIUS,
                self.RADIUS,
            )
            painter.end()
            self._tile_cache, self._tile_key = tile, key
        return self._tile_cache

    def paintEvent(self, event: QPaintEvent) -> None:
        """The card from its tile: the corners as drawn, the edges stretched from its middle,
        the inside filled. A smooth rounded rectangle drawn whole cost ~0.4 ms a card, paid by
        every card at each full paint of a page."""
        ratio = self.devicePixelRatioF()
        tile = self._tile(ratio)
        c, w, h = self._corner, self.width(), self.height()
        if w < 2 * c + 1 or h < 2 * c + 1:
            return
        painter = QPainter(self)

        def part(
            x: int, y: int, width: int, height: int, sx: int, sy: int, sw: int, sh: int
        ) -> None:
            painter.drawPixmap(
                QRectF(x, y, width, height),
                tile,
                QRectF(sx * ratio, sy * ratio, sw * ratio, sh * ratio),
            )

        mid_w, mid_h = w - 2 * c, h - 2 * c
        part(0, 0, c, c, 0, 0, c, c)
        part(w - c, 0, c, c, c + 1, 0, c, c)
        part(0, h - c, c, c, 0, c + 1, c, c)
        part(w - c, h - c, c, c, c + 1, c + 1, c, c)
        part(c, 0, mid_w, c, c, 0, 1, c)
        part(c, h - c, mid_w, c, c, c + 1, 1, c)
        part(0, c, c, mid_h, 0, c, c, 1)
        part(w - c, c, c, mid_h, c + 1, c, c, 1)
        painter.fillRect(c, c, mid_w, mid_h, self._background)
        painter.end()


def label(
    text: str = "",
    role: str | None = None,
    parent: QWidget | None = None,
    *,
    wrap: bool = True,
    selectable: bool = True,
) -> QLabel:
    """A label of the wizard; its text can be selected with the mouse, but for a figure that
    changes with every judgement (``selectable=False``): a selectable label holds a rich-text
    document, rebuilt at each new text and slower to paint."""
    lab = RoleLabel(text, parent)
    if role:
        set_role(lab, role)
    lab.setWordWrap(wrap)
    if selectable:
        lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return lab


@functools.lru_cache(maxsize=256)
def reading_tip(*sections: str) -> str:
    """A tooltip with BrikDesk's readings of these rule sections (rich text, so it wraps);
    empty when the rules need none."""
    from brikdesk.domain.combat import readings_for  # the combat rules: on first use

    found = readings_for(*sections)
    return "".join(
        f"<p><b>BrikDesk's reading, {html.escape(s)}</b>: {html.escape(text, quote=False)}</p>"
        for s, text in found
    )


def show_readings(widget: QWidget, *sections: str) -> bool:
    """Put the readings of ``sections`` in ``widget``'s tooltip; whether there were any."""
    tip = reading_tip(*sections)
    if widget.toolTip() != tip:
        widget.setToolTip(tip)
    return bool(tip)


def set_problem(lab: QLabel, text: str | None, *, good: str | None = None) -> None:
    """Show ``text`` as a problem (red), else ``good`` (green), else hide the label."""
    role = "problem" if text else "good" if good else None
    if role is None:
        lab.hide()
        return
    if lab.property("role") != role:
        set_role(lab, role)
    lab.setText(text or good or "")
    lab.show()
