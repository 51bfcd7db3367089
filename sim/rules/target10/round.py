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
:mod:`~sim.rules.target10.attacks` (with the pure :mod:`~sim.rules.target10.combat_rolls`),
:mod:`~sim.rules.target10.effects`, :mod:`~sim.rules.target10.conditions` and
:mod:`~sim.rules.target10.parley`; a static duel takes :mod:`~sim.rules.target10.duel`.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from simpy.events import NORMAL

from sim.engine.combat import Combat, wake_at
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
from sim.rules.target10.combatant import T10Fighter
from sim.rules.target10.conditions import end_holds, wake
from sim.rules.target10.duel import INITIATIVE_DIE, static_duel
from sim.rules.target10.effects import Effect, land, land_one
from sim.rules.target10.movements import CHARGE, FLEE, HOLD, MOVEMENTS, TRAVEL
from sim.rules.target10.moving import move, recover
from sim.rules.target10.parley import escape, negotiate
from sim.rules.target10.state import ROUND, ROUND_S, LaneMemo, RoundRules, RoundState

__all__ = ["ROUND", "ROUND_S", "RoundRules", "Target10Rounds"]


class Target10Rounds(RoundState):
    """Plays one combat round by round.

    Args:
        combat: the fight (its fighters are :class:`~sim.rules.target10.combatant.T10Fighter`).
        rules: the rule options.
        lane: the chunk's memo of the duel lane (:class:`~sim.rules.target10.state.LaneMemo`).
    """

    __slots__ = ("history", "rounds")

    def __init__(
        self, combat: Combat[T10Fighter], rules: RoundRules, lane: LaneMemo | None = None
    ) -> None:
        super().__init__(combat, rules, lane)
        self.rounds = int(combat.time_limit_s // ROUND_S + 1e-9)
        # Tactics read what opponents declared last round: keep it only when someone looks.
        self.history = False
        for f in self.fighters:
            if f.stats.decide is not None:
                self.history = True
                break

    def start(self) -> None:
        """Start the round process."""
        self.combat.env.process(self.run())

    def run(self) -> Generator[Any, Any, None]:
        """The round process: a round at each round's start, until the end or the time limit."""
        combat = self.combat
        env = combat.env
        play = self.play
        if self.tracing is False:
            duel = static_duel(self)
            if duel is not None:
                play = duel.play
        for r in range(self.rounds):
            play(r)
            if combat.end_reason is not None:
                return
            yield wake_at(env, (r + 1) * ROUND, NORMAL)  # the next round's start
        combat.finish("time_limit", combat.time_limit_s)

    # -- a round ----------------------------------------------------------------------------------

    def play(self, r: int) -> None:
        """Play round ``r`` (from 0): wake-ups, declarations, initiative, the steps, escapes."""
        combat = self.combat
        if self.sleepers:
            wake(self, r)
        able = []  # a plain loop: a comprehension makes a function and a frame every round
        for f in self.fighters:
            if f.out is None:
                able.append(f)
        if self.history:
            for f in able:
                f.last_move = f.move
                f.last_act = f.act
        declare = self._declare
        for f in able:
            declare(f, r)
        roll = self.dice.roll
        for f in able:
            f.init = roll(INITIATIVE_DIE) + f.dex_mod
        if self.tracing:
            for f in able:
                combat.emit("initiative", f, total=f.init, roll=f.init - f.dex_mod, bonus=f.dex_mod)
        steps: Sequence[tuple[T10Fighter, ...]]
        if len(able) == 2:
            a, b = able
            if a.init > b.init:
                steps = ((a,), (b,))
            elif a.init < b.init:
                steps = ((b,), (a,))
            else:
                steps = ((a, b),)
        else:
            steps = _steps(able)
        end_s = (r + 1) * ROUND_S
        play_step = self._step
        for step in steps:
            play_step(step, r)
            if self.changed:
                self.changed = False
                combat.check_end(end_s)
                if combat.end_reason is not None:
                    return
        if self.flight:
            escape(self, able, r)
            if self.changed:
                self.changed = False
                combat.check_end(end_s)

    def _declare(self, f: T10Fighter, r: int) -> None:
        stats = f.stats
        target = f.target
        if target is None or target.out is not None or stats.each_action:
            target = self.choose(f)
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
        members: tuple[T10Fighter, ...]
        if len(step) == 1:
            # One combatant alone on its initiative score: the common case, kept short.
            f = step[0]
            if f.out is not None:
                return
            if f.holding is not None and f.hold_round < r:
                end_holds(self, f, r, quiet=True)
            origin = move(self, step, r) if f.move != HOLD else None
            if f.act in ATTACKS:
                f.actions_taken += 1
                effect = attack(self, f, r, origin, True)  # alone in its step
                if effect is not None:
                    land_one(self, effect, r)
                return
            members = step
        else:
            members = tuple(f for f in step if f.out is None)
            if not members:
                return
            for f in members:
                if f.holding is not None and f.hold_round < r:
                    end_holds(self, f, r, quiet=True)
            origin = None
            for f in members:
                if f.move != HOLD:
                    origin = move(self, members, r)
                    break
        effects: list[Effect] = []
        negotiators: list[T10Fighter] | None = None
        for f in members:
            act = f.act
            if act in ATTACKS:
                f.actions_taken += 1
                effect = attack(self, f, r, origin)
                if effect is not None:
                    effects.append(effect)
            elif act == NEGOTIATE:
                f.actions_taken += 1
                if negotiators is None:
                    negotiators = []
                negotiators.append(f)
            elif act == DEFEND:
                f.actions_taken += 1
            elif act == RECOVER:
                f.actions_taken += 1
                recover(self, f)
            elif act == RELOAD:
                f.actions_taken += 1
                reload(self, f)
        if effects:
            land(self, effects, r)
        if negotiators is not None:
            for f in negotiators:
                if f.out is None:
                    negotiate(self, f, r)


def _steps(able: list[T10Fighter]) -> list[tuple[T10Fighter, ...]]:
    """Group combatants by initiative score, highest first (scenario order inside a group)."""
    ranked = sorted(able, key=lambda f: -f.init)
    steps: list[tuple[T10Fighter, ...]] = []
    start = 0
    n = len(ranked)
    while start < n:
        end = start + 1
        score = ranked[start].init
        while end < n and ranked[end].init == score:
            end += 1
        steps.append(tuple(ranked[start:end]))
        start = end
    return steps
