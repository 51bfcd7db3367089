"""Sweeps: a scenario played at every point of a grid of parameter values.

Every point plays the same combat indices with the same seed, so combat *k* draws from the same
stream ``(seed, k)`` at every point (common random numbers): two points differ only by the
parameter, not by luck, and their difference is measured far more precisely than two independent
runs of the same size would allow. The whole sweep is one table, the per-combat outcomes with a
``point`` column and one column per swept parameter.

>>> from analysis.sweep import plan_sweep, run_sweep
>>> result = run_sweep(plan_sweep("scenarios/acs-duel-hp-sweep.yaml"), runs=500, seed=1)
>>> result.rates()            # win rate with a 95% interval per point and side
>>> result.save("out/")       # outcomes.parquet, summary.json, meta.json, scenario.yaml
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.job import Streaming, digest, finish_job, open_job
from analysis.precision import (
    DEFAULT_BATCH,
    DEFAULT_MAX_RUNS,
    PreciseRun,
    run_until_precise,
    win_rate_intervals,
)
from analysis.results import write_results
from sim.run.api import Execution, RunResult, simulate
from sim.run.meta import run_meta
from sim.run.records import DRAW
from sim.run.summary import round_length_s, summarize, wilson_interval
from sim.scenario.loader import load_scenario, made_from, scenario_from_dict
from sim.scenario.problems import Problem, ScenarioError
from sim.scenario.schema import Scenario
from sim.scenario.sweep_section import SweepModel, base_data


@dataclass(frozen=True)
class Parameter:
    """A swept parameter: its column name, its path in the scenario, and its values."""

    label: str
    path: str
    values: tuple[Any, ...]

    @property
    def numeric(self) -> bool:
        """Whether every value is a number (not true/false), so it can be an axis."""
        return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in self.values)

    @property
    def integer(self) -> bool:
        """Whether every value is a whole number given as one (hit points, counts)."""
        return all(isinstance(v, int) and not isinstance(v, bool) for v in self.values)

    def column_value(self, value: Any) -> Any:
        """The value as the table stores it (text when the values mix types)."""
        kinds = {type(v) for v in self.values}
        if self.numeric or len(kinds) == 1:
            return value
        return str(value)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"label": self.label, "path": self.path, "values": list(self.values)}


@dataclass(frozen=True)
class SweepPoint:
    """One point of the grid: its index, the parameters' values there, and its scenario."""

    index: int
    settings: tuple[Any, ...]
    scenario: Scenario


@dataclass(frozen=True)
class SweepPlan:
    """A sweep ready to run: the base scenario, its parameters and every point of the grid."""

    scenario: Scenario
    parameters: tuple[Parameter, ...]
    points: tuple[SweepPoint, ...]
    runs: int

    @property
    def labels(self) -> list[str]:
        """The parameters' column names."""
        return [p.label for p in self.parameters]


def plan_sweep(
    scenario: Scenario | str | Path,
    parameters: Sequence[Parameter] | None = None,
    runs: int | None = None,
) -> SweepPlan:
    """Build every point of a sweep, checked before any combat is played.

    Args:
        scenario: a scenario (or its file); its ``sweep:`` section is used unless
            ``parameters`` is given.
        parameters: the parameters to sweep instead of the scenario's section.
        runs: combats per point (default: ``sweep.runs``, then the scenario's ``runs``).

    Raises:
        ScenarioError: the scenario has no sweep, or a point is not a valid scenario.
    """
    scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    section_runs = None
    if parameters is None:
        raw = scenario.data.get("sweep")
        if not raw:
            raise ScenarioError(
                [
                    Problem(
                        scenario.file,
                        ("sweep",),
                        None,
                        "no sweep: section",
                        "a sweep: section with one or two parameters (see docs/analysis.md)",
                    )
                ]
            )
        model = SweepModel.model_validate(raw)
        parameters = [Parameter(p.column, p.path, tuple(p.points())) for p in model.parameters]
        section_runs = model.runs
    parameters = tuple(parameters)
    base = base_data(scenario.data, (p.path for p in parameters))
    points = []
    problems: list[Problem] = []
    grid = itertools.product(*(p.values for p in parameters))
    for index, settings in enumerate(grid):
        overrides = {p.path: v for p, v in zip(parameters, settings, strict=True)}
        try:
            point = scenario_from_dict(base, scenario.file, overrides)
        except ScenarioError as exc:
            where = ", ".join(f"{p.label}={v!r}" for p, v in zip(parameters, settings, strict=True))
            problems += [
                Problem(q.file, q.path, q.line, f"{q.found} at the sweep point {where}", q.expected)
                for q in exc.problems
            ]
            continue
        points.append(SweepPoint(index, tuple(settings), made_from(point, scenario, overrides)))
    if problems:
        raise ScenarioError(problems)
    runs = runs or section_runs or scenario.runs
    return SweepPlan(scenario, parameters, tuple(points), runs)


