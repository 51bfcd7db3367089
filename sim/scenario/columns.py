"""The column names of the outcome tables a scenario's run produces.

They are fixed by the scenario itself (one pair of columns per side, named after the side), so
they are defined here, where a scenario is validated: a sweep's parameter label becomes a column
of the sweep's tables and must not take one of these names. :mod:`sim.run.records` fills the columns
in this order.
"""

from __future__ import annotations

from sim.engine.combatant import COUNTERS

#: Per-combat columns before the per-side ones.
HEAD = ("combat", "seed", "winner", "end", "duration_s")

#: Per-combat totals of the fighters' counters.
TOTALS = tuple(c for c in COUNTERS if not c.startswith("damage_"))

#: Per-combatant columns.
COMBATANT_COLUMNS = (
    "combat",
    "seed",
    "combatant",
    "side",
    "hp_start",
    "hp_left",
    "out",
    "out_at_s",
    "time_out_s",
    *COUNTERS,
)


def combat_columns(side_names: tuple[str, ...]) -> tuple[str, ...]:
    """The columns of a per-combat record for these sides."""
    per_side = tuple(
        f"{column}_{side}" for side in side_names for column in ("survivors", "hp_left")
    )
    return HEAD + per_side + TOTALS
