"""The shape of the code: one-way layers, no import cycles, and a command line that starts fast."""

from __future__ import annotations

import importlib
import subprocess
import sys

import click

from sim.cli import CommandGroup, cli
from sim.commands import COMMANDS
from tests.conftest import ROOT

# -- the command table ---------------------------------------------------------------------------


def test_the_command_table_says_what_each_command_says():
    for name, entry in COMMANDS.items():
        command = getattr(importlib.import_module(entry.module), name)
        assert isinstance(command, click.Command)
        assert command.name == name
        assert command.get_short_help_str(10**6) == entry.summary, name


def _listing(group: click.Group) -> str:
    context = click.Context(group, info_name="combatsim")
    formatter = context.make_formatter()
    group.format_commands(context, formatter)
    return formatter.getvalue()


def test_help_lists_the_commands_as_if_they_were_all_loaded():
    own = {name: command for name, command in cli.commands.items() if name not in COMMANDS}
    lazy = CommandGroup("combatsim", commands=own)
    listed = _listing(lazy)
    assert not set(lazy.commands) & set(COMMANDS), "listing the commands imported them"
    context = click.Context(cli)
    every = {name: cli.get_command(context, name) for name in cli.list_commands(context)}
    eager = _listing(click.Group("combatsim", commands=every))
    assert set(COMMANDS) < set(every)
    assert listed == eager


def test_the_command_line_starts_without_scipy_matplotlib_or_pandas():
    code = (
        "import sys, sim.cli; "
        "print(sorted(m for m in ('scipy', 'matplotlib', 'pandas') if m in sys.modules))"
    )
    found = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert found.stdout.strip() == "[]"
