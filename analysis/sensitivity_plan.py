"""Planning a sensitivity study: every point it plays, each a validated scenario.

A study (:mod:`sim.scenario.sensitivity_section` says how it is declared) plays the scenario at
the scenario's own values, at each parameter's low and high end with the others as written (the
one-at-a-time points) and at every row of a Sobol design over the joint ranges. Each point is
built and validated here before any combat is played; points that set the same values (whole
numbers repeat) are the same point, played once. :mod:`analysis.sensitivity_study` plays them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from analysis.sensitivity import Factor, sobol_design
from sim.run.store import scenario_digest
from sim.scenario.loader import load_scenario, made_from, scenario_from_dict
from sim.scenario.problems import Problem, ScenarioError
from sim.scenario.schema import Scenario
from sim.scenario.sensitivity_section import SensitivityModel, current_value, study_base

#: The format of a study's manifest (in ``job.json``: :mod:`analysis.job`).
FORMAT = "combatsim-sensitivity/1"


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
            "kind": "sensitivity",
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
                built = scenario_from_dict(self.base, self.scenario.file, overrides)
                self.built[key] = made_from(built, self.scenario, overrides)
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
