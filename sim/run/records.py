"""Flat outcome records: one per combat, and optionally one per combatant per combat.

Records are plain tuples in a fixed column order so that millions of them stay cheap; the
analysis package turns them into pandas tables at the edge. Columns that hold one value per side
are named ``<column>_<side name>``; the names are those of :mod:`sim.scenario.columns`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from sim.engine.combat import SEGMENTS_PER_SECOND, Combat
from sim.engine.combatant import COUNTERS, Fighter
from sim.scenario.columns import COMBATANT_COLUMNS, HEAD, TOTALS, combat_columns

#: What the ``winner`` column holds when no side won.
DRAW = "draw"

__all__ = ["COMBATANT_COLUMNS", "DRAW", "HEAD", "TOTALS", "combat_columns"]


def _adder(names: tuple[str, ...]) -> Callable[[Iterable[Fighter]], tuple[int, ...]]:
    """A function that adds up the counters ``names`` over some fighters, in that order.

    It is written out from the names once, at import, as plain attribute reads and additions
    (the way ``dataclasses`` writes an ``__init__``): a combat's record is made once per combat,
    and this costs about a quarter of reading the counters with ``attrgetter`` and summing them
    with ``zip`` and ``sum`` (instructions counted on the Target 10 reference duel), so the
    column list stays the one in :mod:`sim.scenario.columns`.
    """
    if not all(name.isidentifier() for name in names):
        raise ValueError(f"counter names must be attribute names: {names}")
    totals = [f"t{i}" for i in range(len(names))]
    lines = [
        "def add_up(fighters):",
        f"    {' = '.join([*totals, '0'])}",
        "    for f in fighters:",
        *(f"        {t} += f.{name}" for t, name in zip(totals, names, strict=True)),
        f"    return ({', '.join(totals)},)",
    ]
    namespace: dict[str, Callable[[Iterable[Fighter]], tuple[int, ...]]] = {}
    exec("\n".join(lines), {}, namespace)
    return namespace["add_up"]


#: Each of :data:`TOTALS` summed over a combat's fighters: ``_totals(combat.fighters)``.
_totals = _adder(TOTALS)


def combat_record(combat: Combat, index: int, seed: int) -> tuple:
    """The flat record of a finished combat (see :func:`combat_columns`)."""
    winner = combat.side_names[combat.winner] if combat.winner is not None else DRAW
    row: list = [index, seed, winner, combat.end_reason, combat.duration_s]
    for side in combat.sides:
        able = 0
        hp_left = 0
        for f in side:
            if f.out is None:
                able += 1
                if f.hp > 0:
                    hp_left += f.hp
        row.append(able)
        row.append(hp_left)
    row.extend(_totals(combat.fighters))
    return tuple(row)


def combatant_records(combat: Combat, index: int, seed: int) -> list[tuple]:
    """One flat record per combatant of a finished combat (see :data:`COMBATANT_COLUMNS`)."""
    rows = []
    end = combat.duration_s
    for f in combat.fighters:
        out_at = None if f.out_at is None else round(f.out_at / SEGMENTS_PER_SECOND, 6)
        time_out = 0.0 if out_at is None else max(round(end - out_at, 6), 0.0)
        rows.append(
            (
                index,
                seed,
                f.name,
                combat.side_names[f.side],
                f.max_hp,
                f.hp,
                f.out or "",
                out_at,
                time_out,
                *(getattr(f, c) for c in COUNTERS),
            )
        )
    return rows
