"""Balance charts: what a designer looks at, each picture with its uncertainty shown.

Every function takes pandas tables and returns a :class:`matplotlib.figure.Figure` built with the
object-oriented API (no pyplot, no global figure state, no display needed), so tests inspect the
axes, labels, series and error bars, and :func:`save_figure` writes PNG and SVG. Intervals are
95% Wilson intervals for win rates; the survival curve's band is the
Dvoretzky-Kiefer-Wolfowitz band, which holds for the whole curve at once.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from analysis.sweep import win_rates
from sim.files import make_folder, write_atomically
from sim.records import DRAW

if TYPE_CHECKING:
    from analysis.balance import BalanceResult
    from analysis.results import Results

#: File formats :func:`save_figure` writes by default.
FORMATS = ("png", "svg")
DRAW_COLOR = "#9e9e9e"
CONFIDENCE = 0.95


def side_colors(side_names: Sequence[str]) -> dict[str, str]:
    """A fixed color per side (in scenario order), grey for draws."""
    colors = {side: f"C{i % 10}" for i, side in enumerate(side_names)}
    colors[DRAW] = DRAW_COLOR
    return colors


def _axes(width: float = 7.0, height: float = 4.2) -> tuple[Figure, Any]:
    figure = Figure(figsize=(width, height), layout="constrained")
    return figure, figure.add_subplot()


def _percent_axis(axis: Any) -> None:
    axis.set_major_formatter(PercentFormatter(1.0, decimals=0))


def _title(what: str, scenario: str | None) -> str:
    return f"{what} — {scenario}" if scenario else what


# -- one run ----------------------------------------------------------------------------------


def plot_win_rates(
    outcomes: pd.DataFrame, side_names: Sequence[str], scenario: str | None = None
) -> Figure:
    """Win rate per side (and draws, if any) as bars with 95% Wilson error bars."""
    rates = win_rates(outcomes, side_names)
    if rates.loc[rates["side"] == DRAW, "wins"].sum() == 0:
        rates = rates[rates["side"] != DRAW]
    figure, ax = _axes()
    colors = side_colors(side_names)
    x = np.arange(len(rates))
    rate = rates["win_rate"].to_numpy()
    ax.bar(x, rate, color=[colors[s] for s in rates["side"]], width=0.6, label="win rate")
    ax.errorbar(
        x,
        rate,
        yerr=[rate - rates["ci_low"].to_numpy(), rates["ci_high"].to_numpy() - rate],
        fmt="none",
        ecolor="black",
        capsize=8,
        label="95% CI (Wilson)",
    )
    for xi, (r, high) in enumerate(zip(rate, rates["ci_high"], strict=True)):
        ax.annotate(f"{r:.1%}", (xi, high), xytext=(0, 4), textcoords="offset points", ha="center")
    ax.set_xticks(x, list(rates["side"]))
    ax.set_xlabel("side")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, min(1.0, float(rates["ci_high"].max()) + 0.12) if len(rates) else 1)
    _percent_axis(ax.yaxis)
    ax.set_title(_title(f"Win rate per side ({len(outcomes)} combats)", scenario))
    ax.legend(loc="upper right")
    return figure


def plot_fight_length(
    outcomes: pd.DataFrame, side_names: Sequence[str], scenario: str | None = None
) -> Figure:
    """How long fights last: a histogram stacked by who won, with the mean marked."""
    figure, ax = _axes()
    colors = side_colors(side_names)
    durations = outcomes["duration_s"].to_numpy(dtype=float)
    edges = _bins(durations, step=0.1)
    series, labels, palette = [], [], []
    for side in [*side_names, DRAW]:
        chosen = outcomes.loc[outcomes["winner"] == side, "duration_s"].to_numpy(dtype=float)
        if len(chosen):
            series.append(chosen)
            labels.append(f"{side} won" if side != DRAW else "draw")
            palette.append(colors[side])
    if series:
        ax.hist(series, bins=edges, stacked=True, label=labels, color=palette)
        mean = float(durations.mean())
        ax.axvline(mean, color="black", linestyle=":", label=f"mean {mean:.2f} s")
    ax.set_xlabel("fight length (game seconds)")
    ax.set_ylabel("fights")
    ax.set_title(_title("Fight length", scenario))
    ax.legend(loc="upper right")
    return figure


def survival(durations: Sequence[float] | pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """``(t, S(t))``: the share of fights still running after each time ``t`` (a step curve).

    A draw at the time limit counts as still running at the limit (it never ended).
    """
    values = np.asarray(durations, dtype=float)
    n = len(values)
    if not n:
        return np.zeros(1), np.ones(1)
    times, ended = np.unique(values, return_counts=True)
    still = (n - np.cumsum(ended)) / n
    return np.concatenate([[0.0], times]), np.concatenate([[1.0], still])


def plot_survival(
    outcomes: pd.DataFrame,
    by: str | None = None,
    scenario: str | None = None,
    time_limit_s: float | None = None,
) -> Figure:
    """The share of fights still running after t seconds, with a 95% DKW band.

    With ``by`` (a sweep parameter), one curve per value; the band is drawn when there are at
    most three curves, to keep the picture readable.
    """
    figure, ax = _axes()
    if by is None:
        groups = [("all fights", outcomes)]
    else:
        groups = [(f"{by} = {key}", outcomes[outcomes[by] == key]) for key in _order(outcomes, by)]
    cmap = matplotlib.colormaps["viridis"]
    for i, (label, group) in enumerate(groups):
        color = "C0" if len(groups) == 1 else cmap(i / max(len(groups) - 1, 1))
        t, s = survival(group["duration_s"])
        ax.step(t, s, where="post", color=color, label=label)
        if len(groups) <= 3:
            eps = math.sqrt(math.log(2 / (1 - CONFIDENCE)) / (2 * len(group)))
            ax.fill_between(
                t,
                np.clip(s - eps, 0, 1),
                np.clip(s + eps, 0, 1),
                step="post",
                color=color,
                alpha=0.2,
                label=f"95% band (DKW){'' if len(groups) == 1 else ', ' + label}",
            )
    if time_limit_s is not None and outcomes["duration_s"].max() >= time_limit_s:
        ax.axvline(time_limit_s, color="grey", linestyle="--", label="time limit (draw)")
    ax.set_xlabel("game seconds")
    ax.set_ylabel("share of fights still running")
    ax.set_ylim(0, 1.02)
    ax.set_xlim(left=0)
    _percent_axis(ax.yaxis)
    ax.set_title(_title("Fights still running after t seconds", scenario))
    ax.legend(loc="upper right", fontsize="small", title=None if by is None else by)
    return figure


def plot_hp_left(
    outcomes: pd.DataFrame, side_names: Sequence[str], scenario: str | None = None
) -> Figure:
    """How close the fights were: the hit points the winning side had left, per side."""
    figure, ax = _axes()
    colors = side_colors(side_names)
    won = {
        side: outcomes.loc[outcomes["winner"] == side, f"hp_left_{side}"].to_numpy(dtype=float)
        for side in side_names
    }
    everything = np.concatenate([v for v in won.values() if len(v)] or [np.zeros(1)])
    edges = _bins(everything, step=1.0, start=0.5)
    for side, values in won.items():
        if not len(values):
            continue
        ax.hist(
            values,
            bins=edges,
            histtype="stepfilled",
            alpha=0.45,
            color=colors[side],
            edgecolor=colors[side],
            label=f"{side}: {len(values)} wins, median {np.median(values):g} hp left",
        )
    ax.set_xlabel("hit points left on the winning side (its standing combatants)")
    ax.set_ylabel("fights won")
    ax.set_xlim(left=0)
    ax.set_title(_title("Hit points left for the winners", scenario))
    ax.legend(loc="upper right", fontsize="small")
    return figure


def _bins(values: np.ndarray, step: float, start: float | None = None, most: int = 60) -> Any:
    """Bin edges on multiples of ``step`` (game time ticks, whole hit points), at most ``most``."""
    if not len(values):
        return 10
    # Edges half a step off the values' grid, so no value sits on an edge.
    low = math.floor(values.min() / step) * step - step / 2 if start is None else start
    high = values.max() + step
    width = step * max(1, math.ceil((high - low) / step / most))
    return np.arange(low, high + width, width)


def _numeric(values: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)


def _order(frame: pd.DataFrame, column: str) -> list[Any]:
    """A parameter's values in axis order: numbers sorted, anything else in the sweep's order."""
    if _numeric(frame[column]):
        return sorted(frame[column].unique())
    by_point = frame.sort_values("point", kind="stable") if "point" in frame else frame
    return list(pd.unique(by_point[column]))


def _in_order(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """The rows in the axis order of ``column`` (see :func:`_order`)."""
    rank = {value: i for i, value in enumerate(_order(frame, column))}
    return frame.iloc[np.argsort([rank[v] for v in frame[column]], kind="stable")]


# -- sweeps -----------------------------------------------------------------------------------


def _positions(values: pd.Series) -> tuple[np.ndarray, list[str] | None]:
    """Numeric x positions, and tick labels when the values are not numbers."""
    if _numeric(values):
        return values.to_numpy(dtype=float), None
    labels = [str(v) for v in values]
    return np.arange(len(labels), dtype=float), labels


def plot_win_rate_curve(
    rates: pd.DataFrame,
    parameter: str,
    side_names: Sequence[str],
    scenario: str | None = None,
    target: float | None = None,
) -> Figure:
    """Win rate per side against a swept parameter, each with its 95% confidence band.

    ``rates`` is :func:`analysis.sweep.win_rates` grouped by the parameter (and ``point``).
    """
    figure, ax = _axes()
    colors = side_colors(side_names)
    shown = list(side_names)
    if rates.loc[rates["side"] == DRAW, "wins"].sum() > 0:
        shown.append(DRAW)
    labels = None
    for side in shown:
        sub = _in_order(rates[rates["side"] == side], parameter)
        x, labels = _positions(sub[parameter])
        name = "draw" if side == DRAW else side
        ax.plot(x, sub["win_rate"], marker="o", color=colors[side], label=name)
        ax.fill_between(
            x, sub["ci_low"], sub["ci_high"], color=colors[side], alpha=0.2, label=f"{name} 95% CI"
        )
    if labels is not None:
        ax.set_xticks(np.arange(len(labels)), labels)
        ax.set_xlim(-0.5, len(labels) - 0.5)
    if target is not None:
        ax.axhline(target, color="black", linestyle="--", linewidth=1, label=f"{target:.0%}")
    runs = int(rates["runs"].max()) if len(rates) else 0
    ax.set_xlabel(parameter)
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    _percent_axis(ax.yaxis)
    ax.set_title(_title(f"Win rate against {parameter} ({runs} combats a point)", scenario))
    ax.legend(loc="best", fontsize="small")
    return figure


def plot_win_rate_lines(
    rates: pd.DataFrame,
    parameter: str,
    series: str,
    side: str,
    scenario: str | None = None,
) -> Figure:
    """One side's win rate against one parameter, one line (and band) per value of another."""
    figure, ax = _axes()
    sub = rates[rates["side"] == side]
    keys = _order(sub, series)
    cmap = matplotlib.colormaps["viridis"]
    labels = None
    for i, key in enumerate(keys):
        line = _in_order(sub[sub[series] == key], parameter)
        x, labels = _positions(line[parameter])
        color = cmap(i / max(len(keys) - 1, 1))
        ax.plot(x, line["win_rate"], marker="o", color=color, label=f"{series} = {key}")
        ax.fill_between(x, line["ci_low"], line["ci_high"], color=color, alpha=0.15)
    if labels is not None:
        ax.set_xticks(np.arange(len(labels)), labels)
        ax.set_xlim(-0.5, len(labels) - 0.5)
    ax.set_xlabel(parameter)
    ax.set_ylabel(f"{side} win rate (95% CI bands)")
    ax.set_ylim(0, 1)
    _percent_axis(ax.yaxis)
    ax.set_title(_title(f"{side} win rate against {parameter}", scenario))
    ax.legend(loc="best", fontsize="small")
    return figure


