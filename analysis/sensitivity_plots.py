"""A sensitivity study's pictures and its section of the HTML report.

Two charts, both drawn from the tables a study saves (so ``combatsim report`` can draw them again
without playing anything):

- the **tornado chart**: per parameter, the win rate at its low and at its high end (the others
  as written), the largest change at the top, with the paired 95% interval of the change;
- the **Sobol chart**: first-order and total indices per parameter with their 95% bootstrap
  intervals, the largest total at the top.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analysis.chart_style import PercentTicks
from analysis.plots import Plot, save_figure
from analysis.results import Results, read_table

LOW_COLOR = "#4c72b0"
HIGH_COLOR = "#dd8452"


def plot_tornado(
    effects: pd.DataFrame, base_rate: float, side: str, scenario: str, exact: bool = False
) -> Figure:
    """The tornado chart of a study's ``effects`` table (see the module docstring).

    Each bar spans the win rates at the parameter's two ends; the vertical line is the win rate
    at the scenario's own values. The whisker on the high end is the paired interval of the
    change, measured from the low end. An ``exact`` study's changes have no whisker (they are
    exact, their interval of zero width).
    """
    order = effects.assign(size=effects["change"].abs()).sort_values("size", kind="stable")
    height = 1.2 + 0.55 * len(order)
    figure = Figure(figsize=(8.0, height), layout="constrained")
    ax = figure.add_subplot()
    y = np.arange(len(order))
    for i, row in enumerate(_records(order)):
        low, high = float(row["rate_low"]), float(row["rate_high"])
        ax.barh(i, base_rate - low, left=low, color=LOW_COLOR, height=0.6)
        ax.barh(i, high - base_rate, left=base_rate, color=HIGH_COLOR, height=0.6)
        change, ci_low, ci_high = (row[k] * 100 for k in ("change", "ci_low", "ci_high"))
        text = f"{change:+.1f} pts (exact)"
        if not exact:
            ax.errorbar(
                high,
                i,
                xerr=[
                    [high - (low + float(row["ci_low"]))],
                    [(low + float(row["ci_high"])) - high],
                ],
                fmt="none",
                ecolor="black",
                capsize=4,
            )
            text = f"{change:+.1f} pts ({ci_low:+.1f} to {ci_high:+.1f})"
        ax.annotate(
            text,
            (max(low, high, base_rate, low + float(row["ci_high"])), i),
            xytext=(8, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
    labels = [f"{r['parameter']}\n{r['low']} → {r['high']}" for r in _records(order)]
    ax.set_yticks(y, labels, fontsize=8)
    ax.axvline(base_rate, color="black", linewidth=1)
    ax.set_xlim(0, 1.3)  # room on the right for the changes written out
    ax.set_xticks(np.linspace(0, 1, 6))
    ax.xaxis.set_major_formatter(PercentTicks())
    ax.set_xlabel(f"{side} win rate (blue: at the low end, orange: at the high end)")
    ax.set_title(f"One at a time — {scenario}", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return figure


def plot_sobol(indices: pd.DataFrame, side: str, scenario: str) -> Figure:
    """First-order and total Sobol indices per parameter, with their 95% intervals.

    An index is a share of variance, between 0 and 1; its estimate and bootstrap interval can
    reach past either end at a few dozen samples. The chart draws them cut at 0 and 1 and says
    so under the axis, with the uncut numbers (which the tables and the verdict keep).
    """
    order = indices.sort_values("total", kind="stable")
    height = 1.4 + 0.6 * len(order)
    figure = Figure(figsize=(8.0, height + 0.3), layout="constrained")
    ax = figure.add_subplot()
    y = np.arange(len(order))
    cut: list[str] = []
    for offset, (key, name, color) in enumerate(
        (
            ("first", "first order (alone)", LOW_COLOR),
            ("total", "total (with interactions)", HIGH_COLOR),
        )
    ):
        value, low, high = (
            order[k].to_numpy(dtype=float) for k in (key, f"{key}_low", f"{key}_high")
        )
        shown, shown_low, shown_high = (np.clip(v, 0.0, 1.0) for v in (value, low, high))
        for name_, v, lo, hi in zip(order["parameter"], value, low, high, strict=True):
            if min(v, lo) < 0 or max(v, hi) > 1:
                cut.append(f"{name_} {key} {v:.2f} ({lo:.2f} to {hi:.2f})")
        errors = [shown - shown_low, shown_high - shown]
        ax.barh(
            y + (0.2 if offset else -0.2),
            shown,
            height=0.38,
            color=color,
            label=name,
            xerr=errors,
            capsize=3,
            error_kw={"ecolor": "black", "elinewidth": 1},
        )
    ax.set_yticks(y, list(order["parameter"]), fontsize=9)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlim(-0.05, 1.05)
    label = f"share of the variance of {side}'s win rate over the joint ranges"
    if cut:
        label += (
            "\nestimates and intervals cut at 0 and 1, the bounds of a share; uncut: "
            + "; ".join(cut)
        )
    ax.set_xlabel(label, fontsize=9 if cut else None, wrap=True)
    ax.set_title(f"Sobol indices with 95% intervals — {scenario}", fontsize=10)
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    return figure


def study_plots(directory: str | Path, summary: dict[str, Any]) -> list[Plot]:
    """The two charts of a saved study, drawn from its tables (none when they are missing)."""
    directory = Path(directory)
    effects = read_table(directory, "effects")
    indices = read_table(directory, "indices")
    if effects is None or indices is None:
        return []
    side, name = str(summary.get("side")), str(summary.get("scenario"))
    base = float(summary.get("base", {}).get("win_rate", float("nan")))
    return [
        Plot(
            "tornado",
            f"One-at-a-time effects on {side}'s win rate: each parameter from its low to its "
            "high end, the others as written (line: the scenario as written); whiskers: the "
            "paired 95% interval of the change, on the same combat seeds.",
            plot_tornado(effects, base, side, name, summary.get("method") == "exact"),
        ),
        Plot(
            "sobol",
            f"Sobol indices of {side}'s win rate over the joint ranges, with 95% bootstrap "
            "intervals: first order (the parameter alone) and total (with its interactions).",
            plot_sobol(indices, side, name),
        ),
    ]


def draw_study(directory: str | Path, summary: dict[str, Any]) -> list[Path]:
    """Write the study's charts into ``directory/plots`` (PNG and SVG)."""
    written = []
    for plot in study_plots(directory, summary):
        written += save_figure(plot.figure, Path(directory) / "plots", plot.stem)
    return written


