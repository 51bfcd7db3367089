"""One exchange of rolls, as a pure function of its inputs and the dice, and its exact law.

``rules/combat-proposition-three.txt``, "THE CORE MECHANIC" ("In the case of opposed rolls, the
lowest roll is superior ... re-roll if these are tied") and "(ANOTHER) COMBAT PROPOSAL" ("Melee
combat is an opposed check"; "Ranged combat works almost exactly as melee combat"), as RULINGS
part C ("Reading a roll", "Wiggle points", "Resolving an attack") reads them:

1. the attacker rolls its pool and wiggles it for its best result, persistent points by the
   option (:func:`~sim.rules.prop3.spending.attack_answer`);
2. no pair is a fumble, and the defender does not roll; an attack nobody defends against is
   compared with no result at all; an automatic hit (a counter-attack after a critical parry) is
   rolled only to see whether it is a triple, a critical hit;
3. otherwise the defender rolls and, seeing the attack, answers
   (:func:`~sim.rules.prop3.spending.defense_answer`);
4. ``pool.resolve`` gives the outcome; a full tie is re-rolled as a new attempt, with the
   persistent points that are left.

:func:`roll_exchange` plays it on a combat's dice: attack dice, then (if the attack succeeded and
there is a defense) defense dice, attempt after attempt. :func:`exchange_law` gives the exact
law of what it decides (:class:`Verdict`), summing the same steps over every roll
(``roll_tables.roll_law``), full ties conditioned away. Melee attacks, missiles and both kinds of
counter-hit are exchanges; the fight applies an outcome (``Fight.exchange``) and
:mod:`~sim.rules.prop3.outcomes` says what it does.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from sim.engine.distribution import Distribution
from sim.rules.prop3.pool import (
    CRIT_REDUCED,
    CRITICAL_HIT,
    DEFENDED,
    FUMBLE,
    HIT,
    NO_SET,
    NOTHING,
    TIE,
    TRIPLE,
    Outcome,
    Pool,
    Result,
    resolve,
    roll_pool,
)
from sim.rules.prop3.roll_tables import kept_length, roll_law
from sim.rules.prop3.spending import AttackRoll, DefenseRoll, attack_answer, defense_answer
from sim.rules.prop3.wiggle import AttackerPolicy, DefenderPolicy, best_response, best_roll

if TYPE_CHECKING:
    from sim.engine.dice import Dice

MAX_TIES = 1000
"""Attempts of an exchange that tie before the attack is called defended (a safety net: only
pools whose wiggle points always reach the same best result could tie forever)."""


@dataclass(frozen=True, slots=True)
class ExchangeRules:
    """The rule options an exchange reads (``models.Rules`` makes them once per fight).

    Attributes:
        keep: how a roll is read (``pool.reading``: ``keep`` with the ``best_set`` options).
        cuts: how a defender pair meets an attacking triple (``pool.CUTS``).
        spending: when persistent points are spent (``advantage_spending``).
        attack_policy: the attacker's wiggle policy (``attacker_wiggle``).
        defense_policy: the defender's wiggle policy (``defender_wiggle``).
        hit_nicks: nicks a standard (or cut) hit deals.
        critical_wounds: wounds a critical hit deals.
    """

    keep: str = "lowest_three"
    cuts: str = "cut"
    spending: str = "to_succeed"
    attack_policy: AttackerPolicy = best_roll
    defense_policy: DefenderPolicy = best_response
    hit_nicks: int = 1
    critical_wounds: int = 1


class ExchangeInput(NamedTuple):
    """Everything one exchange depends on besides the dice (frozen and hashable).

    Attributes:
        attack: the attacker's pool after forms, weapon, armor, range, size and effects (its
            roll index names the attack form or the missile's skill).
        defense: the defender's pool (its roll index names the defense form), or None: it
            cannot defend.
        rules: the options.
        attack_reserve: persistent points (advantages, skill focuses) that may help the attack.
        defense_reserve: persistent points that may help the defense.
        save: armor points against a missile, used only if the defense fails.
        automatic: an automatic hit (a counter-attack after a critical parry), rolled only to see
            whether it is critical; no defense.
    """

    attack: Pool
    defense: Pool | None
    rules: ExchangeRules
    attack_reserve: int = 0
    defense_reserve: int = 0
    save: int = 0
    automatic: bool = False


class AttemptOutcome(NamedTuple):
    """One attempt without its dice: its outcome, the persistent points spent, a defense roll."""

    outcome: Outcome
    attack_spent: int
    defense_spent: int
    defense_rolled: bool


class Attempt(NamedTuple):
    """One roll of both sides.

    Attributes:
        faces: the attacker's dice, as drawn.
        attack: what the attacker counts (its wiggled roll, its persistent points spent).
        outcome: what the attempt comes to (a tie is re-rolled as the next attempt).
        d_faces: the defender's dice, as drawn (None: it did not roll).
        defense: what the defender counts (None: it did not roll).
    """

    faces: tuple[int, ...]
    attack: AttackRoll
    outcome: Outcome
    d_faces: tuple[int, ...] | None = None
    defense: DefenseRoll | None = None

    def summary(self) -> AttemptOutcome:
        """The attempt without its dice (an outcome of :func:`attempt_law`)."""
        d_extra = 0 if self.defense is None else self.defense.extra
        return AttemptOutcome(self.outcome, self.attack.extra, d_extra, self.defense is not None)


class Verdict(NamedTuple):
    """What an exchange decides, without the dice: the outcomes of :func:`exchange_law`.

    Attributes:
        outcome: the outcome (never a tie).
        nicks: nicks dealt to the defender (a standard or cut hit).
        wounds: wounds dealt to the defender (a critical hit).
        attack_spent: persistent points the attacker spent, over every attempt.
        defense_spent: persistent points the defender spent, over every attempt.
        attack_succeeded: some attack roll made a pair or better (focused fire counts it).
        defense_rolled: the defender rolled (on the ACS clock a defense may cost an action).
    """

    outcome: Outcome
    nicks: int = 0
    wounds: int = 0
    attack_spent: int = 0
    defense_spent: int = 0
    attack_succeeded: bool = False
    defense_rolled: bool = False


class ExchangeOutcome(NamedTuple):
    """One exchange as played: every attempt, and what they came to.

    Attributes:
        attempts: the attempts, in order (all but the last were full ties).
        outcome: the outcome of the last attempt (defended if it still tied at
            :data:`MAX_TIES`).
        nicks: nicks dealt to the defender.
        wounds: wounds dealt to the defender.
    """

    attempts: tuple[Attempt, ...]
    outcome: Outcome
    nicks: int = 0
    wounds: int = 0

    @property
    def last(self) -> Attempt:
        """The deciding attempt."""
        return self.attempts[-1]

    @property
    def result(self) -> Result:
        """The attacker's result in the deciding attempt."""
        return self.attempts[-1].attack.wiggled.result

    @property
    def ties(self) -> int:
        """How many attempts were full ties (all of them if the exchange was called defended)."""
        return len(self.attempts) - (self.attempts[-1].outcome != TIE)

    @property
    def defense_rolled(self) -> bool:
        """Whether the defender rolled (a tie always has a defense roll)."""
        return self.attempts[0].d_faces is not None

    @property
    def attack_succeeded(self) -> bool:
        """Whether an attack roll of the exchange made a pair or better (a tie needs one)."""
        return self.outcome != FUMBLE or len(self.attempts) > 1

    def verdict(self) -> Verdict:
        """What the exchange decided, without the dice (an outcome of :func:`exchange_law`)."""
        return Verdict(
            self.outcome,
            self.nicks,
            self.wounds,
            sum(a.attack.extra for a in self.attempts),
            sum(a.defense.extra for a in self.attempts if a.defense is not None),
            self.attack_succeeded,
            self.defense_rolled,
        )


