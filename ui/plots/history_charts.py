"""The armies over the battles: army value, units alive, casualties and kills (pyqtgraph).

This module imports pyqtgraph; import it only where the charts are shown (the History window
does so when it opens), so BrikDesk starts without it. One plot per metric, a line per army in
its player's colour (a second army of the same player a darker shade), the battles along the
bottom. A long campaign stays readable: the view opens on the whole campaign, the mouse wheel
zooms and dragging pans the battles axis (the numbers axis follows the data shown), and the
axis labels every k-th battle so numbers never overlap. Each chart exports as PNG and SVG.
"""

from __future__ import annotations

import os
from pathlib import Path

import PySide6.QtWidgets  # noqa: F401  (PySide6 before pyqtgraph: it picks the binding)

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
from pyqtgraph.exporters import ImageExporter
from PySide6.QtCore import QBuffer, QIODevice, QRect
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QVBoxLayout, QWidget

from brikdesk.domain.history import CampaignHistory
from brikdesk.errors import UserError
from brikdesk.files import write_atomically
from ui.colours import CHART_AXIS, CHART_BG, CHART_FALLBACK, CHART_TEXT, follow_theme

#: (title, the series' attribute, what the numbers are)
METRICS = (
    ("Army value", "value", "CP"),
    ("Units alive", "alive", "units"),
    ("Casualties so far", "casualties", "units"),
    ("Kills so far", "kills", "kills"),
)


#: How far below 0 the y axis reaches, as a share of its top (room for the 0's label).
Y_FOOT = 0.04


def y_top(highest: float) -> float:
    """The top of a y axis that starts at 0: a little above the highest value (room for the
    line at the top), at least 1."""
    return max(1.0, highest * 1.08 + 0.5)


def army_colours(history: CampaignHistory) -> dict[int, QColor]:
    out: dict[int, QColor] = {}
    seen: dict[str, int] = {}
    for s in history.series:
        c = QColor(s.colour)
        if not c.isValid():
            c = CHART_FALLBACK.q()
        n = seen.get(s.colour, 0)
        seen[s.colour] = n + 1
        out[s.army_id] = c.darker(100 + 45 * n) if n else c
    return out


