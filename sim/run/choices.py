"""The two choices a run takes besides its scenario, seed and size: where it plays, where it keeps.

Neither changes a single record: combat k's dice come from (seed, k) alone, so a run gives the
same tables on one core, on every core or on a Dask cluster, in any chunk size, kept in memory
or streamed to a folder. They are small frozen values so that a command, a notebook, a sweep
and the workbench pass them along whole instead of six keywords each.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Execution:
    """Where and in what pieces the combats are played.

    Attributes:
        workers: processes on this machine (None: chosen from the run's first combats; 1 plays
            in this process). With ``scheduler="local"``, the size of the local Dask cluster.
        chunk_size: combats per chunk (None: chosen from the work; on resume, the chunk size of
            the run on disk).
        scheduler: a Dask scheduler address (``tcp://host:8786``) to play the chunks on its
            workers, ``"local"`` to start a local Dask cluster, or None for this machine.
    """

    workers: int | None = None
    chunk_size: int | None = None
    scheduler: str | None = None

    def __post_init__(self) -> None:
        if self.workers is not None and self.workers < 1:
            raise ValueError(f"workers must be at least 1, not {self.workers}")
        if self.chunk_size is not None and self.chunk_size < 1:
            raise ValueError(f"chunk size must be at least 1, not {self.chunk_size}")


@dataclass(frozen=True)
class Storage:
    """Where a run is kept: in memory (no ``out``), or streamed chunk by chunk into a folder.

    Attributes:
        out: the results folder (see :mod:`sim.run.store`); memory stays flat, and the result's
            tables are read back from there when asked for.
        resume: with ``out``, play only the chunks not already there (same scenario, seed, runs
            and chunk size as the run that wrote them).
        force: with ``out``, write into a folder that holds files combatsim did not write.
    """

    out: Path | None = None
    resume: bool = False
    force: bool = False

    def __post_init__(self) -> None:
        if self.out is not None and not isinstance(self.out, Path):
            object.__setattr__(self, "out", Path(self.out))
        if self.resume and self.out is None:
            raise ValueError("resume needs out: the folder of the run to finish")
