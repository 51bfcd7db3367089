"""An absorbing Markov chain over a fight's states, solved exactly up to its time limit.

A fight is a chain: from each state the rule system's exchanges give the law of the next
(:class:`~sim.engine.distribution.Distribution`), until an *ending* absorbs it (a side out, a
draw). The states here are any hashable values; a rule system's module in :mod:`sim.exact`
says what a state holds and builds each step's law from its own exchange functions, so the chain
knows no rule. Endings are :class:`Ending` values.

The answer is the probability of ending each way at each step ``t`` up to the scenario's time
limit (which gives the exact law of the fight's length as well as of its endings), and of every
live state at the limit. Most steps of a fight change nothing (both miss): when every live state
stays as it is with the same chance ``q`` (a *pause*), the chain is solved over its *eventful*
steps only, those that change the state. A fight that has taken ``k`` eventful steps after ``t``
steps did so in ``C(t, k)`` orders, each of chance ``q ** (t - k)`` for the pauses, so the law at
step ``t`` is a sum over ``k`` (:class:`Solution`), and the eventful chain stops when its mass is
all absorbed (hit points only go down), long before the time limit. A chain whose states pause
with different chances is solved with ``q = 0``: every step is then an eventful one (the chain
stepped one step at a time up to the limit).

Probabilities are kept as integers over one common denominator (the least common multiple of
every state's law's denominator, ``scale``, to the power of the steps taken), so the inner loop
adds and multiplies integers and builds no fraction; an answer is turned into
:class:`~fractions.Fraction` when it is asked for.

Each state's law is worked out once and kept for the whole solve: memory grows with the number of
distinct states times the outcomes of a step, which is why a solve has a cap on states
(:class:`TooManyStates`).
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property
from typing import Generic, TypeVar, cast

from sim.engine.distribution import Distribution
from sim.exact.weights import Weights

S = TypeVar("S", bound=Hashable)
H = TypeVar("H", bound=Hashable)

#: Numbers and their weights, apart: ``((n, ...), (w, ...))``, the ``n``-th weight ``w`` (states
#: or endings, as the holder says). Two tuples of integers a law, not a tuple a pair.
Row = tuple[tuple[int, ...], tuple[int, ...]]

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

    def __init__(
        self, estimate: int, cap: int, what: str = "", exact_cap: int | None = None
    ) -> None:
        self.estimate = estimate
        self.cap = cap
        #: The most states ``--exact`` solves for this chain (its own cap, at most the solver's).
        self.exact_cap = cap if exact_cap is None else exact_cap
        where = f" {what}" if what else ""
        super().__init__(
            f"the exact engine{where} would need about {estimate:,} states, over its cap of "
            f"{cap:,}: sample it instead (--method sample)"
        )


@dataclass(frozen=True)
class Solution:
    """The exact law of a fight's endings (each with the step it ended during), and its cost.

    Kept as integers (see the module). ``history[k]`` is the live states' masses after ``k``
    eventful steps: ``(factor, (n, ...), (m, ...))``, state ``n``'s mass ``factor * m`` over
    ``denominator * scale ** k`` (what every mass shared is divided out into ``factor``, so the
    masses stay short). ``ends[n]`` is state ``n``'s law of endings, ``((j, ...), (w, ...))``:
    ending ``names[j]`` with weight ``w`` out of ``scale`` (numbers and weights apart, as
    :data:`Row` keeps them). So the mass of ending ``e`` on the eventful
    step after ``k`` eventful ones, ``ended[e][k]``, is the sum of ``factor * m * w`` over the
    states of ``history[k]``, over ``denominator * scale ** (k + 1)``; a step pauses with weight
    ``pause`` out of ``scale``. The fight ends so during step ``t`` (from 0) with the chance
    ``sum(ended[e][k] * C(t, k) * pause ** (t - k)) / (denominator * scale ** (t + 1))``.
    The sums over states are taken for a question's groups of endings (:meth:`masses`), not for
    every ending: a question asks about a few groups, and a state has many endings.

    Attributes:
        history: per eventful step, the live states' masses before it (see above).
        ends: per live state, its endings' weights out of ``scale`` (see above).
        names: the endings, numbered as ``ends`` numbers them.
        at_start: the endings of a fight over before it starts (``within`` 0, step 0), over
            ``denominator``.
        timed_out: the endings of a fight still going at the time limit (``within`` 0, step
            ``limit``), over ``denominator * scale ** limit``.
        denominator: the denominator of the first state's law.
        scale: the common denominator of a step's law.
        pause: the weight, out of ``scale``, of a step that leaves every live state as it is.
        limit: the steps the time limit allows.
        states: the distinct live states the solve met.
        steps: the steps played (the time limit, or fewer when every fight ended sooner).
    """

    history: tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]
    ends: tuple[Row, ...]
    names: tuple[Ending, ...]
    at_start: dict[Ending, int]
    timed_out: dict[Ending, int]
    denominator: int
    scale: int
    pause: int
    limit: int
    states: int
    steps: int

    @classmethod
    def of_rounds(
        cls,
        rows: list[dict[Ending, int]],
        timed_out: dict[Ending, int],
        denominator: int,
        scale: int,
        limit: int,
        states: int,
    ) -> Solution:
        """A solution from the masses of each step's endings, worked out some other way.

        ``rows[t]``: the endings of step ``t`` (from 0), each with its mass over ``denominator
        * scale ** (t + 1)``; ``timed_out``: those at the time limit, over ``denominator *
        scale ** limit``. Each step's live states stand as one block of mass 1 whose endings
        are the step's (a history without pauses), which is all a question reads.
        """
        names: dict[Ending, int] = {}
        ends = []
        for row in rows:
            numbers = tuple(names.setdefault(e, len(names)) for e in row)
            ends.append((numbers, tuple(row.values())))
        return cls(
            history=tuple((1, (t,), (1,)) for t in range(len(rows))),
            ends=tuple(ends),
            names=tuple(names),
            at_start={},
            timed_out=timed_out,
            denominator=denominator,
            scale=scale,
            pause=0,
            limit=limit,
            states=states,
            steps=len(rows),
        )

    @property
    def common(self) -> int:
        """The one denominator of every mass the solution gives (:meth:`masses`)."""
        return self.denominator * self.scale**self.limit

    @cached_property
    def ended(self) -> dict[Ending, tuple[int, ...]]:
        """Per ending, its masses by eventful steps before it (see the class)."""
        return {e: tuple(masses) for e, masses in self._grouped(lambda e: e).items()}

    def masses(self, key: Callable[[Ending], H]) -> dict[H, int]:
        """The law of ``key(ending)`` as whole-number masses over :attr:`common`."""
        mass_of = {h: self._over_limit(masses) for h, masses in self._grouped(key).items()}
        at_limit = self.scale**self.limit
        for ending, mass in self.at_start.items():
            h = key(ending)
            mass_of[h] = mass_of.get(h, 0) + mass * at_limit
        for ending, mass in self.timed_out.items():
            h = key(ending)
            mass_of[h] = mass_of.get(h, 0) + mass
        return {h: mass for h, mass in mass_of.items() if mass}

    def marginal(self, key: Callable[[Ending], H]) -> dict[H, Fraction]:
        """The exact law of ``key(ending)``."""
        common = self.common
        return {h: Fraction(mass, common) for h, mass in self.masses(key).items()}

    def probability(self, which: Callable[[Ending], bool]) -> Fraction:
        """The chance of every ending that ``which`` accepts."""
        return Fraction(self._mass(lambda e: 1 if which(e) else 0), self.common)

    def expectation(self, value: Callable[[Ending], int | Fraction]) -> Fraction:
        """The exact mean of ``value(ending)`` over the fight."""
        values = {e: value(e) for e in (*self.names, *self.at_start, *self.timed_out)}
        unit = math.lcm(*(Fraction(v).denominator for v in values.values() if type(v) is not int))
        if unit == 1:  # whole numbers (hit points, survivors): weighed as they are
            return Fraction(self._mass(lambda e: int(values[e])), self.common)
        return Fraction(self._mass(lambda e: int(values[e] * unit)), self.common * unit)

    def weighted_timeline(self, key: Callable[[Ending], H]) -> Weights[tuple[H, int]]:
        """The law of ``key(ending)`` and the step the fight ended during, over :attr:`common`.

        Steps count from 0, as in :meth:`timeline`; the weights are whole numbers.
        """
        scale, limit = self.scale, self.limit
        mass_of: dict[tuple[H, int], int] = {}
        for h, masses in self._grouped(key).items():
            for t, mass in enumerate(_by_step(masses, self.pause, limit)):
                if mass:
                    mass_of[h, t] = mass * scale ** (limit - 1 - t)
        ends = [(e, 0, m * scale**limit) for e, m in self.at_start.items()]
        ends += [(e, limit, m) for e, m in self.timed_out.items()]
        for ending, t, mass in ends:
            where = (key(ending), t)
            mass_of[where] = mass_of.get(where, 0) + mass
        return Weights.merged(self.common, mass_of.items())

    def timeline(self, key: Callable[[Ending], H]) -> dict[tuple[H, int], Fraction]:
        """The exact law of ``key(ending)`` and the step the fight ended during (from 0)."""
        law = self.weighted_timeline(key)
        return {where: Fraction(w, law.denominator) for where, w in law.pairs}

    def _grouped(self, key: Callable[[Ending], H]) -> dict[H, list[int]]:
        """The masses by eventful steps of the endings of each ``key(ending)``, added up."""
        numbers: dict[H, int] = {}
        group = [numbers.setdefault(key(e), len(numbers)) for e in self.names]

        def row(ends: Row) -> dict[int, int]:
            weights: dict[int, int] = {}
            for j, w in zip(*ends):
                g = group[j]
                weights[g] = weights.get(g, 0) + w
            return weights

        summed = self._summed(row)
        return {h: summed[g] for h, g in numbers.items() if g in summed}

    def _mass(self, weigh: Callable[[Ending], int]) -> int:
        """The sum of ``weigh(ending)`` times each ending's mass over :attr:`common`."""
        weight = tuple(weigh(e) for e in self.names)
        total = self._ended_mass.get(weight)
        if total is None:
            total = self._ended_mass[weight] = self._weighed(weight)
        total += sum(weigh(e) * m for e, m in self.at_start.items()) * self.scale**self.limit
        return total + sum(weigh(e) * m for e, m in self.timed_out.items())

    def _weighed(self, weight: tuple[int, ...]) -> int:
        """The sum of ``weight[j]`` times ending ``j``'s mass, over :attr:`common`."""
        if not any(weight):
            return 0
        mul, get = operator.mul, weight.__getitem__
        worth = [sum(map(mul, map(get, js), ws)) for js, ws in self.ends]
        return sum(
            factor * over * sum(map(mul, masses, map(worth.__getitem__, states)))
            for (factor, states, masses), over in zip(self.history, self._totals, strict=True)
        )

    @cached_property
    def _ended_mass(self) -> dict[tuple[int, ...], int]:
        """What :meth:`_weighed` gave for each weight of the endings asked so far.

        Questions may weigh the endings alike (a side's win and its survivors, in a duel).
        """
        return {}

    def _summed(self, row: Callable[[Row], dict[int, int]]) -> dict[int, list[int]]:
        """Per group, the masses by eventful steps of its endings (see the class).

        ``row`` gives a state's weight of each group from its endings' weights; it is asked once
        a state.
        """
        rows: dict[int, dict[int, int]] = {}
        out: dict[int, list[int]] = {}
        eventful = len(self.history)
        for k, (factor, states, masses) in enumerate(self.history):
            at: dict[int, int] = {}
            for n, m in zip(states, masses):
                weights = rows.get(n)
                if weights is None:
                    weights = rows[n] = row(self.ends[n])
                for h, w in weights.items():
                    if w:
                        at[h] = at.get(h, 0) + m * w
            for h, m in at.items():
                if m:
                    out.setdefault(h, [0] * eventful)[k] = m * factor
        return out

    def _over_limit(self, masses: list[int]) -> int:
        """What masses by eventful steps weigh over every step to the limit, over :attr:`common`."""
        return sum(m * w for m, w in zip(masses, self._totals, strict=True))

    @property
    def endings(self) -> dict[tuple[Ending, int], Fraction]:
        """The exact probability of every ending at every step.

        ``(ending, t)`` is the fight ending so during step ``t`` (its length ``t +
        ending.within`` steps); a fight still going at the time limit ends by ``time_limit`` at
        step ``limit``, within 0.
        """
        return self.timeline(lambda e: e)

    def lengths(self) -> dict[Fraction, Fraction]:
        """The exact law of the fight's length, in steps (``t + within``), shortest first."""
        law: dict[Fraction, Fraction] = {}
        for ((within, parts), t), p in self.timeline(lambda e: (e.within, e.parts)).items():
            length = t + Fraction(within, parts)
            law[length] = law.get(length, Fraction(0)) + p
        return dict(sorted(law.items()))

    @cached_property
    def _totals(self) -> tuple[int, ...]:
        """Per ``k``, what a mass after ``k`` eventful steps weighs over every step to the limit.

        Over ``denominator * scale ** limit``: ``ended`` times this, summed, is an ending's mass.
        """
        q, d, limit = self.pause, self.scale, self.limit
        return tuple(
            sum(math.comb(t, k) * q ** (t - k) * d ** (limit - 1 - t) for t in range(k, limit))
            for k in range(len(self.history))
        )


