"""The narrow interface between the engine and a rule system.

A rule system is registered by name in :data:`sim.rules.RULE_SYSTEMS`; the scenario's ``rules:``
key looks it up there. It tells the scenario loader how to validate its rule options and its
combatants' stat blocks, and it turns a validated scenario into a :class:`Prepared` object that
spawns the fighters of each combat and starts the round process that drives it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

if TYPE_CHECKING:
    from sim.combatant import Fighter
    from sim.dice import Dice
    from sim.engine import Combat
    from sim.scenario.problems import Problem
    from sim.scenario.schema import Scenario


class Prepared(Protocol):
    """What a rule system builds once per run (and once per worker) from a scenario."""

    def spawn(self, dice: Dice) -> list[Fighter]:
        """Fresh fighters for one combat, in scenario order (hit point dice rolled here)."""

    def start(self, combat: Combat) -> None:
        """Start the round process(es) of one combat on ``combat.env``."""


class RuleSystem(Protocol):
    """A rule system: validation models, a builder and narration for its events."""

    name: str
    title: str
    default_time_limit_s: float

    def options_model(self, raw: Mapping[str, Any]) -> type[BaseModel]:
        """The pydantic model of the rule options, given the raw ``options:`` mapping.

        The raw mapping is passed because one option may decide which others exist (ACS's
        ``resolution`` brings the options of the resolution it names).
        """

    def combatant_model(self, options: BaseModel) -> type[BaseModel]:
        """The pydantic model of one combatant's stat block under these options."""

    def check(self, scenario: Scenario) -> list[Problem]:
        """Problems that involve several fields at once (an impossible scenario)."""

    def prepare(self, scenario: Scenario) -> Prepared:
        """Plain, fast objects for the hot path, built from the validated scenario."""

    def narration_for(self, options: BaseModel) -> Mapping[str, Callable[[Any], str]]:
        """Sentences for the events this rule system emits under these options (``replay``)."""
