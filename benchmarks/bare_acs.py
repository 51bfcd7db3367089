"""The smallest bare SimPy program that plays the ACS reference duel (``scenarios/acs-duel.yaml``).

The yardstick of issue 7: the engine must reach at least half the combats per second of this
loop. It plays the same duel by the same rules (ACS text; RULINGS part A) from the same
``Dice(seed, k)`` stream, drawing the same dice in the same order, so both give the same winner
and duration for every combat (``tests/scale/test_bare_loops.py`` checks that):

- each second, ambition d12 + bonus (red +1, blue +0), red's die first; a tie is broken by pure
  d12 roll-offs (red first), re-rolled while tied; then two d10 action dice each (red's first),
  a duplicate sliding to the next higher segment, re-rolled when it shows 10;
- the ambition winner attacks free on segment 1 before anyone; then on each segment whoever has
  an action acts, the winner first;
- an attack hits on d100 >= 45; a hit defender with a defensive action left in the segment
  (2, the winner 3) rolls d100 and defends at or below 35, else takes 1d8 damage; a defense
  on a segment where the defender has an untaken action costs it, and the action slides to the
  next free segment of the second (or is lost);
- 24 hit points each; 0 or less is out and ends the fight; a draw after 60 seconds.

One process walks the clock, one ``timeout`` per segment on which someone acts and one to the
start of each second: the least SimPy that still keeps the segment timing on its clock.

Run it: ``python benchmarks/bare_acs.py [combats]`` prints combats per second.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import simpy

from sim.engine.dice import Dice

HP = 24
BONUS = (1, 0)
TO_HIT = 45
DEFENSE = 35
ACTIONS = 2
SECONDS = 60
WINNERS = ("red", "blue")


def _segments(roll) -> list[int]:
    a = roll(10)
    b = roll(10)
    if a != b:
        return [a, b] if a < b else [b, a]
    if a < 10:
        return [a, a + 1]
    while True:
        c = roll(10)
        if c != 10:
            return [c, 10]


def play_bare(seed: int, k: int) -> tuple[str, float]:
    """Play combat ``k`` of a run seeded with ``seed``; ``(winner, duration_s)``."""
    dice = Dice(seed, k)
    roll = dice.roll
    env = simpy.Environment()
    hp = [HP, HP]
    result: list[Any] = ["draw", float(SECONDS)]

    def attack(me: int, plans, used, defenses, allowed, seg: int) -> bool:
        """One attack by ``me``; True when it takes the other out."""
        other = 1 - me
        if roll(100) < TO_HIT:
            return False
        if defenses[other] >= allowed[other]:
            hp[other] -= roll(8)
            return hp[other] <= 0
        defenses[other] += 1
        if roll(100) > DEFENSE:
            hp[other] -= roll(8)
            if hp[other] <= 0:
                return True
        plan = plans[other]
        if plan and plan[0] == seg:
            del plan[0]
            taken = plan + used[other]
            for free in range(seg + 1, 11):
                if free not in taken:
                    plan.append(free)
                    plan.sort()
                    break
        return False

    def duel():
        for second in range(SECONDS):
            t0 = second * 10
            if env.now < t0:
                yield env.timeout(t0 - env.now)
            red = roll(12) + BONUS[0]
            blue = roll(12) + BONUS[1]
            while red == blue:
                red = roll(12)
                blue = roll(12)
            first = 0 if red > blue else 1
            order = (first, 1 - first)
            plans = [_segments(roll), _segments(roll)]
            used: list[list[int]] = [[], []]
            allowed = [ACTIONS, ACTIONS]
            allowed[first] += 1
            defenses = [0, 0]
            if attack(first, plans, used, defenses, allowed, 1):
                result[0], result[1] = WINNERS[first], round((t0 + 1) / 10, 6)
                return
            for seg in range(1, 11):
                if seg > 1:
                    defenses = [0, 0]
                for me in order:
                    plan = plans[me]
                    if plan and plan[0] == seg:
                        if env.now < t0 + seg - 1:
                            yield env.timeout(t0 + seg - 1 - env.now)
                        used[me].append(plan.pop(0))
                        if attack(me, plans, used, defenses, allowed, seg):
                            result[0], result[1] = WINNERS[me], round((t0 + seg) / 10, 6)
                            return

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
