"""The armies' records on screen: the charts ring the approximate points, the overview shows each
army's value before any battle."""

from __future__ import annotations

from brikdesk.domain.aftermath import BattleResult, UnitFate
from brikdesk.domain.history import ArmyRecord, BattleRecord, PoolUnit, RecordUnit, build_history
from tests.domain.history_players import ANN, ARMIES, BO, PLAYERS, t
from ui.windows.standings import standings_html


def _history():
    """Battle 1 was finished with its numbers stored for the Owls; the Bats' new recruit Wing
    was never mustered, so their rebuilt points count him at today's cost: approximate."""
    pool = [
        PoolUnit(1, "Hoot", 10, "alive", 11),
        PoolUnit(3, "Fang", 20, "dead", 4),
        PoolUnit(4, "Wing", 20, "alive", 4),
    ]
    units = (RecordUnit(101, "Hoot", ANN, 1, 4, 11), RecordUnit(103, "Fang", BO, 3, 4, 4))
    battle = BattleRecord(
        1,
        "Battle 1",
        t(1),
        ((ANN, "Ann"), (BO, "Bo")),
        units,
        BattleResult((UnitFate(101, promote_to="hero"), UnitFate(103, "dead", 101)), ANN),
        (ArmyRecord(10, 4, 11, 1, 1, 0, 0, 0, 1),),
    )
    return build_history(1, "War", "CP", PLAYERS, ARMIES, pool, [battle])


def test_the_charts_ring_only_the_approximate_points(qtbot) -> None:
    from ui.plots.history_charts import HistoryCharts

    h = _history()
    owls, bats = h.series
    assert owls.value == (4, 11) and owls.approximate == (False, False)
    assert bats.value == (8, 4) and bats.approximate == (True, True)
    charts = HistoryCharts()
    qtbot.addWidget(charts)
    charts.show_history(h)
    chart = charts.chart("value")
    assert set(chart.approximate) == {20}
    xs, ys = chart.approximate[20].getData()
    assert list(xs) == [0, 1] and list(ys) == [8, 4]
    assert charts.chart("kills").approximate == {}  # kills come from the stored results


def test_the_overview_shows_each_armys_value_before_any_battle() -> None:
    html = standings_html(_history())
    assert "Each army before any battle: Owls (Ann) 4 CP, Bats (Bo) ≈8 CP" in html
