"""Paired comparison of rule tweaks: did the tweak change the balance, or is it noise?

Every arm of a comparison (the base scenario and each variant) plays the same combats: combat k
of every arm draws its dice from the stream of (seed, k) — common random numbers. The arms are
then compared combat by combat. Combats that end the same way in both arms say nothing about the
difference; only the *discordant* combats (won by a side in one arm and not in the other) do,
which is why a paired comparison sees a small tweak at a run count where two independent runs
would drown it in noise. A tweak that changes nothing gives identical combats and a difference
of exactly 0.

Statistics, for each side and each variant against the base (``b`` = combats the side won only
in the base, ``c`` = only in the variant, ``n`` = combats):

- **Difference in win rate** ``(c - b) / n``, with **Tango's score interval** for a difference
  of paired proportions (Tango 1998, Statistics in Medicine 17:891). It is the set of differences
  the score test does not reject; at a difference of 0 that test is McNemar's. It stays inside
  [-1, 1] and keeps its coverage when there are few discordant combats, where the paired Wald
  interval collapses to a point (a no-op tweak gets ±z²/(n+z²), not ±0).
- **McNemar's exact test**: with no real change, each discordant combat is as likely to go one
  way as the other, so ``c`` is Binomial(b + c, 1/2); two-sided :func:`scipy.stats.binomtest`.
- **Durations**: a **paired t-test** on the per-combat differences of fight length. It tests the
  mean fight length, which is what the tables report; with hundreds of combats the mean of the
  differences is close to normal however skewed the lengths are; and it takes the many exactly
  equal pairs that common random numbers produce as they are, where the Wilcoxon signed-rank test
  would have to drop or specially rank them (and tests a median shift instead).
- **Holm's step-down correction** over all win-rate tests (variants × sides), and separately over
  the duration tests (one per variant); a result is significant when its Holm-adjusted p-value is
  below alpha (0.05). The output says so.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from rich.console import Console, JustifyMethod
from rich.markup import escape
from rich.table import Table
from scipy.optimize import brentq
from scipy.stats import binomtest, norm
from scipy.stats import t as student_t

from analysis.job import Streaming, digest, finish_job, open_job, slug
from analysis.precision import DEFAULT_BATCH, DEFAULT_MAX_RUNS, PreciseRun, run_until_precise
from analysis.results import write_results
from sim.rules.wording import counted
from sim.run.choices import Execution
from sim.run.meta import made_with
from sim.run.records import DRAW
from sim.run.runner import range_records
from sim.run.store import json_ready, scenario_record
from sim.run.summary import CONFIDENCE, summarize, wilson_interval
from sim.run.tables import outcomes_frame
from sim.scenario.loader import load_scenario
from sim.scenario.problems import Problem, ScenarioError
from sim.scenario.schema import Scenario
from sim.scenario.variants import arms as variant_arms

#: Family-wise error rate of the significance verdicts.
ALPHA = 0.05
#: The name of the base arm.
BASE = "base"

INTERVAL_METHOD = "Tango score interval for a paired difference of proportions"
TEST_METHOD = "McNemar exact test (two-sided binomial test on the discordant combats)"
DURATION_METHOD = "paired t-test on per-combat differences of duration"
CORRECTION_METHOD = "Holm step-down"


# -- the statistics ---------------------------------------------------------------------------


def tango_interval(
    base_only: int, variant_only: int, n: int, confidence: float = CONFIDENCE
) -> tuple[float, float]:
    """Tango's score interval for ``P(variant) - P(base)`` from paired binary outcomes.

    Args:
        base_only: pairs where only the base arm had the outcome (a side's win).
        variant_only: pairs where only the variant had it.
        n: all pairs.
        confidence: the interval's confidence level.
    """
    if n <= 0:
        return (-1.0, 1.0)
    if not 0 <= base_only + variant_only <= n or min(base_only, variant_only) < 0:
        raise ValueError("discordant counts must be non-negative and at most n in total")
    z = float(norm.ppf(0.5 + confidence / 2))
    n12, n21 = variant_only, base_only
    estimate = (n12 - n21) / n

    def score(delta: float) -> float:
        # The constrained maximum-likelihood p21 given the difference (Tango 1998, eq. 3).
        a = 2 * n
        b = -n12 - n21 + (2 * n - n12 + n21) * delta
        c = -n21 * delta * (1 - delta)
        p21 = (math.sqrt(max(b * b - 4 * a * c, 0.0)) - b) / (2 * a)
        variance = n * (2 * p21 + delta * (1 - delta))
        excess = n12 - n21 - n * delta
        if variance <= 0:
            return math.copysign(math.inf, excess) if excess else 0.0
        return excess / math.sqrt(variance)

    edge = 1 - 1e-12
    low = -1.0
    if score(-edge) > z:
        low = brentq(lambda d: score(d) - z, -edge, estimate, xtol=1e-12)
    high = 1.0
    if score(edge) < -z:
        high = brentq(lambda d: score(d) + z, estimate, edge, xtol=1e-12)
    return (max(-1.0, low), min(1.0, high))


def newcombe_interval(
    successes_a: int, n_a: int, successes_b: int, n_b: int, confidence: float = CONFIDENCE
) -> tuple[float, float]:
    """Newcombe's hybrid score interval for ``p_b - p_a`` from two *independent* samples.

    The unpaired counterpart of :func:`tango_interval` (Newcombe 1998, method 10): what two runs
    with different seeds would give. Used to show what the pairing gains.
    """
    p_a, p_b = successes_a / n_a, successes_b / n_b
    low_a, high_a = wilson_interval(successes_a, n_a, confidence)
    low_b, high_b = wilson_interval(successes_b, n_b, confidence)
    difference = p_b - p_a
    return (
        difference - math.sqrt((p_b - low_b) ** 2 + (high_a - p_a) ** 2),
        difference + math.sqrt((high_b - p_b) ** 2 + (p_a - low_a) ** 2),
    )


def mcnemar_exact(base_only: int, variant_only: int) -> float:
    """Two-sided p-value of McNemar's exact test (1 when no combat changed)."""
    discordant = base_only + variant_only
    if discordant == 0:
        return 1.0
    return float(binomtest(variant_only, discordant, 0.5).pvalue)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


@dataclass(frozen=True)
class WinDifference:
    """One side's win rate in a variant against the base, paired combat by combat.

    Attributes:
        variant: the variant's name.
        side: the side's name.
        runs: the number of paired combats.
        base_wins: the side's wins in the base.
        variant_wins: its wins in the variant.
        base_only: combats it won in the base but not in the variant.
        variant_only: combats it won in the variant but not in the base.
        difference: variant win rate minus base win rate.
        ci95: Tango's interval of the difference.
        p_value: McNemar's exact test.
        p_holm: the p-value after Holm's correction over the family (NaN until corrected).
        significant: ``p_holm`` below alpha.
    """

    variant: str
    side: str
    runs: int
    base_wins: int
    variant_wins: int
    base_only: int
    variant_only: int
    difference: float
    ci95: tuple[float, float]
    p_value: float
    p_holm: float = math.nan
    significant: bool = False

    @property
    def base_rate(self) -> float:
        """The side's win rate in the base."""
        return self.base_wins / self.runs if self.runs else math.nan

    @property
    def variant_rate(self) -> float:
        """The side's win rate in the variant."""
        return self.variant_wins / self.runs if self.runs else math.nan

    @property
    def half_width(self) -> float:
        """Half the length of the interval."""
        return (self.ci95[1] - self.ci95[0]) / 2

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "variant": self.variant,
            "side": self.side,
            "runs": self.runs,
            "base_wins": self.base_wins,
            "variant_wins": self.variant_wins,
            "base_win_rate": self.base_rate,
            "variant_win_rate": self.variant_rate,
            "difference": self.difference,
            "ci95": list(self.ci95),
            "base_only": self.base_only,
            "variant_only": self.variant_only,
            "p_value": self.p_value,
            "p_holm": self.p_holm,
            "significant": self.significant,
        }


