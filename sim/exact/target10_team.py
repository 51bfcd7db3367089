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
from functools import partial
from itertools import product
from typing import NamedTuple

from sim.engine.dice import Dice, DiceExpr
from sim.engine.tactics import random_target
from sim.exact.chain import Ending
from sim.exact.errors import NotExact
from sim.exact.target10 import (
    Duel,
    attack_law,
    duel,
    initiative_law,
    scratch_round,
)
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
TEAM_CAP = 40_000


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


class Branch(NamedTuple):
    """The orders of a round that take ``step`` next: ``ends`` of their weight end there."""

    step: tuple[int, ...]
    ends: int
    then: Orders | None
    total: int


class Orders(NamedTuple):
    """Orders of a round's steps as a tree of first steps, numbered (a key for the memo)."""

    number: int
    branches: tuple[Branch, ...]


def _mixture(parts: list[tuple[int, Weights[State]]]) -> Weights[State]:
    """The law of picking ``law`` with chance ``weight / total`` among ``parts``."""
    common = math.lcm(*(law.denominator for _, law in parts))
    total = sum(w for w, _ in parts)
    return Weights.merged(
        total * common,
        ((o, w * v * (common // law.denominator)) for w, law in parts for o, v in law.pairs),
    )


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
        self._orders: dict[tuple[int, ...], Orders] = {}
        self._declared: dict[State, Weights[State]] = {}
        self._chosen: dict[tuple[int, State], Weights[int]] = {}
        self._plays: dict[tuple[State, int], Weights[State]] = {}
        self._struck_memo: dict[tuple[Member, int, tuple[tuple[int, int], ...]], Member] = {}
        self._tries = 0
        self._steps: dict[tuple[State, tuple[int, ...]], Weights[State]] = {}
        self._settled: dict[State, Weights[State | Ending]] = {}

    # -- the chain's protocol ----------------------------------------------------------------

    def cap(self) -> int:
        """The chain's own cap, :data:`TEAM_CAP` (a state of two a side costs several a duel's)."""
        return TEAM_CAP

    def estimate(self) -> int:
        """At most how many live states the chain meets (before solving it).

        Each member able and never out (at each hit point from 1 to its dice's maximum),
        woken (at 0 hit points and on the ground: hit points only fall), waking next round,
        asleep longer (each count of rounds left) or gone, with each luck left; each side with
        someone able (else the fight is over). An able member facing two enemies able next
        round targets either of them when targets can differ between fights: a ``random``
        choice, retargeting, rolled hit points, or someone among them who has been out (a
        target is otherwise the first choice, kept until it is out).
        """
        wakes = self.asleep is not None
        sleeps = max(o for o, _ in self.asleep.pairs) if self.asleep is not None else 0
        counts = [
            (dice.maximum * (luck + 1), wakes * (luck + 1), wakes * (luck + 1),
             sleeps * (luck + 1), 1)
            for dice, luck in zip(self.hp, self.luck, strict=True)
        ]
        varied = any(d.count and d.sides > 1 for d in self.hp) or any(
            f.stats.each_action or f.stats.choose is random_target for f in self.fighters
        )
        sides = self.sides
        total = 0
        # Each member's kind: 0 able, 1 woken, 2 waking, 3 asleep, 4 gone.
        for kinds in product(range(5), repeat=len(counts)):
            if {sides[i] for i, k in enumerate(kinds) if k < 2} != {0, 1}:
                continue
            n = math.prod(c[k] for c, k in zip(counts, kinds, strict=True))
            for i, k in enumerate(kinds):
                facing = [o for j, o in enumerate(kinds) if sides[j] != sides[i] and o < 3]
                if k < 2 and len(facing) > 1 and (varied or k == 1 or max(facing) > 0):
                    n *= 2
            total += n
        return total

    def start(self) -> Weights[State]:
        """The law of the first round's state: every hit point roll (in scenario order)."""
        law: Weights[State] = Weights.certain(())
        for dice, luck in zip(self.hp, self.luck, strict=True):
            fresh = Weights.of(damage_law(dice)).map(partial(_fresh, luck))
            law = law.bind(partial(_appended, fresh))
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
        law = self._declare(woken).bind(self._round)
        # In lowest terms: the chain steps every state over the least common multiple of them.
        common = math.gcd(law.denominator, *(w for _, w in law.pairs))
        if common == 1:
            return law
        return Weights(law.denominator // common, tuple((o, w // common) for o, w in law.pairs))

    # -- a round -----------------------------------------------------------------------------

    def _round(self, state: State) -> Weights[State | Ending]:
        able = tuple(i for i, m in enumerate(state) if m.out == ABLE)
        orders = self._orders.get(able)
        if orders is None:
            law = initiative_law([self.fighters[i] for i in able])
            orders = self._orders[able] = self._trie(list(law.pairs))
        return self._play(state, orders).bind(self._settle)

    def _trie(self, orders: list[tuple[Order, int]]) -> Orders:
        """Orders of steps (with their weights) as a tree of their first steps."""
        groups: dict[tuple[int, ...], tuple[list[int], list[tuple[Order, int]]]] = {}
        for order, w in orders:
            ends, rest = groups.setdefault(order[0], ([], []))
            if len(order) == 1:
                ends.append(w)
            else:
                rest.append((order[1:], w))
        branches = []
        for step, (ends, rest) in groups.items():
            child = self._trie(rest) if rest else None
            branches.append(Branch(step, sum(ends), child, sum(ends) + sum(w for _, w in rest)))
        self._tries += 1
        return Orders(self._tries, tuple(branches))

    def _play(self, state: State, orders: Orders) -> Weights[State]:
        """The state after the round's steps in one of ``orders`` (by their weights).

        Orders that begin with the same step share its law and what follows it; each answer
        is kept for the whole solve.
        """
        if self._over(state):
            return Weights.certain(state)
        key = (state, orders.number)
        law = self._plays.get(key)
        if law is None:
            parts: list[tuple[int, Weights[State]]] = []
            for branch in orders.branches:
                first = self._step(state, branch.step)
                child = branch.then
                if branch.ends:
                    parts.append((branch.ends, first))
                if child is not None:
                    parts.append(
                        (branch.total - branch.ends, first.bind(partial(self._play, orders=child)))
                    )
            law = self._plays[key] = _mixture(parts)
        return law

    def _step(self, state: State, step: tuple[int, ...]) -> Weights[State]:
        """One initiative step: its able members attack, then their blows land together."""
        law = self._steps.get((state, step))
        if law is None:
            members = [i for i in step if state[i].out == ABLE]
            if len(members) == 1:
                me = members[0]
                law = self._opponent(state, me).bind(lambda them: self._alone(state, me, them))
            else:
                # Each picks its opponent in turn (a ``focus`` reads the others' choices).
                chosen: Weights[State] = Weights.certain(state)
                for i in members:
                    chosen = chosen.bind(partial(self._choosing, i))
                law = chosen.bind(lambda s: self._together(s, members))
            self._steps[state, step] = law
        return law

    def _choosing(self, me: int, state: State) -> Weights[State]:
        """``me`` picks its opponent of the moment (``attacks.opponent``)."""
        return self._opponent(state, me).map(partial(_targeting, state, me))

    def _alone(self, state: State, me: int, them: int) -> Weights[State]:
        """``me`` attacks ``them`` alone on its score: a hit lands at once (``land_blow``)."""
        if them == NONE:
            return Weights.certain(_targeting(state, me, NONE))
        m = state[me]
        law = self._attack_law(state, me, them)
        spent = {
            lucky: (*state[:me], Member(m.hp, m.luck - lucky, m.out, m.sleep, them, m.ground),
                    *state[me + 1:])
            for lucky in (0, 1)
        }
        return Weights.merged(
            law.denominator,
            (
                (self._blow(spent[lucky], them, effect, amount) if effect else spent[lucky], v)
                for (effect, amount, lucky), v in law.pairs
            ),
        )

    def _attack_law(self, state: State, me: int, them: int) -> Weights[tuple[int, int, bool]]:
        """The law of ``me``'s attack on ``them`` as (effect, damage, luck spent to hit)."""
        m, t = state[me], state[them]
        attack = self._input(me, them, m.ground, t.ground)
        # The target's hit points matter only to an attacker who may spend luck to hit.
        weighs = m.luck > 0 and attack.succeed.spends
        return attack_law(attack, m.luck, t.hp if weighs else 0)

    def _together(self, state: State, members: list[int]) -> Weights[State]:
        """The step's attacks, each on the state before it; their hits land together.

        As ``effects.land``: a single hit lands alone; otherwise each target's hits land
        together (:meth:`_struck`).
        """
        attackers = [i for i in members if state[i].target != NONE]
        laws = [self._attack_law(state, i, state[i].target) for i in attackers]
        # Each attack's outcomes as (weight, the attacker after luck spent or None, blow).
        options = []
        for i, law in zip(attackers, laws, strict=True):
            m = state[i]
            spent_one = Member(m.hp, m.luck - 1, m.out, m.sleep, m.target, m.ground)
            options.append([
                (v, spent_one if lucky else None, (m.target, effect, amount) if effect else None)
                for (effect, amount, lucky), v in law.pairs
            ])
        table: dict[State, int] = {}
        for combo in product(*options):
            weight = 1
            after = list(state)
            blows = []
            for i, (v, lucky_one, blow) in zip(attackers, combo, strict=True):
                weight *= v
                if lucky_one is not None:
                    after[i] = lucky_one
                if blow is not None:
                    blows.append(blow)
            if len(blows) == 1:
                them, effect, amount = blows[0]
                landed = self._blow(tuple(after), them, effect, amount)
            else:
                hits: dict[int, list[tuple[int, int]]] = {}
                for them, effect, amount in blows:
                    hits.setdefault(them, []).append((effect, amount))
                for them, on_them in hits.items():
                    after[them] = self._struck(after[them], them, tuple(on_them))
                landed = tuple(after)
            table[landed] = table.get(landed, 0) + weight
        return Weights(math.prod(law.denominator for law in laws), tuple(table.items()))

    def _struck(self, t: Member, them: int, blows: tuple[tuple[int, int], ...]) -> Member:
        """Hits of one step landing together on ``them`` (``effects.land``, ``effects.hurt``).

        Its luck may cancel some first (``luck.cancel_hits``); then Kill damage and Subdue
        damage land together (``actions.take_damage``).
        """
        key = (t, them, blows)
        found = self._struck_memo.get(key)
        if found is None:
            luck = t.luck
            hits = list(blows)
            if luck > 0:
                cancelled = cancel_hits(t.hp, [a for _, a in hits], luck, self.policies[them])
                luck -= len(cancelled)
                hits = [h for k, h in enumerate(hits) if k not in cancelled]
            kill = sum(a for e, a in hits if e == KILL)
            subdue = sum(a for e, a in hits if e != KILL)
            after, how = take_damage(t.hp, kill, subdue, self.zero_hp)
            found = self._struck_memo[key] = self._member_after(t._replace(luck=luck), after, how)
        return found

    def _blow(self, state: State, them: int, effect: int, amount: int) -> State:
        """One Kill or Subdue landing alone on ``them``: its luck may ignore it."""
        t = state[them]
        landing = blow_lands(effect, amount, t.hp, t.luck, self.policies[them], self.zero_hp)
        if landing.ignored:
            return (*state[:them], t._replace(luck=t.luck - 1), *state[them + 1:])
        return self._hurt(state, them, landing.hp, landing.out)

    def _hurt(self, state: State, them: int, hp: int, how: str | None) -> State:
        """``them`` is left with ``hp``, and out ``how`` (dead, or asleep to wake)."""
        member = self._member_after(state[them], hp, how)
        return (*state[:them], member, *state[them + 1:])

    def _member_after(self, t: Member, hp: int, how: str | None) -> Member:
        """A member left with ``hp`` and out ``how`` (``conditions.put_out``: a sleeper lies)."""
        if how is None:
            return Member(hp, t.luck, t.out, t.sleep, t.target, t.ground)
        if how == DEAD or (how == UNCONSCIOUS and self.asleep is None):
            return _GONE
        return Member(hp, t.luck, ASLEEP, FALLEN, NONE, True)

    def _settle(self, state: State) -> Weights[State | Ending]:
        """The round's end: the fight's ending, or the next round's state (worked out once)."""
        law = self._settled.get(state)
        if law is None:
            law = self._settled[state] = self._end_of_round(state)
        return law

    def _end_of_round(self, state: State) -> Weights[State | Ending]:
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
                law = law.bind(partial(_appended, asleep.map(partial(_sleeping, m))))
            else:
                kept = m._replace(sleep=m.sleep - 1) if m.out == ASLEEP else m
                law = law.map(partial(_then, kept))
        return law.map(self._forget)

    def _forget(self, state: State) -> State:
        """Forget the targets that cannot matter next round (see the module)."""
        able = [m.out == ABLE or (m.out == ASLEEP and m.sleep == 0) for m in state]
        members = []
        for i, m in enumerate(state):
            if m.target != NONE:
                side = self.sides[i]
                facing = sum(1 for j, s in enumerate(self.sides) if able[j] and s != side)
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


def _targeting(state: State, i: int, them: int) -> State:
    """``state`` with member ``i`` targeting ``them``."""
    return (*state[:i], state[i]._replace(target=them), *state[i + 1:])


def _fresh(luck: int, hp: int) -> Member:
    """A member at the fight's start."""
    return Member(hp, luck, ABLE, 0, NONE, False)


def _sleeping(m: Member, rounds: int) -> Member:
    """A sleeper who fell this round, asleep for ``rounds`` more."""
    return m._replace(sleep=rounds)


def _then(m: Member, members: State) -> State:
    """``members`` and then ``m``."""
    return (*members, m)


def _appended(law: Weights[Member], members: State) -> Weights[State]:
    """``members`` and then a member drawn from ``law``."""
    return law.map(partial(_plus, members))


def _plus(members: State, m: Member) -> State:
    """``members`` and then ``m`` (as :func:`_then`, the arguments the other way round)."""
    return (*members, m)


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
    fighters, rs = scratch_round(scenario, prepared)
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
