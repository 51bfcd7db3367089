"""Shared helpers for the tests: scripted combats and small scenario builders."""

from __future__ import annotations

import copy
import math
from pathlib import Path

import pytest

from sim.engine.combat import Combat
from sim.engine.dice import Dice
from sim.scenario.loader import scenario_from_dict

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "scenarios"


def acs_scenario(
    *sides: list[dict],
    options: dict | None = None,
    time_limit: float = 1,
    names: tuple[str, ...] = ("red", "blue", "green", "gold"),
) -> dict:
    """An ACS scenario as data: each positional argument is one side's combatant list."""
    return {
        "name": "test",
        "rules": "acs",
        "options": dict(options or {}),
        "time_limit": time_limit,
        "sides": [
            {"name": names[i], "combatants": copy.deepcopy(side)} for i, side in enumerate(sides)
        ],
    }


def scripted(data: dict, faces: list[tuple[int, int]]) -> tuple[Combat, list]:
    """Play one combat of a scenario with scripted dice; return it and its trace.

    ``faces`` lists ``(face, sides)`` in the order the rules roll them; running out of dice
    fails the test, so a script must cover the whole combat.
    """
    scenario = scenario_from_dict(data)
    prepared = scenario.system.prepare(scenario)
    dice = Dice.from_faces(faces)
    fighters = prepared.spawn(dice)
    trace: list = []
    combat = Combat(fighters, scenario.side_names, dice, scenario.time_limit_s, trace)
    combat.run(prepared.start)
    leftover = len(dice._buffer)
    assert leftover == 0, f"{leftover} scripted rolls were not used"
    return combat, trace


def within(observed: int, trials: int, p: float, sigmas: float = 4.0) -> bool:
    """Whether a count is within ``sigmas`` standard errors (plus 1/n) of ``p``."""
    p_hat = observed / trials
    return abs(p_hat - p) <= sigmas * math.sqrt(p * (1 - p) / trials) + 1 / trials


@pytest.fixture
def scenarios_dir() -> Path:
    return SCENARIOS
