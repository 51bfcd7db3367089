"""A result you can send: what a report records to be played again, and playing it again.

A report (``combatsim report DIR``) carries, in a ``<script type="application/json"
id="combatsim-run">`` block, everything that made its outcome table: the command's kind, the
scenario file byte for byte (and what was set on top of it), the seed, the runs and the options
the table depends on (never the workers or the chunk size: the table is the same for any), the
combatsim version, and per arm (a run's one, a comparison's arms, a sweep's points, a
tournament's cells, a study's points, a balance search's grid) its number of combats, the
SHA-256 of its outcome table and each combat's winner.

:func:`replay_record` plays the same combats again from that block alone and says, arm by arm,
whether the outcome table matches, and if not what differs (combats whose winner changed, the
win counts then and now). ``combatsim run REPORT.html`` is a thin layer over
:func:`replay_report`; a page that opens a report calls the same functions.

>>> from analysis.rerun import replay_report
>>> check = replay_report("out/report.html")
>>> check.matches, check.sentences()
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.balance import find_balance
from analysis.baseline import decode_winners, encode_winners
from analysis.compare import BASE, compare_arms
from analysis.results import Results, ResultsError, read_table
from analysis.sensitivity_study import plan_study, run_study
from analysis.sweep import plan_sweep, run_sweep
from analysis.tournament import plan_tournament
from sim.engine.errors import CommandError
from sim.run.api import Execution, play_records, simulate
from sim.run.store import json_ready
from sim.run.version import __version__
from sim.scenario.loader import parse_scenario
from sim.scenario.schema import Scenario
from sim.scenario.variants import variant_names, variant_scenario

#: The ``id`` of the report's machine-readable block.
BLOCK_ID = "combatsim-run"
#: The format written in every block.
FORMAT = "combatsim-report/1"
#: The command each kind of results comes from.
COMMANDS = {
    "run": "run",
    "comparison": "compare",
    "sweep": "sweep",
    "balance": "balance",
    "tournament": "tournament",
    "sensitivity": "sensitivity",
}
#: The largest report read (its charts are inside; the block is a small part of it).
MAX_REPORT_BYTES = 256 * 1024 * 1024
#: The most combats per arm a block may ask to play again (as ``--runs`` allows).
MAX_RUNS = 10**9

_BLOCK = re.compile(
    r'<script type="application/json" id="' + BLOCK_ID + r'">(.*?)</script>', re.DOTALL
)


class ReportError(CommandError):
    """A file that is not a combatsim report that can be played again (the message says why)."""


def table_digest(frame: pd.DataFrame) -> str:
    """The SHA-256 of an outcome table, as CSV text (the same table gives the same digest)."""
    text = frame.to_csv(index=False, lineterminator="\n")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- what a results folder's arms are -----------------------------------------------------------


def arm_tables(results: Results) -> dict[str, pd.DataFrame]:
    """Each arm's outcome table, in combat order, as the folder holds it.

    The arms of a run are its one run (``base``); of a comparison its arms; of a sweep and a
    balance search its points (``point 3``); of a tournament its cells (``charge.vs.hold``); of
    a sensitivity study its points (``p00003``), each read from its run folder.
    """
    kind, outcomes = results.kind, results.outcomes
    if kind == "run":
        return {str(results.meta.get("variant") or BASE): _ordered(outcomes)}
    if kind in ("comparison", "tournament"):
        return {str(k): _ordered(g) for k, g in outcomes.groupby("variant", sort=False)}
    if kind in ("sweep", "balance"):
        return {f"point {k}": _ordered(g) for k, g in outcomes.groupby("point", sort=True)}
    if kind == "sensitivity":
        tables = {}
        points = results.directory / "points"
        for folder in sorted(points.iterdir()) if points.is_dir() else []:
            if folder.is_dir() and not folder.is_symlink():
                table = read_table(folder, "outcomes")
                if table is not None:
                    tables[folder.name] = _ordered(table)
        return tables
    raise ResultsError(f"{results.directory}: no arms known for results of kind {kind!r}")


def _ordered(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.sort_values("combat", kind="stable").reset_index(drop=True)


def record_of(results: Results) -> dict[str, Any]:
    """The block a report of ``results`` carries (see the module docstring), JSON-ready.

    Raises:
        ResultsError: the folder does not hold its scenario file, or what its kind needs to be
            played again.
    """
    if results.scenario_text is None:
        raise ResultsError(
            f"{results.directory} does not hold its scenario file (scenario.yaml), so its "
            "results cannot be played again"
        )
    if results.exact:
        raise ResultsError(
            f"{results.directory} holds exact results: no combat was played, so there is none "
            "to play again (solve the scenario again with --method exact)"
        )
    meta, summary = results.meta, results.summary
    sides = list(results.side_names)
    arms = {}
    for name, table in arm_tables(results).items():
        arms[name] = {
            "combats": len(table),
            "first": int(table["combat"].min()) if len(table) else 0,
            "sha256": table_digest(table),
            "winners": encode_winners(list(table["winner"]), sides),
        }
    record = {
        "format": FORMAT,
        "kind": results.kind,
        "command": f"combatsim {COMMANDS[results.kind]}",
        "combatsim": str(meta.get("combatsim_version") or summary.get("combatsim") or "unknown"),
        "seed": results.seed,
        "runs": _runs_of(results),
        "options": _options_of(results),
        "scenario": {
            "file": Path(str(results.scenario_file or "scenario.yaml")).name,
            "text": results.scenario_text,
            "applied": meta.get("applied") or {},
            "sha256": hashlib.sha256(results.scenario_text.encode("utf-8")).hexdigest(),
        },
        "arm_scenarios": {
            name: {"text": text, "file": f"{name}.yaml"} for name, text in results.arm_texts.items()
        },
        "sides": sides,
        "outcomes": {
            "sha256": table_digest(results.outcomes) if len(results.outcomes) else None,
            "arms": arms,
        },
    }
    return json_ready(record)


def _runs_of(results: Results) -> int:
    if results.kind == "tournament":
        return int(results.summary["runs"])
    if results.kind == "balance":
        return int(results.balance.get("runs_per_point") or results.runs)
    if results.kind == "sensitivity":
        return int(results.summary.get("runs") or results.runs)
    return results.runs


def _options_of(results: Results) -> dict[str, Any]:
    """What the kind's table depends on besides the scenario, the seed and the runs."""
    meta, summary = results.meta, results.summary
    if results.kind == "run":
        return {"first": int(meta.get("first_combat") or 0), "variant": meta.get("variant") or BASE}
    if results.kind == "comparison":
        arms = meta.get("arms")
        names = list(arms) if isinstance(arms, (dict, list)) else results.arms
        return {"arms": [str(n) for n in names], "alpha": meta.get("alpha")}
    if results.kind == "sweep":
        return {"first": int(meta.get("first_combat") or summary.get("first_combat") or 0)}
    if results.kind == "balance":
        return {"asked": results.balance.get("asked") or meta.get("asked") or {}}
    if results.kind == "sensitivity":
        keys = ("side", "samples", "oat_runs")
        return {k: summary.get(k) for k in keys}
    return {"payoff": summary.get("payoff_kind")}


