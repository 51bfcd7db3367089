"""The ACS clock: seconds of ten segments, run as SimPy processes.

One process ticks the seconds: at the start of each it rolls everyone's ambition and action dice
(ACS "Listing a combat order"), ranks the combatants (:mod:`sim.rules.acs.ambition`) and places
their actions on segments (:mod:`sim.rules.acs.action_dice`). Each combatant is a process of its
own that sleeps until its next action. Segment ``s`` of second ``n`` (both from 1) happens at
simulation time ``10 * (n - 1) + s - 1``; inside a segment each wake-up carries the combatant's
ambition rank as its SimPy priority, and the winner's free action comes before everyone.

Defenses (ACS "Defenses"): a defense rolled on a segment where the defender still has an untaken
action costs that action, which slides to the defender's next free segment of the second if
there is one. A defense made while a multi-segment action is under way disrupts it (ACS "Action
disruption"): the defender's process is interrupted and the action starts over at its next action.

What an attack does is left to a *resolution* (percentile by default; Target 10 or Proposition
Three for the hybrids), which reports whether the defender rolled a defense.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from simpy import Interrupt

from sim.combatant import Fighter
from sim.engine import FIRST_RULE_PRIORITY, SEGMENTS_PER_SECOND, Combat, wake_at
from sim.rules.acs.action_dice import SEGMENTS, roll_action_segments
from sim.rules.acs.ambition import AMBITION_DIE, ambition_order
from sim.tactics import TARGETS, pick_target

if TYPE_CHECKING:
    from sim.rules.acs.models import AcsClockOptions, AcsTiming

FREE_ACTION_PRIORITY = FIRST_RULE_PRIORITY
RANK_PRIORITY = FIRST_RULE_PRIORITY + 1


@dataclass(frozen=True, slots=True)
class Timing:
    """The hot-path copy of a combatant's ACS timing stats and tactics."""

    actions: int
    ambition_bonus: int
    giant: bool
    attack_segments: int
    per_segment: int
    prepared: bool
    target: str
    each_action: bool
    defend: str
    ready_last_action: bool

    @classmethod
    def of(cls, model: AcsTiming, options: AcsClockOptions) -> Timing:
        """Read a validated stat block under the clock options."""
        tactics = model.tactics
        shares = (
            model.simultaneous_actions
            and 2 * model.concentration <= options.simultaneous_concentration
        )
        return cls(
            actions=model.actions,
            ambition_bonus=model.ambition_bonus,
            giant=model.size == "giant",
            attack_segments=model.attack_segments,
            per_segment=2 if shares else 1,
            prepared=model.prepared,
            target=tactics.target,
            each_action=tactics.retarget == "each_action",
            defend=tactics.defend,
            ready_last_action=tactics.ready_last_action,
        )


class AcsFighter(Fighter):
    """A combatant on the ACS clock: its timing stats and this second's plan."""

    __slots__ = (
        "actions",
        "ambition_bonus",
        "attack_segments",
        "busy_end",
        "choose",
        "def_t",
        "def_used",
        "defend",
        "each_action",
        "free",
        "giant",
        "per_segment",
        "plan",
        "prepared",
        "proc",
        "rank",
        "ready_last",
        "state",
        "stats",
        "t0",
        "used",
        "version",
        "winner",
    )

    def __init__(
        self, name: str, side: int, index: int, hp: int, timing: Timing, stats: Any
    ) -> None:
        super().__init__(name, side, index, hp)
        self.actions: int = timing.actions
        self.ambition_bonus: int = timing.ambition_bonus
        self.giant: bool = timing.giant
        self.attack_segments: int = timing.attack_segments
        self.per_segment = timing.per_segment
        self.choose = TARGETS[timing.target]
        self.each_action = timing.each_action
        self.defend: str = timing.defend
        self.ready_last: bool = timing.ready_last_action
        self.prepared: bool = timing.prepared
        self.stats = stats
        self.state: Any = None
        self.plan: list[int] = []
        self.used: list[int] = []
        self.t0 = 0
        self.rank = 0
        self.free = False
        self.winner = False
        self.busy_end = -1
        self.def_t = -1
        self.def_used = 0
        self.version = 0
        self.proc = None


