"""Sweeps: common random numbers, one table for the whole sweep, batches, a monotone effect."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
from click.testing import CliRunner

from analysis.results import read_results
from analysis.sweep import Parameter, plan_sweep, run_point, run_sweep
from sim import simulate
from sim.cli.app import cli
from tests.analysis.conftest import HP_SWEEP


def test_every_point_plays_the_same_combat_seeds(hp_sweep):
    table = hp_sweep.outcomes
    seeds = table.pivot(index="combat", columns="point", values="seed")
    assert seeds.shape == (200, len(hp_sweep.plan.points))
    assert (seeds.nunique(axis=1) == 1).all()
    assert list(table.columns[:5]) == ["scenario", "variant", "point", "red hp", "combat"]
    assert sorted(table["red hp"].unique()) == [12, 15, 18, 21, 24, 27, 30, 33, 36]


def test_a_point_is_exactly_a_run_of_its_scenario(hp_sweep):
    point = hp_sweep.plan.points[3]
    alone = simulate(point.scenario, runs=200, seed=2).outcomes
    rows = hp_sweep.outcomes[hp_sweep.outcomes["point"] == 3]
    rows = rows.drop(columns=["point", "red hp"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(rows, alone)
    assert hp_sweep.point_summaries[3]["summary"] == simulate(point.scenario, 200, 2).summary


def test_batches_give_the_combats_of_one_long_run():
    plan = plan_sweep(HP_SWEEP, [Parameter("red hp", "sides.red.combatants.0.hp", (18, 30))])
    whole = run_sweep(plan, runs=60, seed=9).outcomes
    first = run_sweep(plan, runs=25, seed=9).outcomes
    rest = run_sweep(plan, runs=35, seed=9, start=25).outcomes
    joined = pd.concat([first, rest]).sort_values(["point", "combat"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(joined, whole)
    middle = run_point(plan.points[1], 9, 10, 20).outcomes
    assert list(middle["combat"]) == list(range(10, 20))
    expected = whole[(whole["point"] == 1) & whole["combat"].between(10, 19)]
    assert list(middle["winner"]) == list(expected["winner"])


def test_a_bigger_attack_bonus_never_lowers_the_win_rate():
    """Red's attack bonus from 0 to 40 in an otherwise symmetric duel, at a fixed seed.

    The curve must be monotone at this seed, and every step must be non-negative beyond noise:
    with common random numbers the step is a paired difference whose standard error comes from
    the same combats.
    """
    path = "sides.red.combatants.0.attack_bonus"
    bonus = Parameter("red attack bonus", path, (0, 10, 20, 30, 40))
    result = run_sweep(plan_sweep(HP_SWEEP, [bonus]), runs=400, seed=21)
    wins = (
        result.outcomes.pivot(index="combat", columns="red attack bonus", values="winner") == "red"
    ).astype(float)
    rates = wins.mean().to_numpy()
    assert list(rates) == sorted(rates), rates
    for low, high in zip(wins.columns[:-1], wins.columns[1:], strict=True):
        step = wins[high] - wins[low]
        se = step.std(ddof=1) / math.sqrt(len(step))
        assert step.mean() >= -4 * se
    overall = wins[40] - wins[0]
    assert overall.mean() > 4 * overall.std(ddof=1) / math.sqrt(len(overall))
    # Red is the first side and blue unchanged, so at bonus 0 the duel is even (within noise).
    assert abs(rates[0] - 0.5) <= 4 * math.sqrt(0.25 / 400)


def test_the_saved_sweep_reads_back(hp_sweep, hp_sweep_dir):
    results = read_results(hp_sweep_dir)
    assert results.kind == "sweep"
    assert results.side_names == ("red", "blue")
    assert results.runs == 200 and results.seed == 2
    assert results.parameters[0]["label"] == "red hp"
    assert results.parameters[0]["path"] == "sides.red.combatants.Red swordsman.hp"
    pd.testing.assert_frame_equal(results.outcomes, hp_sweep.outcomes)
    csv = pd.read_csv(hp_sweep_dir / "outcomes.csv")
    assert np.array_equal(csv["winner"].to_numpy(), hp_sweep.outcomes["winner"].to_numpy())
    assert results.combatants is not None
    assert set(results.combatants["point"]) == set(range(9))
    assert results.meta["options"]["duplicates"] == "slide"
    assert results.meta["combatsim_version"]
    assert "sweep:" in results.scenario_text
    summary = json.loads((hp_sweep_dir / "summary.json").read_text())
    assert [p["values"]["red hp"] for p in summary["points"]] == list(range(12, 37, 3))


def test_combatsim_sweep_saves_one_table_and_draws_its_charts(tmp_path):
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["sweep", str(HP_SWEEP), "--runs", "40", "--seed", "1", "--out", str(out), "--json"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["kind"] == "sweep" and summary["runs"] == 40 and summary["seed"] == 1
    assert len(summary["points"]) == 9
    table = pd.read_parquet(out / "outcomes.parquet")
    assert len(table) == 9 * 40 and set(table["point"]) == set(range(9))
    assert not (out / "outcomes.csv").exists()
    for stem in ("win_rate_curve", "duration_curve", "survival"):
        for ext in ("png", "svg"):
            assert (out / "plots" / f"{stem}.{ext}").stat().st_size > 1000


def test_combatsim_sweep_prints_a_table_per_point(tmp_path):
    result = CliRunner().invoke(
        cli,
        ["sweep", str(HP_SWEEP), "--runs", "20", "--out", str(tmp_path), "--no-plots", "--csv"],
    )
    assert result.exit_code == 0, result.output
    assert "red win rate" in result.output and "red hp" in result.output
    assert (tmp_path / "outcomes.csv").is_file() and not (tmp_path / "plots").exists()