def _by_step(masses: list[int], pause: int, limit: int) -> list[int]:
    """An ending's masses by eventful steps turned into its masses by steps (``t`` from 0).

    Each is over ``scale ** (t + 1)`` (see :class:`Solution`).

    With ``c[k]`` the mass after ``k`` eventful steps, a step maps ``c[k]`` to ``pause * c[k] +
    c[k + 1]`` (the ``C(t, k)`` orders of pauses and eventful steps, Pascal's rule), and ``c[0]``
    is the mass at each step.
    """
    if not pause:
        return masses[:limit]
    out = []
    c = list(masses)
    for _ in range(limit):
        if not c:
            break
        out.append(c[0])
        c = [pause * a + b for a, b in itertools.pairwise(c)] + [pause * c[-1]]
    return out


class _Numbered(Generic[S]):
    """The states and endings of one solve, each numbered the first time it is met.

    A state's law is kept as numbers and weights (endings numbered below zero), so that
    stepping the chain hashes small integers only: its live states' :data:`Row` and its
    endings' (ending ``-1 - j`` numbered ``j``); at most ``cap`` live states.
    """

    def __init__(
        self, step: Callable[[S], Distribution[S | Ending] | Weights[S | Ending]], cap: int
    ) -> None:
        self.step = step
        self.cap = cap
        #: Every state's number and every ending's, both met so far (one look-up for either).
        self.index: dict[S | Ending, int] = {}
        self.states: list[S] = []
        self.endings: list[Ending] = []
        self.laws: list[tuple[Row, Row]] = []
        self.scales: list[int] = []

    def number(self, outcome: S | Ending) -> int:
        """The number of a state (from 0) or of an ending (below 0)."""
        found = self.index.get(outcome)
        if found is not None:
            return found
        if isinstance(outcome, Ending):
            self.endings.append(outcome)
            found = self.index[outcome] = -len(self.endings)
            return found
        if len(self.states) >= self.cap:
            raise TooManyStates(len(self.states) + 1, self.cap)
        found = self.index[outcome] = len(self.states)
        self.states.append(outcome)
        return found

    def law(self, n: int) -> tuple[tuple[Row, Row], int]:
        """State ``n``'s law, its live states' row and its endings', and their denominator.

        Worked out once.
        """
        while len(self.laws) <= n:  # states are numbered in order, so are their laws
            law = _weights(self.step(self.states[len(self.laws)]))
            pairs, index = law.pairs, self.index
            found = [index.get(o) for o, _ in pairs]
            if None in found:  # outcomes met for the first time
                number = self.number
                found = [number(o) if m is None else m for m, (o, _) in zip(found, pairs)]
            numbers = cast(list[int], found)
            weights = [w for _, w in pairs]
            live = (
                tuple(m for m in numbers if m >= 0),
                tuple(w for m, w in zip(numbers, weights) if m >= 0),
            )
            ends = (
                tuple(-1 - m for m in numbers if m < 0),
                tuple(w for m, w in zip(numbers, weights) if m < 0),
            )
            self.laws.append((live, ends))
            self.scales.append(law.denominator)
        return self.laws[n], self.scales[n]

    def explore(self, first: list[int], steps: int) -> None:
        """Work out the law of every state reachable within ``steps - 1`` steps of ``first``."""
        level, seen = first, set(first)
        for _ in range(steps):
            after: list[int] = []
            for n in level:
                for m in self.law(n)[0][0][0]:
                    if m not in seen:
                        seen.add(m)
                        after.append(m)
            if not after:
                break
            level = after


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
    live: dict[int, int] = {}
    at_start: dict[Ending, int] = {}
    for outcome, weight in first.pairs:
        if isinstance(outcome, Ending):
            ending = replace(outcome, within=0)
            at_start[ending] = at_start.get(ending, 0) + weight
        else:
            n = chain.number(outcome)
            live[n] = live.get(n, 0) + weight
    chain.explore(list(live), steps)
    eventful = _Eventful.of(chain)
    history, at_limit, played = eventful.run(live, steps)
    timed_out: dict[Ending, int] = {}
    for n, mass in at_limit.items():
        ending = replace(timeout(chain.states[n]), within=0)
        timed_out[ending] = timed_out.get(ending, 0) + mass
    return Solution(
        history=history,
        ends=eventful.ends,
        names=tuple(chain.endings),
        at_start=at_start,
        timed_out=timed_out,
        denominator=first.denominator,
        scale=eventful.scale,
        pause=eventful.pause,
        limit=steps,
        states=len(chain.states),
        steps=played,
    )


