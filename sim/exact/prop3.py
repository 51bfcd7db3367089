"""The exact Proposition Three melee duel: a chain over rounds, from the rules' own functions.

A duel of two combatants who stand in melee range (Combat Proposition Three, "(ANOTHER) COMBAT
PROPOSAL" and "CRITICAL HITS, DODGES, AND FAILURES", as :mod:`sim.rules.prop3.round` plays it)
is, at a round's start, each one's Vigor and nicks (modulo ``nicks_per_wound``), whether each
holds its weapon, the effects "until the next action" each has caused (stumble, fall, a critical
block or dodge), who is higher in initiative and the turns each still skips to move up
(:class:`DuelState`). A round: in initiative order each takes its turn (the round's own
``Fight.begin_action``, ``Fight.pick_up``, ``round.skips_turn``, ``Fight.end_action``), its
attack planned by the round's own functions (``melee.melee_plan``: the forms each tactic
declares and both pools; ``melee.auto_hit_pool`` for a counter that hits), with the law of its
exchange (``exchange.exchange_law`` on ``Fight.exchange_input``), and each outcome applied by
the fight's own methods (``Fight.harm``: the damage track; ``Fight.apply``: what a fumble face,
``fumbles.fumble_effect`` by ``fumbles.fumble_law``, or a critical defense,
``criticals.critical_effect``, does; ``counters.counter_mode``: whether a counter-attack
reaches). The order comes from ``initiative.initiative_law`` and ``initiative.pair_order_law``
at the start, and again every round under ``initiative: round``.

The chain sets the engine's own two fighters and fight to a state, calls those functions and
reads the state back: the only thing it writes is that reading. Its dice fail if anything
rolls, so no piece samples; a form tactic ``random`` picks on dice that hand out every pick in
turn (:func:`_picked`), so each choice is followed. What it does not play (more than one
combatant a side, missile weapons, combatants apart) is refused by
:func:`duel` with :class:`NotExact` saying why.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple, TypeVar

from sim.engine.combat import Combat
from sim.engine.dice import Dice
from sim.exact.chain import Ending
from sim.exact.errors import NotExact, require_duel
from sim.exact.weights import Weights
from sim.rules.prop3.character import DODGE, PARRY, LastingEffect, P3Fighter
from sim.rules.prop3.consequences import ATTACKER, Consequence, Counter
from sim.rules.prop3.counters import MELEE, counter_mode
from sim.rules.prop3.criticals import critical_effect
from sim.rules.prop3.exchange import ExchangeInput, exchange_law
from sim.rules.prop3.fumbles import can_drop, fumble_effect, fumble_law
from sim.rules.prop3.initiative import initiative_dice, initiative_law, pair_order_law
from sim.rules.prop3.melee import auto_hit_pool, melee_plan
from sim.rules.prop3.pool import CRITICAL_DEFENSE, DEFENDED, FUMBLE, Outcome
from sim.rules.prop3.round import RoundFight, skips_turn
from sim.rules.prop3.system import Prop3Prepared
from sim.scenario.schema import Scenario

T = TypeVar("T", bound=Hashable)

_PARRY = PARRY - DODGE
"""The parry's defense form index (a fumble against a parry gives an automatic counter)."""

#: The most states times rounds the chain solves (its cap is this over the rounds): the bundled
#: duel over 10 rounds, 7,680 estimated states (1,780 blocks of states alike), is solved in some
#: 22 s of CPU; at Vigor 3, 2,304 estimated states (476 blocks), in some 1.2 s.
ROUND_STATES = 80_000

#: An effect until the next action: (owner, victim, exposed, shaken, ends after the action).
Effect = tuple[int, int, int, int, bool]
#: An effect handed over at an action's start, ended when it is over: (victim, exposed, shaken).
Closing = tuple[int, int, int]


