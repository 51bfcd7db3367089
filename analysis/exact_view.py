"""The charts and report pieces of exact results: a run or a sweep solved as a chain.

An exact run's folder (``combatsim run --exact --out DIR``) and an exact sweep's hold no
combats: their ``summary.json`` (``"method": "exact"``, :mod:`sim.run.exact`) is the results.
So a chart shows exact values with no interval (its width is zero: nothing was sampled), and
the fight length is the chain's own law of it (``"length"``), not a histogram of fights. What
only combats give is not drawn: the distribution of hit points left (the summary keeps its
exact mean) and the per-combatant means. ``combatsim plot`` and ``combatsim report`` call
:func:`exact_plots`; the report's verdict and tables come from :func:`exact_verdict`,
:func:`exact_made` and :func:`exact_tables`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from analysis.chart_style import (
    PALETTE,
    new_axes,
    percent_axis,
    side_colors,
    value_ticks,
    wrapped_title,
)
from analysis.plots import Plot, TimeUnit
from analysis.results import Results, ResultsError
from analysis.sensitivity_plots import study_plots
from sim.run.records import DRAW
from sim.run.summary import duration_text

#: The columns of an exact run's or sweep's tables, defined for the report.
EXACT_DEFINITIONS = {
    "exact": "the fight solved as a Markov chain over its states (docs/exact.md): every number "
    "is the exact value, not an estimate; no combat was played, so there are no counts of wins "
    "and every interval has zero width",
    "win rate": "the chance that the side wins",
    "draws": "the chance that no side wins (everyone out in the same step, or the time limit)",
    "survivors": "the expected number of the side's combatants standing at the end (0 when lost)",
    "hp left": "the expected hit points of those standing at the end (0 when lost)",
    "mean length": "the expected fight length, in the rules' rounds or in game seconds",
}

#: What every exact chart says of its intervals.
NO_INTERVAL = "exact: solved as a Markov chain, no combat played, so no interval (zero width)"


def exact_plots(results: Results, unit: TimeUnit) -> list[Plot]:
    """Every chart of an exact run or sweep (lengths in ``unit``).

    Raises:
        ResultsError: a sweep of more than two parameters (no chart of it is drawn).
    """
    summary, name = results.summary, results.scenario_name
    if results.kind == "sensitivity":
        return [_exact_caption(plot) for plot in study_plots(results.directory, summary)]
    if results.kind == "run":
        sides = list(summary["sides"])
        return [
            Plot(
                "win_rates",
                f"Win rate per side, {NO_INTERVAL}.",
                plot_exact_win_rates(summary, sides, name),
            ),
            Plot(
                "fight_length",
                "Fight length: its exact law, the chance of each length over all fights (the "
                "chain's law of the length is not split by winner; seconds in one-second bins; "
                "drawn up to the length by which 99.9% of fights are over); the dotted line is "
                "the exact mean.",
                plot_exact_length(summary, name, unit),
            ),
            Plot(
                "survival",
                "Share of fights still running after t (the exact survival curve, one minus "
                "the law's cumulative sum, drawn up to the length by which 99.9% of fights are "
                "over); no band: it is not an estimate.",
                plot_exact_survival(summary, name, unit),
            ),
        ]
    labels = [p["label"] for p in summary.get("parameters", [])]
    if len(labels) == 1:
        return _exact_curves(summary, labels[0], name, unit)
    if len(labels) == 2:
        sides = list(summary["points"][0]["summary"]["sides"]) if summary["points"] else []
        return [
            Plot(
                f"heatmap_{i}_{_slug(side)}",
                f"{side} exact win rate over {labels[0]} and {labels[1]} (no interval: "
                "solved as a chain).",
                plot_exact_heatmap(summary, labels[0], labels[1], side, name),
            )
            for i, side in enumerate(sides)
        ]
    raise ResultsError(
        f"{results.directory}: an exact sweep of {len(labels)} parameters has no chart "
        "(charts draw one or two)"
    )


def _exact_caption(plot: Plot) -> Plot:
    """A study's chart with the caption of its exact form (a tornado of exact changes)."""
    if plot.stem != "tornado":
        return replace(
            plot,
            caption=plot.caption + " Each point's win rate is exact: the "
            "intervals are the design's (a finite sample of the ranges) alone.",
        )
    return replace(
        plot,
        caption="One-at-a-time effects: each parameter from its low to its high end, the others "
        "as written (line: the scenario as written); each change exact (no whisker: zero width).",
    )


