"""What each kind of job of the page does: the same library calls as the command, into a folder.

Each function here is the body of one command of ``sim/cli`` without its printing: it plays with
the same :mod:`analysis` function, writes the same results folder (job.json and a run folder
per arm, point or pairing, streamed chunk by chunk), under the same one-writer rule
(:func:`own_folder`), so ``combatsim report``, ``plot`` and the page read it alike, and a job
stopped by its Cancel button or by the server stopping is finished by the page's "continue"
(``Ask.resume``) or by the command with ``--resume``. What it adds is the page's progress and
cancel: through the run API (:mod:`sim.web.runapi`) for a run and each arm of a comparison,
within the arm; through the callbacks the analysis functions offer (``on_point``, ``on_cell``)
for a sweep, a tournament and a study, between their points and pairings.

The page gets each function's sentence when it is done; a failure is raised (a scenario's
problems as :class:`~sim.scenario.problems.ScenarioError`, a refusal as a
:class:`~sim.engine.errors.CommandError`), and :mod:`sim.web.jobs` shows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analysis.balance import find_balance
from analysis.charts import draw_results
from analysis.compare import arm_folder, compare_arms, comparison_job
from analysis.job import open_job, range_folder
from analysis.results import read_results
from analysis.sensitivity_plots import draw_study
from analysis.sensitivity_study import StudyPoint, plan_study, run_study
from analysis.sweep import plan_sweep, run_sweep
from analysis.tournament import plan_tournament, run_tournament
from sim.engine.errors import CommandError
from sim.run.api import RunInterrupted
from sim.run.outdir import own_folder
from sim.scenario.loader import parse_scenario
from sim.scenario.problems import Problem, ScenarioError
from sim.scenario.schema import Scenario
from sim.scenario.variants import arms as variant_arms
from sim.web.jobs import Job
from sim.web.runapi import Cancelled, play
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
        resume: finish the job in ``out`` (a run or study stopped before the end), as the
            command's ``--resume`` does.
    """

    scenario: str
    out: Path
    runs: int | None = None
    seed: int | None = None
    options: Mapping[str, Any] | None = None
    resume: bool = False

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


def _continued(job: Job, out: Path) -> None:
    """Say that the job's folder is resumable (its job.json written): "continue" finishes it."""
    job.resumable = True
    job.kept = f"what was played is kept in {out.name}: continue to finish it"


# -- the kinds ------------------------------------------------------------------------------------


def run(workspace: Workspace, job: Job, ask: Ask) -> str:
    """``combatsim run SCENARIO --out OUT [--resume]``."""
    scenario = load(workspace, ask.scenario)
    runs = scenario.runs if ask.runs is None else ask.runs
    seed = scenario.seed if ask.seed is None else ask.seed
    job.advance(0, runs)
    with own_folder(ask.out):
        _continued(job, ask.out)
        result = play(
            scenario,
            runs,
            seed,
            out=ask.out,
            progress=job.advance,
            cancel=job.cancel,
            resume=ask.resume,
        )
    return f"{result.runs:,} combats played, seed {seed}"


def comparison(workspace: Workspace, job: Job, ask: Ask) -> str:
    """``combatsim compare SCENARIO [--variant NAME]... --out OUT [--resume]``."""
    base = load(workspace, ask.scenario)
    arms = variant_arms(base, list(ask.option("variants") or []) or None)
    if len(arms) < 2:  # what `combatsim compare` says of it
        problem = Problem(base.file, ("variants",), None, "no variants", "a variants: section")
        raise ScenarioError([problem])
    runs = base.runs if ask.runs is None else ask.runs
    seed = base.seed if ask.seed is None else ask.seed
    return _compared(job, ask, arms, runs, seed)


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
    seed = ask.seed if ask.seed is not None else results.seed
    seed = base.seed if seed is None else seed
    label = ", ".join(f"{path} = {value}" for path, value in changes.items())
    return _compared(job, ask, {"base": base, label: changed}, runs, seed)


