"""One seed gives the same outcomes whatever the chunking; different seeds differ."""

from __future__ import annotations

import pandas as pd

from sim import load_scenario, simulate
from sim.run.choices import Execution
from tests.conftest import SCENARIOS


def test_same_seed_same_table_and_chunking_does_not_matter():
    scenario = load_scenario(SCENARIOS / "acs-giant-vs-party.yaml")
    a = simulate(scenario, runs=300, seed=42, execution=Execution(chunk_size=300)).outcomes
    b = simulate(scenario, runs=300, seed=42, execution=Execution(chunk_size=7)).outcomes
    pd.testing.assert_frame_equal(a, b)


def test_different_seeds_differ():
    scenario = load_scenario(SCENARIOS / "acs-duel.yaml")
    a = simulate(scenario, runs=200, seed=1).outcomes
    b = simulate(scenario, runs=200, seed=2).outcomes
    assert not a.drop(columns="seed").equals(b.drop(columns="seed"))
    assert (a["duration_s"] != b["duration_s"]).sum() > 100


def test_a_later_run_continues_the_same_combats():
    scenario = load_scenario(SCENARIOS / "acs-duel.yaml")
    short = simulate(scenario, runs=50, seed=9).outcomes
    long = simulate(scenario, runs=120, seed=9).outcomes
    pd.testing.assert_frame_equal(short, long.iloc[:50])


def test_outcome_table_columns_and_values():
    scenario = load_scenario(SCENARIOS / "acs-giant-vs-party.yaml")
    result = simulate(scenario, runs=100, seed=3, detail=True)
    frame = result.outcomes
    assert list(frame["combat"]) == list(range(100))
    assert set(frame["seed"]) == {3}
    assert set(frame["winner"]) <= {"giant", "party", "draw"}
    assert {"survivors_giant", "hp_left_party", "actions_lost", "actions_disrupted"} <= set(frame)
    # A winner is the only side with survivors.
    won = frame[frame["winner"] == "party"]
    assert (won["survivors_giant"] == 0).all() and (won["survivors_party"] > 0).all()
    detail = result.combatants
    assert len(detail) == 100 * 5
    assert set(detail["out"]) <= {"", "down"}
    per_combat = detail.groupby("combat")["actions_taken"].sum()
    assert (per_combat.to_numpy() == frame["actions_taken"].to_numpy()).all()
