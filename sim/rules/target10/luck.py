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

Spending a point to *succeed* is a second tactic (``tactics.luck_to_succeed``), for the
combatant's own tests in a round: its attack tests and a negotiation. Its words
(:data:`SUCCEED_WORDS`): ``never`` (default, RULINGS: "never to hit"), ``always`` (every failed
test), ``when_hit_takes_out`` (a hit's least damage would take the target out),
``when_hit_may_take_out`` (its highest damage could), and ``{below_chance: P}`` (the test's chance
was below P). Stand and getting away by Flee are not tests in the text (no roll), so no point is
spent on them.

Points are spent after the roll is seen (the cheapest reading of "spend to succeed"); a combatant
starts every combat with its full luck, since points come back only while exploring.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: Spending policies, by the name ``tactics.luck`` uses.
LUCK_POLICIES = ("save", "always", "never")
#: Skill levels and their caps on luck points (option ``luck_caps``).
SKILL_LEVELS = ("low", "mid", "high")
DEFAULT_CAPS = {"low": 3, "mid": 1, "high": 0}
#: When a combatant spends a point to succeed at its own test (``tactics.luck_to_succeed``).
SUCCEED_WORDS = ("never", "always", "when_hit_takes_out", "when_hit_may_take_out")
BELOW_CHANCE = "below_chance"


@dataclass(frozen=True, slots=True)
class SucceedPolicy:
    """When to spend a luck point to turn one's own failed test into a success.

    Attributes:
        when: one of :data:`SUCCEED_WORDS`, or :data:`BELOW_CHANCE`.
        below: with ``below_chance``, spend when the test's chance was below this (0..1).
    """

    when: str = "never"
    below: float = 0.0

    @property
    def spends(self) -> bool:
        """Whether this policy ever spends a point (``never`` does not)."""
        return self.when != "never"


NEVER_SUCCEED = SucceedPolicy()


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


def spend_to_succeed(
    policy: SucceedPolicy, chance: float, sure_out: bool = False, may_out: bool = False
) -> bool:
    """Whether to spend a point on one's own failed test (an attack, a negotiation).

    Args:
        policy: the combatant's ``tactics.luck_to_succeed``.
        chance: the test's chance of success before the roll (0..1).
        sure_out: a hit would take the target out whatever its damage roll.
        may_out: a hit could take the target out (its highest damage roll would).
    """
    when = policy.when
    if when == "always":
        return True
    if when == BELOW_CHANCE:
        return chance < policy.below
    if when == "when_hit_takes_out":
        return sure_out
    if when == "when_hit_may_take_out":
        return may_out
    return False


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
