"""The maths of a tournament: a two-player zero-sum game, its dominated strategies, its solution.

A tournament's payoff matrix holds the row side's payoff (its win rate, draws counted half) in
every pairing of a row strategy with a column strategy; the column side wants it low. Pure
functions of arrays, so each can be checked against brute force:

- :func:`solve_zero_sum`: the optimal mixes and the value of the game, by linear programming
  (von Neumann's minimax theorem; :func:`scipy.optimize.linprog` with HiGHS). The row player
  maximises ``v`` subject to ``x·A[:, j] >= v`` for every column ``j``, ``x >= 0``, ``sum x =
  1``; the column player solves the dual problem.
- :func:`dominance_tests` and :func:`eliminate`: a strategy is *dominated* when another of the
  same side is no worse against every remaining opponent strategy (point estimates) and
  significantly better against at least one. "Significantly" is a paired sign test on the
  per-combat payoffs of the two cells, which played the same combats (McNemar's exact test when
  there are no draws), with Holm's correction over every such test of the matrix (rows and
  columns together), as ``compare`` does. Dominated strategies are removed and the test
  repeated on what is left (iterated elimination), with the p-values of the one correction.
- :func:`bootstrap`: the sampling spread of the value and the mixes, by resampling whole combat
  indices: a resampled combat carries its outcome in every cell, so the common random numbers
  stay paired.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np
from scipy.optimize import linprog
from scipy.stats import norm

from analysis.compare import holm, mcnemar_exact

#: Family-wise error rate of the dominance verdicts.
ALPHA = 0.05
#: Bootstrap resamples of the value's interval unless told otherwise.
RESAMPLES = 1000


@dataclass(frozen=True)
class GameSolution:
    """An optimal pair of mixed strategies and the value of the game.

    Attributes:
        rows: the row player's optimal mix (probabilities, one per row).
        columns: the column player's optimal mix.
        value: the row player's expected payoff when both play optimally.
    """

    rows: tuple[float, ...]
    columns: tuple[float, ...]
    value: float


def solve_zero_sum(payoff: np.ndarray | Sequence[Sequence[float]]) -> GameSolution:
    """Solve the zero-sum game whose row player receives ``payoff[i][j]``.

    A saddle point (a pure equilibrium) comes out as a mix with one strategy at 1. When several
    mixes are optimal, HiGHS returns one of them, always the same one for the same matrix.

    Raises:
        ValueError: the matrix is empty, ragged or not finite.
    """
    a = np.asarray(payoff, dtype=float)
    if a.ndim != 2 or a.size == 0 or not np.isfinite(a).all():
        raise ValueError("a payoff matrix is a non-empty 2-D array of finite numbers")
    rows, columns = a.shape
    # Variables: x_1..x_rows, v. Minimise -v.
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0
    # v - x·a[:, j] <= 0 for every column j.
    upper = np.hstack([-a.T, np.ones((columns, 1))])
    equal = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0.0, 1.0)] * rows + [(None, None)]
    result = linprog(
        cost,
        A_ub=upper,
        b_ub=np.zeros(columns),
        A_eq=equal,
        b_eq=[1.0],
        bounds=bounds,
        method="highs",
    )
    if not result.success:  # pragma: no cover - a finite matrix game always has a solution
        raise ValueError(f"the linear programme failed: {result.message}")
    # The column player's optimal mix is the dual of the row player's programme: the prices
    # of the constraints "x·a[:, j] >= v" (HiGHS reports them as marginals, negative here).
    y = -np.asarray(result.ineqlin.marginals, dtype=float)
    return GameSolution(_clean(result.x[:rows], rows), _clean(y, columns), float(result.x[-1]))


def solve_on_support(
    payoff: np.ndarray, rows: Sequence[int], columns: Sequence[int], tolerance: float = 1e-9
) -> GameSolution | None:
    """The equilibrium that uses exactly these strategies, if there is one; else None.

    Each player mixes its support so that every strategy in the other's support pays the
    same (a square linear system); the pair is an equilibrium when both mixes are
    non-negative and no strategy outside a support does better. Exact and far quicker than a
    linear programme, so the bootstrap tries the point estimate's supports first.
    """
    a = np.asarray(payoff, dtype=float)
    size = len(rows)
    if size != len(columns) or size == 0:
        return None
    sub = a[np.ix_(rows, columns)]

    def equalising(matrix: np.ndarray) -> np.ndarray | None:
        # Unknowns: the mix over the support and the value; one equation per opposing
        # strategy (each pays the value) and the mix sums to 1.
        system = np.zeros((size + 1, size + 1))
        system[:size, :size] = matrix.T
        system[:size, size] = -1.0
        system[size, :size] = 1.0
        target = np.zeros(size + 1)
        target[size] = 1.0
        try:
            return np.linalg.solve(system, target)
        except np.linalg.LinAlgError:
            return None

    x = equalising(sub)
    y = equalising(sub.T)
    if x is None or y is None or (x[:size] < -tolerance).any() or (y[:size] < -tolerance).any():
        return None
    row_mix = np.zeros(a.shape[0])
    row_mix[list(rows)] = x[:size]
    column_mix = np.zeros(a.shape[1])
    column_mix[list(columns)] = y[:size]
    value = float(row_mix @ a @ column_mix)
    if (row_mix @ a < value - tolerance).any() or (a @ column_mix > value + tolerance).any():
        return None
    return GameSolution(_clean(row_mix, a.shape[0]), _clean(column_mix, a.shape[1]), value)


def supports(solution: GameSolution) -> tuple[list[int], list[int]]:
    """The strategies each player's optimal mix uses."""
    return (
        [i for i, p in enumerate(solution.rows) if p > 0],
        [j for j, p in enumerate(solution.columns) if p > 0],
    )


