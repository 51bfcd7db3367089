"""One line that says what a run or a sweep found, for the top of a report.

"red won 53.8% ± 2.2 of 2000 combats; not even": the leading side's win rate with the
half-width of its 95% Wilson interval, and whether an even fight (each of k sides winning 1/k)
lies inside it. A sweep's line names where the win rate is lowest, highest and nearest even. A
comparison's line is :func:`analysis.comparison_view.comparison_verdict`.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from sim.rules.wording import counted
from sim.run.records import DRAW
from sim.run.summary import wilson_interval


def run_verdict(outcomes: pd.DataFrame, side_names: Sequence[str]) -> str:
    """The leading side's win rate ± its 95% interval's half-width, and whether it is even."""
    runs = len(outcomes)
    counts = outcomes["winner"].value_counts()
    leader = max(side_names, key=lambda side: int(counts.get(side, 0)))
    wins = int(counts.get(leader, 0))
    low, high = wilson_interval(wins, runs)
    even = 1 / len(side_names)
    rate = wins / runs
    half = (high - low) / 2
    if low <= even <= high:
        judged = f"even within the noise (its 95% CI, {low:.1%} – {high:.1%}, holds {even:.0%})"
    else:
        judged = "not even"
    line = f"{leader} won {rate:.1%} ± {half * 100:.1f} of {counted(runs, 'combat')}; {judged}"
    draws = int(counts.get(DRAW, 0))
    if draws:
        line += f"; {draws / runs:.1%} draws"
    return f"{line}."


def sweep_verdict(rates: pd.DataFrame, labels: Sequence[str], side: str, sides: int) -> str:
    """Where ``side``'s win rate is lowest, highest and nearest even over the sweep's points."""
    sub = rates[rates["side"] == side].reset_index(drop=True)
    even = 1 / sides

    def at(row: pd.Series) -> str:
        return ", ".join(f"{label} = {_shown(row[label])}" for label in labels)

    rate = sub["win_rate"].to_numpy(dtype=float)
    low = sub.iloc[int(rate.argmin())]
    high = sub.iloc[int(rate.argmax())]
    near = sub.iloc[int(abs(rate - even).argmin())]
    half = (near["ci_high"] - near["ci_low"]) / 2
    judged = "even" if near["ci_low"] <= even <= near["ci_high"] else "not even"
    return (
        f"{side} won {low['win_rate']:.1%} at {at(low)} up to {high['win_rate']:.1%} at "
        f"{at(high)}; nearest even at {at(near)}: {near['win_rate']:.1%} ± {half * 100:.1f} "
        f"({judged} within its 95% CI)."
    )


def _shown(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
