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

Each side's roll is one draw from the table of its pool's kept rolls (:mod:`~sim.rules.prop3.kept`:
the sorted dice that decide the roll, each with how many ordered rolls give it, and what it
reaches at the pool's points), one uniform number of the combat's stream per roll: the law of
rolling every die and keeping the lowest.

:func:`roll_exchange` plays it on a combat's dice: the attacker's roll, then (if the attack
succeeded and there is a defense) the defender's, attempt after attempt. Melee attacks, missiles
and both kinds of counter-hit are exchanges; the fight applies an outcome (``Fight.exchange``)
and :mod:`~sim.rules.prop3.outcomes` says what it does.

The exact law (this system's ``distribution``, for exact answers built on the exchanges):

- ``exchange_law(exchange: ExchangeInput) -> Distribution[Verdict]``: what one exchange decides,
  as exact fractions (``sim.engine.distribution.Distribution``): the :class:`Verdict` (outcome,
  nicks and wounds dealt, persistent points each side spent, whether an attack roll made a pair,
  whether the defender rolled). Full ties are conditioned away; a tie that spends persistent
  points continues with the points left; pools that always tie are defended (the sampler's
  :data:`MAX_TIES`). Its outcomes are those of ``roll_exchange(exchange, dice).verdict()``.
- ``attempt_law(exchange, a_left, d_left) -> Distribution[AttemptOutcome]``: one attempt with
  ``a_left`` and ``d_left`` persistent points left (ties included), for callers that follow the
  points themselves.

Both sum the steps :func:`roll_exchange` takes (:func:`attack_step`, :func:`unanswered`,
:func:`defense_step`) over every row of the same kept-roll tables the sampler draws from
(``KeptTable.law``), so there is one copy of the rule. An :class:`ExchangeInput` is frozen and
hashable: a caller may cache laws by it. Pools of up to ``roll_tables.MAX_EXACT_DICE`` dice
(fewer than 2^53 ordered rolls) have an exact law; larger ones raise ``ValueError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from sim.engine.distribution import Distribution
from sim.rules.prop3.kept import Kept, KeptTable, RolledPool, drawn_length, kept_rolls
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
)
from sim.rules.prop3.ranged import armored
from sim.rules.prop3.spending import Counted, attack_answer, defense_answer
from sim.rules.prop3.wiggle import (
    AttackerPolicy,
    DefenderPolicy,
    Response,
    best_response,
    best_roll,
    respond,
)

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

    @property
    def searches_are_best(self) -> bool:
        """Whether both sides wiggle by the policy "best", which the kept-roll tables read."""
        return self.attack_policy is best_roll and self.defense_policy is best_response


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
        faces: the attacker's kept dice, sorted (``kept``: the dice that decide the roll).
        attack: what the attacker counts (its result, its persistent points spent).
        outcome: what the attempt comes to (a tie is re-rolled as the next attempt).
        d_faces: the defender's kept dice, sorted (None: it did not roll).
        defense: what the defender counts (None: it did not roll).
    """

    faces: tuple[int, ...]
    attack: Counted
    outcome: Outcome
    d_faces: tuple[int, ...] | None = None
    defense: Counted | None = None

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
        return self.attempts[-1].attack.result

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


def kept_of(exchange: ExchangeInput, pool: Pool, save: int, reserve: int) -> KeptTable | RolledPool:
    """How ``pool``'s kept rolls are drawn in this exchange (read at its points, and armor's).

    The kept dice cover the persistent points too; a policy other than "best" sees every die.
    """
    rules = exchange.rules
    keep, points = rules.keep, pool.wiggle
    if rules.searches_are_best:
        length = drawn_length(pool.dice, pool.sides, keep, points + reserve + save)
    else:
        length = pool.dice
    levels = (points, points + save) if save else (points,)
    return kept_rolls(
        pool.dice, pool.sides, length, levels, keep, pool.crit_allowed, pool.only_ones
    )


def _spends(exchange: ExchangeInput, reserve: int) -> bool:
    """Whether a side answers by the searches themselves (points to spend, another policy)."""
    rules = exchange.rules
    return bool(reserve and rules.spending != "never") or not rules.searches_are_best


def attack_step(exchange: ExchangeInput, kept: Kept, reserve: int) -> Counted:
    """What the attacker counts from its kept roll, with ``reserve`` persistent points left."""
    if _spends(exchange, reserve):
        return attack_answer(exchange.rules, exchange.attack, kept.faces, reserve)
    return Counted(kept.bests[0], exchange.attack.wiggle)


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
    exchange: ExchangeInput, attack: Result, kept: Kept, reserve: int
) -> tuple[Counted, Outcome]:
    """What the defender counts from its kept roll against the attack's result; the outcome.

    Without persistent points to spend, its answer is read off the kept roll
    (``wiggle.respond`` on what it reaches), armor's points on a missile by ``ranged.armored``.
    """
    defense = exchange.defense
    assert defense is not None, "only a defender with a pool rolls"
    rules = exchange.rules
    if _spends(exchange, reserve):
        counted = defense_answer(rules, defense, attack, kept.faces, reserve, exchange.save)
    else:
        counted = _read_answer(attack, kept, defense.wiggle, exchange.save, rules.cuts)
    return counted, resolve(attack, counted.result, rules.cuts)


def _read_answer(attack: Result, kept: Kept, points: int, save: int, cuts: str) -> Counted:
    """The policy "best" of the defender, read off a kept roll (levels: ``points``, + ``save``)."""

    def answer(level: int) -> Counted:
        i = 0 if level == points else 1
        best = kept.bests[i]
        response = respond(attack, best, kept.pair_faces[i], cuts)
        if response == Response.REDUCE:
            low = kept.lowest_pair(i)
            assert low is not None, "a cut needs a pair"
            return Counted(low, level, response=response)
        return Counted(best, level, response=response)

    counted, used = armored(attack, answer, points, save, cuts)
    return counted._replace(armor=save) if used else counted


# -- sampled --------------------------------------------------------------------------------------


def roll_attempt(exchange: ExchangeInput, dice: Dice, a_left: int, d_left: int) -> Attempt:
    """Draw both sides' kept rolls once: the attacker's, then (if the defender answers) its own.

    ``a_left`` and ``d_left`` are the persistent points the two sides have left. The tables and
    what each kept roll comes to are the exchange's :class:`AttemptPlan`, kept between calls.
    """
    return attempt_plan(exchange, a_left, d_left).roll(dice)


class AttemptPlan:
    """One attempt of an exchange, its points left given: both tables, and what each roll reads.

    What a kept roll of the attacker comes to (:func:`attack_step`, :func:`unanswered`, and the
    whole :class:`Attempt` when the defender does not answer it) and what one of the defender's
    answers to an attack result (:func:`defense_step`) are worked out the first time they are
    drawn and then looked up: they are functions of the frozen inputs and the kept roll alone.
    Rolls of a pool rolled die by die (``kept.RolledPool``) are read every time.

    Args:
        exchange: the inputs.
        a_left: the attacker's persistent points left.
        d_left: the defender's persistent points left.
    """

    __slots__ = ("_answers", "_attacks", "_defense", "a_left", "attack", "d_left", "exchange")

    def __init__(self, exchange: ExchangeInput, a_left: int, d_left: int) -> None:
        self.exchange = exchange
        self.a_left = a_left
        self.d_left = d_left
        self.attack = kept_of(exchange, exchange.attack, 0, a_left)
        self._defense: KeptTable | RolledPool | None = None
        self._attacks: dict[Kept, tuple[Counted, Attempt | None]] = {}
        self._answers: dict[tuple[int, Kept], tuple[Counted, Outcome]] = {}

    def defense(self) -> KeptTable | RolledPool:
        """The defender's table (looked up when it first rolls)."""
        if self._defense is None:
            defense = self.exchange.defense
            assert defense is not None, "a defender without a pool does not roll"
            self._defense = kept_of(self.exchange, defense, self.exchange.save, self.d_left)
        return self._defense

    def roll(self, dice: Dice) -> Attempt:
        """Draw the attacker's kept roll, then (if the defender answers) the defender's."""
        exchange = self.exchange
        a_kept = self.attack.draw(dice)
        read = self._attacks.get(a_kept)
        if read is None:
            read = self._read_attack(a_kept)
            if isinstance(self.attack, KeptTable):
                self._attacks[a_kept] = read
        a, alone = read
        if alone is not None:
            return alone
        table = self.defense()
        d_kept = table.draw(dice)
        key = (a.result.rank, d_kept)  # a rank names its result, and hashes in C
        answer = self._answers.get(key)
        if answer is None:
            answer = defense_step(exchange, a.result, d_kept, self.d_left)
            if isinstance(table, KeptTable):
                self._answers[key] = answer
        return Attempt(a_kept.faces, a, answer[1], d_kept.faces, answer[0])

    def _read_attack(self, a_kept: Kept) -> tuple[Counted, Attempt | None]:
        """What the attacker counts from a kept roll, and the whole attempt if nobody answers it."""
        a = attack_step(self.exchange, a_kept, self.a_left)
        outcome = unanswered(self.exchange, a.result)
        return a, None if outcome is None else Attempt(a_kept.faces, a, outcome)