def _clean(mix: np.ndarray, size: int) -> tuple[float, ...]:
    """A mix without the solver's tiny negative or leftover weights, summing to 1."""
    mix = np.where(mix < 1e-9, 0.0, mix)
    total = mix.sum()
    return tuple(float(p) for p in (mix / total if total > 0 else np.full(size, 1 / size)))


def score_interval(mean: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a mean payoff in [0, 1] over ``n`` combats.

    With wins only (payoff 0 or 1) this is the Wilson interval of a proportion. With draws
    counted half it stays valid, and conservative: a payoff in [0, 1] with mean ``p`` has a
    variance of at most ``p (1 - p)``, the binomial variance the interval assumes.
    """
    if n <= 0:
        return (0.0, 1.0)
    z = float(norm.ppf(0.5 + confidence / 2))
    z2 = z * z
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(max(mean * (1 - mean), 0.0) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


# -- dominance ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DominanceTests:
    """The Holm-adjusted p-values of every paired comparison of two strategies of one side.

    Attributes:
        rows: ``rows[i, k, j]``: row ``i`` against row ``k`` in column ``j`` (symmetric in
            ``i, k``; 1 on the diagonal).
        columns: ``columns[j, l, i]``: column ``j`` against column ``l`` in row ``i``.
        tests: how many tests the correction covered.
    """

    rows: np.ndarray
    columns: np.ndarray
    tests: int


def dominance_tests(scores: np.ndarray) -> DominanceTests:
    """Paired sign tests of every two strategies of a side, in every cell, Holm-corrected.

    Args:
        scores: ``scores[i, j, k]``, the row's payoff in combat ``k`` of cell ``(i, j)``; every
            cell played the same combats, so cells of one column (or one row) pair combat by
            combat.
    """
    n_rows, n_columns, _ = scores.shape
    raw: list[float] = []
    where: list[tuple[str, int, int, int]] = []
    for i in range(n_rows):
        for k in range(i + 1, n_rows):
            for j in range(n_columns):
                raw.append(_sign_test(scores[i, j], scores[k, j]))
                where.append(("rows", i, k, j))
    for j in range(n_columns):
        for m in range(j + 1, n_columns):
            for i in range(n_rows):
                raw.append(_sign_test(scores[i, j], scores[i, m]))
                where.append(("columns", j, m, i))
    adjusted = holm(raw)
    rows = np.ones((n_rows, n_rows, n_columns))
    columns = np.ones((n_columns, n_columns, n_rows))
    for (side, a, b, at), p in zip(where, adjusted, strict=True):
        table = rows if side == "rows" else columns
        table[a, b, at] = table[b, a, at] = p
    return DominanceTests(rows, columns, len(raw))


def _sign_test(first: np.ndarray, second: np.ndarray) -> float:
    """Two-sided sign test of paired payoffs (McNemar's exact test when they are 0 or 1)."""
    difference = first.astype(np.int16) - second.astype(np.int16)
    return mcnemar_exact(
        int(np.count_nonzero(difference > 0)), int(np.count_nonzero(difference < 0))
    )


@dataclass(frozen=True)
class Eliminated:
    """A dominated strategy, removed by iterated elimination.

    Attributes:
        side: ``"rows"`` or ``"columns"``.
        index: the strategy removed.
        by: the strategy of the same side that dominates it.
        round: the round of the elimination it fell in (1 for plain dominance).
        against: the opponent strategy where it is significantly worse.
        p_holm: the Holm-adjusted p-value of that difference.
    """

    side: str
    index: int
    by: int
    round: int
    against: int
    p_holm: float


def eliminate(payoff: np.ndarray, tests: DominanceTests, alpha: float = ALPHA) -> list[Eliminated]:
    """Iterated elimination of dominated strategies (see the module docstring).

    The row player wants ``payoff`` high and the column player low. Each round removes every
    strategy dominated by a strategy still in play, then the next round looks again at what is
    left, until nothing more is dominated.
    """
    rows = list(range(payoff.shape[0]))
    columns = list(range(payoff.shape[1]))
    removed: list[Eliminated] = []
    round_ = 0
    while True:
        round_ += 1
        found = [
            *_dominated("rows", payoff, rows, columns, tests.rows, alpha, round_),
            *_dominated("columns", -payoff.T, columns, rows, tests.columns, alpha, round_),
        ]
        if not found:
            return removed
        removed += found
        gone_rows = {e.index for e in found if e.side == "rows"}
        gone_columns = {e.index for e in found if e.side == "columns"}
        rows = [r for r in rows if r not in gone_rows]
        columns = [c for c in columns if c not in gone_columns]


def _dominated(
    side: str,
    gains: np.ndarray,
    mine: list[int],
    theirs: list[int],
    p: np.ndarray,
    alpha: float,
    round_: int,
) -> list[Eliminated]:
    """The strategies in ``mine`` dominated by another in ``mine``; ``gains``: higher is better."""
    found = []
    for i in mine:
        # Every strategy that dominates i, with its most evident difference; the most evident
        # of all names the dominator (ties: the first in the file).
        evidence = []
        for k in mine:
            if k == i or not (gains[i, theirs] <= gains[k, theirs]).all():
                continue
            strictly = [
                (float(p[i, k, j]), j)
                for j in theirs
                if gains[i, j] < gains[k, j] and p[i, k, j] < alpha
            ]
            if strictly:
                p_holm, against = min(strictly)
                evidence.append((p_holm, k, against))
        if evidence:
            p_holm, k, against = min(evidence)
            found.append(Eliminated(side, i, k, round_, against, p_holm))
    return found


# -- bootstrap ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bootstrap:
    """Percentile intervals of the game's value and mixes over resampled combats.

    Attributes:
        value: the 95% interval of the value.
        rows: per row strategy, the 95% interval of its weight in the optimal mix.
        columns: the same for the columns.
        resamples: how many resamples.
    """

    value: tuple[float, float]
    rows: tuple[tuple[float, float], ...]
    columns: tuple[tuple[float, float], ...]
    resamples: int


def bootstrap(
    scores: np.ndarray, seed: int, resamples: int = RESAMPLES, confidence: float = 0.95
) -> Bootstrap:
    """Resample the combats (the same ones in every cell) and solve the game each time.

    Args:
        scores: ``scores[i, j, k]`` as for :func:`dominance_tests`, in half points (0, 1, 2: a
            loss, a draw, a win) so that combats with the same outcomes everywhere group.
        seed: of the resampling's own random stream (never the combats').
        resamples: how many.
        confidence: of the percentile intervals.
    """
    n_rows, n_columns, n = scores.shape
    # A combat is its outcomes in every cell; identical combats are one pattern with a count,
    # so a resample is a multinomial draw over the patterns, not over every combat.
    patterns, counts = np.unique(
        scores.reshape(n_rows * n_columns, n).T, axis=0, return_counts=True
    )
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0x70757263]))
    draws = rng.multinomial(n, counts / n, size=resamples)
    matrices = (draws @ patterns.astype(float)) / (2 * n)
    values, row_mixes, column_mixes = [], [], []
    # The supports met so far, latest first: most resamples keep one of them, which a small
    # linear system confirms; only a new support costs a linear programme.
    seen: list[tuple[list[int], list[int]]] = []
    for matrix in matrices.reshape(resamples, n_rows, n_columns):
        solution = next(
            (s for s in (solve_on_support(matrix, *pair) for pair in seen) if s is not None), None
        )
        if solution is None:
            solution = solve_zero_sum(matrix)
            seen.insert(0, supports(solution))
        values.append(solution.value)
        row_mixes.append(solution.rows)
        column_mixes.append(solution.columns)
    tail = (1 - confidence) / 2 * 100

    def interval(samples: np.ndarray) -> tuple[float, float]:
        low, high = np.percentile(samples, [tail, 100 - tail])
        return (float(low), float(high))

    rows = np.asarray(row_mixes)
    columns = np.asarray(column_mixes)
    return Bootstrap(
        interval(np.asarray(values)),
        tuple(interval(rows[:, i]) for i in range(n_rows)),
        tuple(interval(columns[:, j]) for j in range(n_columns)),
        resamples,
    )