def paired_win_difference(
    base_won: Sequence[bool] | np.ndarray,
    variant_won: Sequence[bool] | np.ndarray,
    variant: str = "variant",
    side: str = "side",
    confidence: float = CONFIDENCE,
) -> WinDifference:
    """Compare one side's wins in two arms that played the same combats, pair by pair."""
    x = np.asarray(base_won, dtype=bool)
    y = np.asarray(variant_won, dtype=bool)
    if x.shape != y.shape:
        raise ValueError("both arms must have played the same combats")
    n = int(x.size)
    base_only = int(np.count_nonzero(x & ~y))
    variant_only = int(np.count_nonzero(~x & y))
    return WinDifference(
        variant=variant,
        side=side,
        runs=n,
        base_wins=int(np.count_nonzero(x)),
        variant_wins=int(np.count_nonzero(y)),
        base_only=base_only,
        variant_only=variant_only,
        difference=(variant_only - base_only) / n if n else math.nan,
        ci95=tango_interval(base_only, variant_only, n, confidence),
        p_value=mcnemar_exact(base_only, variant_only),
    )


@dataclass(frozen=True)
class VariantEffect:
    """What a variant did to whole combats: outcomes changed, fight length (paired t-test).

    Attributes:
        variant: the variant's name.
        runs: the number of paired combats.
        changed_outcome: combats whose winner (or draw) differs from the base's.
        draws_base: draws in the base.
        draws_variant: draws in the variant.
        mean_duration_base: mean fight length in the base, seconds of game time.
        mean_duration_variant: the same in the variant.
        duration_difference: the mean of the per-combat differences (variant - base).
        t_statistic: the paired t statistic (0 when every pair is equal).
        p_value: its two-sided p-value.
        p_holm: after Holm's correction over the variants.
        significant: ``p_holm`` below alpha.
    """

    variant: str
    runs: int
    changed_outcome: int
    draws_base: int
    draws_variant: int
    mean_duration_base: float
    mean_duration_variant: float
    duration_difference: float
    t_statistic: float
    p_value: float
    p_holm: float = math.nan
    significant: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "variant": self.variant,
            "runs": self.runs,
            "changed_outcome": self.changed_outcome,
            "draws_base": self.draws_base,
            "draws_variant": self.draws_variant,
            "mean_duration_base_s": self.mean_duration_base,
            "mean_duration_variant_s": self.mean_duration_variant,
            "duration_difference_s": self.duration_difference,
            "t_statistic": self.t_statistic,
            "p_value": self.p_value,
            "p_holm": self.p_holm,
            "significant": self.significant,
        }


