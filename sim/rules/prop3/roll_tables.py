"""Exact tables of what every roll of a pool reaches with its wiggle points (Prop. Three).

The enumeration behind :mod:`~sim.rules.prop3.exact`: for a pool of ``dice`` d``sides`` and a
few levels of wiggle points, the joint distribution over rolls of the best result the attacker's
policy "best" reaches (``wiggle.best_roll``) and the lowest pair a defender can count
(``wiggle.lowest_pair``), as in ``rules/combat-proposition-three.txt`` ("THE CORE MECHANIC",
wiggle points) and RULINGS part C ("Reading a roll", "Wiggle points").

Method: the rolls are enumerated as sorted multisets with multinomial weights, and the searches
of ``wiggle`` are evaluated on all of them at once with NumPy. Under ``keep="lowest_three"`` only
the lowest ``points + 3`` dice matter (any other die below the target would already cost more than
the points), so the enumeration runs over sorted prefixes of that length, weighted by the number
of rolls that start with them; a 12d12 pool with 6 points has 167,960 of them. ``best_set`` needs
whole multisets (1,352,078 for 12d12). Pools of up to two dice and stats at 1 are enumerated
directly, with the ``wiggle`` functions themselves (``method="scalar"`` does so for any pool: the
tests check the NumPy searches against it). So are the ``best_set`` readings with
``triple_tiebreak: lowest_other`` or ``cut_critical_with: read_pair`` (``pool.reading``): the NumPy
searches do not express them, and the scalar enumeration calls the same ``wiggle`` functions as
the fight, up to :data:`MAX_SCALAR_ROLLS` sorted rolls.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np

from sim.rules.prop3.pool import (
    FACE_BASE,
    KEEP_MODES,
    KIND_BASE,
    MAX_FACE,
    ONES,
    Kind,
    check_keep,
)
from sim.rules.prop3.wiggle import best_roll, lowest_pair

_NONE = 999
"""A face no search reaches ("not reachable"); the searches work in int16 (faces <= 99)."""
_INT = np.int16


MAX_ROLLS = 4_000_000
"""The most sorted rolls (or prefixes) one table may enumerate: about 0.5 GB at the peak."""

MAX_SCALAR_ROLLS = 20_000
"""The most sorted rolls a table read by the ``wiggle`` functions one by one may enumerate."""


def check_pool(dice: int, sides: int, points: int) -> None:
    """Refuse impossible pools: negative dice or points, dice outside 2..MAX_FACE sides."""
    if dice < 0:
        raise ValueError(f"a pool cannot have {dice} dice")
    if not 2 <= sides <= MAX_FACE:
        raise ValueError(f"dice must have 2..{MAX_FACE} sides, not {sides}")
    if points < 0:
        raise ValueError(f"wiggle points cannot be negative ({points})")


def sorted_tuples(sides: int, length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All sorted tuples of ``length`` faces in 1..sides, one per column-major row.

    Returns:
        ``(rows, below, run)``: the tuples; for each, the product of ``k!`` over the faces below
        its last face (``k`` = how often the face appears), and how often the last face appears.
    """
    fact = np.array([math.factorial(k) for k in range(length + 1)], dtype=np.float64)
    rows = np.arange(1, sides + 1, dtype=np.int16)[:, None]
    below = np.ones(sides)
    run = np.ones(sides, dtype=np.int64)
    for _ in range(length - 1):
        last = rows[:, -1]
        blocks, belows, runs = [], [], []
        for face in range(1, sides + 1):
            chosen = last <= face
            same = last[chosen] == face
            blocks.append(np.hstack([rows[chosen], np.full((same.size, 1), face, np.int16)]))
            belows.append(np.where(same, below[chosen], below[chosen] * fact[run[chosen]]))
            runs.append(np.where(same, run[chosen] + 1, 1))
        rows, below, run = np.vstack(blocks), np.concatenate(belows), np.concatenate(runs)
    return np.asfortranarray(rows), below, run


def prefix_probabilities(
    prefixes: tuple[np.ndarray, np.ndarray, np.ndarray], dice: int, sides: int
) -> np.ndarray:
    """The chance that a roll of ``dice`` dice, sorted, starts with each prefix.

    The prefixes are :func:`sorted_tuples`; when they are whole rolls, this is the multinomial
    distribution. The chances are :func:`prefix_counts` over ``sides ** dice``.
    """
    return prefix_counts(prefixes, dice, sides) / float(sides) ** dice


