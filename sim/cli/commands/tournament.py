"""``combatsim tournament``: is one strategy degenerate, or must a player mix?

A thin click layer over :mod:`analysis.tournament` (playing every pairing of strategies on the
same seeds) and :mod:`analysis.game` (dominance and the zero-sum game); see the
"Tournaments" section of ``docs/analysis.md``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from analysis.compare import p_text
from analysis.exact_tournament import ExactTournament, exact_tournament
from analysis.game import RESAMPLES
from analysis.tournament import plan_tournament, run_tournament
from analysis.tournament_result import PAYOFF_TEXT, PAYOFFS, Tournament
from sim.cli.app import (
    EXIT_INTERRUPTED,
    Number,
    Whole,
    batch_echo,
    engine_options,
    force_option,
    handles_bad_input,
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
from sim.rules.wording import counted
from sim.run.api import Execution, RunInterrupted
from sim.run.outdir import own_folder
from sim.run.progress import wanted
from sim.scenario.strategies import Strategy


@click.command()
@scenario_argument
@runs_option("Combats per pairing (default: the scenario's runs).")
@seed_option
@precision_options
@click.option(
    "--payoff",
    type=click.Choice(sorted(PAYOFFS)),
    default="score",
    show_default=True,
    help="What a combat is worth to the row side: score (win 1, draw 1/2) or wins (draw 0).",
)
@click.option(
    "--alpha",
    type=Number(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="Family-wise error rate of the dominance tests (Holm over the matrix).",
)
@click.option(
    "--resamples",
    type=Whole(50, 100_000),
    default=RESAMPLES,
    show_default=True,
    help="Bootstrap resamples of the combats for the value's interval.",
)
@out_option("Directory for the results (default: SCENARIO's file name + '-tournament', here).")
@json_option()
@resume_option("Finish the tournament in OUT: play only the chunks of its pairings not there.")
@force_option
@method_option
@engine_options
@handles_bad_input
def tournament(
    scenario: Path,
    runs: int | None,
    seed: int | None,
    precision: float | None,
    max_runs: int,
    batch: int,
    payoff: str,
    alpha: float,
    resamples: int,
    out: Path | None,
    as_json: bool,
    resume: bool,
    force: bool,
    method: str,
    execution: Execution,
    quiet: bool,
) -> None:
    """Play every strategy of one side against every strategy of the other, on the same seeds.

    SCENARIO's strategies: section names each side's alternatives. Prints the payoff matrix
    (the first side's win rate, draws counted half, with 95% intervals), the dominated
    strategies (paired tests, Holm-corrected, iterated elimination), each side's optimal mix
    and the value of the zero-sum game with a bootstrap interval, and a one-line verdict.
    Every pairing is streamed into OUT/cells as it is played: the same command with --resume
    finishes an interrupted (or killed) tournament. Writes matrix.parquet/.csv, summary.json and
    plots/payoff.png into OUT; `combatsim report OUT` makes an HTML report of it. With
    --method exact (or auto, when every pairing has a chain) each pairing is solved instead:
    the matrix, the dominated strategies and the equilibrium are exact (OUT gets
    matrix.parquet/.csv and summary.json).
    """
    if precision is not None and runs is not None:
        raise click.UsageError("give --runs or --precision, not both")
    plan = plan_tournament(scenario)
    out = out if out is not None else Path(f"{scenario.stem}-tournament")
    flags = {"--runs": runs is not None, "--precision": precision is not None, "--resume": resume}
    if not sampled_only(method, flags):
        try:
            exact, why = exact_tournament(plan, method, payoff, alpha)
        except (NotExact, TooManyStates) as refused:
            raise click.ClickException(f"{scenario}: no exact answer: {refused}") from None
        if exact is not None:
            with own_folder(out, force):
                written = exact.save(out)
            if as_json:
                click.echo(json.dumps({**exact.to_dict(), "out": str(out)}))
                return
            render_tournament(exact)
            click.echo(f"saved {len(written)} files to {out}/")
            return
        click.echo(f"method: sample ({why})", err=True)
    show = wanted(not quiet and not as_json)
    with own_folder(out, force):  # refused before playing when OUT cannot be written
        try:
            result = run_tournament(
                plan,
                runs,
                seed,
                precision=precision,
                max_runs=max_runs,
                batch=batch,
                payoff=payoff,
                alpha=alpha,
                resamples=resamples,
                out=out,
                resume=resume,
                force=force,
                progress=not quiet,
                on_cell=_cell_line if show else None,
                on_batch=batch_echo(as_json),
                execution=execution,
            )
        except RunInterrupted:
            click.echo(
                f"interrupted: the pairings played so far are in {out}/cells; add --resume to "
                "the same command to finish",
                err=True,
            )
            sys.exit(EXIT_INTERRUPTED)
        written = result.save(out, plan.scenario)
    if as_json:
        click.echo(json.dumps({**result.to_dict(), "out": str(out)}))
        return
    render_tournament(result)
    click.echo(f"saved {len(written)} files to {out}/ (the pairings' combats in {out}/cells)")


def _cell_line(number: int, total: int, row: Strategy, column: Strategy) -> None:
    click.echo(
        f"  pairing {number}/{total}: {row.side}/{row.name} vs {column.side}/{column.name}",
        err=True,
    )


def render_tournament(result: Tournament, console: Console | None = None) -> None:
    """Print the payoff matrix, the dominated strategies, the mixes and the verdict."""
    console = console or _console()
    red, blue = result.sides
    gone_rows, gone_columns = set(result.dominated("rows")), set(result.dominated("columns"))
    exact = isinstance(result, ExactTournament)
    played = (
        "every pairing solved exactly"
        if exact
        else f"{counted(result.runs, 'combat')} per pairing, seed {result.seed} (the same "
        "combats in every pairing)"
    )
    title = f"{result.scenario} — {red} (rows) against {blue} (columns), {played}"
    table = Table(title=escape(title), title_justify="left")
    table.add_column(f"{red} \\ {blue}", justify="left")
    for column in result.columns:
        mark = " ✗" if column in gone_columns else ""
        table.add_column(escape(column + mark), justify="right")
    table.add_column(f"{red} mix", justify="right")
    mix_rows, mix_columns = result.mix("rows"), result.mix("columns")
    for i, row in enumerate(result.rows):
        cells = [_cell(result, i, j, exact) for j in range(len(result.columns))]
        mark = " ✗" if row in gone_rows else ""
        table.add_row(escape(row + mark), *cells, f"{mix_rows[row]:.0%}")
    table.add_row(f"{blue} mix", *(f"{mix_columns[c]:.0%}" for c in result.columns), "")
    console.print(table)
    if isinstance(result, ExactTournament):
        _exact_lines(result, console)
        return
    lines = [
        f"Payoff: {red}'s {PAYOFF_TEXT[result.payoff_kind]}; (low–high) is its 95% interval "
        "(Wilson). Every pairing played the same combats: combat k uses the dice stream of "
        f"seed {result.seed}, combat k.",
        f"✗ dominated: no better against any remaining opponent strategy and significantly worse "
        f"against one (paired sign test, Holm over the {counted(result.tests.tests, 'test')} of "
        f"the matrix, α = {result.alpha:g}), removed round by round.",
    ]
    for e in result.to_dict()["eliminated"]:
        other = blue if e["side"] == red else red
        lines.append(
            f"  round {e['round']}: {e['side']}/{e['strategy']} is dominated by "
            f"{e['side']}/{e['by']} (significantly worse against "
            f"{other}/{e['significantly_worse_against']}, p Holm {p_text(e['p_holm'])})"
        )
    low, high = result.spread.value
    lines.append(
        f"Zero-sum game (linear programming): value {result.solution.value:.1%} for {red} "
        f"(95% CI {low:.1%}–{high:.1%}, bootstrap of "
        f"{counted(result.spread.resamples, 'resample')} of the combats)."
    )
    for line in lines:
        console.print(line, highlight=False, markup=False)
    if result.precision is not None:
        precise = result.precision
        console.print(
            f"--precision {precise.precision:g}: {precise.describe()}",
            highlight=False,
            markup=False,
        )
    console.print(f"Verdict: {result.verdict()}", highlight=False, markup=False)


def _cell(result: Tournament, i: int, j: int, exact: bool) -> str:
    """A cell of the matrix: the payoff, and its interval when it was sampled."""
    if exact:
        return f"{result.payoff[i, j]:.2%}"
    low, high = result.ci95[i, j]
    return f"{result.payoff[i, j]:.1%} ({low:.1%}–{high:.1%})"


def _exact_lines(result: ExactTournament, console: Console) -> None:
    """What an exact tournament's table means, its dominated strategies and its equilibrium."""
    red, blue = result.sides
    fractions = result.to_dict()["fractions"]
    lines = [
        f"Payoff: {red}'s {PAYOFF_TEXT[result.payoff_kind]}, exact (every pairing solved as a "
        "Markov chain; no combat played).",
        "✗ dominated: no better against any remaining opponent strategy and worse against one "
        "(exact payoffs: a fact, no test), removed round by round.",
    ]
    for e in result.to_dict()["eliminated"]:
        other = blue if e["side"] == red else red
        lines.append(
            f"  round {e['round']}: {e['side']}/{e['strategy']} is dominated by "
            f"{e['side']}/{e['by']} (worse against {other}/{e['significantly_worse_against']})"
        )
    lines.append(
        f"Zero-sum game (exact, in fractions): value {result.solution.value:.2%} for {red} "
        f"({fractions['value']})."
    )
    lines.append(f"method: exact (up to {result.states:,} states a pairing)")
    lines.append(f"Verdict: {result.verdict()}")
    for line in lines:
        console.print(line, highlight=False, markup=False)


def _console() -> Console:
    console = Console()
    return console if console.is_terminal else Console(width=max(console.width, 140))