def _exact_curves(summary: dict[str, Any], x: str, name: str, unit: TimeUnit) -> list[Plot]:
    return [
        Plot(
            "win_rate_curve",
            f"Exact win rate against {x} ({NO_INTERVAL}).",
            plot_exact_win_rate_curve(summary, x, name),
        ),
        Plot(
            "duration_curve",
            f"Exact mean fight length against {x} (no interval).",
            plot_exact_duration_curve(summary, x, name, unit),
        ),
    ]


def _states(summary: dict[str, Any]) -> str:
    return f"exact, {summary.get('states', 0):,} states"


def plot_exact_win_rates(summary: dict[str, Any], sides: Sequence[str], scenario: str) -> Figure:
    """Each side's exact win rate (and the draws', if any) as bars, with no error bar."""
    shown = [(side, summary["sides"][side]["win_rate"]) for side in sides]
    if summary.get("draw_rate"):
        shown.append((DRAW, summary["draw_rate"]))
    colors = side_colors(sides)
    figure, ax = new_axes()
    x = np.arange(len(shown))
    rates = [rate for _, rate in shown]
    ax.bar(x, rates, color=[colors[s] for s, _ in shown], width=0.6, label="exact win rate")
    for xi, rate in zip(x, rates, strict=True):
        ax.annotate(
            f"{rate:.1%}", (xi, rate), xytext=(0, 4), textcoords="offset points", ha="center"
        )
    ax.set_xticks(x, ["draw" if s == DRAW else s for s, _ in shown])
    ax.set_xlabel("side")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, min(1.0, max(rates, default=0) + 0.12))
    percent_axis(ax.yaxis)
    ax.set_title(wrapped_title(f"Win rate per side ({_states(summary)})", scenario))
    figure.legend(loc="outside lower center", ncols=1, fontsize="small")
    return figure


def _law(summary: dict[str, Any], unit: TimeUnit) -> tuple[np.ndarray, np.ndarray]:
    """The exact law of the fight's length in ``unit``: lengths and their chances."""
    length = summary["length"]
    law = np.asarray(length["law"], dtype=float).reshape(-1, 2)
    lengths = law[:, 0]
    if length["unit"] == "rounds" and unit.round_s is None:
        lengths = lengths * float(summary.get("round_s") or 1.0)
    if length["unit"] == "seconds":
        lengths = unit.of(lengths)
    return lengths, law[:, 1]


def _shown_up_to(lengths: np.ndarray, chances: np.ndarray, share: float = 0.999) -> float:
    """The length by which ``share`` of fights are over: the charts' x axis ends there."""
    order = np.argsort(lengths)
    done = np.cumsum(chances[order])
    over = lengths[order][min(int(np.searchsorted(done, share)), len(lengths) - 1)]
    return float(over)


def plot_exact_length(summary: dict[str, Any], scenario: str, unit: TimeUnit) -> Figure:
    """The exact law of the fight's length: the chance of each length (rounds, or 1 s bins)."""
    lengths, chances = _law(summary, unit)
    figure, ax = new_axes()
    step = unit.step if unit.round_s is not None else 1.0
    top = float(lengths.max()) if len(lengths) else 1.0
    edges = np.arange(0.0, top + 2 * step, step) - (step / 2 if unit.round_s is not None else 0)
    ax.hist(lengths, bins=edges, weights=chances, color=PALETTE[0], label="chance of the length")
    mean = float(np.dot(lengths, chances))
    ax.axvline(mean, color="black", linestyle=":", label=f"exact mean {mean:.2f} {unit.short}")
    ax.set_xlim(edges[0], _shown_up_to(lengths, chances) + 2 * step)
    ax.set_xlabel(f"fight length ({unit.axis})")
    ax.set_ylabel("chance")
    percent_axis(ax.yaxis)
    ax.set_title(wrapped_title(f"Fight length: its exact law ({_states(summary)})", scenario))
    ax.legend(loc="upper right", fontsize="small")
    return figure


def plot_exact_survival(summary: dict[str, Any], scenario: str, unit: TimeUnit) -> Figure:
    """The exact share of fights still running after each length (a step curve)."""
    lengths, chances = _law(summary, unit)
    order = np.argsort(lengths)
    lengths, chances = lengths[order], chances[order]
    still = 1.0 - np.cumsum(chances)
    figure, ax = new_axes()
    ax.step(
        np.concatenate([[0.0], lengths]),
        np.concatenate([[1.0], np.clip(still, 0.0, 1.0)]),
        where="post",
        color=PALETTE[0],
        label="exact",
    )
    ax.set_xlabel(f"t, {unit.axis}")
    ax.set_ylabel("fights still running")
    ax.set_ylim(0, 1.02)
    ax.set_xlim(0, _shown_up_to(lengths, chances) + 2 * (unit.step if unit.round_s else 1.0))
    percent_axis(ax.yaxis)
    ax.set_title(wrapped_title(f"Fights still running ({_states(summary)})", scenario))
    ax.legend(loc="upper right", fontsize="small")
    return figure


