"""The Target 10 round process: declare, roll initiative, act in order, simultaneous on ties.

Target 10 text, "Combat Tests": a round is about one minute (600 clock units, 60 s of game time).
Everyone declares a movement and an action (through its tactics, :mod:`~sim.rules.target10.
tactics`), then rolls 1d6 + DEX bonus; the highest goes first and play proceeds down the scores.
Equal scores act simultaneously, "making it possible for two combatants to kill one another".

One SimPy process plays a whole round at the round's start time and then sleeps for 600 units,
so the order inside a round comes only from the initiative scores, never from SimPy's event
order. Each initiative score is a *step*: its combatants first move (positions computed from
the state before the step), then attack, every attack read against the state before the step;
the effects then land together (Kill damage before Subdue damage, see
:func:`~sim.rules.target10.actions.take_damage`). Dice are rolled in scenario order within a step,
which orders nothing since the step is simultaneous.

The fight ends when every combatant of a side is dead, unconscious or fled (text, "Ending
Combat"); its duration is the end of the round in which that happened. A combatant out of the
fight is out at the end of that round (``out_at``). Unconscious combatants wake after their
rounds at the start of a later round, but only while the fight lasts: a side that is all out has
lost, so waking can never undo the end of a fight.

The concerns of a round live in their own modules, functions of the fight's
:class:`~sim.rules.target10.state.RoundState`: :mod:`~sim.rules.target10.moving`,
:mod:`~sim.rules.target10.attacks` (around the pure :mod:`~sim.rules.target10.exchange`),
:mod:`~sim.rules.target10.effects`, :mod:`~sim.rules.target10.conditions` and
:mod:`~sim.rules.target10.parley`; every attack is the one exchange of
:mod:`~sim.rules.target10.exchange`.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from operator import attrgetter

from simpy.events import NORMAL, Event, Process

from sim.engine.combat import Combat, wake_at
from sim.engine.dice import Dice
from sim.rules.target10.actions import (
    ACTION_WORDS,
    ATTACKS,
    DEFEND,
    NEGOTIATE,
    NONE,
    RECOVER,
    RELOAD,
)
from sim.rules.target10.ammunition import reload
from sim.rules.target10.attacks import attack
from sim.rules.target10.combatant import Stats, T10Fighter
from sim.rules.target10.conditions import end_holds, wake
from sim.rules.target10.effects import Effect, land
from sim.rules.target10.exchange import AttackInput
from sim.rules.target10.movements import CHARGE, FLEE, HOLD, MOVEMENTS, TRAVEL
from sim.rules.target10.moving import move, recover
from sim.rules.target10.parley import escape, negotiate
from sim.rules.target10.state import ROUND, ROUND_S, RoundRules, RoundState

__all__ = ["ROUND", "ROUND_S", "RoundRules", "Target10Rounds"]

#: Initiative: 1d6 + DEX bonus (text, "Combat Tests").
INITIATIVE_DIE = 6


class Target10Rounds(RoundState):
    """Plays one combat round by round.

    Args:
        combat: the fight (its fighters are :class:`~sim.rules.target10.combatant.T10Fighter`).
        rules: the rule options.
        exchanges: the attacks' inputs made so far (:class:`~sim.rules.target10.state.
            RoundState`).
        history: whether rounds keep last round's declarations (:func:`keeps_history`), if
            the caller knows it already (a scenario's preparation asks once).
    """

    __slots__ = ("history", "rounds")

    def __init__(
        self,
        combat: Combat[T10Fighter],
        rules: RoundRules,
        exchanges: dict[tuple[object, ...], AttackInput] | None = None,
        history: bool | None = None,
    ) -> None:
        super().__init__(combat, rules, exchanges)
        self.rounds = int(combat.time_limit_s // ROUND_S + 1e-9)
        self.history = keeps_history(f.stats for f in self.fighters) if history is None else history

    def start(self) -> None:
        """Start the round process."""
        Process(self.combat.env, self.run())

    def run(self) -> Generator[Event, object, None]:
        """The round process: a round at each round's start, until the end or the time limit."""
        combat = self.combat
        env = combat.env
        for r in range(self.rounds):
            self.play(r)
            if combat.end_reason is not None:
                return
            yield wake_at(env, (r + 1) * ROUND, NORMAL)  # the next round's start
        combat.finish("time_limit", combat.time_limit_s)

    # -- a round ----------------------------------------------------------------------------------

    def play(self, r: int) -> None:
        """Play round ``r`` (from 0): wake-ups, declarations, initiative, the steps, escapes."""
        if self.sleepers:
            wake(self, r)
        able = [f for f in self.fighters if f.out is None]
        if self.history:
            for f in able:
                f.last_move = f.move
                f.last_act = f.act
        for f in able:
            self._declare(f, r)
        roll_initiative(able, self.dice)
        if self.tracing:
            self._trace_initiative(able)
        for step in initiative_steps(able):
            self._step(step, r)
            if self.changed and self._over(r):
                return
        if self.flight:
            escape(self, able, r)
            if self.changed:
                self._over(r)

    def _trace_initiative(self, able: list[T10Fighter]) -> None:
        """The replay's ``initiative`` events: each total, roll and DEX bonus."""
        for f in able:
            bonus = f.stats.dex_mod
            self.combat.emit("initiative", f, total=f.init, roll=f.init - bonus, bonus=bonus)

    def _over(self, r: int) -> bool:
        """Someone left the fight in round ``r``: whether the fight is over."""
        self.changed = False
        combat = self.combat
        combat.check_end((r + 1) * ROUND_S)
        return combat.end_reason is not None

    def _declare(self, f: T10Fighter, r: int) -> None:
        """``f`` declares its movement and action for round ``r``; its DEFENSE for the round."""
        stats = f.stats
        target = declared_target(self, f)
        decide = stats.decide
        if decide is None:
            movement, act = stats.fixed
        else:
            movement, act = decide(f, target, r, self)
        declared = movement
        rules = self.rules
        if rules.held_still and movement in TRAVEL and (f.pinned_by is not None or f.on_ground):
            movement = HOLD
        if (act == NEGOTIATE and not stats.venturer) or (movement == FLEE and not rules.fleer_acts):
            act = NONE
        f.move = movement
        f.act = act
        f.fled = False
        # DEFENSE for the whole round: a charge drops the DEX bonus, Defend adds to it.
        dv = stats.defense
        if movement == CHARGE:
            f.charging = True
            dv -= stats.charge_dex
        elif f.charging:
            f.charging = False
        f.fleeing = movement == FLEE
        if act == DEFEND:
            f.defending = True
            dv += stats.defend
        elif f.defending:
            f.defending = False
        f.dv = dv
        if self.tracing:
            self.combat.emit(
                "declare",
                f,
                target,
                movement=MOVEMENTS[declared],
                action=ACTION_WORDS[act],
                held=movement != declared,
            )

    # -- a step: everyone with one initiative score ---------------------------------------------

    def _step(self, step: tuple[T10Fighter, ...], r: int) -> None:
        """Everyone able on one initiative score moves, acts, and then its hits land together.

        Alone on its score, an attacker's hit lands at once: nothing else reads the state
        before it.
        """
        if len(step) > 1:
            members = tuple([f for f in step if f.out is None])
        elif step[0].out is None:
            members = step
        else:
            return
        moving = False
        for f in members:
            if f.holding is not None and f.hold_round < r:
                end_holds(self, f, r, quiet=True)
            if f.move != HOLD:
                moving = True
        origin = move(self, members, r) if moving else None
        alone = len(members) == 1
        effects: list[Effect] | None = None  # made for the first hit that waits to land
        negotiators: list[T10Fighter] | None = None
        for f in members:
            act = f.act
            if act in ATTACKS:
                f.actions_taken += 1
                effect = attack(self, f, r, origin, alone)
                if effect is not None:
                    if effects is None:
                        effects = []
                    effects.append(effect)
            elif act == NEGOTIATE:
                f.actions_taken += 1
                if negotiators is None:
                    negotiators = []
                negotiators.append(f)
            elif act != NONE:
                f.actions_taken += 1
                act_without_attack(self, f)
        if effects is not None:
            land(self, effects, r)
        if negotiators is not None:
            negotiate_after(self, negotiators, r)


def keeps_history(stats: Iterable[Stats]) -> bool:
    """Whether rounds keep last round's declarations: some combatant's tactics read them."""
    return any(s.decide is not None for s in stats)


def declared_target(rs: RoundState, f: T10Fighter) -> T10Fighter | None:
    """Whom ``f`` declares against: its target, or a new one by its tactics.

    A new one when it has none, its target is out, or it picks before every action
    (``retarget: each_action``); None when no enemy is left.
    """
    target = f.target
    if target is None or target.out is not None or f.stats.each_action:
        target = rs.choose(f)
    return target


def roll_initiative(able: Sequence[T10Fighter], dice: Dice) -> None:
    """Each able combatant's initiative score, ``f.init``: 1d6 + DEX bonus, in scenario order."""
    for f in able:
        f.init = dice.roll(INITIATIVE_DIE) + f.stats.dex_mod


def initiative_steps(able: Sequence[T10Fighter]) -> list[tuple[T10Fighter, ...]]:
    """The round's steps: one per initiative score, highest first, scenario order inside a step.

    Equal scores are one step (they act simultaneously).
    """
    steps: list[tuple[T10Fighter, ...]] = []
    score = None
    for f in sorted(able, key=_INITIATIVE, reverse=True):  # a stable sort, reversed or not
        if f.init == score:
            steps[-1] += (f,)
        else:
            score = f.init
            steps.append((f,))
    return steps


def negotiate_after(rs: RoundState, negotiators: list[T10Fighter], r: int) -> None:
    """The step's negotiators still in the fight speak, after its hits have landed."""
    for f in negotiators:
        if f.out is None:
            negotiate(rs, f, r)


def act_without_attack(rs: RoundState, f: T10Fighter) -> None:
    """What an action other than an attack does at once: Recover and Reload.

    Defend counts for the whole round (it is in DEFENSE); Negotiate speaks after the step's
    hits (:meth:`Target10Rounds._step`).
    """
    if f.act == RECOVER:
        recover(rs, f)
    elif f.act == RELOAD:
        reload(rs, f)


#: A fighter's initiative score, the key of the order of a round.
_INITIATIVE = attrgetter("init")

