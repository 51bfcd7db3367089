"""Charts: the files exist, and the figures hold the expected axes, series and error bars."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner
from matplotlib.collections import PolyCollection
from matplotlib.container import BarContainer, ErrorbarContainer
from scipy.stats import t as t_dist

from analysis.charts import draw_results, standard_plots
from analysis.plots import (
    plot_fight_length,
    plot_hp_left,
    plot_survival,
    plot_win_rate_curve,
    plot_win_rate_heatmap,
    plot_win_rates,
    survival,
)
from analysis.results import read_results
from analysis.sweep import win_rates
from sim.cli.app import cli
from sim.run.summary import summarize, wilson_interval


def legend_labels(ax):
    return ax.get_legend_handles_labels()[1]


def test_win_rate_bars_carry_wilson_intervals(run_dir):
    outcomes = read_results(run_dir).outcomes
    ax = plot_win_rates(outcomes, ("red", "blue"), "ACS duel").axes[0]
    assert ax.get_xlabel() == "side" and ax.get_ylabel() == "win rate"
    assert "Win rate per side" in ax.get_title() and "ACS duel" in ax.get_title()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["red", "blue"]
    (bars,) = [c for c in ax.containers if isinstance(c, BarContainer)]
    (errors,) = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    counts = outcomes["winner"].value_counts()
    for bar, side in zip(bars, ("red", "blue"), strict=True):
        assert bar.get_height() == pytest.approx(counts[side] / 400)
    segments = errors.lines[2][0].get_segments()
    for segment, side in zip(segments, ("red", "blue"), strict=True):
        low, high = wilson_interval(int(counts[side]), 400)
        assert segment[0][1] == pytest.approx(low) and segment[1][1] == pytest.approx(high)
    assert "95% CI (Wilson)" in legend_labels(ax)


def test_win_rate_curve_has_a_line_and_a_band_per_side(hp_sweep):
    rates = hp_sweep.rates()
    ax = plot_win_rate_curve(rates, "red hp", ("red", "blue"), "hp sweep", target=0.5).axes[0]
    assert ax.get_xlabel() == "red hp" and ax.get_ylabel() == "win rate"
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert {"red", "blue"} <= set(lines)
    red = rates[rates["side"] == "red"].sort_values("red hp")
    assert list(lines["red"].get_xdata()) == list(range(12, 37, 3))
    assert np.allclose(lines["red"].get_ydata(), red["win_rate"])
    bands = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert sorted(b.get_label() for b in bands) == ["blue 95% CI", "red 95% CI"]
    red_band = next(b for b in bands if b.get_label() == "red 95% CI")
    ys = red_band.get_paths()[0].vertices[:, 1]
    assert ys.min() == pytest.approx(red["ci_low"].min())
    assert ys.max() == pytest.approx(red["ci_high"].max())


def test_heat_map_shows_each_point_of_the_grid(grid_sweep_dir):
    results = read_results(grid_sweep_dir)
    rates = win_rates(results.outcomes, results.side_names, ["point", "goblins", "guard defense"])
    figure = plot_win_rate_heatmap(rates, "goblins", "guard defense", "goblins", "grid")
    ax = figure.axes[0]
    assert ax.get_xlabel() == "goblins" and ax.get_ylabel() == "guard defense"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["6", "8", "10"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["20", "40"]
    shown = np.asarray(ax.images[0].get_array())
    goblins = rates[rates["side"] == "goblins"]
    for (y, x), value in np.ndenumerate(shown):
        at = (goblins["goblins"] == (6, 8, 10)[x]) & (goblins["guard defense"] == (20, 40)[y])
        row = goblins[at]
        assert value == pytest.approx(row["win_rate"].iloc[0])
    assert len(ax.texts) == 6 and all("±" in t.get_text() for t in ax.texts)
    assert figure.axes[1].get_ylabel() == "goblins win rate"  # the colour bar


def test_survival_curve_is_the_share_still_running(run_dir):
    outcomes = read_results(run_dir).outcomes
    t, s = survival(outcomes["duration_s"])
    assert s[0] == 1 and s[-1] == 0 and np.all(np.diff(s) <= 0)
    halfway = np.searchsorted(t, outcomes["duration_s"].median(), side="right") - 1
    assert s[halfway] == pytest.approx((outcomes["duration_s"] > t[halfway]).mean())
    ax = plot_survival(outcomes, scenario="duel").axes[0]
    assert ax.get_xlabel() == "game seconds"
    assert ax.get_ylabel() == "share of fights still running"
    assert legend_labels(ax) == ["all fights", "95% band (DKW)"]


def test_fight_length_is_stacked_by_winner(run_dir):
    outcomes = read_results(run_dir).outcomes
    ax = plot_fight_length(outcomes, ("red", "blue")).axes[0]
    assert ax.get_xlabel() == "fight length (game seconds)" and ax.get_ylabel() == "fights"
    stacks = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert len(stacks) == 2  # red won, blue won (no draws)
    top = sum(bar.get_y() + bar.get_height() for bar in stacks[-1])
    assert top == pytest.approx(400)
    labels = legend_labels(ax)
    assert {"red won", "blue won"} <= set(labels)
    mean = outcomes["duration_s"].mean()
    assert f"mean {mean:.2f} s" in labels


def test_hit_points_left_is_the_tables_hp_left_with_its_interval(run_dir):
    results = read_results(run_dir)
    outcomes = results.outcomes
    ax = plot_hp_left(outcomes, ("red", "blue")).axes[0]
    assert ax.get_xlabel() == "hit points left on the side's standing combatants at the end"
    summary = summarize(outcomes, ("red", "blue"), "duel", 3)
    labels = legend_labels(ax)
    for side in ("red", "blue"):
        values = outcomes[f"hp_left_{side}"].to_numpy(dtype=float)
        # The chart's mean is the table's "hp left": over all fights, a lost one counting 0.
        mean = summary["sides"][side]["mean_hp_left"]
        assert f"{side}: mean {mean:.1f}" in labels
        (line,) = [
            line for line in ax.get_lines() if line.get_label() == f"{side}: mean {mean:.1f}"
        ]
        assert line.get_xdata()[0] == pytest.approx(mean)
        half = t_dist.ppf(0.975, len(values) - 1) * values.std(ddof=1) / np.sqrt(len(values))
        assert f"  95% CI {mean - half:.1f}–{mean + half:.1f}" in labels
        assert f"{side}: 0 hp left in {np.mean(values == 0):.0%} of fights" in labels


def test_fight_length_marks_the_mean_with_its_interval(run_dir):
    durations = read_results(run_dir).outcomes["duration_s"].to_numpy(dtype=float)
    ax = plot_fight_length(read_results(run_dir).outcomes, ("red", "blue")).axes[0]
    assert "distribution" in ax.get_title()
    half = t_dist.ppf(0.975, len(durations) - 1) * durations.std(ddof=1) / np.sqrt(400)
    (band,) = [p for p in ax.patches if p.get_label().startswith("its 95% CI")]
    assert band.get_x() == pytest.approx(durations.mean() - half)
    assert band.get_x() + band.get_width() == pytest.approx(durations.mean() + half)


def test_many_survival_curves_give_their_band_in_the_legend(hp_sweep):
    outcomes = hp_sweep.outcomes
    ax = plot_survival(outcomes, by="red hp").axes[0]
    per_point = outcomes.groupby("red hp").size().iloc[0]
    eps = np.sqrt(np.log(2 / 0.05) / (2 * per_point))
    assert f"± {eps:.1%}: 95% DKW band" in ax.get_legend().get_title().get_text()


@pytest.mark.parametrize(
    ("fixture", "stems"),
    [
        ("run_dir", ["win_rates", "fight_length", "survival", "hp_left"]),
        ("hp_sweep_dir", ["win_rate_curve", "duration_curve", "survival"]),
        ("grid_sweep_dir", ["heatmap_0_goblins", "heatmap_1_guards", "win_rate_lines"]),
    ],
)
def test_plot_files_are_written_for_every_kind_of_results(request, tmp_path, fixture, stems):
    results = read_results(request.getfixturevalue(fixture))
    assert [p.stem for p in standard_plots(results)] == stems
    written = draw_results(results, tmp_path)
    names = sorted(f"{s}.{e}" for s in stems for e in ("png", "svg"))
    assert sorted(p.name for p in written) == names
    for path in written:
        data = path.read_bytes()
        assert len(data) > 5000
        if path.suffix == ".png":
            assert data.startswith(b"\x89PNG")
        else:
            assert b"<svg" in data[:2000]


def test_combatsim_plot_redraws_from_saved_results(run_dir, tmp_path):
    args = ["plot", str(run_dir), "--out", str(tmp_path), "--format", "png"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "fight_length.png", "hp_left.png", "survival.png", "win_rates.png",
    ]  # fmt: skip


def test_combatsim_plot_refuses_a_directory_without_results(tmp_path):
    result = CliRunner().invoke(cli, ["plot", str(tmp_path)])
    assert result.exit_code == 2
    assert "no outcomes.parquet" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(cli, ["plot", str(tmp_path / "missing")])
    assert result.exit_code == 2 and "no such directory" in result.output
