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
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPaintEvent,
    QPen,
    QPixmap,
    QResizeEvent,
    QTextDocument,
)
from PySide6.QtWidgets import QGraphicsItem, QWidget

from ui.pictures import PictureTaker
from ui.static_texts import StaticTexts
from ui.wizard.widgets import BASE_PT, CRIT_COLOUR

HIT = "#2e7d32"
MISS = "#b0bac5"
OTT = "#d4a017"
KILL = "#c0392b"
SAVE = "#9aa5b1"


class SteadyAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph ships no type hints
    """pyqtgraph's axis, with its bounds worked out once per layout.

    Qt asks every item for its bounds at every paint of the chart; pyqtgraph's axis works
    them out again each time (its grid spans the plot). They depend only on where the axis and
    its plot sit, and on the tick length and label margin, so they are kept until one of those
    changes."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._bounds_for: tuple[object, ...] | None = None
        self._bounds = QRectF()

    def boundingRect(self) -> QRectF:
        view = self.linkedView()
        key = (
            self.geometry(),
            None if view is None else view.geometry(),
            self.grid,
            self.style["tickLength"],
            self.style["hideOverlappingLabels"],
        )
        if key != self._bounds_for:
            self._bounds_for, self._bounds = key, super().boundingRect()
        return QRectF(self._bounds)


class ChartMarks(pg.GraphicsObject):  # type: ignore[misc]  # pyqtgraph ships no type hints
    """The bars and the dashed line with its label, painted by one item.

    One item that paints a few rectangles, a line and a text costs far less to change and to
    paint than pyqtgraph's bar, line and label items (each a scene item with its own Python
    geometry, signals and paint). Its bounds are the chart's ranges: a new set of bars within
    the same ranges repaints the plot without touching the scene's geometry."""

    LINE_PEN_WIDTH = 2
    LABEL_AT = 0.92  # the label's height on the line, as a fraction of the plot's height
    LABEL_MARGIN = 4  # around the label's text, as pyqtgraph's text items

    def __init__(self) -> None:
        super().__init__()
        self._bounds = QRectF()
        self._bars: list[tuple[QBrush, list[QRectF]]] = []  # the bars of each colour
        self._outlined: list[QRectF] = []
        self._line_at: float | None = None
        self._text = ""
        self._label_width = 0.0
        self._edge = QPen(QColor(OTT), 4)
        self._edge.setCosmetic(True)
        self._dash = QPen(QColor("#222"), self.LINE_PEN_WIDTH, Qt.PenStyle.DashLine)
        self._dash.setCosmetic(True)
        self._label_fill = QColor(255, 255, 255, 220)
        self._label_pen = QPen(QColor("#222"))
        self.font = QFont()
        self.font.setPointSize(BASE_PT - 1)
        self.font.setBold(True)
        # The label's box as large as a text item's: its document's line and margins.
        document = QTextDocument()
        document.setDefaultFont(self.font)
        document.setDocumentMargin(self.LABEL_MARGIN)
        document.setPlainText("needs")
        self._label_height = document.size().height()
        self._metrics = QFontMetricsF(self.font)
        self._texts = StaticTexts(8)  # the labels shown lately ("needs 7"), laid out once
        self._rects: dict[tuple[float, float], QRectF] = {}  # a bar's, by place and height
        self._brushes: dict[str, QBrush] = {}  # by colour
        self._widths: dict[str, float] = {}  # a label's text's, by text ("needs 4"...)

    def value(self) -> float | None:
        """Where the dashed line is (``None``: no line)."""
        return self._line_at

    def show_marks(
        self,
        bars: Sequence[tuple[float, float, str]],
        outlined: Sequence[float],
        line_at: float | None,
        text: str,
        bounds: QRectF,
    ) -> None:
        """``bars``: ``(x, height, colour)``, 0.8 wide; the dashed line at ``line_at`` across
        ``bounds`` (the plot's ranges) with ``text`` by it."""
        if bounds != self._bounds:
            self.prepareGeometryChange()
            self._bounds = QRectF(bounds)
        edge = set(outlined)
        by_colour: dict[str, list[QRectF]] = {}
        self._outlined = []
        rects, brushes = self._rects, self._brushes
        for x, h, colour in bars:
            rect = rects.get((x, h))
            if rect is None:
                if len(rects) > 256:
                    rects.clear()
                rect = rects[(x, h)] = QRectF(x - 0.4, 0, 0.8, h)
            by_colour.setdefault(colour, []).append(rect)
            if x in edge:
                self._outlined.append(rect)
        for colour in by_colour:
            if colour not in brushes:
                brushes[colour] = QBrush(QColor(colour))
        self._bars = [(brushes[colour], rects) for colour, rects in by_colour.items()]
        self._line_at = line_at
        if text != self._text:
            self._text = text
            width = self._widths.get(text)
            if width is None:
                if len(self._widths) > 64:
                    self._widths.clear()
                width = self._widths[text] = self._metrics.horizontalAdvance(text)
            self._label_width = width + 2 * self.LABEL_MARGIN
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, *_args: object) -> None:
        """The line and its label first, the bars over them (as the chart always showed)."""
        if self._line_at is not None:
            x, bounds = self._line_at, self._bounds
            painter.setPen(self._dash)
            painter.drawLine(QPointF(x, bounds.top()), QPointF(x, bounds.bottom()))
            if self._text:
                self._paint_label(painter, x)
        painter.setPen(Qt.PenStyle.NoPen)
        for brush, rects in self._bars:
            painter.setBrush(brush)
            painter.drawRects(rects)
        if self._outlined:
            painter.setPen(self._edge)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRects(self._outlined)

    def _paint_label(self, painter: QPainter, x: float) -> None:
        """The label of the line at ``x``, upright in device pixels, on the side of the line
        with more room (as pyqtgraph's line labels)."""
        bounds = self._bounds
        at = painter.transform().map(QPointF(x, bounds.top() + bounds.height() * self.LABEL_AT))
        margin = self.LABEL_MARGIN
        width, height = self._label_width, self._label_height
        left = at.x() if x < bounds.center().x() else at.x() - width
        box = QRectF(left, at.y() - height / 2, width, height)
        painter.save()
        painter.resetTransform()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.fillRect(box, self._label_fill)
        painter.setFont(self.font)
        painter.setPen(self._label_pen)
        painter.drawStaticText(
            QPointF(box.left() + margin, box.top() + margin), self._texts.get(self._text, self.font)
        )
        painter.restore()


