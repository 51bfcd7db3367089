"""The tournament's verdict uses one word per concept: *dominant* and *dominance-solvable*.

The matrix below has the shape of the bundled Target 10 tactics tournament: holding is left by
iterated elimination on both sides, but it is not the best choice against every strategy of the
other side (a charge does far better against a withdrawer), so it is not *dominant*.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from analysis.tournament import analyse
from analysis.tournament_result import COLUMN_WON, ROW_WON

NAMES = ["charge", "hold", "withdraw"]


def _played(rates: list[list[float]], runs: int = 1000):
    """A tournament whose cell (i, j) red wins the combats k with (k + 1/2) / runs < rate.

    The same threshold in every cell pairs the cells combat by combat, as common random
    numbers do, so every difference of rates is as sure as it can be.
    """
    u = (np.arange(runs) + 0.5) / runs
    outcomes = np.array(
        [[np.where(u < rate, ROW_WON, COLUMN_WON) for rate in row] for row in rates],
        dtype=np.int8,
    )
    strategies = [SimpleNamespace(name=n) for n in NAMES]
    plan = SimpleNamespace(
        scenario=SimpleNamespace(name="t", file="t.yaml"),
        sides=("red", "blue"),
        rows=strategies,
        columns=strategies,
    )
    return analyse(plan, outcomes, seed=1, resamples=50)


def test_a_strategy_left_by_iterated_elimination_is_not_called_dominant():
    played = _played([[0.50, 0.45, 0.80], [0.52, 0.50, 0.50], [0.20, 0.50, 0.50]])
    assert played.survivors("rows") == ["hold"] and played.survivors("columns") == ["hold"]
    assert {e.round for e in played.eliminated} == {1, 2}
    verdict = played.verdict()
    assert verdict.startswith(
        "dominance-solvable: iterated elimination of dominated strategies leaves red/hold and "
        "blue/hold (each not dominant"
    ), verdict
    assert "dominant strategy" not in verdict


def test_a_strategy_that_beats_every_other_everywhere_is_dominant():
    played = _played([[0.60, 0.70, 0.90], [0.50, 0.50, 0.50], [0.20, 0.40, 0.50]])
    verdict = played.verdict()
    assert verdict.startswith(
        "dominant strategy: red/charge (the best red choice against every blue strategy) and "
        "blue/charge (the best blue choice against every red strategy); value: red scores 60%"
    ), verdict
