"""The exact ACS duel: a chain over seconds, each second's law from the rules' own functions.

A duel of two percentile combatants who stand in reach of each other and attack on every action
is, at each second's boundary, nothing but their hit points (and, before the first second,
whether either starts with an attack ready and aimed: prepared ambition). A second (ACS
"Listing a combat order", as :mod:`sim.rules.acs.clock` plays it): the plan of the second, the
ambition order and both combatants' action segments, by its exact law
(:func:`~sim.rules.acs.second.second_law`); the ambition winner's free action on segment 1 before
anyone; then segment by segment, the higher in ambition first, each action an attack whose law is
:func:`~sim.rules.acs.percentile.distribution` (the law of the ``resolve`` the clock calls). A
defense rolled uses one of the defender's defensive actions of the segment and may cost it its
action there (:func:`~sim.rules.acs.defenses.costs_action`), which slides, becomes a defensive
maneuver or is gone (:func:`~sim.rules.acs.defenses.lost_action`). What the chain does itself is
the clock's order of a second's actions and its count of defensive actions (the clock keeps them
in its processes, so there is no function to call).

Speed: a second does not depend on the hit points until someone falls, and damage only adds up.
So the second is played once, for every plan at once, over the hits each combatant has taken so
far (not the hit points, nor even the damage: each hit's damage is rolled on its own, so the
damage taken is the sum of the hits' laws, :class:`Hurts`, worked out once at the second's end):
the law of the damage taken by the second's end, and, for every attack that deals damage, the
damage both had taken before it. The law of a second from any hit points is then read off two
tables (:class:`SecondTable`): nobody falls when the damage at the end is below both hit points;
the first blow that reaches a combatant's hit points ends the fight. The tables are built once
per kind of second (the first, with prepared ambition, and the others). A second where nobody is
hurt leaves every state as it is with the same chance, which the chain solves apart
(:mod:`sim.exact.chain`: a pause).

A fight any other way (named actions, multi-segment attacks, readying, movement, a hybrid
resolution, more than two combatants) is not a chain here: :func:`duel` raises
:class:`NotExact` saying why.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from typing import NamedTuple

from sim.engine.dice import DiceExpr
from sim.engine.distribution import Distribution
from sim.exact.chain import STATE_CAP, Ending
from sim.exact.errors import NotExact, require_duel
from sim.exact.weights import Weights
from sim.rules.acs.action_dice import SEGMENTS, segments_law
from sim.rules.acs.defenses import costs_action, lost_action
from sim.rules.acs.ambition import ambition_law
from sim.rules.acs.fighter import Timing
from sim.rules.acs.models import AcsClockOptions
from sim.rules.acs.percentile import PLAIN, PercentileStats, Situation, damage_law, distribution
from sim.rules.acs.second import Contender, SecondPlan
from sim.rules.acs.system import AcsPrepared
from sim.scenario.schema import Scenario


class AcsState(NamedTuple):
    """A duel at a second's boundary: both hit points, and whether this is the first second."""

    hp0: int
    hp1: int
    first: bool


class Moment(NamedTuple):
    """The clock inside a second, as far as what is left of the second goes.

    ``plans``: each combatant's action segments still to come; ``used``: the defensive actions
    each has used in the current segment; ``maneuver``: each is on a defensive maneuver.
    """

    winner: int
    plans: tuple[tuple[int, ...], tuple[int, ...]]
    used: tuple[int, int]
    maneuver: tuple[bool, bool]


#: The hits a combatant has taken in a second, counted by the law of their damage (one count per
#: law of :class:`Hurts`): the damage itself is their sum, worked out once the second is played.
Hits = tuple[int, ...]

#: The second so far: per moment of the clock, the law of the hits both have taken (as weights).
#: The clock's moments do not depend on the hits, so each moment is stepped once for all of them.
Particles = dict[Moment, dict[tuple[Hits, Hits], int]]


#: A second's table as a duel's step reads it (:meth:`Duel._readings`).
Readings = tuple[
    int,
    tuple[tuple[tuple[int, int], ...], ...],
    tuple[
        tuple[tuple[tuple[int, tuple[int, ...]], ...], ...],
        tuple[tuple[tuple[int, tuple[int, ...]], ...], ...],
    ],
]


@dataclass(frozen=True)
class Duelist:
    """One duellist as the chain sees it: its clock stats and its percentile stats."""

    name: str
    timing: Timing
    stats: PercentileStats