class _Shown:
    """What a chart shows (its bars, line and label), hashed once: a chart's picture is looked
    up by it at every paint."""

    __slots__ = ("key", "_hash")

    def __init__(self, key: tuple[object, ...] | None) -> None:
        self.key = key
        self._hash = hash(key)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Shown) and (self.key is other.key or self.key == other.key)


class BarChart(pg.PlotWidget):  # type: ignore[misc]  # pyqtgraph ships no type hints
    """Bars of chances in percent with one dashed line (the Use or the Armor)."""

    PICTURES_KEPT = 12  # about 0.5 MB each at the wizard's size

    def __init__(self, parent: QWidget | None = None, *, xlabel: str = "") -> None:
        super().__init__(
            parent,
            background="w",
            axisItems={name: SteadyAxis(name) for name in ("left", "bottom")},
        )
        self.setMenuEnabled(False)
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        item = self.getPlotItem()
        font = QFont()
        font.setPointSize(BASE_PT - 1)
        for name in ("left", "bottom"):
            axis = item.getAxis(name)
            axis.setTextPen(pg.mkPen("#333"))
            axis.setPen(pg.mkPen("#888"))
            axis.setStyle(tickFont=font)
            # The axes (and their grid) are drawn once per range: a new set of bars repaints
            # from the cached pixmap instead of replaying every tick.
            axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        style = {"font-size": f"{BASE_PT - 1}pt", "color": "#333"}
        item.setLabel("bottom", xlabel, **style)
        item.setLabel("left", "%", **style)
        item.showGrid(y=True, alpha=0.25)
        self._shown: tuple[object, ...] | None = None
        self._showing = _Shown(None)  # the same, hashed once (a picture's look)
        self._ranges: tuple[object, ...] | None = None
        #: The whole chart as painted, by what it showed and its size (see paintEvent).
        self._pictures: dict[tuple[object, ...], QPixmap] = {}
        self._taker = PictureTaker()  # its pictures of itself
        self._take_soon = False
        #: The bars and the dashed line; ``line.value()`` is where the line is.
        self.line = self.marks = ChartMarks()
        item.addItem(self.marks)
        self.bar_count = 0

    def paintEvent(self, event: QPaintEvent) -> None:
        """The chart from its picture when it shows what it showed before (a judgement
        changed back: the organizer tries one, then the other). Otherwise pyqtgraph paints
        it, and it takes its picture when the event loop is idle (as Qt renders it).
        pyqtgraph's view repaints the plot with Python calls for each item; a picture is one
        copy. The last few are kept, while the chart keeps its size and look."""
        if self._taker.taking:
            super().paintEvent(event)
            return
        look = self._look()
        picture = self._pictures.pop(look, None)
        if picture is not None:
            self._pictures[look] = picture  # the most recently used last
            painter = QPainter(self.viewport())
            painter.drawPixmap(0, 0, picture)
            painter.end()
            return
        super().paintEvent(event)
        if not self._take_soon:
            self._take_soon = True
            QTimer.singleShot(0, self, self._take)

    def _look(self) -> tuple[object, ...]:
        viewport = self.viewport()
        return (
            self._showing,
            self._ranges,
            viewport.size(),
            viewport.devicePixelRatioF(),
            self.isEnabled(),
            self.isActiveWindow(),
        )

    def _take(self) -> None:
        """The chart's picture of itself, as it paints now."""
        self._take_soon = False
        viewport = self.viewport()
        if not viewport.isVisible():
            return
        look = self._look()
        if look in self._pictures:
            return
        picture = self._taker.take(viewport, Qt.GlobalColor.white)  # the chart's background
        if len(self._pictures) >= self.PICTURES_KEPT:
            del self._pictures[next(iter(self._pictures))]  # the least recently used
        self._pictures[look] = picture

    def forget(self) -> None:
        """The chart's look changed (a resize, a new font or style): paint it again."""
        pictures = getattr(self, "_pictures", None)  # (none yet while pyqtgraph sets up)
        if pictures is not None:
            pictures.clear()

    def resizeEvent(self, event: QResizeEvent) -> None:
        self.forget()
        super().resizeEvent(event)

    def changeEvent(self, event: QEvent) -> None:
        self.forget()
        super().changeEvent(event)

    def show_bars(
        self,
        bars: Sequence[tuple[int, float, str]],
        line_at: float | None,
        line_text: str,
        outlined: Sequence[int] = (),
    ) -> None:
        """``bars``: ``(x, probability, colour)``; the dashed line at ``line_at``; bars at
        ``outlined`` totals get a thick gold edge (Over the Top)."""
        key = (tuple(bars), line_at, line_text, tuple(outlined))
        if key == self._shown:
            return
        self._shown = key
        self._showing = _Shown(key)
        self.bar_count = len(bars)
        if not bars:
            self.marks.hide()
            return
        heights = [(x, p * 100, c) for x, p, c in bars]
        lo: float = min(x for x, _h, _c in heights)
        hi: float = max(x for x, _h, _c in heights)
        if line_at is not None:
            lo, hi = min(lo, line_at), max(hi, line_at)
        x_range = (lo - 0.8, hi + 0.8)
        y_top = max(h for _x, h, _c in heights) * 1.18
        self.marks.show_marks(
            heights,
            outlined,
            line_at,
            line_text if line_at is not None else "",
            QRectF(x_range[0], 0, x_range[1] - x_range[0], y_top),
        )
        self.marks.show()
        if (x_range, y_top) != self._ranges:  # the axes re-tick only when the ranges move
            self._ranges = (x_range, y_top)
            item = self.getPlotItem()
            item.setXRange(*x_range, padding=0)
            item.setYRange(0, y_top, padding=0)


