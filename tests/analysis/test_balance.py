"""Balance points: the fit's intervals hold their level, and a known answer is found."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from scipy.special import expit, logit
from scipy.stats import norm

from analysis.balance import find_balance, fit_logistic
from analysis.plots import plot_balance
from sim.cli.app import cli
from tests.analysis.conftest import HP_SWEEP

RED_HP = "sides.red.combatants.Red swordsman.hp"


def crn_wins(rng, values, curve, combats):
    """Outcomes with the strongest common-random-number coupling: one uniform per combat."""
    luck = rng.random((combats, 1))
    return (luck < curve(np.asarray(values))[None, :]).astype(float)


@pytest.mark.parametrize("degree", [1, 2])
def test_the_interval_covers_the_true_crossing_95_percent_of_the_time(degree):
    """Coverage over 300 simulated balance searches, with a tolerance from its standard error.

    The true curve has a logit that bends (as hit points do in the duel), the outcomes of one
    combat index at different values are fully coupled, as common random numbers make them.
    """
    rng = np.random.default_rng(2024)
    values = np.arange(16, 33, 2)

    def curve(x):
        return expit(0.12 * (x - 24) - 0.0011 * (x - 24) ** 2)

    reps, covered, estimates = 300, 0, []
    for _ in range(reps):
        fit = fit_logistic(values, crn_wins(rng, values, curve, 600), degree=degree)
        low, high = fit.interval(0.5)
        covered += low <= 24 <= high
        estimates.append(fit.crossing(0.5))
    tolerance = 4 * math.sqrt(0.95 * 0.05 / reps)
    assert covered / reps >= 0.95 - tolerance
    if degree == 2:  # the curvature term removes the bias of a straight line
        assert abs(np.mean(estimates) - 24) < 4 * np.std(estimates) / math.sqrt(reps)


def test_cluster_robust_errors_are_needed_with_common_random_numbers():
    """Treating coupled outcomes as independent misstates the crossing's precision."""
    rng = np.random.default_rng(5)
    values = np.arange(16, 33, 2)
    fit = fit_logistic(values, crn_wins(rng, values, lambda x: expit(0.12 * (x - 24)), 800))
    p = fit.predict(values)
    u = (values - fit.centre) / fit.scale
    design = np.column_stack([np.ones_like(u), u])
    naive = np.linalg.inv(design.T @ (design * (800 * p * (1 - p))[:, None]))
    assert fit.covariance[0, 0] > 3 * naive[0, 0]  # the level is far less sure than it looks


def test_fieller_interval_is_where_the_wald_test_does_not_reject():
    rng = np.random.default_rng(8)
    values = np.arange(10, 31, 5)
    fit = fit_logistic(values, crn_wins(rng, values, lambda x: expit(0.2 * (x - 21)), 300))
    low, high = fit.interval(0.5)
    z2 = norm.ppf(0.975) ** 2
    xs = np.linspace(low - 2, high + 2, 4001)
    inside = (fit.eta(xs) - logit(0.5)) ** 2 <= z2 * fit.eta_se(xs) ** 2
    assert xs[inside].min() == pytest.approx(low, abs=2e-3)
    assert xs[inside].max() == pytest.approx(high, abs=2e-3)


@pytest.fixture(scope="module")
def even_duel():
    """Red's hit points that make two otherwise identical swordsmen even: exactly 24."""
    return find_balance(HP_SWEEP, RED_HP, 0.5, "red", runs=150, seed=1)


def test_the_balance_point_of_a_symmetric_duel_is_inside_its_interval(even_duel):
    low, high = even_duel.interval
    assert low <= 24 <= high
    assert high - low < 5
    assert even_duel.integer and 24 in even_duel.whole_numbers
    assert even_duel.slope_per_unit > 0 and even_duel.slope_z > 4
    assert even_duel.value == pytest.approx(24, abs=4 * even_duel.se)
    assert not even_duel.notes
    at_24 = next(row for row in even_duel.nearest if row["value"] == 24)
    assert at_24["current"] and at_24["fitted_ci95"][0] <= 0.5 <= at_24["fitted_ci95"][1]
    assert "24" in even_duel.verdict()
    # Measured on a grid around the answer with 4 x 150 combats a value.
    assert set(even_duel.grid["runs"]) == {600}
    assert even_duel.grid["value"].min() < 24 < even_duel.grid["value"].max()


def test_the_balance_chart_shows_points_fit_target_and_answer(even_duel):
    ax = plot_balance(even_duel).axes[0]
    # Named by the label the scenario's sweep gives the path, not by the dotted path.
    assert even_duel.label == "red hp"
    assert ax.get_xlabel() == "red hp" and ax.get_ylabel() == "red win rate"
    assert "red hp" in ax.get_title() and RED_HP not in ax.get_title()
    labels = ax.get_legend_handles_labels()[1]
    assert {"logistic fit", "fit 95% CI", "target 50%"} <= set(labels)
    assert any(label.startswith("balance point") for label in labels)
    assert "red win rate (95% CI)" in labels and "its 95% CI" in labels


def test_combatsim_balance_json_and_files(tmp_path):
    args = ["balance", str(HP_SWEEP), "--param", RED_HP, "--runs", "40", "--points", "5"]
    args += ["--seed", "3", "--json", "--out", str(tmp_path)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["side"] == "red" and answer["target"] == 0.5
    assert answer["parameter"] == RED_HP and answer["integer"] is True
    low, high = answer["ci95"]
    assert low < answer["value"] < high
    assert answer["runs_per_point"] == 160 and len(answer["grid"]) == 5
    assert "Fieller" in answer["method"] and answer["verdict"]
    assert json.loads((tmp_path / "balance.json").read_text())["value"] == answer["value"]
    assert (tmp_path / "plots" / "balance.png").stat().st_size > 5000


def test_combatsim_balance_text(tmp_path):
    args = ["balance", str(HP_SWEEP), "--param", RED_HP, "--runs", "40", "--points", "5"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "Balance point of red hp" in result.output and "95% CI" in result.output
    assert "sure?" in result.output
    # The sweep's label everywhere: the heading, the slope, the table's column.
    assert RED_HP not in result.output and result.output.count("red hp") >= 3
    labelled = CliRunner().invoke(cli, [*args, "--label", "Red's hit points"])
    assert "Balance point of Red's hit points" in labelled.output


@pytest.mark.parametrize(
    ("extra", "code", "words"),
    [
        (["--range", "30", "36"], 1, "widen the range"),
        (["--side", "green"], 2, "no side 'green'"),
        (["--param", "sides.red.combatants.0.damage"], 2, "needs a number"),
        (["--param", "sides.red.combatants.nobody.hp"], 2, "no item named 'nobody'"),
        (["--range", "0", "30"], 2, "hit points of at least 1"),
    ],
)
def test_combatsim_balance_refuses_clearly(extra, code, words):
    args = ["balance", str(HP_SWEEP), "--param", RED_HP, "--runs", "20", "--points", "3", *extra]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == code, result.output
    assert words in result.output
    assert "Traceback" not in result.output
