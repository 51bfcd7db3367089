"""An absorbing Markov chain over a fight's states, solved exactly step by step.

A fight is a chain: from each state the rule system's exchanges give the law of the next
(:class:`~sim.engine.distribution.Distribution`), until an *ending* absorbs it (a side out, a
draw). The states here are any hashable values; a rule system's module in :mod:`sim.exact`
says what a state holds and builds each step's law from its own exchange functions, so the chain
knows no rule. Endings are :class:`Ending` values.

The chain is solved forward, one step (a round, a second) at a time, up to the scenario's time
limit: the probability of every live state after ``t`` steps, and the probability of ending
each way at step ``t``. That gives the exact law of the fight's length as well as of its
endings. Probabilities are kept as integers over one common denominator per step (the least
common multiple of the step laws' denominators), so the inner loop adds and multiplies integers
and builds no fraction; the answer is turned into :class:`~fractions.Fraction` once, at the end.

Each state's law is worked out once (memoised for the whole solve): memory grows with the number
of distinct states times the outcomes of a step, which is why a solve has a cap on states
(:class:`TooManyStates`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Generic, TypeVar

from sim.engine.distribution import Distribution
from sim.exact.weights import Weights

S = TypeVar("S", bound=Hashable)

#: The default cap on the distinct live states of one solve: about 5 kB each for a Target 10
#: duel (its law kept for the whole solve), so some 250 MB at the cap (``docs/exact.md``).
STATE_CAP = 50_000


@dataclass(frozen=True, slots=True)
class Ending:
    """How a fight ended, as the outcome table records it (its length apart: see :class:`Solution`).

    Attributes:
        winner: the winning side's index, or None (a draw).
        reason: ``victory``, ``mutual`` or ``time_limit`` (the engine's end reasons).
        survivors: per side, the combatants still standing.
        hp_left: per side, the hit points of its standing combatants (those above 0).
        within: how far into the step that ended it the fight ended, in ``parts`` of a step
            (1 of 1: at the end of a round; 3 of 10: on the third segment of a second).
        parts: what ``within`` counts in.
    """

    winner: int | None
    reason: str
    survivors: tuple[int, ...]
    hp_left: tuple[int, ...]
    within: int = 1
    parts: int = 1

    def length(self, step: int) -> Fraction:
        """The fight's length in steps when it ended so during step ``step`` (from 0)."""
        return step + Fraction(self.within, self.parts)


class TooManyStates(ValueError):
    """A fight whose chain has more states than the cap: sample it instead."""

    def __init__(self, estimate: int, cap: int, what: str = "") -> None:
        self.estimate = estimate
        self.cap = cap
        where = f" {what}" if what else ""
        super().__init__(
            f"the exact engine{where} would need about {estimate:,} states, over its cap of "
            f"{cap:,}: sample it instead (--method sample)"
        )


@dataclass(frozen=True)
class Solution:
    """The exact law of a fight's endings (each with its length), and what was needed.

    Attributes:
        endings: the exact probability of each ending at each step: ``(ending, t)`` is the
            fight ending so during step ``t`` (from 0), its length ``t + ending.within`` steps;
            a fight still going at the time limit ends by ``timeout`` at step ``steps``, within
            0. The probabilities add up to 1.
        states: the distinct live states the solve met.
        steps: the steps played (the time limit, or fewer when every fight ended sooner).
    """

    endings: dict[tuple[Ending, int], Fraction]
    states: int
    steps: int

    def probability(self, which: Callable[[Ending], bool]) -> Fraction:
        """The chance of every ending that ``which`` accepts."""
        return sum((p for (e, _), p in self.endings.items() if which(e)), Fraction(0))

    def expectation(self, value: Callable[[Ending, int], int | Fraction]) -> Fraction:
        """The exact mean of ``value(ending, step)`` over the fight."""
        return sum((p * value(e, t) for (e, t), p in self.endings.items()), Fraction(0))

    def lengths(self) -> dict[Fraction, Fraction]:
        """The exact law of the fight's length, in steps (``t + within``), shortest first."""
        law: dict[Fraction, Fraction] = {}
        for (ending, t), p in self.endings.items():
            length = ending.length(t)
            law[length] = law.get(length, Fraction(0)) + p
        return dict(sorted(law.items()))


class _Numbered(Generic[S]):
    """The states and endings of one solve, each numbered the first time it is met.

    A state's law is kept as (number, weight) pairs (endings numbered below zero), so that
    stepping the chain hashes small integers only; at most ``cap`` live states.
    """

    def __init__(
        self, step: Callable[[S], Distribution[S | Ending] | Weights[S | Ending]], cap: int
    ) -> None:
        self.step = step
        self.cap = cap
        self.index: dict[S, int] = {}
        self.states: list[S] = []
        self.endings: dict[Ending, int] = {}
        self.laws: list[tuple[tuple[int, int], ...]] = []
        self.scales: list[int] = []

    def number(self, outcome: S | Ending) -> int:
        """The number of a state (from 0) or of an ending (below 0)."""
        if isinstance(outcome, Ending):
            return -1 - self.endings.setdefault(outcome, len(self.endings))
        found = self.index.get(outcome)
        if found is None:
            if len(self.states) >= self.cap:
                raise TooManyStates(len(self.states) + 1, self.cap)
            found = self.index[outcome] = len(self.states)
            self.states.append(outcome)
        return found

    def law(self, n: int) -> tuple[tuple[tuple[int, int], ...], int]:
        """State ``n``'s law as numbered pairs and their denominator (worked out once)."""
        while len(self.laws) <= n:  # states are numbered in order, so are their laws
            law = _weights(self.step(self.states[len(self.laws)]))
            self.laws.append(tuple((self.number(o), w) for o, w in law.pairs))
            self.scales.append(law.denominator)
        return self.laws[n], self.scales[n]


def solve(
    start: Distribution[S | Ending] | Weights[S | Ending],
    step: Callable[[S], Distribution[S | Ending] | Weights[S | Ending]],
    steps: int,
    timeout: Callable[[S], Ending],
    cap: int = STATE_CAP,
) -> Solution:
    """The exact endings of a fight that starts by ``start`` and moves by ``step``.

    Args:
        start: the law of the first state (an ending: the fight is over before it starts).
        step: the law of the state after one step from a live state; its outcomes are live
            states or :class:`Ending` values. A pure function: it is called once per state.
        steps: how many steps the time limit allows.
        timeout: the ending of a fight still going at the time limit, from its state (its
            ``within`` is ignored: the fight lasted exactly ``steps``).
        cap: the most distinct live states met before the solve stops.

    Raises:
        TooManyStates: more than ``cap`` distinct live states.
    """
    chain = _Numbered(step, cap)
    first = _weights(start)
    denominator = first.denominator
    live: dict[int, int] = {}
    ended_at: list[tuple[int, int, int, int]] = []  # (ending, step, mass, denominator)
    for outcome, weight in first.pairs:
        n = chain.number(outcome)
        if n < 0:
            ended_at.append((n, -1, weight, denominator))
        else:
            live[n] = live.get(n, 0) + weight
    played = 0
    for t in range(steps):
        if not live:
            break
        played = t + 1
        after, common = _stepped(chain, live)
        denominator *= common
        live = {m: mass for m, mass in after.items() if m >= 0}
        ended_at += [(m, t, mass, denominator) for m, mass in after.items() if m < 0]
        # Keep the integers small: divide out what every mass and the denominator share.
        shared = math.gcd(denominator, *live.values())
        if shared > 1:
            denominator //= shared
            live = {n: mass // shared for n, mass in live.items()}
    names = list(chain.endings)
    ended: dict[tuple[Ending, int], Fraction] = {}
    for m, t, mass, d in ended_at:
        ending = names[-1 - m]
        key = (replace(ending, within=0), 0) if t < 0 else (ending, t)
        ended[key] = ended.get(key, Fraction(0)) + Fraction(mass, d)
    for n, mass in live.items():
        key = (replace(timeout(chain.states[n]), within=0), steps)
        ended[key] = ended.get(key, Fraction(0)) + Fraction(mass, denominator)
    return Solution(ended, len(chain.states), played)


def _stepped(chain: _Numbered[S], live: dict[int, int]) -> tuple[dict[int, int], int]:
    """One step of every live state's mass: the masses after it, over ``common`` times more."""
    laws = [chain.law(n) for n in live]
    common = math.lcm(*(scale for _, scale in laws))
    after: dict[int, int] = {}
    for mass, (pairs, scale) in zip(live.values(), laws, strict=True):
        scaled = mass * (common // scale)
        for m, weight in pairs:
            after[m] = after.get(m, 0) + scaled * weight
    return after, common


def _weights(law: Distribution[S | Ending] | Weights[S | Ending]) -> Weights[S | Ending]:
    return law if isinstance(law, Weights) else Weights.of(law)
