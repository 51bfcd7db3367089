"""Helpers of the fault tests: small runs, and a command that must be refused cleanly."""

from __future__ import annotations

import pandas as pd
from click.testing import CliRunner

from sim import simulate
from sim.cli.app import cli
from sim.run.choices import Execution
from tests.conftest import SCENARIOS

DUEL = SCENARIOS / "acs-duel.yaml"
RUNS = 400
CHUNK = 100


def run_args(out, *extra, seed=1, runs=RUNS):
    """``combatsim run`` of a small duel into ``out``, in this process."""
    return [
        "run",
        str(DUEL),
        "--runs",
        str(runs),
        "--seed",
        str(seed),
        "--chunk-size",
        str(CHUNK),
        "--workers",
        "1",
        "--quiet",
        "--json",
        "--out",
        str(out),
        *extra,
    ]


def invoke(args):
    """Run the command line in this process; return click's result."""
    return CliRunner().invoke(cli, [str(a) for a in args])


def refused(args, *words):
    """The command is refused: exit code 2, one message holding ``words``, no traceback."""
    result = invoke(args)
    assert result.exit_code == 2, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert "error:" in result.output.lower()
    for word in words:
        assert word in result.output, (word, result.output)
    return result.output


def succeeded(args):
    """The command ran: exit code 0; return its output."""
    result = invoke(args)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def clean_table(seed=1, runs=RUNS):
    """The outcome table of an uninterrupted, unstreamed run."""
    return simulate(DUEL, runs=runs, seed=seed, execution=Execution(workers=1)).outcomes


def streamed_table(out):
    """The outcome table a streamed run left in ``out``."""
    return pd.read_parquet(out / "outcomes.parquet")


def parts(out, table="outcomes"):
    """The chunk files of a streamed run."""
    return sorted((out / f"{table}.parquet").glob("part-*.parquet"))
