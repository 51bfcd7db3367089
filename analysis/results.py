"""A results directory: what a command saved, read back without re-running.

Every results directory says what it holds, its *kind* (:data:`KINDS`): ``run`` (one scenario,
one arm), ``sweep`` (one arm per point of a sweep, column ``point``), ``comparison`` (the arms
of ``compare --out``, paired combat by combat, column ``variant``), ``balance`` (the grid of a
balance search and its answer, ``balance.json``), ``tournament`` (every pairing of strategies,
each under ``cells/``) or ``sensitivity`` (a study, with the scenario's own run at its values).
The writers record it (``"kind"`` in ``meta.json``, ``summary.json`` or a streamed run's
``run.json``); for a directory written before they did, :func:`infer_kind` reads it from the
files and the table, and refuses what it cannot tell rather than pool several arms into one
"run".

A results directory holds the outcome table (``outcomes.parquet``: a file, or the chunks of a
streamed run, each checked against ``run.json`` before it is read; ``outcomes/`` or
``outcomes.csv``), optionally the per-combatant table (``combatants.*``), ``summary.json``,
``meta.json`` (how the results were made: scenario, rules and options, seed, runs, combatsim
version) and ``scenario.yaml``: the scenario file as its author wrote it, byte for byte, with
what was set on top of it recorded (``applied``). An exact run, sweep or sensitivity study
(``"method": "exact"`` in ``summary.json``) holds no outcome table: its summary (and a study's
tables) is its results. ``combatsim plot`` and ``combatsim report`` read it through
:func:`read_results`; anything missing is simply not shown.
"""

from __future__ import annotations

import json
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.job import read_arm
from sim.engine.errors import CommandError
from sim.run.chunks import part_start
from sim.run.files import write_text
from sim.run.outdir import FolderLock
from sim.run.store import (
    ResultsWarning,
    StoreDamaged,
    scenario_text,
    stored_chunks,
)
from sim.run.tables import save_frame
from sim.scenario.schema import Scenario

#: Columns every outcome table has; a file without them is not combatsim output.
REQUIRED = ("combat", "winner", "duration_s")

#: What a results directory can hold (see the module docstring).
KINDS = ("run", "sweep", "comparison", "balance", "tournament", "sensitivity")
#: The kinds whose outcome table is one run: a sensitivity study keeps the scenario's own run at
#: its values next to the study (its points are under ``points/``).
ONE_RUN = ("run", "sensitivity")
#: The kinds whose results are their summary files more than one outcome table.
SUMMARIZED = ("balance", "tournament")
#: The kinds whose exact results (``"method": "exact"`` in ``summary.json``: the fight solved
#: as a chain, no combat played) are read from the summary (and a study's tables) alone.
EXACT_VIEWS = ("run", "sweep", "sensitivity")


class ResultsError(CommandError):
    """A directory that does not hold combatsim results (the message says why)."""


