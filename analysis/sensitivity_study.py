"""Playing a sensitivity study: its points, streamed into a results folder, and what they give.

A study (:mod:`sim.scenario.sensitivity_section` says how it is declared) plays the scenario at
many points: the scenario as written, each parameter alone at its low and high end (the
one-at-a-time points, ``oat_runs`` combats each) and every row of a Sobol design over the joint
ranges (``runs`` combats each). Every point is an ordinary run of :func:`sim.api.simulate`, with
the study's seed, so combat *k* has the same dice stream at every point (common random numbers)
and the results are the same whatever the workers. Points that set the same values (whole
numbers repeat) are played once.

With a folder (``out``), every point streams into ``OUT/points/pNNNNN/`` as a run directory
(:mod:`sim.store`): a study stopped half-way continues where it stopped when started again with
the same folder, playing only the chunks that are missing. The maths is in
:mod:`analysis.sensitivity`; the charts and the report section in
:mod:`analysis.sensitivity_plots`.

>>> from analysis.sensitivity_study import plan_study, run_study
>>> study = run_study(plan_study("scenarios/acs-sensitivity.yaml"), out="out/")
>>> study.verdict.sentence
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.results import run_meta, write_results
from analysis.sensitivity import (
    Effect,
    Factor,
    SobolIndex,
    Verdict,
    effect,
    sobol_design,
    sobol_indices,
    verdict,
)
from sim.api import RunResult, simulate
from sim.errors import CommandError
from sim.files import write_text
from sim.runner import DEFAULT_CHUNK
from sim.scenario.loader import load_scenario, scenario_from_dict
from sim.scenario.problems import Problem, ScenarioError
from sim.scenario.schema import Scenario
from sim.scenario.sensitivity_section import SensitivityModel, current_value, study_base
from sim.store import scenario_digest
from sim.summary import wilson_interval
from sim.tables import save_frame

#: The study's own manifest in its folder, and its format.
MANIFEST = "study.json"
FORMAT = "combatsim-sensitivity/1"
#: Where the points' run directories go.
POINTS = "points"
#: Most chunks a point is cut into, so that workers share a point (never changes a result).
CHUNKS_PER_POINT = 2


class StudyMismatch(CommandError):
    """The folder holds a different study than the one asked for."""


@dataclass(frozen=True)
class StudyPoint:
    """A distinct point of the study: the parameters' values there, its runs and its scenario."""

    index: int
    settings: tuple[Any, ...]
    runs: int
    scenario: Scenario

    @property
    def folder(self) -> str:
        """Its run directory under ``OUT/points/``."""
        return f"p{self.index:05d}"


@dataclass(frozen=True)
class StudyPlan:
    """A study ready to play: its factors, design, and every distinct point.

    Attributes:
        scenario: the scenario as written.
        factors: the varied parameters.
        side: whose win rate the study measures.
        runs: combats per point of the global design.
        oat_runs: combats per one-at-a-time point (and at the scenario's own values).
        samples: base samples of the Sobol design.
        seed: the seed of every point.
        design: the unit-cube Sobol design (one row per design point).
        base: the point at the scenario's values.
        oat: per factor, its (low, high) points.
        sobol: per design row, its point.
        points: every distinct point, in playing order.
    """

    scenario: Scenario
    factors: tuple[Factor, ...]
    side: str
    runs: int
    oat_runs: int
    samples: int
    seed: int
    design: np.ndarray
    base: StudyPoint
    oat: tuple[tuple[StudyPoint, StudyPoint], ...]
    sobol: tuple[StudyPoint, ...]
    points: tuple[StudyPoint, ...]

    @property
    def labels(self) -> list[str]:
        """The factors' names, in order."""
        return [f.label for f in self.factors]

    @property
    def combats(self) -> int:
        """Combats in the whole study (each distinct point once)."""
        return sum(p.runs for p in self.points)

    def manifest(self) -> dict[str, Any]:
        """What a folder's study must match to be continued."""
        return {
            "format": FORMAT,
            "scenario": self.scenario.name,
            "fingerprint": scenario_digest(self.scenario),
            "seed": self.seed,
            "side": self.side,
            "runs": self.runs,
            "oat_runs": self.oat_runs,
            "samples": self.samples,
            "parameters": [f.to_dict() for f in self.factors],
        }