def plot_win_rate_heatmap(
    rates: pd.DataFrame, x: str, y: str, side: str, scenario: str | None = None
) -> Figure:
    """One side's win rate over a two-parameter grid; each cell shows the rate and its ± 95%.

    The colors diverge at 50%, so the even fights are the pale band across the map.
    """
    sub = rates[rates["side"] == side]
    rows, columns = _order(sub, y), _order(sub, x)
    grid = sub.pivot_table(index=y, columns=x, values="win_rate").reindex(rows)[columns]
    half = (
        sub.assign(half=(sub["ci_high"] - sub["ci_low"]) / 2)
        .pivot_table(index=y, columns=x, values="half")
        .reindex(rows)[columns]
    )
    figure, ax = _axes(7.0, 0.6 * len(grid.index) + 2.4)
    image = ax.imshow(grid.to_numpy(), origin="lower", cmap="RdBu", vmin=0, vmax=1, aspect="auto")
    shares, halves = grid.to_numpy(dtype=float), half.to_numpy(dtype=float)
    for row in range(grid.shape[0]):
        for col in range(grid.shape[1]):
            value = shares[row, col]
            if np.isnan(value):
                continue
            ink = "white" if abs(value - 0.5) > 0.3 else "black"
            ax.text(
                col,
                row,
                f"{value:.0%}\n±{halves[row, col]:.0%}",
                ha="center",
                va="center",
                color=ink,
                fontsize="x-small",
            )
    ax.set_xticks(np.arange(grid.shape[1]), [str(v) for v in grid.columns])
    ax.set_yticks(np.arange(grid.shape[0]), [str(v) for v in grid.index])
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    colorbar = figure.colorbar(image, ax=ax)
    colorbar.set_label(f"{side} win rate")
    colorbar.formatter = PercentFormatter(1.0, decimals=0)
    colorbar.update_ticks()
    ax.set_title(_title(f"{side} win rate", scenario))
    return figure