def paired_t_test(base: Sequence[float], variant: Sequence[float]) -> tuple[float, float]:
    """``(t, p)`` of a two-sided paired t-test; ``(0, 1)`` when every pair is equal."""
    d = np.asarray(variant, dtype=float) - np.asarray(base, dtype=float)
    n = d.size
    if n < 2:
        return (0.0, 1.0)
    mean = float(d.mean())
    sd = float(d.std(ddof=1))
    if sd == 0:
        return (0.0, 1.0) if mean == 0 else (math.copysign(math.inf, mean), 0.0)
    t = mean / (sd / math.sqrt(n))
    return (t, float(2 * student_t.sf(abs(t), n - 1)))


# -- a whole comparison -----------------------------------------------------------------------


@dataclass
class Comparison:
    """The paired comparison of every variant with the base.

    Attributes:
        scenario: what was compared (the base scenario's name).
        seed: the seed every arm played.
        runs: paired combats per arm.
        side_names: the sides.
        arms: each arm's run summary (win rates with Wilson intervals, draws, durations).
        wins: one :class:`WinDifference` per variant and side, Holm-corrected together.
        effects: one :class:`VariantEffect` per variant, Holm-corrected together.
        alpha: the family-wise error rate of the verdicts.
        options: each arm's rule options (all of them, defaults included).
        outcomes: every arm's outcome table, one after the other (column ``variant``).
        precision: how a ``--precision`` run ended (None for a fixed run count).
    """

    scenario: str
    seed: int
    runs: int
    side_names: tuple[str, ...]
    arms: dict[str, dict[str, Any]]
    wins: list[WinDifference]
    effects: list[VariantEffect]
    alpha: float = ALPHA
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    outcomes: pd.DataFrame | None = field(default=None, repr=False)
    precision: PreciseRun | None = field(default=None, repr=False)
    #: The base's rules, file and time limit, recorded with the saved results.
    made: dict[str, Any] = field(default_factory=dict, repr=False)
    #: Each arm's scenario, by name (the files they came from are saved with the results).
    scenarios: dict[str, Scenario] = field(default_factory=dict, repr=False)

    def intervals(self) -> list[tuple[float, float]]:
        """Every interval the comparison reports (the paired win-rate differences)."""
        return [w.ci95 for w in self.wins]

    def widest(self) -> WinDifference | None:
        """The difference with the widest interval."""
        return max(self.wins, key=lambda w: w.half_width, default=None)

    def to_dict(self) -> dict[str, Any]:
        """The comparison as one JSON-ready mapping."""
        return {
            "kind": "comparison",
            "scenario": self.scenario,
            "runs": self.runs,
            "seed": self.seed,
            "pairing": "common random numbers: combat k of every arm uses the stream (seed, k)",
            "sides": list(self.side_names),
            "variants": [a for a in self.arms if a != BASE],
            "arms": self.arms,
            "options": self.options,
            "win_rate": [w.to_dict() for w in self.wins],
            "variant_effects": [e.to_dict() for e in self.effects],
            "methods": {
                "difference": "variant - base, paired combat by combat",
                "interval": INTERVAL_METHOD,
                "test": TEST_METHOD,
                "durations": DURATION_METHOD,
                "correction": f"{CORRECTION_METHOD}, over {len(self.wins)} win-rate tests and "
                f"separately over {len(self.effects)} duration tests",
                "alpha": self.alpha,
            },
            "precision": self.precision.to_dict() if self.precision else None,
        }

    def save(self, directory: str | Path, csv: bool = True) -> list[Path]:
        """Write ``outcomes.*`` (every arm), ``comparison.json``, ``meta.json`` and the scenario.

        ``meta.json`` says the kind, ``comparison``: ``combatsim report`` and ``plot`` then show
        the results arm by arm. The base's file is kept as ``scenario.yaml``, as written; a
        comparison of other files keeps each as ``scenario-ARM.yaml``; ``meta.json`` says, per
        arm, which file and what was set on top of it (a variant's values).
        """
        if self.outcomes is None:
            raise ValueError("a comparison without its outcome table cannot be saved")
        base = self.scenarios.get(BASE)
        files: dict[str, Scenario] = {}
        arms: dict[str, Any] = {}
        for name, arm in self.scenarios.items():
            file = "scenario.yaml"
            if base is not None and name != BASE and arm.text != base.text:
                file = f"scenario-{slug(name)}.yaml"
                files[file] = arm
            arms[name] = {"file": arm.file, "scenario_file": file, **scenario_record(arm)}
        meta = {
            "kind": "comparison",
            "scenario": self.scenario,
            "seed": self.seed,
            "runs": self.runs,
            "side_names": list(self.side_names),
            "arms": arms or list(self.arms),
            "alpha": self.alpha,
            **self.made,
            **made_with(),
        }
        written = write_results(
            directory, self.outcomes, self.to_dict(), meta=json_ready(meta), csv=csv,
            summary_name="comparison.json", scenario=base, scenario_files=files,
        )  # fmt: skip
        finish_job(directory)  # the arms streamed there are now whole
        return written


