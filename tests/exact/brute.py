"""Brute force for the exact engine's tests: a whole fight of the engine over every die.

:func:`engine_law` plays the engine's own combat (the rule system's ``prepare``, ``spawn`` and
round process, as the runner plays it) on every sequence of faces it asks for
(``exchange.dice_law``), each weighted by its chance: the exact law of the outcome record, with
no chain at all. It is for tiny fights (a round or two, constant hit points): every face of
every die is one more play of the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from sim.engine.combat import Combat
from sim.engine.dice import Dice
from sim.engine.distribution import Distribution
from sim.exact.fight import ExactFight
from sim.rules.target10.exchange import dice_law
from sim.run.records import DRAW, combat_record
from sim.scenario.schema import Scenario

#: What a test compares: winner, end reason, duration (s), then survivors and hp left per side.
Record = tuple[object, ...]


def engine_law(
    scenario: Scenario, groups: dict[int, tuple[tuple[int, int], ...]] | None = None
) -> Distribution[Record]:
    """The exact law of the engine's outcome record, every die enumerated.

    ``groups`` (by a die's sides) plays one face for each group of faces the rules cannot tell
    apart in this scenario, as ``(face, how many faces)``: e.g. a d100 read only as at least 51
    to hit and at most 50 to defend is ``{100: ((50, 50), (100, 50))}``. Other dice: every face.
    """
    prepared = scenario.system.prepare(scenario)

    def play(dice) -> Record:
        fighters = prepared.spawn(dice)
        combat = Combat(fighters, scenario.side_names, dice, scenario.time_limit_s)
        combat.run(prepared.start)
        return combat_record(combat, 0, 0)[2:5 + 2 * len(scenario.side_names)]

    return dice_law(play) if groups is None else grouped_law(play, groups)


class _Wanted(Exception):
    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class _Faces(Dice):
    """Given faces in order; the next die asked for is named by :class:`_Wanted`."""

    def __init__(self, faces: tuple[int, ...]) -> None:  # no random stream behind it
        self.faces = faces
        self.used = 0

    def roll(self, sides: int) -> int:
        if self.used == len(self.faces):
            raise _Wanted(sides)
        face = self.faces[self.used]
        self.used += 1
        return face


def grouped_law(
    play: Callable[[Dice], Record], groups: dict[int, tuple[tuple[int, int], ...]]
) -> Distribution[Record]:
    """``dice_law`` with the faces of some dice in groups (see :func:`engine_law`)."""
    weighted: list[tuple[Record, Fraction]] = []

    def walk(faces: tuple[int, ...], weight: Fraction) -> None:
        try:
            weighted.append((play(_Faces(faces)), weight))
        except _Wanted as wanted:
            sides = wanted.sides
            for face, count in groups.get(sides, tuple((f, 1) for f in range(1, sides + 1))):
                walk((*faces, face), weight * Fraction(count, sides))

    walk((), Fraction(1))
    return Distribution.of(weighted)


def chain_law(scenario: Scenario, fight: ExactFight) -> Distribution[Record]:
    """The same record's law from the exact engine's solution."""
    names = scenario.side_names
    weighted = []
    for (ending, step), p in fight.solution.endings.items():
        winner = DRAW if ending.winner is None else names[ending.winner]
        per_side = [v for pair in zip(ending.survivors, ending.hp_left, strict=True) for v in pair]
        seconds = round(float(fight.duration_s(ending, step)), 6)
        weighted.append(((winner, ending.reason, seconds, *per_side), p))
    return Distribution.of(weighted)


def as_floats(law: Distribution[Record]) -> dict[Record, Fraction]:
    """A law as a plain mapping (for a readable assertion message)."""
    return dict(law.table)
