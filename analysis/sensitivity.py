"""The maths of a sensitivity study: the design, one-at-a-time effects, Sobol indices, the verdict.

Nothing here plays a combat (:mod:`analysis.sensitivity_study` does): these are pure functions
from win indicators and win rates to effects and indices, so that they can be checked against
cases whose answer is known.

- **One-at-a-time effects** move one parameter from its low to its high end with the others at
  the scenario's values. Both ends play the same combat seeds (common random numbers), so the
  change is measured on paired combats: its interval comes from the per-combat differences,
  far narrower than two independent win rates would give.
- **Sobol indices** (variance-based, global) split the variance of the win rate over the joint
  ranges: the first-order index of a parameter is the share it explains alone, the total index
  the share it explains with all its interactions. The design is Saltelli's, on two
  independently scrambled Sobol point sets (SciPy's quasi-Monte Carlo), and the estimators are
  Saltelli (2010) for the first order and Jansen for the total, both as SALib computes them,
  with bootstrap intervals. A parameter that changes nothing gets
  exactly 0: every design point that moves only it plays the very same combats.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: The confidence level of every interval.
CONFIDENCE = 0.95
#: The normal quantile of :data:`CONFIDENCE`, two-sided.
Z95 = 1.959963984540054
#: Bootstrap resamples of the Sobol indices' intervals.
RESAMPLES = 500


@dataclass(frozen=True)
class Factor:
    """A varied parameter: its name, path, range and the scenario's own value.

    Attributes:
        label: the name in tables and charts.
        path: the dotted path in the scenario.
        low: the low end (the first listed value).
        high: the high end (the last listed value).
        base: the scenario's value (what the others stay at while one moves).
        values: the listed values, or None for a range from ``low`` to ``high``.
        integer: a range of whole numbers (a sample is a whole number too).
    """

    label: str
    path: str
    low: Any
    high: Any
    base: Any
    values: tuple[Any, ...] | None = None
    integer: bool = False

    def at(self, unit: float) -> Any:
        """The parameter's value at ``unit`` in [0, 1) of its range.

        A listed parameter and a whole-number range give each of their values the same share
        of the unit interval; a real range maps linearly.
        """
        if self.values is not None:
            return self.values[min(int(unit * len(self.values)), len(self.values) - 1)]
        if self.integer:
            span = int(self.high) - int(self.low)
            return int(self.low) + min(int(unit * (span + 1)), span)
        return round(float(self.low) + unit * (float(self.high) - float(self.low)), 10)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        found: dict[str, Any] = {
            "label": self.label,
            "path": self.path,
            "low": self.low,
            "high": self.high,
            "base": self.base,
        }
        if self.values is not None:
            found["values"] = list(self.values)
        return found


# -- the design -----------------------------------------------------------------------------------


def _problem(count: int) -> dict[str, Any]:
    return {
        "num_vars": count,
        "names": [f"x{i}" for i in range(count)],
        "bounds": [[0.0, 1.0]] * count,
    }


def sobol_design(count: int, samples: int, seed: int) -> np.ndarray:
    """Saltelli's design on the unit cube: ``samples * (count + 2)`` rows of ``count`` numbers.

    Row blocks go ``A, A_B^1 .. A_B^count, B`` per base sample, as :func:`sobol_indices` (and
    SALib) expect them. ``A`` and ``B`` are two independently scrambled Sobol point sets, the
    points of ``B`` in a random order. Taking them as the two halves of one ``2 * count``-
    dimensional sequence (SALib's own sampler) makes them strongly correlated at the small sample
    sizes a combat study can afford (measured: a correlation of 0.9 between the halves' columns
    with 5 parameters and 16 samples), and so does pairing two scrambled sets point by point in
    their order; the estimators then miss most of an influential parameter's effect. Shuffled,
    each pair ``(A_j, B_j)`` is independent, and each set still covers the cube evenly.
    """
    # Deferred: SciPy's qmc module is a heavy third-party import only studies need.
    from scipy.stats import qmc

    first_rng, second_rng, order_rng = (
        np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(3)
    )
    first = qmc.Sobol(d=count, scramble=True, seed=first_rng).random(samples)
    second = qmc.Sobol(d=count, scramble=True, seed=second_rng).random(samples)
    second = second[order_rng.permutation(samples)]
    rows = np.empty((samples, count + 2, count))
    rows[:, 0, :] = first
    rows[:, -1, :] = second
    for i in range(count):
        rows[:, 1 + i, :] = first
        rows[:, 1 + i, i] = second[:, i]
    return rows.reshape(samples * (count + 2), count)


# -- Sobol indices --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95% interval."""

    estimate: float
    low: float
    high: float

    def covers(self, value: float) -> bool:
        """Whether ``value`` lies in the interval."""
        return self.low <= value <= self.high

    def to_dict(self) -> dict[str, float]:
        """A JSON-ready form."""
        return {"estimate": self.estimate, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class SobolIndex:
    """A parameter's first-order and total Sobol indices, each with its interval."""

    label: str
    first: Interval
    total: Interval

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"label": self.label, "first": self.first.to_dict(), "total": self.total.to_dict()}


def sobol_indices(
    labels: Sequence[str], rates: np.ndarray, seed: int, resamples: int = RESAMPLES
) -> list[SobolIndex]:
    """First-order and total indices of each parameter, from the rates at the design's points.

    Args:
        labels: the parameters, in the design's column order.
        rates: the win rate at each row of :func:`sobol_design`, in its order.
        seed: the bootstrap's seed (the intervals are the same for the same seed).
        resamples: bootstrap resamples.

    A win rate that never moves has no variance to share: every index is 0 then.
    """
    rates = np.asarray(rates, dtype=float)
    if float(np.var(rates)) == 0.0:
        zero = Interval(0.0, 0.0, 0.0)
        return [SobolIndex(label, zero, zero) for label in labels]
    # Deferred: SALib is a heavy third-party package only studies need.
    from SALib.analyze import sobol as sobol_analyze

    found = sobol_analyze.analyze(
        _problem(len(labels)),
        rates,
        calc_second_order=False,
        num_resamples=resamples,
        conf_level=CONFIDENCE,
        seed=seed,
    )
    indices = []
    for i, label in enumerate(labels):
        first, first_half = float(found["S1"][i]), float(found["S1_conf"][i])
        total, total_half = float(found["ST"][i]), float(found["ST_conf"][i])
        indices.append(
            SobolIndex(
                label,
                Interval(first, first - first_half, first + first_half),
                Interval(total, total - total_half, total + total_half),
            )
        )
    return indices


# -- one-at-a-time effects ------------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """A parameter's one-at-a-time effect: the win rate at each end and the paired change."""

    label: str
    low: Any
    high: Any
    rate_low: float
    rate_high: float
    change: Interval
    runs: int

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "label": self.label,
            "low": self.low,
            "high": self.high,
            "rate_low": self.rate_low,
            "rate_high": self.rate_high,
            "change": self.change.to_dict(),
            "runs": self.runs,
        }


