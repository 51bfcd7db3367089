"""A run streamed to a directory: one Parquet file per finished chunk, and resume.

With ``--out DIR`` (``simulate(out=DIR)``) every chunk is written as soon as it is finished, so
memory stays flat whatever the number of combats and a run that is interrupted (Ctrl-C, or the
process killed outright) loses nothing it finished. The directory holds:

- ``run.json``: what the run is (``"kind": "run"``, scenario fingerprint, rules, time limit,
  seed, first combat, runs, chunk size, detail, variant). A resumed run must match it, so
  chunks of different runs never mix;
- ``outcomes.parquet/``: a Parquet dataset, one file per chunk named by its first combat
  (``part-000000002000.parquet``); ``pandas.read_parquet(DIR / "outcomes.parquet")`` reads it
  whole, in combat order;
- ``combatants.parquet/`` likewise with ``--detail``;
- ``chunks.jsonl``: the journal of written chunks and their checksums (:mod:`sim.run.chunks`);
- ``.combatsim.lock``: the lock of the one process writing there (:mod:`sim.run.outdir`);
- when the run is complete: ``outcomes.csv`` (and ``combatants.csv``), and ``summary.json``;
- ``quarantine/``, only when a resume found files that do not belong to the run.

Each chunk file is written under a unique hidden name, flushed to disk, then renamed
(:mod:`sim.run.files`): a file with its final name is always whole, and readers skip the hidden
ones. Each carries its run and combat range; resuming checks every file against them and the
journal (:func:`sim.run.chunks.verify`), sets aside what does not belong, and plays only the
chunks that are missing. The summary is built from counts kept per chunk
(:class:`sim.run.summary.Tally`), never from all rows at once.
"""

from __future__ import annotations

import hashlib
import io
import json
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from sim.engine.errors import CommandError
from sim.run.chunks import (
    JOURNAL,
    QUARANTINE,
    Journal,
    Label,
    part_name,
    part_start,
    verify,
    write_chunk,
)
from sim.run.files import (
    WriteError,
    as_text,
    is_temporary,
    make_folder,
    write_atomically,
    write_text,
    writing,
)
from sim.run.outdir import FolderLock, claim
from sim.run.records import COMBATANT_COLUMNS, combat_columns
from sim.run.tables import csv_header, csv_rows
from sim.run.version import __version__
from sim.run.watch import RunWarning

if TYPE_CHECKING:
    import pandas as pd

    from sim.run.runner import ChunkResult
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

#: What to do after a write failed part-way (the chunks already written are kept).
RESUME_HINT = (
    "the chunks finished so far are kept; once it can be written, run the same command with "
    "--resume to finish"
)


class StoreMismatch(CommandError, ValueError):
    """The directory holds a different run than the one asked to resume."""


class StoreDamaged(CommandError, ValueError):
    """The directory's run cannot be resumed as it is (the message says what to do)."""


class ResultsWarning(RunWarning):
    """Something in a results directory was set right (a chunk set aside, a lock taken over)."""


def scenario_digest(scenario: Scenario) -> str:
    """A digest of what the scenario's fights depend on."""
    text = json.dumps(scenario.fingerprint(), sort_keys=True, default=str)
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


def _arrow_table(
    records: Sequence[tuple], columns: Sequence[str], scenario: str, variant: str
) -> Any:
    """A chunk's records as an Arrow table, the scenario and variant names in front.

    The values of ``pandas.DataFrame.from_records`` then ``pa.Table.from_pandas`` with the
    types of :func:`_schema` (a test compares them), without pandas: pyarrow imports pandas
    (about 50 MB) the first time it converts Python objects, so the records reach Arrow as
    JSON lines through its own reader, which does not. Missing values (None) are nulls.
    """
    import pyarrow.json as pj  # deferred: heavy third-party package

    schema = _schema(["scenario", "variant", *columns])
    if not records:
        return schema.empty_table()
    names = schema.names
    lines = "".join(
        json.dumps(dict(zip(names, (scenario, variant, *row), strict=True))) + "\n"
        for row in records
    )
    return pj.read_json(
        io.BytesIO(lines.encode("utf-8")),
        read_options=pj.ReadOptions(use_threads=False),
        parse_options=pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="error"),
    )


