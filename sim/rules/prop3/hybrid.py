"""Proposition Three resolution on the ACS clock (``rules: acs``, ``options: {resolution: prop3}``).

The Ambition Combat System is "a timing framework ... to be modified to fit each game's
mechanics" (ACS text; RULINGS part A): its seconds, ambition and action dice decide *who acts
when*; here Combat Proposition Three decides *what an attack does*:

- each ACS action on a target within ``melee_range`` feet is one melee attack of
  :mod:`~sim.rules.prop3.melee`; one on a target farther away but within shooting distance is one
  missile attack of :mod:`~sim.rules.prop3.missiles` (range increments, maximum range, aiming,
  size, missile defense, armor after a failed defense, focused fire): the same functions as in
  rounds, with the same options (:class:`~sim.rules.prop3.models.RangeOptions`); the
  combatant's ``hp`` is its Vigor;
- "initiative" is the ACS order of the second: of an attacker and its target, the one with the
  lower ambition rank declares its form first;
- a target may defend only with an ACS defensive action left in the segment (ACS "Defenses", the
  tactic ``defend``); without one it is undefended. A Proposition Three defense roll, against a
  blow or a missile, is an ACS defense: it may cost the defender its action on this segment or
  disrupt a long one. Defending uses no Proposition Three action, as in rounds;
- counter-attacks (fumble 3, critical parry) are free attacks, not ACS actions, in melee or with
  a missile as in rounds (:mod:`~sim.rules.prop3.counters`); a defense against one is an ACS
  defense like any other;
- "until the next action" (stumble, fall, critical block and dodge, a dropped weapon) means until
  the combatant's next ACS action; a dropped weapon (melee or missile) is picked up by it;
- "that round" of the melee cluster and of focused fire is the ACS second.

Movement and range (:mod:`sim.rules.acs.movement` asks the hooks below): positions are the
engine's, in feet; a combatant's reach is ``melee_range``; it may shoot as far as the round lets
it (``missiles.shot_reach``: the bow in hand, shots left, ``min_shot_dice``, the maximum range);
a movement covers the combatant's ``speed`` (feet per round) spread over the ``round_seconds``
seconds a round lasts on the clock and over its actions: ``speed / round_seconds / actions`` feet
per action. A round of aim (the tactic ``aim``) is ``aim_actions`` actions in a row.

The fight and each fighter's :class:`HybridBody` are built by the start-of-combat hook
(:meth:`Prop3Resolution.begin`), after the fighters are spawned and before the first second;
building them rolls no dice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from sim.engine.space import distance
from sim.rules.acs.movement import per_action
from sim.rules.acs.resolution import Defaults
from sim.rules.prop3.character import AIM_ALWAYS, AIM_NEVER, Body, Profile
from sim.rules.prop3.counters import counter_attack
from sim.rules.prop3.fight import Fight, weapon_down
from sim.rules.prop3.melee import melee_attack
from sim.rules.prop3.missiles import missile_attack, shot_reach
from sim.rules.prop3.models import HybridCombatant, RangeOptions, Rules
from sim.rules.prop3.narration import HYBRID_NARRATION

if TYPE_CHECKING:
    from typing import TypeAlias

    from sim.rules.acs.clock import AcsClock, AcsFighter

    #: A combatant on the ACS clock with a Proposition Three body, and the clock they run on.
    HybridFighter: TypeAlias = "AcsFighter[HybridProfile, HybridBody]"
    HybridClock: TypeAlias = "AcsClock[HybridProfile, HybridBody]"

#: Shooting distance while a dropped weapon waits: none is too far, the action picks it up.
_ANYWHERE = float("inf")


class HybridOptions(RangeOptions):
    """The Proposition Three options of the hybrid (the ACS clock's own options come with them).

    The attack and range options of ``rules: prop3``
    (:class:`~sim.rules.prop3.models.RangeOptions`); rounds, initiative and start positions are
    the clock's business here (its ``round_seconds`` and ``start_distance``).
    """

    aim_actions: int = Field(
        1,
        ge=1,
        le=100,
        description="ACS actions in a row that make the round of aiming of the tactic aim (the "
        "text: 'taking a round to study your opponent'); the next shot gets its wiggle point.",
    )


class HybridProfile(Profile):
    """A stat block on the clock: the round's profile, its reach and how long it aims.

    Attributes:
        reach: feet within which it fights in melee (the option ``melee_range``).
        aim_actions: actions a round of aiming takes (the option ``aim_actions``).
    """

    __slots__ = ("aim_actions", "reach")

    def __init__(self, model: HybridCombatant, options: HybridOptions) -> None:
        super().__init__(model, options)
        self.reach: float = options.melee_range
        self.aim_actions: int = options.aim_actions


class HybridFight(Fight["AcsFighter[HybridProfile, HybridBody]"]):
    """A fight on the ACS clock: ambition rank for initiative, ACS defensive actions.

    Attributes:
        clock: the ACS clock that runs the combat.
        primary_can: whether the target of the current ACS action may defend.
        second: the ACS second whose melee cluster and focused fire the fight counts.
    """

    __slots__ = ("clock", "primary_can", "second")

    def __init__(self, clock: HybridClock, rules: Rules) -> None:
        super().__init__(clock.combat, rules, counter_attack)
        self.clock = clock
        self.primary_can = True
        self.second = -1

    def higher(self, a: HybridFighter, b: HybridFighter) -> bool:
        """Whether ``a`` is ahead of ``b`` in this second's ambition order."""
        return a.rank < b.rank

    def distance(self, a: HybridFighter, b: HybridFighter) -> float:
        """Feet between two combatants on the engine's line (:func:`sim.engine.space.distance`)."""
        return distance(a, b)

    def can_defend(self, defender: HybridFighter, primary: bool) -> bool:
        """The clock's answer: a defensive action left in this segment, and the will to use it."""
        return self.primary_can if primary else self.clock.can_defend(defender)

    def defense_rolled(self, defender: HybridFighter, primary: bool) -> None:
        """An ACS defense: the clock books it (for the action's own target, after the attack)."""
        if not primary:
            self.clock.defended(defender)

    def lose_vigor(
        self, attacker: HybridFighter | None, target: HybridFighter, wounds: int
    ) -> None:
        """Vigor is the hit points of the ACS fighter: the engine takes it out at 0."""
        self.combat.damage(attacker, target, wounds, 0, "down")
        if target.out is not None:
            self.taken_out(target)


class HybridBody(Body):
    """What changes in one fight for a combatant on the ACS clock, and the fight it is in.

    Attributes:
        fight: the combat's :class:`HybridFight` (an ACS fighter's ``state``).
        aiming_at: whom its last actions aimed at (``aim``, the round's, is set once a whole
            round of aiming is done).
        aiming: how many actions in a row it has aimed at ``aiming_at``.
        aimed_on: its ``actions_taken`` count at its last aiming action.
    """

    __slots__ = ("aimed_on", "aiming", "aiming_at", "fight")

    def __init__(self, profile: Profile, fight: HybridFight) -> None:
        super().__init__(profile)
        self.fight = fight
        self.aiming_at: HybridFighter | None = None
        self.aiming = 0
        self.aimed_on = -1


class Prop3Resolution(Defaults[HybridProfile, HybridBody]):
    """The ``prop3`` resolution of the ACS clock (the replay's verbs of moving: the clock's)."""

    name = "prop3"
    narration = HYBRID_NARRATION
    options_model = HybridOptions
    combatant_model = HybridCombatant

    def stats(self, model: HybridCombatant, options: HybridOptions) -> HybridProfile:
        """Plain stats for the hot path (options are the merged ACS + Proposition Three ones)."""
        return HybridProfile(model, options)

    def begin(self, clock: HybridClock) -> None:
        """Start of combat: the fight, and each fighter's body (``state``); no dice are rolled."""
        fight = HybridFight(clock, Rules(clock.resolution_options))
        for f in clock.combat.fighters:
            f.state = HybridBody(f.stats, fight)

    def attack(
        self,
        clock: HybridClock,
        attacker: HybridFighter,
        target: HybridFighter,
        can_defend: bool,
    ) -> bool:
        """Resolve one action on ``target``; True when the target rolled a defense.

        A dropped weapon is picked up; within ``melee_range`` it is a melee attack; farther, a
        shot if the round would shoot from there; else nothing (a named attack out of reach).
        """
        body: HybridBody = attacker.state
        fight = body.fight
        if fight.second != clock.second:
            fight.second = clock.second
            fight.cluster.new_round(fight.rules.volley_round)
        closing = fight.begin_action(attacker)
        rolled = False
        if not fight.pick_up(attacker):
            fight.primary_can = can_defend
            distance = fight.distance(attacker, target)
            if distance <= fight.rules.melee_range:
                body.aim = None
                rolled = melee_attack(fight, attacker, target, primary=True)
            else:
                reach = shot_reach(attacker, target)
                if reach is not None and distance <= reach:
                    rolled = missile_attack(fight, attacker, target, primary=True)
        fight.end_action(closing)
        return rolled

    # -- movement and range (:mod:`sim.rules.acs.movement`) ---------------------------------------

    distance_unit = "feet"

    def reach(self, stats: HybridProfile) -> float:
        """Melee range, in feet (the option ``melee_range``)."""
        return stats.reach

    def shot_range(self, clock: HybridClock, me: HybridFighter) -> float:
        """How far ``me`` would shoot at its target now: the round's ``shot_reach`` (0: no shot).

        With a weapon dropped, anywhere: its next action picks it up (:meth:`ready_shot`), as a
        round's turn does before anything else.
        """
        body: HybridBody = me.state
        if weapon_down(body):
            return _ANYWHERE
        target = me.target
        reach = None if target is None else shot_reach(me, target)
        return 0.0 if reach is None else reach

    def step(self, clock: HybridClock, me: HybridFighter, movement: str) -> float:
        """Feet one action of any movement covers: ``speed / round_seconds / actions``.

        Moving spoils an aim (the round: aiming is the action just before the shot).
        """
        body: HybridBody = me.state
        body.aim = None
        return per_action(body.profile.speed, clock.options.round_seconds, me.actions)

    def ready_shot(self, clock: HybridClock, me: HybridFighter, target: HybridFighter) -> bool:
        """Before a shot: pick up a dropped weapon, or aim (tactic ``aim``); True: not shooting.

        A round of aim is ``aim_actions`` actions in a row at this target; anything else in
        between (a move, a melee attack, an aim at someone else) starts it again, and a shot
        without the whole round gets no aiming wiggle point.
        """
        body: HybridBody = me.state
        fight = body.fight
        if fight.pick_up(me):
            return True
        profile: HybridProfile = me.stats
        aim = profile.aim
        if aim == AIM_NEVER:
            return False
        now = me.actions_taken
        if body.aiming_at is not target or body.aimed_on != now - 1:
            body.aiming_at = None
            body.aiming = 0
            if body.aimed_on != now - 1:
                body.aim = None
        if (aim != AIM_ALWAYS and body.fired) or body.aiming >= profile.aim_actions:
            return False
        body.aiming_at = target
        body.aiming += 1
        body.aimed_on = now
        if body.aiming >= profile.aim_actions:
            body.aim = target
        if fight.tracing:
            fight.combat.emit(
                "aim",
                me,
                target,
                action=body.aiming,
                of=profile.aim_actions,
                segment=clock.segment_now(me),
            )
        return True


PROP3_RESOLUTION = Prop3Resolution()
"""The resolution that the registry lists under ``prop3``."""
