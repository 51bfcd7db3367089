"""Luck points: succeed at any test, or ignore an opponent's success in combat.

Target 10 text, "Luck Points": a point can be spent to succeed automatically at any test or, in
combat, to ignore an opponent's success. A character never has more than it started with: low
skill characters at most 3, mid skill 1, high skill none (option ``luck_caps``).

RULINGS part B: when to spend is a tactic (``tactics.luck``):

- ``save`` (default): in combat, ignore a success that would take the character out of the fight
  (its damage would leave it at 0 or below); in a test, turn a failure that would end the test in
  failure (the last failure allowed) into a success;
- ``always``: ignore every success against the character; turn every failed test;
- ``never``: keep the points.

Points are spent after the roll is seen (the cheapest reading of "spend to succeed"); a combatant
starts every combat with its full luck, since points come back only while exploring.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Spending policies, by the name ``tactics.luck`` uses.
LUCK_POLICIES = ("save", "always", "never")
#: Skill levels and their caps on luck points (option ``luck_caps``).
SKILL_LEVELS = ("low", "mid", "high")
DEFAULT_CAPS = {"low": 3, "mid": 1, "high": 0}


def luck_cap(skill_level: str | None, caps: dict[str, int] | None = None) -> int:
    """Most luck points a character of this skill level may hold (0 without a skill level)."""
    if skill_level is None:
        return 0
    return (caps or DEFAULT_CAPS)[skill_level]


def spend_on_hit(policy: str, takes_out: bool) -> bool:
    """Whether to spend a point to ignore an opponent's successful attack."""
    return policy == "always" or (policy == "save" and takes_out)


def spend_on_failed_test(policy: str, decisive: bool) -> bool:
    """Whether to spend a point to turn a failed test into a success."""
    return policy == "always" or (policy == "save" and decisive)


def cancel_hits(hp: int, damages: Sequence[int], luck: int, policy: str) -> list[int]:
    """Which of several simultaneous damaging hits a character ignores with its luck.

    Simultaneous hits land together, so the choice looks at all of them: ``always`` ignores as
    many as it can, largest first; ``save`` ignores the largest while their total would still
    take the character out (leave it at 0 or below), and only if that saves it. Returns indices
    into ``damages``.
    """
    if luck <= 0 or policy == "never" or not damages:
        return []
    ranked = sorted(range(len(damages)), key=lambda i: -damages[i])
    if policy == "always":
        return ranked[:luck]
    cancelled: list[int] = []
    total = sum(damages)
    for i in ranked:
        if hp - total > 0:
            break
        cancelled.append(i)
        total -= damages[i]
    saved = len(cancelled) == len(damages) or hp - total > 0
    return cancelled if saved and len(cancelled) <= luck else []
