"""The wizard's charts (pyqtgraph): the Action Roll totals and the Damage against Armor.

Imported only by :class:`ui.wizard.widgets.ChartSlot` when a chart is first drawn, so the
wizard opens without loading pyqtgraph. PySide6 is imported first so pyqtgraph picks it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import PySide6.QtWidgets  # noqa: F401  (PySide6 before pyqtgraph: it picks the binding)

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGraphicsItem, QWidget

from ui import colours
from ui.plots.style import blend, themed_plot
from ui.widgets.combat_style import BASE_PT

#: A bar's colour: a mix of two named colours in the theme in use (0: the first).
Shade = tuple[colours.Named, colours.Named, float]

#: Where the label's top sits on the line, as a fraction of the plot's height: at the plot's
#: top edge. The bars reach at most 1 / HEADROOM of the height, and less on a short chart: the
#: label's height (and LABEL_GAP pixels) stays free above the tallest bar, so the label never
#: covers a bar.
LABEL_AT = 1.0
HEADROOM = 1.4
LABEL_GAP = 2


class BarChart(pg.PlotWidget):  # type: ignore[misc]  # pyqtgraph ships no type hints
    """Bars of chances in percent with one dashed line (the Use or the Armor) and its label:
    pyqtgraph's bar graph and infinite line."""

    def __init__(self, parent: QWidget | None = None, *, xlabel: str = "") -> None:
        super().__init__(parent)
        self.setMenuEnabled(False)
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        item = self.getPlotItem()
        font = QFont()
        font.setPointSize(BASE_PT - 1)
        for name in ("left", "bottom"):
            axis = item.getAxis(name)
            axis.setStyle(tickFont=font)
            # The axes (and their grid) are drawn once per range (Qt's item cache).
            axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        style = {"font-size": f"{BASE_PT - 1}pt"}
        item.setLabel("bottom", xlabel, **style)
        item.setLabel("left", "%", **style)
        item.showGrid(y=True, alpha=0.25)
        self._shown: tuple[object, ...] | None = None
        self._ranges: tuple[tuple[float, float], float] | None = None
        #: The dashed line; ``line.value()`` is where it is, always between two bars (a face
        #: and a half). It and its label are drawn over the bars; the label hangs above them.
        self.line = pg.InfiniteLine(
            angle=90,
            movable=False,
            label="",
            labelOpts={
                "position": LABEL_AT,
                # hung by its top, beside the line (right of it, or left near the right edge)
                "anchors": [(0, 0), (1, 0)],
            },
        )
        label_font = QFont(font)
        label_font.setBold(True)
        self.line.label.setFont(label_font)
        # Its box no taller than its text: the bars keep the height it does not need.
        self.line.label.textItem.document().setDocumentMargin(1)
        item.addItem(self.line)
        self.bars = pg.BarGraphItem(x=[0], height=[0], width=0.8)
        self.bars.hide()  # until there are bars
        self.line.setZValue(self.bars.zValue() + 1)
        item.addItem(self.bars)
        self.bar_count = 0
        self._tallest = 0.0  # the tallest bar, in percent
        item.vb.sigResized.connect(self._fit_height)
        self._args: tuple[Sequence[tuple[int, float, Shade]], float | None, str, Sequence[int]]
        self._args = ((), None, "", ())
        themed_plot(
            self,
            (self.line,),
            line_width=2,
            axis_label_size=style["font-size"],
            then=self._recolour,
        )

    def _recolour(self) -> None:
        self._shown = None
        self.show_bars(*self._args)

    def show_bars(
        self,
        bars: Sequence[tuple[int, float, Shade]],
        line_at: float | None,
        line_text: str,
        outlined: Sequence[int] = (),
    ) -> None:
        """``bars``: ``(x, probability, colour)``; the dashed line at ``line_at``; bars at
        ``outlined`` totals get a thick gold edge (Over the Top)."""
        self._args = (bars, line_at, line_text, outlined)
        key = (tuple(bars), line_at, line_text, tuple(outlined))
        if key == self._shown:
            return
        self._shown = key
        self.bar_count = len(bars)
        if not bars:
            self.bars.hide()
            self.line.hide()
            return
        edge = set(outlined)
        gold = pg.mkPen(colours.CHART_OTT.hex(), width=4)
        self.bars.setOpts(
            x=[x for x, _p, _c in bars],
            height=[p * 100 for _x, p, _c in bars],
            width=0.8,
            brushes=[pg.mkBrush(blend(*c)) for _x, _p, c in bars],
            pens=[gold if x in edge else pg.mkPen(None) for x, _p, _c in bars],
        )
        self.bars.show()
        if line_at is None:
            self.line.hide()
        else:
            # Shown first: a hidden label takes no new text (pyqtgraph's InfLineLabel).
            self.line.show()
            self.line.label.setVisible(bool(line_text))
            self.line.setValue(line_at)
            self.line.label.setFormat(line_text)
        lo: float = min(x for x, _p, _c in bars)
        hi: float = max(x for x, _p, _c in bars)
        if line_at is not None:
            lo, hi = min(lo, line_at), max(hi, line_at)
        self._tallest = max(p for _x, p, _c in bars) * 100
        self._set_ranges((lo - 0.8, hi + 0.8))

    def headroom(self) -> float:
        """How many times the tallest bar the plot is high: HEADROOM, or more where the
        line's label, hung from the plot's top, would otherwise come down onto a bar."""
        height = float(self.getPlotItem().vb.height())
        label = self.line.label
        shown = self.line.isVisible() and label.isVisible()
        free = height - (float(label.boundingRect().height()) + LABEL_GAP if shown else 0.0)
        if free <= 0:
            return HEADROOM  # no room for the label at all
        return max(HEADROOM, height / free)

    def _fit_height(self) -> None:
        if self._ranges is not None:
            self._set_ranges(self._ranges[0])

    def _set_ranges(self, x_range: tuple[float, float]) -> None:
        y_top = self._tallest * self.headroom()
        if (x_range, y_top) != self._ranges:  # the axes re-tick only when the ranges move
            self._ranges = (x_range, y_top)
            item = self.getPlotItem()
            item.setXRange(*x_range, padding=0)
            item.setYRange(0, y_top, padding=0)


