"""A run streamed to a directory: one Parquet file per finished chunk, and resume.

With ``--out DIR`` (``simulate(out=DIR)``) every chunk is written as soon as it is finished, so
memory stays flat whatever the number of combats and a run that is interrupted (Ctrl-C, or the
process killed outright) loses nothing it finished. The directory holds:

- ``run.json``: what the run is (scenario fingerprint, seed, first combat, runs, chunk size,
  detail, variant). A resumed run must match it, so chunks of different runs never mix;
- ``outcomes.parquet/``: a Parquet dataset, one file per chunk named by its first combat
  (``part-000000002000.parquet``); ``pandas.read_parquet(DIR / "outcomes.parquet")`` reads it
  whole, in combat order;
- ``combatants.parquet/`` likewise with ``--detail``;
- when the run is complete: ``outcomes.csv`` (and ``combatants.csv``), and ``summary.json``.

Each chunk file is written under a hidden temporary name, flushed to disk, then renamed: a file
with its final name is always whole, and readers skip the hidden ones. Resuming plays only the
chunks whose files are missing. The summary is built from counts kept per chunk
(:class:`Tally`), never from all rows at once.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from sim.errors import CommandError
from sim.parallel import fingerprint
from sim.summary import summary_from_counts
from sim.tables import combatants_frame, outcomes_frame
from sim.version import __version__

if TYPE_CHECKING:
    import pandas as pd

    from sim.runner import ChunkResult
    from sim.scenario.schema import Scenario

MANIFEST = "run.json"
FORMAT = "combatsim-run/1"
OUTCOMES = "outcomes"
COMBATANTS = "combatants"
SUMMARY = "summary.json"
SCENARIO = "scenario.yaml"

#: Columns holding text, and columns holding real numbers; every other column is an integer.
TEXT_COLUMNS = frozenset({"scenario", "variant", "winner", "end", "combatant", "side", "out"})
REAL_COLUMNS = frozenset({"duration_s", "out_at_s", "time_out_s"})

#: What must agree for a resumed run to continue a run on disk.
MATCHED = ("fingerprint", "seed", "first", "runs", "chunk_size", "detail", "variant")


class StoreMismatch(CommandError, ValueError):
    """The directory holds a different run than the one asked to resume."""


def _part_name(start: int) -> str:
    return f"part-{start:012d}.parquet"


def _part_start(name: str) -> int | None:
    if name.startswith("part-") and name.endswith(".parquet"):
        digits = name[len("part-") : -len(".parquet")]
        if digits.isdigit():
            return int(digits)
    return None


def scenario_digest(scenario: Scenario) -> str:
    """A digest of what the scenario's fights depend on."""
    text = json.dumps(fingerprint(scenario), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _schema(columns: Sequence[str]) -> Any:
    import pyarrow as pa  # deferred: heavy third-party package

    def kind(column: str) -> Any:
        if column in TEXT_COLUMNS:
            return pa.large_string()
        if column in REAL_COLUMNS:
            return pa.float64()
        return pa.int64()

    return pa.schema([(column, kind(column)) for column in columns])


def _write_atomically(path: Path, write) -> None:
    """``write(tmp)`` to a hidden file next to ``path``, flush it to disk, rename it."""
    tmp = path.with_name(f".{path.name}.tmp")
    write(tmp)
    with open(tmp, "rb+") as handle:
        os.fsync(handle.fileno())
    os.replace(tmp, path)


class RunStore:
    """A run's directory (see the module docstring).

    Use :meth:`open`; it checks a run to resume against ``run.json``.
    """

    def __init__(self, directory: Path, manifest: dict[str, Any]) -> None:
        self.directory = directory
        self.manifest = manifest
        self.detail: bool = manifest["detail"]

    # -- opening -----------------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        directory: str | Path,
        scenario: Scenario,
        seed: int,
        first: int,
        runs: int,
        chunk_size: int,
        detail: bool = False,
        variant: str = "base",
        resume: bool = False,
    ) -> RunStore:
        """Open ``directory`` for a run: fresh (clearing an earlier run) or to resume one.

        Raises:
            StoreMismatch: resuming, and the directory holds a different run.
        """
        directory = Path(directory)
        manifest = {
            "format": FORMAT,
            "combatsim": __version__,
            "scenario": scenario.name,
            "file": scenario.file,
            "fingerprint": scenario_digest(scenario),
            "seed": seed,
            "first": first,
            "runs": runs,
            "chunk_size": chunk_size,
            "detail": detail,
            "variant": variant,
            "side_names": list(scenario.side_names),
        }
        store = cls(directory, manifest)
        path = directory / MANIFEST
        if resume and path.is_file():
            store._check(json.loads(path.read_text(encoding="utf-8")))
        elif resume and any(store._parts(OUTCOMES)):
            raise StoreMismatch(f"{directory} holds chunks but no {MANIFEST}: nothing to resume")
        else:
            store._clear()
        directory.mkdir(parents=True, exist_ok=True)
        for table in store._tables():
            (directory / f"{table}.parquet").mkdir(exist_ok=True)
        store._remove_leftovers()
        _write_atomically(
            path, lambda tmp: tmp.write_text(json.dumps(manifest, indent=2) + "\n", "utf-8")
        )
        write_scenario(directory, scenario)
        return store

    def _check(self, found: dict[str, Any]) -> None:
        if found.get("format") != FORMAT:
            raise StoreMismatch(f"{self.directory / MANIFEST} is not a combatsim run")
        differ = [key for key in MATCHED if found.get(key) != self.manifest[key]]
        if differ:
            shown = "; ".join(
                f"{key}: {found.get(key)!r} on disk, {self.manifest[key]!r} now" for key in differ
            )
            what = "scenario" if differ == ["fingerprint"] else "run"
            raise StoreMismatch(
                f"{self.directory} holds a different {what} ({shown}); resume with the same "
                "scenario, seed, runs and chunk size, or use another output directory"
            )

    def _tables(self) -> list[str]:
        return [OUTCOMES, COMBATANTS] if self.detail else [OUTCOMES]

    def _clear(self) -> None:
        """Remove what an earlier run left here (only combatsim's own files)."""
        for table in (OUTCOMES, COMBATANTS):
            target = self.directory / f"{table}.parquet"
            if target.is_dir():
                for _, part in self._parts(table):
                    part.unlink()
                for hidden in target.glob(".part-*.tmp"):
                    hidden.unlink()
            elif target.exists():
                target.unlink()  # a single-file table from RunResult.save
            csv = self.directory / f"{table}.csv"
            if csv.is_file():
                csv.unlink()
        for name in (SUMMARY, MANIFEST):
            if (self.directory / name).is_file():
                (self.directory / name).unlink()

    def _remove_leftovers(self) -> None:
        """Delete half-written files of a run that was killed."""
        for table in (OUTCOMES, COMBATANTS):
            folder = self.directory / f"{table}.parquet"
            if folder.is_dir():
                for hidden in folder.glob(".part-*.tmp"):
                    hidden.unlink()
        for hidden in self.directory.glob(".*.tmp"):
            hidden.unlink()

    # -- chunks ------------------------------------------------------------------------------------

    def _parts(self, table: str) -> Iterator[tuple[int, Path]]:
        """``(first combat, path)`` of every whole chunk file of a table, in combat order."""
        folder = self.directory / f"{table}.parquet"
        if not folder.is_dir():
            return iter(())
        found = [(_part_start(p.name), p) for p in folder.iterdir()]
        return iter(sorted((start, p) for start, p in found if start is not None))

    def done(self) -> set[int]:
        """The first combat of every chunk already on disk (whole, in every table)."""
        starts = {start for start, _ in self._parts(OUTCOMES)}
        if self.detail:
            starts &= {start for start, _ in self._parts(COMBATANTS)}
        return starts

    def write(self, chunk: ChunkResult, scenario_name: str) -> pd.DataFrame:
        """Write a finished chunk; return its outcomes table (for the tally)."""
        variant = self.manifest["variant"]
        side_names = tuple(self.manifest["side_names"])
        if self.detail:
            details = combatants_frame(chunk.combatants, scenario_name, variant)
            self._write_table(COMBATANTS, chunk.start, details)
        frame = outcomes_frame(chunk.records, side_names, scenario_name, variant)
        # Written last: a chunk counts as done once its outcomes file exists.
        self._write_table(OUTCOMES, chunk.start, frame)
        return frame

    def _write_table(self, table: str, start: int, frame: pd.DataFrame) -> None:
        import pyarrow as pa  # deferred: heavy third-party package
        import pyarrow.parquet as pq

        arrow = pa.Table.from_pandas(frame, schema=_schema(frame.columns), preserve_index=False)
        path = self.directory / f"{table}.parquet" / _part_name(start)
        _write_atomically(path, lambda tmp: pq.write_table(arrow, tmp))

    # -- reading -----------------------------------------------------------------------------------

    def done_frames(self, columns: list[str] | None = None) -> Iterator[tuple[int, pd.DataFrame]]:
        """``(first combat, outcomes)`` of every chunk already done, one at a time."""
        import pyarrow.parquet as pq  # deferred: heavy third-party package

        done = self.done()
        for start, path in self._parts(OUTCOMES):
            if start in done:
                yield start, pq.read_table(path, columns=columns).to_pandas()

    def frames(self, table: str = OUTCOMES, columns: list[str] | None = None) -> Iterator:
        """The chunk tables on disk one by one, in combat order."""
        import pyarrow.parquet as pq  # deferred: heavy third-party package

        for _, path in self._parts(table):
            yield pq.read_table(path, columns=columns).to_pandas()

    def read(self, table: str = OUTCOMES, columns: list[str] | None = None) -> pd.DataFrame:
        """A whole table, in combat order (it holds every row: mind the memory)."""
        import pandas as pd  # deferred: heavy third-party packages
        import pyarrow as pa
        import pyarrow.parquet as pq

        parts = [pq.read_table(path, columns=columns) for _, path in self._parts(table)]
        if not parts:
            return pd.DataFrame(columns=columns)
        return pa.concat_tables(parts).to_pandas()

    def finish(self, summary: dict[str, Any], csv: bool = True) -> list[Path]:
        """Write the CSV copies (chunk by chunk) and ``summary.json`` of a complete run."""
        written = [self.directory / f"{table}.parquet" for table in self._tables()]
        if csv:
            for table in self._tables():
                target = self.directory / f"{table}.csv"

                def write(tmp: Path, table: str = table) -> None:
                    with open(tmp, "w", encoding="utf-8", newline="") as handle:
                        for i, frame in enumerate(self.frames(table)):
                            frame.to_csv(handle, header=i == 0, index=False)

                _write_atomically(target, write)
                written.append(target)
        target = self.directory / SUMMARY
        _write_atomically(
            target, lambda tmp: tmp.write_text(json.dumps(summary, indent=2) + "\n", "utf-8")
        )
        written.append(target)
        return written


