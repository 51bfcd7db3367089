"""A sensitivity study answered exactly: every point of its design solved as a chain.

The study is planned as the sampled one is (:func:`analysis.sensitivity_plan.plan_study`: the
scenario's own values, each parameter alone at its low and high end, Saltelli's Sobol design
over the joint ranges, each distinct point once). Under ``exact`` every distinct point is solved
as a chain (:func:`analysis.exact_arms.all_exact`, the rule every study shares: all points or
none, each asked whether a chain plays it within the cap before any is solved), so:

- each **one-at-a-time effect** is the exact change of the side's win rate between the two
  ends, an interval of zero width (a fact, not an estimate);
- the **Sobol indices** are estimated from the exact win rate at each design point: no combat
  noise is left in them, only the design's (a finite sample of the joint ranges), which is what
  their bootstrap intervals measure now; more base samples (``--samples``) narrow them;
- the **verdict** is the sampled study's rule (:func:`analysis.sensitivity.verdict`) on those.

The folder it writes has the sampled study's tables (``design``, ``effects``, ``indices``),
``summary.json`` (``"method": "exact"``, counts of combats null, the exact rates as fractions),
``meta.json`` and the scenario; no outcome table (no combat was played).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.exact_arms import all_exact
from analysis.sensitivity import Effect, Interval, SobolIndex, Verdict, sobol_indices, verdict
from analysis.sensitivity_plan import StudyPlan, StudyPoint
from analysis.sensitivity_study import effects_frame, indices_frame, json_ready_study
from sim.run.exact import exact_meta
from sim.run.files import write_text
from sim.run.outdir import FolderLock
from sim.run.store import write_scenario
from sim.run.tables import save_frame

#: What a designer can do to narrow an exact study's Sobol intervals (no combats to add).
EXACT_MORE = "more samples (--samples) would separate them"


@dataclass
class ExactStudy:
    """A study whose every point was solved exactly.

    Attributes:
        plan: the study.
        rates: per point index, the side's exact win rate there.
        states: the most live states a point's chain met.
        effects: the one-at-a-time effects (intervals of zero width).
        indices: the Sobol indices from the exact rates, with bootstrap intervals.
        verdict: which parameter moves the win rate most.
    """

    plan: StudyPlan
    rates: dict[int, Fraction]
    states: int
    effects: list[Effect]
    indices: list[SobolIndex]
    verdict: Verdict

    def rate(self, point: StudyPoint) -> float:
        """The side's exact win rate at a point."""
        return float(self.rates[point.index])

    def design_table(self) -> pd.DataFrame:
        """One row per point of the study: its part, values and exact win rate."""
        plan = self.plan
        parts = [("base", 0, plan.base)]
        for i, (low, high) in enumerate(plan.oat):
            parts += [("low", i, low), ("high", i, high)]
        parts += [("sobol", i, point) for i, point in enumerate(plan.sobol)]
        rows: list[dict[str, Any]] = []
        for part, number, point in parts:
            values: dict[str, Any] = {
                f.label: v if isinstance(v, (int, float)) and not isinstance(v, bool) else str(v)
                for f, v in zip(plan.factors, point.settings, strict=True)
            }
            rate = self.rate(point)
            rows.append(
                {"part": part, "row": number, "point": point.folder, **values, "runs": 0}
                | {"wins": None, "win_rate": rate, "ci_low": rate, "ci_high": rate}
            )
        return pd.DataFrame(rows)

    @property
    def summary(self) -> dict[str, Any]:
        """The sampled study's keys, with ``"method": "exact"`` and the exact fractions."""
        plan = self.plan
        base = self.rate(plan.base)
        summary = {
            "kind": "sensitivity",
            "method": "exact",
            "scenario": plan.scenario.name,
            "seed": plan.seed,
            "side": plan.side,
            "runs": None,
            "oat_runs": None,
            "samples": plan.samples,
            "design_points": len(plan.sobol),
            "points_played": None,
            "points_solved": len(plan.points),
            "states": self.states,
            "combats": None,
            "parameters": [f.to_dict() for f in plan.factors],
            "base": {"win_rate": base, "ci95": [base, base]},
            "effects": [e.to_dict() for e in self.effects],
            "indices": [i.to_dict() for i in self.indices],
            "verdict": self.verdict.to_dict(),
            "fractions": {
                "base": str(self.rates[plan.base.index]),
                "effects": {
                    f.label: str(self.rates[high.index] - self.rates[low.index])
                    for f, (low, high) in zip(plan.factors, plan.oat, strict=True)
                },
            },
        }
        return json_ready_study(summary)

    def save(self, directory: str | Path) -> list[Path]:
        """Write the study's tables, ``summary.json``, ``meta.json`` and the scenario."""
        out = Path(directory)
        meta = exact_meta(self.plan.scenario, "sensitivity")
        meta |= {"side": self.plan.side, "parameters": [f.to_dict() for f in self.plan.factors]}
        with FolderLock(out):
            written = [
                write_text(out / "summary.json", json.dumps(self.summary, indent=2) + "\n"),
                write_text(out / "meta.json", json.dumps(json_ready_study(meta), indent=2) + "\n"),
                write_scenario(out, self.plan.scenario),
            ]
            written += save_frame(self.design_table(), out, "design")
            written += save_frame(effects_frame(self.plan.factors, self.effects), out, "effects")
            written += save_frame(indices_frame(self.plan.factors, self.indices), out, "indices")
        return written


def exact_study(plan: StudyPlan, method: str) -> tuple[ExactStudy | None, str]:
    """The study with every point solved exactly, or None and why it is sampled.

    Raises:
        NotExact, TooManyStates: under ``exact``, a point no chain plays or over the cap.
    """
    points = {point.folder: point for point in plan.points}
    answers, why = all_exact({k: p.scenario for k, p in points.items()}, method, "point")
    if answers is None:
        return None, why
    rates = {points[answer.name].index: answer.win_rate(plan.side) for answer in answers}
    states = max((answer.summary or {}).get("states", 0) for answer in answers)
    effects = []
    for factor, (low, high) in zip(plan.factors, plan.oat, strict=True):
        change = float(rates[high.index] - rates[low.index])
        effects.append(
            Effect(
                factor.label,
                factor.low,
                factor.high,
                float(rates[low.index]),
                float(rates[high.index]),
                Interval(change, change, change),
                0,
            )
        )
    design = np.array([float(rates[point.index]) for point in plan.sobol])
    indices = sobol_indices(plan.labels, design, plan.seed)
    found = verdict(indices, plan.side, EXACT_MORE)
    return ExactStudy(plan, rates, states, effects, indices, found), ""


__all__ = ["EXACT_MORE", "ExactStudy", "exact_study"]
