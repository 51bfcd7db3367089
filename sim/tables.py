"""Outcome tables: the run's flat records as pandas DataFrames, saved as Parquet and CSV.

The run layer builds these tables at its edge (a run's result, a chunk written to disk); the
engine and the rules never see pandas. pandas is imported inside the functions that build a
table: it is heavy (about a third of a second), and ``import sim`` or ``combatsim --help``
should not pay for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from sim.records import COMBATANT_COLUMNS, combat_columns

if TYPE_CHECKING:
    import pandas as pd


def outcomes_frame(
    records: Iterable[tuple], side_names: tuple[str, ...], scenario: str, variant: str = "base"
) -> pd.DataFrame:
    """One row per combat, with the scenario and variant names in front."""
    import pandas as pd  # deferred: heavy third-party package (see the module docstring)

    frame = pd.DataFrame.from_records(list(records), columns=list(combat_columns(side_names)))
    frame.insert(0, "variant", variant)
    frame.insert(0, "scenario", scenario)
    return frame


def combatants_frame(
    records: Iterable[tuple], scenario: str, variant: str = "base"
) -> pd.DataFrame:
    """One row per combatant per combat."""
    import pandas as pd  # deferred: heavy third-party package (see the module docstring)

    frame = pd.DataFrame.from_records(list(records), columns=list(COMBATANT_COLUMNS))
    frame.insert(0, "variant", variant)
    frame.insert(0, "scenario", scenario)
    return frame


def save_frame(frame: pd.DataFrame, directory: Path, stem: str, csv: bool = True) -> list[Path]:
    """Write ``stem.parquet`` (and ``stem.csv``) into ``directory``, atomically each."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    target = directory / f"{stem}.parquet"
    tmp = target.with_suffix(".parquet.tmp")
    frame.to_parquet(tmp, index=False)
    tmp.replace(target)
    written.append(target)
    if csv:
        target = directory / f"{stem}.csv"
        tmp = target.with_suffix(".csv.tmp")
        frame.to_csv(tmp, index=False)
        tmp.replace(target)
        written.append(target)
    return written
