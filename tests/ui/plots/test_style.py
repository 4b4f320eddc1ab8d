"""The charts follow the theme, and a chart already closed does not break a change of theme
(the guide's screenshots died with "'NoneType' object has no attribute 'getAxis'")."""

from __future__ import annotations

from ui import colours
from ui.appearance import ThemeMode, apply_theme


def test_a_closed_chart_lets_the_theme_change(qtbot) -> None:
    import pyqtgraph as pg

    from ui.plots.style import themed_plot

    apply_theme(ThemeMode.LIGHT)
    open_plot, closed_plot = pg.PlotWidget(), pg.PlotWidget()
    qtbot.addWidget(open_plot)
    for plot in (open_plot, closed_plot):
        themed_plot(plot)
    closed_plot.close()  # pyqtgraph drops its plot item; the widget lives on a while
    try:
        apply_theme(ThemeMode.DARK)
        assert open_plot.backgroundBrush().color().name() == colours.CHART_BG.hex().lower()
    finally:
        apply_theme(ThemeMode.LIGHT)
    assert open_plot.backgroundBrush().color().name() == colours.CHART_BG.hex().lower()
