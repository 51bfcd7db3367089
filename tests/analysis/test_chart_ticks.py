"""Every chart's tick labels read the values at their ticks, on every kind of chart.

Each chart of every kind is drawn; for each of its axes (colour bars included) the labels of the
ticks in view are read back with their positions, and each numeric label must be its tick's
value, exactly: "2.5%" at 0.025, "20" at 20. An axis whose labels were set as names (a category,
a strategy) must have one name a tick. Each numeric axis is also zoomed in a few times, so that a
formatter that rounds (2.5% shown as "2%") fails whatever the data happen to span.
"""

from __future__ import annotations

import ast
import math

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.ticker import FixedFormatter, FuncFormatter, NullFormatter

from analysis.balance import find_balance
from analysis.chart_style import PercentTicks, decimals_for
from analysis.charts import standard_plots
from analysis.compare import compare
from analysis.plots import plot_balance, plot_duration_curve, plot_hp_left, plot_win_rate_curve
from analysis.results import read_results
from analysis.sensitivity_plots import plot_sobol, plot_tornado
from analysis.tournament_plot import plot_tournament
from sim.run.choices import Execution
from sim.run.summary import wilson_interval
from tests.conftest import ROOT, SCENARIOS

#: Modules whose ``plot_*`` functions draw a chart kind; each kind is checked below.
CHART_MODULES = ("plots", "comparison_view", "sensitivity_plots", "tournament_plot")
ZOOMS = (1, 3, 7, 13)


def _label_value(text: str) -> float:
    text = text.replace("\u2212", "-").replace(",", "")
    if text.endswith("%"):
        return float(text[:-1]) / 100
    return float(text)


def _in_view(axis) -> list[float]:
    low, high = sorted(axis.get_view_interval())
    span = high - low
    near = 1e-9 * span
    return [float(v) for v in axis.get_majorticklocs() if low - near <= v <= high + near]


def _named(formatter) -> bool:
    """Whether the labels were given as names (``set_xticks(positions, labels)``)."""
    if isinstance(formatter, FixedFormatter):
        return True
    func = getattr(formatter, "func", None)
    return getattr(getattr(func, "func", None), "__name__", "") == "_format_with_dict"


def misread_ticks(axis) -> list[tuple[float, str]]:
    """The ticks in view whose label does not read the tick's value: ``(position, label)``."""
    formatter = axis.get_major_formatter()
    if isinstance(formatter, NullFormatter):
        return []
    locs = _in_view(axis)
    labels = formatter.format_ticks(locs)
    if _named(formatter):  # names: one a tick, none empty
        assert all(label.strip() for label in labels), labels
        return []
    assert not isinstance(formatter, FuncFormatter), formatter.func
    offset = formatter.get_offset() if hasattr(formatter, "get_offset") else ""
    assert not offset, f"an offset label ({offset}) changes what every tick reads"
    wrong = []
    for loc, label in zip(locs, labels, strict=True):
        if not label:
            continue
        value = _label_value(label)
        if not math.isclose(value, loc, rel_tol=1e-9, abs_tol=1e-12):
            wrong.append((loc, label))
    return wrong


def axes_misreading(figure) -> list[str]:
    """Every misread tick of a figure, drawn at its own limits and zoomed in."""
    FigureCanvasAgg(figure).draw()
    found = []
    for ax in figure.axes:
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            if not axis.get_visible() or not _in_view(axis):
                continue
            low, high = axis.get_view_interval()
            fixed = _named(axis.get_major_formatter())
            for zoom in ZOOMS if not fixed else (1,):
                axis.set_view_interval(low, low + (high - low) / zoom, ignore=True)
                found += [f"{ax.get_label() or ax.get_title()[:30]} {name} x{zoom}: {w}"
                          for w in misread_ticks(axis)]  # fmt: skip
            axis.set_view_interval(low, high, ignore=True)
    return found


# -- every chart kind -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def comparison_dir(tmp_path_factory):
    directory = tmp_path_factory.mktemp("comparison")
    compare(SCENARIOS / "acs-duel-tweaks.yaml", runs=150, seed=1).save(directory)
    return directory


