"""The working folder: the only place the workbench reads or writes, and what it holds.

Every path the page sends is a path *relative to the working folder*, and :meth:`Workspace.path`
turns it into a file there or refuses it: no absolute path, no ``..``, no drive, no NUL, no
backslash, and no symbolic link anywhere on the way (a link could lead out of the folder; the
workbench never follows one, in or out). Scenario files are read and written whole, at most the
loader's :data:`~sim.scenario.limits.MAX_FILE_BYTES`, and saved atomically
(:func:`sim.run.files.write_text`) and only over the version the editor opened: a file changed on
disk since then is never overwritten without the designer saying so (:class:`Conflict`).

The bundled scenarios (the ``scenarios/`` folder next to the ``sim`` package in a checkout) are
read-only and listed apart; running one writes its results into the working folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from sim.engine.errors import CommandError
from sim.run.files import write_text
from sim.run.outdir import LOCK
from sim.scenario.limits import MAX_FILE_BYTES
from sim.scenario.loader import load_scenario
from sim.scenario.problems import ScenarioError

#: Where a checkout keeps the bundled scenarios, next to the package.
BUNDLED = Path(__file__).resolve().parents[2] / "scenarios"
#: How a bundled scenario's path is written in the page (it is not in the working folder).
BUNDLED_PREFIX = "bundled:"
#: File names of scenarios.
SCENARIO_SUFFIXES = (".yaml", ".yml")
#: Folders never searched for scenarios or results.
SKIPPED = {"node_modules", "__pycache__", "site-packages", "cells", "points", "plots"}
#: How deep the folder is searched.
MAX_DEPTH = 4
#: The most files listed (a working folder is a designer's, not a disk).
MAX_LISTED = 500
#: Files whose presence makes a folder a results folder (what combatsim writes into one).
RESULT_MARKERS = (
    "summary.json",
    "run.json",
    "meta.json",
    "comparison.json",
    "balance.json",
    "study.json",
    LOCK,
)


class PathRefused(CommandError):
    """A path the page may not use (outside the working folder, a link, not a scenario)."""


class Conflict(CommandError):
    """The file changed on disk since the editor opened it.

    Attributes:
        text: the file as it is on disk now.
        version: its version.
    """

    def __init__(self, path: str, text: str, version: str) -> None:
        super().__init__(
            f"{path} was changed on disk since you opened it; nothing was saved: keep the "
            "file on disk, save yours under another name, or replace the file with yours"
        )
        self.text = text
        self.version = version


def version_of(data: bytes) -> str:
    """A file's version: the digest of its bytes (what the editor opened, and saves over)."""
    return hashlib.sha256(data).hexdigest()[:24]


@dataclass(frozen=True)
class ScenarioEntry:
    """One scenario file in a list: where it is and what it asks.

    Attributes:
        path: as the page names it (relative to the working folder, or ``bundled:NAME``).
        name: the scenario's name (the file name when it cannot be loaded).
        rules: its ``rules:``.
        question: its ``description``.
        problems: how many problems the loader found (0: it runs).
        sections: which studies it has (variants, sweep, strategies, sensitivity).
        bundled: a bundled, read-only scenario.
    """

    path: str
    name: str
    rules: str
    question: str
    problems: int
    sections: tuple[str, ...]
    bundled: bool


@dataclass(frozen=True)
class ResultsEntry:
    """One results folder: where, of what kind, of which scenario."""

    path: str
    kind: str
    scenario: str
    modified: float


