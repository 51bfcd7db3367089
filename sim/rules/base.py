"""The narrow interface between the engine, the scenario loader and a rule system.

A rule system is registered by name in :data:`sim.rules.RULE_SYSTEMS` (the built-ins, then the
plug-ins of the ``combatsim.rules`` entry-point group); the scenario's ``rules:`` key looks it up
there. It tells the scenario loader how to validate its rule options and its combatants' stat
blocks, and it turns a validated scenario into a :class:`Prepared` object that spawns the fighters
of each combat and starts the round process that drives it.

The rules sit below the scenario layer: a rule system never imports the scenario loader. What it
reads of a validated scenario is the small :class:`ScenarioView` declared here, which the loader's
``Scenario`` provides.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from sim.engine.combat import Combat, TraceEvent
from sim.engine.combatant import Fighter
from sim.engine.dice import Dice
from sim.engine.errors import Problem
from sim.rules.acs.resolution import Resolution

#: The fighter type a prepared scenario spawns and its round process plays with.
F = TypeVar("F", bound=Fighter)


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
    def resolutions(self) -> Mapping[str, Resolution]:
        """Resolutions this rule system offers to the ACS clock (empty when it offers none).

        Keyed by the name ACS's ``resolution`` option uses.
        """

    def options_model(self, raw: Mapping[str, Any]) -> type[BaseModel]:
        """The pydantic model of the rule options, given the raw ``options:`` mapping.

        The raw mapping is passed because one option may decide which others exist (ACS's
        ``resolution`` brings the options of the resolution it names).
        """

    def combatant_model(self, options: BaseModel) -> type[BaseModel]:
        """The pydantic model of one combatant's stat block under these options."""

    def check(self, scenario: ScenarioView) -> list[Problem]:
        """Problems that involve several fields at once (an impossible scenario)."""

    def prepare(self, scenario: ScenarioView) -> Prepared[Any]:
        """Plain, fast objects for the hot path, built from the validated scenario."""

    def narration_for(self, options: BaseModel) -> Mapping[str, Callable[[TraceEvent], str]]:
        """Sentences for the events this rule system emits under these options (``replay``)."""

    def time_label(self, t: float) -> str:
        """The heading of the replay for simulation time ``t`` (``second 2, segment 7``)."""

    def round_seconds(self, options: BaseModel) -> float | None:
        """Game seconds in one of its rounds, the unit its fights are counted in.

        None when it counts game seconds itself (ACS's clock, and every resolution played on it).
        """
