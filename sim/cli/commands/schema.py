"""``combatsim schema``: the scenario format as a JSON Schema, for editors.

A thin click layer over :mod:`sim.scenario.editor_schema`, which builds the schema from the
loader's pydantic models and the registry of rule systems (plug-ins included). The bundled
scenarios point at the copy committed under ``schema/`` (``docs/scenarios.md`` says how to set
an editor up).
"""

from __future__ import annotations

import click

from sim.cli.app import handles_bad_input
from sim.engine.errors import CommandError
from sim.rules import RESOLUTIONS, RULE_SYSTEMS
from sim.scenario.editor_schema import scenario_schema, schema_text


@click.command()
@click.option(
    "--rules",
    "rules",
    metavar="NAME",
    default=None,
    help="Only this rule system's options and stat blocks (default: every rule system).",
)
@handles_bad_input
def schema(rules: str | None) -> None:
    """Print the JSON Schema of scenario files: keys, options, stat blocks, defaults.

    Save it and point an editor at it (a first line
    ``# yaml-language-server: $schema=PATH`` in the scenario, for the YAML extension of VS
    Code and other editors that use the YAML language server), and it completes keys, shows
    each one's description and default, and flags a mistake as you type. ``combatsim
    validate`` remains the judge: it also checks what a schema cannot say (unique names, dice,
    cross-field rules, variants and sweeps).
    """
    systems = dict(RULE_SYSTEMS)
    if rules is not None:
        if rules not in systems:
            raise click.BadParameter(
                f"{rules!r} is not a rule system; expected one of {', '.join(systems)}",
                param_hint="--rules",
            )
        systems = {rules: systems[rules]}
    try:
        text = schema_text(scenario_schema(systems, RESOLUTIONS))
    except ValueError as exc:  # a plug-in whose models cannot be told apart in the schema
        raise CommandError(f"cannot write the schema: {exc}") from exc
    click.echo(text, nl=False)