def _compared(job: Job, ask: Ask, arms: dict[str, Scenario], runs: int, seed: int) -> str:
    """A comparison into ``ask.out`` as ``compare --out`` writes it, with progress and cancel.

    The folder is the command's: its job.json (:func:`analysis.compare.comparison_job`) and
    each arm a run folder (:func:`analysis.compare.arm_folder`). The page plays the arms into
    it through the run API, which counts and cancels within an arm; then
    :func:`analysis.compare.compare_arms` resumes the comparison there, reading every arm back
    (nothing is left to play), and its result is saved as the command saves it.
    """
    total = len(arms) * runs
    job.advance(0, total)
    with own_folder(ask.out):
        open_job(ask.out, comparison_job(arms, seed, runs, None), total, ask.resume, False)
        _continued(job, ask.out)
        for i, (name, arm) in enumerate(arms.items()):
            _stop_if_cancelled(job)
            job.step = f"arm {i + 1} of {len(arms)}: {name}"
            before = i * runs

            def counted(done: int, _all: int, before: int = before) -> None:
                job.advance(before + done)

            try:
                play(
                    arm,
                    runs,
                    seed,
                    out=ask.out / arm_folder(i, name) / range_folder(0, runs),
                    progress=counted,
                    cancel=job.cancel,
                    resume=ask.resume,
                    variant=name,
                )
            except RunInterrupted as stopped:
                job.advance(before + stopped.result.runs)
                raise Cancelled from None
        result = compare_arms(arms, runs, seed, out=ask.out, resume=True)
        result.save(ask.out)
    return f"{len(result.arms)} arms of {result.runs:,} combats compared, seed {result.seed}"


def sweep(workspace: Workspace, job: Job, ask: Ask) -> str:
    """``combatsim sweep SCENARIO --out OUT [--resume]`` (its charts drawn into OUT/plots)."""
    plan = plan_sweep(load(workspace, ask.scenario), runs=ask.runs)
    job.advance(0, len(plan.points) * plan.runs)

    def point_done(point: Any, result: Any) -> None:
        job.advance(job.done + result.runs)
        job.step = f"point {point.index + 1} of {len(plan.points)}"
        _stop_if_cancelled(job)

    with own_folder(ask.out):
        _continued(job, ask.out)
        result = run_sweep(
            plan, seed=ask.seed, on_point=point_done, out=ask.out, resume=ask.resume
        )
        result.save(ask.out)
        draw_results(read_results(ask.out))
    return f"{len(plan.points)} points of {plan.runs:,} combats"


def balance(workspace: Workspace, job: Job, ask: Ask) -> str:
    """``combatsim balance SCENARIO --param PATH --target T --out OUT``.

    The balance search offers no progress nor cancel: the page shows it as under way, and a
    cancel is seen when the search is over, before anything is written.
    """
    path = ask.option("param")
    if not path:
        raise CommandError("a balance needs the parameter to move (its dotted path)")
    scenario = load(workspace, ask.scenario)
    job.step = f"searching {path}"
    with own_folder(ask.out):
        result = find_balance(
            scenario,
            str(path),
            float(ask.option("target", 0.5)),
            ask.option("side") or None,
            runs=ask.runs or 400,
            seed=ask.seed,
        )
        _stop_if_cancelled(job)
        result.save(ask.out)
        draw_results(read_results(ask.out))
    if result.value is None:
        return "no crossing: the fitted curve is flat"
    return f"balance point {result.value:.4g} ({result.verdict()})"


def tournament(workspace: Workspace, job: Job, ask: Ask) -> str:
    """``combatsim tournament SCENARIO --out OUT [--resume]`` (each pairing streamed)."""
    plan = plan_tournament(load(workspace, ask.scenario))
    runs = plan.runs if ask.runs is None else ask.runs
    cells = len(plan.rows) * len(plan.columns)
    job.advance(0, cells * runs)

    def cell(number: int, total: int, row: Any, column: Any) -> None:
        _stop_if_cancelled(job)
        job.advance((number - 1) * runs)
        job.step = f"pairing {number} of {total}: {row.name} against {column.name}"

    with own_folder(ask.out):
        _continued(job, ask.out)
        result = run_tournament(
            plan, runs, ask.seed, out=ask.out, resume=ask.resume, on_cell=cell
        )
        job.advance(cells * runs)
        result.save(ask.out, plan.scenario)
    return f"{cells} pairings of {runs:,} combats: {result.verdict()}"


def sensitivity(workspace: Workspace, job: Job, ask: Ask) -> str:
    """``combatsim sensitivity SCENARIO --out OUT [--resume]`` (each point streamed)."""
    plan = plan_study(
        load(workspace, ask.scenario), runs=ask.runs, samples=ask.option("samples"), seed=ask.seed
    )
    job.advance(0, plan.combats)

    def point_done(point: StudyPoint) -> None:
        job.advance(job.done + point.runs)
        _stop_if_cancelled(job)

    with own_folder(ask.out):
        _continued(job, ask.out)
        study = run_study(plan, ask.out, resume=ask.resume, on_point=point_done)
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
