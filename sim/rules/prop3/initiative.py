"""Initiative in Combat Proposition Three: who declares first, who acts first.

The text gives no roll: "Initiative is especially important because it allows you to tailor your
attack or defense to the combat style of your opponent. You can skip your turn in order move up
one spot in the initiative order starting on your next turn." RULINGS part C ("Declaring"):
everyone rolls Agility (Speed) (the ``initiative`` skill's die, else the race's Agility die;
option ``initiative_substat``) at the start of the fight; the better result (``pool.Result``
order: triple > pair > nothing, lower better) goes first and the order is kept all fight (option
``initiative: round`` rolls again every round). Equal results are rolled again among those tied,
until they are ordered, like the full ties of opposed rolls ("re-roll if these are tied"):
a roll-off that can tell them apart ends sooner or later, so there is no cap on roll-offs.

A pool of no dice (Agility 1 with a Speed disadvantage, say) rolls nothing, and re-rolling can
never tell two of them apart: such combatants do not roll. They act after everyone who rolled
(a pool of no dice reads as nothing, which every pool with a die beats sooner or later), in the
order the scenario lists them, or in an order drawn at random once (option
``initiative_no_dice``: ``listed``, ``random``). Every pool with a die reads differently
on all 1s (the best there is: ``pool.ONES`` for a lone die) and on all of its highest face, so a
roll-off between pools with dice ends sooner or later, and none is between pools that cannot
differ.

A combatant takes its turn (its one action of the round) in this order. Skipping a turn (tactic
``move_up``) swaps it with the combatant just above it once the round is over.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import groupby
from operator import itemgetter
from typing import TYPE_CHECKING, TypeVar

from sim.engine.distribution import Distribution
from sim.rules.prop3.character import INITIATIVE, P3Fighter, pool_dice, stat_now
from sim.rules.prop3.kept import KeptTable, RolledPool, drawn_length, kept_rolls
from sim.rules.prop3.pool import Result, can_crit, only_ones, stat_dice

if TYPE_CHECKING:
    from sim.engine.dice import Dice

NO_DICE_ORDERS = ("listed", "random")
"""The values of the option ``initiative_no_dice``; the first is the default."""


#: Whatever is ordered by initiative (combatants; anything in the tests).
T = TypeVar("T")


def initiative_dice(fighter: P3Fighter) -> int:
    """The dice of a combatant's initiative pool (``pool.pool_size`` of its sub-stat)."""
    return pool_dice(fighter, fighter.state.profile, INITIATIVE)


def _initiative_rolls(fighter: P3Fighter, keep: str) -> KeptTable | RolledPool:
    """How a combatant's initiative roll is drawn (no wiggle points).

    A function of its profile and its initiative stat as it stands, kept on the profile by the
    stat and the reading.
    """
    profile = fighter.state.profile
    stat = stat_now(fighter, profile, INITIATIVE)
    key = (stat, keep)
    found = profile.initiatives.get(key)
    if found is None:
        count = stat_dice(stat, profile.offset[INITIATIVE])
        sides = profile.sides[INITIATIVE]
        found = profile.initiatives[key] = kept_rolls(
            count,
            sides,
            drawn_length(count, sides, keep, 0),
            (0,),
            keep,
            can_crit(stat),
            only_ones(stat),
        )
    return found


def initiative_roll(fighter: P3Fighter, dice: Dice, keep: str) -> tuple[Result, tuple[int, ...]]:
    """Draw a combatant's initiative roll and read it (no wiggle points); its kept dice."""
    kept = _initiative_rolls(fighter, keep).draw(dice)
    return kept.bests[0], kept.faces


def initiative_law(fighter: P3Fighter, keep: str) -> Distribution[Result]:
    """The exact law of the result of :func:`initiative_roll` (its table's kept rolls)."""
    return _initiative_rolls(fighter, keep).law().map(lambda kept: kept.bests[0])


def pair_order_law(first: Distribution[Result], second: Distribution[Result]) -> Fraction:
    """The exact chance that :func:`rank` puts the first of two combatants before the second.

    ``first`` and ``second`` are the laws of their rolls (in scenario order). The better result
    goes first; a tie is rolled again until one is better.

    Raises:
        ValueError: if the two can never differ (pools with dice always can, :func:`rank`).
    """
    ahead = tie = Fraction(0)
    for a, p in first:
        for b, q in second:
            if a.rank > b.rank:
                ahead += p * q
            elif a.rank == b.rank:
                tie += p * q
    if tie == 1:
        raise ValueError("two initiative rolls that always tie are never ordered by roll-offs")
    return ahead / (1 - tie)  # the roll-offs: a geometric number of ties, then ahead or not


def without_dice(fighters: list[T], how: str, dice: Dice) -> list[T]:
    """The order of combatants whose initiative pools have no dice (option ``initiative_no_dice``).

    ``listed``: the scenario's order; ``random``: one shuffle on the combat's dice (none for a
    single combatant).
    """
    if how not in NO_DICE_ORDERS:
        raise ValueError(f"unknown initiative_no_dice {how!r}")
    order = list(fighters)
    if how == "random":
        for i in range(len(order) - 1, 0, -1):
            j = dice.index(i + 1)
            order[i], order[j] = order[j], order[i]
    return order


def rank(fighters: list[T], roll: Callable[[T], Result]) -> list[T]:
    """Order ``fighters`` best result first; ties are rolled again among the tied until ordered.

    Args:
        fighters: the combatants, in scenario order (the order the dice are rolled in); their
            pools have dice, so they differ sooner or later (see the module).
        roll: rolls one combatant's initiative.
    """
    while True:
        results = sorted((-roll(f).rank, i) for i, f in enumerate(fighters))
        groups = [[fighters[i] for _, i in run] for _, run in groupby(results, key=itemgetter(0))]
        if len(groups) > 1 or len(fighters) < 2:
            break  # all tied: all roll again
    order: list[T] = []
    for group in groups:
        order.extend(rank(group, roll) if len(group) > 1 else group)
    return order


def move_up(order: list[P3Fighter], fighter: P3Fighter) -> None:
    """Swap ``fighter`` with the one just above it (skipping a turn to move up one place)."""
    i = order.index(fighter)
    if i > 0:
        order[i - 1], order[i] = order[i], order[i - 1]
        for place, f in enumerate(order):
            f.place = place
