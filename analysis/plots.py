"""Balance charts: what a designer looks at, each picture with its uncertainty shown.

Every function takes pandas tables and returns a :class:`matplotlib.figure.Figure` built with the
object-oriented API (no pyplot, no global figure state, no display needed), so tests inspect the
axes, labels, series and error bars, and :func:`save_figure` writes PNG and SVG.

Each chart says what it shows: an *estimate* carries its 95% interval (Wilson for win rates,
Student's t for a mean, the Dvoretzky-Kiefer-Wolfowitz band for a survival curve, which holds for
the whole curve at once), and a histogram is named a *distribution* of single fights. Statistics
shared with the tables (``hp left``, ``survivors``) are the ones :data:`sim.run.summary.DEFINITIONS`
defines, so chart and table give the same number. Categories (a swept option such as
``lowest_three`` / ``best_set``) are drawn as points with error bars, never joined by a line;
whole-number parameters get whole-number ticks; every line colour has a contrast of at least 3:1
on white (WCAG 2.1, graphical objects), and long titles wrap instead of running off the figure.
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

from analysis.chart_style import (
    CONFIDENCE,
    FORMATS,
    PALETTE,
    PercentTicks,
    mean_interval,
    new_axes,
    percent_axis,
    series_color,
    side_colors,
    value_ticks,
    whole_ticks,
    wrapped_title,
)
from analysis.sweep import win_rates
from sim.rules.wording import counted
from sim.run.files import make_folder, write_atomically
from sim.run.records import DRAW

if TYPE_CHECKING:
    from analysis.balance import BalanceResult

# -- one run ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TimeUnit:
    """How a chart counts fight length: the rules' rounds (game time beside), or game seconds.

    Target 10 and Proposition Three count rounds (:func:`sim.run.summary.round_length_s`); ACS,
    and everything on its clock, counts seconds.
    """

    round_s: float | None = None

    def of(self, seconds: Any) -> Any:
        """Game seconds in this unit."""
        return seconds if self.round_s is None else np.asarray(seconds, dtype=float) / self.round_s

    @property
    def step(self) -> float:
        """The histogram's bin: a tenth of a second (a segment), or one round."""
        return 0.1 if self.round_s is None else 1.0

    @property
    def short(self) -> str:
        """``s`` or ``rounds``."""
        return "s" if self.round_s is None else "rounds"

    @property
    def axis(self) -> str:
        """The axis label: ``game seconds``, or ``rounds (one round: 60 s of game time)``."""
        if self.round_s is None:
            return "game seconds"
        return f"rounds (one round: {self.round_s:g} s of game time)"

    def beside(self, rounds: float) -> str:
        """The game time beside a length in rounds (nothing in seconds)."""
        return "" if self.round_s is None else f" ({rounds * self.round_s:.0f} s)"


SECONDS = TimeUnit()


def plot_win_rates(
    outcomes: pd.DataFrame, side_names: Sequence[str], scenario: str | None = None
) -> Figure:
    """Win rate per side (and draws, if any) as bars with 95% Wilson error bars."""
    rates = win_rates(outcomes, side_names)
    if rates.loc[rates["side"] == DRAW, "wins"].sum() == 0:
        rates = rates[rates["side"] != DRAW]
    figure, ax = new_axes()
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
    percent_axis(ax.yaxis)
    ax.set_title(wrapped_title(f"Win rate per side ({counted(len(outcomes), 'combat')})", scenario))
    figure.legend(loc="outside lower center", ncols=2, fontsize="small")
    return figure


