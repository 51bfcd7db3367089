"""Tactics: single decisions as plain functions chosen by name.

Target choice is shared by every rule system: a combatant picks whom to attack among the able
enemies with one of the functions in :data:`TARGETS`, named in the scenario (``target: weakest``).
Ties are broken by scenario order, so a choice never depends on process creation or on SimPy's
event order; ``random`` draws from the combat's own stream.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from sim.engine.combatant import Fighter
from sim.engine.dice import Dice

#: The fighter type of a combat: a choice returns one of the enemies it was given.
F = TypeVar("F", bound=Fighter)


class TargetChoice(Protocol):
    """A target choice: ``choice(me, enemies, allies, dice)`` returns one of ``enemies``."""

    def __call__(self, me: F, enemies: list[F], allies: list[F], dice: Dice, /) -> F:
        """Pick one of ``enemies`` (never empty) for ``me``."""
        ...


def random_target(me: F, enemies: list[F], allies: list[F], dice: Dice) -> F:
    """Any able enemy, uniformly at random."""
    return enemies[dice.index(len(enemies))] if len(enemies) > 1 else enemies[0]


def weakest(me: F, enemies: list[F], allies: list[F], dice: Dice) -> F:
    """The able enemy with the fewest hit points left."""
    return min(enemies, key=lambda f: f.hp)


def strongest(me: F, enemies: list[F], allies: list[F], dice: Dice) -> F:
    """The able enemy with the most hit points left."""
    return max(enemies, key=lambda f: f.hp)


def focus(me: F, enemies: list[F], allies: list[F], dice: Dice) -> F:
    """The enemy most allies are already attacking; with none, the weakest."""
    counts: dict[int, int] = {}
    for ally in allies:
        target = ally.target
        if target is not None and target.out is None:
            counts[id(target)] = counts.get(id(target), 0) + 1
    if not counts:
        return weakest(me, enemies, allies, dice)
    return max(enemies, key=lambda f: counts.get(id(f), 0))


def nearest_target(me: F, enemies: list[F], allies: list[F], dice: Dice) -> F:
    """The able enemy standing closest on the battlefield's line (:mod:`sim.engine.space`)."""
    here = me.pos
    return min(enemies, key=lambda f: abs(f.pos - here))


#: Target choices by the name a scenario uses.
TARGETS: dict[str, TargetChoice] = {
    "random": random_target,
    "weakest": weakest,
    "strongest": strongest,
    "focus": focus,
    "nearest": nearest_target,
}

#: When a combatant picks a new target: only when its target is out, or before every attack.
RETARGET = ("when_out", "each_action")


def pick_target(
    me: F,
    enemies: list[F],
    allies: list[F],
    dice: Dice,
    choice: TargetChoice,
    each_action: bool,
) -> F | None:
    """The target for ``me``'s next attack, remembered on ``me.target``."""
    if not enemies:
        return None
    current = me.target
    if each_action or current is None or current.out is not None:
        current = choice(me, enemies, allies, dice)
        me.target = current
    return current
