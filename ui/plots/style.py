"""The theme's colours on a pyqtgraph plot: its background, its axes' lines and texts, a
dashed line and its label; re-applied whenever the theme changes (``ui.colours``).

Imports pyqtgraph: import it only where a chart is shown.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import PySide6.QtWidgets  # noqa: F401  (PySide6 before pyqtgraph: it picks the binding)

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from ui import colours


def themed_plot(
    plot: pg.PlotWidget,
    lines: tuple[pg.InfiniteLine, ...] = (),
    *,
    line_width: float = 1.5,
    axis_label_size: str | None = None,
    then: Callable[[], None] | None = None,
) -> None:
    """Colour ``plot`` (and its dashed ``lines`` with their labels) from the theme, now and
    at every change of theme; ``then`` redraws what else the plot shows in the theme's
    colours (its bars)."""

    def apply() -> None:
        item = plot.getPlotItem()
        if item is None:  # closed: pyqtgraph lets go of a closed plot's item, not the widget
            return
        plot.setBackground(colours.CHART_BG.hex())
        text = colours.CHART_TEXT.hex()
        for name in ("left", "bottom"):
            axis = item.getAxis(name)
            axis.setTextPen(pg.mkPen(text))
            axis.setPen(pg.mkPen(colours.CHART_AXIS.hex()))
            if axis_label_size is not None and axis.labelText:
                axis.setLabel(axis.labelText, color=text, **{"font-size": axis_label_size})
        fill = QColor(colours.CHART_BG.hex())
        fill.setAlpha(215)
        for line in lines:
            line.setPen(
                pg.mkPen(colours.CHART_LINE.hex(), width=line_width, style=Qt.PenStyle.DashLine)
            )
            line.label.setColor(colours.CHART_LINE.hex())
            line.label.fill = pg.mkBrush(fill)
            line.label.update()
        if then is not None:
            then()

    colours.follow_theme(plot, apply)


def blend(a: colours.Named, b: colours.Named, x: float) -> str:
    """``a`` mixed with ``b`` in the theme in use (0: ``a``, 1: ``b``)."""
    ca, cb = QColor(a.hex()), QColor(b.hex())
    x = min(1.0, max(0.0, x))
    mixed = [
        round(u + (v - u) * x)
        for u, v in zip(
            (ca.red(), ca.green(), ca.blue()), (cb.red(), cb.green(), cb.blue()), strict=True
        )
    ]
    return QColor(*mixed).name()