def damage(rules: ExchangeRules, outcome: Outcome) -> tuple[int, int]:
    """The nicks and wounds an outcome deals (RULINGS part C, "Damage track")."""
    if outcome == CRITICAL_HIT:
        return 0, rules.critical_wounds
    if outcome in (HIT, CRIT_REDUCED):
        return rules.hit_nicks, 0
    return 0, 0


# -- the steps, shared by the sampler and the exact law ------------------------------------------


def attack_step(exchange: ExchangeInput, roll: tuple[int, ...], reserve: int) -> AttackRoll:
    """What the attacker counts from its sorted roll, with ``reserve`` persistent points left."""
    return attack_answer(exchange.rules, exchange.attack, roll, reserve)


def unanswered(exchange: ExchangeInput, result: Result) -> Outcome | None:
    """The outcome when the defender does not roll, or None when it does.

    A fumble (no pair); an automatic hit (critical on a triple); an undefended attack, compared
    with no result at all.
    """
    if exchange.automatic:
        return CRITICAL_HIT if result.kind == TRIPLE else HIT
    if result.kind == NO_SET:
        return FUMBLE
    if exchange.defense is None:
        return resolve(result, NOTHING)
    return None


def defense_step(
    exchange: ExchangeInput, result: Result, roll: tuple[int, ...], reserve: int
) -> tuple[DefenseRoll, Outcome]:
    """What the defender counts from its sorted roll against the attack's result; the outcome."""
    defense = exchange.defense
    assert defense is not None, "only a defender with a pool rolls"
    answer = defense_answer(exchange.rules, defense, result, roll, reserve, exchange.save)
    return answer, resolve(result, answer.answer.result, exchange.rules.cuts)


