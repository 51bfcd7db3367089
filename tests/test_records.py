"""The per-combat record: its counter totals are the fighters' counters added column by column."""

from __future__ import annotations

from operator import attrgetter

from sim.engine.combat import Combat
from sim.engine.combatant import Fighter
from sim.engine.dice import Dice
from sim.run.records import TOTALS, combat_columns, combat_record, counter_totals


def _fighters() -> list[Fighter]:
    """Three fighters whose counters all differ (fighter i, counter j holds 100 * i + j + 1)."""
    fighters = [Fighter(f"f{i}", i % 2, i, 10 + i) for i in range(3)]
    for i, f in enumerate(fighters):
        for j, name in enumerate(TOTALS):
            setattr(f, name, 100 * i + j + 1)
    return fighters


def test_totals_add_each_counter_over_the_fighters_in_column_order() -> None:
    fighters = _fighters()
    expected = tuple(sum(attrgetter(name)(f) for f in fighters) for name in TOTALS)
    assert counter_totals(fighters) == expected
    # Column j is 300 + 3 * (j + 1): a swapped or dropped column would not match.
    assert expected[:2] == (303, 306)


def test_totals_of_no_fighters_are_zeros() -> None:
    assert counter_totals([]) == (0,) * len(TOTALS)


def test_combat_record_ends_with_the_totals_and_fits_the_columns() -> None:
    fighters = _fighters()
    combat = Combat(fighters, ("red", "blue"), Dice(1, 0), 60.0)
    combat.finish("victory", 12.0, 1)
    record = combat_record(combat, 7, 3)
    assert len(record) == len(combat_columns(("red", "blue")))
    assert record[:5] == (7, 3, "blue", "victory", 12.0)
    # Sides: red holds fighters 0 and 2 (hp 10 and 12), blue fighter 1 (hp 11).
    assert record[5:9] == (2, 22, 1, 11)
    assert record[9:] == counter_totals(fighters)
    assert record[9] == 1 + 101 + 201