@dataclass(frozen=True)
class _Eventful:
    """The chain's eventful steps: every law over one ``scale``, a pause taken out of it.

    ``moves[n]`` is state ``n``'s law of live states without its pause, ``ends[n]`` its law of
    endings (ending ``j`` is the chain's ending ``-1 - j``), each a :data:`Row`, as the chain
    numbers them, for each of the first states whose law is worked out (of ``states`` met).
    Only the moves are stepped: a step's endings are read off the live masses before it when a
    question asks about them (:class:`Solution`).
    """

    moves: tuple[Row, ...]
    ends: tuple[Row, ...]
    states: int
    scale: int
    pause: int

    @classmethod
    def of(cls, chain: _Numbered[S]) -> _Eventful:
        """The eventful laws of every state whose law the chain has worked out."""
        scale = math.lcm(*chain.scales)
        stays: set[int] = set()  # each over scale
        moves, without, ends = [], [], []
        for n, ((live, end), d) in enumerate(zip(chain.laws, chain.scales, strict=True)):
            up = scale // d
            if up != 1:
                live = (live[0], tuple(w * up for w in live[1]))
                end = (end[0], tuple(w * up for w in end[1]))
            stay, rest = _stay(n, live)
            stays.add(stay)
            moves.append(live)
            without.append(rest)
            ends.append(end)
        pause = stays.pop() if len(stays) == 1 else 0
        if pause:  # the pause is taken out of every law (see the class)
            moves = without
        return cls(tuple(moves), tuple(ends), len(chain.states), scale, pause)

    def run(
        self, live: dict[int, int], steps: int
    ) -> tuple[tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...], dict[int, int], int]:
        """The eventful steps from ``live``, one eventful step at a time.

        Gives the live masses before each eventful step (:attr:`Solution.history`), the live
        states' masses at the time limit (over ``scale ** steps`` more than ``live``), and the
        steps played. What every live mass of a step shares is divided out into its factor.
        """
        history: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
        at_limit: dict[int, int] = {}
        moves, pause, states = self.moves, self.pause, self.states
        mass = [0] * states
        for n, m in live.items():
            mass[n] = m
        factor = 1
        played = steps if pause and live else 0
        for k in range(steps + 1):
            alive = tuple(n for n, m in enumerate(mass) if m)
            if not alive:
                break
            masses = tuple(mass[n] for n in alive)
            weight = math.comb(steps, k) * pause ** (steps - k) * factor
            if weight:
                for n, m in zip(alive, masses):
                    at_limit[n] = at_limit.get(n, 0) + m * weight
            if k == steps:
                break
            played = max(played, k + 1)
            history.append((factor, alive, masses))
            after = [0] * states
            for n, m in zip(alive, masses):
                targets, weights = moves[n]
                for i, w in zip(targets, weights):
                    after[i] += m * w
            shared = math.gcd(*after)
            if shared > 1:
                after = [m // shared for m in after]
                factor *= shared
            mass = after
        return tuple(history), at_limit, played


def _stay(n: int, row: Row) -> tuple[int, Row]:
    """The weight of state ``n`` in the row, and the row without it."""
    targets, weights = row
    if n not in targets:
        return 0, row
    i = targets.index(n)
    if n not in targets[i + 1 :]:  # a law has each outcome once
        return weights[i], (targets[:i] + targets[i + 1 :], weights[:i] + weights[i + 1 :])
    kept = [(m, w) for m, w in zip(targets, weights) if m != n]
    stay = sum(w for m, w in zip(targets, weights) if m == n)
    return stay, (tuple(m for m, _ in kept), tuple(w for _, w in kept))


def _weights(law: Distribution[S | Ending] | Weights[S | Ending]) -> Weights[S | Ending]:
    return law if isinstance(law, Weights) else Weights.of(law)