def _values(summary: dict[str, Any], x: str) -> tuple[np.ndarray, list[str] | None]:
    """The swept values as positions, and tick labels when they are not numbers."""
    values = [point["values"][x] for point in summary["points"]]
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return np.asarray(values, dtype=float), None
    return np.arange(len(values), dtype=float), [str(v) for v in values]


def _axis(ax: Any, x: str, positions: np.ndarray, labels: list[str] | None) -> None:
    if labels is not None:
        ax.set_xticks(positions, labels)
    else:
        value_ticks(ax.xaxis, positions)
    ax.set_xlabel(x)


def plot_exact_win_rate_curve(summary: dict[str, Any], x: str, scenario: str) -> Figure:
    """Each side's exact win rate at every point of a one-parameter sweep."""
    points = summary["points"]
    sides = list(points[0]["summary"]["sides"]) if points else []
    positions, labels = _values(summary, x)
    colors = side_colors(sides)
    figure, ax = new_axes()
    series = [(side, [p["summary"]["sides"][side]["win_rate"] for p in points]) for side in sides]
    draws = [p["summary"]["draw_rate"] for p in points]
    if any(draws):
        series.append((DRAW, draws))
    for side, rates in series:
        name = "draw" if side == DRAW else side
        ax.plot(
            positions,
            rates,
            marker="o",
            color=colors[side],
            linestyle="-" if labels is None else "none",
            label=f"{name} (exact)",
        )
    _axis(ax, x, positions, labels)
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    percent_axis(ax.yaxis)
    states = max((p["summary"].get("states", 0) for p in points), default=0)
    what = f"Win rate against {x} (exact, up to {states:,} states a point)"
    ax.set_title(wrapped_title(what, scenario))
    ax.legend(loc="best", fontsize="small")
    return figure


def plot_exact_duration_curve(
    summary: dict[str, Any], x: str, scenario: str, unit: TimeUnit
) -> Figure:
    """The exact mean fight length at every point of a one-parameter sweep."""
    positions, labels = _values(summary, x)
    means = [unit.of(p["summary"]["mean_duration_s"]) for p in summary["points"]]
    figure, ax = new_axes()
    ax.plot(
        positions,
        means,
        marker="o",
        color=PALETTE[0],
        linestyle="-" if labels is None else "none",
        label="exact mean fight length",
    )
    _axis(ax, x, positions, labels)
    ax.set_ylabel(f"mean fight length ({unit.axis})")
    ax.set_ylim(bottom=0)
    ax.set_title(wrapped_title(f"Fight length against {x} (exact)", scenario))
    ax.legend(loc="best")
    return figure


def plot_exact_heatmap(summary: dict[str, Any], x: str, y: str, side: str, scenario: str) -> Figure:
    """One side's exact win rate over a two-parameter grid, each cell with its rate."""
    points = summary["points"]
    xs = list(dict.fromkeys(p["values"][x] for p in points))
    ys = list(dict.fromkeys(p["values"][y] for p in points))
    grid = np.full((len(ys), len(xs)), np.nan)
    for p in points:
        grid[ys.index(p["values"][y]), xs.index(p["values"][x])] = p["summary"]["sides"][side][
            "win_rate"
        ]
    width = max(7.0, 1.0 * len(xs) + 3.0)
    figure, ax = new_axes(width, max(4.2, 0.6 * len(ys) + 2.4))
    image = ax.imshow(grid, origin="lower", cmap="RdBu", vmin=0, vmax=1, aspect="auto")
    for row in range(len(ys)):
        for col in range(len(xs)):
            value = grid[row, col]
            if not np.isnan(value):
                ink = "white" if abs(value - 0.5) > 0.3 else "black"
                ax.text(
                    col, row, f"{value:.1%}", ha="center", va="center", color=ink, fontsize="small"
                )
    ax.set_xticks(np.arange(len(xs)), [str(v) for v in xs])
    ax.set_yticks(np.arange(len(ys)), [str(v) for v in ys])
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    figure.colorbar(image, ax=ax).set_label(f"{side} win rate")
    ax.set_title(wrapped_title(f"{side} win rate (exact)", scenario, width))
    return figure


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)


# -- the report's pieces ------------------------------------------------------------------------


