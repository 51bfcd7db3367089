"""A saved comparison (``compare --out``) shown as a comparison: arm by arm, and paired.

A comparison's outcome table holds every arm (column ``variant``) on the same combats. Pooled,
its rows would read as one long run whose win rate belongs to no scenario; so ``plot`` and
``report`` show each arm's own win rates, and the paired differences of
:func:`analysis.compare.compare_outcomes` (Tango's interval, McNemar's exact test, Holm), recomputed
from the saved table exactly as ``compare`` printed them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analysis.chart_style import (
    CONFIDENCE,
    DRAW_COLOR,
    PALETTE,
    new_axes,
    percent_axis,
    wrapped_title,
)
from analysis.compare import ALPHA, BASE, Comparison, compare_outcomes, points
from analysis.results import Results, ResultsError
from analysis.sweep import win_rates
from sim.rules.wording import counted
from sim.run.records import DRAW


def comparison_of(results: Results) -> Comparison:
    """The paired comparison of a comparison's results directory, every arm against the base.

    Raises:
        ResultsError: the arms did not play the same combats (then they cannot be paired).
    """
    arms = results.arms
    base = BASE if BASE in arms else arms[0]
    alpha = (results.summary.get("methods") or {}).get("alpha", ALPHA)
    try:
        return compare_outcomes(
            results.outcomes,
            results.side_names,
            scenario=results.scenario_name,
            seed=results.seed or 0,
            base=base,
            alpha=float(alpha),
        )
    except ValueError as exc:
        raise ResultsError(
            f"{results.directory}: a comparison that cannot be paired ({exc})"
        ) from None


def arm_rates(results: Results) -> pd.DataFrame:
    """Win rate with its 95% Wilson interval per arm and side, arms in the order played."""
    rates = win_rates(results.outcomes, results.side_names, ["variant"])
    order = {arm: i for i, arm in enumerate(results.arms)}
    return rates.iloc[np.argsort(rates["variant"].map(order).to_numpy(), kind="stable")]


def plot_arm_win_rates(results: Results) -> Figure:
    """Each arm's win rate per side as grouped bars with 95% Wilson error bars."""
    rates = arm_rates(results)
    sides = list(results.side_names)
    if rates.loc[rates["side"] == DRAW, "wins"].sum() > 0:
        sides.append(DRAW)
    arms = results.arms
    figure, ax = new_axes(max(7.0, 1.2 * len(arms) + 2.5), 4.4)
    width = 0.8 / len(sides)
    for i, side in enumerate(sides):
        sub = rates[rates["side"] == side]
        x = np.arange(len(arms)) + (i - (len(sides) - 1) / 2) * width
        rate = sub["win_rate"].to_numpy()
        color = DRAW_COLOR if side == DRAW else PALETTE[i % len(PALETTE)]
        ax.bar(x, rate, width=width * 0.92, color=color, label="draw" if side == DRAW else side)
        ax.errorbar(
            x,
            rate,
            yerr=[rate - sub["ci_low"].to_numpy(), sub["ci_high"].to_numpy() - rate],
            fmt="none",
            ecolor="black",
            capsize=3,
            label="95% CI (Wilson)" if i == 0 else None,
        )
    ax.set_xticks(np.arange(len(arms)), arms, rotation=20 if len(arms) > 4 else 0, ha="right")
    ax.set_xlabel("arm (the same combats in each)")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1.05)
    percent_axis(ax.yaxis)
    runs = int(rates["runs"].max())
    width_in = figure.get_figwidth()
    ax.set_title(
        wrapped_title(
            f"Win rate per arm ({counted(runs, 'combat')} each)", results.scenario_name, width_in
        )
    )
    ax.legend(loc="upper left", fontsize="small", ncols=min(len(sides) + 1, 4))
    return figure


def plot_paired_differences(comparison: Comparison) -> Figure:
    """Each variant's paired difference in win rate from the base, per side, with Tango's 95% CI.

    A filled marker is significant after Holm's correction; a hollow one is not.
    """
    rows = comparison.wins
    figure, ax = new_axes(7.0, max(3.0, 0.35 * len(rows) + 1.8))
    y = np.arange(len(rows))[::-1]
    for yi, row in zip(y, rows, strict=True):
        color = PALETTE[comparison.side_names.index(row.side) % len(PALETTE)]
        low, high = row.ci95
        ax.errorbar(
            [row.difference * 100],
            [yi],
            xerr=[[(row.difference - low) * 100], [(high - row.difference) * 100]],
            fmt="o",
            color=color,
            markerfacecolor=color if row.significant else "white",
            capsize=4,
        )
    ax.axvline(0, color="black", linewidth=1)
    ax.set_yticks(y, [f"{row.variant}: {row.side}" for row in rows])
    ax.set_xlabel("variant − base, win rate in percentage points (95% CI, Tango)")
    ax.set_title(
        wrapped_title(
            f"Paired difference from the base ({counted(comparison.runs, 'combat')} an arm)",
            comparison.scenario,
        )
    )
    ax.plot([], [], "o", color="black", label=f"significant (Holm, α {comparison.alpha:g})")
    ax.plot([], [], "o", color="black", markerfacecolor="white", label="not significant")
    ax.legend(loc="best", fontsize="small")
    return figure