def run_point(
    point: SweepPoint,
    seed: int,
    start: int = 0,
    stop: int | None = None,
    *,
    detail: bool = False,
    execution: Execution | None = None,
) -> RunResult:
    """Play combats ``start`` .. ``stop - 1`` of one point.

    The same indices give the same seeds at every point, so a sweep run in batches (``start``
    moving on) plays exactly the combats of one long run, played as ``execution`` says.
    """
    stop = point.scenario.runs if stop is None else stop
    if stop <= start:
        raise ValueError(f"no combats to play from {start} to {stop}")
    return simulate(
        point.scenario,
        runs=stop - start,
        seed=seed,
        detail=detail,
        first=start,
        execution=execution,
    )


@dataclass
class SweepResult:
    """A played sweep: the whole table and a summary per point."""

    plan: SweepPlan
    seed: int
    runs: int
    start: int
    outcomes: pd.DataFrame
    combatants: pd.DataFrame | None
    point_summaries: list[dict[str, Any]]

    @property
    def summary(self) -> dict[str, Any]:
        """JSON-ready: the sweep's parameters and, per point, its values and run summary."""
        return {
            "kind": "sweep",
            "scenario": self.plan.scenario.name,
            "seed": self.seed,
            "runs": self.runs,
            "first_combat": self.start,
            "parameters": [p.to_dict() for p in self.plan.parameters],
            "points": self.point_summaries,
        }

    def rates(self) -> pd.DataFrame:
        """Win rate with its 95% interval per point and side (see :func:`win_rates`)."""
        return win_rates(self.outcomes, self.plan.scenario.side_names, ["point", *self.plan.labels])

    def save(self, directory: str | Path, csv: bool = False) -> list[Path]:
        """Write the sweep's results directory (read back by ``read_results``)."""
        meta = run_meta(
            self.plan.scenario,
            self.seed,
            self.runs,
            kind="sweep",
            first_combat=self.start,
            parameters=[p.to_dict() for p in self.plan.parameters],
        )
        written = write_results(
            directory,
            self.outcomes,
            self.summary,
            combatants=self.combatants,
            meta=meta,
            scenario=self.plan.scenario,
            csv=csv,
        )
        finish_job(directory)  # the points streamed there are now whole
        return written


def point_folder(point: SweepPoint) -> str:
    """Where a point's combats are streamed in a sweep's folder (``points/p0003``)."""
    return f"points/p{point.index:04d}"


def sweep_job(
    plan: SweepPlan, seed: int, runs: int | None, detail: bool, precision: dict[str, Any] | None
) -> dict[str, Any]:
    """What a sweep's folder holds (:func:`analysis.job.open_job` checks it on ``--resume``)."""
    return {
        "kind": "sweep",
        "scenario": digest(plan.scenario),
        "parameters": [p.to_dict() for p in plan.parameters],
        "points": [digest(p.scenario) for p in plan.points],
        "seed": seed,
        "runs": runs,
        "detail": detail,
        "precision": precision,
    }


