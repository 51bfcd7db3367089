"""The tournament's equilibrium against a game solved by hand: coin-flip duels as matching pennies.

The coin-flip plug-in (tests/plugins/coinflip) plays a duel whose every outcome is a known
Markov chain: each second Red flips first, then Blue; a heads takes the flipper's ``damage``
from the other's hit points. Red needs ``ceil(blue hp / red damage)`` heads, Blue
``ceil(red hp / blue damage)``, so each pairing's win rate is computed exactly below. The
strategies are built so that Red wants to match Blue (glass cannon against the striker, tank
against the tank) and Blue wants to mismatch: a 2 x 2 game with no saddle point, whose optimal
mixes and value follow from the classic formulas.
"""

from __future__ import annotations

import json
import math
from functools import cache

import numpy as np
import pytest

from tests.plugins.test_plugins import COINFLIP, combatsim, install

PENNIES = """\
name: coin-flip pennies
rules: coinflip
runs: 4000
seed: 21
time_limit: 200
sides:
  - name: red
    combatants: [{name: Red, hp: 1, damage: 1}]
  - name: blue
    combatants: [{name: Blue, hp: 1, damage: 1}]
strategies:
  red:
    - name: glass
      set: {sides.red.combatants.Red.hp: 1, sides.red.combatants.Red.damage: 3}
    - name: tank
      set: {sides.red.combatants.Red.hp: 4, sides.red.combatants.Red.damage: 1}
  blue:
    - name: striker
      set: {sides.blue.combatants.Blue.hp: 3, sides.blue.combatants.Blue.damage: 3}
    - name: tank
      set: {sides.blue.combatants.Blue.hp: 4, sides.blue.combatants.Blue.damage: 1}
"""
RED = {"glass": (1, 3), "tank": (4, 1)}
BLUE = {"striker": (3, 3), "tank": (4, 1)}
SECONDS = 200


@cache
def red_score(red_needs: int, blue_needs: int, seconds: int = SECONDS) -> float:
    """Red's win rate (draws half) when each flip is heads with 1/2 and Red flips first."""
    p = 0.5
    states = {(red_needs, blue_needs): 1.0}
    red = blue = 0.0
    for _ in range(seconds):
        after: dict[tuple[int, int], float] = {}
        for (a, b), share in states.items():
            if a == 1:
                red += share * p
                outcomes = [(a, 1 - p)]
            else:
                outcomes = [(a - 1, p), (a, 1 - p)]
            for left, chance in outcomes:
                if b == 1:
                    blue += share * chance * p
                else:
                    after[left, b - 1] = after.get((left, b - 1), 0.0) + share * chance * p
                after[left, b] = after.get((left, b), 0.0) + share * chance * (1 - p)
        states = after
    return red + sum(states.values()) / 2


def exact_matrix() -> np.ndarray:
    return np.array(
        [
            [red_score(math.ceil(bh / rd), math.ceil(rh / bd)) for bh, bd in BLUE.values()]
            for rh, rd in RED.values()
        ]
    )


def game_of(m: np.ndarray) -> np.ndarray:
    """(red's weight on its first strategy, blue's on its first, value) of a 2 x 2 game."""
    (a, b), (c, d) = m
    denominator = a - b - c + d
    return np.array([(d - c) / denominator, (d - b) / denominator, (a * d - b * c) / denominator])


def test_the_hand_solved_game_has_no_saddle_point():
    m = exact_matrix()
    x, y, value = game_of(m)
    assert 0.3 < x < 0.45 and 0.4 < y < 0.55  # a real mix, and not one half
    assert m.min(axis=1).max() < value < m.max(axis=0).min()


@pytest.mark.slow
def test_the_tournament_finds_the_mixes_and_value_of_the_hand_solved_game(tmp_path):
    site = tmp_path / "site"
    install(site, COINFLIP)
    (tmp_path / "pennies.yaml").write_text(PENNIES, encoding="utf-8")
    result = combatsim(
        site,
        "tournament",
        "pennies.yaml",
        "--json",
        "--workers",
        "1",
        "--resamples",
        "200",
        "-q",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    runs = summary["runs"]
    assert runs == 4000
    m = exact_matrix()
    played = np.array(summary["payoff"])
    # Each cell within 4 standard errors of its exact win rate.
    se = np.sqrt(m * (1 - m) / runs)
    assert (np.abs(played - m) <= 4 * se + 1 / runs).all()
    # The mixes and the value: a function of the four cells, whose standard error is at most
    # the sum of |gradient| x cell standard error whatever the correlation of the cells
    # (they share their dice: common random numbers).
    exact = game_of(m)
    step = 1e-6
    gradient = np.array(
        [(game_of(m + step * np.eye(4)[k].reshape(2, 2)) - exact) / step for k in range(4)]
    )
    bound = np.abs(gradient).T @ se.ravel()
    found = np.array(
        [summary["mix"]["rows"]["glass"], summary["mix"]["columns"]["striker"], summary["value"]]
    )
    assert (np.abs(found - exact) <= 4 * bound).all(), (found, exact, bound)
    assert summary["dominated"] == {"rows": [], "columns": []}
    assert summary["verdict"].startswith("no dominant strategy")
    low, high = summary["value_ci95"]
    assert low < summary["value"] < high
