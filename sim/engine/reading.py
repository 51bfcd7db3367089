"""Opening a file that is a file: never blocking on a pipe, a device, a socket or a folder.

``open()`` on a named pipe (FIFO) waits until some other process opens it for writing, which may
be never; a device may never end (``/dev/zero``) or wait for input (a terminal); a socket cannot
be opened at all. A scenario, a baseline or a file of a results folder given as any of these
would hang a command or fail with a traceback (and a pipe opened for writing waits for a
reader). So every file combatsim opens by name is opened with ``O_NONBLOCK`` (a pipe opens at
once, or fails) and checked with ``fstat`` on the open descriptor, so that what is used is the
very file checked (no race between a look and the open), and anything but a regular file is
refused with :class:`NotAFile`, which says what it is.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

#: What a file that is not a regular file is, in words, by its ``stat`` test.
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)

#: Added to every open: never wait on a pipe, never become a terminal's reader, not inherited.
_NONBLOCKING = (
    getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
)
_BINARY = getattr(os, "O_BINARY", 0)


class NotAFile(OSError):
    """A path to read or write that is a folder, a named pipe, a socket or a device, not a file.

    An ``OSError`` (with the path as ``filename``), so that a caller that explains an unreadable
    file explains this one too; ``kind`` says what it is.
    """

    def __init__(self, path: str | Path, kind: str) -> None:
        code = errno.EISDIR if kind == "a folder" else errno.EINVAL
        super().__init__(code, f"it is {kind}, not a file", os.fspath(path))
        self.kind = kind


def kind_of(mode: int) -> str | None:
    """What a file of this ``st_mode`` is when it is not a regular file, else None."""
    if stat.S_ISREG(mode):
        return None
    for test, kind in _KINDS:
        if test(mode):
            return kind
    return "not a regular file"


def open_regular(path: str | Path, flags: int = os.O_RDONLY, mode: int = 0o666) -> int:
    """A descriptor of ``path`` opened with ``flags``, refused unless it is a regular file.

    ``O_NONBLOCK`` is added for the open only: a pipe opens at once (for writing too, where
    nobody reads it: ``ENXIO``), so it is refused rather than waited on. Writers use it as
    readers do (a results folder's journal or lock planted as a pipe must not hang the run).

    Raises:
        NotAFile: ``path`` is a folder, a named pipe, a socket or a device.
        OSError: it cannot be opened.
    """
    try:
        fd = os.open(path, flags | _NONBLOCKING, mode)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a socket, or a pipe nobody reads opened for writing
            raise NotAFile(path, _kind_at(path) or "a socket") from None
        raise
    try:
        kind = kind_of(os.fstat(fd).st_mode)
        if kind is not None:
            raise NotAFile(path, kind)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file (at most ``limit`` of them), without blocking on anything else.

    Raises:
        NotAFile: ``path`` is a folder, a named pipe, a socket or a device.
        OSError: it cannot be opened or read (missing, no permission...).
    """
    with open(open_regular(path, os.O_RDONLY | _BINARY), "rb", closefd=True) as handle:
        return handle.read() if limit is None else handle.read(limit)


def check_regular(path: str | Path) -> None:
    """Refuse ``path`` unless it is a regular file (or absent: the reader says so itself).

    For readers that open the file by name themselves (pyarrow, pandas): a look before their
    open, so a pipe planted there is refused rather than waited on. Anything that would swap the
    file in between could as well have written it.

    Raises:
        NotAFile: ``path`` is a folder, a named pipe, a socket or a device.
    """
    kind = _kind_at(path)
    if kind is not None:
        raise NotAFile(path, kind)


def _kind_at(path: str | Path) -> str | None:
    try:
        return kind_of(os.stat(path).st_mode)
    except OSError:
        return None