def _streaming(
    out: str | Path | None, resume: bool, force: bool, execution: Execution | None
) -> Streaming | None:
    """How a sweep's points are streamed into ``out`` (None: played in memory)."""
    if out is None:
        if resume:
            raise ValueError("resume needs out: the folder of the sweep to finish")
        return None
    return Streaming(Path(out), resume, force, execution)


def run_sweep(
    plan: SweepPlan,
    runs: int | None = None,
    seed: int | None = None,
    *,
    start: int = 0,
    detail: bool = False,
    on_point: Callable[[SweepPoint, RunResult], None] | None = None,
    execution: Execution | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    force: bool = False,
) -> SweepResult:
    """Play combats ``start`` .. ``start + runs - 1`` at every point of a sweep.

    Args:
        plan: from :func:`plan_sweep`.
        runs: combats per point (default: the plan's).
        seed: the seed of every point (default: the scenario's).
        start: the first combat index (for batches).
        detail: also build the per-combatant table.
        on_point: called after each point (progress).
        execution: how each point is played (workers, scheduler, chunk size).
        out: a results folder to stream every point into (``points/p0003/combats-0-300``), as
            ``run --out`` streams a run: a sweep killed outright keeps every finished chunk.
            :meth:`SweepResult.save` then writes the sweep's own files there.
        resume: with ``out``, continue the sweep there: play only the chunks that are missing
            (the folder must hold this sweep: :func:`analysis.job.open_job`).
        force: with ``out``, start over a sweep there that kept more combats than this one.

    Raises:
        sim.run.store.StoreMismatch: ``resume`` of another sweep, or a fresh start over a
            larger one without ``force``.
    """
    runs = plan.runs if runs is None else runs
    seed = plan.scenario.seed if seed is None else seed
    stream = _streaming(out, resume, force, execution)
    if stream is not None:
        manifest = sweep_job(plan, seed, runs, detail, None) | {"start": start}
        open_job(stream.folder, manifest, runs * len(plan.points), resume, force)
    return _play_sweep(plan, runs, seed, start, detail, on_point, stream, execution)


def _play_sweep(
    plan: SweepPlan,
    runs: int,
    seed: int,
    start: int,
    detail: bool,
    on_point: Callable[[SweepPoint, RunResult], None] | None,
    stream: Streaming | None,
    execution: Execution | None,
) -> SweepResult:
    frames, details, summaries = [], [], []
    for point in plan.points:
        if stream is not None:
            where = point_folder(point)
            result = stream.play(point.scenario, seed, start, start + runs, where, detail=detail)
        else:
            result = run_point(point, seed, start, start + runs, detail=detail, execution=execution)
        frames.append(_tag(result.outcomes, point, plan.parameters))
        if result.combatants is not None:
            details.append(_tag(result.combatants, point, plan.parameters))
        summaries.append(
            {"point": point.index, "values": _values(plan, point), "summary": result.summary}
        )
        if on_point is not None:
            on_point(point, result)
    outcomes = pd.concat(frames, ignore_index=True)
    combatants = pd.concat(details, ignore_index=True) if details else None
    return SweepResult(plan, seed, runs, start, outcomes, combatants, summaries)


@dataclass(frozen=True)
class PreciseSweep:
    """A sweep played to a target precision: its result and how the batches ended."""

    result: SweepResult
    ran: PreciseRun


