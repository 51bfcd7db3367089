"""The exact Proposition Three melee duel against the engine itself: every draw of tiny duels.

Tiny duels (Vigor 1, a wound a hit, pools of 2d4, defenders who have no defense form, initiative
pools of no dice) are played by the engine's own round process on every draw
(:func:`tests.exact.brute.bounded_engine_law`: each kept roll's uniform number in 16 cells,
every roll of 2d4, and every face of the fumble d6). Without fumbles nothing is ever rolled
again, and the engine's law is the chain's exactly; with fumbles a counter-attack may fumble in
turn for ever, so the plays still going after a number of draws are left out, and the chain's
chance of each record must lie between what the plays that ended give and that plus the chance
left out. A small version of the bundled duel is sampled at a fixed seed and must lie within
four standard errors of the exact values.
"""

from __future__ import annotations

import copy
import math
import sys
from fractions import Fraction

import pytest
import yaml

from sim.exact import fight, prop3
from sim.exact.chain import TooManyStates
from sim.exact.errors import NotExact
from sim.exact.fight import exact_fight
from sim.run.api import simulate
from sim.run.exact import choose_method, fraction_text
from sim.scenario.loader import load_scenario, scenario_from_dict
from tests.exact.brute import bounded_engine_law, chain_law

DUEL = "scenarios/p3-moonbelly-vs-kronzer.yaml"
GRID = 16  # 2d4: 16 ordered rolls


def fighter(name: str, **changes: object) -> dict:
    """A tiny duellist: Vigor 1, a 2d4 attack (excellent, on Agility 2) and no defense form.

    Natural claws (no parry, never dropped), heavy armor (no dodge, no block without a shield
    or a two-handed weapon), and an initiative sub-stat of no dice.
    """
    stats: dict = {
        "name": name,
        "vigor": 1,
        "agility": 2,
        "mind": 1,
        "skills": {"bash": "excellent"},
        "disadvantages": {"intellect": 1},
        "weapon": {
            "name": "claws",
            "bash": "average",
            "slash": None,
            "thrust": None,
            "natural": True,
        },
        "armor": {"name": "plate", "heavy": True},
    }
    stats.update(changes)
    return stats


def tiny(a: dict, b: dict, options: dict | None = None, time_limit: int = 6) -> dict:
    data = {
        "name": "tiny",
        "rules": "prop3",
        "runs": 10,
        "seed": 1,
        "time_limit": time_limit,
        "options": {
            "attack_substat": "dexterity",
            "initiative_substat": "intellect",
            "nicks_per_wound": 1,
            **(options or {}),
        },
        "sides": [{"name": "a", "combatants": [a]}, {"name": "b", "combatants": [b]}],
    }
    return data


def assert_sampling_agrees(exact: dict, sampled: dict, runs: int, floor: float) -> None:
    """Each side's win rate (each above ``floor`` and below ``1 - floor``, so that the test can
    tell a wrong chain), the draw rate and the mean length in rounds, sampled, within four
    standard errors of the exact values."""
    assert exact["method"] == "exact"
    for side, values in exact["sides"].items():
        p = values["win_rate"]
        assert floor < p < 1 - floor
        assert abs(sampled["sides"][side]["win_rate"] - p) <= 4 * math.sqrt(p * (1 - p) / runs)
    p = exact["draw_rate"]
    assert abs(sampled["draw_rate"] - p) <= 4 * math.sqrt(p * (1 - p) / runs)
    law = exact["length"]["law"]
    mean = sum(length * q for length, q in law)
    sd = math.sqrt(sum((length - mean) ** 2 * q for length, q in law))
    assert abs(sampled["mean_duration_rounds"] - mean) <= 4 * sd / math.sqrt(runs)


