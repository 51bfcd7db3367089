"""``combatsim new``: a commented starter scenario for each rule system and each hybrid.

A designer's first file: every key a first scenario needs, each with a comment saying what it
does and where the docs say more, a stat block per side written in the rule system's own words
(gear from its armory where the text names it), and a variant to compare. Each starter
validates and runs as written (``tests/test_cli_new.py`` runs every one); the designer then
changes the numbers. The starters themselves are :mod:`sim.scenario.starters` (one copy: the
workbench's "new from a starter" offers the same).
"""

from __future__ import annotations

from pathlib import Path

import click

from sim.cli.app import handles_bad_input
from sim.engine.errors import CommandError
from sim.scenario.starters import STARTERS, starter

__all__ = ["STARTERS", "new", "starter"]


@click.command()
@click.argument("rules", metavar="RULES")
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@handles_bad_input
def new(rules: str, file: Path | None, force: bool) -> None:
    """Write a commented starter scenario for RULES into FILE (or print it).

    RULES is acs, target10 or prop3, or a hybrid on the ACS clock: target10-on-acs or
    prop3-on-acs. The starter validates and runs as it is: `combatsim new target10 my.yaml &&
    combatsim run my.yaml`. An existing FILE is kept unless --force is given.
    """
    text = starter(rules)
    if file is None:
        click.echo(text, nl=False)
        return
    if file.exists() and not force:
        raise CommandError(f"{file}: exists already; give another FILE, or --force to replace it")
    if not file.parent.is_dir():
        raise CommandError(f"{file}: no such folder {file.parent}; create it first")
    try:
        file.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"{file}: cannot be written ({exc.strerror or exc})") from None
    click.echo(f"wrote {file}: `combatsim validate {file}`, then `combatsim run {file}`")
