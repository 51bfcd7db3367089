"""Readable charts: titles wrap, categories are points, whole numbers get whole ticks, and every
line colour stands out on white (WCAG 2.1 contrast of at least 3:1 for graphical objects)."""

from __future__ import annotations

import matplotlib.colors as mcolors
import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.container import ErrorbarContainer
from matplotlib.lines import Line2D

from analysis.chart_style import DRAW_COLOR, PALETTE, contrast_on_white, series_color
from analysis.charts import standard_plots
from analysis.plots import plot_duration_curve, plot_win_rate_curve
from analysis.results import read_results
from sim.run.records import DRAW
from sim.run.summary import wilson_interval

LONG_NAME = "Cat versus the hamster band, with spears, shields and a long name for the title"


def test_the_contrast_ratio_is_the_wcag_one():
    assert contrast_on_white("white") == pytest.approx(1.0)
    assert contrast_on_white("black") == pytest.approx(21.0)
    # WCAG's own example values: #767676 is the lightest grey with 4.5:1 on white.
    assert contrast_on_white("#767676") == pytest.approx(4.54, abs=0.01)
    # matplotlib's default orange fails 3:1; that is why the palette darkens it.
    assert contrast_on_white("C1") < 3


def test_every_line_colour_passes_three_to_one_on_white():
    colours = [*PALETTE, DRAW_COLOR, *(series_color(i, 9) for i in range(9))]
    for colour in colours:
        assert contrast_on_white(colour) >= 3, mcolors.to_hex(colour)


@pytest.mark.parametrize("fixture", ["run_dir", "hp_sweep_dir", "grid_sweep_dir"])
def test_every_line_drawn_in_the_standard_charts_passes(request, fixture):
    results = read_results(request.getfixturevalue(fixture))
    for plot in standard_plots(results):
        for ax in plot.figure.axes[:1]:
            for line in ax.get_lines():
                if line.get_label().startswith("_") and line.get_color() in ("black", "grey"):
                    continue
                assert contrast_on_white(line.get_color()) >= 3, (plot.stem, line.get_label())


def _drawn(figure) -> FigureCanvasAgg:
    canvas = FigureCanvasAgg(figure)
    canvas.draw()  # lays out the text and the ticks
    return canvas


def _inside(figure) -> bool:
    renderer = _drawn(figure).get_renderer()
    box = figure.bbox
    title = figure.axes[0].title.get_window_extent(renderer)
    return box.x0 - 1 <= title.x0 and title.x1 <= box.x1 + 1


@pytest.mark.parametrize("fixture", ["run_dir", "hp_sweep_dir", "grid_sweep_dir"])
def test_a_long_scenario_name_wraps_instead_of_running_off(request, fixture, tmp_path):
    results = read_results(request.getfixturevalue(fixture))
    results.meta = {**results.meta, "scenario": LONG_NAME}
    for plot in standard_plots(results):
        title = plot.figure.axes[0].get_title()
        assert LONG_NAME.split()[-1] in title  # shown whole, not cut
        assert _inside(plot.figure), (plot.stem, title)


def _categorical_rates() -> pd.DataFrame:
    rows = []
    for point, keep, wins in ((0, "lowest_three", 100), (1, "best_set", 190)):
        for side, won in (("cat", wins), ("hamsters", 200 - wins), (DRAW, 0)):
            low, high = wilson_interval(won, 200)
            rows.append(
                {"point": point, "keep": keep, "side": side, "wins": won, "runs": 200,
                 "win_rate": won / 200, "ci_low": low, "ci_high": high, "mean_duration_s": 9.0}
            )  # fmt: skip
    return pd.DataFrame(rows)


def test_a_categorical_sweep_is_points_with_error_bars_not_a_line():
    rates = _categorical_rates()
    ax = plot_win_rate_curve(rates, "keep", ("cat", "hamsters")).axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["lowest_three", "best_set"]
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 2 and not ax.collections[2:]  # no band between the categories
    for container in bars:
        line = container.lines[0]
        assert line.get_linestyle() == "None"  # points only, nothing joins them
        assert len(line.get_xdata()) == 2
    cat = next(c for c in bars if c.get_label().startswith("cat"))
    low, high = wilson_interval(190, 200)
    segment = cat.lines[2][0].get_segments()[1]
    assert segment[0][1] == pytest.approx(low) and segment[1][1] == pytest.approx(high)


def test_a_categorical_duration_curve_is_points_too():
    outcomes = pd.DataFrame(
        {"keep": ["lowest_three"] * 3 + ["best_set"] * 3, "duration_s": [1, 2, 3, 4, 5, 6.0]}
    )
    ax = plot_duration_curve(outcomes, "keep").axes[0]
    assert not [line for line in ax.get_lines() if line.get_linestyle() not in ("None", "")]
    (bars,) = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert list(bars.lines[0].get_ydata()) == [2, 5]


def test_whole_number_parameters_get_whole_number_ticks():
    rates = _categorical_rates().assign(keep=lambda f: f["point"] + 1)  # values 1 and 2
    figure = plot_win_rate_curve(rates, "keep", ("cat", "hamsters"))
    _drawn(figure)
    ticks = [t for t in figure.axes[0].get_xticks() if 1 <= t <= 2]
    assert ticks and all(float(t).is_integer() for t in ticks)
    assert [line for line in figure.axes[0].get_lines() if isinstance(line, Line2D)]
    assert np.allclose(figure.axes[0].get_lines()[0].get_xdata(), [1, 2])
