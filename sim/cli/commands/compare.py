"""``combatsim compare``, ``baseline`` and ``check``: is a rule tweak a change, or noise?

A thin click layer over :mod:`analysis.compare` (paired statistics of a scenario's variants) and
:mod:`analysis.baseline` (baseline files and the regression check); see ``docs/regression.md``.
"""

from __future__ import annotations

import functools
import json
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import click

from analysis.baseline import (
    BaselineError,
    baseline_path,
    record_baseline,
    render_baseline,
    render_check,
    unrecorded_scenarios,
    write_baseline,
)
from analysis.baseline import check as run_check
from analysis.compare import compare as run_comparison
from analysis.compare import comparison_arms, render_comparison
from analysis.exact_arms import exact_comparison, render_exact_comparison
from sim.cli.app import (
    Number,
    batch_echo,
    engine_options,
    force_option,
    handles_bad_input,
    interrupted,
    json_option,
    out_option,
    precision_options,
    resume_option,
    runs_option,
    seed_option,
)
from sim.cli.commands.method_option import method_option, sampled_only
from sim.exact.chain import TooManyStates
from sim.exact.errors import NotExact
from sim.run.api import Execution, play_records
from sim.run.outdir import own_folder

#: Exit code of ``check`` when a win rate moved.
EXIT_MOVED = 1

alpha_option = click.option(
    "--alpha",
    type=Number(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="Family-wise error rate: significant means a Holm-corrected p-value below this.",
)
arm_runs_option = runs_option("Combats per arm (default: the scenario's runs).")


def _player(execution: Execution):
    """What plays each arm's combats: every core by default (the same records as serial)."""
    return functools.partial(play_records, execution=execution)


def _compared_exactly(
    scenarios: tuple[Path, ...], variants: tuple[str, ...], method: str, as_json: bool
) -> bool:
    """Answer ``compare --method exact|auto`` exactly where every arm allows; False: sample."""
    arms, title = comparison_arms(scenarios[0], list(variants) or None, scenarios[1:])
    try:
        result, why = exact_comparison(arms, method, title)
    except (NotExact, TooManyStates) as refused:
        raise click.ClickException(f"{scenarios[0]}: no exact answer: {refused}") from None
    if result is None:
        click.echo(f"method: sample ({why})", err=True)
        return False
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        render_exact_comparison(result)
    return True


@click.command()
@click.argument(
    "scenarios",
    nargs=-1,
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="SCENARIO [OTHER]...",
)
@click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="NAME",
    help="Compare only this variant of SCENARIO (repeatable; default: every variant).",
)
@arm_runs_option
@seed_option
@precision_options
@alpha_option
@out_option(
    "Directory to save every arm's outcomes (Parquet and CSV), comparison.json and "
    "meta.json into; `combatsim report OUT` shows it arm by arm."
)
@json_option("Print the comparison as one JSON object.")
@resume_option("Finish the comparison in --out: play only the chunks of its arms not there.")
@force_option
@method_option
@engine_options
@handles_bad_input
def compare(
    scenarios: tuple[Path, ...],
    variants: tuple[str, ...],
    runs: int | None,
    seed: int | None,
    precision: float | None,
    max_runs: int,
    batch: int,
    alpha: float,
    out: Path | None,
    as_json: bool,
    resume: bool,
    force: bool,
    method: str,
    execution: Execution,
    quiet: bool,
) -> None:
    """Compare SCENARIO's variants with it, paired combat by combat.

    Every arm (the base and each variant, or each OTHER scenario file against SCENARIO) plays
    the same combats: combat k of every arm uses the dice stream of (seed, k). Per side and
    variant it prints the difference in win rate with Tango's 95% interval for paired data,
    McNemar's exact test and its Holm-corrected p-value, how many combats changed outcome, and a
    paired t-test of fight length. With --out, every arm streams into OUT/arms as it is
    played, so a comparison killed outright loses only its chunks in flight: the same command
    with --resume finishes it. With --method exact (or auto, when every arm has a chain) each
    arm is solved instead and the differences are exact: moved or did not move.
    """
    if precision is not None and runs is not None:
        raise click.UsageError("give --runs or --precision, not both")
    if variants and len(scenarios) > 1:
        raise click.UsageError("--variant picks variants of one scenario, not of several files")
    if resume and out is None:
        raise click.UsageError("--resume needs --out DIR, the folder of the comparison to finish")
    flags = {"--runs": runs is not None, "--precision": precision is not None}
    flags |= {"--out": out is not None, "--resume": resume}
    if not sampled_only(method, flags) and _compared_exactly(scenarios, variants, method, as_json):
        return
    on_batch = batch_echo(as_json) if precision is not None else None
    streamed: dict[str, Any] = {}
    if out is not None:
        streamed = {"out": out, "resume": resume, "force": force, "execution": execution}
    # --out is claimed and locked before playing: refused at once if it cannot be written.
    with own_folder(out, force) if out is not None else nullcontext(), interrupted(out):
        result = run_comparison(
            scenarios[0],
            runs,
            seed,
            variants=list(variants) or None,
            others=scenarios[1:],
            precision=precision,
            max_runs=max_runs,
            batch=batch,
            alpha=alpha,
            on_batch=on_batch,
            play=_player(execution),
            **streamed,
        )
        summary = result.to_dict()
        if out is not None:
            result.save(out)
    if as_json:
        click.echo(json.dumps(summary))
        return
    render_comparison(result)
    if out is not None:
        click.echo(f"saved to {out}/")