class Workspace:
    """The working folder of one ``combatsim serve``.

    Args:
        root: the folder (it must exist).
        bundled: the folder of bundled scenarios (None: none).
    """

    def __init__(self, root: str | Path, bundled: Path | None = BUNDLED) -> None:
        self.root = Path(root).resolve(strict=True)
        if not self.root.is_dir():
            raise PathRefused(f"{root} is not a folder")
        self.bundled = bundled if bundled is not None and bundled.is_dir() else None
        self._saving = threading.Lock()
        self._entries: dict[tuple[str, int, int], ScenarioEntry] = {}

    # -- paths ---------------------------------------------------------------------------------

    def path(self, relative: str, *, must_exist: bool = False) -> Path:
        """The file or folder ``relative`` names inside the working folder.

        Raises:
            PathRefused: an absolute path, ``..``, a drive, a backslash or NUL, a symbolic link
                on the way, or (``must_exist``) nothing there.
        """
        if not isinstance(relative, str) or not relative or len(relative) > 1000:
            raise PathRefused("a path inside the working folder is needed")
        if "\x00" in relative or "\\" in relative:
            raise PathRefused(f"{relative!r}: a path holds no NUL or backslash")
        pure = PurePosixPath(relative)
        if pure.is_absolute() or PureWindowsPath(relative).drive:
            raise PathRefused(f"{relative}: an absolute path; give one inside the working folder")
        if any(part == ".." for part in pure.parts):
            raise PathRefused(f"{relative}: '..' leads out of the working folder")
        here = self.root
        for part in pure.parts:
            if part in ("", "."):
                continue
            here = here / part
            if here.is_symlink():
                raise PathRefused(
                    f"{relative}: {here.relative_to(self.root)} is a symbolic link, which the "
                    "workbench never follows"
                )
        if not here.resolve().is_relative_to(self.root):  # belt and braces
            raise PathRefused(f"{relative}: outside the working folder")
        if must_exist and not here.exists():
            raise PathRefused(f"{relative}: no such file in the working folder")
        return here

    def relative(self, path: Path) -> str:
        """How the page names a file of the working folder."""
        return path.relative_to(self.root).as_posix()

    def scenario_file(self, name: str) -> Path:
        """A scenario file to read: in the working folder, or a bundled one (``bundled:NAME``)."""
        if name.startswith(BUNDLED_PREFIX):
            base = name[len(BUNDLED_PREFIX) :]
            if self.bundled is None or not re.fullmatch(r"[\w.-]+\.ya?ml", base):
                raise PathRefused(f"{name}: no such bundled scenario")
            path = self.bundled / base
            if not path.is_file() or path.is_symlink():
                raise PathRefused(f"{name}: no such bundled scenario")
            return path
        path = self.path(name, must_exist=True)
        if path.suffix not in SCENARIO_SUFFIXES or not path.is_file():
            raise PathRefused(f"{name}: not a scenario file (.yaml or .yml)")
        return path

    def shown(self, path: Path) -> str:
        """The name of a scenario file as the page (and the loader's messages) write it."""
        outside = not path.resolve().is_relative_to(self.root)
        if self.bundled is not None and path.parent == self.bundled and outside:
            return BUNDLED_PREFIX + path.name
        return self.relative(path)

    # -- files ---------------------------------------------------------------------------------

    def read(self, name: str) -> tuple[str, str]:
        """A scenario file's text and version.

        Raises:
            PathRefused: see :meth:`path`; or the file is too large or not UTF-8.
        """
        path = self.scenario_file(name)
        data = _read_limited(path)
        try:
            return data.decode("utf-8"), version_of(data)
        except UnicodeDecodeError:
            raise PathRefused(f"{name}: not UTF-8 text") from None

    def save(self, name: str, text: str, version: str | None) -> str:
        """Write a scenario file atomically, only over the version the editor opened.

        Args:
            name: the file, relative to the working folder (a new one is created, with its
                folders inside the working folder).
            text: the whole file.
            version: the version opened (None for a new file: then no file may be there).

        Returns:
            The new version.

        Raises:
            Conflict: the file on disk is not the version opened (or a new file's name is taken).
            PathRefused: see :meth:`path`; a bundled scenario; not a ``.yaml`` name; too large.
        """
        if name.startswith(BUNDLED_PREFIX):
            raise PathRefused("a bundled scenario is read-only: save it under a new name")
        data = text.encode("utf-8")
        if len(data) > MAX_FILE_BYTES:
            raise PathRefused(f"{name}: more than {MAX_FILE_BYTES:,} bytes")
        path = self.path(name)
        if path.suffix not in SCENARIO_SUFFIXES:
            raise PathRefused(f"{name}: a scenario's name ends in .yaml or .yml")
        with self._saving:
            if path.exists():
                if not path.is_file():
                    raise PathRefused(f"{name}: a folder, not a file")
                on_disk = _read_limited(path)
                if version_of(on_disk) != version:
                    raise Conflict(name, on_disk.decode("utf-8", "replace"), version_of(on_disk))
            elif version is not None:
                raise Conflict(name, "", "")  # it was deleted meanwhile
            self._make_parents(path)
            write_text(path, text)
        return version_of(data)

    def _make_parents(self, path: Path) -> None:
        missing = []
        here = path.parent
        while not here.exists():
            missing.append(here)
            here = here.parent
        for folder in reversed(missing):
            folder.mkdir()
            if folder.is_symlink():  # pragma: no cover - a race with a planted link
                raise PathRefused(f"{self.relative(folder)} became a symbolic link")

    # -- listings ------------------------------------------------------------------------------

    def scenarios(self) -> list[ScenarioEntry]:
        """The working folder's scenario files, then the bundled ones, each with its question."""
        own = [self._entry(p, bundled=False) for p in self._walk(self.root, _is_scenario)]
        bundled = []
        if self.bundled is not None:
            for path in sorted(self.bundled.glob("*.yaml")):
                if path.resolve().is_relative_to(self.root):
                    continue  # the working folder is the checkout: listed above
                if path.is_file() and not path.is_symlink():
                    bundled.append(self._entry(path, bundled=True))
        marked = [e if not self._is_bundled_here(e.path) else _as_bundled(e) for e in own]
        return marked + bundled

    def _is_bundled_here(self, relative: str) -> bool:
        if self.bundled is None:
            return False
        return (self.root / relative).resolve().parent == self.bundled.resolve()

    def results(self) -> list[ResultsEntry]:
        """The results folders in the working folder (the page's and the command line's)."""
        found = []
        for folder in self._walk(self.root, None, folders=True):
            kind, scenario = results_kind(folder)
            if kind:
                found.append(
                    ResultsEntry(self.relative(folder), kind, scenario, folder.stat().st_mtime)
                )
        return sorted(found, key=lambda e: -e.modified)

    def _walk(self, top: Path, keep: Any, folders: bool = False) -> Iterator[Path]:
        """Files (or results folders) under ``top``: no links, no hidden or skipped folders."""
        listed = 0
        stack = [(top, 0)]
        while stack:
            folder, depth = stack.pop()
            try:
                entries = sorted(os.scandir(folder), key=lambda e: e.name, reverse=True)
            except OSError:
                continue
            if folder != top and results_kind(folder)[0]:
                if folders:
                    listed += 1
                    yield folder
                continue  # a results folder's files are its parts, not scenarios of their own
            for entry in entries:
                if entry.name.startswith(".") or entry.is_symlink():
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if depth < MAX_DEPTH and entry.name not in SKIPPED:
                        stack.append((Path(entry.path), depth + 1))
                elif not folders and keep(entry):
                    listed += 1
                    yield Path(entry.path)
                if listed >= MAX_LISTED:
                    return

    def _entry(self, path: Path, bundled: bool) -> ScenarioEntry:
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        entry = self._entries.get(key)
        if entry is None:
            entry = _describe(path, self.shown(path) if bundled else self.relative(path), bundled)
            self._entries[key] = entry
        return entry