def compare_outcomes(
    outcomes: pd.DataFrame,
    side_names: Sequence[str],
    *,
    scenario: str = "",
    seed: int = 0,
    base: str = BASE,
    alpha: float = ALPHA,
    confidence: float = CONFIDENCE,
) -> Comparison:
    """Compare every arm of an outcome table with the base arm, pairing rows by combat index.

    Args:
        outcomes: rows of every arm (column ``variant`` names the arm; ``combat`` pairs rows).
        side_names: the sides to compare.
        scenario: the name shown.
        seed: the seed the arms played.
        base: the arm the others are compared with.
        alpha: family-wise error rate of the verdicts (after Holm's correction).
        confidence: of the intervals.
    """
    names = list(dict.fromkeys(outcomes["variant"]))
    if base not in names:
        raise ValueError(f"no arm named {base!r} in the outcome table")
    names.remove(base)
    tables = {
        name: outcomes[outcomes["variant"] == name].sort_values("combat").reset_index(drop=True)
        for name in [base, *names]
    }
    base_rows = tables[base]
    sides = tuple(side_names)
    wins: list[WinDifference] = []
    effects: list[VariantEffect] = []
    for name in names:
        rows = tables[name]
        if not np.array_equal(rows["combat"].to_numpy(), base_rows["combat"].to_numpy()):
            raise ValueError(f"arm {name!r} did not play the same combats as the base")
        for side in sides:
            wins.append(
                paired_win_difference(
                    base_rows["winner"].to_numpy() == side,
                    rows["winner"].to_numpy() == side,
                    name,
                    side,
                    confidence,
                )
            )
        t, p = paired_t_test(base_rows["duration_s"], rows["duration_s"])
        before, after = base_rows["winner"].to_numpy(), rows["winner"].to_numpy()
        effects.append(
            VariantEffect(
                variant=name,
                runs=len(rows),
                changed_outcome=int(np.count_nonzero(after != before)),
                draws_base=int(np.count_nonzero(before == DRAW)),
                draws_variant=int(np.count_nonzero(after == DRAW)),
                mean_duration_base=float(base_rows["duration_s"].mean()),
                mean_duration_variant=float(rows["duration_s"].mean()),
                duration_difference=float(
                    (rows["duration_s"].to_numpy() - base_rows["duration_s"].to_numpy()).mean()
                ),
                t_statistic=t,
                p_value=p,
            )
        )
    wins = _corrected(wins, alpha)
    effects = _corrected(effects, alpha)
    arms = {name: _arm_summary(rows, sides, scenario, seed) for name, rows in tables.items()}
    return Comparison(
        scenario=scenario,
        seed=seed,
        runs=len(base_rows),
        side_names=sides,
        arms=arms,
        wins=wins,
        effects=effects,
        alpha=alpha,
        outcomes=outcomes,
    )


