"""``combatsim sweep``, ``plot``, ``balance`` and ``report``: the balance charts.

A thin click layer over :mod:`analysis.sweep`, :mod:`analysis.plots`, :mod:`analysis.balance`
and :mod:`analysis.report`. Bad scenarios and bad results directories give a clear message and
exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import math
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from analysis.balance import find_balance
from analysis.charts import draw_results
from analysis.exact_arms import exact_sweep, render_exact_sweep
from analysis.exact_balance import exact_balance, render_exact_balance
from analysis.report import write_report
from analysis.rerun import replay_report as rerun_report
from analysis.results import read_results
from analysis.sweep import plan_sweep, run_sweep, sweep_to_precision
from sim.cli.app import (
    Number,
    Whole,
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
    scenario_argument,
    seed_option,
)
from sim.cli.commands.method_option import method_option, sampled_only
from sim.exact.chain import TooManyStates
from sim.exact.errors import NotExact
from sim.rules import wording
from sim.rules.wording import counted
from sim.run.choices import Execution
from sim.run.exact import exact_meta
from sim.run.files import write_text
from sim.run.outdir import own_folder
from sim.run.store import write_scenario
from sim.run.summary import round_length_s
from sim.scenario.loader import load_scenario

results_argument = click.argument("results", type=click.Path(path_type=Path), metavar="RESULTS")


# -- sweep --------------------------------------------------------------------------------------


@click.command()
@scenario_argument
@runs_option("Combats per point (default: the sweep's runs, then the scenario's).")
@seed_option
@out_option("Directory for the results (default: SCENARIO's file name + '-sweep', here).")
@click.option("--csv", is_flag=True, help="Also write the tables as CSV.")
@click.option("--detail/--no-detail", default=False, help="Also save the per-combatant table.")
@click.option(
    "--plots/--no-plots", default=True, help="Draw the charts into OUT/plots (PNG and SVG)."
)
@json_option("Print the sweep's summary as JSON.")
@resume_option("Finish the sweep in OUT: play only the chunks of its points not already there.")
@force_option
@precision_options
@method_option
@engine_options
@handles_bad_input
def sweep(
    scenario: Path,
    runs: int | None,
    seed: int | None,
    out: Path | None,
    csv: bool,
    detail: bool,
    plots: bool,
    as_json: bool,
    resume: bool,
    force: bool,
    precision: float | None,
    max_runs: int,
    batch: int,
    method: str,
    execution: Execution,
    quiet: bool,
) -> None:
    """Play SCENARIO at every point of its sweep: section, with the same seeds at each.

    Every point streams into OUT/points as it is played, so a sweep killed outright loses only
    its chunks in flight: the same command with --resume finishes it. Then saves one table for
    the whole sweep (outcomes.parquet, with a point column and one column per swept
    parameter), summary.json, meta.json and scenario.yaml into OUT, and draws the charts into
    OUT/plots. `combatsim report OUT` makes an HTML report of it. With --method exact (or
    auto, when every point has a chain) each point is solved instead: OUT gets summary.json,
    meta.json and scenario.yaml (no combats, no tables) and the exact charts (no intervals).
    """
    plan = plan_sweep(scenario, runs=runs)
    out = out if out is not None else Path(f"{scenario.stem}-sweep")
    flags = {"--runs": runs is not None, "--precision": precision is not None}
    flags |= {"--resume": resume, "--detail": detail, "--csv": csv}
    if not sampled_only(method, flags) and _swept_exactly(plan, method, out, force, as_json, plots):
        return
    stream: dict[str, Any] = {"out": out, "resume": resume, "force": force}
    if precision is not None and (runs is not None or detail):
        raise click.UsageError(
            "--precision decides the runs and keeps no per-combatant "
            "table: not with --runs or --detail"
        )
    ran = None
    with own_folder(out, force), interrupted(out):  # refused before playing when OUT is not ours
        if precision is not None:
            precise = sweep_to_precision(
                plan,
                precision,
                seed,
                max_runs=max_runs,
                batch=batch,
                on_batch=batch_echo(as_json),
                execution=execution,
                **stream,
            )
            result, ran = precise.result, precise.ran
        else:
            with _progress(len(plan.points), quiet=quiet) as advance:
                result = run_sweep(
                    plan,
                    seed=seed,
                    detail=detail,
                    on_point=advance,
                    execution=execution,
                    **stream,
                )
        written = result.save(out, csv=csv)
        if plots:
            written += draw_results(read_results(out))
    extra = {"precision": ran.to_dict()} if ran is not None else {}
    if as_json:
        click.echo(json.dumps({**result.summary, **extra, "out": str(out)}))
        return
    _sweep_table(result)
    if ran is not None:
        click.echo(ran.describe())
    click.echo(f"saved {len(written)} files to {out}/")


def _swept_exactly(
    plan: Any, method: str, out: Path, force: bool, as_json: bool, plots: bool
) -> bool:
    """Answer ``sweep --method exact|auto`` exactly where every point allows; False: sample."""
    try:
        summary, why = exact_sweep(plan, method)
    except (NotExact, TooManyStates) as refused:
        raise click.ClickException(f"{plan.scenario.file}: no exact answer: {refused}") from None
    if summary is None:
        click.echo(f"method: sample ({why})", err=True)
        return False
    with own_folder(out, force):
        write_text(out / "summary.json", json.dumps(summary, indent=2) + "\n")
        meta = exact_meta(plan.scenario, "sweep")
        write_text(out / "meta.json", json.dumps(meta, indent=2) + "\n")
        write_scenario(out, plan.scenario)
    charts = draw_results(read_results(out)) if plots else []
    if as_json:
        click.echo(json.dumps({**summary, "out": str(out)}))
        return True
    render_exact_sweep(summary)
    drawn = f" and {len(charts)} chart files" if charts else ""
    click.echo(f"saved summary.json, meta.json, the scenario{drawn} to {out}/")
    return True


class _progress:
    """A transient progress bar over the points, on a terminal's stderr only."""

    def __init__(self, total: int, quiet: bool = False) -> None:

        self.console = Console(stderr=True)
        self.total = total
        self.bar = None if quiet or not self.console.is_terminal else self._bar()

    def _bar(self):

        return Progress(
            "sweep points",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=self.console,
            transient=True,
        )

    def __enter__(self):
        if self.bar is None:
            return lambda *_: None
        self.bar.start()
        task = self.bar.add_task("sweep", total=self.total)
        return lambda *_: self.bar.advance(task)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()