def embed(record: Mapping[str, Any]) -> str:
    """The ``<script>`` block of a record: JSON with every ``<`` escaped, so HTML cannot end it."""
    text = json.dumps(record, indent=1, allow_nan=False).replace("<", "\\u003c")
    return f'<script type="application/json" id="{BLOCK_ID}">{text}</script>'


# -- reading a report back ----------------------------------------------------------------------


def read_report(path: str | Path) -> dict[str, Any]:
    """The record a report carries (see :func:`embed`), checked for its shape.

    Raises:
        ReportError: the file is missing, too large, not a combatsim report, or its block is
            damaged.
    """
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_REPORT_BYTES + 1)
    except OSError as exc:
        raise ReportError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(raw) > MAX_REPORT_BYTES:
        raise ReportError(f"{path}: larger than {MAX_REPORT_BYTES:,} bytes; not a report")
    text = raw.decode("utf-8", "replace")
    found = _BLOCK.search(text)
    if found is None:
        raise ReportError(
            f"{path}: no combatsim-run block, so there is nothing to play again (a report made "
            "by `combatsim report` with this version carries one)"
        )
    try:
        record = json.loads(found.group(1))
    except ValueError as exc:
        raise ReportError(f"{path}: its combatsim-run block is not JSON ({exc})") from None
    problems = _shape_problems(record)
    if problems:
        raise ReportError(f"{path}: its combatsim-run block is damaged ({'; '.join(problems)})")
    return record


