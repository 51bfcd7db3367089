"""The smallest bare SimPy program that plays the Target 10 reference duel (Cole vs Francois).

The yardstick of issue 7: the engine's ``scenarios/t10-cole-vs-francois.yaml`` must reach at
least half the combats per second of this loop. It plays exactly the same duel from the same
``Dice(seed, k)`` stream, drawing the same dice in the same order, so both give the same winner
and duration for every combat (``tests/target10/test_t10_round.py`` checks that):

- hit points 6d6 (Cole) then 7d6 (Francois), rolled at the start;
- each round (60 s = 600 clock units) initiative 1d6 + DEX bonus, Cole's die first;
- the higher initiative attacks first: d20 + modifier, success on 12 (Cole +1, Francois +3);
  damage 1d6 + STR bonus; 0 hit points or fewer takes a fighter out;
- equal initiative is simultaneous: both attack (Cole's dice first) before either is hurt;
- a fight still going after 60 rounds (3600 s) is a draw.

Run it: ``python benchmarks/bare_target10.py [combats]`` prints combats per second.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import simpy

from sim.engine.dice import Dice

ROUND = 600
ROUNDS = 60


def play_bare(seed: int, k: int) -> tuple[str, float]:
    """Play combat ``k`` of a run seeded with ``seed``; ``(winner, duration_s)``."""
    dice = Dice(seed, k)
    roll = dice.roll
    hp = [sum(roll(6) for _ in range(6)), sum(roll(6) for _ in range(7))]
    result: list[Any] = ["draw", ROUNDS * 60.0]
    env = simpy.Environment()

    def duel():
        for r in range(ROUNDS):
            cole = roll(6) + 1
            francois = roll(6) + 3
            if cole == francois:
                a = roll(6) + 3 if roll(20) + 1 >= 12 else 0
                b = roll(6) + 2 if roll(20) + 3 >= 12 else 0
                hp[1] -= a
                hp[0] -= b
            else:
                for who in (0, 1) if cole > francois else (1, 0):
                    if who == 0:
                        if roll(20) + 1 >= 12:
                            hp[1] -= roll(6) + 3
                    elif roll(20) + 3 >= 12:
                        hp[0] -= roll(6) + 2
                    if hp[0] <= 0 or hp[1] <= 0:
                        break
            if hp[0] <= 0 or hp[1] <= 0:
                result[0] = (
                    "draw"
                    if hp[0] <= 0 and hp[1] <= 0
                    else ("soldier" if hp[1] <= 0 else "leatherstocking")
                )
                result[1] = (r + 1) * 60.0
                return
            yield env.timeout(ROUND)

    env.process(duel())
    env.run()
    return result[0], result[1]


def main(combats: int = 20000) -> None:
    """Print the bare loop's combats per second."""
    start = time.perf_counter()
    for k in range(combats):
        play_bare(1, k)
    print(f"{combats / (time.perf_counter() - start):.0f} combats/s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20000)