def action_bars(
    totals: Sequence[tuple[int, float]], action_mod: int, use: int | None
) -> list[tuple[int, float, str]]:
    """One bar per natural face of the Action die (a d4's bonus dice included), coloured by
    what it does with the modifiers: a natural 1 red (critical failure), a hit green, a miss
    grey. Faces, not totals, on the x axis: a change of modifier recolours the bars and moves
    the line without moving the axis."""
    out = []
    for total, p in totals:
        natural = total - action_mod
        if natural == 1:
            colour = CRIT_COLOUR
        elif use is not None and total >= use:
            colour = HIT
        else:
            colour = MISS
        out.append((natural, p, colour))
    return out


def over_the_top_faces(action_die: int, can: bool) -> list[int]:
    """The natural faces that go Over the Top (6 or more; never on a d4)."""
    if not can or action_die < 6:
        return []
    return list(range(6, action_die + 1))


def damage_bars(dist: Sequence[tuple[int, float, float]]) -> list[tuple[int, float, str]]:
    """Colour each Damage total by the chance it destroys: red where it always beats the
    Armor, grey where it never does, in between against rolled Armor (a Hero's 2d6)."""
    return [(t, p, _blend(SAVE, KILL, beats)) for t, p, beats in dist]


def _blend(a: str, b: str, x: float) -> str:
    ca = [int(a[i : i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i : i + 2], 16) for i in (1, 3, 5)]
    x = min(1.0, max(0.0, x))
    return "#" + "".join(f"{round(u + (v - u) * x):02x}" for u, v in zip(ca, cb, strict=True))


def make_action_chart(parent: QWidget) -> BarChart:
    chart = BarChart(parent, xlabel="natural face of the Action die")
    chart.setObjectName("actionChart")
    return chart


def make_damage_chart(parent: QWidget) -> BarChart:
    chart = BarChart(parent, xlabel="Damage on a hit")
    chart.setObjectName("damageChart")
    return chart
