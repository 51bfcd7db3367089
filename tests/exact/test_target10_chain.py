"""The exact Target 10 duel against the engine itself: every die of tiny fights, and sampling.

Tiny fights (a round, one or two hit points) are played by the engine on every sequence of
faces (:mod:`tests.exact.brute`) and must give the chain's law exactly, outcome record by
outcome record; the bundled duel is sampled at a fixed seed and every rate, mean and end must
lie within four standard errors of its exact value.
"""

from __future__ import annotations

import copy
import json
import math
from fractions import Fraction

import pytest
from click.testing import CliRunner

from sim.cli.app import cli
from sim.exact.chain import TooManyStates
from sim.exact.errors import NotExact
from sim.exact.fight import exact_fight
from sim.run.api import simulate
from sim.scenario.loader import load_scenario, scenario_from_dict
from tests.exact.brute import chain_law, engine_law

DUEL = "scenarios/t10-cole-vs-francois.yaml"


def fighter(name: str, **changes: object) -> dict:
    stats = {
        "name": name,
        "hp": 1,
        "hit_dice": 1,
        "strength": 10,
        "dexterity": 10,
        "weapon": {"name": "stick", "bonus": 0, "damage": "1"},
        "tactics": {"declare": {"movement": "hold", "action": "kill"}},
    }
    stats.update(changes)
    return stats


def tiny(a: dict, b: dict, options: dict | None = None, time_limit: int = 60) -> dict:
    data = {
        "name": "tiny",
        "rules": "target10",
        "runs": 10,
        "seed": 1,
        "time_limit": time_limit,
        "sides": [{"name": "a", "combatants": [a]}, {"name": "b", "combatants": [b]}],
    }
    if options:
        data["options"] = options
    return data


TINY = {
    "one hit point each": tiny(fighter("A"), fighter("B")),
    "luck to ignore, luck to hit, a Subdue": tiny(
        fighter("A", luck=1, skill_level="low", tactics={
            "declare": {"movement": "hold", "action": "kill"}, "luck": "save",
            "luck_to_succeed": "when_hit_takes_out"}),
        fighter("B", dexterity=13, tactics={"declare": {"movement": "hold", "action": "subdue"}}),
    ),
    "two hit points, a two-sided damage die, 0 hp is dead": tiny(
        fighter("A", hp=2, weapon={"name": "club", "bonus": 0, "damage": "1d2"}),
        fighter("B", hp=2, strength=13, weapon={"name": "club", "bonus": 1, "damage": "1d2"}),
        options={"zero_hp": "dead"},
    ),
}


@pytest.mark.parametrize("name", list(TINY))
def test_a_tiny_duel_is_the_engine_over_every_die(name):
    scenario = scenario_from_dict(copy.deepcopy(TINY[name]))
    exact = chain_law(scenario, exact_fight(scenario))
    assert exact == engine_law(scenario)
    assert len(exact) >= 3  # the fight can end more than one way: the test can tell them apart


def test_the_bundled_duel_sampled_agrees_within_four_standard_errors():
    scenario = load_scenario(DUEL)
    exact = simulate(scenario, method="exact").summary
    runs = 4000
    sampled = simulate(scenario, runs=runs, seed=11).summary
    checked = 0
    for side, values in exact["sides"].items():
        p = values["win_rate"]
        se = math.sqrt(p * (1 - p) / runs)
        assert abs(sampled["sides"][side]["win_rate"] - p) <= 4 * se, side
        checked += 1
    p = exact["draw_rate"]
    assert abs(sampled["draw_rate"] - p) <= 4 * math.sqrt(p * (1 - p) / runs)
    for reason, p in exact["ends"].items():
        got = sampled["ends"].get(reason, 0) / runs
        assert abs(got - p) <= 4 * math.sqrt(p * (1 - p) / runs) + 1e-12, reason
        checked += 1
    # The mean length: its standard error from the exact law of the length itself.
    law = exact["length"]["law"]
    mean = sum(length * p for length, p in law)
    sd = math.sqrt(sum((length - mean) ** 2 * p for length, p in law))
    gap = abs(sampled["mean_duration_rounds"] - exact["mean_duration_rounds"])
    assert gap <= 4 * sd / math.sqrt(runs)
    assert checked >= 4


def test_the_exact_summary_has_a_sampled_runs_keys_and_exact_fractions():
    scenario = load_scenario(DUEL)
    exact = simulate(scenario, method="exact").summary
    sampled = simulate(scenario, runs=20, seed=1).summary
    assert set(sampled) <= set(exact)
    assert exact["method"] == "exact"
    for side, values in exact["sides"].items():
        assert set(values) == set(sampled["sides"][side])
        low, high = values["ci95"]
        assert low == high == values["win_rate"]
        assert float(Fraction(exact["fractions"]["sides"][side]["win_rate"])) == values["win_rate"]
    total = sum(Fraction(v) for v in exact["fractions"]["ends"].values())
    assert total == 1
    assert math.isclose(sum(p for _, p in exact["length"]["law"]), 1.0)


def test_run_exact_json_prints_exact_win_draw_and_length():
    result = CliRunner().invoke(cli, ["run", DUEL, "--exact", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["method"] == "exact"
    assert summary["runs"] is None
    rates = [s["win_rate"] for s in summary["sides"].values()] + [summary["draw_rate"]]
    assert math.isclose(sum(rates), 1.0)
    assert summary["mean_duration_rounds"] > 1


def test_auto_says_it_samples_a_fight_without_a_chain_and_exact_refuses_it():
    runner = CliRunner()
    auto = runner.invoke(cli, ["run", "scenarios/t10-skirmish.yaml", "--method", "auto",
                               "--json", "--quiet"])
    assert auto.exit_code == 0, auto.output
    assert "method: sample" in auto.stderr
    refused = runner.invoke(cli, ["run", "scenarios/t10-skirmish.yaml", "--exact"])
    assert refused.exit_code != 0
    assert "no exact answer" in refused.output


def test_beyond_the_cap_the_engine_refuses_with_its_estimate():
    scenario = load_scenario(DUEL)
    with pytest.raises(TooManyStates, match="about 1,591 states, over its cap of 100") as caught:
        exact_fight(scenario, cap=100)
    assert caught.value.estimate == 1591


def test_a_moving_duellist_is_not_a_chain():
    data = tiny(fighter("A", tactics={"declare": {"movement": "charge", "action": "kill"}}),
                fighter("B"))
    with pytest.raises(NotExact, match="moves"):
        exact_fight(scenario_from_dict(data))
