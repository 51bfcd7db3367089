"""Brute force for the exact laws: play a rule function on every script of dice faces.

A scripted stream hands out the faces of a script and, when the script runs out, stops the play
to ask for the next die; the play is then run again on each face of that die. Re-rolls may go on
without end, so a bound on the number of rolls leaves some chance unexplored, which is returned:
an exact law must lie within it of the brute force, outcome by outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import TypeVar

from sim.engine.distribution import Distribution

T = TypeVar("T")
H = TypeVar("H", bound=Hashable)


class _NeedDie(Exception):
    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class ScriptedFaces:
    """Dice that hand out a script of faces, and ask for the next die once it runs out."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces
        self.used = 0

    def roll(self, sides: int) -> int:
        if self.used == len(self.faces):
            raise _NeedDie(sides)
        face = self.faces[self.used]
        self.used += 1
        assert 1 <= face <= sides
        return face


def every_script(
    play: Callable[[ScriptedFaces], T], max_rolls: int = 1_000
) -> tuple[list[tuple[list[int], Fraction, T]], Fraction]:
    """``play`` on every script of faces of at most ``max_rolls`` dice, with each one's chance.

    Returns:
        ``(faces, chance, result)`` for each script played to the end, and the chance of the
        scripts cut off at ``max_rolls``.
    """
    done: list[tuple[list[int], Fraction, T]] = []
    left = Fraction(0)
    pending: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while pending:
        faces, chance = pending.pop()
        dice = ScriptedFaces(faces)
        try:
            result = play(dice)
        except _NeedDie as need:
            if len(faces) == max_rolls:
                left += chance
                continue
            share = chance / need.sides
            pending.extend(([*faces, face], share) for face in range(1, need.sides + 1))
            continue
        assert dice.used == len(faces), "every scripted face is rolled"
        done.append((faces, chance, result))
    return done, left


def brute_law(
    play: Callable[[ScriptedFaces], H], max_rolls: int = 1_000
) -> tuple[dict[H, Fraction], Fraction]:
    """The chances of ``play``'s results over every script, and the chance left unexplored."""
    done, left = every_script(play, max_rolls)
    chances: dict[H, Fraction] = {}
    for _, chance, result in done:
        chances[result] = chances.get(result, Fraction(0)) + chance
    return chances, left


def agrees(exact: Distribution[H], brute: dict[H, Fraction], left: Fraction) -> bool:
    """Whether an exact law is the brute force's, give or take the chance left unexplored."""
    outcomes = set(brute) | set(exact.outcomes)
    return all(0 <= exact.probability(o) - brute.get(o, Fraction(0)) <= left for o in outcomes)