# -- sampled --------------------------------------------------------------------------------------


def roll_attempt(exchange: ExchangeInput, dice: Dice, a_left: int, d_left: int) -> Attempt:
    """Roll both sides once: attack dice, then (if the defender answers) defense dice.

    ``a_left`` and ``d_left`` are the persistent points the two sides have left.
    """
    attack, defense = exchange.attack, exchange.defense
    faces = roll_pool(dice, attack.dice, attack.sides)
    a = attack_step(exchange, tuple(sorted(faces)), a_left)
    outcome = unanswered(exchange, a.wiggled.result)
    if outcome is not None:
        return Attempt(faces, a, outcome)
    assert defense is not None, "a defender without a pool does not roll"
    d_faces = roll_pool(dice, defense.dice, defense.sides)
    d, outcome = defense_step(exchange, a.wiggled.result, tuple(sorted(d_faces)), d_left)
    return Attempt(faces, a, outcome, d_faces, d)


def roll_exchange(exchange: ExchangeInput, dice: Dice) -> ExchangeOutcome:
    """Play one exchange on a combat's dice: attempts until one is not a full tie.

    Args:
        exchange: the inputs.
        dice: the combat's stream.

    Returns:
        Every attempt and the outcome (a tie still standing after :data:`MAX_TIES` attempts is
        defended).
    """
    a_left, d_left = exchange.attack_reserve, exchange.defense_reserve
    attempts: list[Attempt] = []
    while True:
        attempt = roll_attempt(exchange, dice, a_left, d_left)
        attempts.append(attempt)
        outcome = attempt.outcome
        if outcome != TIE:
            return ExchangeOutcome(tuple(attempts), outcome, *damage(exchange.rules, outcome))
        if len(attempts) >= MAX_TIES:
            return ExchangeOutcome(tuple(attempts), DEFENDED)
        a_left -= attempt.attack.extra
        d_left -= attempt.defense.extra if attempt.defense is not None else 0


# -- exact ----------------------------------------------------------------------------------------


def pool_rolls(pool: Pool, keep: str, points: int) -> Distribution[tuple[int, ...]]:
    """The exact law of the dice of ``pool`` that decide what it reaches with ``points``."""
    return roll_law(pool.dice, pool.sides, kept_length(pool.dice, keep, points))