def _shape_problems(record: Any) -> list[str]:
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        return [f"format {record.get('format') if isinstance(record, dict) else None!r}"]
    problems = []
    if record.get("kind") not in COMMANDS:
        problems.append(f"kind {record.get('kind')!r}")
    for key, kind in (("seed", int), ("runs", int), ("options", dict), ("scenario", dict)):
        value = record.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            problems.append(key)
    runs = record.get("runs")
    if isinstance(runs, int) and not 1 <= runs <= MAX_RUNS:
        problems.append(f"runs {runs} (expected 1 to {MAX_RUNS:,})")
    seed = record.get("seed")
    if isinstance(seed, int) and not 0 <= seed <= 2**63 - 1:
        problems.append(f"seed {seed}")
    scenario = record.get("scenario")
    if isinstance(scenario, dict) and not isinstance(scenario.get("text"), str):
        problems.append("scenario.text")
    sides = record.get("sides")
    if not isinstance(sides, list) or not all(isinstance(s, str) for s in sides):
        problems.append("sides")
    outcomes = record.get("outcomes")
    arms = outcomes.get("arms") if isinstance(outcomes, dict) else None
    if not isinstance(arms, dict) or not all(
        isinstance(a, dict)
        and isinstance(a.get("sha256"), str)
        and isinstance(a.get("combats"), int)
        for a in arms.values()
    ):
        problems.append("outcomes.arms")
    return problems


# -- playing it again ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ArmCheck:
    """One arm played again against what the report recorded."""

    name: str
    recorded: dict[str, Any] | None
    combats: int
    sha256: str | None
    winners: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def matches(self) -> bool:
        """The same outcome table, byte for byte."""
        return self.recorded is not None and self.recorded.get("sha256") == self.sha256


@dataclass
class ReplayCheck:
    """A report's combats played again: whether every arm's outcome table matches."""

    kind: str
    command: str
    arms: list[ArmCheck]
    sides: list[str]
    notes: list[str] = field(default_factory=list)

    @property
    def matches(self) -> bool:
        """Every arm matches, and none is missing on either side."""
        return bool(self.arms) and all(arm.matches for arm in self.arms)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form: the verdict, and each arm's combats and digests."""
        return {
            "matches": self.matches,
            "kind": self.kind,
            "command": self.command,
            "arms": [
                {
                    "arm": arm.name,
                    "matches": arm.matches,
                    "combats": arm.combats,
                    "sha256": arm.sha256,
                    "recorded_sha256": (arm.recorded or {}).get("sha256"),
                    **({} if arm.matches else {"difference": self._difference(arm)}),
                }
                for arm in self.arms
            ],
            "notes": self.notes,
        }

    def sentences(self) -> list[str]:
        """What was played and what differs, in words (one line each)."""
        count = len(self.arms)
        combats = sum(arm.combats for arm in self.arms)
        plural = "s" if count != 1 else ""
        head = f"played again: {self.command}, {count} arm{plural}, {combats:,} combats"
        if self.matches:
            return [f"{head}: the outcome table matches the report's, byte for byte", *self.notes]
        lines = [f"{head}: the outcome table does NOT match the report's"]
        for arm in self.arms:
            if not arm.matches:
                lines.append(f"  {arm.name}: {self._difference(arm)}")
        return [*lines, *self.notes]

    def _difference(self, arm: ArmCheck) -> str:
        recorded = arm.recorded
        if recorded is None:
            return f"played now ({arm.combats:,} combats) but not in the report"
        if arm.sha256 is None:
            return f"in the report ({recorded['combats']:,} combats) but not played now"
        if recorded["combats"] != arm.combats:
            return f"{recorded['combats']:,} combats in the report, {arm.combats:,} now"
        text = "the table differs"
        try:
            then = decode_winners(str(recorded.get("winners", "")), self.sides, MAX_RUNS)
        except Exception:  # a damaged winners field: say only that the digest differs
            return f"{text} (its SHA-256); the report's winners cannot be read"
        if arm.winners is None or then.size != arm.winners.size:
            return text
        changed = int(np.count_nonzero(then != arm.winners))
        if not changed:
            return f"{text} in other columns than the winner (lengths, hit points left, ...)"
        wins = ", ".join(
            f"{side} {int((then == side).sum())} → {int((arm.winners == side).sum())}"
            for side in [*self.sides, "draw"]
        )
        first = int(np.flatnonzero(then != arm.winners)[0])
        return (
            f"{text}: {changed} combats have another winner (the first: number {first}); "
            f"wins {wins}"
        )


