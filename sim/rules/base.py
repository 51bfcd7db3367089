"""The extension contract: what a rule system and a resolution provide, in one neutral place.

A rule system is registered by name in :data:`sim.rules.RULE_SYSTEMS` (the built-ins, then the
plug-ins of the ``combatsim.rules`` entry-point group); the scenario's ``rules:`` key looks it up
there. It tells the scenario loader how to validate its rule options and its combatants' stat
blocks, and it turns a validated scenario into a :class:`Prepared` object that spawns the fighters
of each combat and starts the round process that drives it.

A *resolution* decides what an attack does on a clock that decides who acts when (ACS text: "a
timing framework to be modified to fit each game's mechanics"). Its protocol, :class:`Resolution`,
is declared here too, hook by hook, with the optional ones apart (:class:`OptionalHooks`, among
them the movement and range hooks of :class:`Space`): the clock calls every hook of the protocol
and nothing else. The protocols are generic in the clock and the fighter the hooks are handed,
so this module imports no rule system; the ACS clock names its own types in
:mod:`sim.rules.acs.resolution` (``Resolution[Stats, State]``), which also holds the clock's
defaults of the optional hooks.

The rules sit below the scenario layer: a rule system never imports the scenario loader. What it
reads of a validated scenario is the small :class:`ScenarioView` declared here, which the loader's
``Scenario`` provides. The registry (:mod:`sim.rules.registry`) checks plug-ins against the
member lists of these protocols, read from the protocols themselves (:func:`protocol_members`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel

from sim.engine.combat import Combat, TraceEvent
from sim.engine.combatant import Fighter
from sim.engine.dice import Dice
from sim.engine.errors import Problem

#: The fighter type a prepared scenario spawns and its round process plays with.
F = TypeVar("F", bound=Fighter)
#: The clock a resolution plays on, and one combatant on it (ACS: ``AcsClock[Stats, State]`` and
#: ``AcsFighter[Stats, State]``); a hook only receives them.
ClockT = TypeVar("ClockT", contravariant=True)
FighterT = TypeVar("FighterT", contravariant=True)
#: A resolution's hot-path stats of one combatant: it makes them (:meth:`Resolution.stats`) and
#: reads them back (:meth:`Space.reach`).
StatsT = TypeVar("StatsT")
#: The same, where a hook only reads them.
StatsT_contra = TypeVar("StatsT_contra", contravariant=True)

#: The movements a clock asks a :class:`Space` about: towards the target, away from the nearest
#: enemy (in flight), back a step with the guard up (a shooter keeping its distance).
CLOSE, FLEE, WITHDRAW = "close", "flee", "withdraw"
MOVEMENTS = (CLOSE, FLEE, WITHDRAW)


class ScenarioCombatant(Protocol):
    """One combatant of a validated scenario, as a rule system reads it."""

    @property
    def name(self) -> str:
        """Unique in the scenario (``goblin 3``)."""

    @property
    def side(self) -> int:
        """Index of its side."""

    @property
    def stats(self) -> BaseModel:
        """The stat block, validated by the rule system's ``combatant_model``."""

    @property
    def path(self) -> tuple:
        """The YAML path of the entry it came from (for :class:`~sim.engine.errors.Problem`)."""


class ScenarioView(Protocol):
    """What a rule system reads of a validated scenario (``check`` and ``prepare``)."""

    @property
    def name(self) -> str:
        """The scenario's name."""

    @property
    def file(self) -> str:
        """The file it came from (``<string>`` for text), for problems."""

    @property
    def options(self) -> BaseModel:
        """The rule options, validated by the rule system's ``options_model``."""

    @property
    def time_limit_s(self) -> float:
        """Game seconds after which a fight is a draw."""

    @property
    def side_names(self) -> tuple[str, ...]:
        """The sides' names, by index."""

    @property
    def combatants(self) -> Sequence[ScenarioCombatant]:
        """Every combatant, in scenario order."""


class Prepared(Protocol[F]):
    """What a rule system builds once per run (and once per worker) from a scenario."""

    def spawn(self, dice: Dice) -> list[F]:
        """Fresh fighters for one combat, in scenario order (hit point dice rolled here)."""

    def start(self, combat: Combat[F]) -> None:
        """Start the round process(es) of one combat on ``combat.env``."""


class RuleSystem(Protocol):
    """A rule system: validation models, a builder, narration, and the resolutions it offers."""

    @property
    def name(self) -> str:
        """The name a scenario's ``rules:`` key uses."""

    @property
    def title(self) -> str:
        """The rule text's title, for reports and replays."""

    @property
    def default_time_limit_s(self) -> float:
        """The time limit of a scenario that sets none."""

    @property
    def resolutions(self) -> Mapping[str, Resolution[Any, Any, Any]]:
        """Resolutions this rule system offers to the ACS clock (empty when it offers none).

        Keyed by the name ACS's ``resolution`` option uses. (``Any``: each has its own stats and
        clock types; the ACS clock pairs them when it plays one.)
        """

    def options_model(self, raw: Mapping[str, object]) -> type[BaseModel]:
        """The pydantic model of the rule options, given the raw ``options:`` mapping.

        The raw mapping is passed because one option may decide which others exist (ACS's
        ``resolution`` brings the options of the resolution it names).
        """

    def combatant_model(self, options: BaseModel) -> type[BaseModel]:
        """The pydantic model of one combatant's stat block under these options."""

    def check(self, scenario: ScenarioView) -> list[Problem]:
        """Problems that involve several fields at once (an impossible scenario)."""

    def prepare(self, scenario: ScenarioView) -> Prepared[Any]:
        """Plain, fast objects for the hot path, built from the validated scenario.

        (``Any``: each rule system spawns its own fighter type, which only its round process
        reads.)
        """

    def narration_for(self, options: BaseModel) -> Mapping[str, Callable[[TraceEvent], str]]:
        """Sentences for the events this rule system emits under these options (``replay``)."""

    def time_label(self, t: float) -> str:
        """The heading of the replay for simulation time ``t`` (``second 2, segment 7``)."""

    def round_seconds(self, options: BaseModel) -> float | None:
        """Game seconds in one of its rounds, the unit its fights are counted in.

        None when it counts game seconds itself (ACS's clock, and every resolution played on it).
        """


