"""Chunk files of a streamed run, and checking them before a resume trusts them.

Each chunk file (``outcomes.parquet/part-000000002000.parquet``) carries its own label in the
Parquet metadata: the run it belongs to (a digest of the scenario's fingerprint, the seed and
the variant), its table, and its combat range. After a chunk is renamed into place, a line of
the journal :data:`JOURNAL` records its name, range, row count and SHA-256 checksum. The journal
is append-only (one ``write`` of one line, then ``fsync``): rewriting a whole manifest after
every chunk would cost time quadratic in the number of chunks, and a line torn by a crash is
simply skipped (the chunk it described is then checked by reading it whole).

On resume, :func:`verify` looks at every file in a table's folder and sets aside (moves into
``quarantine/``) any that does not belong: a stray copy (a name that is not exactly a chunk's),
a file that cannot be read (empty, truncated, garbage), one labelled for another run or another
range (other seed, scenario or chunk size), or one whose checksum disagrees with the journal.
What is set aside is played again, so nothing is counted twice or taken in unchecked.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sim.engine.reading import open_regular
from sim.run.files import is_temporary, write_atomically, writing

#: The Parquet metadata key of a chunk's label.
LABEL_KEY = b"combatsim"
#: The journal of written chunks, in the results folder.
JOURNAL = "chunks.jsonl"
#: Where chunks that do not belong are set aside, in the results folder.
QUARANTINE = "quarantine"


def part_name(start: int) -> str:
    """The file name of the chunk whose first combat is ``start``."""
    return f"part-{start:012d}.parquet"


def part_start(name: str) -> int | None:
    """The first combat of a chunk file's name, or None when it is not exactly a chunk's name."""
    if name.startswith("part-") and name.endswith(".parquet"):
        digits = name[len("part-") : -len(".parquet")]
        if digits.isdigit() and part_name(int(digits)) == name:
            return int(digits)
    return None


@dataclass(frozen=True)
class Label:
    """What a chunk file says of itself: its run, its table and its combats."""

    run: str
    table: str
    start: int
    stop: int

    def metadata(self) -> dict[bytes, bytes]:
        """The Parquet metadata entry that carries it."""
        return {LABEL_KEY: json.dumps(asdict(self), sort_keys=True).encode("utf-8")}

    @classmethod
    def of(cls, metadata: Mapping[bytes, bytes] | None) -> Label | None:
        """The label in a file's metadata, or None (a file without one is not a chunk)."""
        try:
            data: Any = json.loads((metadata or {})[LABEL_KEY])
            return cls(str(data["run"]), str(data["table"]), int(data["start"]), int(data["stop"]))
        except (KeyError, ValueError, TypeError):
            return None


@dataclass(frozen=True)
class Entry:
    """One journal line: a chunk file as it was written."""

    table: str
    part: str
    start: int
    stop: int
    rows: int
    sha256: str


def write_chunk(path: Path, table: Any, label: Label) -> Entry:
    """Write an Arrow table as a labelled chunk file, atomically; return its journal entry."""
    import pyarrow as pa  # heavy third-party import, deferred to the first chunk
    import pyarrow.parquet as pq

    labelled = table.replace_schema_metadata({**(table.schema.metadata or {}), **label.metadata()})
    buffer = pa.BufferOutputStream()
    pq.write_table(labelled, buffer)
    data = buffer.getvalue()
    write_atomically(path, lambda handle: handle.write(data))
    digest = hashlib.sha256(data).hexdigest()
    return Entry(label.table, path.name, label.start, label.stop, table.num_rows, digest)


class Journal:
    """The append-only record of written chunks (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def append(self, entries: list[Entry]) -> None:
        """Record chunks, one line each, synced to disk."""
        if not entries:
            return
        text = "".join(json.dumps(asdict(e), sort_keys=True) + "\n" for e in entries)
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
        with writing(self.path):
            fd = open_regular(self.path, flags, 0o644)  # a pipe there: refused, not waited on
            try:
                os.write(fd, text.encode("utf-8"))
                os.fsync(fd)
            finally:
                os.close(fd)

    def read(self) -> dict[tuple[str, str], Entry]:
        """The last entry of each ``(table, part)``; lines that cannot be read are skipped."""
        found: dict[tuple[str, str], Entry] = {}
        if not self.path.is_file() or self.path.is_symlink():
            return found
        with writing(self.path):
            raw = self.path.read_bytes()
        for line in raw.decode("utf-8", "replace").splitlines():
            try:
                data: Any = json.loads(line)
                entry = Entry(
                    str(data["table"]),
                    str(data["part"]),
                    int(data["start"]),
                    int(data["stop"]),
                    int(data["rows"]),
                    str(data["sha256"]),
                )
            except (ValueError, TypeError, KeyError):
                continue  # a line torn by a crash: its chunk is checked by reading it
            found[entry.table, entry.part] = entry
        return found


@dataclass(frozen=True)
class SetAside:
    """A file moved out of a table's folder because it does not belong there."""

    path: Path
    moved_to: Path
    why: str

    def sentence(self) -> str:
        """What was done, and why, in words."""
        return (
            f"set aside {self.path} ({self.why}): moved to {self.moved_to}; the combats of any "
            "chunk it stood for are played again"
        )


