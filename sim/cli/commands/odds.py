"""``combatsim odds``: the exact odds of one exchange for every attacker and defender pair.

A thin click layer over :mod:`sim.exact.odds` (the numbers) and :mod:`analysis.odds_text` (the
tables); see ``docs/exact.md``. A rule system without exchange laws (a plug-in) is refused in a
sentence, exit code 2.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
from rich.console import Console

from analysis.odds_text import odds_tables
from sim.cli.app import handles_bad_input, json_option, scenario_argument
from sim.engine.errors import CommandError
from sim.exact.odds import NoExactOdds
from sim.exact.odds import odds as exact_odds
from sim.scenario.loader import load_scenario

#: Blanks at the end of a line, and the style codes after them (as ``run`` drops them).
_TRAILING_BLANKS = re.compile(r"[ \t]+((?:\x1b\[[0-9;]*m)*)$", re.MULTILINE)


@click.command()
@scenario_argument
@click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="NAME",
    help="Also the odds of this variant of SCENARIO (repeatable).",
)
@json_option("Print the odds as one JSON object (each probability as fraction and float).")
@handles_bad_input
def odds(scenario: Path, variants: tuple[str, ...], as_json: bool) -> None:
    """Print the exact odds of one exchange for every attacker and defender pair of SCENARIO.

    For each pair and each way the attacker strikes: the derived values (FIGHT, SHOOT, DEFENSE,
    pools, to-hit and defense chances), the chance of each outcome, the damage, and the expected
    number of exchanges to take the defender out, from the rule system's own exchange laws.
    """
    loaded = load_scenario(scenario)
    try:
        results = exact_odds(loaded, variants)
    except NoExactOdds as exc:
        raise CommandError(f"{scenario}: no exact odds: {exc}") from exc
    if as_json:
        payload = {"scenario": loaded.name, "file": str(scenario)}
        payload["odds"] = [r.to_json() for r in results]  # type: ignore[assignment]
        click.echo(json.dumps(payload))
        return
    console = Console()
    with console.capture() as captured:
        for result in results:
            odds_tables(result, console)
    click.echo(_TRAILING_BLANKS.sub(r"\1", captured.get()), nl=False)