def paired_change(at_low: np.ndarray, at_high: np.ndarray) -> Interval:
    """The change of win rate from ``at_low`` to ``at_high``, paired combat by combat.

    Args:
        at_low: 1 where the side won combat *k* at the low end, else 0.
        at_high: the same combats (same seeds) at the high end.

    The interval is the normal one on the per-combat differences (their standard error), which
    is what common random numbers buy: the luck both ends share cancels.
    """
    low = np.asarray(at_low, dtype=float)
    high = np.asarray(at_high, dtype=float)
    if low.shape != high.shape or low.size < 2:
        raise ValueError("two win indicators of the same combats, at least two of them")
    differences = high - low
    change = float(differences.mean())
    se = float(differences.std(ddof=1)) / math.sqrt(differences.size)
    return Interval(change, change - Z95 * se, change + Z95 * se)


def effect(label: str, low: Any, high: Any, at_low: np.ndarray, at_high: np.ndarray) -> Effect:
    """A parameter's one-at-a-time effect from its win indicators at both ends."""
    return Effect(
        label,
        low,
        high,
        float(np.mean(at_low)),
        float(np.mean(at_high)),
        paired_change(at_low, at_high),
        int(np.size(at_low)),
    )


# -- the verdict ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """Which parameter moves the balance most, and whether the study is sure of it.

    Attributes:
        leader: the parameter with the largest total index (None when nothing moved).
        runner_up: the next one (None with a single parameter).
        separated: the leader's total-index interval lies wholly above the runner-up's.
        sentence: the verdict in one line.
    """

    leader: str | None
    runner_up: str | None
    separated: bool
    sentence: str

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "leader": self.leader,
            "runner_up": self.runner_up,
            "separated": self.separated,
            "sentence": self.sentence,
        }


def _shown(index: SobolIndex) -> str:
    t = index.total
    return f"total index {t.estimate:.2f} (95% CI {t.low:.2f} to {t.high:.2f})"


#: What narrows a sampled study's total-index intervals, as the verdict says it.
MORE = "more samples (--samples) or combats per point (--runs) would separate them"


def verdict(indices: Sequence[SobolIndex], side: str, more: str = MORE) -> Verdict:
    """Name the parameter that moves ``side``'s win rate most and say how sure that is.

    Sure means the leader's total-index interval is wholly above the runner-up's: then no
    resampling of the design that the bootstrap considers plausible puts another first.
    ``more`` says what would separate two overlapping intervals (an exact study has no combats
    to add).
    """
    ranked = sorted(indices, key=lambda i: -i.total.estimate)
    if not ranked or all(i.total.high <= 0.0 and i.total.estimate <= 0.0 for i in ranked):
        return Verdict(None, None, False, f"no parameter moved {side}'s win rate over these ranges")
    leader = ranked[0]
    head = f"{leader.label} moves {side}'s win rate most: {_shown(leader)}"
    if len(ranked) == 1:
        return Verdict(leader.label, None, True, f"{head} (the only parameter)")
    second = ranked[1]
    if leader.total.low > second.total.high:
        return Verdict(
            leader.label,
            second.label,
            True,
            f"{head}; sure: its interval lies above that of the next, {second.label} "
            f"({_shown(second)})",
        )
    return Verdict(
        leader.label,
        second.label,
        False,
        f"{head}; not sure: its interval overlaps that of {second.label} ({_shown(second)}); "
        f"{more}",
    )
