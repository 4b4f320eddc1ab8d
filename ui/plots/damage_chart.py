"""A weapon's Damage against a plain minifig (Armor 4), and its kill chance per Action die.

This module imports pyqtgraph; import it only where the chart is shown (the catalog window
does so when the first weapon is selected), so BrikDesk starts without it. The numbers come
from ``brikdesk.domain.odds`` (exact fractions shown as percentages); ``damage_odds`` may run on
a worker thread.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import PySide6.QtWidgets  # noqa: F401  (PySide6 before pyqtgraph: it picks the binding)

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from brikdesk.domain.catalog import CatalogItem
from brikdesk.domain.dice import ACTION_DICE
from brikdesk.domain.odds import attack_odds, expr_distribution
from ui import colours
from ui.plots.style import themed_plot

#: A plain minifig's Armor (chapter 2, the unit table).
PLAIN_ARMOR = 4
#: The Damage chart shows totals up to where this much of the chance is left beyond.
TAIL = 0.002


@dataclass(frozen=True)
class DamageOdds:
    """What the chart shows for one weapon (percentages are exact odds as floats)."""

    name: str
    damage: str  # as written (may use dA)
    use: str
    chart_die: int  # the Action die the Damage chart assumes when it uses dA
    uses_action_die: bool
    armor: int
    totals: tuple[tuple[int, float], ...]  # (Damage, P(Damage = total) on a hit)
    tail: float  # P(Damage beyond the last total shown)
    kills: tuple[tuple[int, float, float], ...]  # (Action die, P(hit), P(kill))


def damage_odds(item: CatalogItem, armor: int = PLAIN_ARMOR, chart_die: int = 6) -> DamageOdds:
    """The odds the chart shows; raises ``UserError`` if the Damage can't be worked out."""
    expr = item.damage_expr
    assert expr is not None, "only items with a Damage roll have a chart"
    dist = expr_distribution(expr, chart_die)
    items = dist.float_items()
    shown: list[tuple[int, float]] = []
    left = 1.0
    for total, p in items:
        shown.append((max(total, 0), p))
        left -= p
        if left < TAIL and total > armor:
            break
    merged: dict[int, float] = {}
    for total, p in shown:  # totals below 0 count as 0 (1.2 Numbers)
        merged[total] = merged.get(total, 0.0) + p
    kills = []
    for die in ACTION_DICE:
        odds = attack_odds(die, item.use, expr, armor)
        kills.append((die, float(odds.hit), float(odds.kill)))
    return DamageOdds(
        item.name,
        item.damage,
        item.use_text(),
        chart_die,
        expr.uses_action_die,
        armor,
        tuple(sorted(merged.items())),
        max(left, 0.0),
        tuple(kills),
    )


def kill_table_html(odds: DamageOdds) -> str:
    head = "".join(f"<th>d{d}</th>" for d, _h, _k in odds.kills)
    hit = "".join(f"<td>{h:.0%}</td>" for _d, h, _k in odds.kills)
    kill = "".join(f"<td><b>{k:.0%}</b></td>" for _d, _h, k in odds.kills)
    return (
        "<table cellspacing='0' cellpadding='3'>"
        f"<tr><th align='left'>Action die</th>{head}</tr>"
        f"<tr><td>Hit (Use {odds.use})</td>{hit}</tr>"
        f"<tr><td>Kill (Armor {odds.armor})</td>{kill}</tr></table>"
    )


class DamageChart(QWidget):
    """Bars of P(Damage = n) on a hit; red where it beats Armor 4. Below: hit and kill
    chances for each Action die."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("damageChart")
        self.odds: DamageOdds | None = None
        pg.setConfigOptions(antialias=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel(self)
        self.title.setObjectName("chartTitle")
        self.title.setWordWrap(True)
        layout.addWidget(self.title)
        self.plot = pg.PlotWidget(self)
        self.plot.setObjectName("damagePlot")
        self.plot.setMinimumHeight(170)
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        item = self.plot.getPlotItem()
        font = QFont()
        font.setPointSizeF(max(font.pointSizeF() * 0.85, 7.0))
        for name in ("left", "bottom"):
            axis = item.getAxis(name)
            axis.setStyle(tickFont=font)
        item.setLabel("bottom", "Damage on a hit")
        item.setLabel("left", "chance", units="%")
        item.showGrid(y=True, alpha=0.25)
        self._bars: pg.BarGraphItem | None = None
        self._armor_line = pg.InfiniteLine(
            angle=90,
            movable=False,
            label="Armor 4",
            labelOpts={"position": 0.94},
        )
        item.addItem(self._armor_line)
        themed_plot(self.plot, (self._armor_line,), then=self._recolour)
        layout.addWidget(self.plot, 1)
        self.kills = QLabel(self)
        self.kills.setObjectName("killTable")
        self.kills.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.kills)

    def _recolour(self) -> None:
        if self.odds is not None:
            self.show_odds(self.odds)

    def show_odds(self, odds: DamageOdds) -> None:
        self.odds = odds
        die = f" with a d{odds.chart_die} Action die (a minifig)" if odds.uses_action_die else ""
        self.title.setText(
            f"<b>{odds.name}</b>: Damage {odds.damage}{die} against a plain "
            f"minifig, Armor {odds.armor}. Red: kills."
        )
        xs = [t for t, _p in odds.totals]
        ys = [p * 100 for _t, p in odds.totals]
        kill, save = colours.CHART_KILL.hex(), colours.CHART_SAVE.hex()
        brushes = [pg.mkBrush(kill if t > odds.armor else save) for t in xs]
        item = self.plot.getPlotItem()
        if self._bars is not None:
            item.removeItem(self._bars)
        self._bars = pg.BarGraphItem(
            x=xs, height=ys, width=0.8, brushes=brushes, pen=pg.mkPen(None)
        )
        item.addItem(self._bars)
        self._armor_line.setPos(odds.armor + 0.5)
        self._armor_line.label.setFormat(f"Armor {odds.armor}")
        item.setXRange(min(xs + [0]) - 0.7, max(xs + [odds.armor + 1]) + 0.7, padding=0)
        item.setYRange(0, max(ys + [1]) * 1.3, padding=0)  # room for the Armor label
        self.kills.setText(kill_table_html(odds))
