"""The ACS clock: seconds of ten segments, run as SimPy processes.

One process ticks the seconds: at the start of each it rolls everyone's ambition and action dice
(ACS "Listing a combat order"), ranks the combatants (:mod:`sim.rules.acs.ambition`) and places
their actions on segments (:mod:`sim.rules.acs.action_dice`). Each combatant is a process of its
own that sleeps until its next action. Segment ``s`` of second ``n`` (both from 1) happens at
simulation time ``10 * (n - 1) + s - 1``; inside a segment each wake-up carries the combatant's
ambition rank as its SimPy priority, and the winner's free action comes before everyone.

Defenses (ACS "Defenses"): a defense rolled on a segment where the defender still has an untaken
action costs that action, which slides to the defender's next free segment of the second if
there is one, or is taken at once as a defensive maneuver (option ``lost_action``). A defense
made while a multi-segment action (an attack, a spell, a maneuver: :mod:`sim.rules.acs.spells`)
is under way disrupts it (ACS "Action disruption"): the defender's process is interrupted and the
action starts over at its next action. An ambition winner in the middle of such an action spends
its free action on it (RULINGS part A): one segment of it is done before anyone acts.

What an attack does is left to a *resolution* (percentile by default; Target 10 or Proposition
Three for the hybrids), which reports whether the defender rolled a defense.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any, Generic
from weakref import ref

from simpy import Interrupt, Process
from simpy.events import NORMAL, Event

# now_of(env) is env.now, read through the engine's one SimPy adapter.
from sim.engine.combat import FIRST_RULE_PRIORITY, SEGMENTS_PER_SECOND, Combat, WakeUp, now_of
from sim.engine.space import distance
from sim.engine.tactics import pick_target
from sim.rules.acs.action_dice import SEGMENTS, roll_action_segments
from sim.rules.acs.ambition import AMBITION_DIE, ambition_bonus, ambition_order
from sim.rules.acs.defenses import costs_action, lost_action
from sim.rules.acs.fighter import AcsFighter
from sim.rules.acs.movement import engage, in_reach
from sim.rules.acs.resolution import DEFAULTS, StateT, StatsT
from sim.rules.acs.spells import Special, choose_action, perform

if TYPE_CHECKING:
    from sim.rules.acs.models import AcsClockOptions
    from sim.rules.acs.resolution import Resolution, Space

#: SimPy priority of the combatant ranked first in ambition; the next ranked gets one more, ...
RANK_PRIORITY = FIRST_RULE_PRIORITY


class AcsClock(Generic[StatsT, StateT]):
    """Runs one combat second by second.

    Args:
        combat: the fight.
        options: the scenario's options: the clock's and the resolution's, merged into one
            model (the resolution reads its own from ``clock.options``).
        resolution: what resolves an attack (see :mod:`sim.rules.acs.resolution`).
        space: the resolution's movement and range hooks when positions matter in this
            scenario (:mod:`sim.rules.acs.movement`); None when everyone is always in reach.
    """

    #: The event that starts the next second (the seconds process's own wake-up); set by the
    #: seconds process, which SimPy runs before any combatant's.
    next_second: Event

    def __init__(
        self,
        combat: Combat[AcsFighter[StatsT, StateT]],
        options: AcsClockOptions,
        resolution: Resolution[StatsT, StateT],
        space: Space[StatsT, StateT] | None = None,
    ) -> None:
        self.combat = combat
        self.env = combat.env
        self.dice = combat.dice
        self.options = options
        #: The same merged options, under the name the hybrids read them by. ``Any``: the
        #: merged model is made at run time from the resolution's own (``AcsOptions_<name>``),
        #: so no static type names the resolution's fields it holds.
        self.resolution_options: Any = options
        self.resolution = resolution
        self.second = 0
        self.limit_segments = combat.time_limit_s * SEGMENTS_PER_SECOND
        # Plain copies of the options read every second or on every action.
        self._extra_defense = 1 if options.winner_extra_defense else 0
        self._free_action = options.winner_free_action
        self._duplicates = options.duplicates
        self._prepared_bonus = options.prepared_bonus
        self._bonus_ties = options.tie_break == "ambition_bonus"
        self._costs_action = options.defense_costs_action
        self._lost_action = options.lost_action
        self._disruption = options.disruption
        self._attack = resolution.attack
        self._maneuver = resolution.defensive_maneuver
        #: Whether the combat records a trace (read on every attack).
        self.tracing = combat.trace is not None
        self._spatial = space is not None
        #: Movement and range hooks (reach everywhere when positions do not matter).
        self.space: Space[StatsT, StateT] = space if space is not None else DEFAULTS
        #: Whether a modifier or a defensive maneuver was taken this second: a resolution reads
        #: its fighters' boosts only then (cleared as each second starts).
        self.marked = False

    def start(self) -> None:
        """Set up the resolution's state, then start the seconds and one process per combatant."""
        self.resolution.begin(self)
        combat = self.combat
        if self._spatial and combat.trace is not None:
            combat.emit(
                "positions",
                at={f.name: f.pos for f in combat.fighters},
                unit=self.space.distance_unit,
            )
        env = self.env
        Process(env, self._seconds())
        for fighter in self.combat.fighters:
            fighter.proc = ref(Process(env, self._fighter(fighter)))

    # -- seconds ---------------------------------------------------------------------------------

    def _seconds(self) -> Generator[Event, object, None]:
        # Combatants with nothing left to do this second wait on this process's own timeout:
        # it was yielded here first, so SimPy resumes this process (which rolls the new second)
        # before any of them.
        env = self.env
        combat = self.combat
        limit = self.limit_segments - 1e-9
        while True:
            t0 = self.second * SEGMENTS_PER_SECOND
            if t0 >= limit:
                combat.finish("time_limit", combat.time_limit_s)
                return
            self._begin_second(t0)
            self.next_second = WakeUp(env, t0 + SEGMENTS_PER_SECOND, NORMAL)
            yield self.next_second
            self.second += 1

    def _begin_second(self, t0: int) -> None:
        """Roll ambition and action dice for everyone still in the fight (ACS: all at once)."""
        combat = self.combat
        roll = self.dice.roll
        able = [f for f in combat.fighters if f.out is None]
        # Prepared ambition: an attack readied last second, or one still under way, is ready
        # and aimed at its target as this second starts.
        ready = [f.prepared or (f.busy_end >= 0 and _aimed(f.pending)) for f in able]
        bonuses = [
            ambition_bonus(f.timing.ambition_bonus, r, self._prepared_bonus)
            for f, r in zip(able, ready, strict=True)
        ]
        totals = [roll(AMBITION_DIE) + bonus for bonus in bonuses]
        keys = [f.timing.ambition_bonus for f in able] if self._bonus_ties else None
        order, rolloffs = ambition_order(totals, self.dice, keys)
        for rank, position in enumerate(order):
            able[position].rank = rank
        winner = able[order[0]]
        for position, fighter in enumerate(able):
            timing = fighter.timing
            segments, faces, moves = roll_action_segments(
                timing.die, timing.action_dice, roll, self._duplicates, timing.per_segment
            )
            hasten = self._plan(fighter, fighter is winner, segments, t0)
            if combat.trace is not None:
                total = totals[position]
                combat.emit(
                    "ambition",
                    fighter,
                    second=self.second + 1,
                    roll=total - bonuses[position],
                    bonus=timing.ambition_bonus,
                    prepared=ready[position],
                    total=total,
                    rolloffs=list(rolloffs[position]),
                    rank=fighter.rank + 1,
                    winner=fighter is winner,
                    faces=faces,
                    moves=moves,
                    segments=list(fighter.plan),
                )
                if hasten:
                    combat.emit("hasten", fighter, completes=fighter.busy_end < t0)

    def _plan(
        self, fighter: AcsFighter[StatsT, StateT], won: bool, segments: list[int], t0: int
    ) -> bool:
        """Give a fighter its segments of the second starting at ``t0``; True if it hastens.

        RULINGS part A: a winner in the middle of a multi-segment action spends its free
        action on it (it hastens): one segment of it is done before anyone acts on segment 1.
        """
        busy_end = fighter.busy_end
        hasten = won and self._free_action and busy_end >= 0
        if hasten:
            busy_end -= 1
            fighter.busy_end = busy_end
        if busy_end >= 0:
            # Slots inside a multi-segment action still under way are spent on it.
            segments = [s for s in segments if t0 + s - 1 > busy_end]
        fighter.prepared = False
        fighter.plan = segments
        fighter.t0 = t0
        fighter.winner = won
        # With no action under way the free action is a new one; with one under way whose
        # last segment was segment 1, the free action completes it.
        fighter.free = won and self._free_action and busy_end < t0
        fighter.version += 1
        return hasten

    # -- combatants ------------------------------------------------------------------------------

    def _fighter(self, me: AcsFighter[StatsT, StateT]) -> Generator[Event, object, None]:
        """A combatant's process: sleep until its next action, act, repeat."""
        env = self.env
        combat = self.combat
        wake_up = WakeUp
        while True:
            if me.out is not None or combat.end_reason is not None:
                return
            busy_end = me.busy_end
            if busy_end >= 0:
                if me.free:
                    # The ambition winner's free action completes the action under way.
                    me.free = False
                    self._complete(me, True)
                    continue
                if busy_end >= me.t0 + SEGMENTS:
                    wake = None
                else:
                    wake = wake_up(env, busy_end, RANK_PRIORITY + me.rank)
                    completes = True
            elif me.free:
                # The ambition winner's free action, before anyone else's on segment 1. The
                # start of the second has just resumed this process (SimPy's normal priority,
                # ahead of every rank-ordered wake-up at this time; and only the winner acts
                # before those), so it is taken at once.
                me.free = False
                self._act(me, True)
                continue
            elif me.plan:
                wake = wake_up(env, me.t0 + me.plan[0] - 1, RANK_PRIORITY + me.rank)
                completes = False
            else:
                wake = None
            version = me.version
            try:
                if wake is None:
                    yield self.next_second
                    continue
                yield wake
            except Interrupt:
                continue  # disrupted: the defense already cleared the action; plan again
            if me.out is not None or combat.end_reason is not None:
                return
            if me.version != version:
                continue  # a defense moved this action to a later segment
            if not completes:
                del me.plan[0]
                self._act(me, False)
            else:
                me.busy_end = -1
                if me.pending is None:
                    self.attack_now(me, completing=True)
                else:
                    self._complete(me, False)

    def _complete(self, me: AcsFighter[StatsT, StateT], free: bool) -> None:
        """A multi-segment action under way completes now: its effect, or its attack."""
        me.busy_end = -1
        special = me.pending
        if special is None:
            self.attack_now(me, free, completing=True)
        else:
            me.pending = None
            perform(self, me, special, free, True)

    def _act(self, me: AcsFighter[StatsT, StateT], free: bool) -> None:
        """Take one action: ready and aim, start a multi-segment action, or act now.

        The action is the first named action its tactics allow (:mod:`sim.rules.acs.spells`),
        else the plain attack.
        """
        me.actions_taken += 1
        timing = me.timing
        if timing.ready_last_action and not free and not me.plan:
            me.prepared = True
            combat = self.combat
            if combat.trace is not None:
                combat.emit("ready", me, segment=self.segment_now(me), free=free)
            return
        special = choose_action(self, me) if timing.specials else None
        segments = timing.attack_segments if special is None else special.segments
        if segments > 1:
            if special is None and self._spatial:
                target = self.target_of(me)
                if target is None or engage(self, me, target):
                    return
            combat = self.combat
            now = now_of(self.env)
            me.busy_end = now + segments - 1
            me.pending = special
            t0 = me.t0
            kept = [s for s in me.plan if t0 + s - 1 > me.busy_end]
            if len(kept) != len(me.plan):
                me.plan = kept
                me.version += 1
            target = self.target_of(me) if special is None or special.aimed else None
            if combat.trace is not None:
                named = {} if special is None else {"action": special.name}
                combat.emit(
                    "begin",
                    me,
                    target,
                    segment=self.segment_now(me),
                    free=free,
                    segments=segments,
                    **named,
                )
            return
        if special is None:
            self.attack_now(me, free)
        else:
            perform(self, me, special, free, False)

    def target_of(self, me: AcsFighter[StatsT, StateT]) -> AcsFighter[StatsT, StateT] | None:
        """Whom ``me`` attacks now, by its target tactics (None when no enemy is left)."""
        target = me.target
        each_action = me.timing.each_action
        if target is not None and target.out is None and not each_action:
            return target  # what pick_target keeps, without listing everyone
        combat = self.combat
        return pick_target(
            me, combat.enemies(me), combat.allies(me), combat.dice, me.timing.choose, each_action
        )

    def attack_now(
        self,
        me: AcsFighter[StatsT, StateT],
        free: bool = False,
        completing: bool = False,
        name: str | None = None,
    ) -> None:
        """Resolve an attack now (a one-segment action, or a long one completing).

        ``name`` is that of the named action it belongs to, if any (for the replay).
        """
        target = me.target
        if target is None or target.out is not None or me.timing.each_action:
            target = self.target_of(me)
            if target is None:
                return
        if self._spatial and name is None:
            if completing:
                if not in_reach(self, me, target):
                    # The target moved out of reach while the attack was under way.
                    if self.tracing:
                        self.combat.emit("escaped", me, target, segment=self.segment_now(me))
                    return
            elif engage(self, me, target):
                return
        me.attacks += 1
        if self.tracing:
            kind = "complete" if completing else "act"
            named: dict[str, object] = {} if name is None else {"action": name}
            if self._spatial and (gap := distance(me, target)) > me.reach:
                named["shot"] = gap
                named["unit"] = self.space.distance_unit
            self.combat.emit(kind, me, target, segment=self.segment_now(me), free=free, **named)
        if self._attack(self, me, target, self.can_defend(target)):
            self.defended(target)

    # -- defenses --------------------------------------------------------------------------------

    def segment_now(self, fighter: AcsFighter[StatsT, StateT]) -> int:
        """The segment (1..10) of the current second.

        The clock's times are whole segments (:class:`~sim.engine.combat.WakeUp` takes integers), so
        the difference of two times is one.
        """
        return now_of(self.env) - fighter.t0 + 1

    def can_defend(self, target: AcsFighter[StatsT, StateT]) -> bool:
        """Whether ``target`` has a defensive action left in this segment and wants to use it."""
        if target.out is not None:
            return False
        timing = target.timing
        defend = timing.defend
        if defend == "never":
            return False
        # Defensive actions used count in the segment of the last one (``def_t``) only: most
        # attacks meet a defender that has not defended yet in this segment.
        if (
            target.def_t == now_of(self.env)
            and target.def_used >= timing.actions + (self._extra_defense if target.winner else 0)
            and target.guarded != self.second
        ):
            return False
        if defend == "keep_actions":
            if target.busy_end >= 0 and self._disruption:
                return False
            if target.plan and target.plan[0] == self.segment_now(target):
                return False
        return True

    def defended(self, target: AcsFighter[StatsT, StateT]) -> None:
        """Book-keep a defense roll: a defensive action used, an action lost, a disruption."""
        now = now_of(self.env)
        if target.def_t == now:
            target.def_used += 1
        else:
            target.def_t = now
            target.def_used = 1
        target.defenses += 1
        if target.out is not None:
            return
        segment = now - target.t0 + 1
        if costs_action(target.plan, segment, self._costs_action):
            self._lose_action(target, segment)
        if target.busy_end >= 0 and self._disruption:
            target.busy_end = -1
            target.pending = None
            target.actions_disrupted += 1
            if self.combat.trace is not None:
                self.combat.emit("disrupted", target, segment=segment)
            process = target.proc()
            assert process is not None, "a fighter's process lives while it is in the fight"
            process.interrupt("disrupted")

    def _lose_action(self, target: AcsFighter[StatsT, StateT], segment: int) -> None:
        """A defense cost ``target`` its action on ``segment``: it slides, maneuvers or is gone."""
        plan = target.plan
        plan.pop(0)
        target.version += 1
        lost = lost_action(plan, segment, self._lost_action, target.maneuver == self.second)
        combat = self.combat
        if lost.maneuver:
            # "or by a defensive maneuver that requires a free action remaining in the second":
            # taken at once.
            target.maneuver = self.second
            target.actions_taken += 1
            self._maneuver(self, target)
            if combat.trace is not None:
                combat.emit("maneuver", target, segment=segment)
            return
        if lost.moved_to is None:
            target.actions_lost += 1
        else:
            plan.append(lost.moved_to)
            plan.sort()
            target.actions_moved += 1
        if combat.trace is not None:
            combat.emit("action_lost", target, segment=segment, moved_to=lost.moved_to)


def _aimed(special: Special | None) -> bool:
    """Whether an action under way is an attack ready and aimed (prepared ambition)."""
    return special is None or special.aimed
