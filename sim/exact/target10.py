"""The exact Target 10 duel: a chain over rounds, each round's law from the rules' own functions.

A duel of two combatants who hold their ground and Kill (or Subdue) without moving is, at each
round's start, nothing but their hit points and luck points. A round (Target 10, "Combat Tests"
and RULINGS part B, as :mod:`sim.rules.target10.round` plays it): both roll 1d6 + DEX bonus; the
higher score attacks first and its hit lands at once (a target taken out does not strike back);
equal scores attack together, both read the state before the step, and their hits land together.
Every piece is the engine's own: the initiative steps
(:func:`~sim.rules.target10.round.roll_initiative`, :func:`~sim.rules.target10.round.
initiative_steps`), the attack
(:func:`~sim.rules.target10.exchange.distribution`, the law of the very ``resolve_attack`` the
round calls, luck spent to hit included), a lone blow's landing and the
target's luck (:func:`~sim.rules.target10.exchange.blow_lands`), simultaneous blows
(:func:`~sim.rules.target10.luck.cancel_hits`, :func:`~sim.rules.target10.actions.take_damage`).
The inputs of each attack are the round's own (:func:`~sim.rules.target10.attacks.exchange_for`
on fighters declared as the round declares them).

A fight any other way (movement, other actions, more combatants, ranged weapons, rule-based
tactics) is not a chain here: :func:`duel` raises :class:`NotExact` saying why.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from typing import NamedTuple

from sim.engine.combat import Combat
from sim.engine.dice import Dice, DiceExpr
from sim.exact.chain import STATE_CAP, Ending
from sim.exact.errors import NotExact, require_duel
from sim.exact.weights import Weights
from sim.rules.acs.percentile import damage_law
from sim.rules.target10.actions import DAMAGING, KILL, take_damage
from sim.rules.target10.attacks import exchange_for
from sim.rules.target10.combatant import T10Fighter
from sim.rules.target10.exchange import (
    AttackInput,
    AttackOutcome,
    blow_lands,
    dice_law,
    distribution,
)
from sim.rules.target10.luck import cancel_hits
from sim.rules.target10.movements import HOLD
from sim.rules.target10.round import initiative_steps, roll_initiative
from sim.rules.target10.state import ROUND_S, RoundState
from sim.rules.target10.system import Target10Prepared
from sim.scenario.schema import Scenario


class DuelState(NamedTuple):
    """A duel at a round's start: each combatant's hit points and luck points.

    Flat (four numbers), because the chain hashes a state for every transition.
    """

    hp0: int
    hp1: int
    luck0: int
    luck1: int

    @property
    def hp(self) -> tuple[int, int]:
        """Both hit points, side 0 first."""
        return self.hp0, self.hp1

    @property
    def luck(self) -> tuple[int, int]:
        """Both luck points, side 0 first."""
        return self.luck0, self.luck1

    @classmethod
    def of(cls, hp: list[int] | tuple[int, int], luck: list[int] | tuple[int, int]) -> DuelState:
        """The state of these hit points and luck points."""
        return cls(hp[0], hp[1], luck[0], luck[1])


#: A round's end as plain numbers, ``(hp0, hp1, luck0, luck1)``, before it is read
#: (:meth:`Duel._settled`): hit points at 0 or below are out.
Raw = tuple[int, int, int, int]


class Blows(NamedTuple):
    """One attack without luck on a target's hit points: the law of what it leaves them.

    Weights over ``denominator``: ``miss``, no blow; ``alone``, the hit points a blow landing
    alone leaves; ``both``, those a blow landing together with the other's hit leaves;
    ``law``, the attack's whole law as a lone attack (a miss leaves the hit points as they are).
    """

    denominator: int
    miss: int
    alone: tuple[tuple[int, int], ...]
    both: tuple[tuple[int, int], ...]
    law: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Side:
    """One duellist as the chain sees it: its attack on the other, its luck policy."""

    attack: AttackInput
    dex_mod: int
    luck_policy: str


@dataclass(frozen=True)
class Duel:
    """A Target 10 duel ready for the chain: the start's law and a round's law.

    Attributes:
        sides: the two duellists, side 0 then side 1.
        hp: each one's hit point roll.
        luck: each one's luck points at the start.
        zero_hp: the reading of 0 hit points (option ``zero_hp``).
        steps: the rounds the time limit allows.
    """

    sides: tuple[Side, Side]
    hp: tuple[DiceExpr, DiceExpr]
    luck: tuple[int, int]
    zero_hp: str
    steps: int
    orders: Weights[tuple[tuple[int, ...], ...]]
    _lones: dict[tuple[int, int, int, int], tuple[int, tuple[tuple[int, int, int, int], ...]]] = (
        field(default_factory=dict, init=False, repr=False, compare=False)
    )
    _attack_laws: dict[tuple[int, int, int], tuple[int, tuple[tuple[int, int, bool, int], ...]]] = (
        field(default_factory=dict, init=False, repr=False, compare=False)
    )
    _hurts: dict[tuple[int, int, int, int, int], tuple[int, int]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _blows: dict[tuple[int, int], Blows] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _luckless_ends: dict[tuple[int, int], DuelState | Ending] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    #: Game seconds of one step (a round).
    step_s = Fraction(ROUND_S)

    def cap(self) -> int:
        """The chain's own cap: the solver's (a duel's state costs little)."""
        return STATE_CAP

    def estimate(self) -> int:
        """The number of live states the chain may meet (every hit point and luck pair)."""
        spans = [h.maximum + 1 for h in self.hp]
        return spans[0] * spans[1] * (self.luck[0] + 1) * (self.luck[1] + 1)

    def start(self) -> Weights[DuelState | Ending]:
        """The law of the first round's state: both hit point rolls (in scenario order).

        Each roll's law is the sum of its dice as ``DiceExpr.roll`` adds them
        (:func:`~sim.rules.acs.percentile.damage_law`, one die at a time, not every face of
        every die at once); the pairs are weighed in whole numbers.
        """
        first = Weights.of(damage_law(self.hp[0]))
        second = Weights.of(damage_law(self.hp[1]))
        l0, l1 = self.luck
        return Weights(
            first.denominator * second.denominator,
            tuple(
                (DuelState(a, b, l0, l1), v * w) for a, v in first.pairs for b, w in second.pairs
            ),
        )

    def timeout(self, state: DuelState) -> Ending:
        """Both still standing at the time limit: a draw."""
        hp = state.hp
        return Ending(None, "time_limit", (1, 1), (max(hp[0], 0), max(hp[1], 0)))

    def step(self, state: DuelState) -> Weights[DuelState | Ending]:
        """The law of what one round leaves: a state, or the fight's ending.

        A round without luck points on either side goes by :meth:`_luckless`.

        Each order of the round's steps gives the law of the round's end as whole numbers over
        a denominator of its own (:meth:`_in_turn`, :meth:`_together`), each outcome as plain
        ``(hp0, hp1, luck0, luck1)`` numbers while they are added up; the orders' weights mix
        them, and each distinct outcome is read once at the end (:meth:`_settled`).
        """
        if not (state.luck0 or state.luck1):
            return self._luckless(state)
        parts = [
            self._together(state) if len(order) == 1 else self._in_turn(state, order[0][0])
            for order, _ in self.orders.pairs
        ]
        common = math.lcm(*(d for d, _ in parts))
        table: dict[Raw, int] = {}
        for (_, w), (d, law) in zip(self.orders.pairs, parts, strict=True):
            up = w * (common // d)
            for raw, v in law.items():
                table[raw] = table.get(raw, 0) + v * up
        settled = self._settled
        return Weights.merged(
            self.orders.denominator * common, ((settled(raw), v) for raw, v in table.items())
        )

    def _luckless(self, state: DuelState) -> Weights[DuelState | Ending]:
        """A round in which neither has a luck point, so that neither can gain or spend one.

        Then each attack reads nothing the other does: its blow lands alone, or together with
        the other's hit, on the target's hit points at the round's start, and a blow back is
        the same whatever the first blow did, unless it took the attacker out. So the round's
        law is combined from each one's blows on the other (:meth:`blows_on`, worked out once
        per target's hit points) as the orders combine them, not from every pair of attacks.
        """
        h0, h1 = state.hp0, state.hp1
        on1 = self.blows_on(0, h1)  # 0's attack on 1
        on0 = self.blows_on(1, h0)
        together, first0, first1 = self.order_weights()
        table: dict[tuple[int, int], int] = {}
        get = table.get
        if together:  # both read the state before the step
            p = together
            table[h0, h1] = p * on1.miss * on0.miss
            for b, v in on1.alone:
                table[h0, b] = get((h0, b), 0) + p * v * on0.miss
            for a, v in on0.alone:
                table[a, h1] = get((a, h1), 0) + p * v * on1.miss
            for a, v in on0.both:
                up = p * v
                for b, u in on1.both:
                    table[a, b] = get((a, b), 0) + up * u
        # One after the other: the first blow, then the blow back unless it took the other out.
        # Both orders give each pair that leaves the second to strike standing (a > 0 for 1
        # first, b > 0 for 0 first), so those pairs are weighed once for both.
        for b, v in on1.law:  # 0 first: b; then 1 back on 0: a
            if b <= 0:
                if first0:
                    table[h0, b] = get((h0, b), 0) + first0 * v * on0.denominator
                continue
            for a, u in on0.law:
                w = first0 + first1 if a > 0 else first0
                if w:
                    table[a, b] = get((a, b), 0) + w * v * u
        if first1:
            for a, u in on0.law:  # 1 first: what only this order gives
                if a <= 0:
                    table[a, h1] = get((a, h1), 0) + first1 * u * on1.denominator
                    continue
                for b, v in on1.law:
                    if b <= 0:
                        table[a, b] = get((a, b), 0) + first1 * u * v
        # Hit points at 0 or below are kept as 0, so each pair is a distinct state or ending.
        # Each pair is read once for the whole solve (:meth:`_settled`).
        outcomes = self._luckless_ends
        law: list[tuple[DuelState | Ending, int]] = []
        for pair, v in table.items():
            if v:
                outcome = outcomes.get(pair)
                if outcome is None:
                    outcome = outcomes[pair] = self._settled((*pair, 0, 0))
                law.append((outcome, v))
        return Weights(self.orders.denominator * on1.denominator * on0.denominator, tuple(law))

    def order_weights(self) -> tuple[int, int, int]:
        """The weights of the round's orders: both together, 0 first, 1 first."""
        together = first0 = first1 = 0
        for order, p in self.orders.pairs:
            if len(order) == 1:
                together += p
            elif order[0][0] == 0:
                first0 += p
            else:
                first1 += p
        return together, first0, first1

    def blows_on(self, me: int, hp: int) -> Blows:
        """``me``'s attack on the other, at ``hp`` and without luck, as :class:`Blows`.

        Each blow lands by the round's own functions (:meth:`_landed` alone, :meth:`_hurt`
        together with the other's hit); hit points at 0 or below are kept as 0 (out, as
        :meth:`_settled` reads them). Worked out once for the whole solve.
        """
        found = self._blows.get((me, hp))
        if found is None:
            d, attacks = self._attacks(me, 0, hp)
            miss = 0
            alone: dict[int, int] = {}
            both: dict[int, int] = {}
            for effect, amount, _lucky, w in attacks:  # no luck: never lucky
                if not effect:
                    miss += w
                    continue
                left = max(self._landed(1 - me, effect, amount, hp, 0)[0], 0)
                alone[left] = alone.get(left, 0) + w
                left = max(self._hurt(1 - me, hp, 0, effect, amount)[0], 0)
                both[left] = both.get(left, 0) + w
            law = dict(alone)
            if miss:
                law[hp] = law.get(hp, 0) + miss
            found = self._blows[me, hp] = Blows(
                d, miss, tuple(alone.items()), tuple(both.items()), tuple(law.items())
            )
        return found

    def _in_turn(self, state: DuelState, a: int) -> tuple[int, dict[Raw, int]]:
        """``a`` attacks alone first, then the other strikes back alone unless taken out.

        Each hit lands at once (``land_blow``). The law is over ``d1 * d2``: the first blow's
        denominator and the least common multiple of the blows back's.
        """
        b = 1 - a
        hp, luck = state.hp, state.luck
        ha = hp[a]
        d1, first = self._lone(a, hp[b], luck[b], luck[a])
        backs = [self._lone(b, ha, la, lb) if hb > 0 else (1, ()) for hb, lb, la, _ in first]
        d2 = math.lcm(*(d for d, _ in backs))
        law: dict[Raw, int] = {}  # as (hp_a, hp_b, luck_a, luck_b) until the end
        for (hb, lb, la, w1), (d, back) in zip(first, backs, strict=True):
            if hb <= 0:  # taken out: no blow back
                raw = (ha, hb, la, lb)
                law[raw] = law.get(raw, 0) + w1 * d2
                continue
            up = w1 * (d2 // d)
            for ha2, la2, lb2, w2 in back:
                raw = (ha2, hb, la2, lb2)
                law[raw] = law.get(raw, 0) + w2 * up
        if a == 1:
            law = {(h1, h0, l1, l0): w for (h0, h1, l0, l1), w in law.items()}
        return d1 * d2, law

    def _lone(
        self, me: int, hp: int, luck: int, my_luck: int
    ) -> tuple[int, tuple[tuple[int, int, int, int], ...]]:
        """The law of ``me``'s attack alone on a target with ``hp`` and ``luck``.

        As ``(target's hp, target's luck, me's luck, weight)`` over the denominator given: luck
        spent to hit, the blow landed or ignored (:func:`~sim.rules.target10.exchange.
        blow_lands`, as ``land_blow`` lands it). Worked out once for the whole solve.
        """
        key = (me, hp, luck, my_luck)
        found = self._lones.get(key)
        if found is None:
            d, attacks = self._attacks(me, my_luck, hp)
            weighted: dict[tuple[int, int, int], int] = {}
            for effect, amount, lucky, w in attacks:
                after = (*self._landed(1 - me, effect, amount, hp, luck), my_luck - lucky)
                weighted[after] = weighted.get(after, 0) + w
            found = self._lones[key] = (d, tuple((*o, w) for o, w in weighted.items()))
        return found

    def _attacks(
        self, me: int, luck: int, target_hp: int
    ) -> tuple[int, tuple[tuple[int, int, bool, int], ...]]:
        """``me``'s attack as (effect, damage, luck spent to hit, weight), by its law."""
        attack = self.sides[me].attack
        # The target's hit points matter only to an attacker who may spend luck to hit.
        if not (luck > 0 and attack.succeed.spends):
            target_hp = 0
        key = (me, luck, target_hp)
        found = self._attack_laws.get(key)
        if found is None:
            law = attack_law(attack, luck, target_hp)
            found = (law.denominator, tuple((*o, w) for o, w in law.pairs))
            self._attack_laws[key] = found
        return found

    def _landed(self, them: int, effect: int, amount: int, hp: int, luck: int) -> tuple[int, int]:
        """A lone blow on ``them``: its hit points and luck after it (``effect`` 0: none)."""
        if not effect:
            return hp, luck
        landing = blow_lands(effect, amount, hp, luck, self.sides[them].luck_policy, self.zero_hp)
        return (hp, luck - 1) if landing.ignored else (landing.hp, luck)

    def _together(self, state: DuelState) -> tuple[int, dict[Raw, int]]:
        """Equal scores: both attack the state before the step; the hits land together.

        One hit alone lands as a lone blow (``effects.land`` of one effect); two land together
        (:meth:`_hurt`). Over both attacks' denominators.
        """
        h0, h1, l0, l1 = state
        d0, first = self._attacks(0, l0, h1)
        d1, second = self._attacks(1, l1, h0)
        law: dict[Raw, int] = {}
        for e0, a0, k0, w0 in first:
            for e1, a1, k1, w1 in second:
                if e0 and e1:
                    after0 = self._hurt(0, h0, l0 - k0, e1, a1)
                    after1 = self._hurt(1, h1, l1 - k1, e0, a0)
                else:
                    after0 = self._landed(0, e1, a1, h0, l0 - k0)
                    after1 = self._landed(1, e0, a0, h1, l1 - k1)
                raw = (after0[0], after1[0], after0[1], after1[1])
                law[raw] = law.get(raw, 0) + w0 * w1
        return d0 * d1, law

    def _hurt(self, me: int, hp: int, luck: int, effect: int, amount: int) -> tuple[int, int]:
        """One of two blows landing together on ``me`` (``effects.land``): luck may cancel it.

        Its hit points and luck after it, worked out once for the whole solve.
        """
        key = (me, hp, luck, effect, amount)
        found = self._hurts.get(key)
        if found is None:
            if luck > 0 and cancel_hits(hp, [amount], luck, self.sides[me].luck_policy):
                found = (hp, luck - 1)
            else:
                kill, subdue = (amount, 0) if effect == KILL else (0, amount)
                found = (take_damage(hp, kill, subdue, self.zero_hp)[0], luck)
            self._hurts[key] = found
        return found

    def _settled(self, raw: Raw) -> DuelState | Ending:
        """The round's end: the fight goes on from its state, or its ending.

        A combatant at 0 hit points or below has left the fight (dead below 0, at 0 dead or
        unconscious: a Kill or Subdue that leaves 0 puts the target out either way,
        :func:`~sim.rules.target10.actions.take_damage`); hit points only fall by a blow.
        """
        h0, h1 = raw[0], raw[1]
        if h0 > 0 and h1 > 0:
            return DuelState._make(raw)
        if h0 <= 0 and h1 <= 0:
            return MUTUAL
        return victory(0, h0) if h1 <= 0 else victory(1, h1)


#: Both out in the same round.
MUTUAL = Ending(None, "mutual", (0, 0), (0, 0))


@cache
def victory(winner: int, hp: int) -> Ending:
    """Side ``winner`` standing with ``hp`` hit points, the other out."""
    survivors = (1, 0) if winner == 0 else (0, 1)
    return Ending(winner, "victory", survivors, (hp, 0) if winner == 0 else (0, hp))


@lru_cache(maxsize=4096)
def attack_law(attack: AttackInput, luck: int, target_hp: int) -> Weights[tuple[int, int, bool]]:
    """The exchange's law as a duel reads each outcome: effect (0: none), damage, luck to hit.

    The law is :func:`~sim.rules.target10.exchange.distribution`, the round's own attack.
    """

    def read(outcome: AttackOutcome) -> tuple[int, int, bool]:
        effect = outcome.effect if outcome.hit and outcome.effect in DAMAGING else 0
        return effect, outcome.damage if effect else 0, outcome.lucky

    return Weights.of(distribution(attack, luck, target_hp).map(read))


def scratch_round(
    scenario: Scenario, prepared: Target10Prepared
) -> tuple[list[T10Fighter], RoundState]:
    """The roster as the engine's fighters, in a round state of their own; no die is rolled.

    Each fighter is checked and set to its fixed declaration; the chains call the round's own
    functions on it.

    Raises:
        NotExact: a combatant the chains do not play (:func:`check_fighter`).
    """
    fighters = [
        T10Fighter(name, side, index, 1, stats, position)
        for index, (name, side, _hp, stats, position, _ground) in enumerate(prepared.roster)
    ]
    for f, (*_, on_ground) in zip(fighters, prepared.roster, strict=True):
        check_fighter(f, on_ground)
        f.move, f.act = f.stats.fixed
    combat = Combat(fighters, scenario.side_names, Dice(0, 0), scenario.time_limit_s)
    rs = RoundState(combat, prepared.rules)
    return fighters, rs


def duel(scenario: Scenario) -> Duel:
    """The scenario as an exact Target 10 duel.

    Raises:
        NotExact: the scenario is not a duel the chain plays (says why).
    """
    prepared = scenario.system.prepare(scenario)
    if not isinstance(prepared, Target10Prepared):
        raise NotExact("a Target 10 test outside combat is not a fight")
    require_duel((side for _, side, *_ in prepared.roster), "Target 10")
    fighters, rs = scratch_round(scenario, prepared)
    sides = []
    for me in (0, 1):
        f, t = fighters[me], fighters[1 - me]
        attack = exchange_for(rs, f, t, None, 0)
        if attack is None or attack.weapon.ranged:
            raise NotExact(f"{f.name} does not fight {t.name} hand to hand from where they stand")
        sides.append(Side(attack, f.stats.dex_mod, f.stats.luck_policy))
    return Duel(
        sides=(sides[0], sides[1]),
        hp=(prepared.roster[0][2], prepared.roster[1][2]),
        luck=(fighters[0].luck, fighters[1].luck),
        zero_hp=prepared.rules.test.zero_hp,
        steps=int(scenario.time_limit_s // ROUND_S + 1e-9),
        orders=initiative_law(fighters),
    )


def check_fighter(f: T10Fighter, on_ground: bool) -> None:
    """Refuse what the duel chain does not play: movement, other actions, changing tactics."""
    stats = f.stats
    if stats.decide is not None:
        raise NotExact(f"{f.name} decides by rules of tactics (the chain needs one declaration)")
    movement, act = stats.fixed
    if movement != HOLD:
        raise NotExact(f"{f.name} moves (the chain plays duels that hold their ground)")
    if act not in DAMAGING:
        raise NotExact(f"{f.name}'s action is not Kill or Subdue")
    if on_ground:
        raise NotExact(f"{f.name} starts on the ground")


def initiative_law(fighters: list[T10Fighter]) -> Weights[tuple[tuple[int, ...], ...]]:
    """The law of a round's initiative steps: the round's own roll and grouping.

    1d6 + DEX bonus each, highest first, equal scores in one step
    (:func:`~sim.rules.target10.round.roll_initiative`,
    :func:`~sim.rules.target10.round.initiative_steps`), as positions in ``fighters``.
    """

    def order(dice: Dice) -> tuple[tuple[int, ...], ...]:
        roll_initiative(fighters, dice)
        return tuple(tuple(f.index for f in step) for step in initiative_steps(fighters))

    return Weights.of(dice_law(order))


#: What the exact engine calls to build this rule system's chain.
BUILD: Callable[[Scenario], Duel] = duel
