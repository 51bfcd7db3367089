"""What each side of an exchange counts: its fresh wiggle points, then its persistent points.

``rules/combat-proposition-three.txt``, ADVANTAGES AND DISADVANTAGES: advantages give wiggle
points to spend on rolls of a sub-stat, and "You lose your wiggle points once you spend them"
(skill focuses alike); combat wiggle points come fresh with each roll ("These wiggle points are
not lost"). RULINGS part C ("Wiggle points"): each roll first spends its combat points by the
policy (``attacker_wiggle``, ``defender_wiggle``), then the persistent points by the option
``advantage_spending``: ``to_succeed`` (the fewest that turn a failure into a success: an attack
with no pair, a defense that lets the attack land or can at least cut a critical), ``always``
(whenever they improve the result), ``never``.

Pure functions of a sorted roll (the policies read a roll as a multiset, so the order of the dice
changes nothing): they say what the roller counts and how many persistent points it takes; the
fight takes those points off the combatant. The policies' answers are kept by the sorted roll
(``functools.lru_cache``), since the same rolls come again and again in a run.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from sim.rules.prop3.pool import (
    CRIT_REDUCED,
    CRITICAL_DEFENSE,
    CRITICAL_HIT,
    DEFENDED,
    FAILED_DEFENSES,
    FUMBLE,
    HIT,
    NO_SET,
    TIE,
    Outcome,
    Pool,
    Result,
    resolve,
)
from sim.rules.prop3.ranged import armored
from sim.rules.prop3.wiggle import AttackerPolicy, DefenderPolicy, Defense, Response, Wiggled

if TYPE_CHECKING:
    from sim.rules.prop3.exchange import ExchangeRules

DEFENSE_RANK = {
    CRITICAL_HIT: 0,
    HIT: 1,
    CRIT_REDUCED: 1,
    TIE: 2,
    DEFENDED: 3,
    CRITICAL_DEFENSE: 4,
    FUMBLE: 5,
}
"""How good an outcome is for the defender (what its persistent points try to better)."""


@lru_cache(maxsize=1 << 16)
def attacker_best(
    policy: AttackerPolicy,
    roll: tuple[int, ...],
    sides: int,
    points: int,
    keep: str,
    crit: bool,
    ones: bool,
) -> Wiggled:
    """The attacker policy's wiggle of a sorted roll with ``points`` wiggle points."""
    return policy(roll, sides, points, keep=keep, crit_allowed=crit, only_ones=ones)


@lru_cache(maxsize=1 << 16)
def defender_best(
    policy: DefenderPolicy,
    attack: Result,
    roll: tuple[int, ...],
    sides: int,
    points: int,
    keep: str,
    crit: bool,
    ones: bool,
    cuts: str,
) -> Defense:
    """The defender policy's answer to ``attack`` with a sorted roll and ``points``."""
    return policy(
        attack, roll, sides, points, keep=keep, crit_allowed=crit, only_ones=ones, cuts=cuts
    )


class Counted(NamedTuple):
    """What one side counts in an attempt.

    Attributes:
        result: the result it counts (the defender's: its best, or the lowest pair it cuts a
            critical with).
        points: the wiggle points of the search that found it (combat, persistent and armor
            points): :func:`attack_wiggle` and :func:`defense_wiggle` wiggle the dice again with
            them, for the narration.
        extra: persistent points (advantages, skill focuses) it spent.
        armor: armor points it used against a missile.
        response: the defender's response (None for the attacker).
    """

    result: Result
    points: int
    extra: int = 0
    armor: int = 0
    response: Response | None = None


def attack_answer(rules: ExchangeRules, pool: Pool, roll: tuple[int, ...], reserve: int) -> Counted:
    """The attacker's roll: its best with the combat points, then persistent points by the option.

    Args:
        rules: the exchange's options.
        pool: the attack pool (its combat wiggle points among them).
        roll: the rolled dice, sorted.
        reserve: the persistent points that may help this roll.
    """
    policy, keep = rules.attack_policy, rules.keep
    sides, points, crit, ones = pool.sides, pool.wiggle, pool.crit_allowed, pool.only_ones
    wiggled = attacker_best(policy, roll, sides, points, keep, crit, ones)
    if not reserve or rules.spending == "never":
        return Counted(wiggled.result, points)
    if rules.spending == "always":
        more = attacker_best(policy, roll, sides, points + reserve, keep, crit, ones)
        if more.result > wiggled.result:
            return Counted(more.result, points + reserve, more.spent - points)
        return Counted(wiggled.result, points)
    if wiggled.result.kind != NO_SET:
        return Counted(wiggled.result, points)
    for extra in range(1, reserve + 1):
        more = attacker_best(policy, roll, sides, points + extra, keep, crit, ones)
        if more.result.kind != NO_SET:
            return Counted(more.result, points + extra, more.spent - points)
    return Counted(wiggled.result, points)


