"""Initiative in Combat Proposition Three: who declares first, who acts first.

The text gives no roll: "Initiative is especially important because it allows you to tailor your
attack or defense to the combat style of your opponent. You can skip your turn in order move up
one spot in the initiative order starting on your next turn." RULINGS part C ("Declaring"):
everyone rolls Agility (Speed) (the ``initiative`` skill's die, else the race's Agility die;
option ``initiative_substat``) at the start of the fight; the better result (``pool.Result``
order: triple > pair > nothing, lower better) goes first and the order is kept all fight (option
``initiative: round`` rolls again every round). Equal results are rolled again among those tied,
until they are ordered, like the full ties of opposed rolls ("re-roll if these are tied").

A pool of no dice (Agility 1 with a Speed disadvantage, say) rolls nothing, and re-rolling can
never tell two of them apart: such combatants do not roll. They act after everyone who rolled
(a pool of no dice reads as nothing, which every pool with a die beats sooner or later), in the
order the scenario lists them, or in an order drawn at random once (option
``initiative_no_dice``: ``listed``, ``random``). So no roll-off is between pools that cannot
differ; :data:`MAX_ROLL_OFFS` remains a safety net.

A combatant takes its turn (its one action of the round) in this order. Skipping a turn (tactic
``move_up``) swaps it with the combatant just above it once the round is over.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, TypeVar

from sim.engine.distribution import Distribution
from sim.rules.prop3.character import INITIATIVE, P3Fighter, pool_dice, stat_now
from sim.rules.prop3.kept import KeptTable, RolledPool, drawn_length, kept_rolls
from sim.rules.prop3.pool import Result, can_crit, only_ones, stat_dice

if TYPE_CHECKING:
    from sim.engine.dice import Dice

MAX_ROLL_OFFS = 100
"""Roll-offs among tied combatants before scenario order decides (a safety net: pools with dice
differ sooner or later, and pools of no dice do not roll)."""

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
    goes first; a tie is rolled again, :data:`MAX_ROLL_OFFS` times at most, after which the
    scenario's order stands.
    """
    ahead = tie = Fraction(0)
    for a, p in first:
        for b, q in second:
            if a.rank > b.rank:
                ahead += p * q
            elif a.rank == b.rank:
                tie += p * q
    rolls = MAX_ROLL_OFFS + 1  # the first roll and every roll-off
    all_tied = tie**rolls
    within = rolls if tie == 1 else (1 - all_tied) / (1 - tie)
    return ahead * within + all_tied


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


def rank(fighters: list[T], roll: Callable[[T], Result], depth: int = 0) -> list[T]:
    """Order ``fighters`` best result first; ties are rolled again among the tied.

    Args:
        fighters: the combatants, in scenario order (the order the dice are rolled in).
        roll: rolls one combatant's initiative.
        depth: roll-offs so far (after :data:`MAX_ROLL_OFFS`, scenario order breaks ties).
    """
    results = [(roll(f).rank, i) for i, f in enumerate(fighters)]
    results.sort(key=lambda r: (-r[0], r[1]))
    order: list[T] = []
    start = 0
    while start < len(results):
        end = start + 1
        while end < len(results) and results[end][0] == results[start][0]:
            end += 1
        group = [fighters[i] for _, i in results[start:end]]
        if len(group) > 1 and depth < MAX_ROLL_OFFS:
            group = rank(group, roll, depth + 1)
        order.extend(group)
        start = end
    return order


def move_up(order: list[P3Fighter], fighter: P3Fighter) -> None:
    """Swap ``fighter`` with the one just above it (skipping a turn to move up one place)."""
    i = order.index(fighter)
    if i > 0:
        order[i - 1], order[i] = order[i], order[i - 1]
        for place, f in enumerate(order):
            f.place = place