def _sweep_table(result) -> None:

    sides = result.plan.scenario.side_names
    rates = result.rates()
    title = (
        f"{escape(result.plan.scenario.name)} — sweep of "
        f"{counted(len(result.plan.points), 'point')}, {counted(result.runs, 'combat')} each, "
        f"seed {result.seed} (same seeds at every point)"
    )
    round_s = {p.index: round_length_s(p.scenario) for p in result.plan.points}
    in_rounds = any(r is not None for r in round_s.values())
    caption = (
        "win rate: wins / combats at the point (95% Wilson interval); draws: combats no side won; "
        + ("mean rounds: mean fight length in the rules' rounds; " if in_rounds else "")
        + "mean s: mean fight length in game seconds"
    )
    table = Table(title=title, title_justify="left", caption=caption, caption_justify="left")
    table.add_column("point", justify="right")
    for label in result.plan.labels:
        table.add_column(label, justify="right")
    for side in sides:
        table.add_column(f"{side} win rate (95% CI)", justify="right")
    table.add_column("draws", justify="right")
    if in_rounds:
        table.add_column("mean rounds", justify="right")
    table.add_column("mean s", justify="right")
    for point, group in rates.groupby("point", sort=True):
        by_side = group.set_index("side")
        first = group.iloc[0]
        row = [str(point), *(str(first[label]) for label in result.plan.labels)]
        for side in sides:
            r = by_side.loc[side]
            row.append(_rate(r["win_rate"], r["ci_low"], r["ci_high"]))
        row.append(str(int(by_side.loc["draw", "wins"])))
        seconds, length = first["mean_duration_s"], round_s.get(point)
        if in_rounds:
            row.append("" if length is None else f"{seconds / length:.2f}")
        row.append(f"{seconds:.2f}")
        table.add_row(*row)
    _console().print(table)


def _console():
    """Rich's console; wide enough not to wrap rows when the output is a file or a pipe."""
    console = Console()
    return console if console.is_terminal else Console(width=200)


def _rate(rate: float, low: float, high: float) -> str:
    return f"{rate:.1%} ({low * 100:.1f}–{high * 100:.1f})"


