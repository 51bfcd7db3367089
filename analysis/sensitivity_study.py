"""Playing a sensitivity study: its points, streamed into a results folder, and what they give.

A study (:mod:`sim.scenario.sensitivity_section` says how it is declared) plays the scenario at
many points: the scenario as written, each parameter alone at its low and high end (the
one-at-a-time points, ``oat_runs`` combats each) and every row of a Sobol design over the joint
ranges (``runs`` combats each). Every point is an ordinary run of :func:`sim.run.api.simulate`, with
the study's seed, so combat *k* has the same dice stream at every point (common random numbers)
and the results are the same whatever the workers. Points that set the same values (whole
numbers repeat) are played once.

With a folder (``out``), every point streams into ``OUT/points/pNNNNN/`` as a run directory
(:mod:`sim.run.store`): a study stopped half-way, or killed outright, continues where it stopped
when started again with ``resume`` (``--resume``), playing only the chunks that are missing.
The points are planned in :mod:`analysis.sensitivity_plan`, the maths is in
:mod:`analysis.sensitivity`, the charts and the report section in
:mod:`analysis.sensitivity_plots`.

>>> from analysis.sensitivity_study import plan_study, run_study
>>> study = run_study(plan_study("scenarios/acs-sensitivity.yaml"), out="out/")
>>> study.verdict.sentence
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.job import Streaming, finish_job, open_job
from analysis.results import write_results
from analysis.sensitivity import (
    Effect,
    Factor,
    SobolIndex,
    Verdict,
    effect,
    sobol_indices,
    verdict,
)
from analysis.sensitivity_plan import StudyPlan, StudyPoint, plan_study
from sim.run.api import Execution, RunResult, simulate
from sim.run.meta import run_meta
from sim.run.runner import DEFAULT_CHUNK
from sim.run.store import StoreMismatch
from sim.run.summary import wilson_interval
from sim.run.tables import save_frame

__all__ = [
    "Study",
    "StudyMismatch",
    "StudyPlan",
    "StudyPoint",
    "analyse",
    "effects_frame",
    "indices_frame",
    "json_ready_study",
    "plan_study",
    "run_study",
]

#: Where the points' run directories go.
POINTS = "points"
#: Most chunks a point is cut into, so that workers share a point (never changes a result).
CHUNKS_PER_POINT = 2


#: A folder that holds a different study than the one asked to resume (what
#: :func:`analysis.job.open_job` raises for every kind of job).
StudyMismatch = StoreMismatch


@dataclass
class Study:
    """A played study: the per-point win rates, the effects, the indices and the verdict."""

    plan: StudyPlan
    wins: dict[int, np.ndarray]
    effects: list[Effect]
    indices: list[SobolIndex]
    verdict: Verdict
    base_outcomes: pd.DataFrame

    def rate(self, point: StudyPoint) -> float:
        """The side's win rate at a point."""
        return float(np.mean(self.wins[point.index]))

    def design_table(self) -> pd.DataFrame:
        """One row per point played for the study: which part it belongs to, values, rate."""
        plan = self.plan
        rows: list[dict[str, Any]] = []

        def row(part: str, number: int, point: StudyPoint) -> None:
            wins = int(np.sum(self.wins[point.index]))
            low, high = wilson_interval(wins, point.runs)
            values = {f.label: _cell(v) for f, v in zip(plan.factors, point.settings, strict=True)}
            rows.append(
                {
                    "part": part,
                    "row": number,
                    "point": point.folder,
                    **values,
                    "runs": point.runs,
                    "wins": wins,
                    "win_rate": wins / point.runs,
                    "ci_low": low,
                    "ci_high": high,
                }
            )

        row("base", 0, plan.base)
        for i, (low_point, high_point) in enumerate(plan.oat):
            row("low", i, low_point)
            row("high", i, high_point)
        for i, point in enumerate(plan.sobol):
            row("sobol", i, point)
        return pd.DataFrame(rows)

    def effects_table(self) -> pd.DataFrame:
        """One row per parameter: its one-at-a-time effect with the paired interval."""
        return effects_frame(self.plan.factors, self.effects)

    def indices_table(self) -> pd.DataFrame:
        """One row per parameter: first-order and total Sobol indices with their intervals."""
        return indices_frame(self.plan.factors, self.indices)

    @property
    def summary(self) -> dict[str, Any]:
        """JSON-ready: what was studied, the effects, the indices and the verdict."""
        plan = self.plan
        wins = int(np.sum(self.wins[plan.base.index]))
        low, high = wilson_interval(wins, plan.base.runs)
        summary = {
            "kind": "sensitivity",
            "scenario": plan.scenario.name,
            "seed": plan.seed,
            "side": plan.side,
            "runs": plan.runs,
            "oat_runs": plan.oat_runs,
            "samples": plan.samples,
            "design_points": len(plan.sobol),
            "points_played": len(plan.points),
            "combats": plan.combats,
            "parameters": [f.to_dict() for f in plan.factors],
            "base": {"win_rate": wins / plan.base.runs, "ci95": [low, high]},
            "effects": [e.to_dict() for e in self.effects],
            "indices": [i.to_dict() for i in self.indices],
            "verdict": self.verdict.to_dict(),
        }
        return json_ready_study(summary)

    def save(self, directory: str | Path) -> list[Path]:
        """Write the tables (Parquet and CSV), ``summary.json``, ``meta.json`` and the scenario.

        The scenario's own run (``outcomes.*``, the ``oat_runs`` combats at its values) is
        saved too, so that ``combatsim report`` shows it next to the study.
        """
        directory = Path(directory)
        plan = self.plan
        meta = run_meta(
            plan.scenario,
            plan.seed,
            plan.oat_runs,
            kind="sensitivity",
            side=plan.side,
            parameters=[f.to_dict() for f in plan.factors],
        )
        written = write_results(
            directory,
            self.base_outcomes,
            self.summary,
            meta=json_ready_study(meta),
            scenario=plan.scenario,
            csv=True,
        )
        written += save_frame(self.design_table(), directory, "design")
        written += save_frame(self.effects_table(), directory, "effects")
        written += save_frame(self.indices_table(), directory, "indices")
        finish_job(directory)  # the points streamed there are now whole
        return written