@dataclass
class Results:
    """Saved results: tables, summary and how they were made.

    Attributes:
        directory: where they were read from.
        outcomes: one row per combat (with ``point`` and parameter columns for a sweep).
        combatants: one row per combatant per combat, or None.
        summary: ``summary.json`` (empty when absent).
        meta: ``meta.json`` (empty when absent).
        scenario_text: ``scenario.yaml`` as text (the file as written), or None.
        kind: one of :data:`KINDS`.
        balance: ``balance.json`` of a balance search (empty otherwise).
        arm_texts: a comparison of scenario files: each other file's text, by arm.
    """

    directory: Path
    outcomes: pd.DataFrame
    combatants: pd.DataFrame | None = None
    summary: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    scenario_text: str | None = None
    kind: str = "run"
    balance: dict[str, Any] = field(default_factory=dict)
    arm_texts: dict[str, str] = field(default_factory=dict)

    @property
    def exact(self) -> bool:
        """Whether the results were solved exactly (no combat played; :data:`EXACT_VIEWS`)."""
        return self.summary.get("method") == "exact" and self.kind in EXACT_VIEWS

    @property
    def arms(self) -> list[str]:
        """The arms of a comparison, base first, in the order they were played."""
        return list(dict.fromkeys(self.outcomes["variant"])) if "variant" in self.outcomes else []

    @property
    def scenario_name(self) -> str:
        """The scenario's name as the tables carry it."""
        name = self.meta.get("scenario") or self.summary.get("scenario")
        if name:
            return str(name)
        if "scenario" in self.outcomes.columns and len(self.outcomes):
            return str(self.outcomes["scenario"].iloc[0])
        return self.directory.name

    @property
    def side_names(self) -> tuple[str, ...]:
        """The sides, in scenario order."""
        if self.meta.get("side_names"):
            return tuple(self.meta["side_names"])
        if isinstance(self.summary.get("sides"), dict):
            return tuple(self.summary["sides"])
        return tuple(
            match.group(1)
            for column in self.outcomes.columns
            if (match := re.fullmatch(r"survivors_(.+)", column))
        )

    @property
    def parameters(self) -> list[dict[str, Any]]:
        """A sweep's parameters: each ``label``, ``path`` and ``values`` (empty for a run)."""
        found = self.meta.get("parameters") or self.summary.get("parameters")
        if found:
            return list(found)
        return []

    @property
    def seed(self) -> int | None:
        """The run's seed, if known."""
        seed = self.meta.get("seed", self.summary.get("seed"))
        return None if seed is None else int(seed)

    @property
    def runs(self) -> int:
        """Combats per point (a sweep) or in all (a run); 0 for exact results."""
        runs = self.meta.get("runs", self.summary.get("runs"))
        if runs is not None:
            return int(runs)
        if self.exact:
            return 0  # solved, not played
        if self.kind == "sweep":
            return int(self.outcomes.groupby("point").size().max())
        return len(self.outcomes)

    @property
    def scenario_file(self) -> str | None:
        """The file the scenario was read from, as the results recorded it."""
        found = self.meta.get("file") or self.summary.get("file")
        return str(found) if found else None


def read_results(directory: str | Path) -> Results:
    """Read a results directory (see the module docstring for what it holds).

    Raises:
        ResultsError: the directory is missing, holds no results, or holds something that does
            not belong (a chunk of another run, a folder where a table file should be).
    """
    directory = Path(directory)
    if directory.is_file() and directory.name.endswith(".baseline.json"):
        raise ResultsError(
            f"{directory}: a baseline (what `combatsim check` replays), not a results directory; "
            f"`combatsim check {directory}` compares the scenario with it"
        )
    if not directory.is_dir():
        raise ResultsError(
            f"{directory}: no such directory (expected the --out of a combatsim command)"
        )
    summary = _json(directory / "summary.json")
    meta = _meta(directory)
    balance = _json(directory / "balance.json")
    if (directory / "comparison.json").is_file() and not summary:
        summary = _json(directory / "comparison.json")
    recorded = _recorded_kind(summary, meta, balance)
    exact = summary.get("method") == "exact"
    if recorded == "tournament":
        outcomes: pd.DataFrame | None = tournament_table(directory, summary)
    elif exact and recorded in EXACT_VIEWS:
        outcomes = None  # no combat was played: a table left there is another run's
    else:
        outcomes = read_table(directory, "outcomes")
    if outcomes is None and (recorded in SUMMARIZED or (exact and recorded in EXACT_VIEWS)):
        outcomes = pd.DataFrame(columns=list(REQUIRED))
    if outcomes is None:
        raise ResultsError(
            f"{directory}: no outcomes.parquet, outcomes/ or outcomes.csv (expected the --out "
            "of combatsim run, sweep, compare, balance, tournament or sensitivity)"
        )
    missing = [c for c in REQUIRED if c not in outcomes.columns]
    if missing:
        raise ResultsError(f"{directory}: the outcome table lacks the columns {', '.join(missing)}")
    if outcomes.empty and recorded not in SUMMARIZED and not exact:
        raise ResultsError(f"{directory}: the outcome table holds no combats")
    order = [c for c in ("point", "combat") if c in outcomes.columns]
    if recorded != "tournament" and order:  # a tournament's cells stay in matrix order
        outcomes = outcomes.sort_values(order, kind="stable").reset_index(drop=True)
    kind = infer_kind(directory, outcomes, summary, meta)
    if kind == "run" and not exact:
        _say_if_unfinished(directory, len(outcomes))
    return Results(
        directory=directory,
        outcomes=outcomes,
        combatants=read_table(directory, "combatants") if kind not in SUMMARIZED else None,
        summary=summary,
        meta=meta,
        scenario_text=_scenario_text(directory / "scenario.yaml"),
        kind=kind,
        balance=balance,
        arm_texts=_arm_texts(directory, meta),
    )


