"""Flat outcome records: one per combat, and optionally one per combatant per combat.

Records are plain tuples in a fixed column order so that millions of them stay cheap; the
analysis package turns them into pandas tables at the edge. Columns that hold one value per side
are named ``<column>_<side name>``; the names are those of :mod:`sim.scenario.columns`.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import add, attrgetter

from sim.engine.combat import SEGMENTS_PER_SECOND, Combat
from sim.engine.combatant import COUNTERS, Fighter
from sim.scenario.columns import COMBATANT_COLUMNS, HEAD, TOTALS, combat_columns

#: What the ``winner`` column holds when no side won.
DRAW = "draw"

__all__ = ["COMBATANT_COLUMNS", "DRAW", "HEAD", "TOTALS", "combat_columns"]


#: A fighter's counters of :data:`TOTALS`, as a tuple in column order.
_counters_of = attrgetter(*TOTALS)


#: The totals of no fighters.
_NO_TOTALS = (0,) * len(TOTALS)


def counter_totals(fighters: Iterable[Fighter]) -> tuple[int, ...]:
    """Each counter of :data:`TOTALS` summed over some fighters, in column order."""
    totals: Iterable[int] = _NO_TOTALS
    for fighter in fighters:
        totals = map(add, totals, _counters_of(fighter))
    return tuple(totals)


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
    row.extend(counter_totals(combat.fighters))
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