# -- the report's section ---------------------------------------------------------------------


def report_section(results: Results) -> list[str]:
    """The HTML of a study's section in ``combatsim report`` (nothing for other results).

    Its tables and verdict; its two charts are drawn with the others, in the report's charts.
    """
    summary = results.summary
    if summary.get("kind") != "sensitivity":
        return []
    effects = read_table(results.directory, "effects")
    indices = read_table(results.directory, "indices")
    e = _escape
    parts = ['<section id="sensitivity"><h2>Sensitivity</h2>']
    parts.append(f"<p><strong>{e(summary.get('verdict', {}).get('sentence', ''))}</strong></p>")
    exact = summary.get("method") == "exact"
    if exact:
        parts.append(
            f'<p class="note">{e(summary.get("side"))}\'s win rate, exact at every point (each '
            f"solved as a chain, no combat played): the one-at-a-time changes are exact, and the "
            f"intervals of the Sobol indices over {summary.get('design_points')} design points "
            f"({summary.get('samples')} base samples, design seed {summary.get('seed')}) are "
            "the design's alone.</p>"
        )
    else:
        parts.append(
            f'<p class="note">{e(summary.get("side"))}\'s win rate; {summary.get("oat_runs")} '
            f"combats at each end of each one-at-a-time effect, {summary.get('design_points')} "
            f"Sobol design points of {summary.get('runs')} combats ({summary.get('samples')} "
            f"base samples); the same combat seeds everywhere (seed {summary.get('seed')}). The "
            "results above, and the charts before the tornado and Sobol charts, are the "
            "scenario as written.</p>"
        )
    if effects is not None:
        rows = [
            [
                r["parameter"],
                f"{r['low']} → {r['high']}",
                f"{r['rate_low']:.1%}",
                f"{r['rate_high']:.1%}",
                f"{r['change'] * 100:+.1f}"
                + ("" if exact else f" ({r['ci_low'] * 100:+.1f} to {r['ci_high'] * 100:+.1f})"),
            ]
            for r in _records(effects)
        ]
        change = "change, pts (exact)" if exact else "change, pts (95% CI)"
        header = ["parameter", "low → high", "at low", "at high", change]
        parts.append(_table("sensitivity-effects", header, rows))
    if indices is not None:
        rows = [
            [
                r["parameter"],
                f"{r['first']:.3f} ({r['first_low']:.3f} to {r['first_high']:.3f})",
                f"{r['total']:.3f} ({r['total_low']:.3f} to {r['total_high']:.3f})",
            ]
            for r in _records(indices)
        ]
        parts.append(_table("sensitivity-indices", ["parameter", "first order", "total"], rows))
    parts.append("</section>")
    return parts


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [{str(k): v for k, v in row.items()} for row in frame.to_dict("records")]


def _escape(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _table(key: str, header: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{_escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{_escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return (
        f'<table id="table-{key}" class="data"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )
