"""What a defense roll costs the defender on the ACS clock: its action, or its long action.

ACS text, "Defenses": a defense rolled on a segment where the defender still has an untaken
action costs that action (option ``defense_costs_action``); the lost action "may be taken ... by
a defensive maneuver that requires a free action remaining in the second", and RULINGS part A
lets it slide to the next free segment of the second instead (option ``lost_action``: ``slide``,
``defensive_maneuver`` or ``drop``). "Action disruption": a defense made while a multi-segment
action is under way disrupts it (option ``disruption``); the clock
(:meth:`sim.rules.acs.clock.AcsClock.defended`) applies both, whatever resolved the attack.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from sim.rules.acs.action_dice import SEGMENTS


class LostAction(NamedTuple):
    """What becomes of an action a defense cost."""

    #: The segment it slides to, or where a maneuver takes it from (None: it is gone).
    moved_to: int | None
    #: Taken at once as a defensive maneuver instead of sliding.
    maneuver: bool


#: An action lost with no free segment left, or under ``lost_action: drop``.
GONE = LostAction(moved_to=None, maneuver=False)


def costs_action(plan: Sequence[int], segment: int, option: bool = True) -> bool:
    """Whether a defense on ``segment`` costs the defender's action there (its next planned)."""
    return option and bool(plan) and plan[0] == segment


def next_free_segment(plan: Sequence[int], segment: int) -> int | None:
    """The next segment of the second after ``segment`` with no action planned (None: none).

    The actions already taken this second are all at or before ``segment``.
    """
    for candidate in range(segment + 1, SEGMENTS + 1):
        if candidate not in plan:
            return candidate
    return None


def lost_action(plan: Sequence[int], segment: int, mode: str, maneuvering: bool) -> LostAction:
    """Where the action a defense cost on ``segment`` goes (``plan``: the actions left).

    ``mode`` is the option ``lost_action``. A defensive maneuver needs a free segment left in
    the second; a fighter already ``maneuvering`` this second slides its action instead.
    """
    if mode == "drop":
        return GONE
    moved_to = next_free_segment(plan, segment)
    if moved_to is None:
        return GONE
    return LostAction(moved_to, mode == "defensive_maneuver" and not maneuvering)
