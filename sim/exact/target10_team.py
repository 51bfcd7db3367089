"""The exact Target 10 fight of up to two combatants a side who hold their ground.

At a round's start such a fight is each member's hit points, luck points, whether it is able,
asleep (and for how many more rounds) or dead, whom it targets and whether it lies on the ground
(a sleeper wakes on the ground, Target 10 text, "Actions": Subdue; it holds its ground, so it
stays there). A round (:mod:`sim.rules.target10.round`) is played from that state by the rules'
own functions on fighters loaded with it, each answer kept for the whole solve:

- the sleepers whose rounds are over wake (:func:`~sim.rules.target10.conditions.wake`'s
  reading: able again, target forgotten);
- each able member declares against its target or a new one by its tactics
  (:func:`~sim.rules.target10.round.declared_target`, over every die a ``random`` choice rolls);
- the initiative steps (:func:`~sim.exact.target10.initiative_law`: the round's
  ``roll_initiative`` and ``initiative_steps``) for the able members;
- in each step, each attacker's opponent (:func:`~sim.rules.target10.attacks.opponent`: a new
  target when its own went out earlier in the round), the attack's input
  (:func:`~sim.rules.target10.attacks.exchange_for`, once per attacker, defender and their
  ground) and its exact law (:func:`~sim.exact.target10.attack_law`, once per input, luck and
  hit points it reads); a lone attacker's blow lands at once
  (:func:`~sim.rules.target10.exchange.blow_lands`), a step's blows land together
  (:func:`~sim.rules.target10.luck.cancel_hits`, then
  :func:`~sim.rules.target10.actions.take_damage` on Kill and Subdue damage, as
  :func:`~sim.rules.target10.effects.land` does);
- a member out unconscious sleeps the rounds its ``unconscious_rounds`` roll gives
  (:func:`~sim.rules.target10.conditions.rounds_asleep`); the fight ends when a side has nobody
  able (``Combat.check_end``: nothing a later step does can change that).

What the chain does itself is bookkeeping: the countdown of a sleeper's rounds, and forgetting
what cannot matter any more (a dead member's hit points, the target of a member facing one
enemy), so that equal fights are one state.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from itertools import product
from typing import NamedTuple

from sim.engine.combat import Combat
from sim.engine.dice import Dice, DiceExpr
from sim.engine.tactics import random_target
from sim.exact.chain import Ending
from sim.exact.errors import NotExact
from sim.exact.target10 import Duel, attack_law, check_fighter, duel, initiative_law
from sim.exact.weights import Weights
from sim.rules.acs.percentile import damage_law
from sim.rules.target10.actions import DEAD, KILL, UNCONSCIOUS, take_damage
from sim.rules.target10.attacks import exchange_for, opponent
from sim.rules.target10.combatant import T10Fighter
from sim.rules.target10.conditions import hamper, rounds_asleep
from sim.rules.target10.exchange import AttackInput, blow_lands, dice_law
from sim.rules.target10.luck import cancel_hits
from sim.rules.target10.round import declared_target
from sim.rules.target10.state import ROUND_S, RoundState
from sim.rules.target10.system import Target10Prepared
from sim.scenario.schema import Scenario

#: A member's ``out``: able to fight, asleep (unconscious, to wake), dead (or never to wake).
ABLE, ASLEEP, GONE = 0, 1, 2
#: A sleeper's ``sleep`` in the round it fell: its rounds asleep are rolled at the round's end.
FALLEN = -1
#: No target (none chosen yet, or forgotten).
NONE = -1

#: The most states the team chain solves (about 10 s of CPU at its cost per state; see docs).
TEAM_CAP = 20_000


class Member(NamedTuple):
    """One combatant at a round's start (or within a round)."""

    hp: int
    luck: int
    out: int
    sleep: int
    target: int
    ground: bool


#: A dead member (or one who will never wake): nothing about it matters any more.
_GONE = Member(0, 0, GONE, 0, NONE, False)