class DuelState(NamedTuple):
    """A duel at a round's start (or, with :data:`Moment`'s closing effects, inside a turn).

    Attributes:
        hp: each one's Vigor.
        nicks: each one's nicks not yet making a wound.
        armed: each one holds its weapon (a fumble may drop it).
        skips: the turns each still skips to move up (tactic ``move_up``).
        first: who is higher in initiative (0 or 1).
        effects: the effects until the next action, sorted (:data:`Effect`).
        points: each one's persistent points left (advantages, then skill focuses).
    """

    hp: tuple[int, int]
    nicks: tuple[int, int]
    armed: tuple[bool, bool]
    skips: tuple[int, int]
    first: int
    effects: tuple[Effect, ...] = ()
    points: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())


#: A state inside a turn: the state and the effects that end when the turn is over.
Moment = tuple[DuelState, tuple[Closing, ...]]


@dataclass
class Duel:
    """A Proposition Three melee duel ready for the chain: the start's law and a round's law.

    Attributes:
        fighters: the engine's two fighters, set to each state the chain asks about.
        fight: the round process's fight around them (its dice fail if anything rolls).
        every_round: initiative is rolled again every round (option ``initiative: round``).
        steps: the rounds the time limit allows.
        step_s: game seconds of one round.
    """

    fighters: tuple[P3Fighter, P3Fighter]
    fight: RoundFight
    every_round: bool
    no_dice: str
    steps: int
    step_s: Fraction
    _laws: dict[ExchangeInput, Weights[tuple[Outcome, int, int, int, int]]] = field(
        default_factory=dict, repr=False
    )
    _attacks: dict[tuple[Moment, int, bool], Weights[Moment | Ending]] = field(
        default_factory=dict, repr=False
    )
    _owns: dict[tuple[Moment, int, bool], Weights[Moment | Ending | _Countered]] = field(
        default_factory=dict, repr=False
    )
    _orders: dict[tuple[int, int], Fraction] = field(default_factory=dict, repr=False)
    _closing: list[LastingEffect] = field(default_factory=list, repr=False)
    _stand: dict[DuelState, DuelState] = field(default_factory=dict, repr=False)
    _blocks: dict[DuelState, Weights[DuelState | Ending]] = field(default_factory=dict, repr=False)

    # -- the chain ---------------------------------------------------------------------------------

    def cap(self) -> int:
        """The chain's own cap: :data:`ROUND_STATES` over the rounds the time limit allows.

        No round of a Proposition Three duel is a pause, so the chain steps every round over one
        common denominator that grows by some 1,300 digits a round: the cost grows with states
        times rounds, and so the states it affords fall with the rounds.
        """
        return ROUND_STATES // max(self.steps, 1)

    def estimate(self) -> int:
        """Live states the chain may meet: Vigor, nicks, weapons, order, skips, a few effects,
        and the persistent points each has left."""
        per_wound = self.fight.rules.nicks_per_wound
        estimate = 2 * 4 * 8  # who is first, both weapons, a few effects
        for f in self.fighters:
            estimate *= f.hp * per_wound * (f.skips + 1)
            estimate *= math.prod(p + 1 for p in f.state.profile.start_points)
        return estimate

    def start(self) -> Weights[DuelState | Ending]:
        """The first round's state: as the fight starts, by the law of the initiative roll.

        Its states stand for the blocks of states alike (:func:`_lumped`): every state the time
        limit reaches is worked out here, and :meth:`step` gives a block's law.
        """
        state = DuelState(
            hp=(self.fighters[0].hp, self.fighters[1].hp),
            nicks=(0, 0),
            armed=(True, True),
            skips=(self.fighters[0].skips, self.fighters[1].skips),
            first=0,
            points=(
                self.fighters[0].state.profile.start_points,
                self.fighters[1].state.profile.start_points,
            ),
        )
        start = self._ordered(state)
        live = [s for s, _ in start.pairs if not isinstance(s, Ending)]
        self._stand, self._blocks = _lumped(live, self._round, self.steps)
        return start.map(self._standing)

    def timeout(self, state: DuelState) -> Ending:
        """Both still standing at the time limit: a draw."""
        return Ending(None, "time_limit", (1, 1), state.hp)

    def step(self, state: DuelState) -> Weights[DuelState | Ending]:
        """The law of what one round leaves, each state standing for its block (:meth:`start`)."""
        found = self._blocks.get(state)
        return self._round(state).map(self._standing) if found is None else found

    def _standing(self, outcome: DuelState | Ending) -> DuelState | Ending:
        """The state that stands for ``outcome``'s block (an ending stands for itself)."""
        if isinstance(outcome, Ending):
            return outcome
        return self._stand.get(outcome, outcome)

    def _round(self, state: DuelState) -> Weights[DuelState | Ending]:
        """The law of what one round leaves: a state, or the fight's ending."""
        first, second = state.first, 1 - state.first
        opening = self._turn(state, first)
        law = opening.bind(lambda s: self._then(s, second))
        if not self.every_round:
            return law.map(lambda s: s if isinstance(s, Ending) else s[0])
        return law.bind(self._round_end)

    # -- a round -----------------------------------------------------------------------------------

    def _then(
        self, after: tuple[DuelState, bool] | Ending, me: int
    ) -> Weights[tuple[DuelState, bool] | Ending]:
        """The second turn of the round (``me``), and its move up if it skipped."""
        if isinstance(after, Ending):
            return Weights.certain(after)
        return self._turn(after[0], me).map(lambda s: _moved_up(s, me))

    def _round_end(self, after: tuple[DuelState, bool] | Ending) -> Weights[DuelState | Ending]:
        """Initiative rolled again for the next round (option ``initiative: round``)."""
        if isinstance(after, Ending):
            return Weights.certain(after)
        return self._ordered(after[0])

    def _ordered(self, state: DuelState) -> Weights[DuelState | Ending]:
        """``state`` with who is first by the law of both initiative rolls (``rank``)."""
        first = self._orders.get(state.hp)
        if first is None:  # the initiative pools change with Vigor only
            first = self._orders[state.hp] = self._first(state)
        law = [(state._replace(first=0), first), (state._replace(first=1), 1 - first)]
        denominator = first.denominator
        return Weights.merged(denominator, ((s, int(p * denominator)) for s, p in law))

    def _first(self, state: DuelState) -> Fraction:
        """The chance that side 0 is first (``Prop3Rounds.roll_initiative``).

        Both roll (``rank``); one whose pool has no dice comes after one who rolls; two
        without dice come in the scenario's order, or one shuffle (``initiative.without_dice``).
        """
        fighters = self._load(state)
        rolling = [initiative_dice(f) > 0 for f in fighters]
        if all(rolling):
            keep = self.fight.rules.keep
            laws = [initiative_law(f, keep) for f in fighters]
            return pair_order_law(laws[0], laws[1])
        if any(rolling):
            return Fraction(int(rolling[0]))
        return Fraction(1) if self.no_dice == "listed" else Fraction(1, 2)

    def _turn(self, state: DuelState, me: int) -> Weights[tuple[DuelState, bool] | Ending]:
        """``me``'s turn (``Prop3Rounds.turn``): pick up a weapon, skip, or attack; and skipped."""
        f = self._load(state)[me]
        fight = self.fight
        closing = fight.begin_action(f)
        if fight.pick_up(f):
            skipped = False
        elif skips_turn(f):
            f.skips -= 1
            skipped = True
        else:
            moment = (self._save(state.first), _closings(closing, self.fighters))
            law = self._attack(moment, me, False)
            return law.map(lambda m: m if isinstance(m, Ending) else (m[0], False))
        fight.end_action(closing)
        return Weights.certain((self._save(state.first), skipped))

    # -- an attack ---------------------------------------------------------------------------------

    def _attack(self, moment: Moment, me: int, automatic: bool) -> Weights[Moment | Ending]:
        """``me``'s melee attack on the other (``automatic``: a counter that hits), settled.

        A fumble's counter-attack (face 3, the other not parrying) is the other's own attack in
        the same moment, whose fumble may give ``me`` its counter-attack, the very attack this
        is: the two laws are solved together (:func:`_looped`). Each moment's law is worked out
        once for the whole solve.
        """
        key = (moment, me, automatic)
        found = self._attacks.get(key)
        if found is None:
            mine = self._own(moment, me, automatic)
            if any(isinstance(o, _Countered) for o, _ in mine.pairs):
                found = _looped(mine, self._own(moment, 1 - me, False))
            else:
                found = Weights.merged(mine.denominator, _settled(mine.pairs))
            self._attacks[key] = found
        return found

    def _own(
        self, moment: Moment, me: int, automatic: bool
    ) -> Weights[Moment | Ending | _Countered]:
        """``me``'s attack, a fumble's counter-attack by the other left as :class:`_Countered`."""
        key = (moment, me, automatic)
        found = self._owns.get(key)
        if found is None:
            found = self._owns[key] = self._attack_law(moment, me, automatic)
        return found

    def _attack_law(
        self, moment: Moment, me: int, automatic: bool
    ) -> Weights[Moment | Ending | _Countered]:
        fight = self.fight
        fighters = self._load(*moment)
        a, d = fighters[me], fighters[1 - me]
        # Every attack's exchange is read before any outcome is applied to the fighters.
        attacks: Weights[tuple[int | None, ExchangeInput] | None]
        if automatic:
            attacks = _picked(fight, lambda: auto_hit_pool(fight, a, d)).map(
                lambda planned: None
                if planned is None
                else (None, fight.exchange_input(a, d, planned[1], None, automatic=True))
            )
        else:
            attacks = _picked(fight, lambda: melee_plan(fight, a, d)).map(
                lambda plan: None
                if plan is None
                else (plan.forms.defense, fight.exchange_input(a, d, plan.attack, plan.defense))
            )
        return attacks.bind(lambda attack: self._attacked(moment, me, attack))

    def _attacked(
        self, moment: Moment, me: int, attack: tuple[int | None, ExchangeInput] | None
    ) -> Weights[Moment | Ending | _Countered]:
        """An attack as planned (its defense form and exchange), settled; None: no attack."""
        if attack is None:
            return Weights.certain(moment)
        form, exchange = attack
        return self._verdicts(exchange).bind(
            lambda verdict: self._settle(
                self._spent(moment, me, exchange, verdict[3], verdict[4]), me, form, *verdict[:3]
            )
        )

    def _verdicts(self, exchange: ExchangeInput) -> Weights[tuple[Outcome, int, int, int, int]]:
        """The exchange's law (``exchange_law``) as the duel reads it: outcome, nicks, wounds,
        and the persistent points the attacker and the defender spent."""
        found = self._laws.get(exchange)
        if found is None:
            law = exchange_law(exchange).map(
                lambda v: (v.outcome, v.nicks, v.wounds, v.attack_spent, v.defense_spent)
            )
            found = self._laws[exchange] = Weights.of(law)
        return found

    def _spent(
        self, moment: Moment, me: int, exchange: ExchangeInput, attack: int, defense: int
    ) -> Moment:
        """The moment after ``me`` spent ``attack`` persistent points and the other ``defense``
        (``Fight.spend``, as ``Fight.exchange`` spends them)."""
        if not (attack or defense):
            return moment
        fighters = self._load(*moment)
        self.fight.spend(fighters[me], exchange.attack, attack)
        if exchange.defense is not None:
            self.fight.spend(fighters[1 - me], exchange.defense, defense)
        return self._save(moment[0].first), moment[1]

    def _settle(
        self, moment: Moment, me: int, form: int | None, outcome: Outcome, nicks: int, wounds: int
    ) -> Weights[Moment | Ending | _Countered]:
        """What the outcome does (``outcomes.settle``): damage, a critical defense, a fumble."""
        if outcome == FUMBLE:
            if not self.fight.rules.fumbles:
                return Weights.certain(moment)
            profile = self.fighters[me].state.profile
            hit_nicks = self.fight.rules.hit_nicks
            faces = Weights.of(fumble_law(can_drop(profile, False)))
            return faces.bind(
                lambda face: self._consequence(
                    moment, me, fumble_effect(face, form == _PARRY, False, hit_nicks)
                )
            )
        if outcome == DEFENDED:
            return Weights.certain(moment)
        if outcome == CRITICAL_DEFENSE:
            if form is None:  # a critical defense needs a defense roll
                return Weights.certain(moment)
            effect = critical_effect(form, self.fight.rules.block_after)
            return self._consequence(moment, me, effect)
        fighters = self._load(*moment)
        self.fight.harm(fighters[me], fighters[1 - me], nicks, wounds)
        return Weights.certain(self._after(moment))

    def _consequence(
        self, moment: Moment, me: int, consequence: Consequence
    ) -> Weights[Moment | Ending | _Countered]:
        """A fumble's or a critical defense's consequence for ``me``'s attack on the other."""
        if consequence is None:
            return Weights.certain(moment)
        fighters = self._load(*moment)
        parts = (fighters[me], fighters[1 - me])
        if isinstance(consequence, Counter):
            by = me if consequence.by == ATTACKER else 1 - me
            if counter_mode(self.fight, fighters[by], fighters[1 - by]) != MELEE:
                return Weights.certain(moment)
            if not consequence.automatic:
                return Weights.certain(_Countered(by))
            law = self._attack(moment, by, True)
            countered: Weights[Moment | Ending | _Countered] = Weights(law.denominator, law.pairs)
            return countered
        self.fight.apply(consequence, *parts)
        return Weights.certain(self._after(moment))

    def _after(self, moment: Moment) -> Moment | Ending:
        """The fighters as they stand after a blow or a consequence: a moment, or the ending."""
        a, b = self.fighters
        if a.out is not None or b.out is not None:
            winner = 1 if a.out is not None else 0
            hp = [0, 0]
            hp[winner] = self.fighters[winner].hp
            survivors = (1, 0) if winner == 0 else (0, 1)
            return Ending(winner, "victory", survivors, (hp[0], hp[1]))
        return self._save(moment[0].first), moment[1]

    # -- the engine's fighters as a state ----------------------------------------------------------

    def _load(
        self, state: DuelState, closing: tuple[Closing, ...] = ()
    ) -> tuple[P3Fighter, P3Fighter]:
        """Set the engine's fighters to ``state`` (the closing effects applied, held apart)."""
        fighters = self.fighters
        if self.fight.combat.end_reason is not None:
            self.fight = _fight_for(fighters, self.fight)
        for i, f in enumerate(fighters):
            body = f.state
            f.hp = state.hp[i]
            f.out = None
            f.skips = state.skips[i]
            f.place = 0 if i == state.first else 1
            body.nicks = state.nicks[i]
            body.armed = state.armed[i]
            body.exposed = body.shaken = 0
            body.at_start = []
            body.after = []
            body.points = list(state.points[i])
        for owner, victim, exposed, shaken, after in state.effects:
            effect = LastingEffect(fighters[victim].state, exposed, shaken)
            effect.apply()
            body = fighters[owner].state
            (body.after if after else body.at_start).append(effect)
        self._closing = []
        for victim, exposed, shaken in closing:
            effect = LastingEffect(fighters[victim].state, exposed, shaken)
            effect.apply()
            self._closing.append(effect)
        return fighters

    def _save(self, first: int) -> DuelState:
        """The state the engine's fighters stand in (an action's closing effects held apart)."""
        a, b = self.fighters
        bodies = (a.state, b.state)
        effects: list[Effect] = []
        for owner, body in enumerate(bodies):
            for after, kept in ((False, body.at_start), (True, body.after)):
                for e in kept:
                    victim = 0 if e.victim is bodies[0] else 1
                    effects.append((owner, victim, e.exposed, e.shaken, after))
        return DuelState(
            hp=(a.hp, b.hp),
            nicks=(bodies[0].nicks, bodies[1].nicks),
            armed=(bodies[0].armed, bodies[1].armed),
            skips=(a.skips, b.skips),
            first=first,
            effects=tuple(sorted(effects)),
            points=(tuple(bodies[0].points), tuple(bodies[1].points)),
        )


