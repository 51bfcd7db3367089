"""Running to a target precision: stops when narrow enough, on the first combats of the seed."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from analysis.compare import compare
from analysis.precision import (
    half_width,
    outcome_range,
    run_until_precise,
    win_rate_intervals,
)
from sim import load_scenario, simulate
from tests.conftest import SCENARIOS
from tests.regression.conftest import TWEAKS, assert_clean_exit, run_cli


def test_batches_are_contiguous_and_stop_at_the_first_narrow_enough():
    asked = []

    def run_range(start, stop):
        asked.append((start, stop))
        return pd.DataFrame({"combat": range(start, stop)})

    def intervals_of(table):
        n = len(table)
        return [(0.5 - 1 / n**0.5, 0.5 + 1 / n**0.5)]  # half-width 1/sqrt(n)

    result = run_until_precise(run_range, intervals_of, precision=0.05, max_runs=10_000, batch=150)
    # 1/sqrt(n) <= 0.05 first at n = 400, i.e. after the third batch of 150 (n = 450).
    assert asked == [(0, 150), (150, 300), (300, 450)]
    assert result.reached and result.runs == 450 and result.batches == 3
    assert list(result.table["combat"]) == list(range(450))
    assert result.half_width == pytest.approx(1 / 450**0.5)

    capped = run_until_precise(run_range, intervals_of, precision=0.001, max_runs=400, batch=150)
    assert not capped.reached and capped.runs == 400
    assert "cap of 400 combats" in capped.describe()


def test_bad_arguments():
    with pytest.raises(ValueError):
        run_until_precise(lambda a, b: pd.DataFrame(), lambda t: [], precision=0, max_runs=10)
    with pytest.raises(ValueError):
        run_until_precise(lambda a, b: pd.DataFrame(), lambda t: [], 0.1, max_runs=10, batch=0)


def test_a_precise_run_is_the_start_of_a_fixed_run():
    scenario = load_scenario(SCENARIOS / "acs-duel.yaml")
    result = run_until_precise(
        outcome_range(scenario, seed=9),
        win_rate_intervals(scenario.side_names),
        precision=0.04,
        max_runs=5000,
        batch=100,
    )
    assert result.reached
    widths = [half_width(i) for i in win_rate_intervals(scenario.side_names)(result.table)]
    assert max(widths) <= 0.04
    shorter = result.table.iloc[: result.runs - 100]
    widths = [half_width(i) for i in win_rate_intervals(scenario.side_names)(shorter)]
    assert max(widths) > 0.04  # one batch fewer was not enough
    fixed = simulate(scenario, runs=result.runs, seed=9).outcomes
    pd.testing.assert_frame_equal(result.table, fixed)


def test_win_rate_intervals_per_group():
    table = pd.DataFrame({"variant": ["a"] * 4 + ["b"] * 2, "winner": list("xxyxyy")})
    intervals = win_rate_intervals(["x", "y"], by="variant")(table)
    assert len(intervals) == 4
    from sim.run.summary import wilson_interval

    assert intervals[0] == wilson_interval(3, 4) and intervals[3] == wilson_interval(2, 2)


def test_compare_to_a_precision_stops_when_narrow_enough_on_the_fixed_runs_combats():
    result = compare(TWEAKS, seed=1, variants=["red-plus3"], precision=0.03, batch=200)
    precise = result.precision
    assert precise.reached and precise.runs == result.runs and precise.runs % 200 == 0
    assert max(w.half_width for w in result.wins) <= 0.03
    # One batch fewer would not have been enough.
    earlier = compare(TWEAKS, runs=precise.runs - 200, seed=1, variants=["red-plus3"])
    assert max(w.half_width for w in earlier.wins) > 0.03
    # Same combats as a fixed-length run of that many combats.
    fixed = compare(TWEAKS, runs=precise.runs, seed=1, variants=["red-plus3"])
    pd.testing.assert_frame_equal(result.outcomes, fixed.outcomes)
    assert [w.to_dict() for w in result.wins] == [w.to_dict() for w in fixed.wins]


def test_compare_precision_on_the_command_line_says_when_the_cap_stopped_it():
    result = run_cli(
        "compare",
        TWEAKS,
        "--variant",
        "reroll-duplicates",
        "--precision",
        0.005,
        "--max-runs",
        300,
        "--batch",
        100,
        "--json",
    )
    assert_clean_exit(result, 0)
    summary = json.loads(result.stdout)
    assert summary["runs"] == 300
    assert summary["precision"]["reached"] is False
    assert summary["precision"]["widest_half_width"] > 0.005
    table = run_cli("compare", TWEAKS, "--variant", "control", "--precision", 0.01, "--batch", 400)
    assert_clean_exit(table, 0)
    text = " ".join(table.stdout.split())
    assert "--precision 0.01: stopped after 400 combats" in text