@lru_cache(maxsize=4096)
def attempt_plan(exchange: ExchangeInput, a_left: int, d_left: int) -> AttemptPlan:
    """The :class:`AttemptPlan` of an exchange with these points left (one per frozen input)."""
    return AttemptPlan(exchange, a_left, d_left)


def roll_exchange(
    exchange: ExchangeInput, dice: Dice, first: AttemptPlan | None = None
) -> ExchangeOutcome:
    """Play one exchange on a combat's dice: attempts until one is not a full tie.

    Args:
        exchange: the inputs.
        dice: the combat's stream (one uniform number per kept roll drawn).
        first: ``attempt_plan(exchange, exchange.attack_reserve, exchange.defense_reserve)``
            if the caller keeps it (None: looked up).

    Returns:
        Every attempt and the outcome (a tie still standing after :data:`MAX_TIES` attempts is
        defended).
    """
    a_left, d_left = exchange.attack_reserve, exchange.defense_reserve
    plan = attempt_plan(exchange, a_left, d_left) if first is None else first
    attempt = plan.roll(dice)
    outcome = attempt.outcome
    if outcome != TIE:  # most exchanges take one attempt
        return ExchangeOutcome((attempt,), outcome, *damage(exchange.rules, outcome))
    attempts = [attempt]
    while len(attempts) < MAX_TIES:
        a_spent = attempt.attack.extra
        d_spent = attempt.defense.extra if attempt.defense is not None else 0
        if a_spent or d_spent:
            a_left -= a_spent
            d_left -= d_spent
            plan = attempt_plan(exchange, a_left, d_left)
        attempt = plan.roll(dice)
        attempts.append(attempt)
        outcome = attempt.outcome
        if outcome != TIE:
            return ExchangeOutcome(tuple(attempts), outcome, *damage(exchange.rules, outcome))
    return ExchangeOutcome(tuple(attempts), DEFENDED)