def _no_section(scenario: Scenario) -> ScenarioError:
    return ScenarioError(
        [
            Problem(
                scenario.file,
                ("sensitivity",),
                None,
                "no sensitivity: section",
                "a sensitivity: section listing parameters with ranges (see docs/analysis.md)",
            )
        ]
    )


def plan_study(
    scenario: Scenario | str | Path,
    *,
    runs: int | None = None,
    samples: int | None = None,
    oat_runs: int | None = None,
    seed: int | None = None,
) -> StudyPlan:
    """Every point of a study, each a validated scenario, before any combat is played.

    Args:
        scenario: a scenario with a ``sensitivity:`` section (or its file).
        runs: combats per design point (default: the section's).
        samples: base samples of the design, a power of two (default: the section's).
        oat_runs: combats per one-at-a-time point (default: the section's).
        seed: the seed of every point (default: the scenario's).

    Raises:
        ScenarioError: no section, or a point is not a valid scenario.
        ValueError: ``samples`` is not a power of two.
    """
    scenario = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    raw = scenario.data.get("sensitivity")
    if not raw:
        raise _no_section(scenario)
    model = SensitivityModel.model_validate(raw)
    samples = model.samples if samples is None else samples
    if samples < 1 or samples & (samples - 1):
        raise ValueError(f"samples must be a power of two, not {samples}")
    seed = scenario.seed if seed is None else seed
    base = study_base(scenario.data)
    options = scenario.option_values()
    factors = tuple(
        Factor(
            label=p.column,
            path=p.path,
            low=p.ends()[0],
            high=p.ends()[1],
            base=current_value(base, options, p.path),
            values=tuple(p.values) if p.values is not None else None,
            integer=p.integer,
        )
        for p in model.parameters
    )
    design = sobol_design(len(factors), samples, seed)
    builder = _Points(scenario, base, factors)
    home = tuple(f.base for f in factors)
    oat_runs = model.oat_runs if oat_runs is None else oat_runs
    runs = model.runs if runs is None else runs
    base_point = builder.point(home, oat_runs)
    oat = []
    for i, factor in enumerate(factors):
        ends = [(*home[:i], end, *home[i + 1 :]) for end in (factor.low, factor.high)]
        oat.append((builder.point(ends[0], oat_runs), builder.point(ends[1], oat_runs)))
    sobol = tuple(
        builder.point(tuple(f.at(u) for f, u in zip(factors, row, strict=True)), runs)
        for row in design
    )
    builder.raise_problems()
    return StudyPlan(
        scenario=scenario,
        factors=factors,
        side=model.side or scenario.side_names[0],
        runs=runs,
        oat_runs=oat_runs,
        samples=samples,
        seed=seed,
        design=design,
        base=base_point,
        oat=tuple(oat),
        sobol=sobol,
        points=tuple(builder.points.values()),
    )


class _Points:
    """Builds each distinct point once (the same values and runs are the same point)."""

    def __init__(self, scenario: Scenario, base: dict, factors: tuple[Factor, ...]) -> None:
        self.scenario = scenario
        self.base = base
        self.factors = factors
        self.points: dict[tuple, StudyPoint] = {}
        self.built: dict[tuple, Scenario] = {}
        self.problems: list[Problem] = []

    def point(self, settings: tuple[Any, ...], runs: int) -> StudyPoint:
        key = (_key(settings), runs)
        if key not in self.points:
            self.points[key] = StudyPoint(
                len(self.points), settings, runs, self._scenario(settings)
            )
        return self.points[key]

    def _scenario(self, settings: tuple[Any, ...]) -> Scenario:
        key = _key(settings)
        if key not in self.built:
            overrides = {f.path: v for f, v in zip(self.factors, settings, strict=True)}
            try:
                self.built[key] = scenario_from_dict(self.base, self.scenario.file, overrides)
            except ScenarioError as exc:
                where = ", ".join(
                    f"{f.label}={v!r}" for f, v in zip(self.factors, settings, strict=True)
                )
                self.problems += [
                    Problem(q.file, q.path, q.line, f"{q.found} at the point {where}", q.expected)
                    for q in exc.problems
                ]
                self.built[key] = self.scenario  # reported below; never played
        return self.built[key]

    def raise_problems(self) -> None:
        if self.problems:
            raise ScenarioError(self.problems)