# -- tables -------------------------------------------------------------------------------------


def arm_rows(results: Results) -> tuple[list[str], list[list[Any]]]:
    """Header and rows of the per-arm table: win rate (95% CI) per side, draws, mean length."""
    rates = arm_rates(results)
    sides = results.side_names
    header = ["arm", *(f"{side} win rate (95% CI)" for side in sides), "draws", "mean length (s)"]
    rows = []
    for arm in results.arms:
        by_side = rates[rates["variant"] == arm].set_index("side")
        row: list[Any] = [arm]
        for side in sides:
            r = by_side.loc[side]
            row.append(f"{r['win_rate']:.1%} ({r['ci_low']:.1%} – {r['ci_high']:.1%})")
        row.append(str(by_side.loc[DRAW, "wins"]))
        row.append(f"{by_side['mean_duration_s'].iloc[0]:.2f}")
        rows.append(row)
    return header, rows


def difference_rows(comparison: Comparison) -> tuple[list[str], list[list[Any]]]:
    """Header and rows of the paired differences (one per variant and side)."""
    header = [
        "variant",
        "side",
        "base win rate",
        "variant win rate",
        "difference (points)",
        "95% CI (Tango)",
        "p (Holm)",
        "verdict",
    ]
    rows = [
        [
            w.variant,
            w.side,
            f"{w.base_rate:.1%}",
            f"{w.variant_rate:.1%}",
            points(w.difference),
            f"{points(w.ci95[0])} to {points(w.ci95[1])}",
            f"{w.p_holm:.3g}",
            "changed" if w.significant else "no change shown",
        ]
        for w in comparison.wins
    ]
    return header, rows


def effect_rows(comparison: Comparison) -> tuple[list[str], list[list[Any]]]:
    """Header and rows of what each variant did to whole combats (outcomes, fight length)."""
    header = [
        "variant",
        "combats with another outcome",
        "mean length base → variant (s)",
        "paired difference (s)",
        "p (Holm)",
    ]
    rows = [
        [
            e.variant,
            f"{e.changed_outcome} of {e.runs}",
            f"{e.mean_duration_base:.2f} → {e.mean_duration_variant:.2f}",
            f"{e.duration_difference:+.2f}",
            f"{e.p_holm:.3g}",
        ]
        for e in comparison.effects
    ]
    return header, rows


def comparison_verdict(comparison: Comparison) -> str:
    """One line: the largest significant change, or that none was shown."""
    changed = [w for w in comparison.wins if w.significant]
    if not comparison.wins:
        return "Only the base arm: nothing to compare."
    if not changed:
        widest = comparison.widest()
        assert widest is not None
        return (
            f"No variant moved a win rate detectably ({len(comparison.wins)} paired "
            f"differences, Holm α {comparison.alpha:g}; the widest 95% CI is "
            f"± {widest.half_width * 100:.1f} points)."
        )
    top = max(changed, key=lambda w: abs(w.difference))
    low, high = top.ci95
    return (
        f"{top.variant} moves the win rate of {top.side} {points(top.difference)} points "
        f"({top.base_rate:.1%} → {top.variant_rate:.1%}, 95% CI {points(low)} to {points(high)}); "
        f"{len(changed)} of {len(comparison.wins)} differences significant (Holm, α "
        f"{comparison.alpha:g})."
    )


#: What the tables of a comparison report mean.
COMPARISON_DEFINITIONS = {
    "arm": "the base scenario or one variant; every arm plays the same combats (combat k of "
    "every arm uses the dice stream of (seed, k))",
    "win rate (95% CI)": "the arm's wins / combats, with its 95% Wilson interval",
    "difference (points)": "variant win rate − base win rate, paired combat by combat",
    "95% CI (Tango)": f"Tango's {CONFIDENCE:.0%} score interval of a paired difference",
    "p (Holm)": "McNemar's exact test on the combats won in one arm only, Holm-corrected over "
    "every variant and side",
    "combats with another outcome": "combats whose winner (or draw) differs from the base's",
}
