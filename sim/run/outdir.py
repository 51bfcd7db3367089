"""One writer per results folder, and only into a folder of its own.

Two commands writing into one ``--out`` at once would mix their files and leave a table that
equals neither run. So every command that writes a results folder (``run``, ``run --resume``,
``sweep``, ``compare --out``, ``baseline``) first takes the folder's lock, :data:`LOCK`: the
operating system's own advisory lock on that file (``flock``; ``msvcrt.locking`` on Windows),
held as long as the command writes. A second writer is refused with :class:`FolderBusy`, which
names the holder (pid, host, command, since when) as the holder wrote it into the lock file.

The OS drops the lock when its process ends, however it ends (SIGKILL included): a lock left by
a dead process is simply free, and its leftover description is reported as taken over
(:attr:`FolderLock.took_over`). The lock file is kept, emptied, when the writer is done: it
also marks the folder as written by combatsim (see :func:`claim`).

:func:`claim` keeps ``--out`` from writing over what is not combatsim's: a folder that already
holds something and carries no lock file was not written by combatsim, and is refused unless
the caller forces it (``--force``); a symbolic link inside is always refused, so a write never
lands outside the folder.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sim.engine.errors import CommandError
from sim.engine.reading import open_regular, read_regular
from sim.run.files import WriteError, is_temporary, make_folder, writing

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

#: The lock file in every results folder (empty when nobody writes).
LOCK = ".combatsim.lock"
#: How much of a command line a holder's description keeps.
COMMAND_CHARS = 200

#: The folders whose lock this process holds, and how many holders share each.
_HELD: dict[Path, tuple[int, int]] = {}


class FolderBusy(CommandError):
    """Another process is writing the results folder."""


@dataclass(frozen=True)
class Holder:
    """Who holds (or held) a folder's lock, as it wrote itself into the lock file."""

    pid: int
    host: str
    command: str
    since: str

    @classmethod
    def me(cls) -> Holder:
        """This process."""
        words = [Path(sys.argv[0]).name if sys.argv else "python", *sys.argv[1:]]
        if words[0] in ("__main__.py", "-m", "-c"):
            words[0] = "combatsim"
        command = " ".join(words)
        if len(command) > COMMAND_CHARS:
            command = command[: COMMAND_CHARS - 1] + "…"
        since = datetime.now(UTC).isoformat(timespec="seconds")
        return cls(os.getpid(), socket.gethostname(), command, since)

    @classmethod
    def parse(cls, text: str) -> Holder | None:
        """The holder a lock file describes, or None (empty or not ours)."""
        try:
            data: Any = json.loads(text)
            return cls(
                int(data["pid"]), str(data["host"]), str(data["command"]), str(data["since"])
            )
        except (ValueError, TypeError, KeyError):
            return None

    def to_json(self) -> str:
        """What is written into the lock file."""
        return json.dumps(self.__dict__) + "\n"

    def describe(self) -> str:
        """The holder in words."""
        return f"pid {self.pid} on {self.host}, `{self.command}`, since {self.since}"


