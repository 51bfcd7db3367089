"""The maths of tests: chances, test values, who tests first, extended tests exactly.

Target 10 text, "Tests" and "Man vs. Man": a test is d20 + modifier against 10. In an opposed test
the modifier is the acting character's Test Value (TV: ability modifier, plus skill value when the
character has the skill) minus the opposing TV; against nature the opposing TV is 1..10, usually 5.
The higher TV tests first; equal TVs defer to the greater skill, then the higher ability score,
then a coin. A Referee may require several successes and end the test after too many failures
(the Juan and Susan example: 3 successes before 4 shared failures, the two taking turns).

RULINGS part B: no natural 1 or 20 (the text has none), so a test succeeds with probability
``clamp(21 - target + modifier, 0, 20) / 20``. Everything here is pure: the chance of a whole
extended test comes from a small Markov chain on (successes, failures, luck left), with the
tester of each roll fixed by the number of rolls so far.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from sim.engine.dice import Dice
from sim.rules.target10.luck import spend_on_failed_test

DIE = 20


@dataclass(frozen=True, slots=True)
class D20Roll:
    """One test roll: the d20, what was added, and whether it reached the target."""

    face: int  # the d20 (0 for an automatic success, which rolls nothing)
    modifier: int
    need: int
    success: bool
    automatic: bool = False

    @property
    def total(self) -> int:
        """The d20 plus the modifier."""
        return self.face + self.modifier


@cache
def outcomes(modifier: int, need: int) -> tuple[D20Roll, ...]:
    """Every roll of a test with this modifier and target, by d20 face.

    Index 0 is the automatic success (a roll of nothing); 1..20 the faces. The rule is here
    and nowhere else; rolls are frozen values, built once and shared.
    """
    faces = [D20Roll(face, modifier, need, face + modifier >= need) for face in range(1, DIE + 1)]
    return (D20Roll(0, modifier, need, True, True), *faces)


def roll_test(dice: Dice, modifier: int, need: int, automatic: bool = False) -> D20Roll:
    """Roll a test: d20 + ``modifier`` succeeds on ``need`` or more (no natural 1 or 20).

    Tests outside combat, Negotiate and combat tests alike ("Combat tests work like other
    tests"); ``automatic`` is a success without a roll (an attack on a fleeing combatant).
    """
    table = outcomes(modifier, need)
    return table[0] if automatic else table[dice.roll(DIE)]


def success_faces(modifier: int, target: int) -> int:
    """How many d20 faces succeed: those with ``face + modifier >= target`` (0..20)."""
    return sum(1 for roll in outcomes(modifier, target)[1:] if roll.success)


def success_chance(modifier: int, target: int) -> Fraction:
    """The exact chance that d20 + ``modifier`` reaches ``target``."""
    return Fraction(success_faces(modifier, target), DIE)


def tv_of(ability_mod: int, skill: int = 0) -> int:
    """A character's TV: the ability modifier, plus the skill value if it has the skill."""
    return ability_mod + skill


def turn_order(testers: Sequence[tuple[int, int, int]], dice: Dice) -> list[int]:
    """The order in which characters who all act take their tests.

    Args:
        testers: ``(tv, skill, ability score)`` of each, by position.
        dice: the stream for the coin (flipped only between full ties, in position order).

    Returns:
        Positions, first tester first: higher TV, then higher skill, then higher ability score,
        then a coin (each fully tied tester flips; the higher flips go first, flipping again
        among those still tied).
    """
    ranked = sorted(range(len(testers)), key=lambda i: tuple(-v for v in testers[i]))
    order: list[int] = []
    start = 0
    while start < len(ranked):
        end = start + 1
        while end < len(ranked) and testers[ranked[end]] == testers[ranked[start]]:
            end += 1
        group = ranked[start:end]
        order.extend(group if len(group) == 1 else _coin_order(group, dice))
        start = end
    return order


def _coin_order(group: list[int], dice: Dice) -> list[int]:
    """Order fully tied testers by coin flips (heads first), flipping again among equals."""
    if len(group) == 1:
        return group
    flips = [dice.roll(2) for _ in group]
    heads = [m for m, f in zip(group, flips, strict=True) if f == 2]
    tails = [m for m, f in zip(group, flips, strict=True) if f == 1]
    if not heads or not tails:
        return _coin_order(group, dice)
    return _coin_order(heads, dice) + _coin_order(tails, dice)


def extended_chance(
    chances: Sequence[Fraction | float],
    successes: int,
    failures: int,
    luck: Sequence[int] | None = None,
    policies: Sequence[str] | None = None,
) -> Fraction | float:
    """The exact chance that an extended test succeeds.

    Testers take turns in the given order (roll ``n`` is made by tester ``n mod len(chances)``);
    the test succeeds on ``successes`` successes before ``failures`` failures, all shared.
    A tester with luck left may turn a failed roll into a success by its policy
    (:func:`~sim.rules.target10.luck.spend_on_failed_test`): ``save`` when that failure would
    end the test, ``always`` on every failure, ``never``.

    Args:
        chances: each tester's chance per roll (Fractions give an exact Fraction).
        successes: successes needed.
        failures: failures that end the test in failure.
        luck: each tester's luck points (default none).
        policies: each tester's luck policy (default ``save``).
    """
    n = len(chances)
    luck = tuple(luck) if luck is not None else (0,) * n
    policies = tuple(policies) if policies is not None else ("save",) * n

    @cache
    def p(s: int, f: int, left: tuple[int, ...]):
        if s >= successes:
            return 1
        if f >= failures:
            return 0
        i = (s + f) % n
        chance = chances[i]
        win = chance * p(s + 1, f, left)
        if left[i] > 0 and spend_on_failed_test(policies[i], f + 1 >= failures):
            spent = (*left[:i], left[i] - 1, *left[i + 1 :])
            lose = (1 - chance) * p(s + 1, f, spent)
        else:
            lose = (1 - chance) * p(s, f + 1, left)
        return win + lose

    return p(0, 0, luck)


def contest_chance(
    chances: Sequence[Fraction | float], sides: Sequence[int], successes: int = 1
) -> Fraction | float:
    """The exact chance that side 0 wins a contest: both sides test, in turns, until one wins.

    Testers roll in the given order, round after round; a success counts for the tester's side;
    the first side to ``successes`` successes wins. A cycle in which nobody succeeds leaves the
    state as it was, so each state's chance solves ``q = direct + (all fail) * q``.

    Args:
        chances: each tester's chance per roll, in turn order.
        sides: each tester's side (0 or 1).
        successes: successes a side needs.
    """
    n = len(chances)
    all_fail: Fraction | float = 1
    for chance in chances:
        all_fail *= 1 - chance
    if all_fail == 1:
        raise ValueError("no tester can ever succeed: the contest never ends")

    @cache
    def q(a: int, b: int, i: int):
        if a >= successes:
            return 1
        if b >= successes:
            return 0
        direct: Fraction | float = 0
        reach: Fraction | float = 1  # chance that every tester from i up to j - 1 failed
        for step in range(n):
            j = (i + step) % n
            chance = chances[j]
            after = q(a + 1, b, (j + 1) % n) if sides[j] == 0 else q(a, b + 1, (j + 1) % n)
            direct += reach * chance * after
            reach *= 1 - chance
        return direct / (1 - all_fail)

    return q(0, 0, 0)
