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
    check_chunk,
    part_name,
    part_start,
    set_aside,
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
#: What ``scenario.yaml`` is: whose file, its digest, and what was set on top of it.
SCENARIO_RECORD = "scenario.json"
#: The manifest of a folder of several runs (a sweep, a comparison, ...: :mod:`analysis.job`).
JOB = "job.json"

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
    return json.dumps(json_ready(data), indent=2) + "\n"


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
        return run_key(self.manifest)

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
            **scenario_record(scenario),
        }
        store = cls(directory, manifest)
        claim(directory, force=force)
        store.lock.acquire()
        try:
            if not resume and not force:
                store._keep_a_larger_run()
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
        else:  # a fresh run (or a resume with nothing there yet: resuming starts the run)
            self._clear()
        for table in self._tables():
            make_folder(directory / f"{table}.parquet")

    def _own_names(self) -> list[str]:
        tables = [f"{t}.{kind}" for t in (OUTCOMES, COMBATANTS) for kind in ("parquet", "csv")]
        return [*tables, MANIFEST, SUMMARY, SCENARIO, SCENARIO_RECORD, JOURNAL, QUARANTINE]

    def _keep_a_larger_run(self) -> None:
        """Refuse to start a run over one on disk that kept more combats than this one plays.

        Starting afresh replaces what is there: a plain ``run --out`` of 200 combats over a
        finished run of 200,000 would throw away the larger run without a word. It takes
        ``--force`` (or ``--resume``, to finish the one on disk).
        """
        job = _json_object(self.directory / JOB)
        if job is not None:
            raise StoreMismatch(
                f"{self.directory} holds the results of a {job.get('kind', 'job')} ({JOB}); a run "
                "there would replace its tables: add --force to replace them, or choose another "
                "--out"
            )
        found = _json_object(self.directory / MANIFEST)
        if found is None or found.get("format") != FORMAT:
            return
        kept = combats_on_disk(self.directory, found)
        if kept <= self.manifest["runs"]:
            return
        finished = (self.directory / SUMMARY).is_file() and kept >= _int(found.get("runs"))
        what = "a finished run" if finished else "an unfinished run"
        finish = ""
        if not finished:
            finish = f"add --resume with its own --runs {_int(found.get('runs'))} to finish it, "
        raise StoreMismatch(
            f"{self.directory} holds {what} of {kept:,} combats ({found.get('scenario')!r}, "
            f"seed {found.get('seed')}); a fresh run of {self.manifest['runs']:,} would replace "
            f"it: {finish}add --force to replace it, or choose another --out"
        )

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
        bounds = chunk_bounds(self.manifest)
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
                    self._clear_folder(target, table)
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

    def _clear_folder(self, folder: Path, table: str) -> None:
        """Empty a table's folder: remove the chunk files, set aside anything else.

        Only a regular file with a chunk's name (or a temporary one) is combatsim's to delete.
        Anything else there (a folder or a link named like a chunk, a stray file) is moved into
        ``quarantine/`` with a warning, as a resume does: never deleted, never counted.
        """
        for part in sorted(folder.iterdir()):
            regular = part.is_file() and not part.is_symlink()
            if regular and (part_start(part.name) is not None or is_temporary(part)):
                part.unlink()
                continue
            why = "a folder, not a chunk file" if part.is_dir() else "not a chunk file"
            if part.is_symlink():
                why = "a symbolic link, not a chunk file"
            elif regular:
                why = "a stray file: not a chunk's name"
            aside = set_aside(part, why, self.directory / QUARANTINE / table)
            self.set_aside.append(aside)
            warnings.warn(aside.sentence(), ResultsWarning, stacklevel=5)

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
        if not folder.is_dir() or folder.is_symlink():
            return iter(())
        found = [(part_start(p.name), p) for p in folder.iterdir()]
        # Only regular files: a folder or a link with a chunk's name is never a chunk.
        whole = [(s, p) for s, p in found if s is not None and p.is_file() and not p.is_symlink()]
        return iter(sorted(whole))

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


def run_key(manifest: dict[str, Any]) -> str:
    """The run a chunk's label names: a digest of the scenario, the seed and the variant."""
    what = [manifest[k] for k in ("fingerprint", "seed", "variant")]
    return hashlib.sha256(json.dumps(what).encode()).hexdigest()[:32]


def chunk_bounds(manifest: dict[str, Any]) -> dict[int, int]:
    """The run's chunks: first combat -> one past the last."""
    first, runs, size = manifest["first"], manifest["runs"], manifest["chunk_size"]
    return {s: min(s + size, first + runs) for s in range(first, first + runs, size)}


