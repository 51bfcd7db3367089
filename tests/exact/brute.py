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


class _Drawn(Exception):
    """The play asks for one more draw: a uniform number (``sides`` 0) or a die."""

    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class _Grid(Dice):
    """Given draws in order: a uniform number as one cell of ``grid`` equal cells, or a face."""

    def __init__(self, draws: tuple[int, ...], grid: int) -> None:  # no random stream behind it
        self.draws = draws
        self.grid = grid
        self.used = 0

    def _next(self, sides: int) -> int:
        if self.used == len(self.draws):
            raise _Drawn(sides)
        drawn = self.draws[self.used]
        self.used += 1
        return drawn

    def uniform(self) -> float:
        return (self._next(0) + 0.5) / self.grid

    def roll(self, sides: int) -> int:
        return self._next(sides)


def bounded_engine_law(
    scenario: Scenario, grid: int, most: int
) -> tuple[dict[Record, Fraction], Fraction]:
    """The engine's outcome record over every draw, re-rolls cut off after ``most`` draws.

    Proposition Three draws each kept roll with one uniform number (``kept.KeptTable.draw``):
    with ``grid`` a multiple of every pool's number of ordered rolls (``sides ** dice``), the
    ``grid`` cells of equal width are every roll of its dice, each cell inside one roll's share.
    Dice (the fumble's d6) are every face. Re-rolls (ties, a counter-attack's fumble) may go on
    for ever, so a play still asking after ``most`` draws is left out: gives the law of the
    plays that ended (a lower bound of each record's chance) and the chance left out.
    """
    prepared = scenario.system.prepare(scenario)

    def play(dice: Dice) -> Record:
        fighters = prepared.spawn(dice)
        combat = Combat(fighters, scenario.side_names, dice, scenario.time_limit_s)
        combat.run(prepared.start)
        return combat_record(combat, 0, 0)[2 : 5 + 2 * len(scenario.side_names)]

    law: dict[Record, Fraction] = {}
    left = Fraction(0)
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        draws, weight = stack.pop()
        try:
            record = play(_Grid(draws, grid))
        except _Drawn as drawn:
            if len(draws) >= most:
                left += weight
                continue
            n = drawn.sides or grid
            first = 0 if not drawn.sides else 1
            stack.extend(((*draws, k), weight / n) for k in range(first, first + n))
            continue
        law[record] = law.get(record, Fraction(0)) + weight
    return law, left
