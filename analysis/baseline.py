"""Baselines: record how a scenario plays today, and check later that a change did not move it.

``combatsim baseline SCENARIO`` plays the scenario and each of its variants and writes
``<scenario>.baseline.json`` next to it: runs, seed, rule options, the combatsim version, each
arm's summary, and each arm's winner of every combat (one byte per combat, zlib, base64).
A scenario's sections are arms too (:func:`section_arms`): every point of its ``sweep:``, every
cell of its ``strategies:`` tournament, and every arm of its ``sensitivity:`` study (the
scenario as written and each parameter alone at its low and at its high end), each with the
combats its section plays (or ``--section-runs``), so that a rule change anywhere in them is
seen.

``combatsim check`` plays the same combats again — same seed, same combat indices — and compares
each arm with its recorded self *combat by combat*. With nothing changed the rerun is identical,
so every difference is exactly 0 and nothing can be flagged. After a change, a side's win rate
has moved when McNemar's exact test on the combats whose outcome changed rejects "no change" at
alpha (0.05) after Holm's correction over every (scenario, variant, side) tested in the run, so a
whole CI job has at most a 5% chance of a false alarm. The sections' arms are a family of their
own, Holm-corrected together apart from the variants (so recording them changes no variant's
verdict, and a whole check has at most 5% for each family). ``--min-change`` further ignores
moves smaller than a given number of points.

With ``method="auto"`` (``combatsim baseline --method auto``) an arm that a chain plays is
recorded by its exact win rates instead of its combats, and ``check`` says whether it moved as
a fact (:mod:`analysis.exact_baseline`); the other arms are recorded and checked as above.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from rich.markup import escape
from rich.table import Table

from analysis.compare import (
    ALPHA,
    CORRECTION_METHOD,
    INTERVAL_METHOD,
    TEST_METHOD,
    RangePlayer,
    WinDifference,
    _console,
    holm,
    p_text,
    paired_win_difference,
    play_arms,
    play_range,
    points,
)
from analysis.exact_arms import ArmAnswer, arm_answer
from analysis.exact_baseline import (
    ExactCheckRow,
    exact_record,
    exact_rows,
    is_exact,
    recorded_rates,
    tested_rows,
)
from analysis.sensitivity_plan import plan_study
from analysis.sweep import plan_sweep
from analysis.tournament import plan_tournament
from sim.engine.errors import CommandError
from sim.engine.reading import NotAFile, read_regular
from sim.rules.wording import counted
from sim.run.files import write_text
from sim.run.outdir import FolderLock
from sim.run.records import DRAW
from sim.run.summary import summarize
from sim.run.version import __version__
from sim.scenario.describe import show as show_value
from sim.scenario.loader import load_scenario
from sim.scenario.variants import arms, variant_names, variant_overrides

if TYPE_CHECKING:
    from rich.console import Console

    from sim.scenario.schema import Scenario

#: What a baseline file ends with; it sits next to its scenario (``duel.yaml``,
#: ``duel.baseline.json``).
SUFFIX = ".baseline.json"
#: The format written in every baseline file.
FORMAT = "combatsim-baseline/1"
#: The byte a draw is written as in the winners (a side is its index).
DRAW_CODE = 255
#: Directories :func:`find_baselines` does not look into.
SKIPPED_DIRS = frozenset({"node_modules", "__pycache__", "venv", "site-packages"})
#: The most combats per arm a baseline may ask for (as ``--runs`` allows).
MAX_RUNS = 10**9
#: The largest seed (as ``--seed`` allows).
MAX_SEED = 2**63 - 1


class BaselineError(CommandError):
    """A baseline that cannot be used (missing, damaged, or no longer fits its scenario)."""


def baseline_path(scenario_path: str | Path) -> Path:
    """Where the baseline of a scenario file lives: ``x.yaml`` -> ``x.baseline.json``."""
    path = Path(scenario_path)
    return path.with_name(path.stem + SUFFIX)


def encode_winners(winners: Sequence[str], side_names: Sequence[str]) -> str:
    """Each combat's winner as one byte (side index, 255 for a draw), zlib, base64."""
    codes = {name: i for i, name in enumerate(side_names)}
    codes[DRAW] = DRAW_CODE
    raw = bytes(codes[w] for w in winners)
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def decode_winners(text: str, side_names: Sequence[str], limit: int = MAX_RUNS) -> np.ndarray:
    """The winners written by :func:`encode_winners`, as an array of side names and draws.

    Raises:
        ValueError: not base64 and zlib, more than ``limit`` winners, or a code naming no side.
    """
    inflate = zlib.decompressobj()
    raw = inflate.decompress(base64.b64decode(text.encode("ascii"), validate=True), limit + 1)
    if len(raw) > limit:
        raise ValueError(f"more than {limit} winners")
    names = np.array([*side_names, DRAW], dtype=object)
    codes = np.frombuffer(raw, dtype=np.uint8).astype(int)
    codes[codes == DRAW_CODE] = len(side_names)
    if codes.size and codes.max() > len(side_names):
        raise ValueError("a winner code that names no side")
    return names[codes]