def attempt_law(exchange: ExchangeInput, a_left: int, d_left: int) -> Distribution[AttemptOutcome]:
    """The exact law of one attempt with ``a_left`` and ``d_left`` persistent points left.

    The attacker's rolls are first read into what it counts (equal results merged), then each is
    met by every roll of the defender: the same steps as :func:`roll_exchange`.
    """
    rules, attack, defense = exchange.rules, exchange.attack, exchange.defense
    points = attack.wiggle + a_left
    counted = pool_rolls(attack, rules.keep, points).map(
        lambda roll: _counted(attack_step(exchange, roll, a_left))
    )

    def met(a: tuple[Result, int]) -> Distribution[AttemptOutcome]:
        result, spent = a
        outcome = unanswered(exchange, result)
        if outcome is not None:
            return Distribution.certain(AttemptOutcome(outcome, spent, 0, False))
        assert defense is not None, "a defender without a pool does not roll"
        rolls = pool_rolls(defense, rules.keep, defense.wiggle + d_left + exchange.save)
        return rolls.map(lambda roll: _met(exchange, a, roll, d_left))

    return counted.bind(met)


def _counted(a: AttackRoll) -> tuple[Result, int]:
    """The attacker's roll without its dice: its result and persistent points spent."""
    return a.wiggled.result, a.extra


def _met(
    exchange: ExchangeInput, a: tuple[Result, int], roll: tuple[int, ...], d_left: int
) -> AttemptOutcome:
    d, outcome = defense_step(exchange, a[0], roll, d_left)
    return AttemptOutcome(outcome, a[1], d.extra, True)


def exchange_law(exchange: ExchangeInput) -> Distribution[Verdict]:
    """The exact law of what :func:`roll_exchange` decides, full ties re-rolled.

    A tie that spends no persistent points starts the same exchange again: it is conditioned
    away, except that what follows it had a pair and a defense roll. One that spends some
    continues with the points left. If every attempt ties for sure, the exchange is defended,
    as the sampler's :data:`MAX_TIES` has it.
    """
    return _exchange_law(exchange, exchange.attack_reserve, exchange.defense_reserve, False)


def _exchange_law(
    exchange: ExchangeInput, a_left: int, d_left: int, tied: bool
) -> Distribution[Verdict]:
    """The law with ``a_left`` and ``d_left`` points left (``tied``: after a tie)."""
    decided: list[tuple[Verdict, Fraction]] = []
    again = Fraction(0)  # the chance of a tie that spends nothing: the same attempt again
    for step, p in attempt_law(exchange, a_left, d_left):
        if step.outcome != TIE:
            decided.append((_verdict(exchange.rules, step, tied), p))
        elif step.attack_spent or step.defense_spent:
            a_rest, d_rest = a_left - step.attack_spent, d_left - step.defense_spent
            rest = _exchange_law(exchange, a_rest, d_rest, True)
            decided.extend((_after_tie(v, step), p * q) for v, q in rest)
        else:
            again += p
    if not decided:
        return Distribution.certain(Verdict(DEFENDED, attack_succeeded=True, defense_rolled=True))
    if again and not tied:
        after = Distribution.of((_after_tie(v), p) for v, p in decided)
        decided.extend((v, again * q) for v, q in after)
    return Distribution.of(decided)


def _verdict(rules: ExchangeRules, step: AttemptOutcome, tied: bool) -> Verdict:
    """The verdict of a deciding attempt (``tied``: after a tie, which had a pair and a defense)."""
    nicks, wounds = damage(rules, step.outcome)
    return Verdict(
        step.outcome,
        nicks,
        wounds,
        step.attack_spent,
        step.defense_spent,
        tied or step.outcome != FUMBLE,
        tied or step.defense_rolled,
    )


def _after_tie(verdict: Verdict, tie: AttemptOutcome | None = None) -> Verdict:
    """A verdict reached after a tie: the tie's points count too, and so do its rolls."""
    return verdict._replace(
        attack_spent=verdict.attack_spent + (tie.attack_spent if tie else 0),
        defense_spent=verdict.defense_spent + (tie.defense_spent if tie else 0),
        attack_succeeded=True,
        defense_rolled=True,
    )
