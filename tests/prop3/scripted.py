"""Scripted dice for Proposition Three: a pool is one draw from its table of rolls.

A pool's roll is drawn with one uniform number from the table of its sorted rolls
(``sim.rules.prop3.kept``); a single die (the fumble d6, the ACS clock's d12 and d10) with one
number as ``Dice.roll`` reads it. A script lists, in the order the rules draw them, pools
(:func:`pool`, :func:`d8`) and dice (``(face, sides)`` pairs), and :func:`dice` turns it into a
scripted stream. A pool of no dice draws nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import comb

from sim.engine.combat import Combat
from sim.engine.dice import Dice
from sim.rules.prop3.kept import WHOLE_ROLLS, kept_rolls
from sim.scenario.loader import scenario_from_dict


def pool(sides: int, *faces: int) -> float:
    """The number that draws a pool of ``len(faces)`` dice rolling ``faces`` (in any order)."""
    n = len(faces)
    assert n > 0, "a pool of no dice draws nothing"
    assert comb(sides + n - 1, n) <= WHOLE_ROLLS, "a pool this large draws its lowest dice only"
    table = kept_rolls(n, sides, n, (0,), "lowest_three", True, False)
    row = [tuple(int(f) for f in r) for r in table.rows].index(tuple(sorted(faces)))
    low = table.cumulative[row - 1] if row else 0.0
    return (low + table.cumulative[row]) / 2


def d8(*faces: int) -> list[float]:
    """One pool of d8s rolling ``faces`` (nothing for a pool of no dice)."""
    return [pool(8, *faces)] if faces else []


def d6(*faces: int) -> list[float]:
    """One pool of d6s rolling ``faces``."""
    return [pool(6, *faces)] if faces else []


def floats(script: Iterable[float | tuple[int, int]]) -> list[float]:
    """The stream's numbers: pools as they are, ``(face, sides)`` dice as ``Dice.roll`` reads."""
    return [item if isinstance(item, float) else (item[0] - 0.5) / item[1] for item in script]


def dice(script: Iterable[float | tuple[int, int]]) -> Dice:
    """A stream that hands out the script, then fails."""
    return Dice.from_floats(floats(script))


def scripted(data: dict, script: Iterable[float | tuple[int, int]]) -> tuple[Combat, list]:
    """Play one combat of a scenario on a script; return it and its trace.

    Running out of the script fails the test, and so does leaving some of it unused.
    """
    scenario = scenario_from_dict(data)
    prepared = scenario.system.prepare(scenario)
    stream = dice(script)
    trace: list = []
    combat = Combat(
        prepared.spawn(stream), scenario.side_names, stream, scenario.time_limit_s, trace
    )
    combat.run(prepared.start)
    leftover = len(stream._buffer)
    assert leftover == 0, f"{leftover} scripted draws were not used"
    return combat, trace


def pools(sides: int, size: int, faces: list[int]) -> list[float]:
    """Pools of ``size`` dice each, one after another, rolling ``faces`` in turn."""
    assert len(faces) % size == 0, "whole pools only"
    return [pool(sides, *faces[i : i + size]) for i in range(0, len(faces), size)]
