"""A sensitivity study against a scenario whose answer is known.

Red's hit points decide the duel; the prepared bonus changes nothing (nobody is prepared), so
every point that moves only it plays the very same combats: its indices are exactly 0.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analysis.sensitivity import Factor, paired_change, sobol_design, sobol_indices, verdict
from analysis.sensitivity_study import plan_study, run_study
from sim.run.choices import Execution

KNOWN = Path(__file__).with_name("known.yaml")


@pytest.fixture(scope="module")
def study():
    return run_study(plan_study(KNOWN), execution=Execution(workers=1))


def test_the_parameter_that_changes_nothing_has_index_zero(study):
    index = {i.label: i for i in study.indices}["prepared bonus"]
    assert index.total.estimate == pytest.approx(0.0, abs=1e-12)
    assert index.first.estimate == pytest.approx(0.0, abs=1e-12)
    assert index.total.covers(0.0) and index.first.covers(0.0)
    found = {e.label: e for e in study.effects}["prepared bonus"]
    assert found.change.estimate == 0.0 and found.change.covers(0.0)


def test_the_parameter_that_decides_the_fight_dominates(study):
    indices = {i.label: i for i in study.indices}
    hp = indices["red hp"]
    # The win rate is a function of red's hit points alone, so both its indices are 1 in truth.
    assert hp.total.covers(1.0) and hp.first.covers(1.0)
    assert hp.total.estimate > 0.5
    assert hp.total.low > indices["prepared bonus"].total.high
    assert study.verdict.leader == "red hp"
    assert study.verdict.separated
    assert "sure" in study.verdict.sentence and "not sure" not in study.verdict.sentence


def test_more_hit_points_win_more_often(study):
    found = {e.label: e for e in study.effects}["red hp"]
    assert found.rate_high > found.rate_low
    assert found.change.low > 0.5  # 2 hp against 12 rarely wins, 30 against 12 nearly always


def test_points_at_the_same_values_are_played_once(study):
    plan = study.plan
    settings = [(p.settings, p.runs) for p in plan.points]
    assert len(settings) == len(set(settings))
    # prepared bonus 3 is the scenario's value (the default): its low end is the base point itself
    assert plan.oat[1][0] is plan.base
    assert len(plan.sobol) == 16 * (2 + 2)


def test_integer_ranges_stay_whole_and_reach_both_ends():
    factor = Factor("hp", "x.hp", 2, 5, 3, integer=True)
    values = [factor.at(u) for u in np.linspace(0, 0.999999, 400)]
    assert all(isinstance(v, int) for v in values)
    assert set(values) == {2, 3, 4, 5}
    listed = Factor("damage", "x.damage", "1d6", "1d10", "1d8", values=("1d6", "1d8", "1d10"))
    assert {listed.at(u) for u in (0.0, 0.34, 0.99)} == {"1d6", "1d8", "1d10"}
    real = Factor("bonus", "x.bonus", 0.5, 1.5, 1.0)
    assert real.at(0.25) == pytest.approx(0.75)


def test_paired_change_is_the_mean_difference_with_its_standard_error():
    low = np.array([0, 0, 1, 1, 0, 1, 0, 0])
    high = np.array([1, 0, 1, 1, 1, 1, 1, 0])
    change = paired_change(low, high)
    differences = high - low
    se = differences.std(ddof=1) / np.sqrt(len(differences))
    assert change.estimate == pytest.approx(3 / 8)
    assert change.low == pytest.approx(3 / 8 - 1.959963984540054 * se)
    assert change.high == pytest.approx(3 / 8 + 1.959963984540054 * se)


def test_sobol_indices_of_a_function_of_one_input():
    design = sobol_design(3, 64, seed=2)
    rates = design[:, 1] ** 2  # only the second input matters, and alone
    indices = sobol_indices(["a", "b", "c"], rates, seed=2)
    assert indices[0].total.estimate == 0.0
    assert indices[2].total.estimate == 0.0
    assert indices[1].first.covers(1.0) and indices[1].total.covers(1.0)
    assert indices[1].first.estimate > 0.9


def test_a_win_rate_that_never_moves_has_no_leader():
    indices = sobol_indices(["a", "b"], np.full(8 * 4, 0.25), seed=1)
    assert all(i.total.estimate == 0.0 and i.first.estimate == 0.0 for i in indices)
    said = verdict(indices, "red")
    assert said.leader is None and not said.separated
    assert said.sentence == "no parameter moved red's win rate over these ranges"


def test_the_design_pairs_independent_halves():
    # Saltelli's estimators need A and B independent; SALib's own sampler (one sequence of twice
    # the dimension) correlates them strongly at these sizes, which this design must not.
    design = sobol_design(5, 16, seed=1).reshape(16, 7, 5)
    first, second = design[:, 0, :], design[:, -1, :]
    for i in range(5):
        assert abs(np.corrcoef(first[:, i], second[:, i])[0, 1]) < 0.6
        moved = design[:, 1 + i, :]
        assert np.array_equal(np.delete(moved, i, axis=1), np.delete(first, i, axis=1))
        assert np.array_equal(moved[:, i], second[:, i])
    # each half is still a scrambled Sobol set: one point in each sixteenth of every axis
    for half in (first, second):
        for i in range(5):
            assert sorted(np.floor(half[:, i] * 16).astype(int)) == list(range(16))
