"""A results directory: what a run, a sweep or a comparison saved, read back without re-running.

Every results directory says what it holds, its *kind* (:data:`KINDS`): ``run`` (one scenario,
one arm), ``sweep`` (one arm per point of a sweep, column ``point``) or ``comparison`` (the
arms of ``compare --out``, paired combat by combat, column ``variant``). The writers record it
(``"kind"`` in ``summary.json``, ``meta.json`` or a streamed run's ``run.json``); for a directory
written before they did, :func:`infer_kind` reads it from the files and the table, and refuses
what it cannot tell rather than pool several arms into one "run".

A results directory holds the outcome table (``outcomes.parquet``, a file or a Parquet dataset
directory, ``outcomes/`` or ``outcomes.csv``), optionally the per-combatant table
(``combatants.*``), ``summary.json``, and, when a sweep wrote them, ``meta.json`` (how the
results were made: scenario, rules and options, seed, runs, combatsim version) and
``scenario.yaml`` (the scenario as it was run); for a streamed run, its ``run.json`` manifest
stands in for ``meta.json``. ``combatsim plot`` and ``combatsim report`` read it through
:func:`read_results`; anything missing is simply not shown.
"""

from __future__ import annotations

import json
import re
import warnings
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from sim.engine.errors import CommandError
from sim.run.chunks import part_start
from sim.run.files import write_text
from sim.run.outdir import FolderLock
from sim.run.store import ResultsWarning
from sim.run.tables import save_frame
from sim.run.version import __version__

#: Columns every outcome table has; a file without them is not combatsim output.
REQUIRED = ("combat", "winner", "duration_s")