def _recorded_kind(
    summary: dict[str, Any], meta: dict[str, Any], balance: dict[str, Any]
) -> str | None:
    """The kind the writer recorded, if any (``balance.json`` alone: a balance search)."""
    recorded = meta.get("kind") or summary.get("kind")
    if recorded is None and balance:
        return "balance"
    return None if recorded is None else str(recorded)


def tournament_table(directory: Path, summary: dict[str, Any]) -> pd.DataFrame | None:
    """Every pairing's outcome table of a tournament's folder, row strategy by row strategy.

    Each cell's combats are read from its run folders under ``cells/``, every chunk checked
    against its run first; None when no cell is there.
    """
    rows, columns = summary.get("rows") or [], summary.get("columns") or []
    frames = []
    for row in rows:
        for column in columns:
            try:
                frame = read_arm(directory / "cells" / f"{row}.vs.{column}")
            except StoreDamaged as exc:
                raise ResultsError(str(exc)) from None
            if frame is not None:
                frames.append(frame)
    return pd.concat(frames, ignore_index=True) if frames else None


def _say_if_unfinished(directory: Path, combats: int) -> None:
    """Warn when a streamed run was stopped before the end (its report shows only part)."""
    manifest = _json(directory / "run.json")
    runs = manifest.get("runs")
    if isinstance(runs, int) and not (directory / "summary.json").is_file() and combats < runs:
        warnings.warn(
            f"{directory} holds an unfinished run: {combats:,} of its {runs:,} combats; the "
            "same `combatsim run ... --out` with --resume finishes it",
            ResultsWarning,
            stacklevel=3,
        )


def _arm_texts(directory: Path, meta: dict[str, Any]) -> dict[str, str]:
    """A comparison of scenario files: each other file as written, by arm (from ``meta.json``)."""
    arms = meta.get("arms")
    if not isinstance(arms, dict):
        return {}
    texts = {}
    for name, arm in arms.items():
        file = arm.get("scenario_file") if isinstance(arm, dict) else None
        if isinstance(file, str) and file != "scenario.yaml" and "/" not in file:
            text = _scenario_text(directory / file)
            if text is not None:
                texts[str(name)] = text
    return texts


def infer_kind(
    directory: Path, outcomes: pd.DataFrame, summary: dict[str, Any], meta: dict[str, Any]
) -> str:
    """What a results directory holds: its recorded kind, else what its files and table say.

    A table of several arms (``variant`` column with more than one name) is a comparison
    whatever else is missing: pooling its arms into one run would report a win rate that no
    scenario has.

    Raises:
        ResultsError: the recorded kind is unknown, or contradicts the table.
    """
    recorded = meta.get("kind") or summary.get("kind")
    arms = outcomes["variant"].nunique() if "variant" in outcomes.columns else 1
    if recorded is None and (directory / "balance.json").is_file():
        recorded = "balance"
    if recorded is not None:
        if recorded not in KINDS:
            raise ResultsError(
                f"{directory}: holds results of kind {recorded!r}; this combatsim reads "
                f"{', '.join(KINDS)}"
            )
        if recorded in ONE_RUN and arms > 1:
            raise ResultsError(
                f"{directory}: recorded as one run, but its outcome table holds {arms} arms "
                f"({', '.join(map(str, pd.unique(outcomes['variant'])))}); refusing to pool them"
            )
        return str(recorded)
    if (directory / "comparison.json").is_file() or arms > 1:
        return "comparison"
    return "sweep" if "point" in outcomes.columns else "run"


def _scenario_text(path: Path) -> str | None:
    """``scenario.yaml`` as text; a damaged one is left out, with a warning."""
    if not path.is_file():
        return None
    try:
        return path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else str(exc)
        warnings.warn(f"{path} is left out: {why}", ResultsWarning, stacklevel=3)
        return None