# -- exact ----------------------------------------------------------------------------------------


def attempt_law(exchange: ExchangeInput, a_left: int, d_left: int) -> Distribution[AttemptOutcome]:
    """The exact law of one attempt with ``a_left`` and ``d_left`` persistent points left.

    The attacker's kept rolls are first read into what it counts (equal results merged), then
    each is met by every kept roll of the defender: the same steps as :func:`roll_attempt`, over
    the same tables, counted in ordered rolls (:func:`attempt_counts`).
    """
    counts, _ = attempt_counts(exchange, a_left, d_left)
    return Distribution.of(counts.items())


def attempt_counts(
    exchange: ExchangeInput, a_left: int, d_left: int
) -> tuple[dict[AttemptOutcome, int], int]:
    """:func:`attempt_law` in whole numbers: each outcome's ordered rolls of both pools, and all.

    The attacker's rolls that count alike (:func:`attack_step`) are met once; so are the
    defender's rolls that answer alike (:func:`_answering`).
    """
    attack, defense = exchange.attack, exchange.defense
    counted: dict[tuple[Result, int], int] = {}
    for kept, n in kept_of(exchange, attack, 0, a_left).weights():
        key = _counted(attack_step(exchange, kept, a_left))
        counted[key] = counted.get(key, 0) + n
    d_total = 1 if defense is None else defense.sides**defense.dice
    counts: dict[AttemptOutcome, int] = {}
    answers: tuple[tuple[Kept, int], ...] | None = None
    for a, n in counted.items():
        outcome = unanswered(exchange, a[0])
        if outcome is not None:
            step = AttemptOutcome(outcome, a[1], 0, False)
            counts[step] = counts.get(step, 0) + n * d_total
            continue
        assert defense is not None, "a defender without a pool does not roll"
        if answers is None:
            answers = _answering(exchange, defense, d_left)
        for kept, m in answers:
            step = _met(exchange, a, kept, d_left)
            counts[step] = counts.get(step, 0) + n * m
    return counts, attack.sides**attack.dice * d_total


def _answering(exchange: ExchangeInput, defense: Pool, d_left: int) -> tuple[tuple[Kept, int], ...]:
    """The defender's kept rolls and their ordered rolls, those that answer alike merged.

    Without persistent points to spend, an answer is read off what a kept roll reaches
    (:func:`_read_answer`: its best results, pair faces and lowest pairs), so rolls that reach
    the same answer every attack alike; the first of them stands for them all.
    """
    rows = kept_of(exchange, defense, exchange.save, d_left).weights()
    if _spends(exchange, d_left):
        return rows
    first: dict[tuple[object, ...], Kept] = {}
    ways: dict[tuple[object, ...], int] = {}
    for kept, n in rows:
        levels = range(len(kept.bests))
        key = (kept.bests, kept.pair_faces, tuple(kept.lowest_pair(i) for i in levels))
        first.setdefault(key, kept)
        ways[key] = ways.get(key, 0) + n
    return tuple((kept, ways[key]) for key, kept in first.items())


def _counted(a: Counted) -> tuple[Result, int]:
    """What the attacker counts, as the defender sees it: its result and persistent points spent."""
    return a.result, a.extra


def _met(exchange: ExchangeInput, a: tuple[Result, int], kept: Kept, d_left: int) -> AttemptOutcome:
    d, outcome = defense_step(exchange, a[0], kept, d_left)
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
