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
from sim.rules.target10.exchange import AttackInput, ExchangeRules
from sim.rules.target10.models import CombatOptions
from sim.rules.target10.movements import ADVANCE, CHARGE, MOVEMENTS

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
    """The combat options as the round reads them (RULINGS part B; names as in the options).

    ``exchange`` holds those an attack reads (:class:`~sim.rules.target10.exchange.
    ExchangeRules`), the others are the round's.
    """

    test: CombatTest
    exchange: ExchangeRules
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
    firearm_reload: int
    escape: str
    withdraw_vs: frozenset[int]
    stand_declared: bool
    ground_pen: int
    pin_pen: int
    disarm_shoot: bool
    disarm_dice: DiceExpr
    neg_target: bool
    neg_next: bool
    neg_any: bool

    @classmethod
    def of(cls, options: CombatOptions) -> RoundRules:
        """Read a scenario's validated combat options."""
        test = CombatTest.of(options)
        return cls(
            test=test,
            exchange=ExchangeRules(
                test=test,
                cover_all=options.cover_against == "all",
                penalties_on_values=options.penalties_as == "values",
                maneuver_bonus=options.maneuver_bonus,
                keeps_action=options.maneuver_keeps_action,
            ),
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
            firearm_reload=options.firearm_reload,
            escape=options.escape,
            withdraw_vs=frozenset(_WITHDRAW_VS[options.withdraw_attacks]),
            stand_declared=options.stand_blocked_by == "declared",
            ground_pen=options.ground_penalty,
            pin_pen=options.pin_penalty,
            disarm_shoot=options.disarm_value == "shoot",
            disarm_dice=DiceExpr.parse(options.disarm_paces),
            neg_target=options.negotiate_scope == "target",
            neg_next=options.negotiate_hold == "one_round",
            neg_any=options.negotiate_broken_by == "any_attack",
        )


class RoundState:
    """One Target 10 combat in progress, as the round's concerns read and change it.

    Args:
        combat: the fight (its fighters are :class:`~sim.rules.target10.combatant.T10Fighter`).
        rules: the rule options.
        exchanges: the attacks' inputs made so far, shared by the combats of a scenario's
            preparation (:func:`~sim.rules.target10.attacks.exchange_for`); None: this
            combat's own.
    """

    __slots__ = (
        "changed",
        "combat",
        "dice",
        "exchanges",
        "fighters",
        "flight",
        "rules",
        "sleepers",
        "tracing",
    )

    def __init__(
        self,
        combat: Combat[T10Fighter],
        rules: RoundRules,
        exchanges: dict[tuple[object, ...], AttackInput] | None = None,
    ) -> None:
        self.combat = combat
        self.exchanges = exchanges if exchanges is not None else {}
        self.dice: Dice = combat.dice
        self.fighters: list[T10Fighter] = combat.fighters
        self.rules: RoundRules = rules
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
        enemies = [f for f in self.fighters if f.out is None and f.side != side]
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
