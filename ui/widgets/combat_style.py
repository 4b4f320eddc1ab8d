"""The style of the combat forms (the combat wizard, the quick attack form, the Sprint
dialog): a large base font for a table, labels by role, the problem and good notes, and the
rules readings in tooltips.

Everything here is sized for a table: the forms set a large base font (``BASE_PT``), and the
numbers the players look for (the number needed, the odds, the Armor) are larger still.
"""

from __future__ import annotations

import functools
import html
from fractions import Fraction

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from brikdesk.domain.combat import readings_for

#: Base font size of the wizard (points): readable from across a table.
BASE_PT = 15
BIG_PT = 25
ODDS_PT = 22
#: The background of a card (``QFrame[role="card"]``), which the labels on it fill in too.
CARD_BG = "#f7f9fb"

STYLE = f"""
QWizard, QWizardPage, QWidget {{ font-size: {BASE_PT}pt; }}
QLabel[role="big"] {{ font-size: {BIG_PT}pt; font-weight: 600; }}
QLabel[role="section"] {{ font-size: {BASE_PT + 2}pt; font-weight: 600; color: #1d3557; }}
QLabel[role="note"] {{ font-size: {BASE_PT - 3}pt; color: #52606d; }}
QLabel[role="problem"] {{ color: #8a1c12; background: #fdecea; border: 1px solid #e6a19a;
    border-radius: 3px; padding: 6px 10px; }}
QLabel[role="good"] {{ color: #14532d; background: #e8f5e9; border: 1px solid #9ccc9c;
    border-radius: 3px; padding: 6px 10px; }}
QLabel[role="event"] {{ font-size: {BASE_PT + 1}pt; }}
QLabel[role="paragraph"] {{ font-size: {BASE_PT + 5}pt; }}
QLabel[role="prompt"] {{ font-size: {BASE_PT + 2}pt; font-weight: 600; }}
QLineEdit[role="die"] {{ font-size: {BIG_PT}pt; font-weight: 600; padding: 2px 8px; }}
QFrame[role="card"] {{ background: {CARD_BG}; border: 1px solid #d5dde5; border-radius: 6px; }}
QFrame[role="chip"] {{ border: 2px solid #9aa5b1; border-radius: 6px; background: white; }}
QPushButton {{ padding: 6px 14px; }}
"""


def percent(p: Fraction | float | None) -> str:
    """``"41.7%"``; ``"<0.1%"`` for a tiny chance that is not zero; ``"-"`` for none."""
    if p is None:
        return "-"
    x = float(p)
    if x == 0:
        return "0%"
    if x == 1:
        return "100%"
    if x < 0.001:
        return "<0.1%"
    if x > 0.999:
        return ">99.9%"
    return f"{x * 100:.1f}%"


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
    lab = QLabel(text, parent)
    if role:
        lab.setProperty("role", role)
    lab.setWordWrap(wrap)
    if selectable:
        lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return lab


@functools.lru_cache(maxsize=256)
def reading_tip(*sections: str) -> str:
    """A tooltip with BrikDesk's readings of these rule sections (rich text, so it wraps);
    empty when the rules need none."""
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
        lab.setProperty("role", role)
        lab.style().unpolish(lab)
        lab.style().polish(lab)
    lab.setText(text or good or "")
    lab.show()