def effects_frame(factors: Sequence[Factor], effects: Sequence[Effect]) -> pd.DataFrame:
    """One row per parameter: its one-at-a-time effect and the interval of the change."""
    rows = []
    for factor, found in zip(factors, effects, strict=True):
        rows.append(
            {
                "parameter": factor.label,
                "path": factor.path,
                "low": str(factor.low),
                "high": str(factor.high),
                "base": str(factor.base),
                "rate_low": found.rate_low,
                "rate_high": found.rate_high,
                "change": found.change.estimate,
                "ci_low": found.change.low,
                "ci_high": found.change.high,
                "runs": found.runs,
            }
        )
    return pd.DataFrame(rows)


def indices_frame(factors: Sequence[Factor], indices: Sequence[SobolIndex]) -> pd.DataFrame:
    """One row per parameter: first-order and total Sobol indices with their intervals."""
    rows = []
    for factor, index in zip(factors, indices, strict=True):
        rows.append(
            {
                "parameter": factor.label,
                "path": factor.path,
                "first": index.first.estimate,
                "first_low": index.first.low,
                "first_high": index.first.high,
                "total": index.total.estimate,
                "total_low": index.total.low,
                "total_high": index.total.high,
            }
        )
    return pd.DataFrame(rows)


def _cell(value: Any) -> Any:
    """A value as a table cell (text unless it is a number)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return str(value)


def json_ready_study(data: Any) -> Any:
    """``data`` as plain JSON values, a NaN or infinity as null (JSON has neither)."""
    if isinstance(data, dict):
        return {str(k): json_ready_study(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [json_ready_study(v) for v in data]
    if isinstance(data, float) and not math.isfinite(data):
        return None
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    return str(data)


def chunk_size_for(runs: int, chunk_size: int) -> int:
    """The chunk size of a point: at most ``chunk_size``, at most :data:`CHUNKS_PER_POINT` chunks.

    It depends only on the runs (never on the workers), so a study continued with another
    number of workers finds the same chunks on disk.
    """
    return max(1, min(chunk_size, math.ceil(runs / CHUNKS_PER_POINT)))


def run_study(
    plan: StudyPlan,
    out: str | Path | None = None,
    *,
    resume: bool = False,
    force: bool = False,
    on_point: Callable[[StudyPoint], None] | None = None,
    on_table: Callable[[StudyPoint, pd.DataFrame], None] | None = None,
    execution: Execution | None = None,
) -> Study:
    """Play every point of a study and analyse it.

    Args:
        plan: from :func:`plan_study`.
        out: a folder to stream the points into, each a run folder (``points/p00003``) as
            ``run --out`` writes one (None: in memory).
        resume: with ``out``, continue the study there: play only the chunks that are missing
            (the folder must hold this study: :func:`analysis.job.open_job`).
        force: with ``out``, start over a study there that kept more combats than this one.
        on_point: called after each point (progress).
        on_table: called with each point's outcome table (a report's check of a rerun).
        execution: how the points are played (workers, scheduler; its chunk size caps each
            point's, see :func:`chunk_size_for`).

    Raises:
        sim.run.store.StoreMismatch: ``resume`` of another study, or a fresh start over a
            larger one without ``force``.
        RunInterrupted: on Ctrl-C (with ``out``, what is finished is kept).
    """
    folder = Path(out) if out is not None else None
    if folder is None and resume:
        raise ValueError("resume needs out: the folder of the study to finish")
    if folder is not None:
        open_job(folder, plan.manifest(), plan.combats, resume, force)
    execution = execution if execution is not None else Execution()
    chunk_size = execution.chunk_size or DEFAULT_CHUNK
    wins: dict[int, np.ndarray] = {}
    base_outcomes: pd.DataFrame | None = None
    for point in plan.points:
        result = _play(point, plan, folder, resume, force, execution, chunk_size)
        outcomes = result.outcomes.sort_values("combat", kind="stable", ignore_index=True)
        wins[point.index] = (outcomes["winner"] == plan.side).to_numpy(dtype=float)
        if point.index == plan.base.index:
            base_outcomes = outcomes
        if on_table is not None:
            on_table(point, outcomes)
        if on_point is not None:
            on_point(point)
    assert base_outcomes is not None  # the base is always the first point
    return analyse(plan, wins, base_outcomes)


def _play(
    point: StudyPoint,
    plan: StudyPlan,
    folder: Path | None,
    resume: bool,
    force: bool,
    execution: Execution,
    chunk_size: int,
) -> RunResult:
    size = replace(execution, chunk_size=chunk_size_for(point.runs, chunk_size))
    if folder is None:
        return simulate(point.scenario, runs=point.runs, seed=plan.seed, execution=size)
    stream = Streaming(folder, resume, force, size)
    return stream.play(point.scenario, plan.seed, 0, point.runs, Path(POINTS) / point.folder,
                       ranged=False)  # fmt: skip


def analyse(plan: StudyPlan, wins: dict[int, np.ndarray], base_outcomes: pd.DataFrame) -> Study:
    """The effects, indices and verdict of a study from each point's win indicators.

    Args:
        plan: the study.
        wins: per point index, 1 where the side won combat *k*, else 0, in combat order.
        base_outcomes: the outcome table at the scenario's own values.
    """
    effects = [
        effect(f.label, f.low, f.high, wins[low.index], wins[high.index])
        for f, (low, high) in zip(plan.factors, plan.oat, strict=True)
    ]
    rates = np.array([float(np.mean(wins[p.index])) for p in plan.sobol])
    indices = sobol_indices(plan.labels, rates, plan.seed)
    return Study(plan, wins, effects, indices, verdict(indices, plan.side), base_outcomes)
