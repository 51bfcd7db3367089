"""What each kind of job of the page does: the same library calls as the command, into a folder.

Each function here is the body of one command of ``sim/cli`` without its printing: it plays with
the same :mod:`analysis` function, writes the same results folder (so ``combatsim report``,
``plot`` and the page read it alike), under the same one-writer rule (:func:`own_folder`, or
:class:`FolderLock` where the command takes that). What it adds is the page's progress and
cancel, through the callbacks the library offers (``on_point``, ``on_cell``, ``play=``) and the
run adapter :mod:`sim.web.runapi`.

The page gets each function's sentence when it is done; a failure is raised (a scenario's
problems as :class:`~sim.scenario.problems.ScenarioError`, a refusal as a
:class:`~sim.engine.errors.CommandError`), and :mod:`sim.web.jobs` shows it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analysis.balance import find_balance
from analysis.charts import draw_results
from analysis.compare import compare, compare_arms
from analysis.plots import plot_balance, save_figure
from analysis.results import read_results
from analysis.sensitivity_plots import draw_study
from analysis.sensitivity_study import StudyPoint, plan_study, run_study
from analysis.sweep import plan_sweep, run_sweep
from analysis.tournament import plan_tournament, run_tournament
from sim.engine.errors import CommandError
from sim.run.files import write_text
from sim.run.outdir import FolderLock, own_folder
from sim.scenario.loader import parse_scenario
from sim.scenario.schema import Scenario
from sim.web.jobs import Job
from sim.web.runapi import Cancelled, play, range_player, turn
from sim.web.workspace import Workspace

#: The name of the changed arm of a "change this stat" comparison.
TWEAK_ARM = "changed"


@dataclass(frozen=True)
class Ask:
    """What the page asked for: the scenario file, the results folder, and the options.

    Attributes:
        scenario: the scenario file as the page names it.
        out: the results folder (inside the working folder).
        runs: combats (per arm, point, pairing), or None for the scenario's own.
        seed: the seed, or None for the scenario's own.
        options: the other choices of that kind of job (a balance's parameter and target...).
    """

    scenario: str
    out: Path
    runs: int | None = None
    seed: int | None = None
    options: Mapping[str, Any] | None = None

    def option(self, key: str, default: Any = None) -> Any:
        """One of :attr:`options`."""
        return (self.options or {}).get(key, default)


def load(workspace: Workspace, name: str, overrides: Mapping[str, Any] | None = None) -> Scenario:
    """A scenario file of the page, through the loader (the messages name it as the page does)."""
    text, _version = workspace.read(name)
    return parse_scenario(text, name, overrides)


def _stop_if_cancelled(job: Job) -> None:
    if job.cancel.is_set():
        raise Cancelled


# -- the kinds ------------------------------------------------------------------------------------


def run(workspace: Workspace, job: Job, ask: Ask) -> str:
    """``combatsim run SCENARIO --out OUT``."""
    scenario = load(workspace, ask.scenario)
    runs = scenario.runs if ask.runs is None else ask.runs
    seed = scenario.seed if ask.seed is None else ask.seed
    job.advance(0, runs)
    with own_folder(ask.out):
        result = play(scenario, runs, seed, out=ask.out, progress=job.advance, cancel=job.cancel)
    return f"{result.runs:,} combats played, seed {seed}"


def comparison(workspace: Workspace, job: Job, ask: Ask) -> str:
    """``combatsim compare SCENARIO [--variant NAME]... --out OUT``."""
    base = load(workspace, ask.scenario)
    variants = list(ask.option("variants") or []) or None
    arms = 1 + (len(variants) if variants else len(base.data.get("variants") or []))
    runs = base.runs if ask.runs is None else ask.runs
    return _compared(
        job,
        ask,
        arms * runs,
        lambda play: compare(base, runs, ask.seed, variants=variants, play=play),
    )


def tweak(workspace: Workspace, job: Job, ask: Ask) -> str:
    """A "change this stat and run again": the results' scenario against it with the change.

    Both arms play the same combats (combat k of each uses the dice of the seed and k), so the
    difference is paired, as ``combatsim compare`` measures a variant.
    """
    source = Path(ask.scenario)
    results = read_results(workspace.path(ask.scenario, must_exist=True))
    text = results.scenario_text
    if not text:
        raise CommandError(f"{ask.scenario} keeps no scenario.yaml: nothing to change")
    changes = dict(ask.option("changes") or {})
    if not changes:
        raise CommandError("no change asked for")
    file = str(results.meta.get("file") or source / "scenario.yaml")
    base = parse_scenario(text, file)
    changed = parse_scenario(text, file, changes)
    runs = results.runs if ask.runs is None else ask.runs
    seed = results.seed if ask.seed is None else ask.seed
    label = ", ".join(f"{path} = {value}" for path, value in changes.items())
    arms = {"base": base, label: changed}
    return _compared(job, ask, 2 * runs, lambda play: compare_arms(arms, runs, seed, play=play))


def _compared(job: Job, ask: Ask, total: int, make: Any) -> str:
    """Play a comparison with the page's progress and cancel, and save it as ``compare --out``."""
    job.advance(0, total)
    played = [0]

    def more(combats: int) -> None:
        played[0] += combats
        job.advance(played[0])

    with own_folder(ask.out):
        result = make(range_player(more, job.cancel))
        result.save(ask.out)
    return f"{len(result.arms)} arms of {result.runs:,} combats compared, seed {result.seed}"


def sweep(workspace: Workspace, job: Job, ask: Ask) -> str:
    """``combatsim sweep SCENARIO --out OUT`` (its charts drawn into OUT/plots)."""
    plan = plan_sweep(load(workspace, ask.scenario), runs=ask.runs)
    job.advance(0, len(plan.points) * plan.runs)

    def point_done(point: Any, result: Any) -> None:
        job.advance(job.done + result.runs)
        job.step = f"point {point.index + 1} of {len(plan.points)}"
        _stop_if_cancelled(job)

    with own_folder(ask.out):
        with turn():
            result = run_sweep(plan, seed=ask.seed, on_point=point_done)
        result.save(ask.out)
        draw_results(read_results(ask.out))
    return f"{len(plan.points)} points of {plan.runs:,} combats"


def balance(workspace: Workspace, job: Job, ask: Ask) -> str:
    """``combatsim balance SCENARIO --param PATH --target T --out OUT``.

    The balance search offers no progress: the page shows it as under way. A cancel is seen when
    the search is over, before anything is written.
    """
    path = ask.option("param")
    if not path:
        raise CommandError("a balance needs the parameter to move (its dotted path)")
    scenario = load(workspace, ask.scenario)
    job.step = f"searching {path}"
    with turn():
        result = find_balance(
            scenario,
            str(path),
            float(ask.option("target", 0.5)),
            ask.option("side") or None,
            runs=ask.runs or 400,
            seed=ask.seed,
        )
    _stop_if_cancelled(job)
    with FolderLock(ask.out):
        write_text(ask.out / "balance.json", json.dumps(result.to_dict(), indent=2) + "\n")
        save_figure(plot_balance(result), ask.out, "balance")
    if result.value is None:
        return "no crossing: the fitted curve is flat"
    return f"balance point {result.value:.4g} ({result.verdict()})"


def tournament(workspace: Workspace, job: Job, ask: Ask) -> str:
    """``combatsim tournament SCENARIO --out OUT`` (each pairing streamed into OUT/cells)."""
    plan = plan_tournament(load(workspace, ask.scenario))
    runs = plan.runs if ask.runs is None else ask.runs
    cells = len(plan.rows) * len(plan.columns)
    job.advance(0, cells * runs)
    job.kept = f"the pairings played are kept in {ask.out.name}/cells: run it again to continue"

    def cell(number: int, total: int, row: Any, column: Any) -> None:
        _stop_if_cancelled(job)
        job.advance((number - 1) * runs)
        job.step = f"pairing {number} of {total}: {row.name} against {column.name}"

    with own_folder(ask.out):
        with turn():
            result = run_tournament(plan, runs, ask.seed, out=ask.out, on_cell=cell)
        job.advance(cells * runs)
        result.save(ask.out, plan.scenario)
    return f"{cells} pairings of {runs:,} combats: {result.verdict()}"


def sensitivity(workspace: Workspace, job: Job, ask: Ask) -> str:
    """``combatsim sensitivity SCENARIO --out OUT`` (each point streamed: run again to continue)."""
    plan = plan_study(
        load(workspace, ask.scenario), runs=ask.runs, samples=ask.option("samples"), seed=ask.seed
    )
    job.advance(0, plan.combats)
    job.kept = f"the points played are kept in {ask.out.name}: run it again to continue"

    def point_done(point: StudyPoint) -> None:
        job.advance(job.done + point.runs)
        _stop_if_cancelled(job)

    with own_folder(ask.out):
        with turn():
            study = run_study(plan, ask.out, on_point=point_done)
        study.save(ask.out)
        draw_study(ask.out, study.summary)
    return f"verdict: {study.verdict.sentence}"


#: Every kind of job, by the name the page uses.
KINDS = {
    "run": run,
    "compare": comparison,
    "sweep": sweep,
    "balance": balance,
    "tournament": tournament,
    "sensitivity": sensitivity,
    "tweak": tweak,
}
