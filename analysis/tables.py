"""Outcome tables: the engine's flat records as pandas DataFrames, saved as Parquet and CSV."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from sim.records import COMBATANT_COLUMNS, combat_columns


def outcomes_frame(
    records: Iterable[tuple], side_names: tuple[str, ...], scenario: str, variant: str = "base"
) -> pd.DataFrame:
    """One row per combat, with the scenario and variant names in front."""
    frame = pd.DataFrame.from_records(list(records), columns=list(combat_columns(side_names)))
    frame.insert(0, "variant", variant)
    frame.insert(0, "scenario", scenario)
    return frame


def combatants_frame(
    records: Iterable[tuple], scenario: str, variant: str = "base"
) -> pd.DataFrame:
    """One row per combatant per combat."""
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
