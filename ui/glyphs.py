"""Signs drawn as text (a warning, a refusal), picked from what the font really has.

A sign the font lacks shows as an empty box on some systems ("⚠" in the battle log,
the roster's budget warning and the unit card). Each sign has plainer stand-ins, the last one
plain ASCII; :func:`sign` returns the first one the font draws itself
(``QFontMetrics.inFontUcs4``), so no fallback font is needed.
"""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontMetrics, QGuiApplication

#: A warning: the warning sign, else a double exclamation mark (WGL4, in every common UI font).
WARNING = ("\u26a0", "\u203c", "!")
#: A refusal: the no-entry sign, else a circled slash, else a multiplication sign.
REFUSAL = ("\u26d4", "\u2298", "\u00d7")


def sign(choices: tuple[str, ...], font: QFont | None = None) -> str:
    """The first of ``choices`` that ``font`` (the application's font by default) has."""
    metrics = QFontMetrics(font if font is not None else QGuiApplication.font())
    for ch in choices:
        if all(metrics.inFontUcs4(ord(c)) for c in ch):
            return ch
    return choices[-1]


def warning_sign(font: QFont | None = None) -> str:
    return sign(WARNING, font)


def refusal_sign(font: QFont | None = None) -> str:
    return sign(REFUSAL, font)
