"""``combatsim sensitivity``: which of a scenario's parameters moves the balance most.

A thin click layer over :mod:`analysis.sensitivity_study` (the playing),
:mod:`analysis.sensitivity` (the maths) and :mod:`analysis.sensitivity_plots` (the charts).
Bad scenarios give the list of their problems and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from analysis.charts import draw_results
from analysis.exact_sensitivity import ExactStudy, exact_study
from analysis.results import read_results
from analysis.sensitivity_plan import StudyPlan
from analysis.sensitivity_study import Study, StudyPoint, plan_study, run_study
from sim.cli.app import (
    EXIT_INTERRUPTED,
    Whole,
    engine_options,
    force_option,
    handles_bad_input,
    json_option,
    out_option,
    resume_option,
    scenario_argument,
    seed_option,
)
from sim.cli.commands.method_option import method_option, sampled_only
from sim.exact.chain import TooManyStates
from sim.exact.errors import NotExact
from sim.rules.wording import counted
from sim.run.choices import Execution
from sim.run.outdir import own_folder
from sim.run.progress import progress_bar
from sim.scenario.sensitivity_section import MAX_SAMPLES


def _power_of_two(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    if value is not None and value & (value - 1):
        raise click.BadParameter(
            f"{value} is not a power of two (Sobol points balance only then), "
            f"e.g. {1 << value.bit_length()}"
        )
    return value


@click.command()
@scenario_argument
@click.option(
    "--runs",
    type=Whole(2, 10**6),
    default=None,
    help="Combats per point of the global (Sobol) design (default: the section's runs).",
)
@click.option(
    "--samples",
    type=Whole(4, MAX_SAMPLES),
    default=None,
    callback=_power_of_two,
    help="Base samples of the Sobol design, a power of two; it has samples x (parameters + 2) "
    "points (default: the section's samples).",
)
@click.option(
    "--oat-runs",
    type=Whole(2, 10**7),
    default=None,
    help="Combats at each end of each one-at-a-time effect (default: the section's oat_runs).",
)
@seed_option
@out_option("Directory for the results (default: SCENARIO's file name + '-sensitivity', here).")
@resume_option("Finish the study in OUT: play only the chunks of its points not already there.")
@click.option(
    "--fresh",
    is_flag=True,
    hidden=True,
    help="Start the study in OUT over (what a command without --resume does).",
)
@click.option(
    "--plots/--no-plots", default=True, help="Draw the charts into OUT/plots (PNG and SVG)."
)
@json_option("Print the study's summary as JSON.")
@force_option
@method_option
@engine_options
@handles_bad_input
def sensitivity(
    scenario: Path,
    runs: int | None,
    samples: int | None,
    oat_runs: int | None,
    seed: int | None,
    out: Path | None,
    resume: bool,
    fresh: bool,
    plots: bool,
    as_json: bool,
    force: bool,
    method: str,
    execution: Execution,
    quiet: bool,
) -> None:
    """Measure how much each parameter of SCENARIO's sensitivity: section moves the balance.

    Plays each parameter alone at its low and high end (the others as written) and a Sobol
    design over the joint ranges, every point on the same combat seeds; prints the
    one-at-a-time effects with paired intervals, the first-order and total Sobol indices with
    bootstrap intervals, and names the parameter that moves the win rate most and how sure that
    is. Saves the tables (Parquet and CSV), summary.json and the charts into OUT; every point
    streams there as it is played, so the same command with --resume finishes a study that was
    stopped or killed. With --method exact (or auto, when a chain plays every point) each
    point is solved instead: the effects are exact, the Sobol indices carry only the design's
    uncertainty, and OUT gets the tables, summary.json and the charts (no combats).
    """
    if resume and fresh:
        raise click.UsageError("--fresh starts the study over: not with --resume")
    plan = plan_study(scenario, runs=runs, samples=samples, oat_runs=oat_runs, seed=seed)
    out = out if out is not None else Path(f"{scenario.stem}-sensitivity")
    flags = {"--runs": runs is not None, "--oat-runs": oat_runs is not None, "--resume": resume}
    if not sampled_only(method, flags) and _studied_exactly(
        plan, method, out, force, as_json, plots
    ):
        return
    done: list[StudyPoint] = []
    with own_folder(out, force):  # refused before playing when OUT cannot be written
        with progress_bar(plan.combats, 0, not quiet) as bar:

            def advance(point: StudyPoint) -> None:
                done.append(point)
                bar.advance(point.runs)

            try:
                study = run_study(
                    plan,
                    out,
                    resume=resume,
                    force=force,
                    on_point=advance,
                    execution=execution,
                )
            except KeyboardInterrupt:  # RunInterrupted inside a point, or between two
                click.echo(
                    f"interrupted: {len(done)} of {len(plan.points)} points finished, kept in "
                    f"{out}/; add --resume to the same command to finish",
                    err=True,
                )
                sys.exit(EXIT_INTERRUPTED)
        written = study.save(out)
        if plots:
            written += draw_results(read_results(out))
    if as_json:
        click.echo(json.dumps({**study.summary, "out": str(out)}))
        return
    _show(study)
    click.echo(f"saved {len(written)} files to {out}/")


def _studied_exactly(
    plan: StudyPlan, method: str, out: Path, force: bool, as_json: bool, plots: bool
) -> bool:
    """Answer ``sensitivity --method exact|auto`` exactly where every point allows; else False."""
    with own_folder(out, force):  # refused before solving when OUT cannot be written
        try:
            study, why = exact_study(plan, method)
        except (NotExact, TooManyStates) as refused:
            raise click.ClickException(
                f"{plan.scenario.file}: no exact answer: {refused}"
            ) from None
        if study is None:
            click.echo(f"method: sample ({why})", err=True)
            return False
        written = study.save(out)
        if plots:
            written += draw_results(read_results(out))
    if as_json:
        click.echo(json.dumps({**study.summary, "out": str(out)}))
        return True
    _show(study)
    click.echo(
        f"method: exact (every point solved as a chain, {len(plan.points)} points, up to "
        f"{study.states:,} states each; no combat played)"
    )
    click.echo(f"saved {len(written)} files to {out}/")
    return True


def _console() -> Console:
    """Rich's console; wide enough not to wrap rows when the output is a file or a pipe."""
    console = Console()
    return console if console.is_terminal else Console(width=200)


