"""Proposition Three resolution on the ACS clock (``rules: acs``, ``options: {resolution: prop3}``).

The Ambition Combat System is "a timing framework ... to be modified to fit each game's
mechanics" (ACS text; RULINGS part A): its seconds, ambition and action dice decide *who acts
when*; here Combat Proposition Three decides *what an attack does*:

- each ACS action is one melee attack of :mod:`~sim.rules.prop3.melee`: declarations, pools,
  wiggle points, outcomes, fumbles, critical defenses and the damage track, with the same options
  (:class:`~sim.rules.prop3.models.DiceOptions`); the combatant's ``hp`` is its Vigor;
- "initiative" is the ACS order of the second: of an attacker and its target, the one with the
  lower ambition rank declares its form first;
- a target may defend only with an ACS defensive action left in the segment (ACS "Defenses", the
  tactic ``defend``); without one it is undefended. A Proposition Three defense roll is an ACS
  defense: it may cost the defender its action on this segment or disrupt a long one. Defending
  uses no Proposition Three action, as in rounds;
- counter-attacks (fumble 3, critical parry) are free attacks, not ACS actions; a defense against
  one is an ACS defense like any other;
- "until the next action" (stumble, fall, critical block and dodge, a dropped weapon) means until
  the combatant's next ACS attack, which a dropped weapon spends on picking it up;
- "that round" of the melee cluster rule is the ACS second.

Rounds, Proposition Three initiative, movement and missiles do not exist here: the ACS clock
orders everything, and ACS (under any resolution) has everyone engaged from the start.

The fight and each fighter's :class:`HybridBody` are built by the start-of-combat hook
(:meth:`Prop3Resolution.begin`), after the fighters are spawned and before the first second;
building them rolls no dice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.rules.prop3.character import Body, Profile
from sim.rules.prop3.counters import counter_attack
from sim.rules.prop3.fight import Fight
from sim.rules.prop3.melee import melee_attack
from sim.rules.prop3.models import DiceOptions, HybridCombatant, Rules
from sim.rules.prop3.narration import NARRATION

if TYPE_CHECKING:
    from sim.rules.acs.clock import AcsClock, AcsFighter


class HybridOptions(DiceOptions):
    """The Proposition Three options of the hybrid (the ACS clock's own options come with them).

    Exactly the attack options of ``rules: prop3`` (:class:`~sim.rules.prop3.models.DiceOptions`):
    rounds, initiative, movement and missiles are the clock's business here.
    """


class HybridFight(Fight):
    """A fight on the ACS clock: ambition rank for initiative, ACS defensive actions.

    Attributes:
        clock: the ACS clock that runs the combat.
        primary_can: whether the target of the current ACS action may defend.
        second: the ACS second whose melee cluster the fight counts.
    """

    __slots__ = ("clock", "primary_can", "second")

    def __init__(self, clock: AcsClock, rules: Rules) -> None:
        super().__init__(clock.combat, rules, counter_attack)
        self.clock = clock
        self.primary_can = True
        self.second = -1

    def higher(self, a: AcsFighter, b: AcsFighter) -> bool:
        """Whether ``a`` is ahead of ``b`` in this second's ambition order."""
        return a.rank < b.rank

    def can_defend(self, defender: AcsFighter, primary: bool) -> bool:
        """The clock's answer: a defensive action left in this segment, and the will to use it."""
        return self.primary_can if primary else self.clock.can_defend(defender)

    def defense_rolled(self, defender: AcsFighter, primary: bool) -> None:
        """An ACS defense: the clock books it (for the action's own target, after the attack)."""
        if not primary:
            self.clock.defended(defender)

    def lose_vigor(self, attacker: AcsFighter | None, target: AcsFighter, wounds: int) -> None:
        """Vigor is the hit points of the ACS fighter: the engine takes it out at 0."""
        self.combat.damage(attacker, target, wounds, 0, "down")
        if target.out is not None:
            self.taken_out(target)


class HybridBody(Body):
    """What changes in one fight for a combatant on the ACS clock, and the fight it is in.

    Attributes:
        fight: the combat's :class:`HybridFight` (an ACS fighter's ``state``).
    """

    __slots__ = ("fight",)

    def __init__(self, profile: Profile, fight: HybridFight) -> None:
        super().__init__(profile)
        self.fight = fight


class Prop3Resolution:
    """The ``prop3`` resolution of the ACS clock."""

    name = "prop3"
    narration = NARRATION
    options_model = HybridOptions
    combatant_model = HybridCombatant

    def stats(self, model: HybridCombatant, options: DiceOptions) -> Profile:
        """Plain stats for the hot path (options are the merged ACS + Proposition Three ones)."""
        return Profile(model, options)

    def begin(self, clock: AcsClock) -> None:
        """Start of combat: the fight, and each fighter's body (``state``); no dice are rolled."""
        fight = HybridFight(clock, Rules(clock.resolution_options))
        for f in clock.combat.fighters:
            f.state = HybridBody(f.stats, fight)

    def attack(
        self, clock: AcsClock, attacker: AcsFighter, target: AcsFighter, can_defend: bool
    ) -> bool:
        """Resolve one attack; True when the target rolled a defense."""
        body: HybridBody = attacker.state
        fight = body.fight
        if fight.second != clock.second:
            fight.second = clock.second
            fight.cluster.new_round()
        closing = fight.begin_action(attacker)
        if not body.armed:
            body.armed = True
            if fight.tracing:
                fight.combat.emit("pick_up", attacker)
            rolled = False
        else:
            fight.primary_can = can_defend
            rolled = melee_attack(fight, attacker, target, primary=True)
        fight.end_action(closing)
        return rolled


PROP3_RESOLUTION = Prop3Resolution()
"""The resolution that the registry lists under ``prop3``."""