def flat_values(data: Any, prefix: str = "") -> dict[str, Any]:
    """Every value of a scenario's data by its dotted path, variants left out.

    Lists of named items (sides, combatants) are addressed by name, as overrides address them
    (``sides.red.combatants.Red swordsman.hp``); other lists by index.
    """
    if isinstance(data, dict):
        items = [(str(k), v) for k, v in data.items() if not (prefix == "" and k == "variants")]
    elif isinstance(data, list):
        named = all(isinstance(v, dict) and isinstance(v.get("name"), str) for v in data)
        names = [v["name"] for v in data] if named else []
        unique = named and len(set(names)) == len(names)
        items = [(names[i] if unique else str(i), v) for i, v in enumerate(data)]
    else:
        return {prefix: data}
    flat: dict[str, Any] = {}
    for key, value in items:
        flat |= flat_values(value, f"{prefix}.{key}" if prefix else key)
    return flat


def value_changes(then: dict[str, Any], now: dict[str, Any], most: int = 6) -> str:
    """The values that moved, in words: ``path old → new`` (``-`` where there is none)."""

    def shown(values: dict[str, Any], key: str) -> str:
        return json.dumps(values[key], default=str) if key in values else "-"

    moved = [key for key in sorted(set(then) | set(now)) if then.get(key, ...) != now.get(key, ...)]
    text = "; ".join(f"{key} {shown(then, key)} → {shown(now, key)}" for key in moved[:most])
    return text + (f"; and {len(moved) - most} more" if len(moved) > most else "")