class HistoryChart(QWidget):
    """One metric over the battles for every army."""

    def __init__(self, title: str, attr: str, unit: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"chart_{attr}")
        self.title, self.attr, self.unit = title, attr, unit
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        # The legend has a row of its own above the plot: it never hides a line.
        self.plot = pg.GraphicsLayoutWidget(self)
        self.plot.setObjectName(f"plot_{attr}")
        self.legend = pg.LegendItem(colCount=4)
        self.plot.ci.addItem(self.legend, row=0, col=0)
        item = self.plot.ci.addPlot(row=1, col=0)
        self.item = item
        item.showGrid(x=False, y=True, alpha=0.25)
        item.setMenuEnabled(False)
        item.getViewBox().setMouseEnabled(x=True, y=False)
        # The y axis starts at 0 (a drop from 80 to 75 CP is not drawn as a collapse) and
        # says what its numbers are.
        item.getViewBox().enableAutoRange(axis="y", enable=False)
        item.setLabel("bottom", "Battle")
        item.setLabel("left", unit)
        self.curves: dict[int, pg.PlotDataItem] = {}
        #: Per army: hollow rings on the points rebuilt as approximate (``ArmySeries``).
        self.approximate: dict[int, pg.PlotDataItem] = {}
        self.history: CampaignHistory | None = None
        layout.addWidget(self.plot)
        follow_theme(self, self._recolour)

    def _recolour(self) -> None:
        """The background, the title, the axes and the legend in the theme's colours."""
        self.plot.setBackground(CHART_BG.hex())
        self.item.setTitle(self.title, color=CHART_TEXT.hex(), size="11pt")
        for axis in ("left", "bottom"):
            self.item.getAxis(axis).setPen(pg.mkPen(CHART_AXIS.hex()))
            self.item.getAxis(axis).setTextPen(pg.mkPen(CHART_TEXT.hex()))
        self.legend.setLabelTextColor(CHART_TEXT.hex())
        if self.history is not None:
            self.show_history(self.history)

    def show_history(self, history: CampaignHistory) -> None:
        self.history = history
        item = self.item
        for curve in (*self.curves.values(), *self.approximate.values()):
            item.removeItem(curve)
        self.legend.clear()
        self.curves.clear()
        self.approximate.clear()
        colours = army_colours(history)
        xs = list(range(len(history.labels)))
        for s in history.series:
            pen = pg.mkPen(colours[s.army_id], width=2)
            curve = item.plot(xs, list(getattr(s, self.attr)), pen=pen)
            self.legend.addItem(curve, f"{s.army} ({s.player})")
            self.curves[s.army_id] = curve
            # Casualties and kills come from the stored results: only value and units alive
            # can be approximate.
            rough = [
                i for i, m in enumerate(s.approximate) if m and self.attr in ("value", "alive")
            ]
            if rough:
                ys = getattr(s, self.attr)
                self.approximate[s.army_id] = item.plot(
                    rough,
                    [ys[i] for i in rough],
                    pen=None,
                    symbol="o",
                    symbolSize=9,
                    symbolBrush=pg.mkBrush(CHART_BG.hex()),
                    symbolPen=pg.mkPen(colours[s.army_id], width=2),
                )
        if self.approximate:
            self.legend.addItem(
                next(iter(self.approximate.values())), "○ approximate (rebuilt, today's costs)"
            )
        n = len(xs)
        step = max(1, n // 12)
        ticks = [(i, "Start" if i == 0 else str(i)) for i in range(0, n, step)]
        item.getAxis("bottom").setTicks([ticks, [(i, str(i)) for i in range(1, n)]])
        item.getViewBox().setLimits(xMin=-0.5, xMax=max(1, n - 1) + 0.5)
        item.setXRange(-0.4, max(1, n - 1) + 0.4, padding=0)
        top = y_top(max((v for s in history.series for v in getattr(s, self.attr)), default=0))
        # A hair below 0, so that the axis's 0 is labelled (pyqtgraph hides a label on the edge).
        item.setYRange(-top * Y_FOOT, top, padding=0)

    def y_range(self) -> tuple[float, float]:
        """The y axis's range as shown: a hair below 0 to its top."""
        low, high = self.item.getViewBox().viewRange()[1]
        return low, high

    def export(self, path: str | os.PathLike[str]) -> Path:
        """Write the chart as ``.png`` or ``.svg`` (the file's ending chooses)."""
        target = Path(path)
        suffix = target.suffix.lower()
        if suffix not in (".png", ".svg"):
            raise UserError(f"'{target.name}': a chart exports as .png or .svg", field="path")
        # Rendered to memory and checked first: Qt says nothing when it cannot write, and
        # write_atomically checks every write and the size on disk before the rename.
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        if suffix == ".png":
            exporter = ImageExporter(self.plot.scene())
            exporter.parameters()["width"] = max(1200, int(self.plot.width()))
            image = exporter.export(toBytes=True)
            png = "PNG"  # a str at run time, whatever the stubs say (bytes are refused)
            if not isinstance(image, QImage) or not image.save(buffer, png):  # type: ignore[call-overload]
                raise UserError(
                    f"cannot write {target}: the chart could not be drawn", field="path"
                )
        else:
            self._export_svg(buffer)
        data = bytes(buffer.data().data())
        buffer.close()
        whole = (
            data.startswith(b"\x89PNG") if suffix == ".png" else data.rstrip().endswith(b"</svg>")
        )
        if not whole:
            raise UserError(f"cannot write {target}: the chart came out incomplete", field="path")
        write_atomically(target, data, field="path")
        return target

    def _export_svg(self, device: QIODevice) -> None:
        """The chart as drawn, in vector form (Qt's SVG generator: pyqtgraph's own SVG
        exporter cannot read Qt 6's paths)."""
        size = self.plot.size()
        gen = QSvgGenerator()
        gen.setOutputDevice(device)
        gen.setSize(size)
        gen.setViewBox(QRect(0, 0, size.width(), size.height()))
        gen.setTitle(self.title)
        painter = QPainter()
        if not painter.begin(gen):
            raise UserError("the chart could not be drawn as SVG", field="path")
        try:
            self.plot.render(painter)
        finally:
            painter.end()


class HistoryCharts(QWidget):
    """The four charts, one under the other."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("historyCharts")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.charts = [HistoryChart(t, a, u, self) for t, a, u in METRICS]
        for c in self.charts:
            c.setMinimumHeight(290)
            layout.addWidget(c)

    def show_history(self, history: CampaignHistory) -> None:
        for c in self.charts:
            c.show_history(history)

    def chart(self, attr: str) -> HistoryChart:
        return next(c for c in self.charts if c.attr == attr)