def sweep_to_precision(
    plan: SweepPlan,
    precision: float,
    seed: int | None = None,
    *,
    max_runs: int = DEFAULT_MAX_RUNS,
    batch: int = DEFAULT_BATCH,
    on_batch: Callable[[int, float], None] | None = None,
    execution: Execution | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    force: bool = False,
) -> PreciseSweep:
    """Play every point in batches until each point's win-rate intervals are narrow enough.

    ``sweep --precision`` in the library: every batch plays the next combat indices at every
    point (the same seeds at each), and the stop looks at each point's intervals.

    Args:
        plan: from :func:`plan_sweep`.
        precision: the target half-width of every interval, at every point.
        seed: the seed of every point (default: the scenario's).
        max_runs: the cap on combats per point.
        batch: combats per point in each batch.
        on_batch: called after each batch with the combats played and the widest half-width.
        execution: how each point is played (workers, scheduler, chunk size).
        out: stream every batch of every point into this folder (see :func:`run_sweep`).
        resume: with ``out``, continue the sweep there (the same batches are read back).
        force: with ``out``, start over a sweep there that kept more combats than this one.
    """
    seed = plan.scenario.seed if seed is None else seed
    stream = _streaming(out, resume, force, execution)
    if stream is not None:
        target = {"precision": precision, "max_runs": max_runs, "batch": batch}
        manifest = sweep_job(plan, seed, None, False, target)
        open_job(stream.folder, manifest, max_runs * len(plan.points), resume, force)

    def run_range(start: int, stop: int) -> pd.DataFrame:
        played = _play_sweep(plan, stop - start, seed, start, False, None, stream, execution)
        return played.outcomes

    ran = run_until_precise(
        run_range,
        win_rate_intervals(plan.scenario.side_names, by="point"),
        precision,
        max_runs,
        batch,
        on_batch,
    )
    return PreciseSweep(sweep_from_outcomes(plan, seed, ran.table), ran)


def sweep_from_outcomes(plan: SweepPlan, seed: int, outcomes: pd.DataFrame) -> SweepResult:
    """A sweep result from its whole outcome table (as ``--precision`` batches build it).

    The rows are put in (point, combat) order, as :func:`run_sweep` gives them, and each
    point's summary is computed from its rows.
    """
    outcomes = outcomes.sort_values(["point", "combat"], kind="stable", ignore_index=True)
    scenario = plan.scenario
    summaries = []
    for point in plan.points:
        rows = outcomes[outcomes["point"] == point.index]
        round_s = round_length_s(point.scenario)
        summary = summarize(rows, scenario.side_names, scenario.name, seed, round_s=round_s)
        summaries.append({"point": point.index, "values": _values(plan, point), "summary": summary})
    runs = int(outcomes["combat"].nunique())
    return SweepResult(plan, seed, runs, 0, outcomes, None, summaries)


def _values(plan: SweepPlan, point: SweepPoint) -> dict[str, Any]:
    return {
        p.label: p.column_value(v) for p, v in zip(plan.parameters, point.settings, strict=True)
    }


def _tag(frame: pd.DataFrame, point: SweepPoint, parameters: Sequence[Parameter]) -> pd.DataFrame:
    frame = frame.copy()
    at = list(frame.columns).index("variant") + 1 if "variant" in frame.columns else 0
    frame.insert(at, "point", point.index)
    for offset, (parameter, value) in enumerate(zip(parameters, point.settings, strict=True)):
        frame.insert(at + 1 + offset, parameter.label, parameter.column_value(value))
    return frame


def win_rates(
    outcomes: pd.DataFrame, side_names: Sequence[str], by: Sequence[str] = ()
) -> pd.DataFrame:
    """Wins, win rate and 95% Wilson interval per side (and ``draw``), per group of ``by``.

    One row per group and side, with the ``by`` columns, ``side``, ``wins``, ``runs``,
    ``win_rate``, ``ci_low``, ``ci_high`` and the group's ``mean_duration_s``.
    """
    by = list(by)
    groups = outcomes.groupby(by, sort=True, dropna=False) if by else [((), outcomes)]
    rows = []
    for key, group in groups:
        key = key if isinstance(key, tuple) else (key,)
        counts = group["winner"].value_counts()
        n = len(group)
        duration = float(group["duration_s"].mean()) if n else float("nan")
        for side in [*side_names, DRAW]:
            wins = int(counts.get(side, 0))
            low, high = wilson_interval(wins, n)
            rows.append(
                {
                    **dict(zip(by, key, strict=True)),
                    "side": side,
                    "wins": wins,
                    "runs": n,
                    "win_rate": wins / n if n else float("nan"),
                    "ci_low": low,
                    "ci_high": high,
                    "mean_duration_s": duration,
                }
            )
    return pd.DataFrame(rows)
