"""Writing results safely: whole files, never through a link, refusals said in words.

Every results file (a chunk, ``run.json``, ``summary.json``, a baseline, a report) is written by
:func:`write_atomically`: into a new file with a unique name next to its target (created with
``O_EXCL``, so a name planted beforehand, a symbolic link included, is never opened), flushed to
disk, then renamed over the target. ``os.replace`` replaces a link that sits at the target's
name instead of writing where it points, so nothing outside the results folder is touched. A
reader sees the old file or the new one, never half of one.

An ``OSError`` while writing (no such directory, a file where a directory is expected, no
permission, a read-only file system, a full disk) becomes a :class:`WriteError`: one sentence
naming the path and the cause, which the command line prints with exit code 2.
"""

from __future__ import annotations

import errno
import io
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

from sim.engine.errors import CommandError

#: What each refusal of the file system means, in words.
CAUSES = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.ENOENT: "a folder on the way does not exist",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.EISDIR: "it is a folder, not a file",
    errno.EEXIST: "something else already has that name",
    errno.ELOOP: "it is a symbolic link (combatsim does not write through links)",
    errno.ENAMETOOLONG: "the name is too long",
    errno.EIO: "an input/output error of the disk",
}

#: The prefix and suffix of the temporary files of :func:`write_atomically` (readers skip them).
TMP_PREFIX = "."
TMP_SUFFIX = ".tmp"


class WriteError(CommandError):
    """Results that could not be written: the path, the cause, and what to do next.

    Attributes:
        path: the file or folder that could not be written.
        cause: the file system's refusal, in words.
    """

    def __init__(self, path: str | Path, cause: str, hint: str = "") -> None:
        self.path = Path(path)
        self.cause = cause
        self.hint = hint
        text = f"cannot write {path}: {cause}"
        super().__init__(f"{text}; {hint}" if hint else text)

    def with_hint(self, hint: str) -> WriteError:
        """The same refusal with advice on what to do next (the caller knows the command)."""
        return WriteError(self.path, self.cause, hint)


def cause_of(exc: OSError) -> str:
    """The file system's refusal in words."""
    if exc.errno in CAUSES:
        return CAUSES[exc.errno]
    return (exc.strerror or str(exc) or type(exc).__name__).lower()


@contextmanager
def writing(path: str | Path, hint: str = "") -> Iterator[None]:
    """Turn an ``OSError`` raised meanwhile into a :class:`WriteError` about ``path``."""
    try:
        yield
    except WriteError:
        raise
    except OSError as exc:
        where = path
        if exc.filename is not None and not is_temporary(Path(os.fsdecode(exc.filename))):
            where = os.fsdecode(exc.filename)  # a folder on the way, say, more exact than path
        raise WriteError(where, cause_of(exc), hint) from None


def make_folder(path: str | Path) -> Path:
    """Create a results folder (and its parents), refusing a link or a file in its place."""
    path = Path(path)
    with writing(path):
        if path.is_symlink() and not path.is_dir():
            raise WriteError(path, CAUSES[errno.ELOOP])
        if path.exists() and not path.is_dir():
            raise WriteError(path, "it is a file, not a folder")
        path.mkdir(parents=True, exist_ok=True)
    return path


def _file_mode() -> int:
    """The mode ``open()`` would give a new file (mkstemp's own is owner-only)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomically(path: str | Path, fill: Callable[[IO[bytes]], object]) -> Path:
    """Write ``path`` whole or not at all: ``fill(handle)`` writes a new file, then it is renamed.

    Args:
        path: the target.
        fill: writes the content into the open binary handle it is given.

    Raises:
        WriteError: the file system refused (the temporary file is removed).
    """
    path = Path(path)
    with writing(path):
        # O_EXCL under a fresh name: a file or link planted next to the target is never opened.
        prefix = f"{TMP_PREFIX}{path.name}."
        fd, name = tempfile.mkstemp(prefix=prefix, suffix=TMP_SUFFIX, dir=path.parent)
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(fd, _file_mode())
            with os.fdopen(fd, "wb") as handle:
                fill(handle)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(name, path)
        except BaseException:
            with _quietly():
                os.unlink(name)
            raise
        _sync_folder(path.parent)
    return path


def write_text(path: str | Path, text: str) -> Path:
    """Write a text file (UTF-8) whole or not at all."""
    return write_atomically(path, lambda handle: handle.write(text.encode("utf-8")))


@contextmanager
def as_text(handle: IO[bytes]) -> Iterator[io.TextIOWrapper]:
    """A UTF-8 text view of a binary handle (for writers that want text, such as CSV)."""
    text = io.TextIOWrapper(handle, encoding="utf-8", newline="")
    try:
        yield text
    finally:
        text.flush()
        text.detach()  # the handle stays open for write_atomically to sync and close


def is_temporary(path: Path) -> bool:
    """Whether a file is a temporary one of :func:`write_atomically` (left by a killed run)."""
    return path.name.startswith(TMP_PREFIX) and path.name.endswith(TMP_SUFFIX)


def _sync_folder(folder: Path) -> None:
    """Flush a folder's entries, so a rename survives a crash of the machine (POSIX only)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    with _quietly():
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _quietly() -> suppress:
    """Best effort: an ``OSError`` here must not hide the error being raised."""
    return suppress(OSError)