def plot_duration_curve(
    outcomes: pd.DataFrame, parameter: str, scenario: str | None = None
) -> Figure:
    """Mean fight length against a swept parameter, with a 95% band (normal approximation)."""
    stats = outcomes.groupby(parameter)["duration_s"].agg(["mean", "std", "count"])
    stats = stats.reindex(_order(outcomes, parameter))
    x, labels = _positions(stats.index.to_series())
    half = 1.96 * stats["std"].fillna(0) / np.sqrt(stats["count"])
    figure, ax = _axes()
    ax.plot(x, stats["mean"], marker="o", color="C0", label="mean fight length")
    ax.fill_between(
        x, stats["mean"] - half, stats["mean"] + half, color="C0", alpha=0.2, label="95% CI"
    )
    if labels is not None:
        ax.set_xticks(x, labels)
        ax.set_xlim(-0.5, len(labels) - 0.5)
    ax.set_xlabel(parameter)
    ax.set_ylabel("mean fight length (game seconds)")
    ax.set_ylim(bottom=0)
    ax.set_title(_title(f"Fight length against {parameter}", scenario))
    ax.legend(loc="best")
    return figure


# -- balance ----------------------------------------------------------------------------------


def plot_balance(result: BalanceResult) -> Figure:
    """The balance search: observed win rates, the fitted curve, the target and the answer."""
    figure, ax = _axes()
    grid = result.grid
    ax.errorbar(
        grid["value"],
        grid["win_rate"],
        yerr=[grid["win_rate"] - grid["ci_low"], grid["ci_high"] - grid["win_rate"]],
        fmt="o",
        color="C0",
        capsize=4,
        label=f"{result.side} win rate (95% CI)",
    )
    xs = np.linspace(float(grid["value"].min()), float(grid["value"].max()), 200)
    fitted, low, high = result.curve(xs)
    ax.plot(xs, fitted, color="C1", label="logistic fit")
    ax.fill_between(xs, low, high, color="C1", alpha=0.2, label="fit 95% CI")
    target = f"target {result.target:.0%}"
    ax.axhline(result.target, color="black", linestyle="--", linewidth=1, label=target)
    if result.value is not None:
        ax.axvline(result.value, color="C3", label=f"balance point {result.value:.3g}")
        lo, hi = result.interval
        if math.isfinite(lo) and math.isfinite(hi):
            ax.axvspan(lo, hi, color="C3", alpha=0.15, label="its 95% CI")
    ax.set_xlabel(result.label)
    ax.set_ylabel(f"{result.side} win rate")
    ax.set_ylim(0, 1)
    _percent_axis(ax.yaxis)
    ax.set_title(_title(f"Balance point of {result.label}", result.scenario))
    ax.legend(loc="best", fontsize="small")
    return figure