def plot_fight_length(
    outcomes: pd.DataFrame,
    side_names: Sequence[str],
    scenario: str | None = None,
    unit: TimeUnit = SECONDS,
) -> Figure:
    """How long fights last: the distribution, stacked by who won; the mean with its 95% CI.

    The bars are single fights (a distribution, no uncertainty to show); the mean is an
    estimate, so its Student's t interval is the shaded band around the dotted line. Lengths
    are in the rules' own unit (``unit``: rounds for Target 10 and Proposition Three).
    """
    figure, ax = new_axes()
    colors = side_colors(side_names)
    durations = unit.of(outcomes["duration_s"].to_numpy(dtype=float))
    edges = _bins(durations, step=unit.step)
    series, labels, palette = [], [], []
    for side in [*side_names, DRAW]:
        chosen = unit.of(
            outcomes.loc[outcomes["winner"] == side, "duration_s"].to_numpy(dtype=float)
        )
        if len(chosen):
            series.append(chosen)
            labels.append(f"{side} won" if side != DRAW else "draw")
            palette.append(colors[side])
    if series:
        ax.hist(series, bins=edges, stacked=True, label=labels, color=palette)
        mean, low, high = mean_interval(durations)
        ax.axvline(
            mean,
            color="black",
            linestyle=":",
            label=f"mean {mean:.2f} {unit.short}{unit.beside(mean)}",
        )
        if math.isfinite(low):
            ax.axvspan(
                low,
                high,
                color="black",
                alpha=0.15,
                label=f"its 95% CI {low:.2f}–{high:.2f}",
            )
    ax.set_xlabel(f"fight length ({unit.axis})")
    if unit.round_s is not None:
        whole_ticks(ax.xaxis, durations)
    ax.set_ylabel("fights")
    ax.set_title(wrapped_title(f"Fight length: distribution of {len(outcomes)} fights", scenario))
    ax.legend(loc="upper right", fontsize="small")
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
    unit: TimeUnit = SECONDS,
) -> Figure:
    """The share of fights still running after t seconds (or rounds), with a 95% DKW band.

    With ``by`` (a sweep parameter), one curve per value; the band is drawn when there are at
    most three curves, to keep the picture readable; with more, the legend gives its half-width
    (the same for every curve of a sweep with the same combats per point).
    """
    figure, ax = new_axes()
    if by is None:
        groups = [("all fights", outcomes)]
    else:
        groups = [(f"{by} = {key}", outcomes[outcomes[by] == key]) for key in _order(outcomes, by)]
    widest = 0.0
    for i, (label, group) in enumerate(groups):
        color = PALETTE[0] if len(groups) == 1 else series_color(i, len(groups))
        t, s = survival(unit.of(group["duration_s"].to_numpy(dtype=float)))
        ax.step(t, s, where="post", color=color, label=label)
        eps = dkw_half_width(len(group))
        widest = max(widest, eps)
        if len(groups) <= 3:
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
        ax.axvline(
            float(unit.of(time_limit_s)), color="grey", linestyle="--", label="time limit (draw)"
        )
    ax.set_xlabel(unit.axis)
    ax.set_ylabel("share of fights still running")
    ax.set_ylim(0, 1.02)
    ax.set_xlim(left=0)
    percent_axis(ax.yaxis)
    after = "t seconds" if unit.round_s is None else "t rounds"
    ax.set_title(wrapped_title(f"Fights still running after {after}", scenario))
    title = None if by is None else by
    if len(groups) > 3:
        title = f"{by}\n(each curve ± {widest:.1%}: 95% DKW band, not drawn)"
    ax.legend(loc="upper right", fontsize="small", title=title, title_fontsize="small")
    return figure


def dkw_half_width(n: int, confidence: float = CONFIDENCE) -> float:
    """Half-width of the Dvoretzky-Kiefer-Wolfowitz band of an empirical curve of ``n`` fights."""
    return math.sqrt(math.log(2 / (1 - confidence)) / (2 * n)) if n else 1.0


def plot_hp_left(
    outcomes: pd.DataFrame, side_names: Sequence[str], scenario: str | None = None
) -> Figure:
    """Hit points left at the end, per side, over all fights: the run summary's ``hp left``.

    A distribution of single fights (a fight the side lost counts 0, as in the table), and its
    mean, the number the table prints, with the mean's 95% Student's t interval.
    """
    figure, ax = new_axes()
    colors = side_colors(side_names)
    left = {side: outcomes[f"hp_left_{side}"].to_numpy(dtype=float) for side in side_names}
    everything = np.concatenate([v for v in left.values() if len(v)] or [np.zeros(1)])
    edges = _bins(everything, step=1.0, start=-0.5)
    for side, values in left.items():
        if not len(values):
            continue
        mean, low, high = mean_interval(values)
        ax.hist(
            values,
            bins=edges,
            weights=np.full(len(values), 1 / len(values)),
            histtype="step",
            linewidth=1.6,
            color=colors[side],
            label=f"{side}: 0 hp left in {np.mean(values == 0):.0%} of fights",
        )
        ax.axvline(mean, color=colors[side], linestyle="--", label=f"{side}: mean {mean:.1f}")
        if math.isfinite(low):
            ax.axvspan(
                low, high, color=colors[side], alpha=0.2, label=f"  95% CI {low:.1f}–{high:.1f}"
            )
    # The 0 bar (every lost fight) would flatten the rest: cut it, its share is in the legend.
    rest = max(
        (
            np.histogram(v[v > 0], bins=edges)[0].max() / len(v)
            for v in left.values()
            if (v > 0).any()
        ),
        default=0.0,
    )
    zero = max((float(np.mean(v == 0)) for v in left.values() if len(v)), default=0.0)
    if rest and zero > 2.5 * rest:
        ax.set_ylim(0, rest * 1.9)
        ax.annotate(
            f"0 hp: bar cut\n(up to {zero:.0%})",
            (0.6, rest * 1.9),
            xytext=(4, -4),
            textcoords="offset points",
            va="top",
            fontsize="small",
        )
    ax.set_xlabel("hit points left on the side's standing combatants at the end")
    ax.set_ylabel("share of fights")
    percent_axis(ax.yaxis)
    ax.set_xlim(left=-0.5)
    whole_ticks(ax.xaxis, everything)
    ax.set_title(wrapped_title("Hit points left at the end, all fights", scenario))
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


