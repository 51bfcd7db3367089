"""Further ``combatsim`` commands, one module per family; :mod:`sim.cli.app` loads them when used.

These commands sit on the analysis package, which brings SciPy, Matplotlib and pandas with it
(about two seconds of imports). ``combatsim --help`` and ``combatsim run`` need none of that, so
:data:`COMMANDS` says, for each command, the module that defines it and its one-line help; the
module is imported only when the command is run or its own help is asked for. A test checks that
every line here is the command's own short help, so the listing cannot drift.

A new command is a ``@click.command()`` function in one of these modules (or a new one) and one
line in :data:`COMMANDS`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CommandEntry:
    """Where a command lives and what ``combatsim --help`` says of it without importing it.

    Attributes:
        module: the module that defines it, as a click command named like the command.
        summary: its short help: the first sentence of its docstring.
    """

    module: str
    summary: str


#: The commands defined under ``sim/cli/commands/``, by name.
COMMANDS: dict[str, CommandEntry] = {
    "compare": CommandEntry(
        "sim.cli.commands.compare", "Compare SCENARIO's variants with it, paired combat by combat."
    ),
    "baseline": CommandEntry(
        "sim.cli.commands.compare",
        "Record how SCENARIO and each of its variants play now, for `combatsim check`.",
    ),
    "check": CommandEntry(
        "sim.cli.commands.compare",
        "Replay every baseline under PATHS and fail if a win rate moved significantly.",
    ),
    "sweep": CommandEntry(
        "sim.cli.commands.analysis",
        "Play SCENARIO at every point of its sweep: section, with the same seeds at each.",
    ),
    "plot": CommandEntry(
        "sim.cli.commands.analysis",
        "Redraw the charts of saved RESULTS without re-running.",
    ),
    "balance": CommandEntry(
        "sim.cli.commands.analysis",
        "Find the value of a parameter where a side's win rate crosses a target.",
    ),
    "report": CommandEntry(
        "sim.cli.commands.analysis",
        "Write one self-contained HTML report of saved RESULTS: charts, tables, scenario, options.",
    ),
    "tournament": CommandEntry(
        "sim.cli.commands.tournament",
        "Play every strategy of one side against every strategy of the other, on the same seeds.",
    ),
    "schema": CommandEntry(
        "sim.cli.commands.schema",
        "Print the JSON Schema of scenario files: keys, options, stat blocks, defaults.",
    ),
    "sensitivity": CommandEntry(
        "sim.cli.commands.sensitivity",
        "Measure how much each parameter of SCENARIO's sensitivity: section moves the balance.",
    ),
    "new": CommandEntry(
        "sim.cli.commands.new",
        "Write a commented starter scenario for RULES into FILE (or print it).",
    ),
    "odds": CommandEntry(
        "sim.cli.commands.odds",
        "Print the exact odds of one exchange for every attacker and defender pair of SCENARIO.",
    ),
    "serve": CommandEntry(
        "sim.cli.commands.serve",
        "Open the workbench: a local web page to write, run, compare and share scenarios.",
    ),
    "bench": CommandEntry(
        "sim.cli.commands.bench",
        "Measure combats per second, SimPy events, speed-up and memory against the targets.",
    ),
}
