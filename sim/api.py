"""The library a designer calls from a notebook; the CLI is a thin layer over it.

>>> from sim import load_scenario, simulate
>>> result = simulate("scenarios/acs-duel.yaml", runs=2000, seed=1)
>>> result.summary["sides"]["red"]["win_rate"]
>>> result.outcomes.head()
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.runner import DEFAULT_CHUNK, iter_chunks, trace_combat
from sim.scenario.loader import load_scenario
from sim.scenario.schema import Scenario

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class RunResult:
    """What a run gives back: the outcome tables and their summary."""

    scenario: Scenario
    seed: int
    runs: int
    outcomes: pd.DataFrame
    summary: dict[str, Any]
    combatants: pd.DataFrame | None = field(default=None)

    def save(self, directory: str | Path, csv: bool = True) -> list[Path]:
        """Write ``outcomes.parquet``/``.csv``, ``combatants.*`` (if any) and ``summary.json``."""
        from analysis.tables import save_frame

        out = Path(directory)
        written = save_frame(self.outcomes, out, "outcomes", csv)
        if self.combatants is not None:
            written += save_frame(self.combatants, out, "combatants", csv)
        summary = out / "summary.json"
        summary.write_text(json.dumps(self.summary, indent=2) + "\n", encoding="utf-8")
        written.append(summary)
        return written


def _scenario(scenario: Scenario | str | Path) -> Scenario:
    return scenario if isinstance(scenario, Scenario) else load_scenario(scenario)


def simulate(
    scenario: Scenario | str | Path,
    runs: int | None = None,
    seed: int | None = None,
    *,
    detail: bool = False,
    chunk_size: int = DEFAULT_CHUNK,
    variant: str = "base",
) -> RunResult:
    """Play ``runs`` combats of a scenario and summarize them.

    Args:
        scenario: a loaded scenario or the path of its file.
        runs: how many combats (default: the scenario's ``runs``).
        seed: the run's seed (default: the scenario's ``seed``).
        detail: also build the per-combatant table.
        chunk_size: combats per chunk (does not change any result).
        variant: the name written in the tables' ``variant`` column.
    """
    from analysis.summary import summarize
    from analysis.tables import combatants_frame, outcomes_frame

    scenario = _scenario(scenario)
    runs = scenario.runs if runs is None else runs
    seed = scenario.seed if seed is None else seed
    records: list[tuple] = []
    details: list[tuple] = []
    for chunk in iter_chunks(scenario, seed, runs, chunk_size, detail):
        records.extend(chunk.records)
        details.extend(chunk.combatants)
    outcomes = outcomes_frame(records, scenario.side_names, scenario.name, variant)
    combatants = combatants_frame(details, scenario.name, variant) if detail else None
    summary = summarize(outcomes, scenario.side_names, scenario.name, seed)
    return RunResult(scenario, seed, runs, outcomes, summary, combatants)


def replay(scenario: Scenario | str | Path, combat: int, seed: int | None = None) -> str:
    """The narration of one combat of a run, segment by segment."""
    from sim.narrate import narrate

    scenario = _scenario(scenario)
    seed = scenario.seed if seed is None else seed
    _result, trace = trace_combat(scenario, seed, combat)
    return narrate(scenario, trace, combat, seed)