def _estimates(
    ax: Any,
    x: np.ndarray,
    y: Any,
    low: Any,
    high: Any,
    *,
    categorical: bool,
    color: Any,
    label: str,
    band_label: str | None,
    alpha: float = 0.2,
) -> None:
    """Estimates along a parameter: a line and a band, or points with error bars.

    Categories get points: nothing lies between two categories, so nothing is drawn there.
    """
    y, low, high = (np.asarray(v, dtype=float) for v in (y, low, high))
    if categorical:
        ax.errorbar(x, y, yerr=[y - low, high - y], fmt="o", color=color, capsize=5, label=label)
        return
    ax.plot(x, y, marker="o", color=color, label=label)
    ax.fill_between(x, low, high, color=color, alpha=alpha, label=band_label)


def _dodge(i: int, count: int, categorical: bool) -> float:
    """A small sideways offset so the error bars of several series at one category stay apart."""
    return (i - (count - 1) / 2) * 0.12 if categorical and count > 1 else 0.0


def _parameter_axis(ax: Any, labels: list[str] | None, values: Any) -> None:
    if labels is not None:
        ax.set_xticks(np.arange(len(labels)), labels)
        ax.set_xlim(-0.5, len(labels) - 0.5)
    else:
        value_ticks(ax.xaxis, values)


def plot_win_rate_curve(
    rates: pd.DataFrame,
    parameter: str,
    side_names: Sequence[str],
    scenario: str | None = None,
    target: float | None = None,
) -> Figure:
    """Win rate per side against a swept parameter, each with its 95% confidence band.

    ``rates`` is :func:`analysis.sweep.win_rates` grouped by the parameter (and ``point``).
    A parameter whose values are not numbers gets points with error bars, not a line.
    """
    figure, ax = new_axes()
    colors = side_colors(side_names)
    shown = list(side_names)
    if rates.loc[rates["side"] == DRAW, "wins"].sum() > 0:
        shown.append(DRAW)
    labels = None
    for i, side in enumerate(shown):
        sub = _in_order(rates[rates["side"] == side], parameter)
        x, labels = _positions(sub[parameter])
        name = "draw" if side == DRAW else side
        _estimates(
            ax,
            x + _dodge(i, len(shown), labels is not None),
            sub["win_rate"],
            sub["ci_low"],
            sub["ci_high"],
            categorical=labels is not None,
            color=colors[side],
            label=name if labels is None else f"{name} (95% CI)",
            band_label=f"{name} 95% CI",
        )
    _parameter_axis(ax, labels, rates[parameter] if labels is None else None)
    if target is not None:
        ax.axhline(target, color="black", linestyle="--", linewidth=1, label=f"{target:.0%}")
    runs = int(rates["runs"].max()) if len(rates) else 0
    ax.set_xlabel(parameter)
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    percent_axis(ax.yaxis)
    what = f"Win rate against {parameter} ({counted(runs, 'combat')} a point)"
    ax.set_title(wrapped_title(what, scenario))
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
    figure, ax = new_axes()
    sub = rates[rates["side"] == side]
    keys = _order(sub, series)
    labels = None
    for i, key in enumerate(keys):
        line = _in_order(sub[sub[series] == key], parameter)
        x, labels = _positions(line[parameter])
        _estimates(
            ax,
            x + _dodge(i, len(keys), labels is not None),
            line["win_rate"],
            line["ci_low"],
            line["ci_high"],
            categorical=labels is not None,
            color=series_color(i, len(keys)),
            label=f"{series} = {key}",
            band_label=None,
            alpha=0.15,
        )
    _parameter_axis(ax, labels, sub[parameter] if labels is None else None)
    ax.set_xlabel(parameter)
    ax.set_ylabel(f"{side} win rate (95% CI)")
    ax.set_ylim(0, 1)
    percent_axis(ax.yaxis)
    ax.set_title(wrapped_title(f"{side} win rate against {parameter}", scenario))
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
    # Cells large enough for their two lines of text at a readable size.
    width = max(7.0, 1.0 * len(grid.columns) + 3.0)
    figure, ax = new_axes(width, max(4.2, 0.8 * len(grid.index) + 2.4))
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
                fontsize="small",
            )
    ax.set_xticks(np.arange(grid.shape[1]), [str(v) for v in grid.columns])
    ax.set_yticks(np.arange(grid.shape[0]), [str(v) for v in grid.index])
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    colorbar = figure.colorbar(image, ax=ax)
    colorbar.set_label(f"{side} win rate")
    colorbar.formatter = PercentTicks()
    colorbar.update_ticks()
    ax.set_title(wrapped_title(f"{side} win rate", scenario, width))
    return figure