# -- files --------------------------------------------------------------------------------------


def figure_bytes(figure: Figure, fmt: str, dpi: int = 110) -> bytes:
    """The figure as PNG or SVG bytes (SVG without a date, so files are reproducible)."""
    buffer = io.BytesIO()
    metadata = {"Date": None} if fmt == "svg" else None
    with matplotlib.rc_context({"svg.hashsalt": "combatsim", "svg.fonttype": "path"}):
        figure.savefig(buffer, format=fmt, dpi=dpi, metadata=metadata)
    return buffer.getvalue()


def save_figure(
    figure: Figure, directory: str | Path, stem: str, formats: Sequence[str] = FORMATS
) -> list[Path]:
    """Write ``stem.png`` / ``stem.svg`` into ``directory``; the paths written."""
    directory = make_folder(directory)
    written = []
    for fmt in formats:
        data = figure_bytes(figure, fmt)

        def fill(handle: IO[bytes], data: bytes = data) -> None:
            handle.write(data)

        # Whole or not at all, never through a link planted at the name (sim.files).
        written.append(write_atomically(directory / f"{stem}.{fmt}", fill))
    return written


@dataclass
class Plot:
    """A named chart of a results directory: its file stem, caption and figure."""

    stem: str
    caption: str
    figure: Figure