def replay_report(path: str | Path, execution: Execution | None = None) -> ReplayCheck:
    """Play a report's combats again and compare them with it (:func:`replay_record`)."""
    return replay_record(read_report(path), execution)


def replay_record(record: Mapping[str, Any], execution: Execution | None = None) -> ReplayCheck:
    """Play the combats of a report's record again; say, arm by arm, whether they match.

    Args:
        record: from :func:`read_report` (or :func:`record_of`).
        execution: how the combats are played (workers, scheduler, chunk size: never a
            result).

    Raises:
        ScenarioError: the scenario in the record does not load (with this combatsim).
        ReportError: the record's options are not those of its kind.
    """
    kind = str(record["kind"])
    scenario = _scenario(record)
    seed, runs, options = int(record["seed"]), int(record["runs"]), dict(record["options"])
    try:
        tables = PLAYERS[kind](scenario, seed, runs, options, record, execution)
    except (KeyError, TypeError, ValueError) as exc:
        raise ReportError(f"the report's options for {kind} cannot be used ({exc!r})") from None
    sides = list(record.get("sides") or scenario.side_names)
    recorded = dict(record["outcomes"]["arms"])
    arms = []
    for name, table in tables.items():
        winners = table["winner"].to_numpy(dtype=object)
        arms.append(
            ArmCheck(name, recorded.pop(name, None), len(table), table_digest(table), winners)
        )
    arms += [ArmCheck(name, arm, 0, None) for name, arm in recorded.items()]
    notes = []
    text, digest = record["scenario"].get("text"), record["scenario"].get("sha256")
    if digest and hashlib.sha256(str(text).encode("utf-8")).hexdigest() != digest:
        notes.append(
            "note: the report's scenario text is not the file it recorded (its SHA-256 differs): "
            "the report was edited after it was made"
        )
    made = record.get("combatsim")
    if made and made != __version__:
        notes.append(f"note: the report was made with combatsim {made}; this is {__version__}")
    return ReplayCheck(kind, str(record.get("command") or kind), arms, sides, notes)


def _scenario(
    record: Mapping[str, Any], text: str | None = None, name: str | None = None
) -> Scenario:
    scenario = record["scenario"]
    file = name or str(scenario.get("file") or "scenario.yaml")
    applied = scenario.get("applied") if text is None else None
    return parse_scenario(text if text is not None else scenario["text"], file, applied or None)


Player = Callable[
    [Scenario, int, int, dict[str, Any], Mapping[str, Any], Execution | None],
    dict[str, pd.DataFrame],
]


def _play_run(
    scenario: Scenario,
    seed: int,
    runs: int,
    options: dict[str, Any],
    record: Mapping[str, Any],
    execution: Execution | None,
) -> dict[str, pd.DataFrame]:
    variant = str(options.get("variant") or BASE)
    first = int(options.get("first") or 0)
    result = simulate(
        scenario, runs=runs, seed=seed, first=first, variant=variant, execution=execution
    )
    return {variant: _ordered(result.outcomes)}