def read_table(directory: Path, stem: str) -> pd.DataFrame | None:
    """``stem.parquet`` (a file, or a streamed run's chunks), ``stem/`` of Parquet parts, or CSV.

    A streamed run's folder (``stem.parquet/`` next to its ``run.json``) is read only once
    every file in it is checked to be a chunk of that run (:func:`sim.run.store.stored_chunks`):
    a folder or a file that does not belong is an error that names it, never read into the
    table. Hidden files are never read; a link is never followed.

    Raises:
        ResultsError: a table cannot be read (damaged, empty, not a table, not this run's).
    """
    target = directory / f"{stem}.parquet"
    if target.is_symlink():
        raise ResultsError(f"{target} is a symbolic link; combatsim reads no table through one")
    if target.is_file():
        return _parquet(target)
    if target.is_dir():
        try:
            _, chunks = stored_chunks(directory, stem)
        except StoreDamaged as exc:
            raise ResultsError(str(exc)) from None
        if chunks:
            return pd.concat([_parquet(p) for p in chunks], ignore_index=True)
        return None
    legacy = directory / stem  # a dataset of Parquet parts, written by hand or by Dask
    if legacy.is_dir() and not legacy.is_symlink():
        parts = sorted(
            p
            for p in legacy.iterdir()
            if p.name.endswith(".parquet")
            and not p.name.startswith((".", "_"))
            and p.is_file()
            and not p.is_symlink()
        )
        chunks = [p for p in parts if part_start(p.name) is not None]
        parts = chunks or parts
        if parts:
            return pd.concat([_parquet(p) for p in parts], ignore_index=True)
    csv = directory / f"{stem}.csv"
    if csv.is_file() and not csv.is_symlink():
        try:
            frame = pd.read_csv(csv)
        except (OSError, ValueError) as exc:  # pandas' EmptyDataError and ParserError too
            raise ResultsError(f"{csv} cannot be read as a table ({_short(exc)})") from None
        if "out" in frame.columns:
            frame["out"] = frame["out"].fillna("")
        return frame
    return None


def _parquet(path: Path) -> pd.DataFrame:
    try:
        return pd.read_parquet(path)
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise ResultsError(
            f"{path} cannot be read ({type(exc).__name__}: {_short(exc)}): the file is damaged; "
            "if it is a chunk of a streamed run, the same `combatsim run ... --out` with "
            "--resume sets it aside and plays its combats again"
        ) from None


def _short(exc: Exception, chars: int = 120) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _meta(directory: Path) -> dict[str, Any]:
    """``meta.json``, or what a streamed run's ``run.json`` manifest says of the same things."""
    meta = _json(directory / "meta.json")
    if meta:
        return meta
    manifest = _json(directory / "run.json")
    keys = ["kind", "scenario", "file", "rules", "time_limit_s", "seed", "runs", "side_names"]
    keys += ["variant", "applied", "scenario_text", "scenario_sha256"]
    meta = {k: manifest[k] for k in keys if k in manifest}
    if "combatsim" in manifest:
        meta["combatsim_version"] = manifest["combatsim"]
    if "first" in manifest:
        meta["first_combat"] = manifest["first"]
    record = _json(directory / "scenario.json")  # what scenario.yaml is (RunResult.save)
    for key in ("file", "applied", "scenario_text", "scenario_sha256"):
        if key in record and key not in meta:
            meta[key] = record[key]
    return meta


def _json(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ResultsError(f"{path}: not readable JSON ({exc})") from None
    return loaded if isinstance(loaded, dict) else {}


def write_results(
    directory: str | Path,
    outcomes: pd.DataFrame,
    summary: dict[str, Any],
    *,
    combatants: pd.DataFrame | None = None,
    meta: dict[str, Any] | None = None,
    scenario: Scenario | None = None,
    csv: bool = False,
    summary_name: str = "summary.json",
    scenario_files: dict[str, Scenario] | None = None,
) -> list[Path]:
    """Save a results directory that :func:`read_results` reads back (under its lock).

    ``scenario`` is kept as ``scenario.yaml``, the file as written (and ``scenario_files``,
    other scenario files a comparison played, under their names); ``summary_name``: a
    comparison keeps its summary as ``comparison.json``.

    Raises:
        WriteError: a file cannot be written (the message names it and the cause).
        FolderBusy: another combatsim is writing into ``directory``.
    """
    directory = Path(directory)
    files: dict[str, str] = {summary_name: json.dumps(summary, indent=2) + "\n"}
    if meta is not None:
        files["meta.json"] = json.dumps(meta, indent=2) + "\n"
    if scenario is not None:
        files["scenario.yaml"] = scenario_text(scenario)
    for name, other in (scenario_files or {}).items():
        files[name] = scenario_text(other)
    with FolderLock(directory):
        written = save_frame(outcomes, directory, "outcomes", csv)
        if combatants is not None:
            written += save_frame(combatants, directory, "combatants", csv)
        for name, text in files.items():
            written.append(write_text(directory / name, text))
    return written