def _arm_summary(rows: pd.DataFrame, sides: tuple[str, ...], scenario: str, seed: int) -> dict:
    """An arm's run summary without its own intervals: a comparison reports the differences'."""
    summary = summarize(rows, sides, scenario, seed)
    for side in summary["sides"].values():
        side.pop("ci95")
    return summary


def _corrected(results: list, alpha: float) -> list:

    adjusted = holm([r.p_value for r in results])
    pairs = zip(results, adjusted, strict=True)
    return [replace(r, p_holm=p, significant=bool(p < alpha)) for r, p in pairs]


# -- playing the arms -------------------------------------------------------------------------

#: Plays combats ``start .. stop - 1`` of a scenario with a seed, returning their records.
RangePlayer = Callable[["Scenario", int, int, int], list[tuple]]


#: The default player: combats ``start .. stop - 1`` played in this process.
play_range: RangePlayer = range_records


def arm_folder(index: int, name: str) -> str:
    """Where an arm's combats are streamed in a comparison's folder (``arms/01-red-plus3``)."""
    return f"arms/{index:02d}-{slug(name)}"


def play_arms(
    arms: Mapping[str, Scenario],
    seed: int,
    start: int,
    stop: int,
    play: RangePlayer = play_range,
    stream: Streaming | None = None,
) -> pd.DataFrame:
    """Every arm's outcome table for combats ``start .. stop - 1``, one after the other.

    With ``stream``, each arm is a run streamed into its folder (:func:`arm_folder`) and read
    back from there: a comparison killed outright keeps every finished chunk.
    """
    if stream is not None:
        frames = [
            stream.play(arm, seed, start, stop, arm_folder(i, name), variant=name).outcomes
            for i, (name, arm) in enumerate(arms.items())
        ]
    else:
        frames = [
            outcomes_frame(play(arm, seed, start, stop), arm.side_names, arm.name, name)
            for name, arm in arms.items()
        ]
    return pd.concat(frames, ignore_index=True)


