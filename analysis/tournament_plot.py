"""The tournament's chart: the payoff matrix as a heat map, dominated strategies struck out.

Drawn from a tournament's summary (``summary.json``), so ``combatsim report`` redraws it from
saved results without playing anything. Each cell shows the row side's payoff and the ± of its
95% interval; the colors diverge at 50% (an even pairing is pale). A dominated row or column is
hatched over and its label struck through with the round of elimination; each label carries the
strategy's weight in the optimal mix.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from analysis.chart_style import PercentTicks
from analysis.plots import save_figure
from sim.rules.wording import counted

__all__ = ["plot_tournament", "save_figure"]


def plot_tournament(summary: dict[str, Any]) -> Figure:
    """The heat map of a tournament's summary (see the module docstring)."""
    rows, columns = summary["rows"], summary["columns"]
    payoff = np.asarray(summary["payoff"], dtype=float)
    ci = np.asarray(summary["ci95"], dtype=float)
    red, blue = summary["sides"]["rows"], summary["sides"]["columns"]
    rounds = {(e["side"], e["strategy"]): e["round"] for e in summary.get("eliminated", [])}
    mix = summary["mix"]
    figure = Figure(
        figsize=(2.2 + 1.35 * len(columns), 2.0 + 0.75 * len(rows)), layout="constrained"
    )
    ax = figure.add_subplot()
    image = ax.imshow(payoff, cmap="RdBu", vmin=0, vmax=1, aspect="auto")
    for i in range(len(rows)):
        for j in range(len(columns)):
            value = payoff[i, j]
            half = (ci[i, j, 1] - ci[i, j, 0]) / 2
            ink = "white" if abs(value - 0.5) > 0.3 else "black"
            ax.text(j, i, f"{value:.0%}\n±{half:.1%}", ha="center", va="center", color=ink)

    def label(side: str, name: str, weight: float) -> str:
        text = f"{name}\nmix {weight:.0%}"
        if (side, name) in rounds:
            text += f"\ndominated (round {rounds[(side, name)]})"
        return text

    ax.set_yticks(np.arange(len(rows)), [label(red, r, mix["rows"][r]) for r in rows])
    ax.set_xticks(np.arange(len(columns)), [label(blue, c, mix["columns"][c]) for c in columns])
    for i, name in enumerate(rows):
        if (red, name) in rounds:
            _strike(ax, (-0.5, i - 0.5), len(columns), 1)
            ax.get_yticklabels()[i].set_color("#888888")
    for j, name in enumerate(columns):
        if (blue, name) in rounds:
            _strike(ax, (j - 0.5, -0.5), 1, len(rows))
            ax.get_xticklabels()[j].set_color("#888888")
    ax.set_ylabel(f"{red} strategy (rows)")
    ax.set_xlabel(f"{blue} strategy (columns)")
    ax.xaxis.set_label_position("top")
    ax.xaxis.tick_top()
    colorbar = figure.colorbar(image, ax=ax)
    what = "win rate, draws half" if summary.get("payoff_kind") == "score" else "win rate"
    colorbar.set_label(f"{red} {what}")
    colorbar.formatter = PercentTicks()
    colorbar.update_ticks()
    low, high = summary.get("value_ci95", [np.nan, np.nan])
    exact = summary.get("method") == "exact"
    played = "exact" if exact else f"{counted(summary['runs'], 'combat')} per cell"
    spread = "exact" if exact else f"95% CI {low:.1%}–{high:.1%}"
    ax.set_title(
        f"{summary['scenario']}: {red} payoff, {played}\n"
        f"value {summary['value']:.1%} ({spread}); hatched: dominated",
        fontsize="medium",
    )
    return figure


def _strike(ax: Any, corner: tuple[float, float], width: float, height: float) -> None:
    """Hatch a dominated row or column over its cells."""
    ax.add_patch(
        Rectangle(
            corner,
            width,
            height,
            fill=False,
            hatch="///",
            edgecolor="#444444",
            linewidth=0.0,
            alpha=0.6,
        )
    )