def attack_wiggle(
    rules: ExchangeRules, pool: Pool, roll: tuple[int, ...], counted: Counted
) -> Wiggled:
    """The wiggle of the attacker's roll that gave what it counts (for the narration)."""
    policy = rules.attack_policy
    return attacker_best(
        policy, roll, pool.sides, counted.points, rules.keep, pool.crit_allowed, pool.only_ones
    )


def defense_wiggle(
    rules: ExchangeRules, pool: Pool, attack: Result, roll: tuple[int, ...], counted: Counted
) -> Defense:
    """The defender's answer that gave what it counts, with its wiggle (for the narration)."""
    return defender_best(
        rules.defense_policy,
        attack,
        roll,
        pool.sides,
        counted.points,
        rules.keep,
        pool.crit_allowed,
        pool.only_ones,
        rules.cuts,
    )


def _answer(
    rules: ExchangeRules, pool: Pool, attack: Result, roll: tuple[int, ...], points: int, save: int
) -> Counted:
    """The policy's answer with ``points``, and armor's against a missile if it fails."""
    keep, cuts = rules.keep, rules.cuts
    sides, crit, ones = pool.sides, pool.crit_allowed, pool.only_ones
    policy = rules.defense_policy

    def answer(level: int) -> Counted:
        got = defender_best(policy, attack, roll, sides, level, keep, crit, ones, cuts)
        return Counted(got.result, level, response=got.response)

    counted, used = armored(attack, answer, points, save, cuts)
    return counted._replace(armor=save) if used else counted


def _spent(
    more: Counted,
    points: int,
    roll: tuple[int, ...],
    rules: ExchangeRules,
    pool: Pool,
    attack: Result,
) -> int:
    """Persistent points a better answer takes: what it spent beyond the combat and armor points."""
    spent = defense_wiggle(rules, pool, attack, roll, more).wiggled.spent
    return max(0, spent - points - more.armor)


def defense_answer(
    rules: ExchangeRules,
    pool: Pool,
    attack: Result,
    roll: tuple[int, ...],
    reserve: int,
    save: int = 0,
) -> Counted:
    """The defender's answer to a seen attack: combat points, then persistent points by the option.

    Args:
        rules: the exchange's options.
        pool: the defense pool.
        attack: the attacker's result.
        roll: the defender's rolled dice, sorted.
        reserve: the persistent points that may help this roll.
        save: armor points against a missile, used only if the defense fails.
    """
    points = pool.wiggle
    answer = _answer(rules, pool, attack, roll, points, save)
    if not reserve or rules.spending == "never":
        return answer
    cuts = rules.cuts
    outcome = resolve(attack, answer.result, cuts)
    if outcome not in FAILED_DEFENSES:
        return answer
    base = DEFENSE_RANK[outcome]
    if rules.spending == "always":
        more = _answer(rules, pool, attack, roll, points + reserve, save)
        if DEFENSE_RANK[resolve(attack, more.result, cuts)] > base:
            return more._replace(extra=_spent(more, points, roll, rules, pool, attack))
        return answer
    reduced: Counted | None = None
    for extra in range(1, reserve + 1):
        more = _answer(rules, pool, attack, roll, points + extra, save)
        got: Outcome = resolve(attack, more.result, cuts)
        if got in (DEFENDED, CRITICAL_DEFENSE):
            return more._replace(extra=_spent(more, points, roll, rules, pool, attack))
        if reduced is None and DEFENSE_RANK[got] > base and got != TIE:
            reduced = more._replace(extra=_spent(more, points, roll, rules, pool, attack))
    return reduced if reduced is not None else answer