def stored_chunks(
    directory: str | Path, table: str = OUTCOMES
) -> tuple[dict[str, Any], list[Path]]:
    """The manifest of a streamed run, and its chunk files of ``table``, each checked first.

    What a reader (``plot``, ``report``, a sweep's arm read back) may trust: every entry of the
    table's folder must be a whole chunk file of the run that ``run.json`` describes (its label,
    its place, its rows, the journal's checksum: :func:`sim.run.chunks.check_chunk`). Nothing is
    moved; a resume is what sets aside what does not belong.

    Raises:
        StoreDamaged: no readable ``run.json``, or a file that does not belong (named, with why).
    """
    directory = Path(directory)
    manifest = _json_object(directory / MANIFEST)
    folder = directory / f"{table}.parquet"
    again = (
        "the same `combatsim run ... --out` with --resume sets it aside and plays its combats "
        "again"
    )
    if manifest is None or manifest.get("format") != FORMAT:
        raise StoreDamaged(
            f"{folder} holds chunks but {directory / MANIFEST} is missing or damaged, so they "
            "cannot be matched to a run; run the scenario again into a new --out"
        )
    try:
        key, bounds = run_key(manifest), chunk_bounds(manifest)
    except (KeyError, TypeError):
        raise StoreDamaged(f"{directory / MANIFEST} is damaged (a field is missing)") from None
    journal = Journal(directory / JOURNAL).read()
    found: list[tuple[int, Path]] = []
    with writing(folder):
        entries = sorted(folder.iterdir()) if folder.is_dir() and not folder.is_symlink() else []
    for path in entries:
        if is_temporary(path) and path.is_file() and not path.is_symlink():
            continue  # half-written by a run that was killed: never read
        why, entry = check_chunk(path, table, key, bounds, journal)
        if why is not None or entry is None:
            raise StoreDamaged(f"{path} is not a chunk of the run in {MANIFEST} ({why}); {again}")
        found.append((entry.start, path))
    return manifest, [path for _, path in sorted(found)]


def _reason(exc: Exception) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    return f"not JSON: {exc}" if str(exc) else "empty"


def scenario_text(scenario: Scenario) -> str:
    """The scenario file as the designer wrote it, comments kept, byte for byte.

    A scenario made from data rather than read from a file has no text: its data is written
    out as YAML instead (:func:`scenario_record` says which it is).
    """
    if scenario.text is not None:
        return scenario.text
    return yaml.safe_dump(scenario.data, sort_keys=False, allow_unicode=True)


def scenario_record(scenario: Scenario) -> dict[str, Any]:
    """What a results folder says of its ``scenario.yaml``: whose text, and what was set on it.

    ``scenario_sha256`` is the digest of the file's bytes; ``applied`` the values set on top of
    it (a variant's, a sweep point's, a tournament cell's), by dotted path.
    """
    text = scenario_text(scenario)
    return {
        "scenario_text": "as written" if scenario.text is not None else "rebuilt from its data",
        "scenario_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
        "applied": json_ready(scenario.applied),
    }


def write_scenario(directory: Path, scenario: Scenario) -> Path:
    """Keep the scenario file next to its results (``scenario.yaml``), as it was written.

    ``scenario.json`` beside it says which file it is and what was set on top of it
    (:func:`scenario_record`), so the results can be played again from the folder alone.
    """
    record = {"file": scenario.file, **scenario_record(scenario)}
    write_text(Path(directory) / SCENARIO_RECORD, _json_text(record))
    return write_text(Path(directory) / SCENARIO, scenario_text(scenario))


def json_ready(data: Any) -> Any:
    """``data`` as plain JSON values (anything else, a date say, as its text)."""
    if isinstance(data, dict):
        return {str(k): json_ready(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [json_ready(v) for v in data]
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    return str(data)


def _json_object(path: Path) -> dict[str, Any] | None:
    """A JSON object in a file, or None (missing, unreadable, not an object)."""
    if not path.is_file() or path.is_symlink():
        return None
    try:
        found = json.loads(path.read_bytes()[:10_000_000].decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def combats_on_disk(directory: Path, manifest: dict[str, Any]) -> int:
    """How many combats the run of ``manifest`` keeps in ``directory`` (by its chunk names).

    A finished run keeps its ``runs``; an unfinished one the combats of the chunk files whose
    names are chunks of its range (not read: this only says how much a fresh run would replace).
    """
    first, runs, size = (_int(manifest.get(k)) for k in ("first", "runs", "chunk_size"))
    if (directory / SUMMARY).is_file():
        return runs
    folder = directory / f"{OUTCOMES}.parquet"
    if size < 1 or not folder.is_dir() or folder.is_symlink():
        return 0
    kept = 0
    for path in folder.iterdir():
        start = part_start(path.name)
        if start is None or not path.is_file():
            continue
        if first <= start < first + runs and (start - first) % size == 0:
            kept += min(start + size, first + runs) - start
    return kept
