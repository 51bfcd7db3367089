"""Further ``combatsim`` commands, one module per family, each adding itself to :data:`sim.cli.cli`.

:mod:`sim.cli` imports every module listed in :data:`COMMAND_MODULES` once its group exists, so a
new family of commands is one module here and one line in that list.
"""

#: Modules that define commands on the ``combatsim`` group.
COMMAND_MODULES: tuple[str, ...] = (
    "sim.commands.compare",
    "sim.commands.analysis",
    "sim.commands.bench",
)