@click.command()
@click.argument(
    "scenarios", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path)
)
@arm_runs_option
@seed_option
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The file to write (one scenario only; default: SCENARIO's name with .baseline.json, "
    "next to it).",
)
@click.option(
    "--section-runs",
    type=click.IntRange(1, 10**9),
    default=None,
    help="Combats of each sweep point, tournament cell and study arm (default: what its "
    "section plays).",
)
@json_option("Print the baseline(s) as JSON too.")
@method_option
@engine_options
@handles_bad_input
def baseline(
    scenarios: tuple[Path, ...],
    runs: int | None,
    seed: int | None,
    out: Path | None,
    section_runs: int | None,
    as_json: bool,
    method: str,
    execution: Execution,
    quiet: bool,
) -> None:
    """Record how SCENARIO and each of its variants play now, for `combatsim check`.

    Writes <scenario>.baseline.json next to the scenario: runs, seed, rule options, the
    combatsim version, each arm's summary and winner of every combat. The arms are the base,
    each variant, and each point of the scenario's sweep, cell of its tournament and arm of its
    sensitivity study (as written, and each parameter at its low and high end). Commit it with
    the scenario. Keep the run count modest (a few thousand) so `check` stays quick in CI.
    With --method auto, an arm that a chain plays is recorded by its exact win rates instead
    (each arm on its own; --method exact: every arm), and `check` says whether it moved as a
    fact.
    """
    if out is not None and len(scenarios) > 1:
        raise click.UsageError("--out names one file: give one scenario with it")
    if out is not None and out.parent.exists() and not out.parent.is_dir():
        raise BaselineError(f"--out {out}: cannot write there: {out.parent} is not a folder")
    if out is not None and not out.parent.is_dir():
        raise BaselineError(
            f"--out {out}: no such folder {out.parent} (a baseline is written into a folder "
            "that exists; create it first, or leave --out out to write it next to the scenario)"
        )
    written = {}
    for scenario in scenarios:
        try:
            recorded = record_baseline(
                scenario, runs, seed, _player(execution), section_runs, method
            )
        except (NotExact, TooManyStates) as refused:
            raise click.ClickException(f"{scenario}: no exact answer: {refused}") from None
        if method != "sample":
            exact = [name for name, arm in recorded["variants"].items() if "winners" not in arm]
            shown = ", ".join(exact) or "none"
            arms = len(recorded["variants"])
            click.echo(f"method: exact for {len(exact)} of {arms} arms ({shown})", err=True)
        path = write_baseline(recorded, out or baseline_path(scenario))
        written[str(path)] = recorded
        if not as_json:
            render_baseline(recorded, path)
    if as_json:
        click.echo(json.dumps(written))


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@alpha_option
@click.option(
    "--min-change",
    type=Number(0, 1),
    default=0.0,
    show_default=True,
    help="Also require a move of at least this much win rate (0.02 = 2 points) to fail.",
)
@json_option("Print the report as one JSON object.")
@engine_options
@handles_bad_input
def check(
    paths: tuple[Path, ...],
    alpha: float,
    min_change: float,
    as_json: bool,
    execution: Execution,
    quiet: bool,
) -> None:
    """Replay every baseline under PATHS and fail if a win rate moved significantly.

    PATHS are directories (searched for *.baseline.json), scenario files or baseline files;
    default: the current directory. Each arm replays its baseline's combats with the same seed
    and is compared with it combat by combat (McNemar's exact test, Holm correction over every
    scenario, variant and side checked). An arm recorded exactly (`baseline --method auto`) is
    solved again instead: its win rate moved or did not move, as a fact. Exit 0: nothing
    moved; 1: a win rate moved; 2: bad input (a scenario or baseline that cannot be used, or no
    baseline at all).
    """
    where = list(paths) or [Path(".")]
    report = run_check(where, alpha, min_change, _player(execution))
    unchecked = unrecorded_scenarios(where)
    if as_json:
        click.echo(json.dumps({**report.to_dict(), "unrecorded": [str(p) for p in unchecked]}))
    else:
        render_check(report)
    if unchecked:
        click.echo(
            f"note: not checked, no baseline next to them: {', '.join(map(str, unchecked))} "
            "(record one with `combatsim baseline SCENARIO`)",
            err=True,
        )
    if report.moved:
        sys.exit(EXIT_MOVED)
