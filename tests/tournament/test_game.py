"""The game maths of a tournament: the LP solution, dominance with Holm, the bootstrap."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from analysis.compare import holm, mcnemar_exact
from analysis.game import (
    bootstrap,
    dominance_tests,
    eliminate,
    score_interval,
    solve_on_support,
    solve_zero_sum,
)
from sim.run.summary import wilson_interval


def brute_force_value(a: np.ndarray) -> float:
    """The value by support enumeration: every pair of equal-size supports, kept if optimal."""
    rows, columns = a.shape
    found = []
    for size in range(1, min(rows, columns) + 1):
        for r in itertools.combinations(range(rows), size):
            for c in itertools.combinations(range(columns), size):
                solution = solve_on_support(a, r, c)
                if solution is not None:
                    found.append(solution.value)
    assert found, "a non-degenerate game has an equilibrium on some pair of supports"
    return found[0]


def test_matching_pennies_and_a_known_2x2_game():
    pennies = solve_zero_sum([[1, 0], [0, 1]])
    assert pennies.rows == pytest.approx((0.5, 0.5)) and pennies.columns == pytest.approx(
        (0.5, 0.5)
    )
    assert pennies.value == pytest.approx(0.5)
    # [[3, -1], [-1, 1]]: x = (1 + 1) / (3 + 1 + 1 + 1) = 1/3, value (3 - 1) / 6 = 1/3.
    game = solve_zero_sum([[3, -1], [-1, 1]])
    assert game.rows == pytest.approx((1 / 3, 2 / 3))
    assert game.columns == pytest.approx((1 / 3, 2 / 3))
    assert game.value == pytest.approx(1 / 3)


def test_rock_paper_scissors_is_uniform_with_value_zero():
    game = solve_zero_sum([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert game.rows == pytest.approx((1 / 3,) * 3)
    assert game.columns == pytest.approx((1 / 3,) * 3)
    assert game.value == pytest.approx(0, abs=1e-9)


def test_a_saddle_point_is_a_pure_strategy_pair():
    game = solve_zero_sum([[0.7, 0.6], [0.5, 0.4]])
    assert game.rows == (1.0, 0.0) and game.columns == (0.0, 1.0)
    assert game.value == pytest.approx(0.6)


@pytest.mark.parametrize("shape", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)])
def test_the_lp_agrees_with_brute_force_on_random_matrices(shape):
    rng = np.random.default_rng(sum(shape))
    for _ in range(40):
        a = rng.random(shape)
        game = solve_zero_sum(a)
        x, y = np.array(game.rows), np.array(game.columns)
        # The certificate: x guarantees at least the value, y concedes at most the value.
        assert (x @ a).min() == pytest.approx(game.value, abs=1e-8)
        assert (a @ y).max() == pytest.approx(game.value, abs=1e-8)
        assert x.sum() == pytest.approx(1) and y.sum() == pytest.approx(1)
        assert brute_force_value(a) == pytest.approx(game.value, abs=1e-8)


def test_bad_matrices_are_refused():
    for bad in ([], [[1, np.nan]], [1, 2]):
        with pytest.raises(ValueError):
            solve_zero_sum(bad)


def test_score_interval_is_wilson_for_counts_and_narrows_with_n():
    for wins, n in ((0, 10), (7, 10), (412, 1000), (1000, 1000)):
        assert score_interval(wins / n, n) == pytest.approx(wilson_interval(wins, n), abs=1e-12)
    wide, narrow = score_interval(0.5, 100), score_interval(0.5, 10_000)
    assert narrow[1] - narrow[0] < (wide[1] - wide[0]) / 9


def half_points(*cells: list[int], repeat: int = 1) -> np.ndarray:
    """Scores ``[row, column, combat]`` from rows of cells, each a list of per-combat scores."""
    return np.array(cells, dtype=np.int8).repeat(repeat, axis=-1)


def test_sign_tests_are_mcnemar_and_holm_over_every_pair_of_the_matrix():
    rng = np.random.default_rng(3)
    scores = rng.choice([0, 2], size=(3, 2, 200)).astype(np.int8)
    tests = dominance_tests(scores)
    # Rows: 3 pairs x 2 columns; columns: 1 pair x 3 rows.
    assert tests.tests == 9
    raw = []
    for i, k in itertools.combinations(range(3), 2):
        for j in range(2):
            better = int(np.count_nonzero(scores[i, j] > scores[k, j]))
            worse = int(np.count_nonzero(scores[i, j] < scores[k, j]))
            raw.append(mcnemar_exact(better, worse))
    for i in range(3):
        better = int(np.count_nonzero(scores[i, 0] > scores[i, 1]))
        worse = int(np.count_nonzero(scores[i, 0] < scores[i, 1]))
        raw.append(mcnemar_exact(better, worse))
    adjusted = holm(raw)
    assert tests.rows[0, 1, 0] == tests.rows[1, 0, 0] == pytest.approx(adjusted[0])
    assert tests.rows[1, 2, 1] == pytest.approx(adjusted[5])
    assert tests.columns[0, 1, 2] == pytest.approx(adjusted[8])


def test_a_strictly_worse_row_is_dominated_and_a_tie_is_not():
    # Row 0 wins every combat, row 1 loses every one, row 2 is row 0 again.
    scores = half_points([[2] * 50, [2] * 50], [[0] * 50, [0] * 50], [[2] * 50, [2] * 50])
    matrix = scores.mean(axis=2) / 2
    removed = eliminate(matrix, dominance_tests(scores))
    assert [(e.side, e.index, e.round) for e in removed] == [("rows", 1, 1)]
    assert removed[0].by in (0, 2)


def test_not_significant_is_not_dominated():
    # Row 1 is a little worse, on 3 combats of 50: no paired test can call that.
    worse = [2] * 47 + [0] * 3
    scores = half_points([[2] * 50, [2] * 50], [worse, [2] * 50])
    assert eliminate(scores.mean(axis=2) / 2, dominance_tests(scores)) == []


def test_iterated_elimination_needs_two_rounds():
    win, loss, draw = [2] * 60, [0] * 60, [1] * 60
    # r0 = (1.0, 0.5), r1 = (0.0, 1.0): the rows cross, and so do the columns for blue.
    crossing = half_points([win, draw], [loss, win])
    assert eliminate(crossing.mean(axis=2) / 2, dominance_tests(crossing)) == []
    # r0 = (1.0, 0.5), r1 = (0.0, 0.5): r1 is dominated (round 1). The columns still cross
    # for blue (c0 is better against r1, c1 against r0); once r1 is gone, c0 (1.0) is
    # dominated by c1 (0.5): round 2.
    scores = half_points([win, draw], [loss, draw])
    removed = eliminate(scores.mean(axis=2) / 2, dominance_tests(scores))
    assert [(e.side, e.index, e.by, e.round, e.against) for e in removed] == [
        ("rows", 1, 0, 1, 0),
        ("columns", 0, 1, 2, 0),
    ]


def test_the_bootstrap_is_seeded_and_covers_the_value():
    rng = np.random.default_rng(11)
    # A game with a mixed solution, 400 combats per cell, outcomes correlated across cells.
    base = rng.random(400)
    p = np.array([[0.7, 0.3], [0.35, 0.6]])
    scores = (2 * (base[None, None, :] < p[:, :, None])).astype(np.int8)
    first = bootstrap(scores, seed=5, resamples=200)
    assert first == bootstrap(scores, seed=5, resamples=200)
    assert first != bootstrap(scores, seed=6, resamples=200)
    value = solve_zero_sum(scores.mean(axis=2) / 2).value
    low, high = first.value
    assert low < value < high and high - low < 0.15
    for low, high in (*first.rows, *first.columns):
        assert 0 <= low <= high <= 1