def standard_plots(results: Results) -> list[Plot]:
    """Every chart that fits a results directory (a run, a one- or a two-parameter sweep)."""
    outcomes = results.outcomes
    sides = results.side_names
    name = results.scenario_name
    limit = results.meta.get("time_limit_s")
    if results.kind == "run":
        return [
            Plot(
                "win_rates",
                "Win rate per side with 95% confidence intervals (Wilson).",
                plot_win_rates(outcomes, sides, name),
            ),
            Plot(
                "fight_length",
                "Fight length, stacked by winner.",
                plot_fight_length(outcomes, sides, name),
            ),
            Plot(
                "survival",
                "Share of fights still running after t seconds (95% DKW band).",
                plot_survival(outcomes, scenario=name, time_limit_s=limit),
            ),
            Plot(
                "hp_left",
                "Hit points left on the winning side: how close the fights were.",
                plot_hp_left(outcomes, sides, name),
            ),
        ]
    labels = sweep_labels(results)
    rates = win_rates(outcomes, sides, ["point", *labels])
    if len(labels) == 1:
        (x,) = labels
        return [
            Plot(
                "win_rate_curve",
                f"Win rate against {x} with 95% confidence bands (Wilson).",
                plot_win_rate_curve(rates, x, sides, name),
            ),
            Plot(
                "duration_curve",
                f"Mean fight length against {x}.",
                plot_duration_curve(outcomes, x, name),
            ),
            Plot(
                "survival",
                f"Share of fights still running after t seconds, per {x}.",
                plot_survival(outcomes, by=x, scenario=name, time_limit_s=limit),
            ),
        ]
    x, y = labels
    plots = [
        Plot(
            f"heatmap_{i}_{_slug(side)}",
            f"{side} win rate over {x} and {y}, with the ± of its 95% interval.",
            plot_win_rate_heatmap(rates, x, y, side, name),
        )
        for i, side in enumerate(sides)
    ]
    plots.append(
        Plot(
            "win_rate_lines",
            f"{sides[0]} win rate against {x}, one line per {y} (95% bands).",
            plot_win_rate_lines(rates, x, y, sides[0], name),
        )
    )
    return plots


def sweep_labels(results: Results) -> list[str]:
    """The swept parameters' columns of a sweep's results."""
    labels = [p["label"] for p in results.parameters]
    if labels:
        return labels
    columns = list(results.outcomes.columns)
    after = columns[columns.index("point") + 1 :]
    return [c for c in after if c not in ("combat", "seed")][:2] if "combat" in after else after[:1]


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)


def draw_results(
    results: Results, directory: str | Path | None = None, formats: Sequence[str] = FORMATS
) -> list[Path]:
    """Draw every chart of a results directory into ``directory`` (default: ``RESULTS/plots``)."""
    directory = Path(directory) if directory is not None else results.directory / "plots"
    written: list[Path] = []
    for plot in standard_plots(results):
        written += save_figure(plot.figure, directory, plot.stem, formats)
    return written
