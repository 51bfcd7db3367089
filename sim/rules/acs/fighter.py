"""A combatant on the ACS clock: its timing stats, this second's plan, its named actions.

:class:`Timing` is the ACS stat block (``models.AcsTiming``) and tactics as one frozen value,
read once per scenario; :class:`AcsFighter` is one combatant in one combat: its ``timing`` (the
same value in every combat), and the state the clock (:mod:`sim.rules.acs.clock`) keeps of it:
its action segments this second, a multi-segment action under way, its defensive actions used,
its defensive maneuver, the modifiers of named actions (:mod:`sim.rules.acs.spells`), and the
resolution's stats and state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic
from weakref import ref

from simpy import Process

from sim.engine.combatant import Fighter
from sim.engine.space import home_side
from sim.engine.tactics import TARGETS, TargetChoice
from sim.rules.acs.action_dice import ActionDie, action_dice, action_die
from sim.rules.acs.resolution import StateT, StatsT
from sim.rules.acs.spells import Special

if TYPE_CHECKING:
    from sim.rules.acs.models import AcsClockOptions, AcsTiming


@dataclass(frozen=True, slots=True)
class Timing:
    """A combatant's ACS timing stats and tactics, as the clock reads them."""

    actions: int
    ambition_bonus: int
    giant: bool
    attack_segments: int
    #: How many of its actions one segment may hold (2 with simultaneous actions).
    per_segment: int
    #: Whether it starts the fight with an attack ready and aimed (prepared ambition).
    prepared: bool
    #: Its target choice (:data:`~sim.engine.tactics.TARGETS`), and whether it chooses again
    #: before every attack.
    choose: TargetChoice
    each_action: bool
    defend: str
    ready_last_action: bool
    die: ActionDie
    #: The sides of each action die rolled every second.
    action_dice: tuple[int, ...]
    #: Its named spells and maneuvers, in the order its tactics try them.
    specials: tuple[Special, ...]
    #: The ``uses`` of each (:data:`~sim.rules.acs.spells.UNLIMITED` for no limit).
    uses: tuple[int, ...]
    #: Movement tactics (:mod:`sim.rules.acs.movement`): close in (else hold), shoot when in
    #: range (else close to melee), the distance a shooter keeps, the hit points it flees at.
    closes: bool
    shoots: bool
    keep: float
    flee_below: int

    @classmethod
    def of(cls, model: AcsTiming, options: AcsClockOptions) -> Timing:
        """Read a validated stat block under the clock options."""
        tactics = model.tactics
        die = action_die(model.actions, model.size == "giant" and options.giant_dice)
        shares = (
            model.simultaneous_actions
            and 2 * model.concentration <= options.simultaneous_concentration
        )
        specials = tuple(Special.of(i, named) for i, named in enumerate(model.special_actions))
        return cls(
            actions=model.actions,
            ambition_bonus=model.ambition_bonus,
            giant=model.size == "giant",
            attack_segments=model.attack_segments,
            per_segment=2 if shares else 1,
            prepared=model.prepared,
            choose=TARGETS[tactics.target],
            each_action=tactics.retarget == "each_action",
            defend=tactics.defend,
            ready_last_action=tactics.ready_last_action,
            die=die,
            action_dice=action_dice(die, model.actions),
            specials=specials,
            uses=tuple(special.uses for special in specials),
            closes=tactics.movement == "close",
            shoots=tactics.ranged == "shoot",
            keep=tactics.keep_distance,
            flee_below=tactics.flee_below_hp,
        )

    @property
    def moves(self) -> bool:
        """Whether its tactics ever move it by themselves (keeping a distance, fleeing)."""
        return self.keep > 0 or self.flee_below > 0


class AcsFighter(Fighter, Generic[StatsT, StateT]):
    """A combatant on the ACS clock: timing stats, this second's plan, its resolution's data.

    ``timing`` is its stat block's :class:`Timing`; ``stats`` are the resolution's numbers
    (:meth:`Resolution.stats`); ``state`` is what the resolution keeps of it during one combat,
    set by the resolution's ``begin``.
    """

    __slots__ = (
        "boost_attack",
        "boost_defense",
        "boost_second",
        "busy_end",
        "def_t",
        "def_used",
        "free",
        "guarded",
        "home",
        "maneuver",
        "moving",
        "pending",
        "plan",
        "prepared",
        "proc",
        "rank",
        "reach",
        "state",
        "stats",
        "t0",
        "timing",
        "uses_left",
        "version",
        "winner",
    )

    #: The resolution's state of this combatant in this combat, set by its ``begin``.
    state: StateT
    #: Its SimPy process, set when the clock starts; held weakly, as the process holds the
    #: fighter (a strong reference both ways would keep a finished combat alive until the
    #: garbage collector's next pass).
    proc: ref[Process]
    #: Whom it attacks: an ACS fighter like itself.
    target: AcsFighter[StatsT, StateT] | None

    def __init__(
        self,
        name: str,
        side: int,
        index: int,
        hp: int,
        timing: Timing,
        stats: StatsT,
        pos: float = 0.0,
        reach: float = float("inf"),
    ) -> None:
        super().__init__(name, side, index, hp)
        self.pos = pos
        self.timing = timing
        self.stats: StatsT = stats
        #: Its melee reach, in the resolution's unit (:mod:`sim.rules.acs.movement`).
        self.reach = reach
        self.home = home_side(side)
        #: How it moved on its last action (a movement of :mod:`~sim.rules.acs.movement`, or
        #: None): a resolution reads it (a Target 10 fleer is hit automatically).
        self.moving: str | None = None
        #: An attack ready and aimed for the next second's ambition (prepared ambition).
        self.prepared: bool = timing.prepared
        #: Its action segments left this second (1..10, sorted) and the time of the second's
        #: segment 1.
        self.plan: list[int] = []
        self.t0: int = 0
        #: Its place in this second's ambition order (0 first); whether it won ambition, and
        #: whether the winner's free action is still to be taken.
        self.rank = 0
        self.winner = False
        self.free = False
        #: The time the multi-segment action under way completes (-1: none under way).
        self.busy_end: int = -1
        #: The segment (its simulation time) of its last defense roll, and the defensive
        #: actions it used in that segment.
        self.def_t: int = -1
        self.def_used = 0
        #: Bumped whenever its plan changes under a sleeping process (a lost or moved action).
        self.version = 0
        #: Completions left of each named action this fight (the same empty list when none).
        self.uses_left: list[int] = list(timing.uses) if timing.specials else _NO_USES
        #: The named action under way (None: the plain attack, or nothing under way).
        self.pending: Special | None = None
        #: The second (0-based) of its last defensive maneuver, and of its last guard (the
        #: default maneuver: defends every attack); -1 for never.
        self.maneuver = -1
        self.guarded = -1
        #: Modifiers of named actions, for the second ``boost_second`` only.
        self.boost_second = -1
        self.boost_attack = 0
        self.boost_defense = 0

    @property
    def actions(self) -> int:
        """Its actions per second (what a resolution spreads a movement over)."""
        return self.timing.actions


#: The uses of a fighter with no named actions (never changed).
_NO_USES: list[int] = []