# -- the exact game ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ExactSolution:
    """An optimal pair of mixes and the value, in exact fractions.

    Attributes:
        rows: the row player's optimal mix.
        columns: the column player's optimal mix.
        value: the row player's payoff when both play optimally.
    """

    rows: tuple[Fraction, ...]
    columns: tuple[Fraction, ...]
    value: Fraction

    def floats(self) -> GameSolution:
        """The same solution as floats (what a sampled tournament holds)."""
        return GameSolution(
            tuple(map(float, self.rows)), tuple(map(float, self.columns)), float(self.value)
        )


def solve_exact(payoff: Sequence[Sequence[Fraction]]) -> ExactSolution:
    """Solve the zero-sum game of an exact payoff matrix exactly.

    Every game has an optimal pair that equalises the payoffs on some square block of the
    matrix (Shapley and Snow, 1950): the block the linear programme's float solution uses is
    tried first, then every block from the smallest up. A pair is taken only when it is
    checked exactly against every pure strategy of both players (``x·A >= v >= A·y``), so the
    answer is an equilibrium, never an approximation.

    Raises:
        ValueError: the matrix is empty or ragged.
    """
    a = [list(map(Fraction, row)) for row in payoff]
    if not a or not a[0] or any(len(row) != len(a[0]) for row in a):
        raise ValueError("a payoff matrix is a non-empty 2-D array")
    m, n = len(a), len(a[0])
    first = supports(solve_zero_sum([[float(p) for p in row] for row in a]))
    blocks = [first] if len(first[0]) == len(first[1]) else []
    blocks += [
        (list(r), list(c))
        for k in range(1, min(m, n) + 1)
        for r in combinations(range(m), k)
        for c in combinations(range(n), k)
    ]
    for rows, columns in blocks:
        found = _equalising_pair(a, rows, columns)
        if found is not None:
            return found
    raise ValueError("no equilibrium found")  # pragma: no cover - Shapley and Snow