def _key(settings: tuple[Any, ...]) -> tuple:
    """Settings as a dictionary key that tells 1 from 1.0 from true."""
    return tuple((type(v).__name__, v) for v in settings)


# -- playing ------------------------------------------------------------------------------------


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
        rows = []
        for factor, found in zip(self.plan.factors, self.effects, strict=True):
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

    def indices_table(self) -> pd.DataFrame:
        """One row per parameter: first-order and total Sobol indices with their intervals."""
        rows = []
        for factor, index in zip(self.plan.factors, self.indices, strict=True):
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

    @property
    def summary(self) -> dict[str, Any]:
        """JSON-ready: what was studied, the effects, the indices and the verdict."""
        plan = self.plan
        wins = int(np.sum(self.wins[plan.base.index]))
        low, high = wilson_interval(wins, plan.base.runs)
        return {
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
            _json_ready(self.summary),
            meta=_json_ready(meta),
            scenario_data=plan.scenario.data,
            csv=True,
        )
        written += save_frame(self.design_table(), directory, "design")
        written += save_frame(self.effects_table(), directory, "effects")
        written += save_frame(self.indices_table(), directory, "indices")
        return written


def _cell(value: Any) -> Any:
    """A value as a table cell (text unless it is a number)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return str(value)


def _json_ready(data: Any) -> Any:
    """``data`` as plain JSON values, a NaN or infinity as null (JSON has neither)."""
    if isinstance(data, dict):
        return {str(k): _json_ready(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_json_ready(v) for v in data]
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
    fresh: bool = False,
    on_point: Callable[[StudyPoint], None] | None = None,
    **options: Any,
) -> Study:
    """Play every point of a study (only what is missing in ``out``) and analyse it.

    Args:
        plan: from :func:`plan_study`.
        out: a folder to stream the points into and continue from (None: in memory).
        fresh: start over in ``out`` instead of continuing the study found there.
        on_point: called after each point (progress).
        **options: passed on to :func:`sim.api.simulate` (``workers``, ``scheduler``,
            ``chunk_size``, ``force``).

    Raises:
        StudyMismatch: ``out`` holds a different study and ``fresh`` is not set.
        RunInterrupted: on Ctrl-C (with ``out``, what is finished is kept).
    """
    folder = Path(out) if out is not None else None
    if folder is not None:
        _open(folder, plan, fresh)
    chunk_size = options.pop("chunk_size", None) or DEFAULT_CHUNK
    wins: dict[int, np.ndarray] = {}
    base_outcomes: pd.DataFrame | None = None
    for point in plan.points:
        result = _play(point, plan, folder, fresh, chunk_size, options)
        outcomes = result.outcomes.sort_values("combat", kind="stable", ignore_index=True)
        wins[point.index] = (outcomes["winner"] == plan.side).to_numpy(dtype=float)
        if point.index == plan.base.index:
            base_outcomes = outcomes
        if on_point is not None:
            on_point(point)
    assert base_outcomes is not None  # the base is always the first point
    return analyse(plan, wins, base_outcomes)


def _open(folder: Path, plan: StudyPlan, fresh: bool) -> None:
    """Check the folder's study against the plan (or start over), and write the manifest."""
    path = folder / MANIFEST
    manifest = _json_ready(plan.manifest())
    if path.is_file() and not fresh:
        try:
            found = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            found = None
        if found != manifest:
            differ = [
                key
                for key in manifest
                if not isinstance(found, dict) or found.get(key) != manifest[key]
            ]
            raise StudyMismatch(
                f"{folder} holds a different sensitivity study ({', '.join(differ)} differ); "
                "continue it with the same scenario and options, add --fresh to start over "
                "there, or choose another --out"
            )
    write_text(path, json.dumps(manifest, indent=2) + "\n")


def _play(
    point: StudyPoint,
    plan: StudyPlan,
    folder: Path | None,
    fresh: bool,
    chunk_size: int,
    options: dict[str, Any],
) -> RunResult:
    where = folder / POINTS / point.folder if folder is not None else None
    return simulate(
        point.scenario,
        runs=point.runs,
        seed=plan.seed,
        chunk_size=chunk_size_for(point.runs, chunk_size),
        out=where,
        resume=where is not None and not fresh,
        progress=False,
        **options,
    )


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
