"""The exact ACS duel against the engine itself: every die of tiny fights, and sampling.

Tiny fights (one or two seconds, one or two hit points) are played by the engine's own clock on
every sequence of faces (:mod:`tests.exact.brute`), the percentile dice in groups of faces the
rules cannot tell apart in that fight (each group's reason says why), and must give the chain's
law exactly, outcome record by outcome record. The bundled duel is sampled at a fixed seed and
its rates and mean length must lie within four standard errors of the exact values.
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import replace

import pytest
import yaml
from click.testing import CliRunner

from sim.cli.app import cli
from sim.exact import acs
from sim.exact.errors import NotExact
from sim.exact.fight import exact_fight
from sim.rules.acs.second import Contender, second_law
from sim.run.api import simulate
from sim.scenario.loader import load_scenario, scenario_from_dict
from tests.exact.brute import chain_law, engine_law

DUEL = "scenarios/acs-duel.yaml"

#: A d100 read only as "51 or more hits" (to_hit 51, no attack bonus: no total above 100) and
#: "50 or less defends" (defense 50): one face for each half.
HALVES = ((50, 50), (100, 50))
#: The same with a defensive maneuver's +20: "70 or less defends" while maneuvering.
THIRDS = ((50, 50), (70, 20), (100, 30))
#: A d12 of ambition when one bonus is 12 above the other: every face gives the same order.
ONE_ORDER = ((1, 12),)


def fighter(name: str, **changes: object) -> dict:
    stats = {"name": name, "hp": 1, "actions": 1, "to_hit": 51, "defense": 50, "damage": "1"}
    stats.update(changes)
    return stats


def tiny(a: dict, b: dict, options: dict | None = None, time_limit: int = 1) -> dict:
    data = {
        "name": "tiny",
        "rules": "acs",
        "runs": 10,
        "seed": 1,
        "time_limit": time_limit,
        "sides": [{"name": "a", "combatants": [a]}, {"name": "b", "combatants": [b]}],
    }
    if options:
        data["options"] = options
    return data


TINY = {
    # Both roll a d4 for their one action (segments 7 to 10): the same segment often, so the
    # lower in ambition often loses its action to a defense and slides it (one second: two
    # seconds over every die take the brute force minutes).
    "giants' d4 actions, slides": (
        tiny(fighter("A", size="giant", ambition_bonus=12), fighter("B", size="giant")),
        {100: HALVES, 12: ONE_ORDER},
    ),
    # A's free action and its action on segment 1 (a d10) meet B's one defensive action there
    # (no extra for the winner).
    "one defensive action a segment, two hit points": (
        tiny(
            fighter("A", hp=2, ambition_bonus=12),
            fighter("B", hp=2, damage="1d2", size="giant"),
            {"winner_extra_defense": False},
        ),
        {100: HALVES, 12: ONE_ORDER},
    ),
    # A lost action becomes a defensive maneuver: +20 to B's defense for the rest of the second.
    "a lost action taken as a defensive maneuver": (
        tiny(
            fighter("A", ambition_bonus=12, damage="1d2", size="giant"),
            fighter("B", hp=2, size="giant"),
            {"lost_action": "defensive_maneuver"},
        ),
        {100: THIRDS, 12: ONE_ORDER},
    ),
    "keep_actions and never": (
        tiny(
            fighter("A", hp=2, ambition_bonus=12, size="giant", tactics={"defend": "never"}),
            fighter("B", hp=2, size="giant", tactics={"defend": "keep_actions"}),
        ),
        {100: HALVES, 12: ONE_ORDER},
    ),
}


@pytest.mark.parametrize("name", list(TINY))
def test_a_tiny_duel_is_the_engine_over_every_die(name):
    data, groups = TINY[name]
    scenario = scenario_from_dict(copy.deepcopy(data))
    exact = chain_law(scenario, exact_fight(scenario))
    assert exact == engine_law(scenario, groups)
    assert len(exact) >= 3  # wins at several segments and a draw: the test tells them apart


@pytest.fixture(scope="module")
def exact_duel():
    return simulate(load_scenario(DUEL), method="exact").summary


def test_the_bundled_duel_sampled_agrees_within_four_standard_errors(exact_duel):
    exact = exact_duel
    runs = 2000
    sampled = simulate(load_scenario(DUEL), runs=runs, seed=23).summary
    for side, values in exact["sides"].items():
        p = values["win_rate"]
        assert abs(sampled["sides"][side]["win_rate"] - p) <= 4 * math.sqrt(p * (1 - p) / runs)
    for reason, p in exact["ends"].items():
        got = sampled["ends"].get(reason, 0) / runs
        assert abs(got - p) <= 4 * math.sqrt(p * (1 - p) / runs) + 1e-12, reason
    law = exact["length"]["law"]
    assert exact["length"]["unit"] == "seconds"
    mean = sum(length * p for length, p in law)
    assert math.isclose(mean, exact["mean_duration_s"])
    sd = math.sqrt(sum((length - mean) ** 2 * p for length, p in law))
    assert abs(sampled["mean_duration_s"] - mean) <= 4 * sd / math.sqrt(runs)


def test_the_exact_summary_has_a_sampled_runs_keys(exact_duel):
    sampled = simulate(load_scenario(DUEL), runs=20, seed=1).summary
    assert set(sampled) <= set(exact_duel)
    assert exact_duel["method"] == "exact"
    assert exact_duel["states"] == 576
    for side, values in exact_duel["sides"].items():
        assert set(values) == set(sampled["sides"][side])
        assert values["ci95"] == [values["win_rate"], values["win_rate"]]


def test_run_exact_json_prints_the_exact_duel(tmp_path):
    data = yaml.safe_load(open(DUEL))
    for side in data["sides"]:
        side["combatants"][0]["hp"] = 4
    small = tmp_path / "small.yaml"
    small.write_text(yaml.safe_dump(data))
    result = CliRunner().invoke(cli, ["run", str(small), "--exact", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["method"] == "exact" and summary["runs"] is None
    rates = [s["win_rate"] for s in summary["sides"].values()] + [summary["draw_rate"]]
    assert math.isclose(sum(rates), 1.0)
    assert summary["length"]["unit"] == "seconds"


REFUSED = {
    "named action": ({"special_actions": [{"name": "lunge"}]}, {}, "named actions"),
    "multi-segment attack": ({"attack_segments": 2}, {}, "several segments"),
    "readying": ({"tactics": {"ready_last_action": True}}, {}, "readies"),
    "movement": ({}, {"start_distance": 10}, "do not move"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_what_the_chain_does_not_play_is_refused(name):
    stats, options, says = REFUSED[name]
    data = tiny(fighter("A", **stats), fighter("B"), options)
    with pytest.raises(NotExact, match=says):
        exact_fight(scenario_from_dict(data))


def test_a_hybrid_and_a_skirmish_are_refused_and_auto_samples_them():
    for name, says in [("t10-hybrid-acs-duel.yaml", "hybrid"), ("acs-melee-5v5.yaml", "duel")]:
        with pytest.raises(NotExact, match=says):
            exact_fight(load_scenario(f"scenarios/{name}"))
    runner = CliRunner()
    refused = runner.invoke(cli, ["run", "scenarios/acs-melee-5v5.yaml", "--exact"])
    assert refused.exit_code == 1
    auto = runner.invoke(cli, ["run", "scenarios/acs-melee-5v5.yaml", "--method", "auto",
                               "--runs", "20", "--json", "--quiet"])
    assert auto.exit_code == 0, auto.output
    assert "method: sample" in auto.stderr


@pytest.mark.parametrize(
    "ready, duplicates", [(False, "slide"), (True, "slide"), (False, "reroll")]
)
def test_the_chain_s_plans_are_the_second_s_law(ready, duplicates):
    """The chain's plans (integers) are the rules' ``second_law``, factor by factor."""
    duel = acs.duel(load_scenario(DUEL))
    options = duel.options
    contenders = [Contender.of(d.timing, ready, options) for d in duel.duelists]
    contenders[0] = replace(contenders[0], bonus=contenders[0].bonus + 2)  # not both alike
    assert acs.plans_law(contenders, duplicates).distribution() == second_law(
        contenders, duplicates
    )