def _tournament_summary() -> dict:
    payoff = [[0.5, 0.479, 0.781], [0.512, 0.498, 0.498], [0.226, 0.498, 0.498]]
    ci = [[list(wilson_interval(round(p * 1000), 1000)) for p in row] for row in payoff]
    names = ["charge", "hold", "withdraw"]
    return {
        "scenario": "tactics",
        "runs": 1000,
        "sides": {"rows": "red", "columns": "blue"},
        "rows": names,
        "columns": names,
        "payoff": payoff,
        "ci95": ci,
        "payoff_kind": "score",
        "mix": {"rows": {"charge": 0, "hold": 1, "withdraw": 0},
                "columns": {"charge": 0, "hold": 0.94, "withdraw": 0.06}},
        "eliminated": [{"side": "red", "strategy": "withdraw", "round": 1}],
        "value": 0.498,
        "value_ci95": [0.465, 0.53],
    }  # fmt: skip


def _effects() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "parameter": ["Cole STR", "saber bonus"],
            "low": [11, 0],
            "high": [19, 4],
            "rate_low": [0.21, 0.44],
            "rate_high": [0.83, 0.61],
            "change": [0.62, 0.17],
            "ci_low": [0.58, 0.14],
            "ci_high": [0.66, 0.2],
        }
    )


def _indices() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "parameter": ["Cole STR", "saber bonus", "combat target"],
            "first": [0.71, 0.12, -0.03],
            "first_low": [0.41, 0.02, -0.11],
            "first_high": [1.02, 0.24, 0.04],
            "total": [0.91, 0.19, 0.01],
            "total_low": [0.47, 0.09, -0.02],
            "total_high": [1.34, 0.30, 0.05],
        }
    )


@pytest.fixture(scope="module")
def every_chart(run_dir, hp_sweep_dir, grid_sweep_dir, comparison_dir) -> dict[str, object]:
    """``kind name -> figure`` for every chart kind combatsim draws."""
    charts: dict[str, object] = {}
    for directory in (run_dir, hp_sweep_dir, grid_sweep_dir, comparison_dir):
        results = read_results(directory)
        for plot in standard_plots(results):
            charts[f"{results.kind}:{plot.stem}"] = plot.figure
    balance = find_balance(
        SCENARIOS / "acs-duel-hp-sweep.yaml", "sides.red.combatants.0.hp", runs=60, refine_runs=60,
        points=5, execution=Execution(workers=1),
    )  # fmt: skip
    charts["balance"] = plot_balance(balance)
    charts["tournament"] = plot_tournament(_tournament_summary())
    charts["tornado"] = plot_tornado(_effects(), 0.52, "soldier", "Cole")
    charts["sobol"] = plot_sobol(_indices(), "soldier", "Cole")
    return charts


def _chart_functions() -> set[str]:
    names = set()
    for module in CHART_MODULES:
        tree = ast.parse((ROOT / "analysis" / f"{module}.py").read_text(encoding="utf-8"))
        names |= {
            node.name
            for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("plot_")
        }
    return names


#: The chart functions behind each kind name of :func:`every_chart`.
DRAWN_BY = {
    "win_rates": "plot_win_rates",
    "fight_length": "plot_fight_length",
    "survival": "plot_survival",
    "hp_left": "plot_hp_left",
    "win_rate_curve": "plot_win_rate_curve",
    "duration_curve": "plot_duration_curve",
    "heatmap": "plot_win_rate_heatmap",
    "win_rate_lines": "plot_win_rate_lines",
    "arm_win_rates": "plot_arm_win_rates",
    "paired_differences": "plot_paired_differences",
    "balance": "plot_balance",
    "tournament": "plot_tournament",
    "tornado": "plot_tornado",
    "sobol": "plot_sobol",
}


def test_every_chart_kind_is_drawn_here(every_chart):
    drawn = set()
    for name in every_chart:
        stem = name.split(":")[-1]
        key = next(k for k in DRAWN_BY if stem == k or stem.startswith(k + "_"))
        drawn.add(DRAWN_BY[key])
    assert drawn == _chart_functions()


