"""Outcome tables: the run's flat records as pandas DataFrames, saved as Parquet and CSV.

The run layer builds these tables at its edge (a run's result, a chunk written to disk); the
engine and the rules never see pandas. pandas is imported inside the functions that build a
table: it is heavy (about a third of a second), and ``import sim`` or ``combatsim --help``
should not pay for it.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from sim.run.files import as_text, make_folder, write_atomically
from sim.run.records import COMBATANT_COLUMNS, combat_columns

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
    make_folder(directory)
    target = directory / f"{stem}.parquet"
    written = [write_atomically(target, lambda handle: frame.to_parquet(handle, index=False))]
    if csv:

        def fill(handle) -> None:
            with as_text(handle) as text:
                frame.to_csv(text, index=False)

        written.append(write_atomically(directory / f"{stem}.csv", fill))
    return written


def csv_rows(text: IO[str], table: Any, header: bool = True) -> None:
    """Write an Arrow table as CSV rows, the bytes ``pandas.DataFrame.to_csv`` writes.

    pandas writes through the standard ``csv`` module (minimal quoting, a newline ending each row),
    floats as their shortest repr and missing values as empty fields; so does this, a record
    batch at a time, without importing pandas (a streamed run's CSV copy needs none). A test
    compares the two on every bundled scenario's tables.
    """
    if header:
        csv_header(text, table.column_names)
    writer = csv.writer(text, lineterminator="\n")
    for batch in table.to_batches():
        writer.writerows(zip(*(column.to_pylist() for column in batch.columns), strict=True))


def csv_header(text: IO[str], names: list[str]) -> None:
    """The header line of a CSV table, as :func:`csv_rows` writes it."""
    csv.writer(text, lineterminator="\n").writerow(names)