# -- plot ---------------------------------------------------------------------------------------


@click.command()
@results_argument
@out_option("Directory for the charts (default: RESULTS/plots).")
@click.option(
    "--format",
    "formats",
    type=click.Choice(["png", "svg", "pdf"]),
    multiple=True,
    default=("png", "svg"),
    show_default=True,
    help="File format (repeat for several).",
)
@handles_bad_input
def plot(results: Path, out: Path | None, formats: tuple[str, ...]) -> None:
    """Redraw the charts of saved RESULTS without re-running.

    RESULTS is the --out of run, compare, sweep, balance, tournament or sensitivity: each is
    drawn with the charts its command draws (a comparison arm by arm with its paired
    differences, never pooled; a study's tornado and Sobol charts too). Each chart is an
    estimate with its 95% interval, or a distribution (and says so).
    """
    written = draw_results(read_results(results), out, formats)
    for path in written:
        click.echo(str(path))


# -- balance ------------------------------------------------------------------------------------


@click.command()
@scenario_argument
@click.option(
    "--param",
    "path",
    required=True,
    metavar="PATH",
    help="The parameter, as a dotted path: sides.red.combatants.0.hp, options.prepared_bonus.",
)
@click.option(
    "--target",
    type=Number(0, 1, min_open=True, max_open=True),
    default=0.5,
    show_default=True,
    help="The win rate to reach.",
)
@click.option("--side", default=None, help="Whose win rate (default: the first side).")
@click.option(
    "--range",
    "search",
    type=float,
    nargs=2,
    default=None,
    metavar="LOW HIGH",
    help="Where to search (default: the scenario's sweep of PATH, else half to twice its value).",
)
@click.option("--points", type=Whole(3, 50), default=9, show_default=True, help="Values per grid.")
@click.option(
    "--runs",
    type=Whole(20, 10**8),
    default=400,
    show_default=True,
    help="Combats per value while locating the crossing.",
)
@click.option(
    "--refine-runs",
    type=Whole(20, 10**8),
    default=None,
    help="Combats per value while measuring it (default: 4 x --runs).",
)
@seed_option
@click.option(
    "--label",
    default=None,
    help="The parameter's name in the output (default: its label in the scenario's sweep, "
    "else PATH).",
)
@out_option(
    "Directory to save the search into: balance.json, the grid's combats, the scenario and the "
    "chart (plots/balance.png, .svg); `combatsim report OUT` makes an HTML report of it."
)
@json_option("Print the answer as one JSON object.")
@force_option
@method_option
@engine_options
@handles_bad_input
def balance(
    scenario: Path,
    path: str,
    target: float,
    side: str | None,
    search: tuple[float, float] | None,
    points: int,
    runs: int,
    refine_runs: int | None,
    seed: int | None,
    label: str | None,
    out: Path | None,
    as_json: bool,
    force: bool,
    method: str,
    execution: Execution,
    quiet: bool,
) -> None:
    """Find the value of a parameter where a side's win rate crosses a target.

    Locates the crossing on a coarse grid, then measures it on a finer one with more combats
    (the same seeds at every value), fits a logistic curve with a cluster-robust covariance and
    gives Fieller's 95% interval. Exit code 1 when the target is not crossed in the range.
    With --method exact (or auto, when every value probed has a chain) each value is solved
    instead, and the crossing is bracketed by exact win rates.
    """
    low, high = search if search else (None, None)
    flags = {"--out": out is not None, "--refine-runs": refine_runs is not None}
    if not sampled_only(method, flags):
        try:
            exact, why = exact_balance(
                load_scenario(scenario), path, target, side, low=_whole(low),
                high=_whole(high), points=points, label=label, method=method,
            )  # fmt: skip
        except (NotExact, TooManyStates) as refused:
            raise click.ClickException(f"{scenario}: no exact answer: {refused}") from None
        if exact is not None:
            if as_json:
                click.echo(json.dumps(exact.to_dict()))
            else:
                render_exact_balance(exact, click.echo)
            return
        click.echo(f"method: sample ({why})", err=True)
    # --out is claimed and locked before playing: refused at once if it cannot be written.
    with own_folder(out, force) if out is not None else nullcontext():
        result = find_balance(
            scenario,
            path,
            target,
            side,
            low=_whole(low),
            high=_whole(high),
            points=points,
            runs=runs,
            refine_runs=refine_runs,
            seed=seed,
            label=label,
            execution=execution,
        )
        if out is not None:
            result.save(out)
            draw_results(read_results(out))
    if as_json:
        click.echo(json.dumps(result.to_dict()))
    else:
        _balance_text(result)
        if out is not None:
            click.echo(f"saved balance.json, the grid's combats and the chart (plots/) to {out}/")