def _equalising_pair(
    a: list[list[Fraction]], rows: list[int], columns: list[int]
) -> ExactSolution | None:
    """The pair that equalises the block ``rows`` x ``columns``, if it is optimal; else None."""
    k = len(rows)
    block = [[a[i][j] for j in columns] for i in rows]
    # x over the rows: each column of the block pays v; y over the columns likewise.
    x = _solve([[block[i][j] for i in range(k)] + [Fraction(-1)] for j in range(k)])
    y = _solve([[block[i][j] for j in range(k)] + [Fraction(-1)] for i in range(k)])
    if x is None or y is None or min(x[:k]) < 0 or min(y[:k]) < 0:
        return None
    row_mix = [Fraction(0)] * len(a)
    column_mix = [Fraction(0)] * len(a[0])
    for i, p in zip(rows, x, strict=False):
        row_mix[i] = p
    for j, p in zip(columns, y, strict=False):
        column_mix[j] = p
    value = x[k]
    pays = [sum(row_mix[i] * a[i][j] for i in range(len(a))) for j in range(len(a[0]))]
    costs = [sum(a[i][j] * column_mix[j] for j in range(len(a[0]))) for i in range(len(a))]
    if min(pays) < value or max(costs) > value:
        return None
    return ExactSolution(tuple(row_mix), tuple(column_mix), value)


def _solve(equations: list[list[Fraction]]) -> list[Fraction] | None:
    """The unknowns ``(p_1..p_k, v)`` of ``k`` equations ``sum c p - v = 0`` and ``sum p = 1``.

    Gaussian elimination in fractions; None when the system is singular.
    """
    k = len(equations)
    system = [[*row, Fraction(0)] for row in equations]
    system.append([Fraction(1)] * k + [Fraction(0), Fraction(1)])
    size = k + 1
    for col in range(size):
        pivot = next((r for r in range(col, size) if system[r][col] != 0), None)
        if pivot is None:
            return None
        system[col], system[pivot] = system[pivot], system[col]
        lead = system[col][col]
        system[col] = [v / lead for v in system[col]]
        for r in range(size):
            if r != col and system[r][col] != 0:
                factor = system[r][col]
                system[r] = [v - factor * w for v, w in zip(system[r], system[col], strict=True)]
    return [system[r][size] for r in range(size)]