# -- resolutions: what resolves an attack on a clock --------------------------------------------


class Space(Protocol[ClockT, FighterT, StatsT_contra]):
    """The movement and range hooks of a resolution: the numbers of its own system.

    ACS text, "Movement": movement "is based on the mechanics utilizing this system". The clock
    moves combatants on the engine's line (:mod:`sim.engine.space`) over their action segments;
    the resolution says in which unit, how far one action goes, and what reach and range are.
    """

    @property
    def distance_unit(self) -> str:
        """The unit of distances (``paces``, ``feet``): positions, reach, range and speeds."""

    def reach(self, stats: StatsT_contra) -> float:
        """Melee reach of a combatant with these hot-path stats."""

    def shot_range(self, clock: ClockT, me: FighterT) -> float:
        """How far ``me`` can shoot now (0: it cannot: no ranged weapon, no ammunition)."""

    def step(self, clock: ClockT, me: FighterT, movement: str) -> float:
        """How far one action of ``movement`` (one of :data:`MOVEMENTS`) takes ``me``.

        It may note the movement (a Charge lasts until the attack that ends it).
        """

    def ready_shot(self, clock: ClockT, me: FighterT, target: FighterT) -> bool:
        """Before a shot: True when this action goes to aiming or reloading instead."""

    def movement_word(self, me: FighterT, movement: str) -> str:
        """The replay's verb for this move (``charges``, ``advances``): the system's own name."""


class OptionalHooks(Space[ClockT, FighterT, StatsT_contra], Protocol):
    """The hooks a resolution may leave out: the clock has an answer of its own for each.

    A resolution derives from the clock's defaults (for ACS,
    :class:`sim.rules.acs.resolution.Defaults`) and overrides what its system says; a plug-in
    that leaves some out is completed with those defaults once, when the registry registers it.
    """

    @property
    def action_effects(self) -> frozenset[str]:
        """The effects of named actions (ACS spells and maneuvers) this resolution plays."""

    def defensive_maneuver(self, clock: ClockT, fighter: FighterT) -> None:
        """What a lost action taken as a defensive maneuver does (ACS "Defenses")."""


class Resolution(OptionalHooks[ClockT, FighterT, StatsT], Protocol):
    """What a clock asks of a resolution: its models, its stats, and the attack.

    A resolution brings its own rule options and stat-block model (on the ACS clock the latter
    includes the clock's timing fields), makes plain hot-path stats from a validated stat block,
    sets up each combat's shared state once before the first second (:meth:`begin`), and
    resolves one attack, telling the clock whether the defender rolled a defense (which may
    cost it an action or disrupt a long one).
    """

    @property
    def name(self) -> str:
        """The name a scenario's ``resolution`` option uses."""

    @property
    def options_model(self) -> type[BaseModel]:
        """The resolution's own rule options, merged with the clock's into the scenario's.

        Derived from its rule system's own option models, never a copy of their fields.
        """

    @property
    def combatant_model(self) -> type[BaseModel]:
        """A combatant's stat block: the clock's timing fields plus the resolution's own."""

    @property
    def narration(self) -> Mapping[str, Callable[[TraceEvent], str]]:
        """Sentences for the events the resolution emits (for ``combatsim replay``)."""

    def stats(self, model: Any, options: Any) -> StatsT:
        """Plain hot-path stats from a validated stat block under the merged options.

        (``Any``: the stat block and options are the resolution's own models,
        :attr:`combatant_model` and the clock's options merged with :attr:`options_model`,
        which the clock validated and cannot name.)
        """

    def begin(self, clock: ClockT) -> None:
        """Set up one combat: called once after the fighters are spawned, before the first second.

        It gives every fighter its starting ``state`` (luck points, a body) and builds whatever
        the combat shares, so that :meth:`attack` never sets anything up lazily.
        """

    def attack(self, clock: ClockT, attacker: FighterT, target: FighterT, can_defend: bool) -> bool:
        """Resolve one attack; True when the target rolled a defense."""


def protocol_members(protocol: type) -> tuple[str, ...]:
    """The public members a protocol declares, its bases' first, in the order they are written.

    The registry checks plug-ins against these lists, so that a member added to a protocol is
    checked with no second list to keep in step.
    """
    members: list[str] = []
    for cls in reversed(protocol.__mro__):
        if cls in (object, Protocol, Generic):
            continue
        for member in (*vars(cls).get("__annotations__", {}), *vars(cls)):
            if not member.startswith("_") and member not in members:
                members.append(member)
    return tuple(members)