EXACT = {
    # Two rounds, no fumbles: a pair hits and takes the other out; a miss is a plain miss.
    "two rounds, no fumbles": tiny(fighter("A"), fighter("B"), {"fumbles": False}, 12),
    # A wound is two nicks: A's first hit only nicks B; two rounds.
    "nicks before a wound": tiny(
        fighter("A", vigor=2), fighter("B"), {"fumbles": False, "nicks_per_wound": 2}, 12
    ),
    # B, second in the listed order, skips its first turn to move up a place (move_up).
    "move_up": tiny(fighter("A"), fighter("B", tactics={"move_up": 1}), {"fumbles": False}, 18),
}


@pytest.mark.parametrize("name", list(EXACT))
def test_a_tiny_duel_without_rerolls_is_the_engine_over_every_draw(name):
    scenario = scenario_from_dict(copy.deepcopy(EXACT[name]))
    exact = dict(chain_law(scenario, exact_fight(scenario)).table)
    brute, left = bounded_engine_law(scenario, GRID, 12)
    assert left == 0
    assert exact == brute
    assert len(exact) >= 3  # wins both ways and a draw: the test tells them apart


def test_a_random_attack_form_is_each_form_alike_as_the_engine_over_every_draw():
    """A picks its attack form at random (bash on a d4, slash on a d8), B always bashes: one round."""
    claws = {"name": "claws", "bash": "average", "slash": "average", "thrust": None, "natural": True}
    skills = {"bash": "excellent", "slash": "average"}
    laws = {}
    for tactic in ("random", "bash", "slash"):
        a = fighter("A", weapon=claws, skills=skills, tactics={"attack": tactic})
        b = fighter("B", weapon=claws, skills=skills, tactics={"attack": "bash"})
        scenario = scenario_from_dict(tiny(a, b, {"fumbles": False}))
        laws[tactic] = dict(chain_law(scenario, exact_fight(scenario)).table)
        brute, left = bounded_engine_law(scenario, 64, 12)  # 2d8: 64 ordered rolls
        assert left == 0
        assert laws[tactic] == brute
    assert laws["bash"] != laws["slash"]  # the forms differ: the test tells a pick apart
    for record, p in laws["random"].items():
        assert p == (laws["bash"].get(record, 0) + laws["slash"].get(record, 0)) / 2


@pytest.mark.parametrize("spending", ["to_succeed", "always", "never"])
def test_persistent_points_spent_over_two_rounds_are_the_engine_over_every_draw(spending):
    """A's Dexterity advantage gives wiggle points its attacks spend and do not regain."""
    a = fighter("A", advantages={"dexterity": 1})
    data = tiny(a, fighter("B", vigor=2), {"fumbles": False, "advantage_spending": spending}, 12)
    scenario = scenario_from_dict(data)
    exact = dict(chain_law(scenario, exact_fight(scenario)).table)
    brute, left = bounded_engine_law(scenario, GRID, 12)
    assert left == 0
    assert exact == brute
    assert len(exact) >= 5


@pytest.mark.slow
def test_the_bundled_duel_with_advantages_on_both_sides_agrees_with_sampling(small_duel):
    """Vigor 2 over 5 rounds: Moonbelly's Strength advantage attacks, Kronzer's Speed dodges."""
    data = copy.deepcopy(small_duel)
    for side, advantage in zip(data["sides"], ("strength", "speed"), strict=True):
        side["combatants"][0]["vigor"] = 2
        side["combatants"][0]["advantages"] = {advantage: 1}
    data["time_limit"] = 30
    exact = simulate(scenario_from_dict(copy.deepcopy(data)), method="exact").summary
    runs = 3000
    sampled = simulate(scenario_from_dict(copy.deepcopy(data)), runs=runs, seed=31).summary
    assert_sampling_agrees(exact, sampled, runs, 0.05)


@pytest.mark.parametrize(
    "tactics",
    [
        {"defense": "parry"},  # a critical parry: the automatic counter-attack
        {"attack": "random", "defense": "random"},
    ],
)
def test_the_bundled_duel_at_vigor_two_with_these_tactics_agrees_with_sampling(small_duel, tactics):
    data = copy.deepcopy(small_duel)
    for side in data["sides"]:
        side["combatants"][0]["vigor"] = 2
        side["combatants"][0].setdefault("tactics", {}).update(tactics)
    exact = simulate(scenario_from_dict(copy.deepcopy(data)), method="exact").summary
    runs = 3000
    sampled = simulate(scenario_from_dict(copy.deepcopy(data)), runs=runs, seed=31).summary
    assert_sampling_agrees(exact, sampled, runs, 0.02)