class FolderLock:
    """The lock of one results folder (a context manager; see the module docstring).

    Within one process the lock is shared: a command that holds its ``--out`` may call a
    library function that takes the same folder's lock again (a sweep saving its results).

    Args:
        folder: the results folder (created if missing).
    """

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.path = self.folder / LOCK
        self._key: Path | None = None
        #: The writer that died holding the lock, when this one took it over.
        self.took_over: Holder | None = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock now."""
        return self._key is not None

    def acquire(self) -> FolderLock:
        """Take the lock, or refuse at once.

        Raises:
            FolderBusy: another process holds it.
            WriteError: the folder or its lock file cannot be written.
        """
        if self._key is not None:
            return self
        make_folder(self.folder)
        key = self.folder.resolve()
        if key in _HELD:
            fd, count = _HELD[key]
            _HELD[key] = (fd, count + 1)
            self._key = key
            return self
        with writing(self.path):
            # O_NOFOLLOW: a link planted at the lock's name is refused, never followed.
            flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
            fd = open_regular(self.path, flags, 0o644)  # a pipe there: refused, not waited on
        try:
            if not _try_lock(fd):
                holder = Holder.parse(_read(fd))
                who = holder.describe() if holder else "a process that did not say who it is"
                raise FolderBusy(
                    f"{self.folder} is being written by another combatsim ({who}); wait for it "
                    "to finish, or choose another output folder"
                )
            self.took_over = Holder.parse(_read(fd))
            with writing(self.path):
                os.ftruncate(fd, 0)
                os.pwrite(fd, Holder.me().to_json().encode("utf-8"), 0)
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        _HELD[key] = (fd, 1)
        self._key = key
        return self

    def release(self) -> None:
        """Empty the lock file and let go of the lock (safe to call twice)."""
        key, self._key = self._key, None
        if key is None:
            return
        fd, count = _HELD.pop(key)
        if count > 1:
            _HELD[key] = (fd, count - 1)  # another holder in this process still writes
            return
        try:
            with suppress(OSError):  # a read-only disk: the lock itself is released below
                os.ftruncate(fd, 0)
        finally:
            _unlock(fd)
            os.close(fd)

    def __enter__(self) -> FolderLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def _forget_locks() -> None:
    """In a forked child (a pool worker): close the inherited lock files, keeping the locks.

    A worker that outlived a killed writer would otherwise keep the folder locked until it
    noticed. Closing a copy of the descriptor does not release the parent's ``flock``; only
    ``LOCK_UN`` would, and the child never calls it.
    """
    for fd, _ in _HELD.values():
        with suppress(OSError):
            os.close(fd)
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_locks)


def _try_lock(fd: int) -> bool:
    """Take the OS lock on ``fd`` without waiting; False when another process holds it."""
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:  # pragma: no cover - Windows
            import msvcrt  # the Windows counterpart of fcntl (standard library)

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except (BlockingIOError, PermissionError):
        return False
    return True


def _unlock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
    else:  # pragma: no cover - Windows
        import msvcrt  # the Windows counterpart of fcntl (standard library)

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


def _read(fd: int) -> str:
    try:
        return os.pread(fd, 4096, 0).decode("utf-8", "replace")
    except OSError:
        return ""


def claim(folder: str | Path, force: bool = False) -> None:
    """Make sure a results folder may be written, before anything is written there.

    A missing or empty folder, or one combatsim wrote before (it holds :data:`LOCK`, or the
    ``run.json`` of a combatsim run), may be written; any other folder that holds something
    only with ``force``. A symbolic link in the folder is refused too (forced, the writer
    replaces the link itself, never what it points to).

    Raises:
        WriteError: ``folder`` is a file, or holds files combatsim did not write, or a link.
    """
    folder = Path(folder)
    if folder.is_symlink() and not folder.is_dir():
        raise WriteError(folder, "it is a broken symbolic link")
    if not folder.exists():
        return
    if not folder.is_dir():
        raise WriteError(folder, "it is a file, not a folder")
    with writing(folder):
        entries = sorted(p for p in folder.iterdir() if not is_temporary(p))
    if force:
        return
    links = [p.name for p in entries if p.is_symlink()]
    if links:
        raise WriteError(
            folder,
            f"it holds symbolic links ({_names(links)}) and combatsim never writes through a "
            "link; remove them, or add --force to replace the links themselves",
        )
    ours = (folder / LOCK).is_file() or _is_combatsim_json(folder / "run.json")
    others = [p.name for p in entries if p.name != LOCK]
    if others and not ours:
        raise WriteError(
            folder,
            f"it holds files combatsim did not write ({_names(others)}); choose a new or empty "
            "folder, or add --force to write there anyway (combatsim replaces only the names it "
            "writes)",
        )


@contextmanager
def own_folder(folder: str | Path, force: bool = False) -> Iterator[FolderLock]:
    """Claim a results folder (:func:`claim`) and hold its lock meanwhile.

    Commands take it before they play, so a folder that cannot be written, is not
    combatsim's, or is being written by another process is refused before any work is done.
    """
    claim(folder, force)
    with FolderLock(folder) as lock:
        yield lock


def _is_combatsim_json(path: Path) -> bool:
    """Whether a file is a manifest combatsim wrote (a run streamed before locks existed)."""
    try:
        data = json.loads(read_regular(path, 1_000_000))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and str(data.get("format", "")).startswith("combatsim-")


def _names(names: list[str], shown: int = 5) -> str:
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more
