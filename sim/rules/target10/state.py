"""What a Target 10 combat's rounds share: the options on the hot path and the fight's state.

Target 10 text, "Combat Tests": "Combat is conducted in 'rounds'. A round is roughly one minute
long" (600 clock units, 60 s of game time). :class:`RoundRules` is the scenario's
:class:`~sim.rules.target10.models.CombatOptions` read once into plain values; :class:`RoundState`
is one combat in progress as the round's concerns see it (movement, attacks, effects,
conditions, parley): the combat, its dice, its fighters, and who must be looked at again at the
end of a step or a round. The concern modules are functions of a :class:`RoundState`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from sim.engine.combat import Combat
from sim.engine.dice import Dice, DiceExpr
from sim.rules.target10.combat_rolls import CombatTest
from sim.rules.target10.combatant import T10Fighter
from sim.rules.target10.models import CombatOptions
from sim.rules.target10.movements import ADVANCE, CHARGE, MOVEMENTS
from sim.rules.target10.skill_tests import D20Roll

#: Clock units in a round (one minute), and its game time in seconds.
ROUND = 600
ROUND_S = 60.0

#: Movements a withdrawing combatant may still attack, by option ``withdraw_attacks``.
_WITHDRAW_VS: dict[str, Collection[int]] = {
    "advancing": (ADVANCE, CHARGE),
    "advance": (ADVANCE,),
    "always": range(len(MOVEMENTS)),
    "never": (),
}


@dataclass(frozen=True, slots=True)
class RoundRules:
    """The combat options as the round reads them (RULINGS part B; names as in the options)."""

    test: CombatTest
    test_target: int
    unconscious_dice: DiceExpr
    wake_up: bool
    advance: float
    withdraw: float
    maneuver_paces: float
    run_multiplier: float
    flee_auto_hit: str
    fleer_acts: bool
    held_still: bool
    maneuver_keeps: bool
    firearm_reload: int
    cover_all: bool
    escape: str
    withdraw_vs: frozenset[int]
    stand_declared: bool
    ground_pen: int
    pin_pen: int
    pen_values: bool
    disarm_shoot: bool
    disarm_dice: DiceExpr
    maneuver_bonus: int
    neg_target: bool
    neg_next: bool
    neg_any: bool

    @classmethod
    def of(cls, options: CombatOptions) -> RoundRules:
        """Read a scenario's validated combat options."""
        return cls(
            test=CombatTest.of(options),
            test_target=options.test_target,
            unconscious_dice=DiceExpr.parse(options.unconscious_rounds),
            wake_up=options.wake_up,
            advance=options.advance_paces,
            withdraw=options.withdraw_paces,
            maneuver_paces=options.maneuver_paces,
            run_multiplier=options.run_multiplier,
            flee_auto_hit=options.flee_auto_hit,
            fleer_acts=options.fleer_acts,
            held_still=options.held_cannot_move,
            maneuver_keeps=options.maneuver_keeps_action,
            firearm_reload=options.firearm_reload,
            cover_all=options.cover_against == "all",
            escape=options.escape,
            withdraw_vs=frozenset(_WITHDRAW_VS[options.withdraw_attacks]),
            stand_declared=options.stand_blocked_by == "declared",
            ground_pen=options.ground_penalty,
            pin_pen=options.pin_penalty,
            pen_values=options.penalties_as == "values",
            disarm_shoot=options.disarm_value == "shoot",
            disarm_dice=DiceExpr.parse(options.disarm_paces),
            maneuver_bonus=options.maneuver_bonus,
            neg_target=options.negotiate_scope == "target",
            neg_next=options.negotiate_hold == "one_round",
            neg_any=options.negotiate_broken_by == "any_attack",
        )


@dataclass(frozen=True, slots=True)
class DuelPlan:
    """What a static duel's rounds keep from its start: each side's combat test and action.

    Nothing in a static duel changes FIGHT, DEFENSE or the situational modifiers, so each side's
    combat test is the same every round: its rolls, by d20 face. They depend only on the
    scenario (stats, positions, options), as does whether a fight is a static duel at all, so a
    chunk works them out for its first combat (:class:`LaneMemo`) and keeps them
    (:mod:`~sim.rules.target10.duel`).
    """

    a_rolls: tuple[D20Roll, ...]
    b_rolls: tuple[D20Roll, ...]
    a_kind: int  # Kill or Subdue, every round
    b_kind: int


class LaneMemo:
    """A chunk's answer to "is this scenario a static duel, and with which plan?", once known.

    Every combat of a chunk starts from the same roster (hit points aside, which the duel's
    checks and tables do not read), so the first combat's answer holds for all of them.
    """

    __slots__ = ("known", "plan")

    def __init__(self) -> None:
        self.known = False
        self.plan: DuelPlan | None = None


class RoundState:
    """One Target 10 combat in progress, as the round's concerns read and change it.

    Args:
        combat: the fight (its fighters are :class:`~sim.rules.target10.combatant.T10Fighter`).
        rules: the rule options.
        lane: the chunk's memo of the duel lane (:class:`LaneMemo`),
            shared by its combats; None: each combat looks for itself.
    """

    __slots__ = (
        "changed",
        "combat",
        "dice",
        "fighters",
        "flight",
        "lane",
        "rules",
        "run_multiplier",
        "sleepers",
        "tracing",
    )

    def __init__(
        self, combat: Combat[T10Fighter], rules: RoundRules, lane: LaneMemo | None = None
    ) -> None:
        self.combat = combat
        self.lane = lane
        self.dice: Dice = combat.dice
        self.fighters: list[T10Fighter] = combat.fighters
        self.rules = rules
        self.run_multiplier = rules.run_multiplier
        self.sleepers: list[T10Fighter] = []
        self.changed = False  # someone left the fight: check whether it is over
        self.flight = False  # someone fled this round: see at its end who got away
        self.tracing = combat.trace is not None

    # -- counting and choosing, for tactics -------------------------------------------------------

    def count_enemies(self, me: T10Fighter) -> int:
        """Able combatants of other sides."""
        side = me.side
        return sum(1 for f in self.fighters if f.out is None and f.side != side)

    def count_allies(self, me: T10Fighter) -> int:
        """Able combatants of its side other than itself."""
        side = me.side
        return sum(1 for f in self.fighters if f.out is None and f.side == side and f is not me)

    def choose(self, me: T10Fighter) -> T10Fighter | None:
        """A new target for ``me`` by its tactics (None when no enemy is left)."""
        side = me.side
        enemies = []  # a plain loop, as the round lists who is able
        for f in self.fighters:
            if f.out is None and f.side != side:
                enemies.append(f)
        if not enemies:
            me.target = None
            return None
        if len(enemies) == 1:
            target = enemies[0]
        else:
            allies = [f for f in self.fighters if f.out is None and f.side == side and f is not me]
            target = me.stats.choose(me, enemies, allies, self.dice)
        me.target = target
        return target
