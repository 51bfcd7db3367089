"""Running to a target precision: play combats in batches until every 95% interval is narrow enough.

A designer rarely knows how many combats a question needs; they know how precise the answer must
be ("win rates to within a point"). :func:`run_until_precise` plays combats ``0 .. batch - 1``,
then ``batch .. 2 batch - 1``, and so on, recomputing the intervals on everything played so far,
until the widest one has a half-width of at most the target, or a cap on the number of combats is
reached. Because combat k's dice depend only on (seed, k), the batches continue one seed stream:
a run that stopped after n combats holds exactly the first n combats of a fixed run of n combats
with the same seed, and stopping points are always multiples of the batch (or the cap).

The half-width of an interval ``(lo, hi)`` is ``(hi - lo) / 2`` (score intervals are not
symmetric about the estimate; this is the half of their length). Stopping depends only on the
widths, which move little with the estimates, so the repeated looks barely bias the coverage.

:func:`run_until_precise` knows nothing of scenarios: :func:`run_to_precision` (``run
--precision``) wires it with :func:`sim.run.api.simulate` and :func:`win_rate_intervals`;
:func:`analysis.sweep.sweep_to_precision` with every point of a sweep;
:func:`analysis.compare.compare` with all arms of a comparison and their paired intervals.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sim.rules.wording import counted
from sim.run.api import Execution, RunResult, simulate
from sim.run.runner import range_records
from sim.run.summary import summarize, wilson_interval
from sim.run.tables import outcomes_frame
from sim.scenario.loader import load_scenario
from sim.scenario.schema import Scenario

if TYPE_CHECKING:
    import pandas as pd

#: Combats per batch unless told otherwise.
DEFAULT_BATCH = 1000
#: Cap on the number of combats unless told otherwise.
DEFAULT_MAX_RUNS = 100_000

#: The confidence level of the intervals made narrow by default (as in sim.run.summary).
CONFIDENCE = 0.95

Interval = tuple[float, float]
#: Plays combats ``start .. stop - 1`` and returns their rows.
RunRange = Callable[[int, int], "pd.DataFrame"]
#: Every interval the caller reports, computed from all rows so far.
IntervalsOf = Callable[["pd.DataFrame"], Sequence[Interval]]


@dataclass
class PreciseRun:
    """What :func:`run_until_precise` played, and whether it reached the target.

    Attributes:
        table: the rows of combats ``0 .. runs - 1``, in the order the batches returned them.
        runs: how many combats were played (per arm, for a comparison).
        reached: whether every interval is at most ``precision`` wide (half-width).
        half_width: the widest half-width at the end (``inf`` when there was no interval).
        precision: the target half-width.
        max_runs: the cap.
        batches: how many batches were played.
    """

    table: pd.DataFrame
    runs: int
    reached: bool
    half_width: float
    precision: float
    max_runs: int
    batches: int

    def describe(self) -> str:
        """One plain sentence: where it stopped and why."""
        if self.reached:
            return (
                f"stopped after {counted(self.runs, 'combat')} ({self.batches} batch"
                f"{'es' * (self.batches != 1)}): every 95% interval is within "
                f"±{self.precision:g} (widest ±{self.half_width:.4f})"
            )
        return (
            f"reached the cap of {counted(self.max_runs, 'combat')} (--max-runs) before the target "
            f"precision ±{self.precision:g}: the widest 95% interval is still "
            f"±{self.half_width:.4f}"
        )

    def to_dict(self) -> dict:
        """A JSON-ready form (without the table)."""
        return {
            "precision": self.precision,
            "reached": self.reached,
            "runs": self.runs,
            "max_runs": self.max_runs,
            "batches": self.batches,
            "widest_half_width": self.half_width,
        }


def half_width(interval: Interval) -> float:
    """Half the length of an interval (``inf`` if it is undefined)."""
    low, high = interval
    width = (float(high) - float(low)) / 2
    return width if math.isfinite(width) else math.inf


def run_until_precise(
    run_range: RunRange,
    intervals_of: IntervalsOf,
    precision: float,
    max_runs: int = DEFAULT_MAX_RUNS,
    batch: int = DEFAULT_BATCH,
    on_batch: Callable[[int, float], None] | None = None,
) -> PreciseRun:
    """Play batches of combats until every interval has a half-width of at most ``precision``.

    Args:
        run_range: ``run_range(start, stop)`` plays combats ``start .. stop - 1`` (the indices
            of one seed stream) and returns their rows as a DataFrame.
        intervals_of: every interval to be made narrow, from all rows played so far.
        precision: the target half-width (e.g. ``0.01`` for ±1 point of win rate).
        max_runs: stop here even if the target is not reached (see :attr:`PreciseRun.reached`).
        batch: combats per batch; stopping points are multiples of it (or ``max_runs``).
        on_batch: called after each batch with the combats played and the widest half-width.

    Returns:
        The rows of combats ``0 .. runs - 1`` and how the run ended.
    """
    import pandas as pd  # deferred: heavy third-party package; `combatsim --help` imports this

    if not precision > 0:
        raise ValueError("the target precision must be a half-width above 0")
    if max_runs < 1 or batch < 1:
        raise ValueError("max_runs and batch must be at least 1")
    table: pd.DataFrame | None = None
    done = batches = 0
    widest = math.inf
    while done < max_runs:
        stop = min(done + batch, max_runs)
        rows = run_range(done, stop)
        table = rows if table is None else pd.concat([table, rows], ignore_index=True)
        done, batches = stop, batches + 1
        widths = [half_width(interval) for interval in intervals_of(table)]
        widest = max(widths, default=math.inf)
        if on_batch is not None:
            on_batch(done, widest)
        if widest <= precision + 1e-12:
            break
    assert table is not None
    reached = widest <= precision + 1e-12
    return PreciseRun(table, done, reached, widest, precision, max_runs, batches)


# -- a plain run to a target precision -------------------------------------------------------


@dataclass(frozen=True)
class PreciseRunResult:
    """A run played to a target precision.

    Attributes:
        result: the run, as :func:`sim.run.api.simulate` gives it; its summary has a ``precision``
            entry (:meth:`PreciseRun.to_dict`).
        ran: how the batches ended (:meth:`PreciseRun.describe` says it in a sentence).
    """

    result: RunResult
    ran: PreciseRun


def run_to_precision(
    scenario: Scenario | str | Path,
    precision: float,
    seed: int | None = None,
    *,
    max_runs: int = DEFAULT_MAX_RUNS,
    batch: int = DEFAULT_BATCH,
    on_batch: Callable[[int, float], None] | None = None,
    execution: Execution | None = None,
) -> PreciseRunResult:
    """Play batches of one seed stream until every side's win-rate interval is narrow enough.

    ``run --precision`` in the library: each batch is a :func:`sim.run.api.simulate` of the next
    combat indices (so the rows are those of a fixed run of as many combats), and the summary
    is computed once, over all of them.

    Args:
        scenario: a loaded scenario or the path of its file.
        precision: the target half-width of every win-rate interval.
        seed: the run's seed (default: the scenario's).
        max_runs: the cap on combats.
        batch: combats per batch.
        on_batch: called after each batch with the combats played and the widest half-width.
        execution: how the batches are played (workers, scheduler, chunk size).
    """
    scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    seed = scenario.seed if seed is None else seed

    def run_range(start: int, stop: int) -> pd.DataFrame:
        return simulate(
            scenario, runs=stop - start, seed=seed, first=start, execution=execution
        ).outcomes

    ran = run_until_precise(
        run_range, win_rate_intervals(scenario.side_names), precision, max_runs, batch, on_batch
    )
    summary = summarize(ran.table, scenario.side_names, scenario.name, seed)
    summary["precision"] = ran.to_dict()
    return PreciseRunResult(RunResult(scenario, seed, ran.runs, ran.table, summary), ran)


# -- ready-made pieces for a plain run -------------------------------------------------------


def outcome_range(scenario: Scenario, seed: int, variant: str = "base") -> RunRange:
    """``run_range`` for one scenario: its outcome table for combats ``start .. stop - 1``.

    Plays in this process; a parallel runner can stand in for it with the same signature.
    """

    def run_range(start: int, stop: int) -> pd.DataFrame:
        records = range_records(scenario, seed, start, stop)
        return outcomes_frame(records, scenario.side_names, scenario.name, variant)

    return run_range


def win_rate_intervals(
    side_names: Sequence[str],
    by: str | Sequence[str] | None = None,
    confidence: float = CONFIDENCE,
) -> IntervalsOf:
    """``intervals_of`` for win rates: the Wilson interval of each side (per group of ``by``).

    ``by`` names the columns that tell apart the groups of one table (``"variant"``, or the
    columns of a sweep's points); each group's sides are counted on that group's rows alone.
    """
    columns = [by] if isinstance(by, str) else list(by or [])

    def intervals_of(table: pd.DataFrame) -> list[Interval]:
        groups = table.groupby(columns, sort=False) if columns else [((), table)]
        intervals = []
        for _key, rows in groups:
            counts = rows["winner"].value_counts()
            for side in side_names:
                intervals.append(wilson_interval(int(counts.get(side, 0)), len(rows), confidence))
        return intervals

    return intervals_of