def _lumped(
    live: list[DuelState], law: Callable[[DuelState], Weights[DuelState | Ending]], steps: int
) -> tuple[dict[DuelState, DuelState], dict[DuelState, Weights[DuelState | Ending]]]:
    """Every state ``steps - 1`` rounds reach from ``live``, lumped into blocks of states alike.

    States are alike when they have the same Vigor (what the time limit reads) and the same
    chance of each ending and of each block after a round (the coarsest such blocks, refined
    from Vigor alone until no block splits): the chain over blocks gives every ending at every
    round exactly as the chain over states, with fewer states. States first met at the time
    limit have no law and stand alone by Vigor. Gives each state's stand-in (the block's first
    state met) and each stand-in's law over stand-ins.
    """
    laws: dict[DuelState, Weights[DuelState | Ending]] = {}
    order = list(dict.fromkeys(live))
    seen = set(order)
    level = order
    for _ in range(steps):
        after: list[DuelState] = []
        for state in level:
            laws[state] = law(state)
            for o, _w in laws[state].pairs:
                if not isinstance(o, Ending) and o not in seen:
                    seen.add(o)
                    after.append(o)
        order.extend(after)
        level = after
        if not level:
            break
    block = _blocks_of(order, laws)
    stand: dict[DuelState, DuelState] = {}
    first: dict[int, DuelState] = {}
    for state in order:
        stand[state] = first.setdefault(block[state], state)
    lumped = {
        s: laws[s].map(lambda o: o if isinstance(o, Ending) else stand[o])
        for s in first.values()
        if s in laws
    }
    return stand, lumped