def _play_comparison(
    scenario: Scenario,
    seed: int,
    runs: int,
    options: dict[str, Any],
    record: Mapping[str, Any],
    execution: Execution | None,
) -> dict[str, pd.DataFrame]:
    others = record.get("arm_scenarios") or {}
    known = set(variant_names(scenario))
    arms: dict[str, Scenario] = {}
    for name in options["arms"]:
        if name == BASE:
            arms[name] = scenario
        elif name in others:
            arms[name] = _scenario(record, str(others[name]["text"]), str(others[name]["file"]))
        elif name in known:
            arms[name] = variant_scenario(scenario, name)
        else:
            raise ValueError(f"arm {name!r} is neither a variant nor a file of the report")
    comparison = compare_arms(arms, runs, seed, out=None, play=_player(execution))
    assert comparison.outcomes is not None
    return {str(k): _ordered(g) for k, g in comparison.outcomes.groupby("variant", sort=False)}


def _player(execution: Execution | None) -> Callable[[Scenario, int, int, int], list[tuple]]:
    """Each arm's records played as :func:`sim.run.api.play_records` plays them."""

    def play(arm: Scenario, seed: int, start: int, stop: int) -> list[tuple]:
        return play_records(arm, seed, start, stop, execution=execution)

    return play


def _play_sweep(
    scenario: Scenario,
    seed: int,
    runs: int,
    options: dict[str, Any],
    record: Mapping[str, Any],
    execution: Execution | None,
) -> dict[str, pd.DataFrame]:
    plan = plan_sweep(scenario, runs=runs)
    first = int(options.get("first") or 0)
    result = run_sweep(plan, runs=runs, seed=seed, start=first, execution=execution)
    return {f"point {k}": _ordered(g) for k, g in result.outcomes.groupby("point", sort=True)}


def _play_balance(
    scenario: Scenario,
    seed: int,
    runs: int,
    options: dict[str, Any],
    record: Mapping[str, Any],
    execution: Execution | None,
) -> dict[str, pd.DataFrame]:
    asked = dict(options["asked"])
    asked["seed"] = seed
    path, target, side = asked.pop("path"), asked.pop("target"), asked.pop("side")
    result = find_balance(scenario, path, target, side, **asked, execution=execution)
    assert result.outcomes is not None
    return {f"point {k}": _ordered(g) for k, g in result.outcomes.groupby("point", sort=True)}


def _play_tournament(
    scenario: Scenario,
    seed: int,
    runs: int,
    options: dict[str, Any],
    record: Mapping[str, Any],
    execution: Execution | None,
) -> dict[str, pd.DataFrame]:
    plan = plan_tournament(scenario)
    tables = {}
    for i, row in enumerate(plan.rows):
        for j, column in enumerate(plan.columns):
            name = f"{row.name}.vs.{column.name}"
            cell = plan.cells[i][j]
            result = simulate(cell, runs=runs, seed=seed, variant=name, execution=execution)
            tables[name] = _ordered(result.outcomes)
    return tables


def _play_sensitivity(
    scenario: Scenario,
    seed: int,
    runs: int,
    options: dict[str, Any],
    record: Mapping[str, Any],
    execution: Execution | None,
) -> dict[str, pd.DataFrame]:
    plan = plan_study(
        scenario,
        runs=runs,
        samples=options.get("samples"),
        oat_runs=options.get("oat_runs"),
        seed=seed,
    )
    tables: dict[str, pd.DataFrame] = {}
    run_study(
        plan,
        on_table=lambda point, table: tables.__setitem__(point.folder, _ordered(table)),
        execution=execution,
    )
    return tables


PLAYERS: dict[str, Player] = {
    "run": _play_run,
    "comparison": _play_comparison,
    "sweep": _play_sweep,
    "balance": _play_balance,
    "tournament": _play_tournament,
    "sensitivity": _play_sensitivity,
}


def report_block(results: Results) -> str:
    """The report's block for ``results`` (an empty string when they cannot be played again)."""
    try:
        return embed(record_of(results))
    except ResultsError:
        return ""
