"""What a run gives back: its outcome tables and summary, in memory or in a results folder.

:class:`RunResult` holds the tables; :class:`StoredRunResult` is a run streamed into a folder,
whose tables are read back from there when first asked for; :class:`RunInterrupted` carries the
combats finished before Ctrl-C (or a cancel) stopped a run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.run.files import write_text
from sim.run.outdir import FolderLock
from sim.run.runner import WorkPlan
from sim.run.store import COMBATANTS, RunStore, write_scenario
from sim.run.tables import save_frame
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
    #: How the run was played (workers, chunk size and why; not part of the results).
    plan: WorkPlan | None = field(default=None, compare=False)

    def save(self, directory: str | Path, csv: bool = True) -> list[Path]:
        """Write the tables, ``summary.json`` and ``scenario.yaml`` into ``directory``.

        The tables are ``outcomes.parquet``/``.csv`` and ``combatants.*`` (if any); the scenario
        is kept as it was run, for reports.
        """
        out = Path(directory)
        with FolderLock(out):
            written = save_frame(self.outcomes, out, "outcomes", csv)
            if self.combatants is not None:
                written += save_frame(self.combatants, out, "combatants", csv)
            written.append(
                write_text(out / "summary.json", json.dumps(self.summary, indent=2) + "\n")
            )
            written.append(write_scenario(out, self.scenario))
        return written


class StoredRunResult(RunResult):
    """A run streamed to a directory (``simulate(..., storage=Storage(out=...))``).

    Its summary is at hand; its tables are read back from the directory the first time they are
    asked for (they hold every row: for millions of combats, read the Parquet dataset in parts).
    """

    def __init__(
        self, scenario: Scenario, seed: int, runs: int, summary: dict[str, Any], store: RunStore
    ) -> None:
        # Not the dataclass's __init__: the tables are properties, read on first use.
        self.scenario = scenario
        self.seed = seed
        self.runs = runs
        self.summary = summary
        self.store = store
        self.plan = None
        self._outcomes: pd.DataFrame | None = None
        self._combatants: pd.DataFrame | None = None

    @property
    def outcomes(self) -> pd.DataFrame:
        """One row per combat, read from ``outcomes.parquet/``."""
        if self._outcomes is None:
            self._outcomes = self.store.read()
        return self._outcomes

    @outcomes.setter
    def outcomes(self, value: pd.DataFrame | None) -> None:
        self._outcomes = value

    @property
    def combatants(self) -> pd.DataFrame | None:
        """One row per combatant per combat (with ``detail``), read from the directory."""
        if self._combatants is None and self.store.detail:
            self._combatants = self.store.read(COMBATANTS)
        return self._combatants

    @combatants.setter
    def combatants(self, value: pd.DataFrame | None) -> None:
        self._combatants = value

    def save(self, directory: str | Path, csv: bool = True) -> list[Path]:
        """Copy the run's tables and summary to ``directory`` (nothing to do for its own)."""
        if Path(directory).resolve() == self.store.directory.resolve():
            return self.store.finish(self.summary, csv)
        return super().save(directory, csv)


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C (or the run's ``cancel`` event) during a run; ``result`` holds what finished.

    With ``Storage(out=...)``, every finished chunk is on disk and the same run with
    ``resume=True`` plays only the rest. Without, ``result`` is all that is left of the run.
    ``result.runs`` is 0 when no combat had finished yet. A first Ctrl-C lets the chunks under
    way finish, so every combat counted is kept; after a second one, ``dropped`` says how many
    combats of chunks under way were not (see :mod:`sim.run.interrupts`).
    """

    def __init__(self, result: RunResult, total: int, dropped: int = 0) -> None:
        super().__init__(f"interrupted after {result.runs} of {total} combats")
        self.result = result
        self.total = total
        self.dropped = dropped
