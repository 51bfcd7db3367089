"""Kept rolls: a pool drawn with one number from the table the exact engine sums over.

The table of a pool's kept rolls (``sim.rules.prop3.kept``) holds, for each sorted roll (or the
lowest dice that decide it), the number of ordered rolls that give it and what it reaches with
the pool's points. Checked against every ordered roll of the dice and against the ``wiggle``
searches on the whole roll; the draw against the table's slices and, sampled, against its law.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from sim.engine.dice import Dice
from sim.rules.prop3.kept import (
    MAX_ROWS,
    WHOLE_ROLLS,
    KeptTable,
    RolledPool,
    drawn_length,
    kept_rolls,
)
from sim.rules.prop3.roll_tables import kept_length
from sim.rules.prop3.wiggle import best_roll, lowest_pair

READINGS = [
    ("lowest_three", True, False),
    ("lowest_three", False, False),
    ("lowest_three", True, True),
    ("best_set", True, False),
    ("best_set+lowest_other+read_pair", True, False),
]


@pytest.mark.parametrize(
    ("dice", "sides", "points"), [(1, 6, 0), (2, 4, 1), (3, 4, 0), (5, 3, 1), (6, 3, 0)]
)
@pytest.mark.parametrize("reading", READINGS)
def test_a_table_is_every_ordered_roll_and_what_it_reaches(dice, sides, points, reading):
    keep, crit, ones = reading
    length = kept_length(dice, keep, points + 1)  # the dice that decide both levels
    table = kept_rolls(dice, sides, length, (points, points + 1), keep, crit, ones)
    assert isinstance(table, KeptTable)
    options = {"keep": keep, "crit_allowed": crit, "only_ones": ones}
    counted: Counter[tuple[int, ...]] = Counter()
    for roll in itertools.product(range(1, sides + 1), repeat=dice):
        ordered = sorted(roll)
        kept = tuple(ordered[:length])
        counted[kept] += 1
        row = [tuple(int(f) for f in r) for r in table.rows].index(kept)
        got = table.kept(row)
        for i, level in enumerate((points, points + 1)):
            # What the kept dice reach is what the whole roll reaches.
            assert got.bests[i] == best_roll(roll, sides, level, **options).result
            low = lowest_pair(roll, sides, level, **options)
            assert got.pair_faces[i] == (0 if low is None else low.result.face)
            assert got.lowest_pair(i) == (None if low is None else low.result)
    law = table.law()
    assert {k.faces: p for k, p in law} == {k: Fraction(n, sides**dice) for k, n in counted.items()}


def test_a_draw_is_the_roll_whose_slice_holds_the_number():
    table = kept_rolls(4, 6, 4, (1,), "lowest_three", True, False)
    assert isinstance(table, KeptTable)
    low = 0.0
    for row, high in enumerate(table.cumulative):
        for u in (low, (low + high) / 2):
            if u < high:
                assert table.draw(Dice.from_floats([u])) is table.kept(row)
        low = high
    assert table.cumulative[-1] == 1.0
    assert table.draw(Dice.from_floats([0.9999999999])) is table.kept(len(table.cumulative) - 1)


def test_a_pool_of_no_dice_draws_nothing():
    table = kept_rolls(0, 8, 0, (2,), "lowest_three", True, False)
    kept = table.draw(Dice.from_floats([]))  # the stream is empty: nothing may be drawn
    assert kept.faces == () and str(kept.bests[0]) == "nothing"


def test_sampled_draws_follow_the_law():
    table = kept_rolls(5, 6, kept_length(5, "lowest_three", 1), (1,), "lowest_three", True, False)
    law = {k.bests[0]: 0.0 for k, _ in table.law()}
    for k, p in table.law():
        law[k.bests[0]] += float(p)
    dice = Dice(11, 0)
    n = 6000
    counts = Counter(table.draw(dice).bests[0] for _ in range(n))
    for result, p in law.items():
        assert abs(counts[result] / n - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1 / n


def test_small_pools_draw_whole_rolls_large_ones_their_lowest_dice():
    assert drawn_length(8, 8, "lowest_three", 2) == 8  # 6,435 sorted rolls
    assert math.comb(12 + 12 - 1, 12) > WHOLE_ROLLS
    assert drawn_length(12, 12, "lowest_three", 2) == 5
    assert drawn_length(12, 12, "best_set", 2) == 12


def test_a_pool_too_large_to_list_is_rolled_die_by_die():
    rolls = kept_rolls(14, 12, 14, (1,), "best_set", True, False)
    assert math.comb(12 + 14 - 1, 14) > MAX_ROWS
    assert isinstance(rolls, RolledPool)
    dice = Dice(3, 0)
    for _ in range(20):
        kept = rolls.draw(dice)
        assert list(kept.faces) == sorted(kept.faces) and len(kept.faces) == 14
        assert kept.bests[0] == best_roll(kept.faces, 12, 1, keep="best_set").result
    with pytest.raises(ValueError, match="too large"):
        rolls.law()