def test_every_tick_label_reads_the_value_at_its_tick(every_chart):
    wrong = {name: found for name, f in every_chart.items() if (found := axes_misreading(f))}
    assert not wrong, wrong


def test_colour_bars_are_read_too(every_chart):
    """The heat maps' and the tournament's colour scales are axes of their figures, read above."""
    for name in ("tournament", *(n for n in every_chart if ":heatmap" in n)):
        figure = every_chart[name]
        FigureCanvasAgg(figure).draw()
        (bar,) = [ax for ax in figure.axes if ax.get_label() == "<colorbar>"]
        assert isinstance(bar.yaxis.get_major_formatter(), PercentTicks), name
        assert len(_in_view(bar.yaxis)) >= 3, name


# -- the cases the issue reported -----------------------------------------------------------


def test_a_percent_axis_of_two_and_a_half_point_ticks_reads_them_exactly():
    formatter = PercentTicks()
    assert formatter.format_ticks([0, 0.025, 0.05, 0.075, 0.1]) == [
        "0.0%", "2.5%", "5.0%", "7.5%", "10.0%"
    ]  # fmt: skip
    assert formatter.format_ticks([0, 0.25, 0.5, 0.75, 1]) == ["0%", "25%", "50%", "75%", "100%"]
    assert formatter.format_ticks([-1e-17, 0.2]) == ["0%", "20%"]
    assert decimals_for([0.1 + 0.2, 1]) == 1


def test_the_hp_left_chart_of_a_long_fight_reads_its_percent_ticks(run_dir):
    """The reported chart: shares of a few percent, ticks every 2.5%."""
    outcomes = read_results(run_dir).outcomes
    rng = np.random.default_rng(0)
    spread = outcomes.assign(hp_left_red=rng.integers(0, 40, len(outcomes)),
                             hp_left_blue=rng.integers(0, 40, len(outcomes)))  # fmt: skip
    figure = plot_hp_left(spread, ("red", "blue"))
    assert not axes_misreading(figure)


def _rates(values) -> pd.DataFrame:
    rows = []
    for point, value in enumerate(values):
        for side, wins in (("red", 50 + 5 * point), ("blue", 150 - 5 * point)):
            low, high = wilson_interval(wins, 200)
            rows.append({"point": point, "start": value, "side": side, "wins": wins, "runs": 200,
                         "win_rate": wins / 200, "ci_low": low, "ci_high": high})  # fmt: skip
    return pd.DataFrame(rows)


@pytest.mark.parametrize("values", [(20, 30, 40), (0.5, 1, 2, 3, 6), tuple(range(12, 37))])
def test_a_sweep_is_ticked_at_its_swept_values(values):
    figure = plot_win_rate_curve(_rates(values), "start", ("red", "blue"))
    FigureCanvasAgg(figure).draw()
    ticks = _in_view(figure.axes[0].xaxis)
    assert set(ticks) <= set(map(float, values)) and len(ticks) >= min(len(values), 9)
    lengths = np.arange(3 * len(values))
    outcomes = pd.DataFrame({"start": np.repeat(values, 3), "duration_s": lengths})
    duration = plot_duration_curve(outcomes, "start")
    FigureCanvasAgg(duration).draw()
    assert set(_in_view(duration.axes[0].xaxis)) <= set(map(float, values))
    assert not axes_misreading(figure) and not axes_misreading(duration)


def test_sobol_intervals_past_zero_and_one_are_cut_and_said_so():
    figure = plot_sobol(_indices(), "soldier", "Cole")
    ax = figure.axes[0]
    low, high = ax.get_xlim()
    assert low >= -0.05 and high <= 1.05
    for collection in ax.collections:  # the error bars
        for segment in collection.get_segments():
            assert all(-1e-12 <= x <= 1 + 1e-12 for x, _ in segment)
    label = ax.get_xlabel()
    assert "cut at 0 and 1" in label and "1.34" in label and "-0.11" in label
    within = _indices().assign(first_low=0.0, total_low=0.0, first_high=0.9, total_high=0.95,
                               first=lambda f: f["first"].clip(0, 1))  # fmt: skip
    assert "cut" not in plot_sobol(within, "soldier", "Cole").axes[0].get_xlabel()
