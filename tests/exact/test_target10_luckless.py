"""The luckless Target 10 duel solved one combatant at a time gives the chain's very answer.

:mod:`sim.exact.target10_luckless` replaces the chain over pairs of hit points for duels without
luck: every ending at every round, the live states met and every number of the summary must be
those of :func:`sim.exact.chain.solve` on the same duel, fraction for fraction. (The tiny duels
of ``test_target10_chain.py``, checked against the engine over every die, go through it too.)
"""

from __future__ import annotations

import copy

import pytest

from sim.exact import target10_luckless
from sim.exact.chain import solve
from sim.exact.fight import ExactFight, chain_for, exact_fight
from sim.run.exact import exact_summary
from sim.scenario.loader import load_scenario, scenario_from_dict
from tests.exact.test_target10_chain import DUEL, fighter, tiny

KILL = {"declare": {"movement": "hold", "action": "kill"}}
SUBDUE = {"declare": {"movement": "hold", "action": "subdue"}}

DUELS = {
    "the bundled duel": (DUEL, None),
    "the bundled duel to a near time limit": (DUEL, {"time_limit": 300}),
    "the bundled duel, 0 hit points is dead": (DUEL, {"options": {"zero_hp": "dead"}}),
    "equal initiative, a Subdue, blows that may take both out": (
        tiny(
            fighter("A", hp="2d4", weapon={"name": "club", "bonus": 1, "damage": "1d4"}),
            fighter("B", hp="1d6+1", tactics=SUBDUE,
                    weapon={"name": "axe", "bonus": 0, "damage": "1d6"}),
            time_limit=600,
        ),
        None,
    ),
    "no damage floor, a weak blow": (
        tiny(
            fighter("A", hp=3, strength=5, weapon={"name": "twig", "bonus": 0, "damage": "1d2"}),
            fighter("B", hp="1d3", dexterity=14, tactics=KILL),
            options={"min_damage": 0},
            time_limit=900,
        ),
        None,
    ),
}


def _scenario(name: str):
    source, overrides = DUELS[name]
    if isinstance(source, str):
        return load_scenario(source, overrides)
    return scenario_from_dict(copy.deepcopy(source))


@pytest.mark.parametrize("name", list(DUELS))
def test_it_gives_the_chains_endings_states_and_summary(name):
    scenario = _scenario(name)
    duel = chain_for(scenario)
    assert target10_luckless.applies(duel)
    chain = solve(duel.start(), duel.step, duel.steps, duel.timeout)
    luckless = target10_luckless.solve(chain_for(scenario))
    assert luckless.endings == chain.endings
    assert luckless.states == chain.states
    limit = scenario.time_limit_s
    summaries = [
        exact_summary(scenario, ExactFight(solution, duel.step_s, limit))
        for solution in (chain, luckless)
    ]
    assert summaries[0] == summaries[1]
    # The fight can end more than one way, and the test can tell the ways apart.
    assert len({ending.reason for ending, _ in chain.endings}) >= 2


def test_the_exact_engine_solves_a_luckless_duel_so(monkeypatch):
    calls = []
    solved = target10_luckless.solve

    def spy(duel):
        calls.append(duel)
        return solved(duel)

    monkeypatch.setattr(target10_luckless, "solve", spy)
    exact_fight(load_scenario(DUEL))
    assert len(calls) == 1


def test_a_duel_with_luck_goes_to_the_chain(monkeypatch):
    scenario = scenario_from_dict(
        tiny(fighter("A", luck=1, skill_level="low"), fighter("B"))
    )
    duel = chain_for(scenario)
    assert not target10_luckless.applies(duel)

    def refused(duel):
        raise AssertionError("a duel with luck solved one combatant at a time")

    monkeypatch.setattr(target10_luckless, "solve", refused)
    solution = exact_fight(scenario).solution
    assert solution.endings == solve(duel.start(), duel.step, duel.steps, duel.timeout).endings
