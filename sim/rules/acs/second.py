"""What decides a second of the ACS clock: the ambition order and everyone's action segments.

ACS "Listing a combat order": at the start of each second everyone rolls ambition
(:mod:`sim.rules.acs.ambition`) and action dice (:mod:`sim.rules.acs.action_dice`) at once. The
clock samples them (every d12 in position order, the roll-offs, then each combatant's action dice
in position order); :func:`second_law` is their joint exact law, for an exact engine whose state
is taken at the second's boundary. What the clock does with them (the winner's free action, an
action under way spending its slots, a lost action sliding) follows from these and its state.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from sim.engine.distribution import Distribution
from sim.rules.acs.action_dice import ActionDie, segments_law
from sim.rules.acs.ambition import ambition_bonus, ambition_law

if TYPE_CHECKING:
    from sim.rules.acs.fighter import Timing
    from sim.rules.acs.models import AcsClockOptions


@dataclass(frozen=True, slots=True)
class Contender:
    """One combatant as the dice of a second see it."""

    #: What it adds to its d12 this second (:func:`~sim.rules.acs.ambition.ambition_bonus`).
    bonus: int
    #: Its tie-break key: its ambition bonus under ``tie_break: ambition_bonus``, else 0.
    key: int
    die: ActionDie
    actions: int
    per_segment: int

    @classmethod
    def of(cls, timing: Timing, ready: bool, options: AcsClockOptions) -> Contender:
        """A combatant of these timing stats, with an attack ready and aimed or not."""
        return cls(
            bonus=ambition_bonus(timing.ambition_bonus, ready, options.prepared_bonus),
            key=timing.ambition_bonus if options.tie_break == "ambition_bonus" else 0,
            die=timing.die,
            actions=timing.actions,
            per_segment=timing.per_segment,
        )


class SecondPlan(NamedTuple):
    """Who acts on which segments of a second."""

    #: The positions in acting order, the ambition winner first.
    order: tuple[int, ...]
    #: Each position's action segments (1..10, sorted).
    segments: tuple[tuple[int, ...], ...]


def second_law(
    contenders: Sequence[Contender], duplicates: str = "slide"
) -> Distribution[SecondPlan]:
    """The exact law of a second's plan: the ambition order and every combatant's segments.

    The ambition dice and the action dice are independent, so the law is the product of the
    ambition order's (:func:`~sim.rules.acs.ambition.ambition_law`) and each combatant's segments'
    (:func:`~sim.rules.acs.action_dice.segments_law`, option ``duplicates``); an exact engine
    may as well take the factors themselves.
    """
    orders = ambition_law([c.bonus for c in contenders], [c.key for c in contenders])
    each = [segments_law(c.die, c.actions, duplicates, c.per_segment) for c in contenders]
    return Distribution.of(
        (
            SecondPlan(order, tuple(segments for segments, _ in plans)),
            math.prod((q for _, q in plans), start=p),
        )
        for order, p in orders
        for plans in itertools.product(*each)
    )