#: What a results directory can hold (see the module docstring).
KINDS = ("run", "sweep", "comparison")
#: Other recorded kinds whose outcome table is one run: a sensitivity study keeps the scenario's
#: own run at its values next to the study, and is shown as that run (plus its own section).
HOLDS_ONE_RUN = ("sensitivity",)


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
        scenario_text: ``scenario.yaml`` as text, or None.
    """

    directory: Path
    outcomes: pd.DataFrame
    combatants: pd.DataFrame | None = None
    summary: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    scenario_text: str | None = None
    kind: str = "run"

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
        """Combats per point (a sweep) or in all (a run)."""
        runs = self.meta.get("runs", self.summary.get("runs"))
        if runs is not None:
            return int(runs)
        if self.kind == "sweep":
            return int(self.outcomes.groupby("point").size().max())
        return len(self.outcomes)


def read_results(directory: str | Path) -> Results:
    """Read a results directory (see the module docstring for what it holds).

    Raises:
        ResultsError: the directory is missing or holds no outcome table.
    """
    directory = Path(directory)
    if directory.is_file() and directory.name.endswith(".baseline.json"):
        raise ResultsError(
            f"{directory}: a baseline (what `combatsim check` replays), not a results directory; "
            f"`combatsim check {directory}` compares the scenario with it"
        )
    if not directory.is_dir():
        raise ResultsError(f"{directory}: no such directory (expected the --out of a run or sweep)")
    if _json(directory / "summary.json").get("kind") == "tournament":
        raise ResultsError(
            f"{directory}: a tournament's folder, not one run, sweep or comparison; "
            f"`combatsim report {directory}` shows it, and its chart is plots/payoff.png there"
        )
    outcomes = read_table(directory, "outcomes")
    if outcomes is None:
        raise ResultsError(
            f"{directory}: no outcomes.parquet, outcomes/ or outcomes.csv "
            "(expected the --out of combatsim run or combatsim sweep)"
        )
    missing = [c for c in REQUIRED if c not in outcomes.columns]
    if missing:
        raise ResultsError(f"{directory}: the outcome table lacks the columns {', '.join(missing)}")
    if outcomes.empty:
        raise ResultsError(f"{directory}: the outcome table holds no combats")
    order = [c for c in ("point", "combat") if c in outcomes.columns]
    outcomes = outcomes.sort_values(order, kind="stable").reset_index(drop=True)
    combatants = read_table(directory, "combatants")
    summary = _json(directory / "summary.json")
    meta = _meta(directory)
    if (directory / "comparison.json").is_file() and not summary:
        summary = _json(directory / "comparison.json")
    return Results(
        directory=directory,
        outcomes=outcomes,
        combatants=combatants,
        summary=summary,
        meta=meta,
        scenario_text=_scenario_text(directory / "scenario.yaml"),
        kind=infer_kind(directory, outcomes, summary, meta),
    )


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
    if recorded in HOLDS_ONE_RUN:
        recorded = "run"
    if recorded is not None:
        if recorded not in KINDS:
            raise ResultsError(
                f"{directory}: holds results of kind {recorded!r}; this combatsim reads "
                f"{', '.join(KINDS)}"
            )
        if recorded == "run" and arms > 1:
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
    """``stem.parquet`` (a file or a dataset directory), ``stem/`` of Parquet parts, or CSV.

    In a streamed run's dataset only the chunk files count (``part-<first combat>.parquet``):
    a stray copy next to them is not read twice. Hidden files are never read.

    Raises:
        ResultsError: a table file cannot be read (damaged, empty, not a table).
    """
    for candidate in (directory / f"{stem}.parquet", directory / stem):
        if candidate.is_file():
            return _parquet(candidate)
        if candidate.is_dir():
            parts = sorted(
                p for p in candidate.rglob("*.parquet") if not p.name.startswith((".", "_"))
            )
            chunks = [p for p in parts if part_start(p.name) is not None]
            parts = chunks or parts
            if parts:
                return pd.concat([_parquet(p) for p in parts], ignore_index=True)
    csv = directory / f"{stem}.csv"
    if csv.is_file():
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
    keys.append("variant")
    meta = {k: manifest[k] for k in keys if k in manifest}
    if "combatsim" in manifest:
        meta["combatsim_version"] = manifest["combatsim"]
    if "first" in manifest:
        meta["first_combat"] = manifest["first"]
    return meta


def _json(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ResultsError(f"{path}: not readable JSON ({exc})") from None
    return loaded if isinstance(loaded, dict) else {}


def run_meta(
    scenario: Any, seed: int, runs: int, kind: str = "run", **extra: Any
) -> dict[str, Any]:
    """How a set of results was made, JSON-ready (written as ``meta.json``)."""
    return {
        "kind": kind,
        "scenario": scenario.name,
        "file": scenario.file,
        "rules": scenario.rules,
        "options": scenario.option_values(),
        "time_limit_s": scenario.time_limit_s,
        "side_names": list(scenario.side_names),
        "seed": seed,
        "runs": runs,
        **made_with(),
        **extra,
    }


def made_with() -> dict[str, str]:
    """The combatsim version and the time, for a ``meta.json``."""
    try:
        combatsim_version = version("combatsim")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        combatsim_version = __version__
    return {
        "combatsim_version": combatsim_version,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def write_results(
    directory: str | Path,
    outcomes: pd.DataFrame,
    summary: dict[str, Any],
    *,
    combatants: pd.DataFrame | None = None,
    meta: dict[str, Any] | None = None,
    scenario_data: dict | None = None,
    csv: bool = False,
    summary_name: str = "summary.json",
) -> list[Path]:
    """Save a results directory that :func:`read_results` reads back (under its lock).

    ``summary_name``: a comparison keeps its summary as ``comparison.json``.

    Raises:
        WriteError: a file cannot be written (the message names it and the cause).
        FolderBusy: another combatsim is writing into ``directory``.
    """
    directory = Path(directory)
    files: dict[str, str] = {summary_name: json.dumps(summary, indent=2) + "\n"}
    if meta is not None:
        files["meta.json"] = json.dumps(meta, indent=2) + "\n"
    if scenario_data is not None:
        files["scenario.yaml"] = yaml.safe_dump(scenario_data, sort_keys=False, allow_unicode=True)
    with FolderLock(directory):
        written = save_frame(outcomes, directory, "outcomes", csv)
        if combatants is not None:
            written += save_frame(combatants, directory, "combatants", csv)
        for name, text in files.items():
            written.append(write_text(directory / name, text))
    return written