def fingerprint(scenario: Scenario) -> str:
    """A hash of what a scenario says (its data without the variants section)."""
    data = {k: v for k, v in scenario.data.items() if k != "variants"}
    text = json.dumps(data, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- the arms of a scenario's sections ----------------------------------------------------------

#: The family of the variants' tests, and of the sections' (Holm-corrected apart).
VARIANTS, SECTIONS = "variants", "sections"


@dataclass(frozen=True)
class SectionArm:
    """One arm of a scenario's sweep, tournament or study, as a baseline records it.

    Attributes:
        name: ``sweep[red hp=28]``, ``cell[charge.vs.hold]``, ``study[red hp low]``.
        section: ``sweep``, ``strategies`` or ``sensitivity``.
        scenario: the arm's scenario.
        runs: the combats its section plays (a sweep's ``runs``, a study's ``oat_runs``...).
    """

    name: str
    section: str
    scenario: Scenario
    runs: int


def section_arms(scenario: Scenario) -> list[SectionArm]:
    """Every point of the scenario's sweep, cell of its tournament and arm of its study.

    A study's arms are the scenario as written and each parameter alone at its low and its
    high end (its one-at-a-time points, which every parameter's whole range passes through);
    the Sobol design's points are a random sample of the same ranges, not recorded.
    """
    found: list[SectionArm] = []
    if scenario.data.get("sweep"):
        plan = plan_sweep(scenario)
        for point in plan.points:
            where = ", ".join(
                f"{p.label}={v}" for p, v in zip(plan.parameters, point.settings, strict=True)
            )
            found.append(SectionArm(f"sweep[{where}]", "sweep", point.scenario, plan.runs))
    if scenario.data.get("strategies"):
        tour = plan_tournament(scenario)
        for i, row in enumerate(tour.rows):
            for j, column in enumerate(tour.columns):
                name = f"cell[{row.name}.vs.{column.name}]"
                found.append(SectionArm(name, "strategies", tour.cells[i][j], tour.runs))
    if scenario.data.get("sensitivity"):
        study = plan_study(scenario)
        found.append(
            SectionArm("study[as written]", "sensitivity", study.base.scenario, study.oat_runs)
        )
        for factor, (low, high) in zip(study.factors, study.oat, strict=True):
            for end, at in (("low", low), ("high", high)):
                name = f"study[{factor.label} {end}]"
                found.append(SectionArm(name, "sensitivity", at.scenario, study.oat_runs))
    return found


def _play_by_runs(
    chosen: dict[str, Scenario], runs: dict[str, int], seed: int, play: RangePlayer
) -> dict[str, pd.DataFrame]:
    """Each arm's outcomes of combats ``0 .. runs[arm] - 1`` (arms of equal runs together)."""
    tables: dict[str, pd.DataFrame] = {}
    for count in dict.fromkeys(runs[name] for name in chosen):
        group = {name: arm for name, arm in chosen.items() if runs[name] == count}
        table = play_arms(group, seed, 0, count, play)
        for name in group:
            tables[name] = table[table["variant"] == name]
    return tables


# -- recording --------------------------------------------------------------------------------


def record_baseline(
    scenario_path: str | Path,
    runs: int | None = None,
    seed: int | None = None,
    play: RangePlayer = play_range,
    section_runs: int | None = None,
    method: str = "sample",
) -> dict[str, Any]:
    """Play a scenario, all its variants and its sections' arms; return the baseline to write.

    Args:
        scenario_path: the scenario file.
        runs: combats of the base and of each variant (default: the scenario's runs).
        seed: the seed of every arm (default: the scenario's).
        play: what plays a range of combats (a parallel runner can stand in).
        section_runs: combats of each sweep point, tournament cell and study arm (default:
            what its section plays).
        method: ``sample`` (every arm by its combats), ``auto`` (an arm a chain plays by its
            exact win rates, each arm decided on its own) or ``exact`` (every arm exactly).

    Raises:
        ScenarioError: the scenario cannot be used.
        NotExact, TooManyStates: under ``exact``, an arm no chain plays or over the cap.
    """
    path = Path(scenario_path)
    scenario = load_scenario(path)
    runs = scenario.runs if runs is None else runs
    seed = scenario.seed if seed is None else seed
    chosen = arms(scenario)
    counts = dict.fromkeys(chosen, runs)
    sections = {arm.name: arm for arm in section_arms(scenario)}
    for name, found in sections.items():
        chosen[name] = found.scenario
        counts[name] = section_runs or found.runs
    exact = _exact_arms(chosen, method)
    played = _play_by_runs(
        {name: arm for name, arm in chosen.items() if name not in exact}, counts, seed, play
    )
    variants: dict[str, dict[str, Any]] = {}
    for name, arm in chosen.items():
        section = sections.get(name)
        variants[name] = {
            "overrides": variant_overrides(scenario, name) if section is None else arm.applied,
            "options": arm.option_values(),
            "fingerprint": fingerprint(arm),
            "values": flat_values(arm.data),
        }
        if name in exact:
            variants[name] |= exact_record(exact[name])
        else:
            rows = played[name]
            summary = summarize(rows, scenario.side_names, scenario.name, seed)
            for key in ("kind", "scenario", "seed", "runs"):
                summary.pop(key)
            winners = encode_winners(list(rows["winner"]), scenario.side_names)
            variants[name] |= {"summary": summary, "winners": winners}
        if section is not None:
            variants[name]["section"] = section.section
            if name not in exact:
                variants[name]["runs"] = counts[name]
    asked = {"method": method} if method != "sample" else {}
    return {
        "format": FORMAT,
        "scenario": scenario.name,
        "scenario_file": path.name,
        "combatsim_version": __version__,
        "rules": scenario.rules,
        "runs": runs,
        "seed": seed,
        "sides": list(scenario.side_names),
        "winners_encoding": "one byte per combat in combat order (side index, 255 = draw), "
        "zlib-compressed, base64",
        "variants": variants,
        **asked,
    }


def _exact_arms(chosen: dict[str, Scenario], method: str) -> dict[str, ArmAnswer]:
    """The arms answered exactly under ``method`` (each arm on its own: none under sample)."""
    if method == "sample":
        return {}
    answers = (arm_answer(name, arm, method) for name, arm in chosen.items())
    return {answer.name: answer for answer in answers if answer.summary is not None}


def write_baseline(baseline: dict[str, Any], path: str | Path) -> Path:
    """Write a baseline file atomically, holding its folder's lock (:mod:`sim.run.outdir`).

    Raises:
        WriteError: the file cannot be written (the message names the path and the cause).
        FolderBusy: another combatsim is writing into that folder.
    """
    target = Path(path)
    with FolderLock(target.parent):
        return write_text(target, json.dumps(baseline, indent=2) + "\n")


def read_baseline(path: str | Path) -> dict[str, Any]:
    """Read and check a baseline file.

    Raises:
        BaselineError: it is missing, not JSON, or not a combatsim baseline.
    """
    path = Path(path)
    redo = "re-record it with `combatsim baseline`"
    try:
        data = json.loads(read_regular(path).decode("utf-8"))
    except FileNotFoundError:
        raise BaselineError(f"{path}: no such baseline file") from None
    except NotAFile as exc:
        raise BaselineError(f"{path}: {exc.strerror}; give a baseline file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BaselineError(f"{path}: not a readable JSON baseline ({exc}); {redo}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise BaselineError(f"{path}: format {found!r}, expected {FORMAT!r}; {redo}")
    problems = []
    for key, kind in (
        ("scenario_file", str),
        ("runs", int),
        ("seed", int),
        ("sides", list),
        ("variants", dict),
    ):
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            problems.append(key)
    if "runs" not in problems and not 1 <= data["runs"] <= MAX_RUNS:
        problems.append(f"runs (found {data['runs']}, expected 1 to {MAX_RUNS:,})")
    if "seed" not in problems and not 0 <= data["seed"] <= MAX_SEED:
        problems.append(f"seed (found {data['seed']}, expected 0 to 2**63 - 1)")
    sides: list[Any] = data["sides"] if isinstance(data.get("sides"), list) else []
    if "sides" not in problems and (
        len(sides) < 2
        or not all(isinstance(side, str) for side in sides)
        or len(set(sides)) != len(sides)
    ):
        problems.append("sides (expected two or more different side names)")
    variants: dict[str, Any] = data["variants"] if isinstance(data.get("variants"), dict) else {}
    if "base" not in variants:
        problems.append("variants.base")
    for name, arm in variants.items():
        if isinstance(arm, dict) and is_exact(arm):
            try:
                recorded_rates(arm, tuple(sides))
            except (KeyError, TypeError, ValueError, ZeroDivisionError):
                problems.append(f"variants.{name}.summary.fractions (exact win rates)")
            continue
        if not isinstance(arm, dict) or not isinstance(arm.get("winners"), str):
            problems.append(f"variants.{name}.winners")
            continue
        own = arm.get("runs", 1)
        if isinstance(own, bool) or not isinstance(own, int) or not 1 <= own <= MAX_RUNS:
            problems.append(f"variants.{name}.runs (found {own!r}, expected 1 to {MAX_RUNS:,})")
    if problems:
        raise BaselineError(f"{path}: missing or malformed {', '.join(problems)}; {redo}")
    return data


# -- checking ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckRow:
    """One side of one arm of one scenario: its win rate now against its baseline.

    ``diff`` compares the baseline (as ``base``) with the rerun (as ``variant``): its
    ``difference`` is now - baseline, its p-values McNemar's exact test, Holm-corrected over the
    whole check.
    """

    scenario: str
    file: str
    diff: WinDifference
    moved: bool = False
    #: :data:`VARIANTS` (the base and the variants) or :data:`SECTIONS` (a sweep's points, a
    #: tournament's cells, a study's arms): each family is Holm-corrected on its own.
    family: str = VARIANTS

    @property
    def variant(self) -> str:
        """The arm (``base`` or a variant)."""
        return self.diff.variant

    @property
    def side(self) -> str:
        """The side."""
        return self.diff.side

    def sentence(self) -> str:
        """What moved, in words."""
        d = self.diff
        low, high = d.ci95
        return (
            f"{self.scenario} ({self.file}), variant {d.variant}, side {d.side}: win rate "
            f"{d.base_rate:.1%} → {d.variant_rate:.1%} ({points(d.difference)} points, 95% CI "
            f"{points(low)} to {points(high)}; {counted(d.base_only, 'combat')} lost and "
            f"{d.variant_only} gained; McNemar exact p{_eq(d.p_value)}, Holm p{_eq(d.p_holm)})"
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        d = self.diff.to_dict()
        d["baseline_win_rate"] = d.pop("base_win_rate")
        d["current_win_rate"] = d.pop("variant_win_rate")
        d["baseline_only"] = d.pop("base_only")
        d["current_only"] = d.pop("variant_only")
        d.pop("base_wins")
        d.pop("variant_wins")
        return {
            "scenario": self.scenario,
            "file": self.file,
            **d,
            "family": self.family,
            "moved": self.moved,
        }


@dataclass
class ScenarioCheck:
    """The rerun of one baseline.

    Attributes:
        baseline: the baseline file.
        file: the scenario file.
        scenario: its name.
        runs: combats per arm.
        seed: the seed.
        rows: one per arm and side.
        changed: per arm, combats whose outcome differs from the baseline's.
        arm_runs: per arm, the combats it replayed (a section's arms may play fewer).
        notes: what else differs (options, the scenario, the version, variants added or gone).
    """

    baseline: str
    file: str
    scenario: str
    runs: int
    seed: int
    rows: list[CheckRow]
    changed: dict[str, int]
    notes: list[str] = field(default_factory=list)
    arm_runs: dict[str, int] = field(default_factory=dict)
    #: The sides of the arms recorded exactly (:mod:`analysis.exact_baseline`).
    exact_rows: list[ExactCheckRow] = field(default_factory=list)

    @property
    def combats(self) -> str:
        """The combats replayed, in words: ``1000 × 5``, ``1000 × 1 + 200 × 9``, ``exact × 3``."""
        by_runs: dict[int, int] = {}
        for name in self.changed:
            count = self.arm_runs.get(name, self.runs)
            by_runs[count] = by_runs.get(count, 0) + 1
        parts = [f"{count} × {arms}" for count, arms in by_runs.items()]
        solved = {r.variant for r in self.exact_rows if r.current is not None}
        sampled = {r.variant for r in self.exact_rows if r.current is None}
        if sampled:
            parts.append(f"{self.runs} × {len(sampled)}")
        if solved:
            parts.append(f"exact × {len(solved)}")
        return " + ".join(parts)


@dataclass
class CheckReport:
    """Every baseline checked, with the verdicts after Holm's correction over all rows."""

    checks: list[ScenarioCheck]
    alpha: float = ALPHA
    min_change: float = 0.0

    @property
    def rows(self) -> list[CheckRow]:
        """Every row of every scenario."""
        return [row for check in self.checks for row in check.rows]

    @property
    def exact_rows(self) -> list[ExactCheckRow]:
        """Every side of every arm recorded exactly."""
        return [row for check in self.checks for row in check.exact_rows]

    @property
    def moved(self) -> list[CheckRow | ExactCheckRow]:
        """The rows whose win rate moved."""
        exact: list[CheckRow | ExactCheckRow] = [row for row in self.exact_rows if row.moved]
        return [row for row in self.rows if row.moved] + exact

    def tests(self, family: str) -> int:
        """How many tests of a family (:data:`VARIANTS` or :data:`SECTIONS`) the check ran.

        An arm recorded exactly counts only when it was sampled now (solved, it is no test).
        """
        tested = sum(r.family == family and r.p_value is not None for r in self.exact_rows)
        return sum(row.family == family for row in self.rows) + tested

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "ok": not self.moved,
            "alpha": self.alpha,
            "min_change": self.min_change,
            "methods": {
                "pairing": "each arm replays the baseline's combats (same seed and indices)",
                "difference": "current - baseline, combat by combat",
                "interval": INTERVAL_METHOD,
                "test": TEST_METHOD,
                "correction": f"{CORRECTION_METHOD} over the {self.tests(VARIANTS)} tests of the "
                f"base and the variants, and apart over the {self.tests(SECTIONS)} tests of the "
                "sections' arms (sweep points, tournament cells, study arms)",
            },
            "scenarios": [
                {
                    "baseline": c.baseline,
                    "file": c.file,
                    "scenario": c.scenario,
                    "runs": c.runs,
                    "seed": c.seed,
                    "changed_outcome": c.changed,
                    "notes": c.notes,
                    "rows": [row.to_dict() for row in c.rows]
                    + [row.to_dict() for row in c.exact_rows],
                }
                for c in self.checks
            ],
            "moved": [row.to_dict() for row in self.moved],
        }


def find_baselines(paths: Iterable[str | Path]) -> list[Path]:
    """The baseline files named by ``paths``: baseline files, scenario files, or directories.

    A directory is searched recursively (hidden directories and virtualenvs skipped); a scenario
    file must have its baseline next to it.

    Raises:
        BaselineError: a path does not exist, or a scenario file has no baseline.
    """
    found: list[Path] = []
    for item in paths:
        path = Path(item)
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
                found.extend(Path(root) / f for f in sorted(files) if f.endswith(SUFFIX))
        elif path.name.endswith(SUFFIX):
            if not path.exists():
                raise BaselineError(f"{path}: no such baseline file")
            found.append(path)  # read_baseline refuses a pipe or a device, never waits on it
        elif path.exists():
            candidate = baseline_path(path)
            if not candidate.exists():
                raise BaselineError(
                    f"{path}: no baseline ({candidate.name}); record one with "
                    f"`combatsim baseline {path}`"
                )
            found.append(candidate)
        else:
            raise BaselineError(f"{path}: no such file or directory")
    return list(dict.fromkeys(found))


def scenario_of(path: Path, baseline: dict[str, Any]) -> Path:
    """The scenario file a baseline names, resolved next to it and kept inside its folder.

    A baseline is data that may come from anywhere (a pull request, a download): the scenario
    it names must be a file inside the baseline's own folder tree, never an absolute path or
    a ``../`` out of it, so checking a baseline reads nothing else.

    Raises:
        BaselineError: the name leads out of the folder, or to no file.
    """
    name = baseline["scenario_file"]
    if not isinstance(name, str) or "\x00" in name:
        raise BaselineError(
            f"{path}: its scenario_file {show_value(name)} is not a file name (expected the "
            "name of the scenario file next to the baseline); re-record it with "
            "`combatsim baseline SCENARIO`"
        )
    folder = path.parent.resolve()
    shown = repr(name if len(name) <= 80 else name[:79] + "…")
    candidate = (folder / name).resolve()
    if Path(name).is_absolute() or not candidate.is_relative_to(folder):
        raise BaselineError(
            f"{path}: its scenario_file {shown} leads out of the baseline's folder ({folder}); "
            "a baseline names its scenario by a path inside its own folder. Re-record it with "
            "`combatsim baseline SCENARIO`"
        )
    if not candidate.exists():
        raise BaselineError(f"{path}: its scenario {path.parent / name} does not exist")
    return path.parent / name


def unrecorded_scenarios(paths: Iterable[str | Path]) -> list[Path]:
    """Scenario files in the directories of ``paths`` that have no baseline next to them.

    A directory's check finds baselines; a scenario there without one is not checked at all,
    and ``check`` says so. A scenario file is a ``.yaml`` file with a top-level ``rules:`` key
    (read as text, not parsed: this only names files).
    """
    found: list[Path] = []
    for item in paths:
        path = Path(item)
        if not path.is_dir():
            continue
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
            for name in sorted(files):
                candidate = Path(root) / name
                if name.endswith((".yaml", ".yml")) and not baseline_path(candidate).is_file():
                    try:
                        text = candidate.read_text(encoding="utf-8", errors="replace")
                    except OSError:
                        continue
                    if re.search(r"^rules:", text, re.M):
                        found.append(candidate)
    return found


def check_baseline(path: str | Path, play: RangePlayer = play_range) -> ScenarioCheck:
    """Replay a baseline's combats and compare them with it (p-values not yet corrected).

    Raises:
        BaselineError: the baseline is damaged or no longer fits its scenario.
        ScenarioError: the scenario cannot be used.
    """
    path = Path(path)
    baseline = read_baseline(path)
    scenario_file = scenario_of(path, baseline)
    scenario = load_scenario(scenario_file)
    sides = tuple(baseline["sides"])
    if scenario.side_names != sides:
        raise BaselineError(
            f"{path}: the scenario's sides are now {', '.join(scenario.side_names)}, the "
            f"baseline's {', '.join(sides)}; re-record it with `combatsim baseline "
            f"{scenario_file}`"
        )
    recorded = baseline["variants"]
    sections = {arm.name: arm for arm in section_arms(scenario)}
    current = ["base", *variant_names(scenario), *sections]
    notes = []
    gone = [name for name in recorded if name not in current]
    new = [name for name in current if name not in recorded]
    if gone:
        notes.append(f"not in the scenario any more, not checked: {', '.join(gone)}")
    if new:
        notes.append(
            f"no baseline yet, not checked: {', '.join(new)} (run `combatsim baseline` to add)"
        )
    kept = [name for name in current if name in recorded]
    chosen = arms(scenario, [name for name in kept if name not in sections])
    chosen |= {name: sections[name].scenario for name in kept if name in sections}
    runs, seed = int(baseline["runs"]), int(baseline["seed"])
    counts = {name: int(recorded[name].get("runs", runs)) for name in chosen}
    exact = [name for name in chosen if is_exact(recorded[name])]
    # The recorded winners are read before anything is played: a damaged baseline (runs that do
    # not match its winners) is refused at once instead of playing its runs.
    recorded_winners = {}
    for name in chosen:
        if name in exact:
            continue
        try:
            then = decode_winners(recorded[name]["winners"], sides, counts[name])
        except (ValueError, zlib.error) as exc:
            raise BaselineError(f"{path}: the winners of {name} cannot be read ({exc})") from None
        if then.size != counts[name]:
            raise BaselineError(f"{path}: {then.size} winners of {name} for {counts[name]} runs")
        recorded_winners[name] = then
    solved = {name: arm_answer(name, chosen[name], "auto") for name in exact}
    tables = _play_by_runs(
        {name: arm for name, arm in chosen.items() if solved.get(name, _UNSOLVED).summary is None},
        counts,
        seed,
        play,
    )
    rows: list[CheckRow] = []
    exact_checked: list[ExactCheckRow] = []
    changed: dict[str, int] = {}
    option_notes: dict[str, list[str]] = {}
    edited: dict[str, list[str]] = {}
    where = (scenario.name, str(scenario_file))
    for name, arm in chosen.items():
        family = SECTIONS if name in sections else VARIANTS
        if name in exact:
            rates = recorded_rates(recorded[name], sides)
            answer = solved[name]
            if answer.summary is not None:
                exact_checked += exact_rows(where, name, family, rates, answer)
            else:
                winners = list(tables[name]["winner"])
                exact_checked += tested_rows(where, name, family, rates, winners, answer.reason)
        else:
            then = recorded_winners[name]
            now = tables[name]["winner"].to_numpy()
            changed[name] = int(np.count_nonzero(then != now))
            for side in sides:
                diff = paired_win_difference(then == side, now == side, name, side)
                rows.append(CheckRow(scenario.name, str(scenario_file), diff, family=family))
        options = _option_changes(recorded[name].get("options"), arm)
        if options:
            option_notes.setdefault(options, []).append(name)
        if recorded[name].get("fingerprint") not in (None, fingerprint(arm)):
            then_values = recorded[name].get("values")
            moved = (
                value_changes(then_values, flat_values(arm.data))
                if isinstance(then_values, dict)
                else "which ones is not recorded in this baseline (recorded before values "
                f"were); re-record it with `combatsim baseline {scenario_file}` to see them "
                "next time"
            )
            edited.setdefault(moved, []).append(name)
    notes += _grouped(option_notes, "rule options changed in {arms}: {text}")
    notes += _grouped(edited, "the scenario's values differ from the baseline's in {arms}: {text}")
    version = baseline.get("combatsim_version")
    if version and version != __version__:
        notes.append(f"baseline recorded with combatsim {version}; this is {__version__}")
    return ScenarioCheck(
        baseline=str(path),
        file=str(scenario_file),
        scenario=scenario.name,
        runs=runs,
        seed=seed,
        rows=rows,
        changed=changed,
        notes=notes,
        arm_runs=counts,
        exact_rows=exact_checked,
    )


#: An arm not recorded exactly: sampled as it always was.
_UNSOLVED = ArmAnswer("", "sample", "recorded by its combats", None)


def check(
    paths: Sequence[str | Path],
    alpha: float = ALPHA,
    min_change: float = 0.0,
    play: RangePlayer = play_range,
) -> CheckReport:
    """Check every baseline under ``paths``; Holm-correct over all of their tests together.

    Raises:
        BaselineError: no baseline found, or one cannot be used.
        ScenarioError: a scenario cannot be used.
    """
    files = find_baselines(paths)
    if not files:
        shown = ", ".join(map(str, paths))
        raise BaselineError(
            f"no baseline files (*{SUFFIX}) under {shown}; record one with "
            "`combatsim baseline SCENARIO`"
        )
    checks = [check_baseline(file, play) for file in files]
    rows = [row for c in checks for row in c.rows]
    # An exactly recorded arm sampled now is tested too, in its family's correction.
    tested = [row for c in checks for row in c.exact_rows if row.p_value is not None]
    p_values = [row.diff.p_value for row in rows] + [row.p_value or 0.0 for row in tested]
    families = [row.family for row in rows] + [row.family for row in tested]
    adjusted: dict[int, float] = {}
    for family in (VARIANTS, SECTIONS):
        members = [i for i, kind in enumerate(families) if kind == family]
        adjusted |= zip(members, holm([p_values[i] for i in members]), strict=True)
    numbered = iter(range(len(rows)))
    for c in checks:
        corrected = []
        for row in c.rows:
            p = adjusted[next(numbered)]
            diff = replace(row.diff, p_holm=p, significant=bool(p < alpha))
            moved = diff.significant and abs(diff.difference) >= min_change
            corrected.append(replace(row, diff=diff, moved=moved))
        c.rows = corrected
    holm_of = {id(row): adjusted[len(rows) + k] for k, row in enumerate(tested)}
    for c in checks:
        c.exact_rows = [
            replace(row, p_holm=holm_of.get(id(row))).judged(alpha, min_change)
            for row in c.exact_rows
        ]
    return CheckReport(checks, alpha, min_change)


def _eq(p: float) -> str:
    text = p_text(p)
    return text if text.startswith("<") else f"={text}"


def _option_changes(then: Any, arm: Scenario) -> str:
    """The rule options that differ from the baseline's, in words ("" when none)."""
    if not isinstance(then, dict):
        return ""
    now = arm.option_values()
    return "; ".join(
        f"{key} {json.dumps(then.get(key))} → {json.dumps(now.get(key))}"
        for key in sorted(set(then) | set(now))
        if then.get(key) != now.get(key)
    )


def _grouped(notes: dict[str, list[str]], template: str) -> list[str]:
    """One note per distinct text, naming the arms it applies to."""
    return [template.format(arms=", ".join(arms), text=text) for text, arms in notes.items()]


# -- on the terminal --------------------------------------------------------------------------


def render_baseline(baseline: dict[str, Any], path: Path, console: Console | None = None) -> None:
    """Print what a baseline recorded."""
    console = console or _console()
    console.print(
        f"{baseline['scenario']} — baseline of {counted(baseline['runs'], 'combat')} per arm, seed "
        f"{baseline['seed']}",
        highlight=False,
        markup=False,
    )
    table = Table()
    for name in ("variant", "side", "win rate", "95% CI (Wilson)"):
        table.add_column(name, justify="left" if name in ("variant", "side") else "right")
    for name, arm in baseline["variants"].items():
        for side, values in arm["summary"]["sides"].items():
            low, high = values["ci95"]
            interval = "exact" if is_exact(arm) else f"{low:.1%} – {high:.1%}"
            table.add_row(escape(name), escape(side), f"{values['win_rate']:.1%}", interval)
    console.print(table)
    console.print(f"wrote {path}", highlight=False, markup=False)


def render_check(report: CheckReport, console: Console | None = None) -> None:
    """Print a short table per scenario, then every win rate that moved, in words."""
    console = console or _console()
    table = Table(title="combatsim check", title_justify="left")
    for name in (
        "scenario",
        "combats",
        "tests",
        "outcome changed",
        "largest Δ points",
        "lowest p Holm",
        "",
    ):
        table.add_column(name, justify="left" if name in ("scenario", "") else "right")
    for c in report.checks:
        differences = [r.diff.difference for r in c.rows] + [r.difference for r in c.exact_rows]
        largest = max(differences, key=abs, default=None)
        p_holms = [r.diff.p_holm for r in c.rows]
        p_holms += [r.p_holm for r in c.exact_rows if r.p_holm is not None]
        moved = [r for r in c.rows if r.moved] + [r for r in c.exact_rows if r.moved]
        exact_count = sum(r.current is not None for r in c.exact_rows)
        tested = str(len(c.rows) + len(c.exact_rows) - exact_count)
        table.add_row(
            escape(Path(c.file).name),
            c.combats,
            f"{tested} + {exact_count} exact" if exact_count else tested,
            str(sum(c.changed.values())),
            points(largest) if largest is not None else "–",
            p_text(min(p_holms, default=float("nan"))),
            f"MOVED ({len(moved)})" if moved else "did not move" if exact_count else "unchanged",
        )
    console.print(table)
    for c in report.checks:
        for note in c.notes:
            console.print(f"note: {Path(c.file).name}: {note}", highlight=False, markup=False)
    tests, sections = report.tests(VARIANTS), report.tests(SECTIONS)
    apart = (
        f" (and apart over the {sections} tests of sweep points, tournament cells and study arms)"
        if sections
        else ""
    )
    method = (
        f"Each arm replayed the baseline's combats (same seed, same combat indices) and was "
        f"compared with it combat by combat: McNemar's exact test on the combats a side won in "
        f"one run only, Holm correction over all {tests} tests{apart}, α = {report.alpha:g}"
        + (f", moves under {report.min_change * 100:g} points ignored" if report.min_change else "")
        + "."
    )
    solved = [r for r in report.exact_rows if r.current is not None]
    if tests or sections or not solved:
        console.print(method, highlight=False, markup=False)
    if report.exact_rows:
        console.print(
            f"method: exact for the {counted(len(solved), 'win rate')} recorded exactly and "
            "solved again (a Markov chain, no combat): moved or did not move is a fact, not a "
            "test"
            + (
                "; an arm recorded exactly that no chain plays now is sampled and tested against "
                "its exact rate (exact binomial test, in the same Holm correction)"
                if len(solved) < len(report.exact_rows)
                else ""
            )
            + ".",
            highlight=False,
            markup=False,
        )
    if report.moved:
        console.print(
            f"{counted(len(report.moved), 'win rate')} moved:",
            style="bold red",
            highlight=False,
            markup=False,
        )
        for row in report.moved:
            console.print(f"  MOVED: {row.sentence()}", highlight=False, markup=False)
    else:
        console.print("nothing moved.", highlight=False, markup=False)