def _as_bundled(entry: ScenarioEntry) -> ScenarioEntry:
    return ScenarioEntry(
        entry.path, entry.name, entry.rules, entry.question, entry.problems, entry.sections, True
    )


def _is_scenario(entry: os.DirEntry) -> bool:
    return entry.name.endswith(SCENARIO_SUFFIXES) and entry.is_file(follow_symlinks=False)


def _read_limited(path: Path) -> bytes:
    """A file's bytes, refused past the loader's size limit (never reading more than that)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise PathRefused(f"{path.name}: cannot be read ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        if not os.path.isfile(path):
            raise PathRefused(f"{path.name}: not a regular file")
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise PathRefused(f"{path.name}: more than {MAX_FILE_BYTES:,} bytes")
    return data


def _describe(path: Path, shown: str, bundled: bool) -> ScenarioEntry:
    """A scenario's name, rules and question, from the loader (its problems counted)."""
    try:
        scenario = load_scenario(path)
    except ScenarioError as exc:
        return ScenarioEntry(shown, path.name, "?", "", len(exc.problems), (), bundled)
    data = scenario.data
    sections = tuple(
        key for key in ("variants", "sweep", "strategies", "sensitivity") if data.get(key)
    )
    return ScenarioEntry(
        shown, scenario.name, scenario.rules, scenario.description, 0, sections, bundled
    )


def results_kind(folder: Path) -> tuple[str, str]:
    """A results folder's kind and scenario as its files record them ('' when it is none)."""
    names = set()
    try:
        names = {entry.name for entry in os.scandir(folder)}
    except OSError:
        return "", ""
    if not names.intersection(RESULT_MARKERS):
        return "", ""
    if not names - {LOCK}:
        return "", ""  # only a lock: nothing written (yet)
    for record in ("summary.json", "meta.json", "run.json", "comparison.json", "balance.json"):
        if record in names:
            data = _small_json(folder / record)
            kind = data.get("kind") or _kind_by_file(record)
            return str(kind), str(data.get("scenario", ""))
    return "results", ""


def _kind_by_file(record: str) -> str:
    return {"comparison.json": "comparison", "balance.json": "balance"}.get(record, "run")


def _small_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(_read_limited(path))
    except (PathRefused, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