def write_scenario(directory: Path, scenario: Scenario) -> Path:
    """Keep the scenario as it was run next to its results (``scenario.yaml``, for reports)."""
    target = Path(directory) / SCENARIO
    text = yaml.safe_dump(scenario.data, sort_keys=False, allow_unicode=True)
    _write_atomically(target, lambda tmp: tmp.write_text(text, "utf-8"))
    return target


class Tally:
    """The counts a run summary needs, kept chunk by chunk (flat memory).

    :meth:`summary` gives the same mapping as :func:`sim.summary.summarize` over the whole
    outcome table. Sums of real numbers are kept per chunk and added in combat order at the end,
    so the summary does not depend on the order in which chunks finished.
    """

    def __init__(self, side_names: Sequence[str]) -> None:
        self.side_names = tuple(side_names)
        self.runs = 0
        self.winners: Counter[str] = Counter()
        self.ends: Counter[str] = Counter()
        self.survivors = dict.fromkeys(self.side_names, 0)
        self.hp_left = dict.fromkeys(self.side_names, 0)
        self._durations: dict[int, float] = {}
        #: The outcome columns it reads.
        self.columns = ["winner", "end", "duration_s"] + [
            f"{c}_{side}" for side in self.side_names for c in ("survivors", "hp_left")
        ]

    def add(self, start: int, frame: pd.DataFrame) -> None:
        """Count one chunk's outcomes (``start``: its first combat)."""
        self.runs += len(frame)
        self.winners.update(frame["winner"].tolist())
        self.ends.update(frame["end"].tolist())
        for side in self.side_names:
            self.survivors[side] += int(frame[f"survivors_{side}"].sum())
            self.hp_left[side] += int(frame[f"hp_left_{side}"].sum())
        self._durations[start] = math.fsum(frame["duration_s"].tolist())

    def summary(self, scenario: str, seed: int) -> dict[str, Any]:
        """The summary of the combats counted so far (the same shape as ``summarize``)."""
        runs = self.runs

        def mean(total: float) -> float:
            return total / runs if runs else math.nan

        duration = math.fsum(self._durations[k] for k in sorted(self._durations))
        return summary_from_counts(
            scenario,
            seed,
            runs,
            self.side_names,
            self.winners,
            self.ends,
            mean(duration),
            {side: mean(total) for side, total in self.survivors.items()},
            {side: mean(total) for side, total in self.hp_left.items()},
        )