def exact_verdict(results: Results) -> str:
    """The report's first line: the leading side's exact win rate (a run), or the sweep's span."""
    summary = results.summary
    if results.kind == "sensitivity":
        return str((summary.get("verdict") or {}).get("sentence", ""))
    if results.kind == "run":
        sides = summary["sides"]
        leader = max(sides, key=lambda side: sides[side]["win_rate"])
        rate = sides[leader]["win_rate"]
        even = 1 / len(sides)
        judged = "even" if rate == even else "not even"
        states = f"{summary.get('states', 0):,}"
        line = f"{leader} wins {rate:.1%} (exact: solved over {states} states); {judged}"
        if summary.get("draw_rate"):
            line += f"; {summary['draw_rate']:.1%} draws"
        return f"{line}."
    points = summary["points"]
    side = next(iter(points[0]["summary"]["sides"])) if points else ""
    rates = [p["summary"]["sides"][side]["win_rate"] for p in points]
    low, high = points[int(np.argmin(rates))], points[int(np.argmax(rates))]
    return (
        f"{side} wins from {min(rates):.1%} ({_at(low)}) to {max(rates):.1%} ({_at(high)}), "
        f"exactly at every one of the {len(points)} points (solved as chains, no combat played)."
    )


def _at(point: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in point["values"].items())


def exact_made(results: Results) -> list[list[Any]]:
    """The rows of "How these results were made" that differ for exact results."""
    summary = results.summary
    rows: list[list[Any]] = [["method", "exact: the fight solved as a Markov chain"]]
    rows.append(["seed", "none: no combat was played"])
    if results.kind == "run":
        rows.append(["states", f"{summary.get('states', 0):,}"])
        return rows
    if results.kind == "sensitivity":
        rows[1] = ["seed", f"{summary.get('seed')} (of the Sobol design; no combat was played)"]
        rows.append(["points solved for the study", summary.get("points_solved")])
        rows.append(["states", f"up to {summary.get('states', 0):,} a point"])
        return rows
    points = summary.get("points", [])
    states = max((p["summary"].get("states", 0) for p in points), default=0)
    rows.append(["points", len(points)])
    rows.append(["states", f"up to {states:,} a point"])
    for parameter in results.parameters:
        values = ", ".join(str(v) for v in parameter["values"])
        rows.append([f"swept: {parameter['label']}", f"{parameter['path']} = {values}"])
    return rows


def exact_tables(results: Results, round_s: float | None) -> tuple[list[str], list[list[Any]], str]:
    """The summary table of exact results: its header, rows and the note under it."""
    summary = results.summary
    if results.kind == "sensitivity":
        rate = (summary.get("base") or {}).get("win_rate", float("nan"))
        side = summary.get("side")
        note = "The scenario as written, solved exactly; the study follows."
        return ["side", "win rate"], [[side, f"{rate:.1%}"]], note
    if results.kind == "run":
        rows: list[list[Any]] = [
            [
                side,
                "exact",
                f"{s['win_rate']:.1%}",
                "zero width",
                f"{s['mean_survivors']:.2f}",
                f"{s['mean_hp_left']:.1f}",
            ]
            for side, s in summary["sides"].items()
        ]
        rows.append(["draw", "exact", f"{summary['draw_rate']:.1%}", "", "", ""])
        length = duration_text(
            summary["mean_duration_s"], round_s, rounds=summary.get("mean_duration_rounds")
        )
        ends = ", ".join(f"{k}: {v:.2%}" for k, v in summary["ends"].items())
        note = f"Exact mean fight length {length}; how fights end (chances): {ends}."
        header = ["side", "wins", "win rate", "95% CI", "survivors", "hp left"]
        return header, rows, note
    labels = [p["label"] for p in summary.get("parameters", [])]
    points = summary.get("points", [])
    sides = list(points[0]["summary"]["sides"]) if points else []
    header = ["point", *labels, *(f"{side} win rate" for side in sides), "draws", "mean length"]
    rows = [
        [
            p["point"],
            *(p["values"][label] for label in labels),
            *(f"{p['summary']['sides'][side]['win_rate']:.2%}" for side in sides),
            f"{p['summary']['draw_rate']:.2%}",
            duration_text(
                p["summary"]["mean_duration_s"],
                round_s,
                rounds=p["summary"].get("mean_duration_rounds"),
            ),
        ]
        for p in points
    ]
    return header, rows, "Every rate is exact (no interval: no combat was played)."


__all__ = [
    "EXACT_DEFINITIONS",
    "NO_INTERVAL",
    "exact_made",
    "exact_plots",
    "exact_tables",
    "exact_verdict",
    "plot_exact_duration_curve",
    "plot_exact_heatmap",
    "plot_exact_length",
    "plot_exact_survival",
    "plot_exact_win_rate_curve",
    "plot_exact_win_rates",
]