def comparison_job(
    arms: Mapping[str, Scenario], seed: int, runs: int | None, precision: dict[str, Any] | None
) -> dict[str, Any]:
    """What a comparison's folder holds (:func:`analysis.job.open_job` checks it on resume)."""
    return {
        "kind": "comparison",
        "arms": {name: digest(arm) for name, arm in arms.items()},
        "seed": seed,
        "runs": runs,
        "precision": precision,
    }


def compare_arms(
    arms: Mapping[str, Scenario],
    runs: int | None = None,
    seed: int | None = None,
    *,
    precision: float | None = None,
    max_runs: int = DEFAULT_MAX_RUNS,
    batch: int = DEFAULT_BATCH,
    alpha: float = ALPHA,
    title: str | None = None,
    play: RangePlayer = play_range,
    on_batch: Callable[[int, float], None] | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    force: bool = False,
    execution: Execution | None = None,
) -> Comparison:
    """Play every arm on the same seeds and compare each with the first (the base).

    Args:
        arms: the scenarios to play, by name; the first is the base.
        runs: combats per arm (default: the base's ``runs``); not with ``precision``.
        seed: the seed of every arm (default: the base's ``seed``).
        precision: play in batches until every interval has at most this half-width.
        max_runs: the cap of a ``precision`` run.
        batch: combats per batch of a ``precision`` run.
        alpha: family-wise error rate of the verdicts.
        title: the name shown (default: the base scenario's name).
        play: what plays a range of combats (a parallel runner can stand in).
        on_batch: progress of a ``precision`` run (combats so far, widest half-width).
        out: a results folder to stream every arm into, as ``run --out`` streams a run
            (``arms/01-red-plus3/combats-0-2000``); :meth:`Comparison.save` then writes the
            comparison's own files there. ``play`` is not used then: ``execution`` says how.
        resume: with ``out``, continue the comparison there: play only the chunks that are
            missing (the folder must hold this comparison: :func:`analysis.job.open_job`).
        force: with ``out``, start over a comparison there that kept more combats.
        execution: with ``out``, how each arm's run is played (workers, scheduler, chunk size).

    Raises:
        sim.run.store.StoreMismatch: ``resume`` of another comparison, or a fresh start over
            a larger one without ``force``.
    """
    names = list(arms)
    if len(names) < 2:
        raise ValueError("a comparison needs a base and at least one variant")
    base = arms[names[0]]
    seed = base.seed if seed is None else seed
    title = base.name if title is None else title
    side_names = base.side_names
    stream = None
    if out is not None:
        stream = Streaming(Path(out), resume, force, execution)
        target = None
        if precision is not None:
            target = {"precision": precision, "max_runs": max_runs, "batch": batch}
        fixed = None if precision is not None else (base.runs if runs is None else runs)
        planned = (max_runs if precision is not None else fixed or 0) * len(names)
        open_job(stream.folder, comparison_job(arms, seed, fixed, target), planned, resume, force)
    elif resume:
        raise ValueError("resume needs out: the folder of the comparison to finish")

    def run_range(start: int, stop: int) -> pd.DataFrame:
        return play_arms(arms, seed, start, stop, play, stream)

    def result(table: pd.DataFrame) -> Comparison:
        return compare_outcomes(
            table, side_names, scenario=title, seed=seed, base=names[0], alpha=alpha
        )

    precise = None
    if precision is not None:
        if runs is not None:
            raise ValueError("give a number of runs or a target precision, not both")
        precise = run_until_precise(
            run_range, lambda t: result(t).intervals(), precision, max_runs, batch, on_batch
        )
        # Arm by arm, combat by combat: the table of a fixed run of the same length.
        order = precise.table["variant"].map({name: i for i, name in enumerate(names)})
        keys = pd.DataFrame({"arm": order, "combat": precise.table["combat"]})
        rows = keys.sort_values(["arm", "combat"], kind="stable").index
        table = precise.table.loc[rows].reset_index(drop=True)
        precise.table = table
    else:
        table = run_range(0, base.runs if runs is None else runs)
    comparison = result(table)
    comparison.precision = precise
    comparison.options = {name: arm.option_values() for name, arm in arms.items()}
    comparison.made = {"rules": base.rules, "file": base.file, "time_limit_s": base.time_limit_s}
    comparison.scenarios = dict(arms)
    return comparison