def _blocks_of(
    order: list[DuelState], laws: dict[DuelState, Weights[DuelState | Ending]]
) -> dict[DuelState, int]:
    """The coarsest blocks of states alike (see :func:`_lumped`), numbered."""
    endings: dict[Ending, int] = {}
    labels: dict[Hashable, int] = {}
    block = {s: labels.setdefault((s.hp, s in laws), len(labels)) for s in order}
    while True:
        labels = {}
        refined = {
            s: labels.setdefault((block[s], _signature(laws.get(s), block, endings)), len(labels))
            for s in order
        }
        if len(labels) == len(set(block.values())):
            return refined
        block = refined


def _signature(
    law: Weights[DuelState | Ending] | None, block: dict[DuelState, int], endings: dict[Ending, int]
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """A law as its weights of each block (from 0) and each ending (below 0), reduced."""
    if law is None:
        return 0, ()
    into: dict[int, int] = {}
    for o, w in law.pairs:
        key = -1 - endings.setdefault(o, len(endings)) if isinstance(o, Ending) else block[o]
        into[key] = into.get(key, 0) + w
    shared = math.gcd(law.denominator, *into.values())
    return law.denominator // shared, tuple(sorted((k, w // shared) for k, w in into.items()))


def _picked(fight: RoundFight, draw: Callable[[], T]) -> Weights[T]:
    """The law of ``draw()``, which may pick at random on the fight's dice (a tactic ``random``).

    It is played on dice that give each pick in turn, every choice alike, and ask for the next
    when they have none (:class:`_Picks`): one play for each sequence of picks.
    """
    quiet = fight.dice
    drawn: list[tuple[T, int]] = []  # each play's result and its picks' denominator
    pending: list[tuple[tuple[int, ...], int]] = [((), 1)]
    try:
        while pending:
            picks, denominator = pending.pop()
            fight.dice = _Picks(picks)
            try:
                drawn.append((draw(), denominator))
            except _Wanted as wanted:
                n = wanted.sides
                pending.extend(((*picks, k), denominator * n) for k in range(n))
    finally:
        fight.dice = quiet
    common = math.lcm(*(n for _, n in drawn))
    return Weights.merged(common, ((result, common // n) for result, n in drawn))


class _Wanted(Exception):
    """A play asks for one more pick, of ``sides`` choices."""

    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


class _Picks(Dice):
    """Dice that give the picks of a play in turn, then ask for the next (:func:`_picked`).

    Anything else they are asked for (a uniform draw) fails, as the chain's dice do.
    """

    __slots__ = ("picks", "used")

    def __init__(self, picks: tuple[int, ...]) -> None:  # no random stream behind them
        self._generator = None
        self._buffer = []
        self.picks = picks
        self.used = 0

    def roll(self, sides: int) -> int:
        if self.used == len(self.picks):
            raise _Wanted(sides)
        self.used += 1
        return self.picks[self.used - 1] + 1


class _Countered(NamedTuple):
    """A fumble's counter-attack by ``by``: its plain melee attack in the same moment."""

    by: int


def _settled(
    pairs: tuple[tuple[Moment | Ending | _Countered, int], ...],
) -> list[tuple[Moment | Ending, int]]:
    """A law without counter-attacks left open, as the chain reads it."""
    return [(o, w) for o, w in pairs if not isinstance(o, _Countered)]


def _looped(
    mine: Weights[Moment | Ending | _Countered], theirs: Weights[Moment | Ending | _Countered]
) -> Weights[Moment | Ending]:
    """My attack's law when a fumble's counter-attack is the other's attack, and back again.

    With ``mine = c + r * theirs`` and ``theirs = c' + r' * mine`` (``r``, ``r'``: the chance of
    the counter-attack), ``mine = (c + r * c') / (1 - r * r')``, in whole numbers over
    ``d * d' - m * m'`` (``m``, ``m'``: the counter-attack's weight over ``d``, ``d'``).
    """
    d, d2 = mine.denominator, theirs.denominator
    m = sum(w for o, w in mine.pairs if isinstance(o, _Countered))
    m2 = sum(w for o, w in theirs.pairs if isinstance(o, _Countered))
    weighted: list[tuple[Moment | Ending, int]] = []
    for o, w in mine.pairs:
        if not isinstance(o, _Countered):
            weighted.append((o, w * d2))
    for o, w in theirs.pairs:
        if not isinstance(o, _Countered):
            weighted.append((o, m * w))
    return Weights.merged(d * d2 - m * m2, weighted)


def _closings(
    closing: Sequence[LastingEffect], fighters: tuple[P3Fighter, P3Fighter]
) -> tuple[Closing, ...]:
    """The effects an action's start handed over (``Fight.begin_action``), as a state holds them."""
    first = fighters[0].state
    return tuple(sorted((0 if e.victim is first else 1, e.exposed, e.shaken) for e in closing))


def _moved_up(after: tuple[DuelState, bool] | Ending, me: int) -> tuple[DuelState, bool] | Ending:
    """The round's end for a turn that skipped: ``me`` moves up a place (``initiative.move_up``).

    In a duel only the lower in initiative skips (``round.skips_turn``), and it is not out.
    """
    if isinstance(after, Ending):
        return after
    state, skipped = after
    return (state._replace(first=me) if skipped else state), False


def _fight_for(fighters: tuple[P3Fighter, P3Fighter], old: RoundFight) -> RoundFight:
    """A fresh fight around the duel's fighters (the last one ended); its dice fail if rolled."""
    combat = Combat(list(fighters), old.combat.side_names, Dice.from_floats([]), 1e9)
    return RoundFight(combat, old.rules)


def duel(scenario: Scenario) -> Duel:
    """The scenario as an exact Proposition Three melee duel.

    Raises:
        NotExact: the scenario is not a duel the chain plays (says why).
    """
    prepared = scenario.system.prepare(scenario)
    if not isinstance(prepared, Prop3Prepared):
        raise NotExact("the Proposition Three chain plays rules: prop3 in rounds")
    require_duel((side for _, side, *_ in prepared.roster), "Proposition Three")
    spawned = prepared.spawn(Dice.from_floats([]))
    fighters = (spawned[0], spawned[1])
    combat = Combat(list(fighters), scenario.side_names, Dice.from_floats([]), 1e9)
    fight = RoundFight(combat, prepared.rules)
    for f in fighters:
        _check(f)
    a, b = fighters
    if fight.distance(a, b) > prepared.rules.melee_range:
        raise NotExact(
            f"{a.name} and {b.name} start {fight.distance(a, b):g} feet apart, beyond melee "
            f"range (the chain plays a duel in melee from the start)"
        )
    return Duel(
        fighters=fighters,
        fight=fight,
        every_round=prepared.every_round,
        no_dice=prepared.no_dice,
        steps=int(scenario.time_limit_s / prepared.round_s + 1e-9),
        step_s=Fraction(prepared.round_s).limit_denominator(10**6),
    )


def _check(f: P3Fighter) -> None:
    """Refuse what the duel chain does not play: a missile weapon."""
    profile = f.state.profile
    if profile.missile is not None:
        raise NotExact(f"{f.name} carries a missile weapon (the chain plays melee only)")


#: What the exact engine calls to build this rule system's chain.
BUILD: Callable[[Scenario], Duel] = duel