def prefix_counts(
    prefixes: tuple[np.ndarray, np.ndarray, np.ndarray], dice: int, sides: int
) -> np.ndarray:
    """How many of the ``sides ** dice`` ordered rolls, sorted, start with each prefix.

    A prefix whose last face is ``top`` (``k`` times) fixes every die below ``top``; the other
    ``rest`` dice are at least ``top``, at least ``k`` of them exactly ``top``. The counts are
    whole numbers held as floats: exact while ``dice`` is at most 18 and ``sides ** dice`` under
    2**53 (every factor and product is then an exactly represented integer).
    """
    rows, below, at_top = prefixes
    length = rows.shape[1]
    top = rows[:, -1].astype(np.int64)
    rest = dice - (length - at_top)
    ways = np.zeros((sides + 1, length + 1, dice + 1), dtype=np.float64)
    for t in range(1, sides + 1):
        for k in range(1, length + 1):
            for r in range(k, dice + 1):
                ways[t, k, r] = sum(
                    math.comb(r, j) * (sides - t) ** (r - j) for j in range(k, r + 1)
                )
    fact = np.array([math.factorial(k) for k in range(dice + 1)], dtype=np.float64)
    return fact[dice] / (below * fact[rest]) * ways[top, at_top, rest]


def _ranks(kind: int, face: np.ndarray, third: np.ndarray | int = 0) -> np.ndarray:
    """Vectorised :attr:`Result.rank` (``third`` 0 means no third die)."""
    face = np.asarray(face, dtype=np.int64)
    third_part = np.where(np.asarray(third) > 0, 100 - np.asarray(third, dtype=np.int64), 0)
    return int(kind) * KIND_BASE + (100 - face) * FACE_BASE + third_part


