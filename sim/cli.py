"""``combatsim``: the command line, a thin click layer over :mod:`sim.api`.

Every command that reads a scenario refuses a bad one with the list of its problems on stderr and
exit code 2, never a traceback.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import click

from sim.scenario.problems import ScenarioError

#: Exit code for bad input (a scenario that cannot be run, a bad option value).
EXIT_BAD_INPUT = 2


def _problems_exit(exc: ScenarioError) -> None:
    count = len(exc.problems)
    click.echo(
        f"error: the scenario cannot be used ({count} problem{'s' * (count != 1)}):", err=True
    )
    for problem in exc.problems:
        click.echo(f"  {problem}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def handles_bad_input(command):
    """Turn scenario problems into a clear message and exit code 2."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except ScenarioError as exc:
            _problems_exit(exc)

    return wrapper


scenario_argument = click.argument(
    "scenario", type=click.Path(dir_okay=False, path_type=Path), metavar="SCENARIO"
)
seed_option = click.option(
    "--seed",
    type=click.IntRange(0, 2**63 - 1),
    default=None,
    help="Seed of the run (default: the scenario's seed).",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="combatsim")
def cli() -> None:
    """combatsim: balance tabletop combat rules with thousands of seeded fights.

    Built on The Ambition Combat System (Raven c.s. McCracken, 2007), with Target 10 and
    Combat Proposition Three.
    """


@cli.command()
@scenario_argument
@click.option(
    "--runs",
    type=click.IntRange(1, 10**9),
    default=None,
    help="Number of combats (default: the scenario's runs).",
)
@seed_option
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Directory to save outcomes (Parquet and CSV) and summary.json into.",
)
@click.option(
    "--detail/--no-detail",
    default=False,
    help="Also build the per-combatant table (saved with --out).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@handles_bad_input
def run(
    scenario: Path,
    runs: int | None,
    seed: int | None,
    out: Path | None,
    detail: bool,
    as_json: bool,
) -> None:
    """Run SCENARIO many times and print win rates with 95% confidence intervals."""
    from sim.api import simulate

    result = simulate(scenario, runs=runs, seed=seed, detail=detail)
    if out is not None:
        result.save(out)
    if as_json:
        click.echo(json.dumps(result.summary))
    else:
        from analysis.report_text import summary_table

        summary_table(result.summary, result.scenario)
        if out is not None:
            click.echo(f"saved to {out}/")


@cli.command()
@scenario_argument
@click.option(
    "--combat",
    "index",
    type=click.IntRange(0, None),
    required=True,
    help="Index of the combat in the run (0 is the first).",
)
@seed_option
@handles_bad_input
def replay(scenario: Path, index: int, seed: int | None) -> None:
    """Narrate combat K of a run of SCENARIO, segment by segment."""
    from sim.api import replay as narrate

    click.echo(narrate(scenario, index, seed), nl=False)


@cli.command()
@click.argument(
    "scenarios", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path)
)
@click.option("--json", "as_json", is_flag=True, help="Print the problems as JSON.")
def validate(scenarios: tuple[Path, ...], as_json: bool) -> None:
    """Check scenario files and explain every problem in them."""
    from sim.scenario.loader import validate_file

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


def _load_command_modules() -> None:
    import importlib

    from sim.commands import COMMAND_MODULES

    for name in COMMAND_MODULES:
        importlib.import_module(name)


_load_command_modules()


def main() -> None:
    """Entry point of the ``combatsim`` console script."""
    cli(prog_name="combatsim")
