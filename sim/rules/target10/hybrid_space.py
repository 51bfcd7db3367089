"""Target 10's movements and shots on the ACS clock: the space hooks of the ``target10`` resolution.

ACS text, "Movement": movement "takes place over the course of actions and segments" and "is
based on the mechanics utilizing this system". The clock (:mod:`sim.rules.acs.movement`) asks
the resolution how far one action goes and whether a shot is ready; Target 10 answers with its
own movements (text, "Movements"; RULINGS part B; ``docs/rules/target10.md``, "Target 10 on
the ACS clock"):

- closing in is an Advance (``advance_paces`` a round, guard up) or a Charge (``run_multiplier``
  x ``speed`` a round: 30 paces for humans), by the tactic ``close`` (default ``advance``, the
  round's own default declaration when out of reach and range);
- fleeing is a Flee (``run_multiplier`` x ``speed`` a round), stepping back to keep a distance a
  Withdraw (``withdraw_paces`` a round);
- a round's distance is spread over ``round_seconds`` seconds of the clock (clock option, default
  6), and a second's over the mover's actions: :func:`~sim.rules.acs.movement.per_action`;
- reach is the melee weapon's, range the ranged weapon's while it has ammunition
  (:func:`~sim.rules.target10.ammunition.after_shot` counts it down); a firearm needs
  ``firearm_reload`` rounds, that many x ``round_seconds`` seconds of the clock, after each shot
  (:func:`reload_segments`), and an action that would shoot meanwhile goes to reloading.

The rules these movements bring to the attack (the Charge's bonus and lost DEX, the automatic hit
on a fleer, cover, point-blank shots) are in :mod:`~sim.rules.target10.hybrid`'s ``attack``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sim.engine.combat import SEGMENTS_PER_SECOND
from sim.engine.dice import DiceExpr
from sim.rules.acs.movement import CLOSE, FLEE, per_action
from sim.rules.acs.resolution import Defaults
from sim.rules.target10.movements import run_paces

if TYPE_CHECKING:
    from typing import TypeAlias

    from sim.rules.acs.clock import AcsClock, AcsFighter
    from sim.rules.target10.hybrid import HybridState, HybridStats
    from sim.rules.target10.models import MovementOptions, RangedWeapon, Skirmisher

    #: The clock of the ``target10`` resolution, and a combatant on it (the hooks' types).
    Clock: TypeAlias = AcsClock[HybridStats, HybridState]
    Seat: TypeAlias = AcsFighter[HybridStats, HybridState]

#: The replay's verbs: Target 10's own names of the movements.
CHARGES, ADVANCES, FLEES, WITHDRAWS = "charges", "advances", "flees", "withdraws"


def reload_segments(rounds: int, round_seconds: float) -> float:
    """Segments of the clock a firearm takes to reload: ``rounds`` rounds of ``round_seconds``."""
    return rounds * round_seconds * SEGMENTS_PER_SECOND


@dataclass(frozen=True, slots=True)
class Reach:
    """A hybrid combatant's distances and shooting kit, read once per scenario.

    Attributes:
        reach: the melee weapon's reach, in paces.
        range: the ranged weapon's range (0: none).
        weapon: the ranged weapon's name (for the replay).
        shoot: SHOOT with the ranged weapon (0: none).
        ranged_damage: its damage roll (None: none).
        firearm: it reloads after each shot.
        ammo: missiles carried at the start (None: unlimited).
        cover: minus this on attacks against it (option ``cover_against``).
        cover_all: ``cover_against: all`` (the scenario's, on every fighter for the hot path).
        point_blank: within reach, shoot a loaded ranged weapon (tactic ``point_blank``).
        charges: closes in by Charge (tactic ``close: charge``), else by Advance.
        close_paces: paces a round of its closing movement (Charge or Advance).
        flee_paces: paces a round of a Flee.
        withdraw_paces: paces a round of a Withdraw.
    """

    reach: float
    range: float
    weapon: str
    shoot: int
    ranged_damage: DiceExpr | None
    firearm: bool
    ammo: int | None
    cover: int
    cover_all: bool
    point_blank: bool
    charges: bool
    close_paces: float
    flee_paces: float
    withdraw_paces: float

    @classmethod
    def of(
        cls,
        model: Skirmisher,
        options: MovementOptions,
        *,
        reach: float,
        shoot: int,
        charges: bool,
        point_blank: bool,
        cover_all: bool,
    ) -> Reach:
        """Read a stat block's speed, weapons and cover under the movement options."""
        ranged: RangedWeapon | None = model.ranged
        run = run_paces(model.speed, options.run_multiplier)
        return cls(
            reach=reach,
            range=ranged.range if ranged is not None else 0.0,
            weapon=ranged.name if ranged is not None else "",
            shoot=shoot,
            ranged_damage=DiceExpr.parse(ranged.damage) if ranged is not None else None,
            firearm=ranged is not None and ranged.firearm,
            ammo=ranged.ammo if ranged is not None else None,
            cover=model.cover,
            cover_all=cover_all,
            point_blank=point_blank,
            charges=charges,
            close_paces=run if charges else options.advance_paces,
            flee_paces=run,
            withdraw_paces=options.withdraw_paces,
        )


class Target10Space(Defaults["HybridStats", "HybridState"]):
    """The movement and range hooks of the ``target10`` resolution.

    They answer :class:`~sim.rules.base.Space`: each fighter's ``stats.space`` is its
    :class:`Reach`, and its ``state`` holds ``ammo``, ``loaded_at`` and ``charging``. The other
    optional hooks are the clock's (:class:`~sim.rules.acs.resolution.Defaults`).
    """

    distance_unit = "paces"

    def reach(self, stats: HybridStats) -> float:
        """The melee weapon's reach."""
        space: Reach = stats.space
        return space.reach

    def shot_range(self, clock: Clock, me: Seat) -> float:
        """The ranged weapon's range while it has ammunition; 0 without one or with none left."""
        return me.stats.space.range if me.state.ammo != 0 else 0.0

    def step(self, clock: Clock, me: Seat, movement: str) -> float:
        """One action's share of a Charge or Advance (closing), a Flee, or a Withdraw.

        A Charge lasts from the action that moves so until its next attack is resolved (the
        blow that ends the charge): the state's ``charging`` flag, read by the attack.
        """
        space: Reach = me.stats.space
        if movement == CLOSE:
            paces = space.close_paces
            me.state.charging = space.charges
        elif movement == FLEE:
            paces = space.flee_paces
            me.state.charging = False
        else:
            paces = space.withdraw_paces
            me.state.charging = False
        return per_action(paces, clock.options.round_seconds, me.actions)

    def ready_shot(self, clock: Clock, me: Seat, target: Seat) -> bool:
        """True (this action reloads) while its firearm is still loading after the last shot."""
        state = me.state
        now = clock.env.now
        if state.loaded_at <= now:
            return False
        combat = clock.combat
        if combat.trace is not None:
            combat.emit(
                "t10_reload",
                me,
                target,
                weapon=me.stats.space.weapon,
                seconds=(state.loaded_at - now) / SEGMENTS_PER_SECOND,
            )
        return True

    def movement_word(self, me: Seat, movement: str) -> str:
        """``charges`` or ``advances`` (closing, by tactic ``close``), ``flees``, ``withdraws``."""
        if movement == CLOSE:
            return CHARGES if me.stats.space.charges else ADVANCES
        return FLEES if movement == FLEE else WITHDRAWS