def _whole(value: float | None) -> float | int | None:
    return int(value) if value is not None and float(value).is_integer() else value


def _balance_text(result) -> None:

    side, label = result.side, result.label
    say = click.echo
    say(
        f"Balance point of {label} for {wording.possessive(side)} win rate = {result.target:.0%} "
        f"({result.scenario}; seed {result.seed})"
    )
    if result.value is None:
        say("  no crossing: the fitted curve is flat")
    else:
        lo, hi = result.interval
        shown = f"{lo:.4g} – {hi:.4g}" if result.bounded else "unbounded"
        say(f"  value   {result.value:.4g}   95% CI {shown}   (standard error {result.se:.2g})")
        if result.integer and result.bounded:
            say(f"  whole numbers in the interval: {', '.join(map(str, result.whole_numbers))}")
        for row in result.nearest:
            low, high = row["fitted_ci95"]
            fitted = _rate(row["fitted"], low, high)
            text = f"  at {row['value']}: {wording.side(side)} wins {fitted} by the fit"
            if "observed" in row:
                text += f", {_rate(row['observed'], *row['observed_ci95'])} played"
            if row["current"]:
                text += " (the scenario's value)"
            say(text)
        say(
            f"  slope   +1 {label} moves {wording.possessive(side)} win rate by "
            f"{result.slope_per_unit * 100:+.2f} "
            f"points here (z = {result.slope_z:.1f})"
        )
    say(f"  sure?   {result.verdict()}")
    values = result.grid["value"]
    say(
        f"  method  {len(values)} values from {values.min():g} to {values.max():g}, "
        f"{counted(result.runs, 'combat')} each, the same seeds at every value (located over "
        f"{result.search[0]:g} .. {result.search[1]:g}); logistic fit, cluster-robust "
        "errors, Wald/Fieller interval"
    )
    for note in result.notes:
        say(f"  note    {note}")
    console = _console()
    table = Table(title_justify="left")
    table.add_column(label, justify="right")
    table.add_column("wins", justify="right")
    table.add_column(f"{side} win rate (95% CI)", justify="right")
    table.add_column("logistic fit", justify="right")
    for row in result.grid.itertuples():
        value = row.value if not isinstance(row.value, float) else f"{row.value:.4g}"
        table.add_row(
            str(value),
            str(row.wins),
            _rate(row.win_rate, row.ci_low, row.ci_high),
            f"{row.fitted:.1%}" if math.isfinite(row.fitted) else "",
        )
    console.print(table)


# -- report -------------------------------------------------------------------------------------


@click.command()
@results_argument
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The HTML file to write (default: RESULTS/report.html).",
)
@click.option(
    "--scenario",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The scenario file, to show its rule options when the results did not record them.",
)
@handles_bad_input
def report(results: Path, out: Path | None, scenario: Path | None) -> None:
    """Write one self-contained HTML report of saved RESULTS: charts, tables, scenario, options.

    RESULTS is the --out of run, compare, sweep, balance, tournament or sensitivity. The report
    opens with a one-line verdict, defines every column it shows, shows a comparison arm by arm
    with its paired differences, and holds the scenario file byte for byte, the seed, the runs
    and the options: `combatsim run REPORT.html` plays the same combats again and says whether
    the outcome table matches.
    """
    click.echo(str(write_report(results, out, scenario)))


def replay_report(report: Path, execution: Execution, as_json: bool = False) -> None:
    """``combatsim run REPORT.html``: play a report's combats again; exit 0 if they match, 1 if not.

    A thin layer over :func:`analysis.rerun.replay_report`.
    """
    check = rerun_report(report, execution)
    if as_json:
        click.echo(json.dumps(check.to_dict()))
    else:
        for line in check.sentences():
            click.echo(line)
    if not check.matches:
        sys.exit(EXIT_DIFFERENT)


#: Exit code of ``run REPORT.html`` when the combats played again differ from the report's.
EXIT_DIFFERENT = 1