def compare(
    scenario: Scenario | str | Path,
    runs: int | None = None,
    seed: int | None = None,
    *,
    variants: Sequence[str] | None = None,
    others: Sequence[Scenario | str | Path] = (),
    **options: Any,
) -> Comparison:
    """Compare a scenario's variants with it (or other scenario files with it), paired.

    >>> from analysis.compare import compare
    >>> result = compare("scenarios/acs-duel-tweaks.yaml", runs=2000, seed=1)
    >>> [(w.variant, w.side, w.difference, w.ci95, w.p_holm) for w in result.wins]

    Args:
        scenario: the base scenario (a loaded one or its file).
        runs: combats per arm (default: the scenario's ``runs``).
        seed: the seed (default: the scenario's ``seed``).
        variants: which of its variants (default: all); not with ``others``.
        others: scenario files to compare with the base instead of its variants; each must
            have the base's sides. Their arm is named after the file.
        **options: ``precision``, ``max_runs``, ``batch``, ``alpha``, ``play``, ``on_batch``
            of :func:`compare_arms`.

    Raises:
        ScenarioError: a file cannot be used, a variant does not exist, or sides differ.
    """
    chosen, title = comparison_arms(scenario, variants, others)
    return compare_arms(chosen, runs, seed, title=title, **options)


def comparison_arms(
    scenario: Scenario | str | Path,
    variants: Sequence[str] | None = None,
    others: Sequence[Scenario | str | Path] = (),
) -> tuple[dict[str, Scenario], str | None]:
    """The arms :func:`compare` plays (base first) and its title (None: the base's name).

    Raises:
        ScenarioError: a file cannot be used, a variant does not exist, or sides differ.
    """

    def loaded(item: Scenario | str | Path) -> Scenario:
        return item if not isinstance(item, (str, Path)) else load_scenario(item)

    base = loaded(scenario)
    if others:
        if variants:
            raise ValueError("compare either the scenario's variants or other files, not both")
        chosen = {BASE: base}
        for other in others:
            arm = loaded(other)
            _same_sides(base, arm)
            name = _arm_name(arm, chosen)
            chosen[name] = arm
        title = " vs ".join([base.name, *(a.name for a in list(chosen.values())[1:])])
        return chosen, title
    chosen = variant_arms(base, variants)
    if len(chosen) < 2:
        raise ScenarioError(
            [
                Problem(
                    base.file,
                    ("variants",),
                    None,
                    "no variants",
                    "a variants: section with at least one variant, or a second scenario file "
                    "to compare with (see docs/regression.md)",
                )
            ]
        )
    return chosen, None


def _same_sides(base: Scenario, other: Scenario) -> None:
    if other.side_names == base.side_names:
        return

    raise ScenarioError(
        [
            Problem(
                other.file,
                ("sides",),
                None,
                f"sides {', '.join(other.side_names)}",
                f"the sides of {base.file} ({', '.join(base.side_names)}), in that order: the "
                "comparison is paired side by side",
            )
        ]
    )


def _arm_name(arm: Scenario, taken: Mapping[str, Any]) -> str:
    stem = Path(arm.file).stem or "other"
    name, k = stem, 2
    while name in taken:
        name, k = f"{stem}-{k}", k + 1
    return name


# -- the table on the terminal ----------------------------------------------------------------


