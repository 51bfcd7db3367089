"""Summaries of a run: win rate per side with a 95% confidence interval, draws, duration.

Intervals are Wilson score intervals from :func:`scipy.stats.binomtest`; they behave well near 0
and 1, where a designer's lopsided matchups live. The run layer builds the summary (``run
--json``, ``summary.json``) whether the outcomes are a table in memory or streamed chunk by chunk;
the analysis package reads it. SciPy is imported where the interval is computed: it is heavy
(most of a second), and ``import sim`` or ``combatsim --help`` should not pay for it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sim.records import DRAW

if TYPE_CHECKING:
    import pandas as pd

CONFIDENCE = 0.95


def wilson_interval(
    successes: int, trials: int, confidence: float = CONFIDENCE
) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    from scipy.stats import binomtest  # deferred: heavy third-party package (see above)

    if trials == 0:
        return (0.0, 1.0)
    ci = binomtest(successes, trials).proportion_ci(confidence_level=confidence, method="wilson")
    return (float(ci.low), float(ci.high))


def summarize(
    outcomes: pd.DataFrame,
    side_names: tuple[str, ...],
    scenario: str,
    seed: int,
    confidence: float = CONFIDENCE,
) -> dict[str, Any]:
    """The summary of a run's outcome table (see :func:`summary_from_counts` for its keys)."""
    return summary_from_counts(
        scenario,
        seed,
        len(outcomes),
        side_names,
        {str(k): int(v) for k, v in outcomes["winner"].value_counts().items()},
        {str(k): int(v) for k, v in outcomes["end"].value_counts().items()},
        _mean(outcomes["duration_s"]),
        {side: _mean(outcomes[f"survivors_{side}"]) for side in side_names},
        {side: _mean(outcomes[f"hp_left_{side}"]) for side in side_names},
        confidence,
    )


def summary_from_counts(
    scenario: str,
    seed: int,
    runs: int,
    side_names: Sequence[str],
    winners: Mapping[str, int],
    ends: Mapping[str, int],
    mean_duration_s: float,
    mean_survivors: Mapping[str, float],
    mean_hp_left: Mapping[str, float],
    confidence: float = CONFIDENCE,
) -> dict[str, Any]:
    """The summary of a run as a JSON-ready mapping, from its counts and means.

    One place defines the shape that ``run --json`` prints, whether the counts come from a
    table in memory (:func:`summarize`) or are kept chunk by chunk (:class:`sim.store.Tally`).

    Keys: ``scenario``, ``runs``, ``seed``, ``sides`` (per side ``wins``, ``win_rate``,
    ``ci95``, ``mean_survivors``, ``mean_hp_left``), ``draws``, ``draw_rate``, ``ends`` (combats
    per end reason) and ``mean_duration_s``.
    """
    sides = {}
    for side in side_names:
        wins = int(winners.get(side, 0))
        low, high = wilson_interval(wins, runs, confidence)
        sides[side] = {
            "wins": wins,
            "win_rate": wins / runs if runs else math.nan,
            "ci95": [low, high],
            "mean_survivors": mean_survivors[side],
            "mean_hp_left": mean_hp_left[side],
        }
    draws = int(winners.get(DRAW, 0))
    return {
        "scenario": scenario,
        "runs": runs,
        "seed": seed,
        "sides": sides,
        "draws": draws,
        "draw_rate": draws / runs if runs else math.nan,
        "ends": {k: int(ends[k]) for k in sorted(ends)},
        "mean_duration_s": mean_duration_s,
    }


def _mean(column: pd.Series) -> float:
    return float(column.mean()) if len(column) else math.nan
