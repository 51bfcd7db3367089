"""``combatsim``: the command line, a thin click layer over :mod:`sim.run.api`.

Every command refuses bad input with a clear message on stderr and exit code 2, never a
traceback: a bad scenario with the list of its problems (:class:`ScenarioError`), any other
request that cannot be carried out with its one sentence (:class:`~sim.engine.errors.CommandError`).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import json
import math
import os
import re
import shlex
import sys
import textwrap
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console

from analysis.precision import DEFAULT_BATCH, DEFAULT_MAX_RUNS, run_to_precision
from analysis.report_text import summary_table
from sim.cli.commands import COMMANDS
from sim.engine.errors import EXIT_BAD_INPUT, CommandError
from sim.engine.text import CONTROL, escape, visible
from sim.exact.chain import TooManyStates
from sim.exact.errors import NotExact
from sim.rules.wording import counted
from sim.run.api import Execution, RunInterrupted, Storage, simulate
from sim.run.api import replay as replay_combat
from sim.run.exact import METHODS, choose_method, exact_result
from sim.run.files import WriteError, cause_of
from sim.run.outdir import claim
from sim.run.parallel import WorkerLost
from sim.run.runner import DEFAULT_CHUNK
from sim.run.summary import DEFINITIONS
from sim.run.watch import RunWarning
from sim.scenario.loader import load_scenario, validate_file
from sim.scenario.problems import ScenarioError

#: What rich itself draws on a terminal, let through there: styles (SGR) on stdout; on stderr
#: also the progress bar's moves (back to the line's start, a line up, erase the line, hide
#: and show the cursor). Off a terminal rich draws none, and every control character is shown.
_DRAWN_ON_STDOUT = r"\x1b\[[0-9;]*m"
_DRAWN_ON_STDERR = _DRAWN_ON_STDOUT + r"|\r|\x1b\[[0-9]*[AK]|\x1b\[\?25[hl]"


class VisibleStream:
    r"""A text stream that shows the control characters written to it (:func:`visible`).

    Everything a command prints goes to ``sys.stdout`` and ``sys.stderr`` (``click.echo``, rich's
    tables and progress bar, warnings, the narration), so the command line puts one of these in
    front of each while it runs (:meth:`CommandGroup.main`): a name or file name holding ESC or
    BEL is shown as ``\x1b`` or ``\x07``, never obeyed. It exposes no binary buffer, so that
    nothing writes around it.
    """

    def __init__(self, stream: Any, drawn: str) -> None:
        self._stream = stream
        try:
            terminal = bool(stream.isatty())
        except (AttributeError, ValueError):
            terminal = False
        self._kept = re.compile(f"({drawn})|{CONTROL.pattern}") if terminal else None

    def write(self, text: str) -> int:
        """Write ``text`` with its control characters shown (a bytes write raises TypeError)."""
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self._kept is None:
            shown = visible(text)
        else:
            shown = self._kept.sub(lambda m: m.group(1) or escape(m.group()), text)
        self._stream.write(shown)
        return len(text)

    def writelines(self, lines: Any) -> None:
        """Write each line."""
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        if name == "buffer":
            raise AttributeError(name)
        return getattr(self._stream, name)


@contextlib.contextmanager
def visible_output() -> Iterator[None]:
    """Show control characters on stdout and stderr meanwhile (see :class:`VisibleStream`)."""
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout = VisibleStream(stdout, _DRAWN_ON_STDOUT)
    sys.stderr = VisibleStream(stderr, _DRAWN_ON_STDERR)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = stdout, stderr


def _problems_exit(exc: ScenarioError) -> None:
    count = len(exc.problems)
    click.echo(
        f"error: the scenario cannot be used ({count} problem{'s' * (count != 1)}):", err=True
    )
    for problem in exc.problems:
        click.echo(f"  {problem}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def handles_bad_input(command):
    """Turn bad input into a clear message and its exit code (2), never a traceback.

    Scenario problems are listed one per line; a :class:`CommandError` is said in its sentence
    (results that could not be written with what to do next); a file the system refused, or a
    Dask scheduler that cannot be reached (``--scheduler``), is named.
    """

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("always", RunWarning)
                warnings.showwarning = _said_on_stderr(warnings.showwarning)
                return command(*args, **kwargs)
        except ScenarioError as exc:
            _problems_exit(exc)
        except WriteError as exc:
            if not exc.hint:
                exc = exc.with_hint(AGAIN_HINT)
            click.echo(f"error: {exc}", err=True)
            sys.exit(exc.exit_code)
        except CommandError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(exc.exit_code)
        except BrokenProcessPool as exc:
            click.echo(f"error: {_worker_lost(exc, kwargs)}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except OSError as exc:
            execution = kwargs.get("execution")
            scheduler = execution.scheduler if isinstance(execution, Execution) else None
            if exc.filename is not None:  # a file the command reads or writes
                click.echo(f"error: cannot use {exc.filename}: {cause_of(exc)}", err=True)
            elif scheduler is not None:
                click.echo(f"error: cannot use the Dask scheduler {scheduler!r}: {exc}", err=True)
            else:
                raise
            sys.exit(EXIT_BAD_INPUT)

    return wrapper


def _worker_lost(exc: BrokenProcessPool, kwargs: dict[str, Any]) -> str:
    """One sentence for a run whose worker process died: which, why, what is kept, what next.

    The chunks a streamed run finished are on disk and ``--resume`` plays only the others, to the
    table an uninterrupted run gives; a run held in memory (no ``--out``, ``--precision``, a
    command without ``--resume``) keeps nothing.
    """
    who = str(exc) if isinstance(exc, WorkerLost) else "a worker process ended abruptly"
    if isinstance(exc, WorkerLost) and exc.killed:
        why = " (most likely the system ran out of memory and killed it, or it was killed by hand)"
    else:
        why = " (killed, or it crashed)"
    out = kwargs.get("out")
    if out is not None and "resume" in kwargs and kwargs.get("precision") is None:
        given = click.get_current_context().meta.get(ARGUMENTS) or []
        again = shlex.join(["combatsim", *given, *(["--resume"] * ("--resume" not in given))])
        kept = f"what was finished is kept in {out}/, and `{again}` plays only the rest"
    else:
        kept = "nothing of this run was kept; run the same command again"
    return f"the run stopped: {who}{why}; {kept}, with fewer --workers if memory is short"


#: Where :class:`CommandGroup` keeps the arguments it was given (``ctx.meta``), to repeat them.
ARGUMENTS = "combatsim.arguments"

#: What to do after a write failed, for commands without --resume (what they wrote before stays).
AGAIN_HINT = "the files written before are kept; run the same command again once it can be written"


def _said_on_stderr(previous):
    """A ``warnings.showwarning`` that says a :class:`RunWarning` once, in one line on stderr.

    What a results directory set right (a chunk set aside, a lock taken over) or a run's
    workers capped is news for the user, not a Python warning with a file and line (and a
    sweep's many runs say the same thing once); every other warning is shown as before.
    """
    said: set[str] = set()

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        if issubclass(category, RunWarning):
            if str(message) not in said:
                said.add(str(message))
                click.echo(f"warning: {message}", err=True)
        else:
            previous(message, category, filename, lineno, file, line)

    return show


def _between(low: float | None, high: float | None, low_open: bool, high_open: bool) -> str:
    """``from 1 to 1,000,000,000``, ``of at least 0``, ``above 0 and below 1``: a range in words."""

    def shown(x: float) -> str:
        return f"{x:,}" if float(x).is_integer() and abs(x) >= 1000 else f"{x:g}"

    if low is not None and high is not None:
        if not low_open and not high_open:
            return f"from {shown(low)} to {shown(high)}"
        first = f"above {shown(low)}" if low_open else f"of at least {shown(low)}"
        second = f"below {shown(high)}" if high_open else f"at most {shown(high)}"
        return f"{first} and {second}"
    if low is not None:
        return f"above {shown(low)}" if low_open else f"of at least {shown(low)}"
    if high is not None:
        return f"below {shown(high)}" if high_open else f"of at most {shown(high)}"
    return ""


class Whole(click.IntRange):
    """A whole number in a range, refused in words.

    "'abc' is not a whole number; expected a whole number from 1 to 1,000,000,000", where click
    would say "'abc' is not a valid integer range".
    """

    name = "whole number"

    def convert(self, value, param, ctx):
        """The whole number, inside the range."""
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = int(str(value).strip())
            except ValueError:
                self.fail(
                    f"{value!r} is not a whole number; expected {self.expected()}", param, ctx
                )
        if (self.min is not None and number < self.min) or (
            self.max is not None and number > self.max
        ):
            self.fail(f"{number:,} is out of range; expected {self.expected()}", param, ctx)
        return number

    def expected(self) -> str:
        """What the option takes, in words."""
        where = _between(self.min, self.max, self.min_open, self.max_open)
        return f"a whole number {where}".strip()


class Number(click.FloatRange):
    """A number in a range, refused in words; ``nan``, which compares false with any bound, too."""

    def convert(self, value, param, ctx):
        """The number, inside the range and not ``nan``."""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        else:
            try:
                number = float(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a number; expected {self.expected()}", param, ctx)
        if math.isnan(number):
            self.fail(f"{value!r} is not a number; expected {self.expected()}", param, ctx)
        low = self.min is not None and (number <= self.min if self.min_open else number < self.min)
        high = self.max is not None and (number >= self.max if self.max_open else number > self.max)
        if low or high:
            self.fail(f"{number:g} is out of range; expected {self.expected()}", param, ctx)
        return number

    def expected(self) -> str:
        """What the option takes, in words."""
        where = _between(self.min, self.max, self.min_open, self.max_open)
        return f"a number {where}".strip()


force_option = click.option(
    "--force",
    is_flag=True,
    help="Write into an --out that holds files combatsim did not write (its own file names "
    "there are replaced).",
)


def resume_option(help_text: str) -> Callable[[F], F]:
    """``--resume``: finish what an interrupted command left in its ``--out``."""
    return click.option("--resume", is_flag=True, help=help_text)


@contextlib.contextmanager
def interrupted(out: Path | None):
    """Ctrl-C during a command that streams into ``out``: say what was kept, exit 130.

    Every chunk finished is on disk (:mod:`analysis.job`); the same command with ``--resume``
    plays only the rest.
    """
    try:
        yield
    except KeyboardInterrupt:
        kept = f"the combats finished so far are in {out}/; " if out is not None else ""
        click.echo(f"interrupted: {kept}add --resume to the same command to finish", err=True)
        sys.exit(EXIT_INTERRUPTED)


scenario_argument = click.argument(
    "scenario", type=click.Path(dir_okay=False, path_type=Path), metavar="SCENARIO"
)
seed_option = click.option(
    "--seed",
    type=Whole(0, 2**63 - 1),
    default=None,
    help="Seed of the run (default: the scenario's seed).",
)


#: A click command function, as an option decorator takes and gives it.
F = TypeVar("F", bound=Callable[..., Any])


def runs_option(help_text: str) -> Callable[[F], F]:
    """``--runs``: how many combats to play, counted as ``help_text`` says (per arm, point...)."""
    return click.option("--runs", type=Whole(1, 10**9), default=None, help=help_text)


def out_option(help_text: str) -> Callable[[F], F]:
    """``--out DIR``: the results folder a command writes (and ``help_text`` describes)."""
    return click.option(
        "--out",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help=help_text,
    )


def json_option(help_text: str = "Print the summary as one JSON object.") -> Callable[[F], F]:
    """``--json``: print the command's result as JSON instead of tables (``as_json``)."""
    return click.option("--json", "as_json", is_flag=True, help=help_text)


class CommandGroup(click.Group):
    """The ``combatsim`` group: the commands of :data:`sim.cli.commands.COMMANDS` load when used.

    Their modules bring the analysis package and its heavy dependencies; ``combatsim --help``
    lists them from the table without importing them (see :mod:`sim.cli.commands`).
    """

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command line with every control character it prints shown, not obeyed.

        Around the whole of click's ``main``, so that click's own usage errors (which quote the
        argument given) are shown the same way.
        """
        with visible_output():
            return super().main(*args, **kwargs)

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        """The context, which keeps the arguments as given (to say how to resume a run)."""
        given = list(args)
        ctx = super().make_context(info_name, args, parent, **extra)
        ctx.meta[ARGUMENTS] = given
        return ctx

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, those defined here and those not imported yet."""
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command, importing its module the first time it is asked for."""
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            # Deferred: the command modules import SciPy, Matplotlib and pandas (through the
            # analysis package), which start-up and `--help` should not pay for.
            module = importlib.import_module(COMMANDS[cmd_name].module)
            self.add_command(getattr(module, cmd_name), cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The ``Commands:`` listing, with the table's summary for commands not imported yet."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))
        rows = []
        for name in names:
            command = self.commands.get(name)
            if command is None:
                # A stand-in with the table's summary shortens it the way click would.
                command = click.Command(name, help=COMMANDS[name].summary)
                rows.append((name, command.get_short_help_str(limit)))
            elif not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="combatsim")
def cli() -> None:
    """combatsim: balance tabletop combat rules with thousands of seeded fights.

    Built on The Ambition Combat System (Raven c.s. McCracken, 2007), with Target 10 and
    Combat Proposition Three.
    """


def engine_options(command):
    """``--workers``, ``--scheduler``, ``--chunk-size`` and ``--quiet``: how a run is played.

    The command receives the first three as one ``execution`` (:class:`~sim.run.choices.
    Execution`), as the library takes them.
    """

    @functools.wraps(command)
    def with_execution(
        *args: Any,
        workers: int | None,
        scheduler: str | None,
        chunk_size: int | None,
        **kwargs: Any,
    ) -> Any:
        execution = Execution(workers=workers, chunk_size=chunk_size, scheduler=scheduler)
        return command(*args, execution=execution, **kwargs)

    wrapped = with_execution
    for option in reversed(
        [
            click.option(
                "--workers",
                type=Whole(1, 4096),
                default=None,
                help="Worker processes (default: chosen from the run's first combats: this "
                "process for a run one core finishes in about 2 s, else every core; 1 plays in "
                "this process). With --scheduler local, the size of the local Dask cluster.",
            ),
            click.option(
                "--scheduler",
                default=None,
                metavar="ADDRESS|local",
                help="Play the chunks on a Dask cluster: its scheduler's address "
                "(tcp://host:8786), or 'local' to start one on this machine.",
            ),
            click.option(
                "--chunk-size",
                type=Whole(1, 10**9),
                default=None,
                help="Combats per chunk, the unit of work of a worker (never changes a result). "
                "Default: about a second of one core's work, at least 4 chunks per worker "
                f"({DEFAULT_CHUNK} with --scheduler; on --resume, the run's own).",
            ),
            click.option("--quiet", "-q", is_flag=True, help="No progress bar on stderr."),
        ]
    ):
        wrapped = option(wrapped)
    return wrapped


def precision_options(command):
    """``--precision``, ``--max-runs`` and ``--batch``: play until the intervals are narrow."""
    for option in reversed(
        [
            click.option(
                "--precision",
                type=Number(0, 0.5, min_open=True),
                default=None,
                help="Play in batches until every 95% interval reported has at most this "
                "half-width (0.01 = ±1 point), or --max-runs is reached. Not with --runs.",
            ),
            click.option(
                "--max-runs",
                type=Whole(1, 10**9),
                default=DEFAULT_MAX_RUNS,
                show_default=True,
                help="Cap on combats (per arm or point) with --precision.",
            ),
            click.option(
                "--batch",
                type=Whole(1, 10**9),
                default=DEFAULT_BATCH,
                show_default=True,
                help="Combats (per arm or point) in each batch with --precision.",
            ),
        ]
    ):
        command = option(command)
    return command


def batch_echo(as_json: bool):
    """A per-batch progress line for --precision, on a terminal's stderr only (or None)."""
    if as_json or not sys.stderr.isatty():
        return None

    def on_batch(done: int, widest: float) -> None:
        click.echo(f"  {counted(done, 'combat')}: widest interval ±{widest:.4f}", err=True)

    return on_batch


#: The file names ``run`` takes for a report to play again rather than a scenario.
REPORT_SUFFIXES = (".html", ".htm")

#: Exit code after Ctrl-C (the shell's 128 + SIGINT).
EXIT_INTERRUPTED = 130

#: What each column of run's table means, under ``combatsim run --help`` (the one definition,
#: :data:`sim.run.summary.DEFINITIONS`, that the footnotes and the report print too).
COLUMNS_HELP = "\b\nThe table's columns:\n" + "\n".join(
    textwrap.fill(f"{name}: {meaning}", 78, initial_indent="  ", subsequent_indent="      ")
    for name, meaning in DEFINITIONS.items()
)


@cli.command(epilog=COLUMNS_HELP)
@scenario_argument
@runs_option("Number of combats (default: the scenario's runs).")
@seed_option
@out_option(
    "Directory to stream outcomes into as chunks finish (a Parquet dataset), then CSV "
    "copies and summary.json."
)
@click.option(
    "--resume",
    is_flag=True,
    help="Finish the run in --out: play only the chunks not already there.",
)
@force_option
@click.option(
    "--detail/--no-detail",
    default=False,
    help="Also build the per-combatant table (saved with --out).",
)
@json_option()
@precision_options
@click.option(
    "--method",
    type=click.Choice(METHODS),
    default="auto",
    show_default=True,
    help="auto: solve the fight as a Markov chain where a chain plays it within its state cap, "
    "else play combats (says which on stderr; --runs, --seed, --out, --precision, --resume or "
    "--detail ask for combats); exact: always solve it (docs/exact.md); sample: play combats.",
)
@click.option("--exact", "exact_flag", is_flag=True, help="The same as --method exact.")
@engine_options
@handles_bad_input
def run(
    scenario: Path,
    runs: int | None,
    seed: int | None,
    out: Path | None,
    resume: bool,
    force: bool,
    detail: bool,
    as_json: bool,
    precision: float | None,
    max_runs: int,
    batch: int,
    method: str,
    exact_flag: bool,
    execution: Execution,
    quiet: bool,
) -> None:
    """Run SCENARIO many times and print win rates with 95% confidence intervals.

    The combats are played on every core (or a Dask cluster with --scheduler); the results are
    the same whatever the workers. Ctrl-C prints the summary of the combats finished so far;
    with --out, run the same command again with --resume to finish.

    By default (--method auto) a fight that a Markov chain plays within its state cap is solved
    instead: exact win, draw and length figures, no combat played, and stderr says
    "method: exact"; any other fight, or a run given --runs, --seed, --out, --precision,
    --resume or --detail, plays combats ("method: sample (...)"). --exact always solves
    (--out DIR then keeps the exact summary for plot and report).

    SCENARIO may also be a report made by `combatsim report` (REPORT.html): its combats are
    played again from the scenario, seed, runs and options it holds, and the command says
    whether the outcome table matches the report's (exit 0) or what differs (exit 1).
    """
    if scenario.suffix.lower() in REPORT_SUFFIXES:
        if out is not None or resume or precision is not None or runs is not None:
            raise click.UsageError(
                "a report is played again with its own runs and options: no --runs, --out, "
                "--resume or --precision"
            )
        # Deferred: playing a report again needs the analysis package (SciPy, pandas), which
        # `combatsim run SCENARIO` does not load (see sim.cli.commands).
        module = importlib.import_module("sim.cli.commands.analysis")
        module.replay_report(scenario, execution, as_json)
        return
    if exact_flag:
        method = "exact"
    asked = {"--runs": runs is not None, "--seed": seed is not None, "--out": out is not None}
    asked |= {"--precision": precision is not None, "--resume": resume, "--detail": detail}
    # The default ``auto`` samples without a note (the table's title says "N combats, seed S");
    # a --method given explicitly says why it samples.
    source = click.get_current_context().get_parameter_source("method")
    chosen = exact_flag or source is not click.core.ParameterSource.DEFAULT
    if method != "sample" and _ran_exactly(scenario, method, as_json, asked, (out, force), chosen):
        return
    if resume and out is None:
        raise click.UsageError("--resume needs --out DIR, the directory of the run to finish")
    if precision is not None:
        if runs is not None:
            raise click.UsageError("give --runs or --precision, not both")
        if resume or detail:
            raise click.UsageError(
                "--precision plays batches in memory: not with --resume or --detail"
            )
        if out is not None:
            claim(out, force)  # before playing: refuse a folder that is not combatsim's at once
        precise = run_to_precision(
            scenario,
            precision,
            seed,
            max_runs=max_runs,
            batch=batch,
            on_batch=batch_echo(as_json),
            execution=execution,
        )
        if out is not None:
            precise.result.save(out)
        _show_summary(precise.result.summary, precise.result.scenario, as_json)
        if not as_json:
            click.echo(precise.ran.describe())
            if out is not None:
                click.echo(f"saved to {out}/")
        return
    try:
        result = simulate(
            scenario,
            runs=runs,
            seed=seed,
            detail=detail,
            execution=execution,
            storage=Storage(out, resume=resume, force=force),
            progress=not quiet,
        )
    except RunInterrupted as exc:
        _show_interrupted(exc, as_json, out)
        sys.exit(EXIT_INTERRUPTED)
    _show_summary(result.summary, result.scenario, as_json)
    if out is not None and not as_json:
        click.echo(f"saved to {out}/")


def _ran_exactly(
    scenario: Path,
    method: str,
    as_json: bool,
    asked: dict[str, bool],
    folder: tuple[Path | None, bool],
    chosen: bool,
) -> bool:
    """Answer ``run --method exact|auto`` exactly where it can; False: sample it.

    ``asked`` says which flags of a sampled run were given. Under ``auto`` each of them asks for
    combats, so the run samples; ``exact`` refuses them, but for ``--out`` (``folder``: the
    folder and ``--force``; it keeps the exact summary and the scenario:
    :meth:`ExactResult.save`). ``exact`` refuses a fight no chain plays, or one over the state
    cap, saying why; ``auto`` samples then. Stderr says ``method: exact`` when ``auto`` solved
    the fight, and why it sampled when the method was ``chosen`` (given on the command line).
    """
    out, force = folder
    given = [flag for flag, on in asked.items() if on]
    if method == "exact":
        given = [flag for flag in given if flag != "--out"]
    if given:
        if method == "exact":
            raise click.UsageError(f"an exact run plays no combat: not with {given[0]}")
        if chosen:
            click.echo(f"method: sample ({given[0]} asks for combats)", err=True)
        return False
    if out is not None:
        claim(out, force)  # before solving: refuse a folder that is not combatsim's at once
    loaded = load_scenario(scenario)
    try:
        choice, fight = choose_method(loaded, method)
    except (NotExact, TooManyStates) as why:
        raise click.ClickException(f"{scenario}: no exact answer: {why}") from None
    if fight is None:
        if chosen:
            click.echo(f"method: sample ({choice.reason})", err=True)
        return False
    if method == "auto":
        click.echo("method: exact", err=True)
    result = exact_result(loaded, fight)
    if out is not None:
        result.save(out)
    _show_summary(result.summary, result.scenario, as_json)
    if out is not None and not as_json:
        click.echo(f"saved to {out}/")
    return True


def _show_interrupted(exc: RunInterrupted, as_json: bool, out: Path | None) -> None:
    """What an interrupted run kept: its summary so far, or that nothing finished yet."""
    done, total = exc.result.runs, exc.total
    if done or as_json:
        _show_summary(exc.result.summary, exc.result.scenario, as_json)
    if done:
        combats = counted(total, "combat", grouped=True)
        said = f"interrupted: {done:,} of {combats} finished and kept"
    else:
        said = f"interrupted: no combat finished yet (of {total:,})"
    if exc.dropped:
        dropped = counted(exc.dropped, "combat", grouped=True)
        said += f"; {dropped} of the chunks under way were dropped (Ctrl-C twice)"
    click.echo(said, err=True)
    if out is not None and done:
        click.echo(f"they are in {out}/; add --resume to the same command to finish", err=True)


def _show_summary(summary: dict, scenario, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(summary))
        return
    console = Console()
    with console.capture() as captured:
        summary_table(summary, scenario, console)
    # rich pads a left-justified title (and some cells) to the table's width: drop the blanks
    # at the end of each line, before any closing style code on a terminal.
    click.echo(_TRAILING_BLANKS.sub(r"\1", captured.get()), nl=False)


#: Blanks at the end of a line, and the style codes after them.
_TRAILING_BLANKS = re.compile(r"[ \t]+((?:\x1b\[[0-9;]*m)*)$", re.MULTILINE)


@cli.command()
@scenario_argument
@click.option(
    "--combat",
    "index",
    type=Whole(0, None),
    required=True,
    help="Index of the combat in the run (0 is the first).",
)
@seed_option
@handles_bad_input
def replay(scenario: Path, index: int, seed: int | None) -> None:
    """Narrate combat K of a run of SCENARIO, segment by segment.

    Combat K is well defined for every K (its dice come from the seed and K alone), so a K
    beyond the scenario's runs is replayed too, with a note on stderr.
    """
    loaded = load_scenario(scenario)
    if index >= loaded.runs:
        click.echo(
            f"note: combat {index} lies beyond the {loaded.runs} runs of {loaded.name} "
            f"(combats 0 to {loaded.runs - 1}); it is replayed all the same",
            err=True,
        )
    click.echo(replay_combat(loaded, index, seed), nl=False)


@cli.command()
@click.argument(
    "scenarios", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path)
)
@json_option("Print the problems as JSON.")
@handles_bad_input
def validate(scenarios: tuple[Path, ...], as_json: bool) -> None:
    """Check scenario files and explain every problem in them."""
    report = {str(path): validate_file(path) for path in scenarios}
    if as_json:
        click.echo(json.dumps({k: [p.to_dict() for p in v] for k, v in report.items()}))
    else:
        for path, problems in report.items():
            if not problems:
                click.echo(f"{path}: ok")
                continue
            count = len(problems)
            click.echo(f"{path}: {count} problem{'s' * (count != 1)}", err=True)
            for problem in problems:
                click.echo(f"  {problem}", err=True)
    if any(report.values()):
        sys.exit(EXIT_BAD_INPUT)


#: The allocator Arrow uses in a command, unless the environment names one: the C library's.
#: Arrow's own (mimalloc) keeps pages it freed for reuse, so the process that writes a run's
#: chunk files holds more than it needs between chunks (docs/reliability.md, "Memory").
ARROW_POOL = "system"


def main() -> None:
    """Entry point of the ``combatsim`` console script."""
    # Read by pyarrow when it is first imported (the first chunk file), and inherited by the
    # worker processes; a library user's own process keeps pyarrow's default.
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", ARROW_POOL)
    cli(prog_name="combatsim")