def points(value: float) -> str:
    """A difference of proportions in percentage points, signed."""
    return f"{value * 100:+.1f}"


def p_text(value: float) -> str:
    """A p-value, readable."""
    if math.isnan(value):
        return "–"
    if value < 0.0001:
        return "<0.0001"
    return f"{value:.4f}" if value < 0.01 else f"{value:.3f}"


def render_comparison(comparison: Comparison, console: Console | None = None) -> None:
    """Print the comparison as rich tables, with the methods said plainly under them."""
    console = console or _console()
    n_variants = len(comparison.effects)
    title = (
        f"{comparison.scenario} — {counted(comparison.runs, 'paired combat')} per arm, "
        f"seed {comparison.seed}"
    )
    table = Table(title=escape(title), title_justify="left")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("variant", "left"),
        ("side", "left"),
        ("base → variant", "right"),
        ("Δ points", "right"),
        ("95% CI (Tango)", "right"),
        ("combats −/+", "right"),
        ("p exact", "right"),
        ("p Holm", "right"),
        ("", "left"),
    )
    # A variant's name is never cut: its column is as wide as the longest (the others wrap).
    longest = max((len(w.variant) for w in comparison.wins), default=0)
    for name, justify in columns:
        if name == "variant":
            table.add_column(name, justify=justify, no_wrap=True, min_width=max(longest, 7))
        else:
            table.add_column(name, justify=justify)
    for w in comparison.wins:
        low, high = w.ci95
        verdict = ("↑ moved" if w.difference > 0 else "↓ moved") if w.significant else ""
        table.add_row(
            w.variant,
            w.side,
            f"{w.base_rate:.1%} → {w.variant_rate:.1%}",
            points(w.difference),
            f"{points(low)} to {points(high)}",
            f"−{w.base_only} / +{w.variant_only}",
            p_text(w.p_value),
            p_text(w.p_holm),
            verdict,
        )
    console.print(table)
    lengths = Table(title="Whole combats", title_justify="left")
    for name in (
        "variant",
        "outcome changed",
        "draws base → variant",
        "mean length base → variant",
        "Δ s",
        "p (paired t)",
        "p Holm",
    ):
        if name == "variant":
            lengths.add_column(name, justify="left", no_wrap=True, min_width=max(longest, 7))
        else:
            lengths.add_column(name, justify="right")
    for e in comparison.effects:
        lengths.add_row(
            e.variant,
            f"{e.changed_outcome} ({e.changed_outcome / e.runs:.1%})" if e.runs else "0",
            f"{e.draws_base} → {e.draws_variant}",
            f"{e.mean_duration_base:.2f} → {e.mean_duration_variant:.2f} s",
            f"{e.duration_difference:+.2f}",
            p_text(e.p_value),
            p_text(e.p_holm) + (" *" if e.significant else ""),
        )
    console.print(lengths)
    m = len(comparison.wins)
    console.print(
        f"Paired: every arm played the same combats (combat k uses the dice stream of seed "
        f"{comparison.seed}, combat k). Δ = variant − base, in points of win rate. "
        f"95% CI: Tango's score interval for paired proportions. p exact: McNemar's exact test "
        f"on the combats the side won in one arm only (−: base only, +: variant only). "
        f"Holm correction over the {m} win-rate tests ({n_variants} variant"
        f"{'s' * (n_variants != 1)} × {len(comparison.side_names)} sides) and separately over "
        f"the {n_variants} duration test{'s' * (n_variants != 1)} (paired t-test); "
        f"“moved” and * mean significant at α = {comparison.alpha:g} after the correction.",
        highlight=False,
        markup=False,
    )
    if comparison.precision is not None:
        precise = comparison.precision
        line = f"--precision {precise.precision:g}: {precise.describe()}"
        widest = comparison.widest()
        if widest is not None and not precise.reached:
            line += f" ({widest.variant}, {widest.side})"
        console.print(line, highlight=False, markup=False)


def _console() -> Console:

    console = Console()
    if not console.is_terminal:
        console = Console(width=max(console.width, 120))
    return console