def _read_part(path: Path, columns: list[str] | None = None) -> Any:
    """One chunk file as an Arrow table, read by its file reader.

    ``pq.read_table`` would load pyarrow's dataset libraries and pandas (about 50 MB) to read
    the same single file.
    """
    import pyarrow.parquet as pq  # deferred: heavy third-party package

    with pq.ParquetFile(path) as part:
        return part.read(columns=columns)


#: Rows of a chunk file turned into CSV at a time (the copy's memory does not grow with chunks).
CSV_BATCH = 1024


def _csv_part(text: Any, path: Path, header: bool) -> None:
    """Append one chunk file to a CSV copy, ``CSV_BATCH`` rows at a time."""
    import pyarrow as pa  # deferred: heavy third-party package
    import pyarrow.parquet as pq

    with pq.ParquetFile(path) as part:
        if header:
            csv_header(text, part.schema_arrow.names)
        for batch in part.iter_batches(batch_size=CSV_BATCH):
            csv_rows(text, pa.Table.from_batches([batch]), header=False)


def _json_text(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2) + "\n"


class RunStore:
    """A run's directory (see the module docstring).

    Use :meth:`open`; it takes the directory's lock, and checks a run to resume against
    ``run.json`` and its chunks against their labels and the journal. :meth:`close` (or the
    end of a ``with`` block) lets go of the lock.
    """

    def __init__(self, directory: Path, manifest: dict[str, Any]) -> None:
        self.directory = directory
        self.manifest = manifest
        self.detail: bool = manifest["detail"]
        self.lock = FolderLock(directory)
        self.journal = Journal(directory / JOURNAL)
        #: The files a resume set aside (see :func:`sim.run.chunks.verify`).
        self.set_aside: list = []

    @property
    def key(self) -> str:
        """The run every chunk's label must name: scenario, seed and variant."""
        what = [self.manifest[k] for k in ("fingerprint", "seed", "variant")]
        return hashlib.sha256(json.dumps(what).encode()).hexdigest()[:32]

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
        force: bool = False,
    ) -> RunStore:
        """Open ``directory`` for a run: fresh (clearing an earlier run) or to resume one.

        Args:
            directory: the run's directory.
            scenario: the scenario.
            seed: the run's seed.
            first: the run's first combat.
            runs: how many combats.
            chunk_size: combats per chunk file.
            detail: also keep the per-combatant table.
            variant: the name in the tables' ``variant`` column.
            resume: keep the checked chunks already there, instead of clearing them.
            force: write into a directory that holds files combatsim did not write (its own
                names are replaced, symbolic links among them unlinked, never followed).

        Raises:
            StoreMismatch: resuming, and the directory holds a different run.
            StoreDamaged: resuming, and the directory's run cannot be read.
            WriteError: the directory cannot be written, or is not combatsim's.
            FolderBusy: another process is writing there.
        """
        directory = Path(directory)
        manifest = {
            "format": FORMAT,
            "kind": "run",  # what the directory holds (analysis.results.KINDS)
            "combatsim": __version__,
            "scenario": scenario.name,
            "file": scenario.file,
            "rules": scenario.rules,
            "time_limit_s": scenario.time_limit_s,
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
        claim(directory, force=force)
        store.lock.acquire()
        try:
            store._prepare(resume, force)
            with writing(directory, "nothing was played yet"):
                write_text(directory / MANIFEST, _json_text(manifest))
                write_scenario(directory, scenario)
        except BaseException:
            store.close()
            raise
        if store.lock.took_over is not None:
            warnings.warn(
                f"{directory}: took over the lock of {store.lock.took_over.describe()}, which "
                "ended without letting go of it",
                ResultsWarning,
                stacklevel=2,
            )
        return store

    def _prepare(self, resume: bool, force: bool) -> None:
        """Refuse links and misplaced files; check the run to resume, or clear an earlier one."""
        directory = self.directory
        for name in self._own_names():
            path = directory / name
            if path.is_symlink():
                if not force:
                    raise WriteError(
                        path,
                        "it is a symbolic link and combatsim never writes through a link; "
                        "remove it, or add --force to replace the link itself",
                    )
                with writing(path):
                    path.unlink()  # the link only, never what it points to
        path = directory / MANIFEST
        if resume and (path.exists() or any(self._parts(OUTCOMES))):
            self._check(self._read_manifest(path))
            self._verify()
        elif resume:
            self._clear()  # nothing there yet: resuming starts the run
        else:
            self._clear()
        for table in self._tables():
            make_folder(directory / f"{table}.parquet")

    def _own_names(self) -> list[str]:
        tables = [f"{t}.{kind}" for t in (OUTCOMES, COMBATANTS) for kind in ("parquet", "csv")]
        return [*tables, MANIFEST, SUMMARY, SCENARIO, JOURNAL]

    def _read_manifest(self, path: Path) -> dict[str, Any]:
        """``run.json`` of the run to resume, or a clear error saying what to do."""
        start_over = (
            "run the same command without --resume to start the run over (the chunks there "
            "are replaced), or use another output directory"
        )
        if not path.is_file():
            raise StoreDamaged(
                f"{self.directory} holds chunks but no {MANIFEST}: nothing to resume; {start_over}"
            )
        try:
            with writing(path):
                found = json.loads(path.read_bytes().decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise StoreDamaged(
                f"{path} is damaged ({_reason(exc)}), so the chunks cannot be "
                f"matched to a run; {start_over}"
            ) from None
        if not isinstance(found, dict):
            raise StoreDamaged(f"{path} is damaged (not a JSON object); {start_over}")
        for table in self._tables():
            folder = self.directory / f"{table}.parquet"
            if folder.exists() and not folder.is_dir():
                raise StoreDamaged(
                    f"{folder} is a file, not the folder of chunks a streamed run writes (these "
                    f"results were saved whole, not by run --out); {start_over}"
                )
        return found

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

    def _verify(self) -> None:
        """Check every chunk on disk; set aside what does not belong (:func:`verify`)."""
        manifest = self.manifest
        first, runs, size = manifest["first"], manifest["runs"], manifest["chunk_size"]
        bounds = {s: min(s + size, first + runs) for s in range(first, first + runs, size)}
        recorded = self.journal.read()
        for table in self._tables():
            found = verify(
                self.directory / f"{table}.parquet",
                table,
                self.key,
                bounds,
                recorded,
                self.directory / QUARANTINE,
            )
            self.journal.append(found.unrecorded)
            self.set_aside.extend(found.set_aside)
        for aside in self.set_aside:
            warnings.warn(aside.sentence(), ResultsWarning, stacklevel=4)

    def _tables(self) -> list[str]:
        return [OUTCOMES, COMBATANTS] if self.detail else [OUTCOMES]

    def _clear(self) -> None:
        """Remove what an earlier run left here (only combatsim's own files)."""
        with writing(self.directory, "nothing was played yet"):
            for table in (OUTCOMES, COMBATANTS):
                target = self.directory / f"{table}.parquet"
                if target.is_dir() and not target.is_symlink():
                    for part in target.iterdir():
                        ours = part_start(part.name) is not None or is_temporary(part)
                        if ours and (part.is_file() or part.is_symlink()):
                            part.unlink()
                elif target.exists() or target.is_symlink():
                    target.unlink()  # a single-file table from RunResult.save
                csv = self.directory / f"{table}.csv"
                if csv.is_file():
                    csv.unlink()
            for name in (SUMMARY, MANIFEST, JOURNAL):
                if (self.directory / name).is_file():
                    (self.directory / name).unlink()
            for hidden in self.directory.glob(".*.tmp"):
                if hidden.is_file():
                    hidden.unlink()

    def close(self) -> None:
        """Let go of the directory's lock (safe to call twice)."""
        self.lock.release()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- chunks ------------------------------------------------------------------------------------

    def _parts(self, table: str) -> Iterator[tuple[int, Path]]:
        """``(first combat, path)`` of every whole chunk file of a table, in combat order."""
        folder = self.directory / f"{table}.parquet"
        if not folder.is_dir():
            return iter(())
        found = [(part_start(p.name), p) for p in folder.iterdir()]
        return iter(sorted((start, p) for start, p in found if start is not None))

    def done(self) -> set[int]:
        """The first combat of every chunk already on disk (whole, in every table).

        Once open, the folder holds only chunks that were checked (resume) or that this
        process wrote since, under its lock; a chunk renamed into place just before Ctrl-C
        counts, though its journal line may be missing (a resume checks it by reading it).
        """
        starts = {start for start, _ in self._parts(OUTCOMES)}
        if self.detail:
            starts &= {start for start, _ in self._parts(COMBATANTS)}
        return starts

    def write(self, chunk: ChunkResult, scenario_name: str) -> Any:
        """Write a finished chunk; return its outcomes as an Arrow table (for the tally).

        Raises:
            WriteError: the file system refused; the chunks already written are kept.
        """
        variant = self.manifest["variant"]
        side_names = tuple(self.manifest["side_names"])
        entries = []
        try:
            if self.detail:
                details = _arrow_table(chunk.combatants, COMBATANT_COLUMNS, scenario_name, variant)
                entries.append(self._write_table(COMBATANTS, chunk, details))
            outcomes = _arrow_table(
                chunk.records, combat_columns(side_names), scenario_name, variant
            )
            # Written last: a chunk counts as done once its outcomes file exists.
            entries.append(self._write_table(OUTCOMES, chunk, outcomes))
            self.journal.append(entries)
        except WriteError as exc:
            raise exc.with_hint(RESUME_HINT) from None
        return outcomes

    def _write_table(self, table: str, chunk: ChunkResult, arrow: Any):
        path = self.directory / f"{table}.parquet" / part_name(chunk.start)
        return write_chunk(path, arrow, Label(self.key, table, chunk.start, chunk.stop))

    # -- reading -----------------------------------------------------------------------------------

    def done_tables(self, columns: list[str] | None = None) -> Iterator[tuple[int, Any]]:
        """``(first combat, outcomes)`` of every chunk already done, one Arrow table at a time."""
        done = self.done()
        for start, path in self._parts(OUTCOMES):
            if start in done:
                yield start, _read_part(path, columns)

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
        try:
            if csv:
                for table in self._tables():
                    target = self.directory / f"{table}.csv"

                    def fill(handle, table: str = table) -> None:
                        with as_text(handle) as text:
                            for i, (_, path) in enumerate(self._parts(table)):
                                _csv_part(text, path, header=i == 0)

                    write_atomically(target, fill)
                    written.append(target)
            written.append(write_text(self.directory / SUMMARY, _json_text(summary)))
        except WriteError as exc:
            raise exc.with_hint(RESUME_HINT) from None
        return written


def _reason(exc: Exception) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    return f"not JSON: {exc}" if str(exc) else "empty"


def write_scenario(directory: Path, scenario: Scenario) -> Path:
    """Keep the scenario as it was run next to its results (``scenario.yaml``, for reports)."""
    text = yaml.safe_dump(scenario.data, sort_keys=False, allow_unicode=True)
    return write_text(Path(directory) / SCENARIO, text)