def _eval_lowest_three(
    s: np.ndarray, sides: int, points: int, crit_allowed: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Best result rank and lowest pair face per sorted prefix, under ``lowest_three``.

    Mirrors ``wiggle._LowestThree`` row-wise; see there for the costs.
    """
    a, b, c = (np.ascontiguousarray(s[:, i], dtype=_INT) for i in range(3))
    rest = s[:, 3:].astype(_INT)
    below = np.zeros((sides + 2, len(s)), dtype=_INT)
    if rest.shape[1]:
        for x in range(1, sides + 2):
            below[x] = np.maximum(x - rest, 0).sum(axis=1, dtype=_INT)
    triple_ok = {}
    triple = np.full(len(s), _NONE, dtype=_INT)
    for t in range(sides, 0, -1):
        ok = np.abs(a - t) + np.abs(b - t) + np.abs(c - t) + below[t] <= points
        triple_ok[t] = ok
        triple[ok] = t
    pair = np.full(len(s), _NONE, dtype=_INT)
    third = np.zeros(len(s), dtype=_INT)
    for p in range(sides, 0, -1):
        rem = points - np.abs(b - p) - np.abs(c - p) - below[p]
        low_third = np.maximum(1, a - rem)
        low_ok = (rem >= 0) & (low_third < p)
        rem = points - np.abs(a - p) - np.abs(b - p)
        up_ok = (rem >= 0) & (p + 1 <= c)
        up_third = np.maximum(p + 1, c - rem)
        if p + 1 <= sides:
            next_ok = (rem >= 0) & (c < p + 1) & ((p + 1 - c) + below[p + 1] <= rem)
        else:
            next_ok = np.zeros(len(s), dtype=bool)
        same_ok = np.zeros(len(s), dtype=bool) if crit_allowed else triple_ok[p]
        chosen = np.select(
            [low_ok, same_ok, up_ok, next_ok],
            [low_third, np.full(len(s), p, _INT), up_third, p + 1],
            0,
        )
        ok = low_ok | same_ok | up_ok | next_ok
        pair[ok] = p
        third[ok] = chosen[ok]
    return _combine(triple if crit_allowed else None, pair, third)


def _eval_best_set(s: np.ndarray, points: int, crit_allowed: bool) -> tuple[np.ndarray, np.ndarray]:
    """Best result rank and lowest pair face per sorted multiset, under ``best_set``.

    Mirrors ``wiggle._BestSet`` row-wise.
    """
    rows, n = s.shape
    v = s.astype(_INT, order="F")
    w = points
    triple = np.full(rows, _NONE, dtype=_INT)
    if crit_allowed:
        for j in range(n - 2):
            a, b, c = v[:, j], v[:, j + 1], v[:, j + 2]
            r = w - (c - a)
            t = np.where(b - r >= a, b - r, -((w - a - b - c) // 3))
            t = np.where(r >= 0, np.maximum(t, 1), _NONE)
            np.minimum(triple, t, out=triple)
    pair = np.full(rows, _NONE, dtype=_INT)
    for j in range(n - 1):
        a, b = v[:, j], v[:, j + 1]
        p = np.where(b - a <= w, np.maximum(1, -((w - a - b) // 2)), _NONE)
        np.minimum(pair, p, out=pair)
    third = np.zeros(rows, dtype=_INT)
    need = (pair < _NONE) & (triple == _NONE)
    if need.any():
        sub = v[need]
        p = pair[need]
        distance = np.abs(sub - p[:, None])
        best = np.full(len(sub), _NONE, dtype=_INT)
        for z in range(3):
            without = distance.copy()
            without[:, z] = _NONE
            cost = np.partition(without, 1, axis=1)[:, :2].sum(axis=1)
            rem = w - cost
            candidate = np.where(rem >= 0, np.maximum(1, sub[:, z] - rem), _NONE)
            np.minimum(best, candidate, out=best)
        third[need] = best
    return _combine(triple if crit_allowed else None, pair, third)


def _combine(
    triple: np.ndarray | None, pair: np.ndarray, third: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    has_pair = pair < _NONE
    rank = np.where(has_pair, _ranks(Kind.PAIR, np.where(has_pair, pair, 1), third), 0)
    if triple is not None:
        has_triple = triple < _NONE
        rank = np.where(has_triple, _ranks(Kind.TRIPLE, np.where(has_triple, triple, 1)), rank)
    return rank, np.where(has_pair, pair, 0).astype(np.int64)


def _multisets(dice: int, sides: int) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """Every sorted roll of ``dice`` dice with its probability (for small pools)."""
    rolls = list(combinations_with_replacement(range(1, sides + 1), dice))
    total = float(sides) ** dice
    probs = []
    for roll in rolls:
        ways = math.factorial(dice)
        for count in Counter(roll).values():
            ways //= math.factorial(count)
        probs.append(ways / total)
    return rolls, np.array(probs)


def _eval_scalar(
    rolls: list[tuple[int, ...]],
    sides: int,
    points: int,
    keep: str,
    crit_allowed: bool,
    only_ones: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Best result rank and lowest pair face per roll, with the ``wiggle`` functions."""
    rank, pair = [], []
    for roll in rolls:
        best = best_roll(
            roll, sides, points, keep=keep, crit_allowed=crit_allowed, only_ones=only_ones
        )
        rank.append(best.result.rank)
        low = lowest_pair(
            roll, sides, points, keep=keep, crit_allowed=crit_allowed, only_ones=only_ones
        )
        pair.append(0 if low is None else low.result.face)
    return np.array(rank, dtype=np.int64), np.array(pair, dtype=np.int64)


@lru_cache(maxsize=1024)
def table(
    dice: int,
    sides: int,
    levels: tuple[int, ...],
    keep: str,
    crit_allowed: bool,
    only_ones: bool,
    method: str = "vector",
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The joint distribution, over rolls, of (best rank, lowest pair face) at each points level.

    Returns:
        ``(ranks, pairs, probs)``: ``ranks[i, u]`` and ``pairs[i, u]`` at ``levels[i]`` points
        (lowest pair face 0 = none) for the ``u``-th distinct combination, of chance ``probs[u]``.
    """
    if dice == 0:
        ranks = np.zeros((len(levels), 1), dtype=np.int64)
        return _frozen(ranks, ranks.copy(), np.ones(1))
    if dice == 1 or only_ones:
        # Only the lowest die matters: chance that it is v is ((d-v+1)^n - (d-v)^n) / d^n.
        low = np.arange(1, sides + 1)
        probs = ((sides - low + 1.0) ** dice - (sides - low + 0.0) ** dice) / float(sides) ** dice
        hit = np.array([low - 1 <= w for w in levels])
        return _aggregate(np.where(hit, ONES.rank, 0), np.where(hit, 1, 0), probs)
    if dice == 2 or method == "scalar" or keep not in KEEP_MODES:
        if keep not in KEEP_MODES and math.comb(sides + dice - 1, dice) > MAX_SCALAR_ROLLS:
            raise ValueError(
                f"{dice}d{sides} under {keep} needs more than {MAX_SCALAR_ROLLS:,} sorted rolls "
                "read one by one; use fewer dice or sides"
            )
        rolls, probs = _multisets(dice, sides)
        rows = [_eval_scalar(rolls, sides, w, keep, crit_allowed, only_ones) for w in levels]
        return _aggregate(np.array([r for r, _ in rows]), np.array([p for _, p in rows]), probs)
    length = dice if keep == "best_set" else min(dice, max(levels) + 3)
    if math.comb(sides + length - 1, length) > MAX_ROLLS:
        raise ValueError(
            f"{dice}d{sides} with {max(levels)} wiggle points under {keep} needs more than "
            f"{MAX_ROLLS:,} sorted rolls; use fewer dice, sides or points"
        )
    if keep == "lowest_three":
        prefixes = sorted_tuples(sides, length)
        probs = prefix_probabilities(prefixes, dice, sides)
        rows = [_eval_lowest_three(prefixes[0], sides, w, crit_allowed) for w in levels]
    else:
        whole = sorted_tuples(sides, length)
        probs = prefix_probabilities(whole, dice, sides)
        rows = [_eval_best_set(whole[0], w, crit_allowed) for w in levels]
    return _aggregate(np.array([r for r, _ in rows]), np.array([p for _, p in rows]), probs)


def _aggregate(
    ranks: np.ndarray, pairs: np.ndarray, probs: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # A rank is below 2**22 and a face below 2**7: two levels pack into one int64 key.
    assert len(ranks) <= 2, "at most two points levels per table"
    key = np.zeros(ranks.shape[1], dtype=np.int64)
    for rank, pair in zip(ranks, pairs, strict=True):
        key = key * (1 << 29) + rank * 128 + pair
    unique, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    total = np.bincount(inverse.ravel(), weights=probs, minlength=len(unique))
    return _frozen(ranks[:, first], pairs[:, first], total)


def _frozen(
    ranks: np.ndarray, pairs: np.ndarray, probs: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    for array in (ranks, pairs, probs):
        array.flags.writeable = False
    return ranks, pairs, probs


def reading_options(keep: str, crit_allowed: bool, only_ones: bool) -> tuple[str, bool, bool]:
    """Check ``keep`` and normalise the stat flags (they are part of the tables' cache keys)."""
    check_keep(keep)
    return keep, bool(crit_allowed), bool(only_ones)


def kept_length(dice: int, keep: str, points: int) -> int:
    """How many of a roll's lowest dice decide what it reaches with up to ``points`` wiggle points.

    Under ``lowest_three`` the lowest ``points + 3`` (any other die below a target would cost
    more than the points: module docstring); under ``best_set`` every die.
    """
    check_keep(keep)
    return dice if keep != "lowest_three" else min(dice, points + 3)


MAX_EXACT_DICE = 18
"""The largest pool whose rolls are counted exactly (:func:`prefix_counts` is exact up to it)."""


def row_readings(
    rows: np.ndarray, sides: int, points: int, keep: str, crit_allowed: bool, only_ones: bool
) -> tuple[np.ndarray, np.ndarray]:
    """What each sorted roll (or prefix, :func:`kept_length` long) reaches with ``points``.

    The rows of :func:`sorted_tuples`, read one by one as :func:`table` reads them (the same
    searches): returns the rank of the best result the attacker's policy "best" reaches and the
    face of the lowest pair the roller can count (0: none), row by row.
    """
    n = rows.shape[1]
    if n == 1 or only_ones:
        hit = rows[:, 0].astype(np.int64) - 1 <= points
        return np.where(hit, ONES.rank, 0), np.where(hit, 1, 0)
    if n == 2 or keep not in KEEP_MODES:
        return _eval_scalar(
            [tuple(int(f) for f in row) for row in rows], sides, points, keep, crit_allowed, False
        )
    if keep == "lowest_three":
        return _eval_lowest_three(rows, sides, points, crit_allowed)
    return _eval_best_set(rows, points, crit_allowed)
