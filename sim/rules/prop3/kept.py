"""The dice that decide a roll, drawn from their exact law with one random number.

``rules/combat-proposition-three.txt``, THE CORE MECHANIC: "Roll a pool of dice. Keep the lowest
three dice." With wiggle points the lowest ``points + 3`` dice decide what a roll reaches
(``roll_tables``: any other die below a target would cost more than the points); under
``keep: best_set`` every die does. Those dice, sorted, have a small exact law: each possible
kept roll with the number of ordered rolls that start with it (``roll_tables.prefix_counts``).

A pool draws its whole roll while it has at most :data:`WHOLE_ROLLS` sorted rolls, and only its
lowest dice that decide it beyond (:func:`drawn_length`). A :class:`KeptTable` lists a pool's
kept rolls once, with what each reaches at the pool's wiggle points
(``roll_tables.row_readings``, the searches of ``wiggle`` row by row). A draw is one uniform
number and a binary search over the cumulative chances: the same law as rolling every die and
keeping the lowest (RULINGS part C, "Reading a roll"), with the kept dice in hand for the
narration. The exact engine sums over the same rows with their exact counts
(:meth:`KeptTable.law`). Pools too large to list (more than :data:`MAX_ROWS` kept rolls) are
rolled die by die instead, and read with the same searches.
"""

from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from sim.engine.distribution import Distribution
from sim.rules.prop3.pool import KEEP_MODES, Result, roll_pool
from sim.rules.prop3.roll_tables import (
    MAX_EXACT_DICE,
    check_pool,
    kept_length,
    prefix_counts,
    row_readings,
    sorted_tuples,
)
from sim.rules.prop3.wiggle import best_roll, lowest_pair

if TYPE_CHECKING:
    from sim.engine.dice import Dice

WHOLE_ROLLS = 20_000
"""A pool with at most this many sorted rolls draws them whole (8d8: 6,435); a larger one draws
the lowest dice that decide it (``roll_tables.kept_length``)."""

MAX_ROWS = 200_000
"""The most kept rolls a table lists (a 12d12 pool with 6 points keeps 9 dice: 167,960)."""

MAX_SCALAR_ROWS = 20_000
"""The most kept rolls a table lists when they are read one by one (``best_set`` readings with
``triple_tiebreak`` or ``cut_critical_with``, which the vector searches do not express)."""


@lru_cache(maxsize=1 << 16)
def _result(rank: int) -> Result:
    """The result of a rank (one object per rank)."""
    return Result.from_rank(rank)


class Kept:
    """One kept roll of a pool: its dice, and what they reach at the table's points levels.

    Attributes:
        faces: the kept dice, sorted (the whole roll under ``best_set``).
        bests: per level, the best result the attacker's policy "best" reaches.
        pair_faces: per level, the face of the lowest pair the roller can count (0: none).
    """

    __slots__ = ("_lows", "bests", "faces", "pair_faces", "reading")

    def __init__(
        self,
        faces: tuple[int, ...],
        bests: tuple[Result, ...],
        pair_faces: tuple[int, ...],
        reading: Reading,
    ) -> None:
        self.faces = faces
        self.bests = bests
        self.pair_faces = pair_faces
        self.reading = reading
        self._lows: list[Result | None] | None = None

    def lowest_pair(self, level: int) -> Result | None:
        """The lowest pair the roller counts at points level ``level`` (its third die too).

        Worked out by ``wiggle.lowest_pair`` when first asked (a defender cutting a critical).
        """
        if self._lows is None:
            self._lows = [None] * len(self.bests)
        found = self._lows[level]
        if found is None and self.pair_faces[level]:
            r = self.reading
            low = lowest_pair(
                self.faces,
                r.sides,
                r.levels[level],
                keep=r.keep,
                crit_allowed=r.crit,
                only_ones=r.ones,
            )
            assert low is not None and low.result.face == self.pair_faces[level]
            found = self._lows[level] = low.result
        return found

    def __repr__(self) -> str:
        return f"Kept({list(self.faces)}: {', '.join(map(str, self.bests))})"


class Reading:
    """How a table's rolls are read: the die, the points levels, the keep mode, the stat rules."""

    __slots__ = ("crit", "keep", "levels", "ones", "sides")

    def __init__(
        self, sides: int, levels: tuple[int, ...], keep: str, crit: bool, ones: bool
    ) -> None:
        self.sides = sides
        self.levels = levels
        self.keep = keep
        self.crit = crit
        self.ones = ones

    def kept(self, faces: tuple[int, ...]) -> Kept:
        """A kept roll read with the ``wiggle`` searches themselves (a pool rolled die by die)."""
        bests, pairs = [], []
        keep, crit, ones = self.keep, self.crit, self.ones
        for points in self.levels:
            best = best_roll(
                faces, self.sides, points, keep=keep, crit_allowed=crit, only_ones=ones
            )
            bests.append(best.result)
            low = lowest_pair(
                faces, self.sides, points, keep=keep, crit_allowed=crit, only_ones=ones
            )
            pairs.append(0 if low is None else low.result.face)
        return Kept(faces, tuple(bests), tuple(pairs), self)


