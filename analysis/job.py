"""A results folder of several runs: a comparison's arms, a sweep's points, a tournament's cells.

A command that plays several runs (``compare``, ``sweep``, ``tournament``, ``sensitivity``)
streams each into a run folder of its own inside its ``--out``
(``arms/NAME/combats-0-2000/``, ``points/p0003/combats-0-300/``, ...), written and checked by
:class:`sim.run.store.RunStore` exactly as ``run --out`` is: labelled chunks, the journal, one
writer. A run killed outright (SIGKILL, a full disk) thus loses only its chunks in flight, and
``--resume`` plays only what is missing, to the same table byte for byte as an uninterrupted run.

The folder's own manifest, :data:`JOB` (``job.json``), says what the whole job is: its kind, a
digest of every arm's scenario, the seed, the runs and anything else its table depends on.
Before anything on disk is trusted, :func:`open_job` checks it:

- ``--resume``: the manifest on disk must be this job's (else :class:`StoreMismatch` names what
  differs); runs on disk with no manifest are refused (:class:`StoreDamaged`);
- a fresh start: a job on disk that kept more combats than this one plays is not replaced
  without ``--force`` (nor is a larger run), so a plain ``sweep --out`` never throws away a
  long sweep without a word.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from sim.run.api import Execution, RunResult, Storage, simulate
from sim.run.files import write_text
from sim.run.outdir import FolderLock, claim
from sim.run.store import (
    FORMAT,
    JOB,
    MANIFEST,
    StoreDamaged,
    StoreMismatch,
    combats_on_disk,
    json_ready,
    scenario_digest,
    stored_chunks,
)
from sim.scenario.schema import Scenario

#: The format written in every job manifest.
JOB_FORMAT = "combatsim-job/1"
#: How deep run folders sit inside a job's folder (``arms/NAME/combats-0-2000``).
DEPTH = 3


def digest(scenario: Scenario) -> str:
    """What a job's manifest records of an arm's scenario (what its fights depend on)."""
    return scenario_digest(scenario)


def range_folder(start: int, stop: int) -> str:
    """The name of the run folder of combats ``start .. stop - 1`` of one arm."""
    return f"combats-{start}-{stop}"


def slug(name: str) -> str:
    """A folder name for an arm: letters, digits, ``-`` and ``_`` kept, anything else ``_``."""
    text = "".join(c if c.isalnum() or c in "-_" else "_" for c in name)
    return text or "_"


@dataclass(frozen=True)
class Streaming:
    """Where a job's runs are streamed, and how they are played (never changes a result).

    Attributes:
        folder: the job's results folder.
        resume: keep the checked chunks already there (``--resume``).
        force: what ``--force`` allows (see :func:`sim.run.api.simulate`).
        execution: how the runs are played (workers, scheduler, chunk size).
    """

    folder: Path
    resume: bool = False
    force: bool = False
    execution: Execution | None = None

    def play(
        self,
        scenario: Scenario,
        seed: int,
        start: int,
        stop: int,
        where: str | Path,
        *,
        variant: str = "base",
        detail: bool = False,
        progress: bool = False,
        ranged: bool = True,
    ) -> RunResult:
        """Play (or read back) combats ``start .. stop - 1`` of one arm, in ``folder / where``.

        ``ranged``: each range of combats in a folder of its own (``where/combats-0-2000``),
        so the batches of a ``--precision`` run never share a folder.
        """
        out = self.folder / where
        if ranged:
            out = out / range_folder(start, stop)
        return simulate(
            scenario,
            runs=stop - start,
            seed=seed,
            first=start,
            variant=variant,
            detail=detail,
            execution=self.execution,
            storage=Storage(out, resume=self.resume, force=self.force),
            progress=progress,
        )


def range_start(name: str) -> int | None:
    """The first combat of a run folder named by :func:`range_folder`, or None."""
    parts = name.split("-")
    if len(parts) != 3 or parts[0] != "combats" or not all(p.isdigit() for p in parts[1:]):
        return None
    return int(parts[1]) if range_folder(int(parts[1]), int(parts[2])) == name else None


def read_arm(folder: str | Path, table: str = "outcomes") -> pd.DataFrame | None:
    """One arm's table, its range folders (``combats-0-500``, ``combats-500-1000``) in order.

    Every chunk is checked against its run's manifest before it is read
    (:func:`sim.run.store.stored_chunks`); None when the arm has no run folder.

    Raises:
        StoreDamaged: a file that does not belong to its run.
    """
    folder = Path(folder)
    if not folder.is_dir() or folder.is_symlink():
        return None
    ranges = sorted(
        (start, path)
        for path in folder.iterdir()
        if (start := range_start(path.name)) is not None and path.is_dir() and not path.is_symlink()
    )
    tables = []
    for _, path in ranges:
        _, chunks = stored_chunks(path, table)
        tables += [pq.read_table(chunk) for chunk in chunks]
    if not tables:
        return None
    return pa.concat_tables(tables).to_pandas()


def open_job(
    folder: str | Path, manifest: dict[str, Any], planned: int, resume: bool, force: bool
) -> dict[str, Any]:
    """Check a job's folder before anything in it is trusted; write the job's manifest.

    The folder is claimed and locked as ``run --out`` does it (:func:`~sim.run.outdir.claim`,
    :class:`~sim.run.outdir.FolderLock`), and made if missing: a command holds its lock for
    the whole job already, a caller of the Python API gets the same checks here.

    Args:
        folder: the job's results folder.
        manifest: what the job is (kind, scenarios' digests, seed, runs, ...), JSON-ready.
        planned: how many combats the job plays in all (at most, for ``--precision``).
        resume: continue the job on disk (its manifest must be this one).
        force: replace a job on disk that kept more combats than this one plays.

    Raises:
        StoreMismatch: resuming a different job, or a fresh start over a larger one.
        StoreDamaged: resuming, and the folder holds runs but no readable manifest.
    """
    folder = Path(folder)
    claim(folder, force)
    with FolderLock(folder):
        return _open_job(folder, manifest, planned, resume, force)


def _open_job(
    folder: Path, manifest: dict[str, Any], planned: int, resume: bool, force: bool
) -> dict[str, Any]:
    path = folder / JOB
    wanted = {"format": JOB_FORMAT, **json_ready(manifest)}
    found = _read(path)
    if resume:
        if found is None and any(True for _ in _runs(folder)):
            raise StoreDamaged(
                f"{folder} holds runs but no readable {JOB}: nothing to resume; run the same "
                "command without --resume to start over, or use another output directory"
            )
        if found is not None:
            differ = [k for k in wanted if found.get(k) != wanted[k]]
            differ += [k for k in found if k not in wanted and k != "finished"]
            if differ:
                raise StoreMismatch(
                    f"{folder} holds a different {found.get('kind', 'job')} "
                    f"({', '.join(differ)} differ); resume it with the same scenario and "
                    "options, leave out --resume to start over there, or use another --out"
                )
    elif not force:
        kept = combats_kept(folder)
        if kept > planned:
            finished = bool(found and found.get("finished"))
            what = "a finished" if finished else "an unfinished"
            kind = (found or {}).get("kind", "run")
            hint = "" if finished else "add --resume to finish it, "
            raise StoreMismatch(
                f"{folder} holds {what} {kind} that kept {kept:,} combats; a fresh start of "
                f"{planned:,} would replace it: {hint}add --force to replace it, or choose "
                "another --out"
            )
    write_text(path, json.dumps({**wanted, "finished": False}, indent=2) + "\n")
    return wanted


def finish_job(folder: str | Path) -> None:
    """Mark the job in ``folder`` finished (its tables and summary are written)."""
    path = Path(folder) / JOB
    found = _read(path)
    if found is not None:
        write_text(path, json.dumps({**found, "finished": True}, indent=2) + "\n")


def combats_kept(folder: str | Path) -> int:
    """Combats kept by every run under ``folder`` (what a fresh start would replace)."""
    total = 0
    for run_folder, manifest in _runs(Path(folder)):
        total += combats_on_disk(run_folder, manifest)
    return total


def _runs(folder: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Every run folder under ``folder`` (its own too), with its manifest; links never followed."""
    if not folder.is_dir() or folder.is_symlink():
        return
    for root, dirs, files in os.walk(folder):
        depth = len(Path(root).relative_to(folder).parts)
        dirs[:] = sorted(d for d in dirs if depth < DEPTH and d != "quarantine")
        if MANIFEST in files:
            manifest = _read(Path(root) / MANIFEST)
            if manifest is not None and manifest.get("format") == FORMAT:
                yield Path(root), manifest


def _read(path: Path) -> dict[str, Any] | None:
    if not path.is_file() or path.is_symlink():
        return None
    try:
        found = json.loads(path.read_bytes()[:10_000_000].decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return found if isinstance(found, dict) else None
