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
from sim.rules.prop3.ranged import missile_defense
from sim.rules.prop3.wiggle import AttackerPolicy, DefenderPolicy, Defense, Wiggled

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


class AttackRoll(NamedTuple):
    """What the attacker counts.

    Attributes:
        wiggled: its wiggled roll and result (the dice sorted, as the roll was read).
        extra: persistent points (advantages, skill focuses) it spent on top of its combat points.
    """

    wiggled: Wiggled
    extra: int = 0


class DefenseRoll(NamedTuple):
    """What the defender counts.

    Attributes:
        answer: its response and wiggled roll (the dice sorted, as the roll was read).
        extra: persistent points it spent on top of its combat points (and armor's).
        armor: armor points its answer with its combat points alone used against a missile
            (``ranged.missile_defense``; the trace's ``armor_save``).
    """

    answer: Defense
    extra: int = 0
    armor: int = 0


def attack_answer(
    rules: ExchangeRules, pool: Pool, roll: tuple[int, ...], reserve: int
) -> AttackRoll:
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
        return AttackRoll(wiggled)
    if rules.spending == "always":
        more = attacker_best(policy, roll, sides, points + reserve, keep, crit, ones)
        if more.result > wiggled.result:
            return AttackRoll(more, more.spent - points)
        return AttackRoll(wiggled)
    if wiggled.result.kind != NO_SET:
        return AttackRoll(wiggled)
    for extra in range(1, reserve + 1):
        more = attacker_best(policy, roll, sides, points + extra, keep, crit, ones)
        if more.result.kind != NO_SET:
            return AttackRoll(more, more.spent - points)
    return AttackRoll(wiggled)


def _answer(
    rules: ExchangeRules, pool: Pool, attack: Result, roll: tuple[int, ...], points: int, save: int
) -> tuple[Defense, int]:
    """The policy's answer with ``points``, and the armor points it used (missiles only)."""
    keep, cuts = rules.keep, rules.cuts
    sides, crit, ones = pool.sides, pool.crit_allowed, pool.only_ones
    if save:
        answer = missile_defense(
            attack,
            roll,
            sides,
            points,
            save_points=save,
            keep=keep,
            crit_allowed=crit,
            only_ones=ones,
            cuts=cuts,
        )
        return answer.defense, save if answer.armor_used else 0
    policy = rules.defense_policy
    return defender_best(policy, attack, roll, sides, points, keep, crit, ones, cuts), 0


def _spent(more: Defense, points: int, armor: int) -> int:
    """Persistent points a better answer takes: what it spent beyond the combat and armor points."""
    return max(0, more.wiggled.spent - points - armor)


def defense_answer(
    rules: ExchangeRules,
    pool: Pool,
    attack: Result,
    roll: tuple[int, ...],
    reserve: int,
    save: int = 0,
) -> DefenseRoll:
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
    answer, armor = _answer(rules, pool, attack, roll, points, save)
    if not reserve or rules.spending == "never":
        return DefenseRoll(answer, 0, armor)
    cuts = rules.cuts
    outcome = resolve(attack, answer.result, cuts)
    if outcome not in FAILED_DEFENSES:
        return DefenseRoll(answer, 0, armor)
    base = DEFENSE_RANK[outcome]
    if rules.spending == "always":
        more, used = _answer(rules, pool, attack, roll, points + reserve, save)
        if DEFENSE_RANK[resolve(attack, more.result, cuts)] > base:
            return DefenseRoll(more, _spent(more, points, used), armor)
        return DefenseRoll(answer, 0, armor)
    reduced: DefenseRoll | None = None
    for extra in range(1, reserve + 1):
        more, used = _answer(rules, pool, attack, roll, points + extra, save)
        got: Outcome = resolve(attack, more.result, cuts)
        if got in (DEFENDED, CRITICAL_DEFENSE):
            return DefenseRoll(more, _spent(more, points, used), armor)
        if reduced is None and DEFENSE_RANK[got] > base and got != TIE:
            reduced = DefenseRoll(more, _spent(more, points, used), armor)
    return reduced if reduced is not None else DefenseRoll(answer, 0, armor)