class KeptTable:
    """Every kept roll of a pool, to draw from with one uniform number.

    Args:
        dice: the pool's dice.
        length: how many of the lowest dice are kept (``roll_tables.kept_length``).
        reading: how the rolls are read.
    """

    __slots__ = ("_kept", "_ranks", "counts", "cumulative", "dice", "length", "reading", "rows")

    def __init__(self, dice: int, length: int, reading: Reading) -> None:
        self.dice = dice
        self.length = length
        self.reading = reading
        sides = reading.sides
        if length == 0:
            self.rows = np.zeros((1, 0), dtype=np.int16)
            self.counts = np.ones(1)
        else:
            prefixes = sorted_tuples(sides, length)
            self.rows = prefixes[0]
            self.counts = prefix_counts(prefixes, dice, sides)
        total = float(sides) ** dice
        cumulative = list(accumulate(float(c) / total for c in self.counts))
        cumulative[-1] = 1.0  # the last roll takes every number left, rounding included
        self.cumulative = cumulative
        if length == 0:
            self._ranks: list[tuple[list[int], list[int]]] = [([0], [0]) for _ in reading.levels]
        else:
            self._ranks = [
                tuple(
                    a.tolist()
                    for a in row_readings(
                        self.rows, sides, points, reading.keep, reading.crit, reading.ones
                    )
                )
                for points in reading.levels
            ]
        self._kept: list[Kept | None] = [None] * len(cumulative)

    def kept(self, row: int) -> Kept:
        """The kept roll of row ``row`` (made when first drawn, then kept)."""
        found = self._kept[row]
        if found is None:
            found = self._kept[row] = self._read(row)
        return found

    def _read(self, row: int) -> Kept:
        """The kept roll of row ``row``, read off the table."""
        faces = tuple(int(f) for f in self.rows[row])
        bests = tuple(_result(ranks[row]) for ranks, _ in self._ranks)
        pairs = tuple(int(faces_[row]) for _, faces_ in self._ranks)
        return Kept(faces, bests, pairs, self.reading)

    def draw(self, dice: Dice) -> Kept:
        """Draw a kept roll with one uniform number of the combat's stream.

        A pool with one possible roll (no dice) draws nothing.
        """
        cumulative = self.cumulative
        row = bisect_right(cumulative, dice.uniform()) if len(cumulative) > 1 else 0
        found = self._kept[row]
        if found is None:
            found = self._kept[row] = self._read(row)
        return found

    def law(self) -> Distribution[Kept]:
        """The exact law of the kept rolls (pools of up to ``roll_tables.MAX_EXACT_DICE`` dice).

        Raises:
            ValueError: for a pool too large to count exactly.
        """
        sides = self.reading.sides
        if self.dice > MAX_EXACT_DICE or sides**self.dice >= 2**53:
            raise ValueError(f"{self.dice}d{sides} is too large for an exact law of its rolls")
        total = sides**self.dice
        weights = [Fraction(int(c), total) for c in self.counts]
        assert sum(weights) == 1, "the kept rolls of a pool cover every roll once"
        return Distribution.of((self.kept(row), w) for row, w in enumerate(weights))

    def weights(self) -> tuple[tuple[Kept, int], ...]:
        """The law of :meth:`law` in whole numbers: each kept roll and its ordered rolls.

        Out of ``sides ** dice``; rolls that no ordered roll gives are left out.

        Raises:
            ValueError: for a pool too large to count exactly.
        """
        sides = self.reading.sides
        if self.dice > MAX_EXACT_DICE or sides**self.dice >= 2**53:
            raise ValueError(f"{self.dice}d{sides} is too large for an exact law of its rolls")
        weighted = tuple((self.kept(row), int(c)) for row, c in enumerate(self.counts) if c)
        assert sum(c for _, c in weighted) == sides**self.dice, "every roll counted once"
        return weighted


def drawn_length(dice: int, sides: int, keep: str, points: int) -> int:
    """How many of a pool's dice are drawn: all of them, or the lowest that decide the roll.

    The whole roll while it has at most :data:`WHOLE_ROLLS` sorted rolls (the narration shows
    every die); else the lowest ``roll_tables.kept_length`` with up to ``points`` wiggle points.
    """
    if comb(sides + dice - 1, dice) <= WHOLE_ROLLS:
        return dice
    return kept_length(dice, keep, points)


class RolledPool:
    """A pool too large to list: rolled die by die, its lowest ``length`` dice kept and read.

    Args:
        dice: the pool's dice.
        length: how many of the lowest dice are kept.
        reading: how the rolls are read.
    """

    __slots__ = ("dice", "length", "reading")

    def __init__(self, dice: int, length: int, reading: Reading) -> None:
        self.dice = dice
        self.length = length
        self.reading = reading

    def draw(self, dice: Dice) -> Kept:
        """Roll every die and keep the lowest."""
        faces = sorted(roll_pool(dice, self.dice, self.reading.sides))
        return self.reading.kept(tuple(faces[: self.length]))

    def law(self) -> Distribution[Kept]:
        """Never: a pool too large to list is too large for an exact law."""
        raise ValueError(f"{self.dice}d{self.reading.sides} is too large for an exact law")

    def weights(self) -> tuple[tuple[Kept, int], ...]:
        """Never: a pool too large to list is too large for an exact law."""
        raise ValueError(f"{self.dice}d{self.reading.sides} is too large for an exact law")


@lru_cache(maxsize=4096)
def kept_rolls(
    dice: int, sides: int, length: int, levels: tuple[int, ...], keep: str, crit: bool, ones: bool
) -> KeptTable | RolledPool:
    """How a pool's kept rolls are drawn: its table, or die by die when it is too large to list.

    Args:
        dice: the pool's dice.
        sides: its die.
        length: the lowest dice kept (``roll_tables.kept_length``).
        levels: the points levels its rolls are read at.
        keep: the reading (``pool.reading``).
        crit: the stat allows a critical.
        ones: the stat is at 1.
    """
    check_pool(dice, sides, 0)
    reading = Reading(sides, levels, keep, crit, ones)
    scalar = keep not in KEEP_MODES or length == 2
    if comb(sides + length - 1, length) > (MAX_SCALAR_ROWS if scalar else MAX_ROWS):
        return RolledPool(dice, length, reading)
    return KeptTable(dice, length, reading)