State = tuple[Member, ...]
Order = tuple[tuple[int, ...], ...]
#: A step in progress: the members, and the blows waiting to land (target, effect, damage).
Pending = tuple[State, tuple[tuple[int, int, int], ...]]


class Team:
    """A Target 10 fight of up to two a side, ready for the chain.

    Args:
        rs: a round state over scratch fighters (loaded with a state to ask the rules).
        hp: each member's hit point roll.
        zero_hp: the reading of 0 hit points (option ``zero_hp``).
        steps: the rounds the time limit allows.
        asleep: the law of a sleeper's rounds asleep; None when nobody wakes (``wake_up``).
    """

    #: Game seconds of one step (a round).
    step_s = Fraction(ROUND_S)

    def __init__(
        self,
        rs: RoundState,
        hp: tuple[DiceExpr, ...],
        zero_hp: str,
        steps: int,
        asleep: Weights[int] | None,
    ) -> None:
        self.rs = rs
        self.fighters: list[T10Fighter] = rs.fighters
        self.sides = tuple(f.side for f in self.fighters)
        self.hp = hp
        self.luck = tuple(f.luck for f in self.fighters)
        self.policies = tuple(f.stats.luck_policy for f in self.fighters)
        self.zero_hp = zero_hp
        self.steps = steps
        self.asleep = asleep
        self._inputs: dict[tuple[int, int, bool, bool], AttackInput] = {}
        self._orders: dict[tuple[int, ...], Weights[Order]] = {}
        self._declared: dict[State, Weights[State]] = {}
        self._chosen: dict[tuple[int, State], Weights[int]] = {}
        self._plays: dict[tuple[State, Order], Weights[State]] = {}
        self._steps: dict[tuple[State, tuple[int, ...]], Weights[State]] = {}

    # -- the chain's protocol ----------------------------------------------------------------

    def estimate(self) -> int:
        """At most how many live states the chain meets (before solving it).

        Every member able (at each hit point from 1 to its dice's maximum, or woken: at 0 and
        on the ground, since hit points only fall), asleep (each count of rounds left) or gone,
        with each luck left;
        an able member facing two enemies not gone targets either (when targets can differ
        between fights: a ``random`` choice or retargeting, rolled hit points, sleepers).
        """
        wakes = self.asleep is not None
        sleeps = max(o for o, _ in self.asleep.pairs) + 1 if self.asleep is not None else 0
        counts = [
            ((dice.maximum + wakes) * (luck + 1), sleeps * (luck + 1), 1)
            for dice, luck in zip(self.hp, self.luck, strict=True)
        ]
        varied = wakes or any(
            d.count and d.sides > 1 for d in self.hp
        ) or any(f.stats.each_action or f.stats.choose is random_target for f in self.fighters)
        total = 0
        for outs in product((ABLE, ASLEEP, GONE), repeat=len(counts)):
            n = math.prod(c[o] for c, o in zip(counts, outs, strict=True))
            if varied:
                for i, o in enumerate(outs):
                    standing = sum(
                        1 for j, p in enumerate(outs) if self.sides[j] != self.sides[i] and p != GONE
                    )
                    n *= 2 if o == ABLE and standing > 1 else 1
            total += n
        return total

    def start(self) -> Weights[State]:
        """The law of the first round's state: every hit point roll (in scenario order)."""
        law: Weights[State] = Weights.certain(())
        for dice, luck in zip(self.hp, self.luck, strict=True):
            rolls = Weights.of(damage_law(dice))
            law = law.bind(
                lambda s, rolls=rolls, luck=luck: rolls.map(
                    lambda hp: (*s, Member(hp, luck, ABLE, 0, NONE, False))
                )
            )
        return law

    def timeout(self, state: State) -> Ending:
        """Still fighting at the time limit: a draw (sleepers are not standing)."""
        survivors, hp_left = self._standing(state)
        return Ending(None, "time_limit", survivors, hp_left)

    def step(self, state: State) -> Weights[State | Ending]:
        """The law of what one round leaves: a state, or the fight's ending."""
        woken = tuple(
            Member(m.hp, m.luck, ABLE, 0, NONE, m.ground) if m.out == ASLEEP and m.sleep == 0 else m
            for m in state
        )
        return self._declare(woken).bind(self._round)

    # -- a round -----------------------------------------------------------------------------

    def _round(self, state: State) -> Weights[State | Ending]:
        able = tuple(i for i, m in enumerate(state) if m.out == ABLE)
        orders = self._orders.get(able)
        if orders is None:
            orders = self._orders[able] = initiative_law([self.fighters[i] for i in able])
        return orders.bind(lambda order: self._play(state, order)).bind(self._settle)

    def _play(self, state: State, order: Order) -> Weights[State]:
        """The state after the steps ``order`` (each step's law worked out once)."""
        if not order or self._over(state):
            return Weights.certain(state)
        law = self._plays.get((state, order))
        if law is None:
            rest = order[1:]
            law = self._step(state, order[0]).bind(lambda s: self._play(s, rest))
            self._plays[state, order] = law
        return law

    def _step(self, state: State, step: tuple[int, ...]) -> Weights[State]:
        """One initiative step: its able members attack, then their blows land together."""
        law = self._steps.get((state, step))
        if law is None:
            members = [i for i in step if state[i].out == ABLE]
            alone = len(members) == 1
            pending: Weights[Pending] = Weights.certain((state, ()))
            for i in members:
                pending = pending.bind(lambda p, i=i: self._attack(p, i, alone))
            law = self._steps[state, step] = pending.map(self._land)
        return law

    def _attack(self, pending: Pending, me: int, alone: bool) -> Weights[Pending]:
        """``me`` attacks its opponent of the moment (``attacks.opponent``)."""
        state, blows = pending
        return self._opponent(state, me).bind(
            lambda them: self._strike(state, blows, me, them, alone)
        )

    def _strike(
        self, state: State, blows: tuple[tuple[int, int, int], ...], me: int, them: int,
        alone: bool,
    ) -> Weights[Pending]:
        """``me`` attacks ``them``: luck spent to hit, a lone blow landed or kept to land."""
        if them == NONE:
            return Weights.certain((_with(state, me, target=NONE), blows))
        m, t = state[me], state[them]
        attack = self._input(me, them, m.ground, t.ground)
        # The target's hit points matter only to an attacker who may spend luck to hit.
        weighs = m.luck > 0 and attack.succeed.spends
        law = attack_law(attack, m.luck, t.hp if weighs else 0)
        out: list[tuple[Pending, int]] = []
        for (effect, amount, lucky), v in law.pairs:
            after = _with(state, me, target=them, luck=m.luck - lucky)
            if effect and alone:
                out.append(((self._blow(after, them, effect, amount), blows), v))
            else:
                out.append(((after, (*blows, (them, effect, amount)) if effect else blows), v))
        return Weights.merged(law.denominator, out)

    def _land(self, pending: Pending) -> State:
        """The step's blows land: alone by ``blow_lands``, together as ``effects.land``."""
        state, blows = pending
        if not blows:
            return state
        if len(blows) == 1:
            them, effect, amount = blows[0]
            return self._blow(state, them, effect, amount)
        by_target: dict[int, list[tuple[int, int]]] = {}
        for them, effect, amount in blows:
            by_target.setdefault(them, []).append((effect, amount))
        for them, hits in by_target.items():
            t = state[them]
            luck = t.luck
            if luck > 0:
                cancelled = cancel_hits(t.hp, [a for _, a in hits], luck, self.policies[them])
                luck -= len(cancelled)
                hits = [h for k, h in enumerate(hits) if k not in cancelled]
            kill = sum(a for e, a in hits if e == KILL)
            subdue = sum(a for e, a in hits if e != KILL)
            after, how = take_damage(t.hp, kill, subdue, self.zero_hp)
            state = _with(state, them, luck=luck)
            state = self._hurt(state, them, after, how)
        return state

    def _blow(self, state: State, them: int, effect: int, amount: int) -> State:
        """One Kill or Subdue landing alone on ``them``: its luck may ignore it."""
        t = state[them]
        landing = blow_lands(effect, amount, t.hp, t.luck, self.policies[them], self.zero_hp)
        if landing.ignored:
            return _with(state, them, luck=t.luck - 1)
        return self._hurt(state, them, landing.hp, landing.out)

    def _hurt(self, state: State, them: int, hp: int, how: str | None) -> State:
        """``them`` is left with ``hp``, and out ``how`` (dead, or asleep to wake)."""
        if how is None:
            return _with(state, them, hp=hp)
        if how == DEAD or (how == UNCONSCIOUS and self.asleep is None):
            member = _GONE
        else:
            member = Member(hp, state[them].luck, ASLEEP, FALLEN, NONE, True)
        return (*state[:them], member, *state[them + 1:])

    def _settle(self, state: State) -> Weights[State | Ending]:
        """The round's end: the fight's ending, or the next round's state."""
        if self._over(state):
            survivors, hp_left = self._standing(state)
            standing = [side for side, n in enumerate(survivors) if n]
            if standing:
                return Weights.certain(Ending(standing[0], "victory", survivors, hp_left))
            return Weights.certain(Ending(None, "mutual", survivors, hp_left))
        law: Weights[State] = Weights.certain(())
        asleep = self.asleep
        for m in state:
            if m.out == ASLEEP and m.sleep == FALLEN:
                assert asleep is not None  # only a sleeper who wakes is kept asleep
                rolls = asleep.map(lambda k, m=m: m._replace(sleep=k))
                law = law.bind(lambda s, rolls=rolls: rolls.map(lambda fallen: (*s, fallen)))
            else:
                kept = m._replace(sleep=m.sleep - 1) if m.out == ASLEEP else m
                law = law.map(lambda s, kept=kept: (*s, kept))
        return law.map(self._forget)

    def _forget(self, state: State) -> State:
        """Forget the targets that cannot matter next round (see the module)."""
        able = [m.out == ABLE or (m.out == ASLEEP and m.sleep == 0) for m in state]
        members = []
        for i, m in enumerate(state):
            if m.target != NONE:
                facing = sum(1 for j in range(len(state)) if able[j] and self.sides[j] != self.sides[i])
                if not able[i] or facing < 2 or not able[m.target]:
                    m = m._replace(target=NONE)
            members.append(m)
        return tuple(members)

    def _over(self, state: State) -> bool:
        """Whether at most one side has anyone able (the fight is over)."""
        return len({self.sides[i] for i, m in enumerate(state) if m.out == ABLE}) < 2

    def _standing(self, state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Per side, its able members and their hit points above 0 (the outcome record's)."""
        survivors, hp_left = [0, 0], [0, 0]
        for side, m in zip(self.sides, state, strict=True):
            if m.out == ABLE:
                survivors[side] += 1
                hp_left[side] += max(m.hp, 0)
        return (survivors[0], survivors[1]), (hp_left[0], hp_left[1])

    # -- the rules' answers, on fighters loaded with a state ------------------------------------

    def _load(self, state: State, dice: Dice) -> None:
        """The scratch fighters as ``state`` has them, rolling ``dice``."""
        rs = self.rs
        rs.dice = dice
        fighters = self.fighters
        for f, m in zip(fighters, state, strict=True):
            f.hp = m.hp
            f.luck = m.luck
            f.out = None if m.out == ABLE else (UNCONSCIOUS if m.out == ASLEEP else DEAD)
            f.target = fighters[m.target] if m.target != NONE else None
            f.on_ground = m.ground
            hamper(rs, f)

    def _declare(self, state: State) -> Weights[State]:
        """Every able member declares against its target or a new one (in scenario order)."""
        law = self._declared.get(state)
        if law is None:
            fighters = self.fighters

            def declare(dice: Dice) -> State:
                self._load(state, dice)
                for f in fighters:
                    if f.out is None:
                        declared_target(self.rs, f)
                return tuple(
                    m._replace(target=NONE if f.target is None else f.target.index)
                    if m.out == ABLE else m
                    for f, m in zip(fighters, state, strict=True)
                )

            law = self._declared[state] = Weights.of(dice_law(declare))
        return law

    def _opponent(self, state: State, me: int) -> Weights[int]:
        """Whom ``me`` attacks in its step (``attacks.opponent``), or :data:`NONE`."""
        key = (me, state)
        law = self._chosen.get(key)
        if law is None:
            f = self.fighters[me]

            def choose(dice: Dice) -> int:
                self._load(state, dice)
                t = opponent(self.rs, f, 0)
                return NONE if t is None else t.index

            law = self._chosen[key] = Weights.of(dice_law(choose))
        return law

    def _input(self, me: int, them: int, ground: bool, target_ground: bool) -> AttackInput:
        """The exchange's input for ``me`` attacking ``them`` (the round's ``exchange_for``)."""
        key = (me, them, ground, target_ground)
        found = self._inputs.get(key)
        if found is None:
            f, t = self.fighters[me], self.fighters[them]
            f.on_ground, t.on_ground = ground, target_ground
            hamper(self.rs, f)
            hamper(self.rs, t)
            attack = exchange_for(self.rs, f, t, None, 0)
            assert attack is not None  # every pair is in reach (checked when built)
            found = self._inputs[key] = attack
        return found


def _with(state: State, i: int, **changes: int) -> State:
    """``state`` with member ``i`` changed."""
    return (*state[:i], state[i]._replace(**changes), *state[i + 1:])


def team(scenario: Scenario) -> Team | Duel:
    """The scenario as an exact Target 10 fight: a duel, or up to two a side.

    Raises:
        NotExact: the scenario is not a fight the chains play (says why).
    """
    prepared = scenario.system.prepare(scenario)
    if not isinstance(prepared, Target10Prepared):
        raise NotExact("a Target 10 test outside combat is not a fight")
    sides = [side for _, side, *_ in prepared.roster]
    if sorted(set(sides)) != [0, 1] or max(sides.count(0), sides.count(1)) > 2:
        raise NotExact("the Target 10 chain plays up to two combatants on each of two sides")
    if len(sides) == 2:
        return duel(scenario)
    fighters = [
        T10Fighter(name, side, index, 1, stats, position)
        for index, (name, side, _hp, stats, position, _ground) in enumerate(prepared.roster)
    ]
    for f, (*_, on_ground) in zip(fighters, prepared.roster, strict=True):
        check_fighter(f, on_ground)
        f.move, f.act = f.stats.fixed
    combat = Combat(fighters, scenario.side_names, Dice(0, 0), scenario.time_limit_s)
    rs = RoundState(combat, prepared.rules)
    for f in fighters:
        for t in fighters:
            if t.side == f.side:
                continue
            attack = exchange_for(rs, f, t, None, 0)
            if attack is None or attack.weapon.ranged:
                raise NotExact(
                    f"{f.name} does not fight {t.name} hand to hand from where they stand"
                )
    rules = prepared.rules
    asleep = (
        Weights.of(damage_law(rules.unconscious_dice).map(rounds_asleep))
        if rules.wake_up
        else None
    )
    return Team(
        rs,
        hp=tuple(spec[2] for spec in prepared.roster),
        zero_hp=rules.test.zero_hp,
        steps=int(scenario.time_limit_s // ROUND_S + 1e-9),
        asleep=asleep,
    )


#: What the exact engine calls to build this rule system's chain.
BUILD: Callable[[Scenario], Team | Duel] = team