BOUNDED = {
    # One round with fumbles: dropped weapons re-rolled (claws), a fumbler striking itself,
    # stumbles that give the other +2 wiggle, falls, and counter-attacks that may fumble.
    "one round with fumbles": tiny(fighter("A"), fighter("B")),
    # The same with a club that can be dropped (picked up next turn) against claws.
    "a weapon that drops": tiny(
        fighter("A", weapon={"name": "club", "bash": "average", "slash": None, "thrust": None}),
        fighter("B"),
        time_limit=12,
    ),
}


@pytest.mark.parametrize("name", list(BOUNDED))
def test_a_tiny_duel_with_fumbles_lies_within_the_engines_bounds(name):
    scenario = scenario_from_dict(copy.deepcopy(BOUNDED[name]))
    exact = dict(chain_law(scenario, exact_fight(scenario)).table)
    brute, left = bounded_engine_law(scenario, GRID, 5)
    assert left < Fraction(1, 4)  # re-rolls cut off: the bounds are that wide at most
    assert set(brute) <= set(exact)
    for record, p in exact.items():
        low = brute.get(record, Fraction(0))
        assert low <= p <= low + left, record
    assert sum(exact.values()) == 1


@pytest.fixture(scope="module")
def small_duel() -> dict:
    """The bundled duel at Vigor 3 each over 10 rounds (the whole duel takes minutes)."""
    with open(DUEL) as file:
        data = yaml.safe_load(file)
    for side in data["sides"]:
        side["combatants"][0]["vigor"] = 3
    data["time_limit"] = 60
    return data


def test_the_bundled_duel_made_small_sampled_agrees_within_four_standard_errors(small_duel):
    data = copy.deepcopy(small_duel)
    exact = simulate(scenario_from_dict(copy.deepcopy(data)), method="exact").summary
    runs = 2000
    sampled = simulate(scenario_from_dict(copy.deepcopy(data)), runs=runs, seed=23).summary
    assert_sampling_agrees(exact, sampled, runs, 0.05)


def test_initiative_rolled_every_round_sampled_agrees_within_four_standard_errors(small_duel):
    """The bundled duel at Vigor 2 over 10 rounds, initiative rolled again every round."""
    data = copy.deepcopy(small_duel)
    for side in data["sides"]:
        side["combatants"][0]["vigor"] = 2
    data.setdefault("options", {})["initiative"] = "round"
    exact = simulate(scenario_from_dict(copy.deepcopy(data)), method="exact").summary
    data["options"]["initiative"] = "fight"
    kept = simulate(scenario_from_dict(copy.deepcopy(data)), method="exact").summary
    assert exact["fractions"] != kept["fractions"]  # the chain follows the option
    data["options"]["initiative"] = "round"
    runs = 3000
    sampled = simulate(scenario_from_dict(copy.deepcopy(data)), runs=runs, seed=29).summary
    assert_sampling_agrees(exact, sampled, runs, 0.05)


@pytest.mark.slow
def test_the_whole_bundled_duel_over_ten_rounds_sampled_agrees_within_four_standard_errors():
    """Vigor 5 and 6 as bundled, the time limit cut to 10 rounds: 1,780 blocks, some 22 s."""
    with open(DUEL) as file:
        data = yaml.safe_load(file)
    data["time_limit"] = 60
    exact = simulate(scenario_from_dict(copy.deepcopy(data)), method="exact").summary
    runs = 2000
    sampled = simulate(scenario_from_dict(copy.deepcopy(data)), runs=runs, seed=23).summary
    assert exact["states"] == 1780
    assert 0.02 < exact["draw_rate"] < 0.98
    assert_sampling_agrees(exact, sampled, runs, 0.02)
    assert len(exact["fractions"]["draw_rate"]) > 4300  # written whole (fraction_text)