@dataclass(frozen=True)
class SecondTable:
    """What one second does, over the damage taken (not the hit points): see the module.

    Attributes:
        ends: the law of the damage both have taken by the second's end, ``(d0, d1)``, as
            integer weights over ``denominator`` (a combatant who took its most hit points or
            more is left out: it is down whatever its hit points).
        reaches: by ``(attacker, segment, its damage taken)``: for each target hit points ``h``
            (index ``h``, up to the target's most), the weight of a blow that takes the target
            from below ``h`` to ``h`` or more.
        denominator: the common denominator of every weight.
    """

    ends: tuple[tuple[tuple[int, int], int], ...]
    reaches: dict[tuple[int, int, int], tuple[int, ...]]
    denominator: int


@dataclass(frozen=True)
class Hurts:
    """The laws of a hit's damage, each once, as integer weights over one ``scale``.

    The damage of each hit is rolled on its own (``damage_law`` of the attacker's damage dice,
    inside :func:`~sim.rules.acs.percentile.distribution`), so the damage a combatant has taken
    is the sum of its hits' and the second can count hits (:data:`Hits`) instead of damage.
    """

    laws: tuple[tuple[tuple[int, int], ...], ...]
    scale: int

    @classmethod
    def of(cls, shapes: list[tuple[tuple[int, int], ...]]) -> Hurts:
        """The laws of these shapes (each its ``(damage, weight)`` pairs over their sum)."""
        scale = math.lcm(*(sum(w for _, w in shape) for shape in shapes))
        return cls(
            tuple(
                tuple((d, w * (scale // sum(v for _, v in shape))) for d, w in shape)
                for shape in shapes
            ),
            scale,
        )

    def taken(self, hits: Hits, most: int) -> dict[int, int]:
        """The law of the damage of these hits, over ``scale ** most`` (``most`` hits or more)."""
        law = {0: self.scale ** (most - sum(hits))}
        for kind, count in enumerate(hits):
            for _ in range(count):
                after: dict[int, int] = {}
                for a, w in law.items():
                    for d, v in self.laws[kind]:
                        after[a + d] = after.get(a + d, 0) + w * v
                law = after
        return law

    def tail(self, kind: int, most: int) -> list[int]:
        """By ``j`` up to ``most``: the weight of a hit of this kind dealing ``j`` or more."""
        return [sum(w for d, w in self.laws[kind] if d >= j) for j in range(most + 1)]


@dataclass(frozen=True)
class Duel:
    """An ACS duel ready for the chain: the start's law and a second's law.

    Attributes:
        duelists: the two duellists, side 0 then side 1.
        hp: each one's hit point roll.
        options: the clock's rule options.
        steps: the seconds the time limit allows.
    """

    duelists: tuple[Duelist, Duelist]
    hp: tuple[DiceExpr, DiceExpr]
    options: AcsClockOptions
    steps: int

    #: Game seconds of one step (a second).
    step_s = Fraction(1)

    @property
    def prepared(self) -> bool:
        """Whether either starts with an attack ready and aimed (its first second differs)."""
        return any(d.timing.prepared for d in self.duelists)

    def cap(self) -> int:
        """The chain's own cap: the solver's (a duel's state costs little)."""
        return STATE_CAP

    def estimate(self) -> int:
        """The number of live states the chain may meet (every pair of hit points)."""
        spans = [h.maximum + 1 for h in self.hp]
        return spans[0] * spans[1] * (2 if self.prepared else 1)

    def start(self) -> Distribution[AcsState | Ending]:
        """The law of the first second's state: both hit point rolls (in scenario order)."""
        first, second = damage_law(self.hp[0]), damage_law(self.hp[1])
        return first.bind(lambda a: second.map(lambda b: AcsState(a, b, self.prepared)))

    def timeout(self, state: AcsState) -> Ending:
        """Both still standing at the time limit: a draw."""
        return Ending(None, "time_limit", (1, 1), (state.hp0, state.hp1))

    def step(self, state: AcsState) -> Weights[AcsState | Ending]:
        """The law of what one second leaves: a state, or the fight's ending.

        Read off the second's table (:meth:`_readings`): every damage pair both survive, and
        every blow that takes one of them out.
        """
        denominator, rows, blows = self._readings[state.first]
        hp = h0, h1 = state.hp0, state.hp1
        later = self.later
        weighted: list[tuple[AcsState | Ending, int]] = []
        for d0, row in enumerate(rows[:h0]):  # damage d0 < h0 to 0, each d1 < h1 to 1
            after = later[h0 - d0]
            for d1, w in row:
                if d1 >= h1:
                    break
                weighted.append((after[h1 - d1], w))
        for x in (0, 1):
            hx, hy = hp[x], hp[1 - x]
            for dx, reaches in enumerate(blows[x][:hx]):  # x had taken dx < hx before the blow
                for s, reach in reaches:
                    if hy < len(reach) and reach[hy]:
                        weighted.append((_victory(x, hx - dx, s), reach[hy]))
        return Weights(denominator, tuple(weighted))

    @cached_property
    def _readings(self) -> tuple[Readings, Readings]:
        """Each table as :meth:`step` reads it (a later second's, then the first's).

        Per table: its denominator; by the damage ``d0`` taken by 0, the ``(d1, weight)`` of
        its ends, ``d1`` rising; by attacker ``x`` and its damage taken ``dx``, the
        ``(segment, reach)`` of its blows.
        """
        later = _readings(self.tables[0], self.hp[0].maximum, self.hp[1].maximum)
        first = self.tables[1]
        return later, (
            later
            if first is self.tables[0]
            else _readings(first, self.hp[0].maximum, self.hp[1].maximum)
        )

    @cached_property
    def later(self) -> tuple[tuple[AcsState, ...], ...]:
        """Every state after the first second, by both hit points (each built once)."""
        return tuple(
            tuple(AcsState(h0, h1, False) for h1 in range(self.hp[1].maximum + 1))
            for h0 in range(self.hp[0].maximum + 1)
        )

    @cached_property
    def tables(self) -> tuple[SecondTable, SecondTable]:
        """The second's tables: a later second's, then the first's (prepared ambition)."""
        later = self._table(first=False)
        return later, (self._table(first=True) if self.prepared else later)

    def _table(self, first: bool) -> SecondTable:
        return Second(self, first).table()


class Second:
    """One second played over the hits taken, for every plan at once (see the module)."""

    def __init__(self, duel: Duel, first: bool) -> None:
        self.duel = duel
        options = duel.options
        self.options = options
        self.most = (duel.hp[0].maximum, duel.hp[1].maximum)
        self.limits = tuple(
            d.timing.actions for d in duel.duelists
        )
        self.extra = 1 if options.winner_extra_defense else 0
        contenders = [
            Contender.of(d.timing, first and d.timing.prepared, options) for d in duel.duelists
        ]
        self.plans = plans_law(contenders, options.duplicates)
        # Every attack's law over one denominator, so that every particle has the same one.
        shapes: dict[tuple[tuple[int, int], ...], int] = {}
        laws = {
            (x, situation): _split(Weights.of(self._read(x, situation)), shapes)
            for x in (0, 1)
            for situation in (*PLAIN, *(Situation(can, maneuver=True) for can in (False, True)))
        }
        self.hurts = Hurts.of(list(shapes))
        self.scale = math.lcm(*(law.denominator for law in laws.values()))
        self.laws = {
            key: tuple((rolled, kind, w * (self.scale // law.denominator))
                       for (rolled, kind), w in law.pairs)
            for key, law in laws.items()
        }
        #: The blows of each turn (a turn multiplies every particle's denominator by ``scale``),
        #: by (attacker, segment, its hits taken, the target's, the kind of the blow's damage).
        self.blows: list[dict[tuple[int, int, Hits, Hits, int], int]] = []

    def table(self) -> SecondTable:
        """Play the second: every segment of every plan, the free action first."""
        none = (0,) * len(self.hurts.laws)
        particles: Particles = {}
        for plan, p in self.plans.pairs:
            segments = (plan.segments[0], plan.segments[1])
            moment = Moment(plan.order[0], segments, (0, 0), (False, False))
            _add(particles, moment, {(none, none): p})
        for s in range(1, SEGMENTS + 1):
            particles = self._segment(_new_segment(particles), s)
        taken: dict[tuple[Hits, Hits], int] = {}
        for hits in particles.values():
            for pair, p in hits.items():
                taken[pair] = taken.get(pair, 0) + p
        turns = len(self.blows)
        blows: dict[tuple[int, int, Hits, Hits, int], int] = {}
        for k, turn in enumerate(self.blows, start=1):
            later = self.scale ** (turns - k)
            for where, w in turn.items():
                blows[where] = blows.get(where, 0) + w * later
        return self._read_off(taken, blows, self.plans.denominator * self.scale**turns)

    def _read_off(
        self,
        taken: dict[tuple[Hits, Hits], int],
        blows: dict[tuple[int, int, Hits, Hits, int], int],
        denominator: int,
    ) -> SecondTable:
        """The second's table from the hits taken by its end and before each blow."""
        hurts, most = self.hurts, self.most
        pairs = (*taken, *((hx, hy) for _, _, hx, hy, _ in blows))
        top = max(sum(h) for pair in pairs for h in pair)
        law: dict[Hits, dict[int, int]] = {}

        def damage(hits: Hits) -> dict[int, int]:
            if hits not in law:
                law[hits] = hurts.taken(hits, top)
            return law[hits]

        ends: dict[tuple[int, int], int] = {}
        for (h0, h1), p in taken.items():
            for d0, w0 in damage(h0).items():
                if d0 < most[0]:
                    for d1, w1 in damage(h1).items():
                        if d1 < most[1]:
                            ends[d0, d1] = ends.get((d0, d1), 0) + p * w0 * w1 * hurts.scale
        # By (attacker, segment, its hits): for each h, the weight of reaching h.
        rows: dict[tuple[int, int, Hits], list[int]] = {}
        tails = [hurts.tail(kind, max(most)) for kind in range(len(hurts.laws))]
        for (x, s, hx, hy, kind), b in blows.items():
            row = rows.setdefault((x, s, hx), [0] * (most[1 - x] + 1))
            before, tail = damage(hy), tails[kind]
            for h in range(1, len(row)):
                row[h] += b * sum(w * tail[h - a] for a, w in before.items() if a < h)
        reaches: dict[tuple[int, int, int], list[int]] = {}
        for (x, s, hx), row in rows.items():
            for dx, w in damage(hx).items():
                if dx < most[x]:
                    into = reaches.setdefault((x, s, dx), [0] * len(row))
                    for h, v in enumerate(row):
                        into[h] += w * v
        denominator *= hurts.scale ** (2 * top + 1)
        # Keep the integers small: divide out what every weight and the denominator share.
        weights = (w for row in reaches.values() for w in row)
        shared = math.gcd(denominator, *ends.values(), *weights)
        return SecondTable(
            ends=tuple((d, w // shared) for d, w in ends.items()),
            reaches={
                key: tuple(w // shared for w in row) for key, row in reaches.items() if any(row)
            },
            denominator=denominator // shared,
        )

    def _actor(self, moment: Moment, s: int) -> int | None:
        """Who acts next on segment ``s``: the higher in ambition first (None: nobody)."""
        w = moment.winner
        for x in (w, 1 - w):
            plan = moment.plans[x]
            if plan and plan[0] == s:
                return x
        return None

    def _segment(self, particles: Particles, s: int) -> Particles:
        """Segment ``s``, turn by turn until nobody acts on it (the winner's free action first).

        A moment with no action left on ``s`` keeps none for the rest of it: it is set aside
        and given the turns' denominators (``scale`` a turn) once, at the segment's end.
        """
        aside: list[Particles] = []
        more = True
        if s == 1 and self.options.winner_free_action:
            particles, idle, more = self._turn(particles, s, free=True)
            aside.append(idle)
        while more and particles:
            particles, idle, more = self._turn(particles, s, free=False)
            aside.append(idle)
        for later, idle in enumerate(reversed(aside)):
            factor = self.scale ** (later + 1)
            for moment, hits in idle.items():
                _add(particles, moment, hits, factor)
        return particles

    def _turn(
        self, particles: Particles, s: int, free: bool
    ) -> tuple[Particles, Particles, bool]:
        """Every moment's next action on segment ``s`` (the winner's free one if ``free``).

        Gives the particles after it; apart, the moments with no action left on ``s`` (as they
        were: they take no turn's ``scale``); and whether anyone after it has an action left on
        ``s``.
        """
        after: Particles = {}
        idle: Particles = {}
        blows: dict[tuple[int, int, Hits, Hits, int], int] = {}
        self.blows.append(blows)
        for moment, hits in particles.items():
            move = self._move(moment, s, free)
            if move is None:
                idle[moment] = hits
                continue
            x, outcomes = move
            for later, kind, q in outcomes:
                into = after.get(later)
                if into is None:
                    into = after[later] = {}
                get = into.get
                if kind < 0:  # no damage: the hits stay as they are
                    for pair, p in hits.items():
                        into[pair] = get(pair, 0) + p * q
                    continue
                blown = blows.get
                for pair, p in hits.items():
                    h0, h1 = pair
                    pq = p * q
                    if x == 0:
                        blow = (0, s, h0, h1, kind)
                        key = (h0, _hit(h1, kind))
                    else:
                        blow = (1, s, h1, h0, kind)
                        key = (_hit(h0, kind), h1)
                    blows[blow] = blown(blow, 0) + pq
                    into[key] = get(key, 0) + pq
        return after, idle, any(self._actor(m, s) is not None for m in after)

    def _move(
        self, moment: Moment, s: int, free: bool
    ) -> tuple[int, tuple[tuple[Moment, int, int], ...]] | None:
        """Who attacks next on ``s`` from this moment, and the law of the moment after it.

        Each moment after comes with the kind of damage dealt (-1: none); None when nobody acts
        on ``s``.
        """
        x = moment.winner if free else self._actor(moment, s)
        if x is None:
            return None
        if not free:
            p0, p1 = moment.plans
            plans = (p0[1:], p1) if x == 0 else (p0, p1[1:])
            moment = Moment(moment.winner, plans, moment.used, moment.maneuver)
        y = 1 - x
        can = self._can_defend(moment, y, s)
        situation = Situation(can, maneuver=True) if moment.maneuver[y] else PLAIN[can]
        defended = self._defended(moment, y, s) if can else moment
        return x, tuple(
            (defended if rolled else moment, kind, q) for rolled, kind, q in self.laws[x, situation]
        )

    def _can_defend(self, moment: Moment, y: int, s: int) -> bool:
        """Whether ``y`` has a defensive action left on segment ``s`` and wants to use it."""
        timing = self.duel.duelists[y].timing
        if timing.defend == "never":
            return False
        if moment.used[y] >= self.limits[y] + (self.extra if moment.winner == y else 0):
            return False
        plan = moment.plans[y]
        return not (timing.defend == "keep_actions" and plan and plan[0] == s)

    def _defended(self, moment: Moment, y: int, s: int) -> Moment:
        """The moment after ``y`` rolled a defense on ``s``: its action there lost, maybe."""
        used = list(moment.used)
        used[y] += 1
        plans = list(moment.plans)
        maneuver = list(moment.maneuver)
        plan = plans[y]
        if costs_action(plan, s, self.options.defense_costs_action):
            rest = plan[1:]
            lost = lost_action(rest, s, self.options.lost_action, maneuver[y])
            if lost.maneuver:
                maneuver[y] = True
            elif lost.moved_to is not None:
                rest = tuple(sorted((*rest, lost.moved_to)))
            plans[y] = rest
        return Moment(
            moment.winner, (plans[0], plans[1]), (used[0], used[1]), (maneuver[0], maneuver[1])
        )

    def _read(self, x: int, situation: Situation) -> Distribution[tuple[bool, int]]:
        """``x``'s attack on the other by its law: (defense rolled, damage)."""
        me, them = self.duel.duelists[x], self.duel.duelists[1 - x]
        return distribution(me.stats, them.stats, situation).map(
            lambda r: (r.defense_rolled, r.damage)
        )


def plans_law(contenders: list[Contender], duplicates: str) -> Weights[SecondPlan]:
    """The law of a second's plan, :func:`~sim.rules.acs.second.second_law`, in whole numbers.

    That law is the product of the ambition order's and each combatant's segments' (their dice
    are independent); the factors are the rules' own (:func:`~sim.rules.acs.ambition.
    ambition_law`, :func:`~sim.rules.acs.action_dice.segments_law`), multiplied here as integers
    instead of fractions (``tests/exact/test_acs_chain.py`` checks it is ``second_law``).
    """
    orders = Weights.of(ambition_law([c.bonus for c in contenders], [c.key for c in contenders]))
    each = [
        Weights.of(segments_law(c.die, c.actions, duplicates, c.per_segment)) for c in contenders
    ]
    return Weights(
        orders.denominator * math.prod(law.denominator for law in each),
        tuple(
            (
                SecondPlan(order, tuple(segments for segments, _ in plans)),
                math.prod((w for _, w in plans), start=p),
            )
            for order, p in orders.pairs
            for plans in itertools.product(*(law.pairs for law in each))
        ),
    )


def _readings(table: SecondTable, most0: int, most1: int) -> Readings:
    """A second's table as :meth:`Duel.step` reads it (see :meth:`Duel._readings`)."""
    rows: list[list[tuple[int, int]]] = [[] for _ in range(most0 + 1)]
    for (d0, d1), w in table.ends:
        rows[d0].append((d1, w))
    blows: tuple[list[list[tuple[int, tuple[int, ...]]]], ...] = tuple(
        [[] for _ in range(most + 1)] for most in (most0, most1)
    )
    for (x, s, dx), reach in table.reaches.items():
        blows[x][dx].append((s, reach))
    return (
        table.denominator,
        tuple(tuple(sorted(row)) for row in rows),
        (tuple(tuple(b) for b in blows[0]), tuple(tuple(b) for b in blows[1])),
    )


@cache
def _victory(x: int, left: int, s: int) -> Ending:
    """``x`` wins on segment ``s`` with ``left`` hit points (one ending, built once)."""
    hp_left = (left, 0) if x == 0 else (0, left)
    survivors = (1, 0) if x == 0 else (0, 1)
    return Ending(x, "victory", survivors, hp_left, s, SEGMENTS)


def _new_segment(particles: Particles) -> Particles:
    """The particles as a segment starts: no defensive action used in it yet."""
    fresh: Particles = {}
    for m, hits in particles.items():
        start = Moment(m.winner, m.plans, (0, 0), m.maneuver)
        if start in fresh:
            _add(fresh, start, hits)
        else:
            fresh[start] = hits  # taken over: the particles before are not used again
    return fresh


def _add(
    particles: Particles, moment: Moment, hits: dict[tuple[Hits, Hits], int], factor: int = 1
) -> None:
    """Add the law of ``hits`` at ``moment``, each weight times ``factor``, to ``particles``."""
    law = particles.setdefault(moment, {})
    for pair, p in hits.items():
        law[pair] = law.get(pair, 0) + p * factor


def _hit(hits: Hits, kind: int) -> Hits:
    """The hits taken with one more of this kind."""
    return (*hits[:kind], hits[kind] + 1, *hits[kind + 1:])


def _split(
    law: Weights[tuple[bool, int]], shapes: dict[tuple[tuple[int, int], ...], int]
) -> Weights[tuple[bool, int]]:
    """An attack's law (defense rolled, damage) as (defense rolled, kind of damage: -1 none).

    The damage of a hit, given whether a defense was rolled, has its own law: its shape
    (``(damage, weight)`` pairs, the weights without a common factor) is numbered in ``shapes``
    the first time it is met, and that number is its kind (:class:`Hurts`).
    """
    weighted: list[tuple[tuple[bool, int], int]] = []
    hurt: dict[bool, dict[int, int]] = {}
    for (rolled, damage), w in law.pairs:
        if damage:
            hurt.setdefault(rolled, {})[damage] = w
        else:
            weighted.append(((rolled, -1), w))
    for rolled, damages in hurt.items():
        shared = math.gcd(*damages.values())
        shape = tuple(sorted((d, w // shared) for d, w in damages.items()))
        kind = shapes.setdefault(shape, len(shapes))
        weighted.append(((rolled, kind), sum(damages.values())))
    return Weights(law.denominator, tuple(weighted))


def duel(scenario: Scenario) -> Duel:
    """The scenario as an exact ACS duel.

    Raises:
        NotExact: the scenario is not a duel the chain plays (says why).
    """
    prepared = scenario.system.prepare(scenario)
    if not isinstance(prepared, AcsPrepared):
        raise NotExact("not an ACS scenario")
    options = prepared.options
    if options.resolution != "percentile":
        raise NotExact(
            f"the ACS chain plays the percentile resolution, not the hybrid {options.resolution!r}"
        )
    roster = prepared.roster
    require_duel((entry.side for entry in roster), "ACS")
    if prepared.space is not None:
        raise NotExact("the ACS chain plays duellists in reach who do not move")
    for entry in roster:
        _check(entry.name, entry.timing, entry.hp)
    a, b = (Duelist(entry.name, entry.timing, entry.stats) for entry in roster)
    return Duel(
        duelists=(a, b),
        hp=(roster[0].hp, roster[1].hp),
        options=options,
        steps=int(scenario.time_limit_s + 1e-9),
    )


def _check(name: str, timing: Timing, hp: DiceExpr) -> None:
    """Refuse what the duel chain does not play: named actions, long attacks, readying."""
    if timing.specials:
        raise NotExact(f"{name} has named actions (the ACS chain plays plain attacks)")
    if timing.attack_segments != 1:
        raise NotExact(f"{name}'s attack takes several segments (the ACS chain plays one)")
    if timing.ready_last_action:
        raise NotExact(f"{name} readies its last action (the ACS chain plays attacks only)")
    if hp.minimum < 1:
        raise NotExact(f"{name} may start without hit points")


#: What the exact engine calls to build this rule system's chain.
BUILD: Callable[[Scenario], Duel] = duel
