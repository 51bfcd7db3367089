"""The exact Target 10 fight of two a side against the engine itself: every die, and sampling.

Tiny fights of two against one and two against two (one round, one or two hit points, a
two-sided damage die, luck, a Subdue) are played by the engine on every sequence of faces
(:mod:`tests.exact.brute`, the d20 in the groups of faces the fight's attacks cannot tell
apart) and must give the chain's law exactly; the bundled two-a-side fight is sampled at a
fixed seed and each rate must lie within four standard errors of its exact value.
"""

from __future__ import annotations

import math

import pytest

from sim.exact.chain import TooManyStates
from sim.exact.errors import NotExact
from sim.exact.fight import chain_for, exact_fight
from sim.exact.target10_team import TEAM_CAP, Team
from sim.run.api import simulate
from sim.run.exact import choose_method
from sim.scenario.loader import load_scenario, scenario_from_dict
from tests.exact.brute import chain_law, engine_law
from tests.exact.test_target10_chain import fighter

TWO_A_SIDE = "scenarios/t10-two-a-side.yaml"
SUBDUE = {"declare": {"movement": "hold", "action": "subdue"}}


def teams(a: list[dict], b: list[dict], options: dict | None = None, time_limit: int = 60):
    data = {
        "name": "tiny",
        "rules": "target10",
        "runs": 10,
        "seed": 1,
        "time_limit": time_limit,
        "sides": [{"name": "a", "combatants": a}, {"name": "b", "combatants": b}],
    }
    if options:
        data["options"] = options
    return scenario_from_dict(data)


def d20_groups(chain: Team) -> dict[int, tuple[tuple[int, int], ...]]:
    """The d20's faces in groups no attack of the fight tells apart (hit or miss for every one)."""
    attacks = [
        chain._input(me, them, False, False)
        for me, f in enumerate(chain.fighters)
        for them, t in enumerate(chain.fighters)
        if f.side != t.side
    ]
    groups: dict[tuple[bool, ...], list[int]] = {}
    for face in range(1, 21):
        groups.setdefault(tuple(a.rolls[face].success for a in attacks), []).append(face)
    return {20: tuple((faces[-1], len(faces)) for faces in groups.values())}


TINY = {
    "two against one": teams([fighter("A1"), fighter("A2")], [fighter("B", hp=2)]),
    "two against one: luck to ignore, a Subdue, a two-sided damage die": teams(
        [fighter("A1", tactics=SUBDUE), fighter("A2", hp=2)],
        [fighter("B", hp=2, luck=1, skill_level="low",
                 weapon={"name": "club", "bonus": 0, "damage": "1d2"})],
    ),
    "two against one: a random target, luck to hit, 0 hp is dead": teams(
        [fighter("A1", luck=1, skill_level="low", tactics={
            "declare": {"movement": "hold", "action": "kill"}, "luck": "never",
            "luck_to_succeed": "when_hit_takes_out"})],
        [fighter("B1", tactics={"declare": {"movement": "hold", "action": "kill"},
                                "target": "random"}), fighter("B2", hp=2)],
        options={"zero_hp": "dead"},
    ),
    "two against two": teams(
        [fighter("A1"), fighter("A2", hp=2)], [fighter("B1", hp=2), fighter("B2")]
    ),
}


@pytest.mark.parametrize("name", list(TINY))
def test_a_tiny_fight_of_two_a_side_is_the_engine_over_every_die(name):
    scenario = TINY[name]
    chain = chain_for(scenario)
    assert isinstance(chain, Team)
    exact = chain_law(scenario, exact_fight(scenario))
    assert exact == engine_law(scenario, d20_groups(chain))
    assert len(exact) >= 3  # the fight can end more than one way: the test can tell them apart


def test_the_bundled_two_a_side_fight_sampled_agrees_within_four_standard_errors():
    scenario = load_scenario(TWO_A_SIDE)
    exact = simulate(scenario, method="exact").summary
    runs = 2000
    sampled = simulate(scenario, runs=runs, seed=7).summary
    assert exact["method"] == "exact"
    checked = 0
    for side, values in exact["sides"].items():
        p = values["win_rate"]
        assert 0.05 < p < 0.95, side  # a fight either side can win: the test can fail
        got = sampled["sides"][side]["win_rate"]
        assert abs(got - p) <= 4 * math.sqrt(p * (1 - p) / runs), side
        checked += 1
    p = exact["draw_rate"]
    assert abs(sampled["draw_rate"] - p) <= 4 * math.sqrt(p * (1 - p) / runs) + 1e-12
    law = exact["length"]["law"]
    mean = sum(length * q for length, q in law)
    sd = math.sqrt(sum((length - mean) ** 2 * q for length, q in law))
    gap = abs(sampled["mean_duration_rounds"] - exact["mean_duration_rounds"])
    assert gap <= 4 * sd / math.sqrt(runs)
    assert checked == 2


def test_the_estimate_bounds_the_states_the_chain_meets():
    for scenario in [*TINY.values(), load_scenario(TWO_A_SIDE)]:
        estimate = chain_for(scenario).estimate()
        assert exact_fight(scenario).solution.states <= estimate


def test_beyond_the_team_cap_the_engine_refuses_before_solving():
    big = [fighter(n, hp=12, weapon={"name": "stick", "bonus": 0, "damage": "1d3"})
           for n in ("A1", "A2", "B1", "B2")]
    scenario = teams(big[:2], big[2:], time_limit=3600)
    estimate = chain_for(scenario).estimate()
    assert estimate > TEAM_CAP
    with pytest.raises(TooManyStates, match=f"over its cap of {TEAM_CAP:,}") as caught:
        exact_fight(scenario)
    assert caught.value.estimate == estimate


def test_three_a_side_and_a_moving_member_are_not_a_chain():
    with pytest.raises(NotExact, match="up to two"):
        chain_for(teams([fighter("A1"), fighter("A2"), fighter("A3")], [fighter("B")]))
    charge = {"declare": {"movement": "charge", "action": "kill"}}
    with pytest.raises(NotExact, match="moves"):
        chain_for(teams([fighter("A1"), fighter("A2", tactics=charge)], [fighter("B")]))


def test_auto_over_its_cap_names_what_exact_solves_for_two_a_side():
    choice, solved = choose_method(load_scenario(TWO_A_SIDE), "auto")
    assert solved is None and choice.method == "sample"
    assert choice.reason == (
        f"about 17,808 states, over auto's cap of 2,000; --exact solves up to {TEAM_CAP:,}"
    )