def action_bars(
    totals: Sequence[tuple[int, float]], action_mod: int, use: int | None
) -> list[tuple[int, float, Shade]]:
    """One bar per natural face of the Action die (a d4's bonus dice included), coloured by
    what it does with the modifiers: a natural 1 red (critical failure), a hit green, a miss
    grey. Faces, not totals, on the x axis: a change of modifier recolours the bars and moves
    the line without moving the axis."""
    out = []
    for total, p in totals:
        natural = total - action_mod
        if natural == 1:
            colour = colours.CHART_KILL
        elif use is not None and total >= use:
            colour = colours.CHART_HIT
        else:
            colour = colours.CHART_MISS
        out.append((natural, p, (colour, colour, 0.0)))
    return out


def over_the_top_faces(action_die: int, can: bool) -> list[int]:
    """The natural faces that go Over the Top (6 or more; never on a d4)."""
    if not can or action_die < 6:
        return []
    return list(range(6, action_die + 1))


def damage_bars(dist: Sequence[tuple[int, float, float]]) -> list[tuple[int, float, Shade]]:
    """Colour each Damage total by the chance it destroys: red where it always beats the
    Armor, grey where it never does, in between against rolled Armor (a Hero's 2d6)."""
    return [(t, p, (colours.CHART_SAVE, colours.CHART_KILL, beats)) for t, p, beats in dist]


def make_action_chart(parent: QWidget) -> BarChart:
    chart = BarChart(parent, xlabel="natural face of the Action die")
    chart.setObjectName("actionChart")
    return chart


def make_damage_chart(parent: QWidget) -> BarChart:
    chart = BarChart(parent, xlabel="Damage on a hit")
    chart.setObjectName("damageChart")
    return chart
