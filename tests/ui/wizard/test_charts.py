"""The Action Roll chart's "needs N": for every Action die and every number the chart can show
on it, the label hangs over the bars and never covers one, on the chart's laptop size and on
a shorter one."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QWidget

from brikdesk.domain.dice import ACTION_DICE
from brikdesk.domain.odds import attack_odds
from ui.wizard.charts import action_bars, make_action_chart, over_the_top_faces

#: The Action Roll page's chart at 1366x768, and one a smaller screen gives it.
SIZES = [(580, 130), (420, 96)]


def bar_rects(chart) -> list[QRectF]:
    """Each bar drawn, in scene coordinates."""
    opts = chart.bars.opts
    return [
        chart.bars.mapRectToScene(QRectF(x - opts["width"] / 2, 0, opts["width"], height))
        for x, height in zip(opts["x"], opts["height"], strict=True)
    ]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_needs_label_covers_no_bar_for_any_die_and_number(qtbot, width, height) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    chart = make_action_chart(host)
    chart.resize(width, height)
    host.show()
    qtbot.waitExposed(host)
    checked: list[tuple[int, int]] = []
    for die in sorted(ACTION_DICE):
        faces = [face for face, _p in attack_odds(die, 2, "1d6", 4).action_totals]
        # From "only a natural 1 fails" to one beyond the highest face (a d4's bonus dice
        # included): the line right of the last bar.
        for need in range(2, max(faces) + 2):
            odds = attack_odds(die, need, "1d6", 4)
            totals = [(t, float(p)) for t, p in odds.action_totals]
            ott = over_the_top_faces(die, odds.over_the_top > 0)
            chart.show_bars(action_bars(totals, 0, need), need - 0.5, f"needs {need}", ott)
            chart.grab()  # lays the plot out and places the label
            label = chart.line.label
            assert label.isVisible() and label.toPlainText() == f"needs {need}"
            where = label.sceneBoundingRect()
            plot = chart.getPlotItem().vb.sceneBoundingRect()
            assert plot.contains(where), (die, need, where, plot)
            bars = bar_rects(chart)
            assert len(bars) == len(totals)
            covered = [r for r in bars if r.height() > 0 and r.intersects(where)]
            assert covered == [], (die, need, where, covered)
            checked.append((die, need))
    assert {die for die, _need in checked} == set(ACTION_DICE)