def _show(study: Study | ExactStudy) -> None:
    plan = study.plan
    side = plan.side
    exact = isinstance(study, ExactStudy)
    console = _console()
    base = study.rate(plan.base)
    each = "solved exactly" if exact else f"{counted(plan.oat_runs, 'combat')} each, paired"
    title = (
        f"{escape(plan.scenario.name)} — one at a time: {side}'s win rate at each end, the "
        f"others as written ({base:.1%} as written); {each}"
    )
    table = Table(title=title, title_justify="left")
    change = "change, pts (exact)" if exact else "change, pts (95% CI)"
    for name in ("parameter", "low → high", "at low", "at high", change):
        table.add_column(name, justify="left" if name == "parameter" else "right")
    order = sorted(study.effects, key=lambda e: -abs(e.change.estimate))
    for found in order:
        c = found.change
        interval = "" if exact else f" ({c.low * 100:+.1f} to {c.high * 100:+.1f})"
        table.add_row(
            escape(found.label),
            escape(f"{found.low} → {found.high}"),
            f"{found.rate_low:.1%}",
            f"{found.rate_high:.1%}",
            f"{c.estimate * 100:+.1f}{interval}",
        )
    console.print(table)
    points = "each solved exactly" if exact else f"of {counted(plan.runs, 'combat')}"
    title = (
        f"Sobol indices of {side}'s win rate over the joint ranges: {len(plan.sobol)} design "
        f"points ({plan.samples} base samples) {points}, seed {plan.seed}"
    )
    table = Table(title=title, title_justify="left")
    for name in ("parameter", "first order (95% CI)", "total (95% CI)"):
        table.add_column(name, justify="left" if name == "parameter" else "right")
    for index in sorted(study.indices, key=lambda i: -i.total.estimate):
        f, t = index.first, index.total
        table.add_row(
            escape(index.label),
            f"{f.estimate:.3f} ({f.low:.3f} to {f.high:.3f})",
            f"{t.estimate:.3f} ({t.low:.3f} to {t.high:.3f})",
        )
    console.print(table)
    click.echo(f"verdict: {study.verdict.sentence}")