@dataclass
class Verified:
    """What :func:`verify` found in one table's folder."""

    #: The first combat of every chunk that belongs and reads whole.
    starts: set[int]
    #: The files set aside.
    set_aside: list[SetAside]
    #: Chunks that belong but were missing from the journal (to record now).
    unrecorded: list[Entry]


def verify(
    folder: Path,
    table: str,
    run: str,
    bounds: Mapping[int, int],
    journal: Mapping[tuple[str, str], Entry],
    quarantine: Path,
) -> Verified:
    """Check every file of a table's folder; set aside what does not belong (module docstring).

    Args:
        folder: the table's folder (``outcomes.parquet/``).
        table: the table's name.
        run: the run's key (what the chunks' labels must say).
        bounds: the run's chunks, first combat -> one past the last.
        journal: the journal's entries.
        quarantine: where to move what does not belong.
    """
    result = Verified(set(), [], [])
    if not folder.is_dir():
        return result
    with writing(folder):
        entries = sorted(folder.iterdir())
    for path in entries:
        if is_temporary(path) and path.is_file() and not path.is_symlink():
            with writing(path):
                path.unlink()  # half-written by a run that was killed
            continue
        why, entry = check_chunk(path, table, run, bounds, journal)
        if why is None:
            assert entry is not None
            result.starts.add(entry.start)
            if journal.get((table, path.name)) != entry:
                result.unrecorded.append(entry)
        else:
            result.set_aside.append(set_aside(path, why, quarantine / table))
    return result


def check_chunk(
    path: Path,
    table: str,
    run: str,
    bounds: Mapping[int, int],
    journal: Mapping[tuple[str, str], Entry],
) -> tuple[str | None, Entry | None]:
    """Why a file does not belong (None when it does), and its entry when it does."""
    import pyarrow.parquet as pq  # heavy third-party import, deferred to a resume

    start = part_start(path.name)
    if path.is_symlink():
        return "a symbolic link, not a chunk file", None
    if not path.is_file():
        return "not a chunk file", None
    if start is None:
        return "a stray copy: not a chunk's name", None
    with writing(path):
        data = path.read_bytes()
    if not data:
        return "empty", None
    digest = hashlib.sha256(data).hexdigest()
    recorded = journal.get((table, path.name))
    try:
        parquet = pq.ParquetFile(path)
        label = Label.of(parquet.schema_arrow.metadata)
        rows = parquet.metadata.num_rows
        if recorded is None or recorded.sha256 != digest:
            parquet.read()  # not vouched for by the journal: every page must decode
    except Exception as exc:  # pyarrow raises several types for a damaged file
        return f"cannot be read: {type(exc).__name__}", None
    if label is None:
        return "carries no combatsim label", None
    if label.run != run:
        return "belongs to another run (other scenario, seed or variant)", None
    if label.table != table or label.start != start:
        return f"labelled {label.table} from combat {label.start}, not this place", None
    if bounds.get(start) != label.stop:
        return f"combats {label.start}..{label.stop - 1} are not a chunk of this run", None
    combats = label.stop - label.start
    # The outcome table has a row per combat; the per-combatant table one per combatant of each.
    whole = rows == combats if table == "outcomes" else rows > 0 and rows % combats == 0
    if not whole:
        return f"{rows} rows for {combats} combats", None
    if recorded is not None and recorded.sha256 != digest:
        return "its checksum differs from the one recorded when it was written", None
    return None, Entry(table, path.name, label.start, label.stop, rows, digest)


def set_aside(path: Path, why: str, folder: Path) -> SetAside:
    """Move a file into the quarantine folder, under a name not yet taken there."""
    with writing(folder):
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / path.name
        n = 1
        while target.exists() or target.is_symlink():
            target = folder / f"{path.name}.{n}"
            n += 1
        os.replace(path, target)
    return SetAside(path, target, why)