REFUSED = {
    "a missile weapon": ({"missile": {"name": "sling"}}, {}, "missile weapon"),
    "apart": ({}, {"start_distance": 10}, "beyond melee range"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_what_the_chain_does_not_play_is_refused_in_one_sentence(name):
    stats, options, says = REFUSED[name]
    data = tiny(fighter("A", **stats), fighter("B"), options)
    with pytest.raises(NotExact, match=says) as why:
        exact_fight(scenario_from_dict(data))
    text = str(why.value)
    assert text.count(". ") == 0 and not text.endswith(".")  # one sentence, as the CLI prints it


def test_more_than_one_a_side_is_refused():
    data = tiny(fighter("A"), fighter("B"))
    data["sides"][1]["combatants"].append(fighter("C"))
    with pytest.raises(NotExact, match="one combatant on each"):
        exact_fight(scenario_from_dict(data))


def test_the_bundled_hundred_round_duel_is_refused_by_its_cap_before_solving(monkeypatch):
    """No round is a pause, so the chain affords ROUND_STATES over its rounds: 800 over 100."""

    def never(*args, **kwargs):
        raise AssertionError("solved a chain over its cap")

    monkeypatch.setattr(fight, "solve", never)
    scenario = load_scenario("scenarios/p3-moonbelly-vs-kronzer.yaml")
    chain = fight.chain_for(scenario)
    assert chain.steps == 100 and chain.cap() == prop3.ROUND_STATES // 100
    with pytest.raises(TooManyStates, match="7,680 states, over its cap of 800") as why:
        exact_fight(scenario)
    assert why.value.cap == 800
    # Ten rounds at Vigor 3 fit (the small duel the other tests solve).
    data = yaml.safe_load(open("scenarios/p3-moonbelly-vs-kronzer.yaml").read())
    for side in data["sides"]:
        for combatant in side["combatants"]:
            combatant["vigor"] = 3
    data["time_limit"] = 60
    small = fight.chain_for(scenario_from_dict(data))
    assert small.estimate() <= small.cap()


def test_lumping_states_alike_changes_no_chance_of_any_ending_at_any_round(monkeypatch):
    """The chain over blocks of states alike gives every ending at every round as over states."""
    with open(DUEL) as file:
        data = yaml.safe_load(file)
    for side in data["sides"]:
        side["combatants"][0]["vigor"] = 2
    data["time_limit"] = 36
    lumped = exact_fight(scenario_from_dict(copy.deepcopy(data)))
    monkeypatch.setattr(prop3, "_lumped", lambda live, law, steps: ({}, {}))
    every = exact_fight(scenario_from_dict(copy.deepcopy(data)))
    assert lumped.solution.states < every.solution.states / 2  # the test can tell them apart
    assert lumped.solution.endings == every.solution.endings
    # The whole duel over 10 rounds fits the cap now (some 26 s of CPU, 1,780 blocks).
    with open(DUEL) as file:
        data = yaml.safe_load(file)
    data["time_limit"] = 60
    ten = fight.chain_for(scenario_from_dict(data))
    assert ten.estimate() == 7680 <= ten.cap()


def test_an_exact_chance_of_any_length_is_written_whole():
    """Python's str stops at 4,300 digits; the whole duel's chances over 10 rounds have more."""
    values = [Fraction(3**20000 + 1, 2**30000), Fraction(10**2500), Fraction(-7, 3), Fraction(5)]
    texts = [fraction_text(v) for v in values]
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        assert texts == [str(v) for v in values]
    finally:
        sys.set_int_max_str_digits(limit)
    assert len(texts[0]) > 10_000 and texts[2:] == ["-7/3", "5"]


def test_auto_samples_the_bundled_duel_saying_its_chains_cap():
    choice, fight_ = choose_method(load_scenario("scenarios/p3-moonbelly-vs-kronzer.yaml"), "auto")
    assert fight_ is None and choice.method == "sample"
    assert choice.reason == "about 7,680 states, over its chain's cap of 800"
