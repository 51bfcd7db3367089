"""A combatant on the ACS clock: its timing stats, this second's plan, its named actions.

:class:`Timing` is the hot-path copy of the ACS stat block (``models.AcsTiming``) and tactics,
read once per scenario; :class:`AcsFighter` is one combatant in one combat, with the state the
clock (:mod:`sim.rules.acs.clock`) keeps of it: its action segments this second, a multi-segment
action under way, its defensive actions used, its defensive maneuver, the modifiers of named
actions (:mod:`sim.rules.acs.spells`), and the resolution's stats and state.
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
            target=tactics.target,
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

    ``stats`` are the resolution's hot-path numbers (:meth:`Resolution.stats`); ``state`` is what
    the resolution keeps of it during one combat, set by the resolution's ``begin``.
    """

    __slots__ = (
        "action_dice",
        "actions",
        "ambition_bonus",
        "attack_segments",
        "boost_attack",
        "boost_defense",
        "boost_second",
        "busy_end",
        "choose",
        "closes",
        "def_t",
        "def_used",
        "defend",
        "die",
        "each_action",
        "flee_below",
        "free",
        "giant",
        "guarded",
        "home",
        "keep",
        "maneuver",
        "moving",
        "pending",
        "per_segment",
        "plan",
        "prepared",
        "proc",
        "rank",
        "reach",
        "ready_last",
        "shoots",
        "specials",
        "state",
        "stats",
        "t0",
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
        #: Its melee reach, in the resolution's unit (:mod:`sim.rules.acs.movement`).
        self.reach = reach
        self.closes = timing.closes
        self.shoots = timing.shoots
        self.keep = timing.keep
        self.flee_below = timing.flee_below
        self.home = home_side(side)
        #: How it moved on its last action (a movement of :mod:`~sim.rules.acs.movement`, or
        #: None): a resolution reads it (a Target 10 fleer is hit automatically).
        self.moving: str | None = None
        self.actions: int = timing.actions
        self.ambition_bonus: int = timing.ambition_bonus
        self.giant: bool = timing.giant
        self.die: ActionDie = timing.die
        self.action_dice = timing.action_dice
        self.attack_segments: int = timing.attack_segments
        self.per_segment = timing.per_segment
        self.choose: TargetChoice = TARGETS[timing.target]
        self.each_action = timing.each_action
        self.defend: str = timing.defend
        self.ready_last: bool = timing.ready_last_action
        self.prepared: bool = timing.prepared
        self.stats: StatsT = stats
        self.plan: list[int] = []
        self.t0: int = 0
        self.rank = 0
        self.free = False
        self.winner = False
        self.busy_end: int = -1
        #: The segment (its simulation time) of its last defense roll, and the defensive
        #: actions it used in that segment.
        self.def_t: int = -1
        self.def_used = 0
        self.version = 0
        self.specials = timing.specials
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


#: The uses of a fighter with no named actions (never changed).
_NO_USES: list[int] = []