def plot_duration_curve(
    outcomes: pd.DataFrame, parameter: str, scenario: str | None = None, unit: TimeUnit = SECONDS
) -> Figure:
    """Mean fight length against a swept parameter, with its 95% Student's t interval."""
    order = _order(outcomes, parameter)
    stats = pd.DataFrame(
        [
            mean_interval(
                unit.of(outcomes.loc[outcomes[parameter] == key, "duration_s"].to_numpy(float))
            )
            for key in order
        ],
        columns=["mean", "low", "high"],
        index=pd.Index(order, name=parameter),
    )
    x, labels = _positions(stats.index.to_series())
    figure, ax = new_axes()
    _estimates(
        ax,
        x,
        stats["mean"],
        stats["low"].fillna(stats["mean"]),
        stats["high"].fillna(stats["mean"]),
        categorical=labels is not None,
        color=PALETTE[0],
        label="mean fight length" + ("" if labels is None else " (95% CI)"),
        band_label="95% CI",
    )
    _parameter_axis(ax, labels, stats.index if labels is None else None)
    ax.set_xlabel(parameter)
    ax.set_ylabel(f"mean fight length ({unit.axis})")
    ax.set_ylim(bottom=0)
    ax.set_title(wrapped_title(f"Fight length against {parameter}", scenario))
    ax.legend(loc="best")
    return figure


# -- balance ----------------------------------------------------------------------------------


def plot_balance(result: BalanceResult) -> Figure:
    """The balance search: observed win rates, the fitted curve, the target and the answer."""
    figure, ax = new_axes()
    grid = result.grid
    ax.errorbar(
        grid["value"],
        grid["win_rate"],
        yerr=[grid["win_rate"] - grid["ci_low"], grid["ci_high"] - grid["win_rate"]],
        fmt="o",
        color=PALETTE[0],
        capsize=4,
        label=f"{result.side} win rate (95% CI)",
    )
    xs = np.linspace(float(grid["value"].min()), float(grid["value"].max()), 200)
    fitted, low, high = result.curve(xs)
    ax.plot(xs, fitted, color=PALETTE[1], label="logistic fit")
    ax.fill_between(xs, low, high, color=PALETTE[1], alpha=0.2, label="fit 95% CI")
    target = f"target {result.target:.0%}"
    ax.axhline(result.target, color="black", linestyle="--", linewidth=1, label=target)
    if result.value is not None:
        ax.axvline(result.value, color=PALETTE[3], label=f"balance point {result.value:.3g}")
        lo, hi = result.interval
        if math.isfinite(lo) and math.isfinite(hi):
            ax.axvspan(lo, hi, color=PALETTE[3], alpha=0.15, label="its 95% CI")
    value_ticks(ax.xaxis, grid["value"])
    ax.set_xlabel(result.label)
    ax.set_ylabel(f"{result.side} win rate")
    ax.set_ylim(0, 1)
    percent_axis(ax.yaxis)
    ax.set_title(wrapped_title(f"Balance point of {result.label}", result.scenario))
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

        # Whole or not at all, never through a link planted at the name (sim.run.files).
        written.append(write_atomically(directory / f"{stem}.{fmt}", fill))
    return written


@dataclass
class Plot:
    """A named chart of a results directory: its file stem, caption and figure."""

    stem: str
    caption: str
    figure: Figure