class AcsClock:
    """Runs one combat second by second.

    Args:
        combat: the fight.
        options: the ACS clock options.
        resolution: what resolves an attack (see :mod:`sim.rules.acs.resolution`).
        resolution_options: the resolution's own options.
    """

    def __init__(
        self, combat: Combat, options: AcsClockOptions, resolution: Any, resolution_options: Any
    ) -> None:
        self.combat = combat
        self.env = combat.env
        self.dice = combat.dice
        self.options = options
        self.resolution = resolution
        self.resolution_options = resolution_options
        self.second = 0
        self.second_started = self.env.event()
        self.limit_segments = combat.time_limit_s * SEGMENTS_PER_SECOND

    def start(self) -> None:
        """Start the seconds process and one process per combatant."""
        env = self.env
        env.process(self._seconds())
        for fighter in self.combat.fighters:
            fighter.proc = env.process(self._fighter(fighter))

    # -- seconds ---------------------------------------------------------------------------------

    def _seconds(self):
        env = self.env
        combat = self.combat
        while True:
            t0 = self.second * SEGMENTS_PER_SECOND
            if t0 >= self.limit_segments - 1e-9:
                combat.finish("time_limit", combat.time_limit_s)
                return
            self._begin_second(t0)
            started, self.second_started = self.second_started, env.event()
            started.succeed()
            yield env.timeout(SEGMENTS_PER_SECOND)
            self.second += 1

    def _begin_second(self, t0: int) -> None:
        """Roll ambition and action dice for everyone still in the fight (ACS: all at once)."""
        options = self.options
        dice = self.dice
        able = [f for f in self.combat.fighters if f.out is None]
        bonus = options.prepared_bonus
        rolls = [dice.roll(AMBITION_DIE) for _ in able]
        # Prepared ambition: an attack readied last second, or one still under way, is ready
        # and aimed at its target as this second starts.
        prepared = [f.prepared or f.busy_end >= 0 for f in able]
        totals = [
            r + f.ambition_bonus + (bonus if ready else 0)
            for r, f, ready in zip(rolls, able, prepared, strict=True)
        ]
        keys = [f.ambition_bonus for f in able] if options.tie_break == "ambition_bonus" else None
        order, rolloffs = ambition_order(totals, dice, keys)
        for rank, position in enumerate(order):
            able[position].rank = rank
        winner = able[order[0]]
        tracing = self.combat.trace is not None
        for position, fighter in enumerate(able):
            giant = fighter.giant and options.giant_dice
            segments, faces, moves = roll_action_segments(
                fighter.actions, dice, giant, options.duplicates, fighter.per_segment
            )
            busy_end = fighter.busy_end
            if busy_end >= 0:
                # Slots inside a multi-segment action still under way are spent on it.
                segments = [s for s in segments if t0 + s - 1 > busy_end]
            fighter.prepared = False
            fighter.plan = segments
            fighter.used = []
            fighter.t0 = t0
            fighter.winner = fighter is winner
            fighter.free = fighter is winner and options.winner_free_action and busy_end < 0
            fighter.version += 1
            if tracing:
                self.combat.emit(
                    "ambition",
                    fighter,
                    second=self.second + 1,
                    roll=rolls[position],
                    bonus=fighter.ambition_bonus,
                    prepared=prepared[position],
                    total=totals[position],
                    rolloffs=rolloffs[position],
                    rank=fighter.rank + 1,
                    winner=fighter is winner,
                    faces=faces,
                    moves=moves,
                    segments=list(segments),
                )

    # -- combatants ------------------------------------------------------------------------------

    def _fighter(self, me: AcsFighter):
        """A combatant's process: sleep until its next action, act, repeat."""
        env = self.env
        combat = self.combat
        while True:
            if me.out is not None or combat.over:
                return
            if me.busy_end >= 0:
                wait_second = me.busy_end >= me.t0 + SEGMENTS
                when, priority, kind = me.busy_end, RANK_PRIORITY + me.rank, "complete"
            elif me.free:
                wait_second = False
                when, priority, kind = me.t0, FREE_ACTION_PRIORITY, "free"
            elif me.plan:
                wait_second = False
                when, priority, kind = me.t0 + me.plan[0] - 1, RANK_PRIORITY + me.rank, "act"
            else:
                wait_second = True
            version = me.version
            try:
                if wait_second:
                    yield self.second_started
                    continue
                yield wake_at(env, when, priority)
            except Interrupt:
                continue  # disrupted: the defense already cleared the action; plan again
            if me.out is not None or combat.over:
                return
            if me.version != version:
                continue  # a defense moved this action to a later segment
            if kind == "complete":
                me.busy_end = -1
                self._resolve(me, completing=True)
            elif kind == "free":
                me.free = False
                self._act(me, free=True)
            else:
                segment = me.plan.pop(0)
                me.used.append(segment)
                self._act(me, free=False)

    def _act(self, me: AcsFighter, free: bool) -> None:
        """Take one action: ready and aim, start a multi-segment attack, or attack now."""
        me.actions_taken += 1
        combat = self.combat
        if me.ready_last and not free and not me.plan:
            me.prepared = True
            if combat.trace is not None:
                combat.emit("ready", me, segment=self.segment_now(me), free=free)
            return
        if me.attack_segments > 1:
            now = self.env.now
            me.busy_end = now + me.attack_segments - 1
            t0 = me.t0
            kept = [s for s in me.plan if t0 + s - 1 > me.busy_end]
            if len(kept) != len(me.plan):
                me.plan = kept
                me.version += 1
            target = self._target(me)
            if combat.trace is not None:
                combat.emit(
                    "begin",
                    me,
                    target,
                    segment=self.segment_now(me),
                    free=free,
                    segments=me.attack_segments,
                )
            return
        self._resolve(me, free)

    def _target(self, me: AcsFighter) -> Fighter | None:
        combat = self.combat
        return pick_target(
            me, combat.enemies(me), combat.allies(me), combat.dice, me.choose, me.each_action
        )

    def _resolve(self, me: AcsFighter, free: bool = False, completing: bool = False) -> None:
        """Resolve an attack now (a one-segment action, or a long one completing)."""
        combat = self.combat
        target = self._target(me)
        if target is None:
            return
        me.attacks += 1
        if combat.trace is not None:
            kind = "complete" if completing else "act"
            combat.emit(kind, me, target, segment=self.segment_now(me), free=free)
        can_defend = self.can_defend(target)
        if self.resolution.attack(self, me, target, can_defend):
            self.defended(target)

    # -- defenses --------------------------------------------------------------------------------

    def segment_now(self, fighter: AcsFighter) -> int:
        """The segment (1..10) of the current second."""
        return int(self.env.now - fighter.t0) + 1

    def can_defend(self, target: AcsFighter) -> bool:
        """Whether ``target`` has a defensive action left in this segment and wants to use it."""
        if target.out is not None or target.defend == "never":
            return False
        now = self.env.now
        if target.def_t != now:
            target.def_t = now
            target.def_used = 0
        allowed = target.actions + (1 if target.winner and self.options.winner_extra_defense else 0)
        if target.def_used >= allowed:
            return False
        if target.defend == "keep_actions":
            if target.busy_end >= 0 and self.options.disruption:
                return False
            if target.plan and target.plan[0] == self.segment_now(target):
                return False
        return True

    def defended(self, target: AcsFighter) -> None:
        """Book-keep a defense roll: a defensive action used, an action lost, a disruption."""
        target.def_used += 1
        target.defenses += 1
        if target.out is not None:
            return
        options = self.options
        segment = self.segment_now(target)
        if options.defense_costs_action and target.plan and target.plan[0] == segment:
            target.plan.pop(0)
            target.version += 1
            moved_to = None
            if options.lost_action == "slide":
                taken = set(target.plan) | set(target.used)
                for candidate in range(segment + 1, SEGMENTS + 1):
                    if candidate not in taken:
                        moved_to = candidate
                        break
            if moved_to is None:
                target.actions_lost += 1
            else:
                target.plan.append(moved_to)
                target.plan.sort()
                target.actions_moved += 1
            if self.combat.trace is not None:
                self.combat.emit("action_lost", target, segment=segment, moved_to=moved_to)
        if target.busy_end >= 0 and options.disruption:
            target.busy_end = -1
            target.actions_disrupted += 1
            if self.combat.trace is not None:
                self.combat.emit("disrupted", target, segment=segment)
            target.proc.interrupt("disrupted")
